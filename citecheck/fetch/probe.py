"""The random-sibling probe behind the soft-404 rule.

For each host where some page answered 200 with HTML, fetch once per run a path that cannot
exist beside it (`/<dir of that page>/citecheck-probe-<random>`). A site that answers that with
200 and the same text as the cited page serves soft-404s; one that answers 404 does not. The
probe's fingerprint (`support.shape.page_shape` of its markup sample and text: nonces, tokens,
numbers and the echoed path taken out) tells a site that answers the very same page for any path, a client-rendered shell.
"""
from __future__ import annotations

import asyncio
import secrets
import string
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from citecheck.fetch.facts import is_html_page
from citecheck.fetch.parse import parse_body
from citecheck.models import Page
from citecheck.support.shape import page_shape

Sibling = tuple[str, bytes, str]  # (probe URL, unparsed body, content type)
# (sibling_status, sibling_text, unparsed sibling, sibling_shape)
Probed = tuple[int | None, str | None, Sibling | None, str]
NOT_PROBED: Probed = (None, None, None, "")

PREFIX = "citecheck-probe-"


def probe_url(url: str, token: str | None = None) -> str:
    """A path beside `url` (same scheme, host and directory) that should not exist."""
    parts = urlsplit(url)
    directory = parts.path.rsplit("/", 1)[0] if "/" in parts.path else ""
    path = f"{directory}/{PREFIX}{token or random_token()}"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def random_token() -> str:
    """16 random lower-case letters. Never a number: a hex token is all digits once in ~1,800
    (16 hex digits, each a digit with odds 10/16), and `…-probe-4081937265143380` then matches
    the `slug-<id>` routes many sites (and the benchmark's server) answer with a real page, so the
    host's "page that does not exist" was a live article and its pages looked like soft 404s."""
    return "".join(secrets.choice(string.ascii_lowercase) for _ in range(16))


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


class Siblings:
    """Once-per-host probes for one run, shared by every page of that host."""

    def __init__(self, fetcher: Any) -> None:
        self.fetcher = fetcher
        self._tasks: dict[str, asyncio.Task[Probed]] = {}

    async def find(self, page: Page, body: bytes | None = None) -> Probed:
        """The host's probe result for `page` (NOT_PROBED when its host does not qualify): the
        probe's status and text for the page's sibling_status/sibling_text, and with a deferring
        fetcher (`body`: the page's unparsed body) the probe's unparsed body, its text left to
        `facts.complete`."""
        if not self.fetcher.config.sibling_probe or not is_html_page(page, body):
            return NOT_PROBED
        key = origin(page.final_url or page.url)
        task = self._tasks.get(key)
        if task is None:
            task = self._tasks[key] = asyncio.create_task(self._probe(page.final_url or page.url))
        return await asyncio.shield(task)

    async def _probe(self, url: str) -> Probed:
        result = await self.fetcher.fetch_fresh(probe_url(url), probe=False, urgent=True)
        page = result.page
        if page.status is None:
            return NOT_PROBED
        final = page.final_url or page.url
        if result.raw is not None:  # parsed later, once per host (the probe URL names it)
            shape = ""
            if page.status == 200:  # the fingerprint only matters for a page that answers any path
                facts = parse_body(result.raw.body, result.raw.content_type)  # once per host
                shape = page_shape(facts.html_sample, facts.text_sample, final)
            return page.status, None, (page.url, result.raw.body, result.raw.content_type), shape
        shape = page_shape(page.html_sample, page.text_sample, final) if page.status == 200 else ""
        return page.status, page.text_sample, None, shape

    async def close(self) -> None:
        for task in self._tasks.values():
            if not task.done():
                task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)
