"""The PostgreSQL team cache: migrate, errors that stop a run, single-flight across real runners.

A throw-away cluster (tests/pgcluster.py) and a local aiohttp server that counts requests; the
runners are real `citecheck audit` processes."""
from __future__ import annotations

import collections
import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hostile_net import ServerThread
from pgcluster import PASSWORD
from teamcache import Counting, _audit, _finish

from citecheck.cli import main
from citecheck.errors import CacheError
from citecheck.fetch.cache import open_store
from citecheck.fetch.cache_pg import PgCache, mask
from citecheck.models import Outcome, Page

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop


@pytest.fixture
def counting() -> Iterator[tuple[Counting, str]]:
    server = Counting()
    with ServerThread(server.app) as thread:
        yield server, f"http://127.0.0.1:{thread.port}"


def _memo(path: Path, base: str, numbers: list[int]) -> Path:
    lines = [f"- Widget report {k}: widgets grew {k} percent [source]({base}/{'gone' if k % 3 == 0 else 'p'}/{k})."
             for k in numbers]
    path.write_text("# Widgets\n\n" + "\n".join(lines) + "\n")
    return path


def _by_url(report: dict[str, Any]) -> dict[str, list[tuple[str, str, str]]]:
    found: dict[str, list[tuple[str, str, str]]] = collections.defaultdict(list)
    for f in report["findings"]:
        found[f["url"]].append((f["rule"], f["message"], f["evidence"]))
    return {url: sorted(items) for url, items in found.items()}


def test_four_runners_fetch_each_url_once_and_agree(counting: tuple[Counting, str], pg_url: str,
                                                    tmp_path: Path) -> None:
    server, base = counting
    memos = [_memo(tmp_path / f"memo{i}.md", base, list(range(2 * i, 2 * i + 8))) for i in range(4)]
    reports = [_finish(p) for p in [_audit(m, pg_url) for m in memos]]
    assert server.memo_paths() == {f"/{'gone' if k % 3 == 0 else 'p'}/{k}": 1 for k in range(14)}
    assert server.probes() == 1  # the soft-404 sibling probe: once per host for all runners
    seen: dict[str, list[tuple[str, str, str]]] = {}
    for report in reports:
        for url, findings in _by_url(report).items():
            assert seen.setdefault(url, findings) == findings, url
    assert any(rule == "H001" for items in seen.values() for rule, *_ in items)
    assert sum(r["summary"]["fetched_now"] for r in reports) == 14
    again = [_finish(p) for p in [_audit(m, pg_url) for m in memos]]
    assert sum(server.memo_paths().values()) == 14 and server.probes() == 1
    assert all(r["summary"]["fetched_now"] == 0 and r["summary"]["from_cache"] == 8 for r in again)
    assert [_by_url(r) for r in again] == [_by_url(r) for r in reports]


def test_runners_with_page_workers_share_without_waiting_for_each_other(counting: tuple[Counting, str], pg_url: str,
                                                                        tmp_path: Path) -> None:
    """Audits large enough for the page stage's workers (PARALLEL_MIN_PAGES to parse): a fetched
    page's facts are stored as its fetch ends, not when a worker's batch fills, so two runners that
    each wait for the other's URLs never wait for a lease to run out."""
    from citecheck.stage.pages import PARALLEL_MIN_PAGES

    server, base = counting
    count = PARALLEL_MIN_PAGES + 20
    memos = []
    for i, numbers in enumerate((range(count), range(count - 1, -1, -1))):
        lines = [f"- Widget report {k}: widgets grew {k} percent [source]({base}/f/{k})." for k in numbers]
        memos.append(tmp_path / f"big{i}.md")
        memos[-1].write_text("# Widgets\n\n" + "\n".join(lines) + "\n")
    started = time.monotonic()
    reports = [_finish(p) for p in [_audit(m, pg_url, CITECHECK_CACHE_LEASE="600") for m in memos]]
    assert server.memo_paths() == {f"/f/{k}": 1 for k in range(count)}
    assert sum(r["summary"]["fetched_now"] for r in reports) == count
    assert time.monotonic() - started < 240  # a stall would last the 600 s lease


