"""Fetch outcomes against a real aiohttp server on 127.0.0.1: statuses, redirects, retries, challenges."""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest
from hostile import HostileWeb
from hostile_net import RecordingSockets

from citecheck.config import FetchConfig
from citecheck.fetch import fetch_all
from citecheck.fetch.client import USER_AGENT, Fetcher
from citecheck.models import Outcome

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

CFG = FetchConfig(allow=("127.0.0.1",), use_cache=False, timeout=3.0, connect_timeout=1.0, read_timeout=1.0,
                  retries=2, backoff=0.01, retry_after_cap=2.0, max_body=256 * 1024, max_decompressed=1024 * 1024,
                  robots=False)  # requests are counted per hop here; robots.txt has tests/fetch/test_robots.py


async def fetch(site: Any, path: str, config: FetchConfig = CFG, **kw: Any) -> Any:
    async with Fetcher(config, **kw) as fetcher:
        return (await fetcher.fetch(site.base + path, keep_body=True))


async def test_article_facts(site: Any) -> None:
    result = await fetch(site, "/article")
    page = result.page
    assert (page.outcome, page.status, page.error) == (Outcome.OK, 200, "")
    assert page.title == "Quantum harbor report" and page.canonical == "https://example.org/quantum"
    assert "45% in 2023" in page.text_sample and "hidden" not in page.text_sample
    assert page.content_type == "text/html" and page.headers["content-type"].startswith("text/html")
    assert page.meta["description"] == "A report." and len(page.content_hash) == 64
    assert page.fetched_at.endswith("Z") and page.final_url == site.base + "/article"
    assert result.body is not None and b"Quantum harbor" in result.body
    assert site.headers[0]["User-Agent"] == USER_AGENT and "gzip" in site.headers[0]["Accept-Encoding"]
    assert page.sibling_status == 404 and site.hits["/article"] == 1


@pytest.mark.parametrize("path,outcome,status", [
    ("/missing", Outcome.DEAD, 404), ("/gone", Outcome.DEAD, 410), ("/soft404", Outcome.OK, 200),
    ("/linkedin", Outcome.UNVERIFIABLE, 999), ("/cf", Outcome.UNVERIFIABLE, 403), ("/cf503", Outcome.UNVERIFIABLE, 503),
])
async def test_status_outcomes(site: Any, path: str, outcome: Outcome, status: int) -> None:
    page = (await fetch(site, path)).page
    assert (page.outcome, page.status) == (outcome, status)
    if status in (999, 403, 503):
        assert page.error == "challenge" and site.hits[path] == 1  # a challenge is not retried


async def test_soft404_keeps_title_and_text(site: Any) -> None:
    page = (await fetch(site, "/soft404")).page
    assert page.title == "Page not found" and "could not be found" in page.text_sample


async def test_pdf_records_type_and_length(site: Any) -> None:
    page = (await fetch(site, "/pdf")).page
    assert (page.outcome, page.content_type, page.title) == (Outcome.OK, "application/pdf", "")
    assert page.content_length == len(b"%PDF-1.4\n") + 5000 + len(b"\n%%EOF")
    assert page.sibling_status is None  # only hosts with a 200 HTML page are probed


async def test_redirect_chain_recorded(site: Any) -> None:
    page = (await fetch(site, "/chain/3")).page
    assert page.outcome is Outcome.OK and page.final_url == site.base + "/article"
    assert [h.status for h in page.chain] == [302, 302, 302, 200]
    assert [h.location for h in page.chain[:3]] == ["/chain/2", "/chain/1", "/article"]


async def test_redirect_loop_detected(site: Any) -> None:
    page = (await fetch(site, "/loop/a")).page
    assert (page.outcome, page.error) == (Outcome.UNVERIFIABLE, "redirect-loop")
    assert site.hits["/loop/a"] == 1 and site.hits["/loop/b"] == 1


async def test_thirty_hops_stop_at_max_redirects(site: Any) -> None:
    page = (await fetch(site, "/chain/30")).page
    assert (page.outcome, page.error) == (Outcome.UNVERIFIABLE, "too-many-redirects")
    assert len(page.chain) == CFG.max_redirects + 1 and sum(site.hits.values()) - site.hits["/article"] == 11


async def test_redirect_to_file_scheme_is_unsupported(site: Any) -> None:
    page = (await fetch(site, "/to?url=file:///etc/passwd")).page
    assert (page.outcome, page.error, page.final_url) == (Outcome.UNSUPPORTED, "bad-scheme", "file:///etc/passwd")


async def test_redirect_with_credentials_sends_no_authorization(site: Any) -> None:
    target = site.base.replace("http://", "http://admin:secret@") + "/echo"
    page = (await fetch(site, f"/to?url={target}")).page
    assert (page.outcome, page.error) == (Outcome.EXCLUDED, "credentials")
    assert site.hits["/echo"] == 0 and not any("Authorization" in h for h in site.headers)


async def test_credentials_in_input_url_never_sent(site: Any) -> None:
    url = site.base.replace("http://", "http://user:pw@") + "/echo"
    async with Fetcher(CFG) as fetcher:
        page = (await fetcher.fetch(url)).page
    assert page.error == "credentials" and site.hits["/echo"] == 0


async def test_429_retry_after_seconds_then_200(site: Any) -> None:
    started = time.monotonic()
    page = (await fetch(site, "/ratelimit/a?n=1&after=1")).page
    assert (page.outcome, page.status) == (Outcome.OK, 200) and time.monotonic() - started >= 1.0
    assert site.hits["/ratelimit/a"] == 2


async def test_429_retry_after_http_date_then_200(site: Any) -> None:
    page = (await fetch(site, "/ratelimit/b?n=1&after=1&date=1")).page
    assert (page.outcome, page.status) == (Outcome.OK, 200) and site.hits["/ratelimit/b"] == 2


