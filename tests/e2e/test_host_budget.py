"""The per-host budget a team cache's runners share (schema version 2), and the upgrade to it.

A throw-away cluster (tests/pgcluster.py) and a local aiohttp server that records when each
request to it started and ended; the runners are real `citecheck audit` processes."""
from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from click.testing import CliRunner
from hostile_net import ServerThread

from citecheck.cli import main
from citecheck.errors import CacheError
from citecheck.fetch.cache import open_store
from citecheck.fetch.cache_pg import PgCache
from citecheck.models import Outcome, Page

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Timed:
    """Every request's (path, start, end) on the server's clock. /p/N: a page after 100 ms; /slow/N
    hangs until released; the sibling probes and robots.txt: 404. `gate`: the first requests wait
    (up to 10 s) until that many are in flight at once, so runners that do not share a budget
    meet for certain."""

    def __init__(self, gate: int = 0) -> None:
        self.gate = gate
        self.log: list[tuple[str, float, float]] = []  # requests answered
        self.seen: dict[str, float] = {}  # path → when its first request arrived
        self.in_flight = 0
        self.released = False
        self.app = web.Application(middlewares=[self.record])
        self.app.router.add_get("/{kind}/{n}", self.page)

    @web.middleware
    async def record(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        start = time.monotonic()
        self.seen.setdefault(request.path, start)
        self.in_flight += 1
        try:
            deadline = start + 10
            while self.gate and self.in_flight < self.gate and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            self.gate = 0 if self.in_flight >= self.gate else self.gate
            return await handler(request)
        finally:
            self.in_flight -= 1
            self.log.append((request.path, start, time.monotonic()))

    async def page(self, request: web.Request) -> web.Response:
        kind, n = request.match_info["kind"], request.match_info["n"]
        if n.startswith("citecheck-probe-"):
            return web.Response(status=404, text="no such page")
        while kind == "slow" and not self.released:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.1)
        return web.Response(text=f"<html><head><title>Widget report {n}</title></head><body><p>Widget report "
                                 f"{n}: widgets grew {n} percent.</p></body></html>", content_type="text/html")

    def most_in_flight(self) -> int:
        edges = sorted([(start, 1) for _, start, _ in self.log] + [(end, -1) for _, _, end in self.log])
        return max(itertools.accumulate(step for _, step in edges))

    def starts(self) -> list[float]:
        return sorted(start for _, start, _ in self.log)

    def first(self, path: str) -> float | None:
        return self.seen.get(path)


@pytest.fixture
def timed(request: pytest.FixtureRequest) -> Iterator[tuple[Timed, str]]:
    server = Timed(getattr(request, "param", 0))
    with ServerThread(server.app) as thread:
        yield server, f"http://127.0.0.1:{thread.port}"
        server.released = True


def _memo(path: Path, base: str, paths: list[str]) -> Path:
    lines = [f"- Widget report {n}: widgets grew [source]({base}{p})." for n, p in enumerate(paths)]
    path.write_text("# Widgets\n\n" + "\n".join(lines) + "\n")
    return path


def _audit(memo: Path, cache: str, config: Path, *extra: str, **env: str) -> subprocess.Popen[str]:
    clean = {k: v for k, v in os.environ.items() if k != "CITECHECK_CACHE_URL"}
    return subprocess.Popen([sys.executable, "-m", "citecheck", "audit", str(memo), "--format", "json",
                             "--config", str(config), "--cache", cache, *extra], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=memo.parent, env={**clean, **env})