def test_a_killed_runner_holds_the_others_only_until_its_lease_ends(counting: tuple[Counting, str], pg_url: str,
                                                                    tmp_path: Path) -> None:
    server, base = counting
    lease = 8.0
    memo = tmp_path / "slow.md"
    memo.write_text(f"# Slow\n\n- Widget report 1: widgets grew 1 percent [source]({base}/slow/1).\n")
    first = _audit(memo, pg_url, CITECHECK_CACHE_LEASE=str(lease))
    try:
        deadline = time.monotonic() + 60
        while not server.hits["/slow/1"] and time.monotonic() < deadline:
            time.sleep(0.05)
        claimed = server.times["/slow/1"][0]
        second = _audit(memo, pg_url, CITECHECK_CACHE_LEASE=str(lease))
        time.sleep(lease / 2)
        assert server.hits["/slow/1"] == 1  # the second runner waits for the first one's facts
        first.send_signal(signal.SIGKILL)
        report = _finish(second)
    finally:
        server.released = True
        first.kill()
        first.wait()
    assert server.hits["/slow/1"] == 2 and report["summary"]["outcomes"] == {"ok": 1}
    refetched = server.times["/slow/1"][1] - claimed
    assert lease - 1 <= refetched <= lease + 15  # taken over once the lease ran out, not much later


def test_the_sibling_probe_is_made_once_for_all_runners_when_settled(counting: tuple[Counting, str],
                                                                     pg_url: str) -> None:
    from citecheck._util import aio
    from citecheck.config import FetchConfig
    from citecheck.fetch import fetch_all
    from citecheck.fetch.guard import Guard

    server, base = counting
    config = FetchConfig(allow=("127.0.0.1",), retries=0, robots=False)

    def runner(url: str) -> Page:
        async def run() -> Page:
            with open_store(pg_url, Guard(config.allow)) as cache:
                return (await fetch_all([url], config, cache=cache))[url]
        return aio.run(run())

    pages = [runner(f"{base}/p/{n}") for n in (1, 2)]
    assert server.probes() == 1 and [p.sibling_status for p in pages] == [200, 200]
    assert pages[0].sibling_text == pages[1].sibling_text and pages[1].sibling_shape == pages[0].sibling_shape
    with open_store(pg_url) as cache:
        cache.clear()
    busy = [runner(f"{base}/busy/{n}") for n in (1, 2)]
    assert server.probes() == 3 and [p.sibling_status for p in busy] == [503, 503]  # a 503 is no fact: not shared


