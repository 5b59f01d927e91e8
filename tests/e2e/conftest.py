"""End-to-end tests: subprocesses, servers, PostgreSQL, a browser, the built wheel, pre-commit, the
Action. Every one is `slow`: the full suite (`python3 -m pytest -q`, CI) runs them, the inner loop
(`-m "not slow"`) does not."""
from __future__ import annotations

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = __file__.rsplit("/", 1)[0]
    for item in items:
        if str(item.path).startswith(here + "/"):
            item.add_marker(pytest.mark.slow)
