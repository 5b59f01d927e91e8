"""The test suite's own promises: derandomized hypothesis under CI, random search locally, and
examples never stored inside the checkout."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = ("import conftest, hypothesis, hypothesis.configuration as c, json; s = hypothesis.settings.default; "
         "db = s.database; print(json.dumps([s.derandomize, None if db is None else str(getattr(db, 'path', db)), "
         "str(c.storage_directory().home_directory)]))")


def _profile(**env: str) -> list:
    clean = {k: v for k, v in os.environ.items() if k not in ("CI", "HYPOTHESIS_PROFILE")}
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT / "tests", env={**clean, **env},
                          capture_output=True, text=True, check=True)
    import json
    return json.loads(proc.stdout)


def test_ci_is_derandomized_without_a_database(tmp_path: Path) -> None:
    derandomize, database, home = _profile(CI="true", XDG_CACHE_HOME=str(tmp_path))
    assert (derandomize, database) == (True, None)
    assert Path(home).is_relative_to(tmp_path)  # hypothesis's own caches (constants, unicode data) too


def test_local_runs_search_randomly_and_keep_examples_outside_the_checkout(tmp_path: Path) -> None:
    derandomize, database, home = _profile(XDG_CACHE_HOME=str(tmp_path))
    assert derandomize is False
    assert database is not None and Path(database).is_relative_to(tmp_path)
    assert not Path(database).resolve().is_relative_to(ROOT) and not Path(home).resolve().is_relative_to(ROOT)