def test_leases_are_single_flight_and_expire(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITECHECK_CACHE_LEASE", "0.5")
    url = "https://example.org/a"
    with open_store(pg_url) as one, open_store(pg_url) as two:
        assert isinstance(one, PgCache) and one.shared
        assert one.claim(url) and not two.claim(url) and not one.claim(url)
        time.sleep(0.7)
        assert two.claim(url) and not one.claim(url)
        page = Page(url=url, outcome=Outcome.UNVERIFIABLE, error="timeout")
        assert two.put_many([page]) == 0  # not a fact: nothing stored, yet the claim ends
        assert one.claim(url)
    with open_store(pg_url) as three:
        assert three.claim(url)  # closing `one` ended its claims


def test_newest_fact_wins_an_upsert(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    page = Page(url="https://example.org/a", outcome=Outcome.OK, status=200, title="new")
    with open_store(pg_url) as cache:
        cache.put(page)
        real = time.time
        monkeypatch.setattr(time, "time", lambda: real() - 3600)
        cache.put(Page(url=page.url, outcome=Outcome.OK, status=200, title="old"))  # a slower runner's older fact
        monkeypatch.setattr(time, "time", real)
        hit = cache.get(page.url, 30)
        assert hit is not None and hit.title == "new"


def _cli(*args: str) -> Any:
    return CliRunner(env={"CITECHECK_CACHE_URL": None}).invoke(main, list(args))


def test_cache_commands_on_the_team_cache(pg_url: str) -> None:
    done = _cli("cache", "migrate", "--cache", pg_url)
    assert done.exit_code == 0 and "already at schema version 2" in done.output and PASSWORD not in done.output
    with open_store(pg_url) as cache:
        cache.put(Page(url="https://example.org/a", outcome=Outcome.OK, status=200))
    stats = _cli("cache", "stats", "--cache", pg_url, "--json")
    data = json.loads(stats.output)
    assert (data["pages"], data["backend"], data["path"]) == (1, "postgresql", mask(pg_url))
    assert PASSWORD not in stats.output and "***" in data["path"]
    text = _cli("cache", "stats", "--cache", pg_url).output
    assert "leases:   0 " in text and "slots:    0 " in text
    assert _cli("cache", "prune", "--cache", pg_url).output.startswith("pruned 0 ")
    assert _cli("cache", "clear", "--cache", pg_url).output == "cleared 1 entries\n"


def test_migrate_creates_the_schema_a_runner_refuses_without_it(pg_cluster: Any) -> None:
    import psycopg

    with psycopg.connect(pg_cluster.url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS fresh")
        conn.execute("CREATE DATABASE fresh")
    url = pg_cluster.url.rsplit("/", 1)[0] + "/fresh"
    with pytest.raises(CacheError, match="no citecheck schema; run `citecheck cache migrate"):
        open_store(url)
    done = _cli("cache", "migrate", "--cache", url)
    assert done.exit_code == 0 and "migrated from version 0 to schema version 2" in done.output
    open_store(url).close()


@pytest.mark.parametrize("spoil", ["password", "port"])
def test_a_team_cache_it_cannot_reach_stops_the_run(pg_url: str, spoil: str, tmp_path: Path) -> None:
    port = pg_url.rsplit(":", 1)[1].split("/")[0]
    bad = pg_url.replace(PASSWORD, "wrong-pw") if spoil == "password" else pg_url.replace(f":{port}/", ":1/")
    memo = tmp_path / "m.md"
    memo.write_text("# M\n\n- A fact [source](https://example.org/a).\n")
    proc = subprocess.run([sys.executable, "-m", "citecheck", "audit", str(memo), "--cache", bad],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "team cache postgresql://postgres:***@127.0.0.1:" in lines[0], proc.stderr
    assert "wrong-pw" not in proc.stderr and PASSWORD not in proc.stderr
    assert ("password authentication failed" if spoil == "password" else "refused") in lines[0]
    stats = _cli("cache", "stats", "--cache", bad)
    assert stats.exit_code == 2 and "wrong-pw" not in stats.output


def test_mask_hides_only_the_password() -> None:
    assert mask("postgresql://u:p%40ss@db.example:5433/cc?sslmode=require") == \
        "postgresql://u:***@db.example:5433/cc?sslmode=require"
    assert mask("postgresql://db.example/cc") == "postgresql://db.example/cc"


def test_a_sqlite_run_works_without_the_postgresql_driver(tmp_path: Path) -> None:
    """The `postgres` extra is optional: with psycopg not importable, a SQLite cache still works."""
    code = ("import sys\n"
            "sys.modules['psycopg'] = sys.modules['psycopg_pool'] = None  # as if the extra were not installed\n"
            "from citecheck.fetch.cache import open_store\n"
            "from citecheck.models import Outcome, Page\n"
            f"with open_store({str(tmp_path / 'c.sqlite')!r}) as cache:\n"
            "    cache.put(Page(url='https://example.org/a', outcome=Outcome.OK, status=200))\n"
            "    assert cache.get('https://example.org/a', 30) is not None and not cache.shared\n"
            "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr
