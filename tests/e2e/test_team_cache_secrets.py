"""The team cache under issue 26 item 9, each failure of the probe as a regression test on a
throw-away PostgreSQL (tests/pgcluster.py):

- passwords were printed for `?password=` URLs (even by a successful `cache stats`), for userinfo
  holding `#`, `?`, `/` or `@`, and in the driver's message when the URL does not parse;
- a libpq `key=value` string was taken as an SQLite file name containing the password;
- a NUL byte in a cited page's title made every PostgreSQL-cache audit exit 2 with no findings;
- a killed runner held the others for its whole lease (~60 s) whatever their own `--timeout`.
"""
from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from aiohttp import web
from click.testing import CliRunner
from hostile_net import ServerThread
from teamcache import Counting, _audit, _finish

from citecheck.cli import main
from citecheck.fetch.cache import is_team_cache, open_store
from citecheck.fetch.pgdsn import mask, scrub, secrets, unparseable
from citecheck.models import Outcome, Page

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

ODD = "Zqx#Xwq?Yvq/Uuq@Ttq"  # every character that ends a URL part, between pieces of three
PIECES = re.split(r"[#?/@]", ODD)


@pytest.fixture
def odd_role(pg_url: str) -> Iterator[dict[str, str]]:
    """A role whose password holds `#?/@`, and the ways to name the cache with it."""
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS odd")
        conn.execute(f"CREATE ROLE odd LOGIN PASSWORD '{ODD}'")
        conn.execute("GRANT ALL ON ALL TABLES IN SCHEMA public TO odd")
    port = pg_url.rsplit(":", 1)[1].split("/")[0]
    yield {"raw": f"postgresql://odd:{ODD}@127.0.0.1:{port}/postgres",
           "encoded": f"postgresql://odd:{quote(ODD, safe='')}@127.0.0.1:{port}/postgres",
           "param": f"postgresql://odd@127.0.0.1:{port}/postgres?sslmode=disable&password={quote(ODD, safe='')}",
           "keyvalue": f"host=127.0.0.1 port={port} user=odd password='{ODD}' dbname=postgres",
           "port": port}
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM odd")
        conn.execute("DROP ROLE odd")


def _cli(*args: str) -> Any:
    return CliRunner(env={"CITECHECK_CACHE_URL": None}).invoke(main, list(args))


def _no_secret(text: str) -> None:
    assert ODD not in text and quote(ODD, safe="") not in text
    assert not [piece for piece in PIECES if piece in text], text


