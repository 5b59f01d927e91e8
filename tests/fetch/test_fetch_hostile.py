"""Hostile bodies and transports: every case ends in bounded time and bounded memory."""
from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import pytest
from hostile import brotli_bomb, gzip_bomb
from hostile_net import RawServer, endless_headers, long_body, reset_mid_body, short_body

from citecheck.config import FetchConfig
from citecheck.fetch.client import Fetcher, FetchResult
from citecheck.models import Outcome

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

CFG = FetchConfig(allow=("127.0.0.1",), use_cache=False, timeout=1.5, connect_timeout=1.0, read_timeout=1.0,
                  retries=1, backoff=0.01, max_body=256 * 1024, max_decompressed=1024 * 1024, sibling_probe=False,
                  robots=False)  # the page's own transport is under test, not robots.txt (tests/fetch/test_robots.py)


async def get(url: str, config: FetchConfig = CFG) -> tuple[FetchResult, float]:
    started = time.monotonic()
    async with Fetcher(config) as fetcher:
        result = await fetcher.fetch(url, keep_body=True)
    return result, time.monotonic() - started


@pytest.mark.parametrize("path", ["/bomb", "/brbomb"])
async def test_decompression_bomb_is_bounded(site: Any, path: str) -> None:
    gzip_bomb(), brotli_bomb()  # built before the clock starts
    result, took = await get(site.base + path)
    page = result.page
    assert (page.outcome, page.status, page.error) == (Outcome.OK, 200, "decompression-bomb")
    assert result.body is not None and len(result.body) == CFG.max_decompressed and took < 3


async def test_endless_chunked_body_is_capped(site: Any) -> None:
    result, took = await get(site.base + "/endless")
    assert (result.page.outcome, result.page.error) == (Outcome.OK, "body-too-large")
    assert result.body is not None and len(result.body) == CFG.max_body and took < 3


async def test_slow_drip_times_out(site: Any) -> None:
    result, took = await get(site.base + "/drip")
    page = result.page
    assert (page.outcome, page.error, page.status) == (Outcome.UNVERIFIABLE, "timeout", 200)
    assert CFG.timeout - 0.1 <= took < CFG.timeout + 1.0


@pytest.mark.parametrize("handler,error", [(endless_headers, "timeout"), (short_body, "invalid-response"),
                                           (reset_mid_body, "reset")])
async def test_broken_transports(handler: Callable[..., Awaitable[None]], error: str) -> None:
    async with RawServer(handler) as raw:
        result, took = await get(f"http://127.0.0.1:{raw.port}/")
    page = result.page
    assert (page.outcome, page.error) == (Outcome.UNVERIFIABLE, error) and took < CFG.timeout + 1.0
    if error == "reset":
        assert raw.connections == CFG.retries + 1  # a reset is retried


async def test_content_length_shorter_than_body_is_invalid() -> None:
    # aiohttp reads the surplus as a next response and rejects it: proof of nothing, so unverifiable
    async with RawServer(long_body) as raw:
        result, took = await get(f"http://127.0.0.1:{raw.port}/")
    assert (result.page.outcome, result.page.error) == (Outcome.UNVERIFIABLE, "invalid-response") and took < 1


async def test_lying_charset_decodes_without_error(site: Any) -> None:
    page = (await get(site.base + "/latin1"))[0].page
    assert page.outcome is Outcome.OK and page.title.startswith("Caf") and "cr" in page.title


async def test_huge_title_is_bounded(site: Any) -> None:
    page = (await get(site.base + "/bigtitle"))[0].page
    assert page.outcome is Outcome.OK and page.title == "T" * 500


async def test_deep_nesting_is_fast(site: Any) -> None:
    result, took = await get(site.base + "/deep")
    assert result.page.outcome is Outcome.OK and result.page.title == "Deep" and took < 3


async def test_body_over_cap_is_judged_on_prefix(site: Any) -> None:
    result, _ = await get(site.base + "/article", replace(CFG, max_body=120))
    page = result.page
    assert (page.outcome, page.error) == (Outcome.OK, "body-too-large") and result.body is not None
    assert len(result.body) == 120 and page.title == "Quantum harbor report"
