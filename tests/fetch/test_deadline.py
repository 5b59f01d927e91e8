"""A run-level `--deadline` (issue 26 item 12): links to one silent host cost links x timeout / host
slots; after the deadline the links not fetched yet are unverifiable (H002 "deadline"), never dead,
never cached, and the run says nothing about the network from them."""
from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from aiohttp import web
from click.testing import CliRunner
from hostile_net import ServerThread

from citecheck.cli import main
from citecheck.config import FetchConfig
from citecheck.fetch import fetch_all
from citecheck.models import Outcome


class Released:
    """Set when the test is done: the silent requests end, so the server can stop."""

    done = False


def app() -> web.Application:
    """/ok/N answers at once; /silent/N does not answer before the test ends (a host that holds
    every connection open)."""
    Released.done = False

    async def ok(request: web.Request) -> web.Response:
        n = request.match_info["n"]
        return web.Response(text=f"<html><head><title>Report {n}</title></head><body><p>Report {n}.</p></body></html>",
                            content_type="text/html")

    async def silent(request: web.Request) -> web.Response:
        while not Released.done:
            await asyncio.sleep(0.05)
        return web.Response(text="late")

    application = web.Application()
    application.router.add_get("/ok/{n}", ok)
    application.router.add_get("/silent/{n}", silent)
    return application


@pytest.mark.slow
def test_links_past_the_deadline_are_unverifiable_and_the_run_ends(tmp_path: Path) -> None:
    with ServerThread(app()) as server:
        base = f"http://127.0.0.1:{server.port}"
        memo = tmp_path / "m.md"
        memo.write_text(f"# M\n\n- Fact ok [s]({base}/ok/1).\n"  # first: one host, so it must not queue behind
                        + "".join(f"- Fact {n} [s]({base}/silent/{n}).\n" for n in range(12)))
        started = time.monotonic()
        result = CliRunner().invoke(main, ["audit", str(memo), "--allow", "127.0.0.1", "--format", "json",
                                           "--timeout", "60", "--host-concurrency", "16", "--deadline", "2",
                                           "--cache", str(tmp_path / "c.sqlite")])
        took = time.monotonic() - started
        Released.done = True
    # without the deadline: the silent links hold their slots for the 60 s timeout (and retries)
    assert took < 30, f"the audit took {took:.1f} s with --deadline 2"
    assert result.exit_code == 0, result.output  # unverifiable is a warning; no "network unavailable" (exit 2)
    report = json.loads(result.stdout)
    deadline = [f for f in report["findings"] if f["rule"] == "H002" and "--deadline" in f["message"]]
    assert len(deadline) == 12 and all(f["severity"] == "warning" for f in deadline)
    assert report["summary"]["outcomes"] == {"ok": 1, "unverifiable": 12}
    again = CliRunner().invoke(main, ["cache", "stats", "--cache", str(tmp_path / "c.sqlite"), "--json"])
    assert json.loads(again.stdout)["pages"] == 1  # only the answered page is a fact


def test_fetch_all_hands_back_every_url_when_the_deadline_passes() -> None:
    async def run() -> None:
        with ServerThread(app()) as server:
            base = f"http://127.0.0.1:{server.port}"
            urls = [f"{base}/silent/{n}" for n in range(3)] + [f"{base}/ok/1", f"{base}/silent/0#again"]
            config = FetchConfig(allow=("127.0.0.1",), use_cache=False, deadline=0.5, timeout=60, sibling_probe=False,
                                 robots=False)
            pages = await fetch_all(urls, config)
            Released.done = True
        assert set(pages) == set(urls)
        assert {u: (p.outcome, p.error) for u, p in pages.items() if "silent" in u} == {
            u: (Outcome.UNVERIFIABLE, "deadline") for u in urls if "silent" in u}
        assert pages[f"{base}/ok/1"].outcome is Outcome.OK and pages.outage is None

    asyncio.run(run())