async def test_429_forever_is_unverifiable_never_dead(site: Any) -> None:
    page = (await fetch(site, "/ratelimit/c?n=1000&after=0")).page
    assert (page.outcome, page.error, page.status) == (Outcome.UNVERIFIABLE, "rate-limited", 429)
    assert site.hits["/ratelimit/c"] == CFG.retries + 1


async def test_429_past_retry_after_cap_gives_up_at_once(site: Any) -> None:
    started = time.monotonic()
    page = (await fetch(site, "/ratelimit/d?n=1&after=3600")).page
    assert (page.outcome, page.error) == (Outcome.UNVERIFIABLE, "rate-limited")
    assert site.hits["/ratelimit/d"] == 1 and time.monotonic() - started < 1.0


async def test_flapping_503_then_200(site: Any) -> None:
    page = (await fetch(site, "/flap/a?n=2")).page
    assert (page.outcome, page.status) == (Outcome.OK, 200) and site.hits["/flap/a"] == 3


async def test_503_after_retries_is_unverifiable_server_error(site: Any) -> None:
    page = (await fetch(site, "/flap/b?n=99")).page
    assert (page.outcome, page.error, page.status) == (Outcome.UNVERIFIABLE, "server-error", 503)


async def test_each_distinct_url_fetched_once(site: Any) -> None:
    url = site.base + "/article"
    pages = await fetch_all([url, url, url + "#part", site.base + "/missing"], CFG)
    assert site.hits["/article"] == 1 and set(pages) == {url, url + "#part", site.base + "/missing"}
    assert pages[url + "#part"].url == url + "#part" and pages[url + "#part"].title == "Quantum harbor report"


async def test_sibling_probe_once_per_host(site: Any) -> None:
    urls = [site.base + p for p in ("/article", "/soft404", "/chain/1", "/missing")]
    pages = await fetch_all(urls, CFG)
    probes = [p for p in site.hits if "/citecheck-probe-" in p]
    assert len(probes) == 1 and probes[0].startswith("/citecheck-probe-")
    assert pages[urls[0]].sibling_status == 404 and pages[urls[3]].sibling_status is None


async def test_sibling_probe_off(site: Any) -> None:
    page = (await fetch(site, "/article", replace(CFG, sibling_probe=False))).page
    assert page.sibling_status is None and not any("probe" in p for p in site.hits)


async def test_per_host_headers_and_user_agent_override(site: Any) -> None:
    config = replace(CFG, user_agent="mybot/1", headers={"127.0.0.1": {"X-Token": "t"}, "other.test": {"X-No": "n"}})
    await fetch(site, "/echo", config)
    assert site.headers[0]["User-Agent"] == "mybot/1" and site.headers[0]["X-Token"] == "t"
    assert "X-No" not in site.headers[0]


async def test_connections_reused(site: Any) -> None:
    sockets = RecordingSockets()
    await fetch_all([site.base + f"/chain/{n}" for n in range(1, 6)], replace(CFG, concurrency=1), socket_factory=sockets)
    assert sum(site.hits.values()) >= 15 and len(sockets.addresses) <= 2


async def test_host_interval_spaces_requests(site: Any) -> None:
    config = replace(CFG, host_interval=0.2, sibling_probe=False)
    started = time.monotonic()
    await fetch_all([site.base + "/article", site.base + "/missing", site.base + "/gone"], config)
    assert time.monotonic() - started >= 0.4


async def test_refused_port_is_unverifiable(unused_tcp_port: int) -> None:
    port = unused_tcp_port
    async with Fetcher(CFG) as fetcher:
        page = (await fetcher.fetch(f"http://127.0.0.1:{port}/")).page
    assert (page.outcome, page.error) == (Outcome.UNVERIFIABLE, "refused")


async def test_deferred_parsing_completes_to_the_same_pages(tmp_path: Any) -> None:
    """`fetch_all(defer_parse=True)` + `facts.complete` (what the audit's page workers do) gives
    exactly the pages the fetch loop builds when it parses itself, sibling probe text included."""
    from dataclasses import replace

    from hostile_net import ServerThread

    from citecheck.config import FetchConfig
    from citecheck.fetch import fetch_all
    from citecheck.fetch.facts import complete

    web_ = HostileWeb()
    paths = ["/article", "/missing", "/gone", "/soft404", "/pdf", "/bigtitle", "/deep", "/latin1", "/linkedin",
             "/cf", "/chain/3", "/loop/a", "/to", "/bomb", "/echo"]
    with ServerThread(web_.app) as thread:
        urls = [f"http://127.0.0.1:{thread.port}{p}" for p in paths]
        config = FetchConfig(allow=("127.0.0.1",), use_cache=False, timeout=5, retries=0)
        parsed = await fetch_all(urls, config)
        arrived: dict[str, Any] = {}
        await fetch_all(urls, config, on_page=lambda url, page, raw: arrived.setdefault(url, (page, raw)),
                        defer_parse=True)
    done = {url: complete(page, raw) if raw is not None else page for url, (page, raw) in arrived.items()}

    def comparable(page: Any) -> Any:
        return replace(page, elapsed_ms=0.0, fetched_at="")

    assert set(done) == set(parsed)
    assert {u: comparable(p) for u, p in done.items()} == {u: comparable(p) for u, p in parsed.items()}
    assert any(p.sibling_status and p.sibling_text is not None for p in done.values())  # probes ran
    assert any(p.title for p in parsed.values())
    unparsed = [page for page, raw in arrived.values() if raw is not None and raw.body]
    assert unparsed and not any(p.title or p.text_sample or p.html_sample for p in unparsed)