def _finish(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode in (0, 1), err
    report: dict[str, Any] = json.loads(out)
    return report


def _config(tmp_path: Path, concurrency: int, interval: float) -> Path:
    path = tmp_path / "citecheck.yaml"
    path.write_text(f"fetch: {{allow: [127.0.0.1], host-concurrency: {concurrency}, host-interval: {interval}}}\n")
    return path


def _spaced(starts: list[float], interval: float, slack: float) -> bool:
    """Whether no window holds more starts than the interval allows (`slack`: delivery jitter)."""
    return all(starts[j] - starts[i] >= (j - i) * interval - slack
               for i in range(len(starts)) for j in range(i + 1, len(starts)))


INTERVAL = 0.2
SLACK = 0.3  # a reserved start may reach the server this much late (a loaded machine), the next one on time


def _four_runners(server: Timed, base: str, tmp_path: Path, caches: list[str]) -> list[dict[str, Any]]:
    config = _config(tmp_path, 2, INTERVAL)
    memos = [_memo(tmp_path / f"memo{i}.md", base, [f"/p/{10 * i + k}" for k in range(5)]) for i in range(4)]
    return [_finish(p) for p in [_audit(m, cache, config) for m, cache in zip(memos, caches, strict=True)]]


def test_four_runners_on_a_team_cache_keep_one_host_budget(timed: tuple[Timed, str], pg_url: str,
                                                           tmp_path: Path) -> None:
    """Four runners, different URLs of one host (nothing for single-flight to share): together at
    most host-concurrency requests in flight and starts host-interval apart."""
    server, base = timed
    reports = _four_runners(server, base, tmp_path, [pg_url] * 4)
    assert all(r["summary"]["fetched_now"] == 5 for r in reports)
    assert sum(p.startswith("/p/") and "probe" not in p for p, _, _ in server.log) == 20
    assert server.most_in_flight() <= 2
    starts = server.starts()
    assert _spaced(starts, INTERVAL, slack=SLACK), [round(b - a, 3) for a, b in itertools.pairwise(starts)]
    with open_store(pg_url) as cache:
        assert cache.stats()["host_slots"] == 0  # every runner gave its slots back


@pytest.mark.parametrize("timed", [3], indirect=True)
def test_four_runners_with_their_own_sqlite_caches_multiply_the_load(timed: tuple[Timed, str],
                                                                     tmp_path: Path) -> None:
    """The contrast that shows the test above can fail: each runner alone keeps the budget, so
    together they exceed it (the server's gate holds the first requests until three meet)."""
    server, base = timed
    _four_runners(server, base, tmp_path, [str(tmp_path / f"cache{i}.sqlite") for i in range(4)])
    assert server.most_in_flight() >= 3
    assert not _spaced(server.starts(), INTERVAL, slack=SLACK)


def test_a_killed_runner_holds_a_host_slot_only_until_it_expires(timed: tuple[Timed, str], pg_url: str,
                                                                 tmp_path: Path) -> None:
    """host-concurrency 1: a runner killed mid-request keeps the host's only slot until the slot's
    hold ends (its --timeout plus 5 s), not for ever, and not shorter than a live request could."""
    server, base = timed
    config = _config(tmp_path, 1, 0)
    timeout, hold = 4.0, 9.0
    first = _audit(_memo(tmp_path / "slow.md", base, ["/slow/1"]), pg_url, config, "--timeout", str(timeout))
    try:
        deadline = time.monotonic() + 60
        while server.first("/slow/1") is None and time.monotonic() < deadline:
            time.sleep(0.05)
        taken = server.first("/slow/1")
        assert taken is not None, first.stderr.read() if first.poll() is not None else "no request"
        second = _audit(_memo(tmp_path / "other.md", base, ["/p/2"]), pg_url, config, "--timeout", str(timeout))
        time.sleep(timeout / 2)
        assert server.first("/p/2") is None  # the second runner waits for the host's only slot
        first.send_signal(signal.SIGKILL)
        report = _finish(second)
    finally:
        server.released = True
        first.kill()
        first.wait()
    assert report["summary"]["outcomes"] == {"ok": 1}
    waited = server.first("/p/2") - taken  # type: ignore[operator]
    assert hold - 3 <= waited <= hold + 10, waited  # not freed at the kill (~2 s), nor held past the hold


def test_a_live_runner_keeps_its_leases_while_its_urls_wait_for_the_host_budget(timed: tuple[Timed, str],
                                                                                pg_url: str, tmp_path: Path) -> None:
    """Two runners on one memo whose URLs (one host, 0.6 s apart) take far longer than a 3 s lease:
    the runner that claimed them renews its leases, so the other never takes one over and fetches
    it a second time."""
    server, base = timed
    config = _config(tmp_path, 1, 0.6)
    memo = _memo(tmp_path / "memo.md", base, [f"/p/{k}" for k in range(8)])
    reports = [_finish(p) for p in [_audit(memo, pg_url, config, CITECHECK_CACHE_LEASE="3") for _ in range(2)]]
    fetched = [path for path, _, _ in server.log if path.startswith("/p/") and "probe" not in path]
    assert sorted(fetched) == [f"/p/{k}" for k in range(8)]  # each once, though the host took > 5 s
    assert sum(r["summary"]["fetched_now"] for r in reports) == 8


def test_host_slots_and_starts_are_shared_and_expire(pg_url: str) -> None:
    host = "example.org:443"
    with open_store(pg_url) as one, open_store(pg_url) as two:
        assert isinstance(one, PgCache) and isinstance(two, PgCache)
        held = [one.take_host_slot(host, 2, 60), two.take_host_slot(host, 2, 60)]
        assert sorted(held) == [0, 1] and one.take_host_slot(host, 2, 60) is None  # type: ignore[type-var]
        assert two.take_host_slot("other.example:443", 2, 60) is not None  # budgets are per host
        one.free_host_slot(host, 7)  # not one of its slots: nothing happens
        slot = held[1]
        assert slot is not None
        two.free_host_slot(host, slot)
        assert one.take_host_slot(host, 2, 0.3) == slot
        assert two.take_host_slot(host, 3, 60) == 2  # a runner with a larger budget has more slots
        time.sleep(0.5)
        assert two.take_host_slot(host, 2, 60) == slot  # the short hold ran out
        waits = [one.reserve_start(host, 1.0), two.reserve_start(host, 1.0), one.reserve_start(host, 1.0)]
        assert waits[0] == 0 and 0.8 < waits[1] <= 1.0 and 1.8 < waits[2] <= 2.0
    with open_store(pg_url) as three:
        assert three.stats()["host_slots"] == 0  # closing a runner ends its holds
        assert three.clear() == 0 and three.reserve_start(host, 1.0) == 0


def _cli(*args: str) -> Any:
    return CliRunner(env={"CITECHECK_CACHE_URL": None}).invoke(main, list(args))


def test_migrate_upgrades_version_1_and_keeps_its_facts(pg_cluster: Any) -> None:
    import psycopg

    from citecheck.fetch.pgschema import SCHEMA_VERSION, migrate

    with psycopg.connect(pg_cluster.url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS old_v1")
        conn.execute("CREATE DATABASE old_v1")
    url = pg_cluster.url.rsplit("/", 1)[0] + "/old_v1"
    with psycopg.connect(url, autocommit=True) as conn:
        assert migrate(conn, target=1) == (0, 1)
        conn.execute("INSERT INTO citecheck_pages (key, url, fetched, kind, policy, outcome, facts) VALUES "
                     "('https://example.org/a', 'https://example.org/a', extract(epoch from now()), 'answer', '', "
                     "'ok', %s)", [json.dumps(Page(url="https://example.org/a", outcome=Outcome.OK, status=200,
                                                   title="Kept").to_dict())])
    with pytest.raises(CacheError, match=r"schema version 1 is older .* run `citecheck cache migrate"):
        open_store(url)
    done = _cli("cache", "migrate", "--cache", url)
    assert done.exit_code == 0 and f"migrated from version 1 to schema version {SCHEMA_VERSION}" in done.output
    assert "already at schema version 2" in _cli("cache", "migrate", "--cache", url).output
    with open_store(url) as cache:
        kept = cache.get("https://example.org/a", 30)
        assert kept is not None and kept.title == "Kept"
        assert isinstance(cache, PgCache) and cache.take_host_slot("example.org:443", 1, 60) == 0


def test_a_shared_budget_that_fails_stops_the_run_rather_than_failing_the_page(timed: tuple[Timed, str]) -> None:
    """The team cache going away mid-run is CacheError (one line, exit 2), never a page reported as
    an internal error, and never a request sent outside the budget."""
    from citecheck._util import aio
    from citecheck.config import FetchConfig
    from citecheck.fetch.client import Fetcher

    server, base = timed

    class Gone:
        shared = True

        def take_host_slot(self, host: str, limit: int, hold: float) -> int | None:
            raise CacheError("team cache postgresql://db.example/cc: server closed the connection unexpectedly")

    async def fetch() -> None:
        config = FetchConfig(allow=("127.0.0.1",), robots=False, sibling_probe=False)
        async with Fetcher(config, cache=Gone()) as fetcher:
            await fetcher.fetch_fresh(f"{base}/p/1")

    with pytest.raises(CacheError, match="server closed the connection"):
        aio.run(fetch())
    assert server.log == []
