"""Sites that answer the same page for any path, against real servers on 127.0.0.1: a client-rendered
shell (per-request nonce, echoed path, timestamp) is unverifiable, never live; the same shell on a
site that answers 404 for unknown paths is live; substantive identical text stays a soft 404."""
from __future__ import annotations

import secrets
import time
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiohttp import web

from citecheck.config import FetchConfig
from citecheck.engine.registry import build_registry
from citecheck.engine.run import Fetched
from citecheck.fetch.client import Fetcher
from citecheck.fetch.facts import complete
from citecheck.models import Link, Location, Page
from citecheck.report.html_verdicts import finding_verdict
from citecheck.score import _worst
from citecheck.support.shape import normalised, page_shape

CFG = FetchConfig(allow=("127.0.0.1",), use_cache=False, timeout=3.0, connect_timeout=1.0, read_timeout=1.0,
                  retries=0, backoff=0.01)
REGISTRY = build_registry()
SPEC = REGISTRY.get("H003")
assert SPEC is not None
OPTIONS = {**SPEC.defaults, "pack": REGISTRY.packs.data.get(SPEC.pack, {})}
LONG_TEXT = "A long home page with many stories about the city, the region and the world. " * 20


def shell(request: web.Request, body: str = "<div id=\"root\"></div><noscript>Enable JavaScript.</noscript>") -> str:
    nonce = secrets.token_urlsafe(16)
    return (f'<!doctype html><html><head><title>Acme App</title><meta name="csrf-token" content="{secrets.token_hex(20)}">'
            f'<link rel="canonical" href="https://acme.test{request.path}">'
            f'<script nonce="{nonce}">window.__BOOT__={{"path":"{request.path}","t":{time.time_ns()}}}</script>'
            f'</head><body>{body}<script nonce="{nonce}" src="/static/main.js"></script></body></html>')


def app(any_path: bool, body: str | None = None) -> web.Application:
    async def handle(request: web.Request) -> web.Response:
        if any_path or request.path == "/reports/2024/annual-review":
            return web.Response(text=shell(request, *([body] if body else [])), content_type="text/html")
        return web.Response(status=404, text="<title>Not found</title><p>Not found</p>", content_type="text/html")

    application = web.Application()
    application.router.add_get("/{tail:.*}", handle)
    return application


async def judge(aiohttp_server: Any, application: web.Application, defer: bool = False) -> list[Any]:
    server = await aiohttp_server(application)
    url = f"http://127.0.0.1:{server.port}/reports/2024/annual-review"
    async with Fetcher(CFG, defer_parse=defer) as fetcher:
        result = await fetcher.fetch_fresh(url)
    page: Page = result.page
    if defer:
        assert result.raw is not None
        page = complete(page, result.raw)
    return list(SPEC.check(Fetched(Link(url, Location("memo.md", 1, 1)), page), OPTIONS))


@pytest.mark.parametrize("defer", [False, True])
async def test_shell_for_any_path_is_unverifiable(aiohttp_server: Any, defer: bool) -> None:
    hits = await judge(aiohttp_server, app(any_path=True), defer)
    assert len(hits) == 1 and hits[0].message.startswith("unverifiable: the site answers the same page for any path")
    assert hits[0].severity is not None and hits[0].severity.value == "warning"


async def test_shell_with_some_text_is_unverifiable_not_a_soft_404(aiohttp_server: Any) -> None:
    # 100-300 characters: enough for the sibling text ratio, still a shell
    body = "<div id='root'><p>" + "Acme keeps your reports in one place. " * 5 + "</p></div>"
    hits = await judge(aiohttp_server, app(any_path=True, body=body))
    assert len(hits) == 1 and hits[0].message.startswith("unverifiable: the site answers the same page")


async def test_shell_on_a_site_with_real_404s_is_live(aiohttp_server: Any) -> None:
    assert await judge(aiohttp_server, app(any_path=False)) == []


async def test_same_substantive_page_for_any_path_stays_a_soft_404(aiohttp_server: Any) -> None:
    hits = await judge(aiohttp_server, app(any_path=True, body=f"<main><p>{LONG_TEXT}</p></main>"))
    assert len(hits) == 1 and hits[0].message.startswith("soft 404") and "sibling-same" in hits[0].message
    assert hits[0].severity is None  # the rule's own severity: error


def test_shape_ignores_nonces_tokens_numbers_and_the_echoed_path() -> None:
    class Request:
        def __init__(self, path: str) -> None:
            self.path = path

    cited, probe = "https://acme.test/reports/2024/annual-review", "https://acme.test/reports/2024/citecheck-probe-qwertyuiopasdfgh"
    one, two = shell(Request(urlsplit(cited).path)), shell(Request(urlsplit(probe).path))  # type: ignore[arg-type]
    assert one != two
    assert page_shape(one, "Loading /reports/2024/annual-review", cited) == \
        page_shape(two, "Loading /reports/2024/citecheck-probe-qwertyuiopasdfgh", probe)
    assert page_shape(one.replace("Acme App", "Annual review 2024"), "", cited) != page_shape(two, "", probe)
    assert page_shape("  ", "text") == "" and normalised("Updated 12:04, 3 May 2024") == "Updated 0:0, 0 May 0"


def test_a_shared_head_with_other_text_is_not_the_same_page() -> None:
    head = "<html><head><title>News</title>" + "<style>.a{color:red}</style>" * 400 + "</head><body>"
    assert page_shape(head[:8192], "Council passes the budget", "https://n.test/a/budget") != \
        page_shape(head[:8192], "Sorry, we could not find that page", "https://n.test/a/citecheck-probe-abcdefghijklmnop")


def test_shell_verdict_scores_as_unverifiable_not_dead() -> None:
    from citecheck.models import Finding, Severity, Verdict

    # the verdicts H003 declares: the shell hit's own, and the rule's VERDICT
    shell_finding = Finding("m.md", 1, 1, "H003", "soft-404", Severity.WARNING, "unverifiable: …",
                            verdict=Verdict.UNVERIFIABLE)
    dead_finding = Finding("m.md", 1, 1, "H003", "soft-404", Severity.ERROR, "soft 404: …", verdict=Verdict.SOFT_404)
    assert _worst([shell_finding])[2] == "unverifiable" and _worst([dead_finding])[2] == "soft-404"
    assert finding_verdict(shell_finding) == ("unverifiable", "unverifiable")  # the HTML report agrees
    assert finding_verdict(dead_finding) == ("soft-404", "soft-404")
