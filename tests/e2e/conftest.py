"""End-to-end tests: subprocesses, whole pipelines over servers, PostgreSQL, a browser, the built
wheel, pre-commit, the Action. Every test in this folder is `slow`: the full suite
(`python3 -m pytest -q`, CI) runs them, the inner loop (`-m "not slow"`) does not."""
from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.slow)
