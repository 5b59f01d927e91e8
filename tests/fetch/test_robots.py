"""robots.txt is honoured by harvest and audit, for `*` and citecheck's own token: a disallowed page is
never requested (the server counts every request), robots.txt is fetched once per host per run and
kept a day in the cache, and `--ignore-robots` overrides it, saying so on stderr."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from harvestkit import cli
from harvestsite import Page, Restartable, article

from citecheck.fetch import robots as robots_module
from citecheck.fetch.robots import Robots, Rules
from citecheck.models import Outcome
from citecheck.models import Page as Fetched

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

ROBOTS = "User-agent: *\nDisallow: /private/\n\nUser-agent: citecheck\nDisallow: /members/\nAllow: /members/open\n"


def site_pages(robots: str = ROBOTS) -> dict[str, Page]:
    return {"/robots.txt": Page(200, robots),
            "/a": Page(200, article("Road freight statistics 2023", "EU road freight grew 2 per cent in 2023.")),
            "/members/report": Page(200, article("Members' freight report", "Members only: rates rose.")),
            "/members/open": Page(200, article("Open freight note", "An open note on freight rates.")),
            "/private/x": Page(200, article("Private freight memo", "Not for crawlers.")),
            "/jump": Page(302, "<title>Members' freight report</title>", {"Location": "/members/report"})}


@pytest.mark.parametrize("url,allowed", [
    ("http://h/a", True),
    ("http://h/members/report", False),  # citecheck's own group applies ...
    ("http://h/members/open", True),  # ... with its longest-match Allow
    ("http://h/private/x", True),  # ... and the `*` group does not, once citecheck has one
    ("http://h/robots.txt", True),
])
def test_citecheck_group_wins_over_star(url: str, allowed: bool) -> None:
    assert Rules("http://h", ROBOTS).allows(url) is allowed


def test_star_group_applies_without_a_citecheck_group() -> None:
    rules = Rules("http://h", "User-agent: *\nDisallow: /private/\n")
    assert not rules.allows("http://h/private/x") and rules.allows("http://h/a")
    assert Rules("http://h", None).allows("http://h/private/x")


class Cache:
    def __init__(self) -> None:
        self.data: dict[tuple[str, str], dict[str, Any]] = {}

    def get_extras(self, kind: str, keys: list[str]) -> dict[str, dict[str, Any]]:
        return {k: self.data[(kind, k)] for k in keys if (kind, k) in self.data}

    def put_extras(self, kind: str, items: dict[str, dict[str, Any]]) -> None:
        self.data.update({(kind, k): v for k, v in items.items()})


@pytest.mark.parametrize("status,stored,allowed", [(200, True, False), (404, True, True), (410, True, True),
                                                   (503, False, True), (429, False, True), (None, False, True)])
async def test_what_a_robots_answer_means(status: int | None, stored: bool, allowed: bool) -> None:
    calls: list[str] = []

    async def fetch(url: str) -> tuple[Fetched, bytes]:
        calls.append(url)
        outcome = Outcome.OK if status == 200 else Outcome.UNVERIFIABLE if status is None else Outcome.DEAD
        return Fetched(url, outcome, status, error="" if status else "refused"), b"User-agent: *\nDisallow: /\n"

    cache = Cache()
    robots = Robots(fetch, cache)
    assert await robots.allows("http://h:8/x") is allowed
    assert await robots.allows("http://h:8/y") is allowed  # once per origin per run
    assert calls == ["http://h:8/robots.txt"] and (("robots", "http://h:8") in cache.data) is stored


async def test_stored_rules_last_one_day(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    async def fetch(url: str) -> tuple[Fetched, bytes]:
        calls.append(url)
        return Fetched(url, Outcome.OK, 200), b"User-agent: *\nDisallow: /x\n"

    cache = Cache()
    now = [1_000_000.0]
    monkeypatch.setattr(robots_module.time, "time", lambda: now[0])
    assert not await Robots(fetch, cache).allows("http://h/x")
    now[0] += 86000  # the next run, within the day: from the cache
    assert not await Robots(fetch, cache).allows("http://h/x") and len(calls) == 1
    now[0] += 1000  # past the day: fetched again
    assert not await Robots(fetch, cache).allows("http://h/x") and len(calls) == 2


def harvest(server: Restartable, tmp_path: Path, *paths: str, extra: tuple[str, ...] = ()) -> Any:
    listed = tmp_path / "Sources.md"
    titles = {p: server.site.pages[p].html.partition("<title>")[2].partition("</title>")[0] or p for p in paths}
    listed.write_text("".join(f"- [{titles[p]}]({server.site.url(p)})\n" for p in paths))
    return cli("--urls", str(listed), "-o", str(tmp_path / "corpus.json"), "--allow", server.site.host,
               "--cache", str(tmp_path / "cache.sqlite"), "--rejects", str(tmp_path / "rejects.json"),
               "--min-excerpt", "0", *extra)


def test_harvest_never_requests_a_disallowed_page(tmp_path: Path) -> None:
    with Restartable(site_pages()) as server:
        result = harvest(server, tmp_path, "/a", "/members/report", "/members/open", "/jump")
        assert result.exit_code == 0, result.stderr
        assert server.requests("/members/report") == 0  # neither directly nor through /jump's redirect
        assert server.requests("/robots.txt") == 1 and server.requests("/a") >= 1
        kept = {e["url"].rsplit("/", 1)[1] for e in json.loads((tmp_path / "corpus.json").read_text())}
        assert kept == {"a", "open"}
        reasons = {r["url"].rsplit("/", 1)[1]: r["reasons"][0] for r in
                   json.loads((tmp_path / "rejects.json").read_text())["rejects"]}
        assert reasons["report"]["name"] == "robots-disallowed" and "robots.txt of http://127.0.0.1" in \
            reasons["report"]["message"]
        assert "robots-disallowed" in str(reasons["jump"])  # the redirect's target was never requested
        server.site.log.clear()
        again = harvest(server, tmp_path, "/a", "/members/report")  # the next run: robots.txt from the cache
        assert again.exit_code == 0 and server.requests("/robots.txt") == 0 and server.requests("/members/report") == 0


def test_a_source_robots_now_disallows_is_kept_stale(tmp_path: Path) -> None:
    with Restartable(site_pages("User-agent: *\nDisallow:\n")) as server:
        assert harvest(server, tmp_path, "/a", "/members/report").exit_code == 0
        server.site.pages["/robots.txt"] = Page(200, ROBOTS)
        (tmp_path / "cache.sqlite").unlink()  # a day later: robots.txt read afresh
        server.site.log.clear()
        result = harvest(server, tmp_path, "/a", "/members/report")
        assert server.requests("/members/report") == 0
    assert result.exit_code == 0, result.stderr
    entries = {e["url"].rsplit("/", 1)[1]: e for e in json.loads((tmp_path / "corpus.json").read_text())}
    assert entries["report"]["stale"] is True and "robots-disallowed" in entries["report"]["stale_reason"]
    assert entries["report"]["id"] == "src-002" and "1 stale" in result.stderr


def test_ignore_robots_fetches_and_says_so(tmp_path: Path) -> None:
    with Restartable(site_pages()) as server:
        result = harvest(server, tmp_path, "/members/report", extra=("--ignore-robots",))
        assert server.requests("/members/report") >= 1 and server.requests("/robots.txt") == 0
    assert result.exit_code == 0, result.stderr
    assert "--ignore-robots: robots.txt is not consulted in this run" in result.stderr
    assert len(json.loads((tmp_path / "corpus.json").read_text())) == 1


def test_audit_honours_robots_too(tmp_path: Path) -> None:
    from citecheck.cli import main

    with Restartable(site_pages()) as server:
        memo = tmp_path / "memo.md"
        memo.write_text(f"# Memo\n\nRates rose ([report]({server.site.url('/members/report')})) and "
                        f"freight grew ([stats]({server.site.url('/a')})).\n")
        result = CliRunner().invoke(main, ["audit", str(memo), "--allow", server.site.host, "--format", "json",
                                           "--cache", str(tmp_path / "cache.sqlite"), "--ignore", "M008"])
        assert server.requests("/members/report") == 0 and server.requests("/a") >= 1
    findings = json.loads(result.stdout)["findings"]
    robots = [f for f in findings if f["url"].endswith("/members/report")]
    assert [(f["rule"], f["severity"]) for f in robots] == [("H002", "warning")]
    assert "robots.txt disallows citecheck" in robots[0]["message"]


def test_audit_asks_robots_before_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """robots.txt is URL policy: a page cached while allowed is not answered from the cache once the site
    disallows it (DESIGN.md 'The cache': the policy speaks before the cache is asked)."""
    from citecheck.cli import main

    now = [time.time()]
    monkeypatch.setattr(robots_module.time, "time", lambda: now[0])
    with Restartable(site_pages("User-agent: *\nDisallow:\n")) as server:
        memo = tmp_path / "memo.md"
        memo.write_text(f"# Memo\n\nRates rose ([report]({server.site.url('/members/report')})).\n")
        args = ["audit", str(memo), "--allow", server.site.host, "--format", "json",
                "--cache", str(tmp_path / "cache.sqlite"), "--ignore", "M008"]
        first = CliRunner().invoke(main, args)
        assert server.requests("/members/report") >= 1
        assert not [f for f in json.loads(first.stdout)["findings"] if f["rule"] == "H002"]
        server.site.pages["/robots.txt"] = Page(200, ROBOTS)
        now[0] += robots_module.LIFETIME + 60  # a day later: robots.txt read afresh, the page still cached
        server.site.log.clear()
        second = CliRunner().invoke(main, args)
        assert server.requests("/robots.txt") == 1 and server.requests("/members/report") == 0
    found = [(f["rule"], f["severity"]) for f in json.loads(second.stdout)["findings"]]
    assert ("H002", "warning") in found, second.stdout
    assert json.loads(second.stdout)["summary"]["from_cache"] == 0


async def test_every_origins_robots_txt_is_answered_before_any_page_is_requested(aiohttp_server: Any) -> None:
    """Without a cache too: asked lazily, each origin's pages woke together when its robots.txt came and
    went out host by host (bursts of host_concurrency requests per host, 4x the connections on the
    5,000-link benchmark). Origin B's robots.txt is slow; no page of fast origin A may go out before it."""
    import asyncio

    from aiohttp import web

    from citecheck.config import FetchConfig
    from citecheck.fetch import fetch_all

    loop = asyncio.get_running_loop()
    seen: list[tuple[float, str, str]] = []  # (time, origin, path) as each request arrives or ends

    def app(name: str, robots_delay: float) -> web.Application:
        async def handle(request: web.Request) -> web.Response:
            seen.append((loop.time(), name, request.path))
            if request.path == "/robots.txt":
                await asyncio.sleep(robots_delay)
                seen.append((loop.time(), name, "robots answered"))
                return web.Response(text="User-agent: *\nDisallow:\n")
            return web.Response(text=f"<title>{name}{request.path}</title><p>{'text ' * 60}</p>",
                                content_type="text/html")

        application = web.Application()
        application.router.add_get("/{tail:.*}", handle)
        return application

    fast, slow = await aiohttp_server(app("A", 0.0)), await aiohttp_server(app("B", 0.3))
    urls = [f"http://127.0.0.1:{server.port}/p{i}" for i in range(6) for server in (fast, slow)]
    pages = await fetch_all(urls, FetchConfig(allow=("127.0.0.1",), use_cache=False, timeout=5))
    assert all(p.outcome is Outcome.OK for p in pages.values()) and len(pages) == len(urls)
    answered = max(t for t, _, what in seen if what == "robots answered")
    first_page = min(t for t, _, what in seen if what.startswith("/p"))
    assert first_page >= answered, "a page was requested before every origin's robots.txt was known"
    assert sum(what == "/robots.txt" for _, _, what in seen) == 2  # one per origin
