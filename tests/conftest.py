from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Helpers shared by tests live beside this file (netguard, hostile, harvestsite, verdictnet, ...), never in
# a test module: a test module imports helpers, not another test module.
TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))
import netguard  # noqa: E402 - from the folder just put on the path
from pgcluster import pg_cluster, pg_url  # noqa: E402, F401 - the team-cache tests' PostgreSQL

netguard.install()


def _hypothesis_profiles() -> None:
    """CI (`CI=true`, as .ci/run runs) searches derandomized: the same examples on every run, so a
    red CI is reproducible and a green one cannot turn red by chance. Locally the search is random
    (it finds new cases) and failing examples are kept outside the checkout, under the user's cache
    directory, so a clone never carries another run's failures. `HYPOTHESIS_PROFILE` picks one."""
    from hypothesis import settings
    from hypothesis.configuration import set_hypothesis_home_dir
    from hypothesis.database import DirectoryBasedExampleDatabase

    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    set_hypothesis_home_dir(str(cache / "citecheck-tests" / "hypothesis-home"))  # not ./.hypothesis
    settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
    settings.register_profile("dev", database=DirectoryBasedExampleDatabase(str(cache / "citecheck-tests" / "hypothesis")))
    default = "ci" if os.environ.get("CI", "").lower() in ("true", "1") else "dev"
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", default))


_hypothesis_profiles()

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SHARED = ROOT.parent / "shared"


@pytest.fixture(autouse=True)
def _isolate_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test gets its own cache dir and no user config leaks in."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("xdg-config")))
    monkeypatch.delenv("CITECHECK_CONFIG", raising=False)
    for var in ("TAVILY_API_KEY", "SERPAPI_API_KEY", "BRAVE_API_KEY", "PERPLEXITY_API_KEY", "FIRECRAWL_API_KEY",
                "OPENAI_API_KEY", "GITHUB_ACTIONS"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def served() -> Iterator[Any]:
    """The hostile web (`hostile.HostileWeb`) on a loopback port; `.base` is its URL prefix."""
    from hostile import HostileWeb
    from hostile_net import ServerThread

    web = HostileWeb()
    with ServerThread(web.app) as thread:
        web.base = f"http://127.0.0.1:{thread.port}"  # type: ignore[attr-defined]
        yield web


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared is not beside this checkout")
    return SHARED


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("CITECHECK_TESTING", "1")