@pytest.mark.parametrize("form", ["encoded", "param", "keyvalue"])
def test_every_working_form_is_used_and_masked_even_by_a_successful_stats(odd_role: dict[str, str], form: str,
                                                                           tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with open_store(odd_role[form]) as cache:
        cache.put(Page(url="https://example.org/a", outcome=Outcome.OK, status=200))
    for args in (["--json"], []):
        stats = _cli("cache", "stats", "--cache", odd_role[form], *args)
        assert stats.exit_code == 0, stats.output
        assert "***" in stats.output
        _no_secret(stats.output)
    assert json.loads(_cli("cache", "stats", "--cache", odd_role[form], "--json").output)["pages"] == 1
    assert list(tmp_path.iterdir()) == []  # a key=value string is never an SQLite file name


def test_userinfo_that_would_split_elsewhere_is_refused_unsent(odd_role: dict[str, str], tmp_path: Path) -> None:
    memo = tmp_path / "m.md"
    memo.write_text("# M\n\n- A fact [source](https://example.org/a).\n")
    proc = subprocess.run([sys.executable, "-m", "citecheck", "audit", str(memo), "--cache", odd_role["raw"]],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "must be percent-encoded" in proc.stderr, proc.stderr
    _no_secret(proc.stderr)
    stats = _cli("cache", "stats", "--cache", odd_role["raw"])
    assert stats.exit_code == 2 and "must be percent-encoded" in stats.output
    _no_secret(stats.output)


@pytest.mark.parametrize("spoil", [
    lambda r: r["encoded"].replace("@127.0.0.1", "@[127.0.0.1"),  # the driver echoes the whole URL
    lambda r: r["param"].replace("sslmode=disable", "sslmode=bogus"),
    lambda r: r["keyvalue"].replace("dbname=postgres", "dbname=postgres sslmode=bogus"),
    lambda r: r["keyvalue"].replace(f"password='{ODD}'", "password='wrong-Zqx'"),
    lambda r: r["encoded"].replace(quote(ODD, safe=""), "wrong-Zqx"),
], ids=["unparseable-url", "bad-param", "bad-keyvalue", "keyvalue-wrong-password", "url-wrong-password"])
def test_driver_messages_never_show_a_password(odd_role: dict[str, str], spoil: Any, tmp_path: Path) -> None:
    bad = spoil(odd_role)
    memo = tmp_path / "m.md"
    memo.write_text("# M\n\n- A fact [source](https://example.org/a).\n")
    proc = subprocess.run([sys.executable, "-m", "citecheck", "audit", str(memo), "--cache", bad],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "team cache" in proc.stderr, proc.stderr
    _no_secret(proc.stderr)
    assert "wrong-Zqx" not in proc.stderr
    stats = _cli("cache", "stats", "--cache", bad)
    assert stats.exit_code == 2
    _no_secret(stats.output)
    assert list(tmp_path.iterdir()) == [memo]


def test_masking_rules() -> None:
    assert mask("postgresql://u:p%40ss@db.example:5433/cc?sslmode=require") == \
        "postgresql://u:***@db.example:5433/cc?sslmode=require"
    assert mask("postgres://db/cc?sslmode=require&password=x%26y") == "postgres://db/cc?sslmode=require&password=***"
    assert mask("host=db password='a b\\'c' user=u") == "host=db password=*** user=u"
    assert mask("host=db PASSWORD = plain user=u") == "host=db PASSWORD = *** user=u"
    assert mask(f"postgresql://u:{ODD}@db/cc") == "postgresql://u:***@db/cc"
    assert unparseable(f"postgresql://u:{ODD}@db/cc") and not unparseable("postgresql://db:5432/cc?application_name=a@b")
    assert scrub(f"bad URI: \"postgresql://u:{ODD}@[db/cc\" and {PIECES[2]}", f"postgresql://u:{ODD}@[db/cc") == \
        'bad URI: "postgresql://u:***@[db/cc" and ***'
    assert set(PIECES) <= set(secrets(f"postgresql://u:{ODD}@db/cc"))
    assert is_team_cache("host=db dbname=cc") and is_team_cache("POSTGRESQL://db/cc")
    assert not is_team_cache("cache.sqlite") and not is_team_cache("./x=1/cache.sqlite")


class Nul:
    """/nul/N: a page whose title holds a NUL byte; /dead/N: a 404."""

    def __init__(self) -> None:
        self.app = web.Application()
        self.app.router.add_get("/{kind}/{n}", self.page)

    async def page(self, request: web.Request) -> web.Response:
        if request.match_info["kind"] == "dead":
            return web.Response(status=404, text="gone")
        body = (b"<html><head><title>Widget\x00 report</title></head><body><p>Widget report \x00: widgets grew "
                b"4 percent.</p></body></html>")
        return web.Response(body=body, content_type="text/html")


def test_a_nul_in_a_cited_page_is_stored_and_the_findings_stay(pg_url: str, tmp_path: Path) -> None:
    server = Nul()
    with ServerThread(server.app) as thread:
        base = f"http://127.0.0.1:{thread.port}"
        memo = tmp_path / "m.md"
        memo.write_text(f"# M\n\n- Widgets grew 4 percent [source]({base}/nul/1).\n- Gone [x]({base}/dead/2).\n")
        for run in ("cold", "warm"):
            report = _finish(_audit(memo, pg_url))
            assert report["summary"]["outcomes"] == {"dead": 1, "ok": 1}, run
            assert any(f["rule"] == "H001" for f in report["findings"]), run
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        stored = dict(conn.execute("SELECT url, html FROM citecheck_pages").fetchall())
    assert set(stored) == {f"{base}/nul/1", f"{base}/dead/2"}  # both facts stored, the NUL page's too


def test_any_text_is_storable(pg_url: str) -> None:
    with open_store(pg_url) as cache:
        assert cache.put_many([Page(url="https://example.org/s", outcome=Outcome.OK, status=200,
                                    title="a\x00b\ud800", text_sample="x\x00y\udfff z",
                                    html_sample="<p>\x00\ud83d</p>")]) == 1
        page = cache.get("https://example.org/s", 30)
    assert page is not None and page.title == "a\x00b\ud800" and page.text_sample == "x\ufffdy\ufffd z"


def test_a_failing_store_warns_and_keeps_the_findings(pg_url: str, tmp_path: Path) -> None:
    """A role that may read the facts but not write them: every store fails; the run still reports."""
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS reader")
        conn.execute("CREATE ROLE reader LOGIN PASSWORD 'reader-pw'")
        conn.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader")
        conn.execute("GRANT ALL ON citecheck_leases, citecheck_host_slots, citecheck_hosts TO reader")
    try:
        url = pg_url.replace("postgres:s3cret-pw@", "reader:reader-pw@")
        server = Nul()
        with ServerThread(server.app) as thread:
            base = f"http://127.0.0.1:{thread.port}"
            memo = tmp_path / "m.md"
            memo.write_text(f"# M\n\n- Gone [x]({base}/dead/2).\n")
            proc = _audit(memo, url)
            out, err = proc.communicate(timeout=300)
        assert proc.returncode == 1, err
        assert [f["rule"] for f in json.loads(out)["findings"]] == ["H001"]
        assert "warning" in err and "not stored, the run goes on" in err and "reader-pw" not in err
    finally:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM reader")
            conn.execute("DROP ROLE reader")


@pytest.mark.slow
def test_a_waiter_gives_up_at_its_own_timeout(pg_url: str, tmp_path: Path) -> None:
    """The first runner is killed mid-fetch holding a 60 s lease; the second, with --timeout 3,
    fetches the URL itself after about 3 s instead of waiting out the lease."""
    server = Counting()
    with ServerThread(server.app) as thread:
        base = f"http://127.0.0.1:{thread.port}"
        memo = tmp_path / "slow.md"
        memo.write_text(f"# Slow\n\n- Widget report 1: widgets grew 1 percent [source]({base}/slow/1).\n")
        first = _audit(memo, pg_url, CITECHECK_CACHE_LEASE="60")
        try:
            deadline = time.monotonic() + 60
            while not server.hits["/slow/1"] and time.monotonic() < deadline:
                time.sleep(0.05)
            first.send_signal(signal.SIGKILL)
            first.wait()
            started = time.monotonic()
            second = subprocess.Popen([sys.executable, "-m", "citecheck", "audit", str(memo), "--allow", "127.0.0.1",
                                       "--format", "json", "--cache", pg_url, "--timeout", "3"],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
            report = _finish(second)
            took = time.monotonic() - started
        finally:
            server.released = True
    assert report["summary"]["outcomes"] == {"ok": 1} and server.hits["/slow/1"] == 2
    assert took < 40, f"the waiter took {took:.1f} s: it waited for the 60 s lease, not its own 3 s"
