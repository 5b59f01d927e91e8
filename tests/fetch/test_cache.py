"""The fetch cache: hits and misses, expiry, what is never stored, two writers, a corrupt file.

Tests taking `location` run on both backends: the SQLite file and the PostgreSQL team cache (a
throw-away cluster, tests/pgcluster.py)."""
from __future__ import annotations

import multiprocessing
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from citecheck.config import FetchConfig
from citecheck.fetch import fetch_all
from citecheck.fetch.cache import Cache, cacheable, default_path, fact_kind, open_store
from citecheck.models import Hop, Outcome, Page

OK = Page(url="https://example.org/a?utm_source=x", outcome=Outcome.OK, status=200, final_url="https://example.org/a",
          chain=(Hop("https://example.org/a", 200),), headers={"content-type": "text/html"}, title="A",
          text_sample="text", meta={"og:title": "A"}, sibling_status=404, sibling_text="nope")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])  # PostgreSQL: the full suite
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where the cache under test lives: a SQLite file, or the team cache's URL (schema migrated, empty)."""
    return str(tmp_path / "c.sqlite") if request.param == "sqlite" else str(request.getfixturevalue("pg_url"))


def test_hit_miss_and_exact_url(location: str) -> None:
    """Facts answer for the URL fetched, spelled in any way that keeps the request the same, and for
    no other URL of the same source (issue 26 item 6)."""
    with open_store(location) as cache:
        assert cache.get(OK.url, 30) is None
        cache.put(OK)
        hit = cache.get("HTTPS://Example.ORG:443/a?utm_source=x#part", 30)
        assert hit is not None and hit.from_cache and hit.url == "HTTPS://Example.ORG:443/a?utm_source=x#part"
        assert replace(hit, url=OK.url, from_cache=False) == OK
        for other in ("http://www.example.org/a/", "https://example.org/a", "https://www.example.org/a?utm_source=x",
                      "https://example.org/a/?utm_source=x", "https://example.org/b"):
            assert cache.get(other, 30) is None, other


def test_expiry_and_prune(location: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_store(location) as cache:
        real = time.time
        monkeypatch.setattr(time, "time", lambda: real() - 10 * 86400)
        cache.put(OK)
        monkeypatch.setattr(time, "time", real)
        assert cache.get(OK.url, 30) is not None and cache.get(OK.url, 5) is None
        assert cache.prune(5) == 1 and cache.get(OK.url, 30) is None


@pytest.mark.parametrize("outcome,error,status,kind", [
    (Outcome.OK, "", 200, "answer"), (Outcome.OK, "body-too-large", 200, "answer"), (Outcome.DEAD, "", 404, "answer"),
    (Outcome.DEAD, "nxdomain", None, "nxdomain"), (Outcome.UNVERIFIABLE, "unresolved", None, None),
    (Outcome.UNVERIFIABLE, "server-error", 503, None), (Outcome.UNVERIFIABLE, "timeout", None, None),
    (Outcome.UNVERIFIABLE, "timeout", 200, None), (Outcome.UNVERIFIABLE, "invalid-response", 200, None),
    (Outcome.UNVERIFIABLE, "rate-limited", 429, None), (Outcome.UNVERIFIABLE, "challenge", 403, None),
    (Outcome.EXCLUDED, "blocked-private", None, None), (Outcome.ERROR, "internal: x", None, None),
])
def test_only_settled_facts_are_stored(location: str, outcome: Outcome, error: str, status: int | None,
                                       kind: str | None) -> None:
    page = replace(OK, outcome=outcome, error=error, status=status)
    assert fact_kind(page) == kind and cacheable(page) is (kind is not None)
    with open_store(location) as cache:
        cache.put(page)
        assert (cache.get(page.url, 30) is not None) is (kind is not None)
        assert cache.stats()["by_kind"] == ({kind: 1} if kind else {})


def test_nxdomain_lives_at_most_a_day(location: str, monkeypatch: pytest.MonkeyPatch) -> None:
    dead = replace(OK, url="https://fabricated-institute.org/r", outcome=Outcome.DEAD, error="nxdomain", status=None)
    with open_store(location) as cache:
        real = time.time
        monkeypatch.setattr(time, "time", lambda: real() - 2 * 86400)
        cache.put_many([dead, OK])
        monkeypatch.setattr(time, "time", real)
        assert cache.get(OK.url, 30) is not None and cache.get(dead.url, 30) is None
        assert cache.prune(30) == 1 and cache.stats()["by_kind"] == {"answer": 1}


def test_extras_stats_clear(location: str) -> None:
    with open_store(location) as cache:
        assert cache.get_extra("main-text", "abc") is None
        cache.put_extra("main-text", "abc", {"text": "body"})
        cache.put(OK)
        assert cache.get_extra("main-text", "abc") == {"text": "body"}
        stats = cache.stats()
        assert (stats["pages"], stats["extras"], stats["by_outcome"]) == (1, 1, {"ok": 1})
        assert cache.clear() == 2 and cache.stats()["pages"] == 0


def test_default_path_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_path() == tmp_path / "citecheck" / "cache.sqlite"
    with Cache() as cache:
        assert cache.path == tmp_path / "citecheck" / "cache.sqlite" and cache.path.exists()


def test_corrupt_cache_of_its_own_is_rebuilt_with_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.sqlite"
    with Cache(path) as cache:
        cache.put(OK)
    head = path.read_bytes()[:100]  # citecheck's mark stays; everything after it is garbage
    path.write_bytes(head + b"this is not a database" * 400)
    with Cache(path) as cache:
        cache.put(OK)
        assert cache.get(OK.url, 30) is not None
    assert "unreadable" in capsys.readouterr().err and (tmp_path / "c.sqlite.corrupt").exists()


def _writer(path: str, name: str, count: int) -> None:
    cache = Cache(path)
    for batch in range(0, count, 10):
        cache.put_many([replace(OK, url=f"https://example.org/{name}/{n}") for n in range(batch, batch + 10)])
    cache.close()


def test_two_processes_write_one_cache(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.sqlite")
    Cache(path).close()
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_writer, args=(path, name, 300)) for name in ("p1", "p2")]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert [w.exitcode for w in workers] == [0, 0]
    with Cache(path) as cache:
        assert cache.stats()["pages"] == 600


async def test_fetch_all_uses_and_fills_the_cache(site: Any, location: str) -> None:
    config = FetchConfig(allow=("127.0.0.1",), cache=location, timeout=2, retries=0)
    urls = [site.base + p for p in ("/article", "/missing", "/ratelimit/x?n=99&after=0")]
    first = await fetch_all(urls, config)
    assert not any(p.from_cache for p in first.values()) and first.cached == 0
    second = await fetch_all(urls, config)
    assert second[urls[0]].from_cache and second[urls[1]].from_cache and not second[urls[2]].from_cache
    assert second[urls[0]].sibling_status == 404 and second.cached == 2
    assert site.hits["/article"] == 1 and site.hits["/missing"] == 1 and site.hits["/ratelimit/x"] == 2
    await fetch_all(urls, replace(config, use_cache=False))
    assert site.hits["/article"] == 2


async def test_cache_hits_reach_on_page_in_chunks(site: Any, location: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import citecheck.fetch

    config = FetchConfig(allow=("127.0.0.1",), cache=location, timeout=2, retries=0)
    urls = [site.base + p for p in ("/article", "/missing", "/gone", "/deep", "/soft404")]
    await fetch_all(urls, config)
    monkeypatch.setattr(citecheck.fetch, "CACHE_CHUNK", 2)  # three reads of the cache
    seen: list[tuple[str, bool]] = []
    again = await fetch_all(urls, config, on_page=lambda url, page: seen.append((url, page.from_cache)))
    assert sorted(seen) == sorted((u, True) for u in urls) and again.cached == len(urls)
    assert all(site.hits[p] == 1 for p in ("/article", "/missing", "/gone", "/deep", "/soft404"))
