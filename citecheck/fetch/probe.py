"""The random-sibling probe behind the soft-404 rule.

For each host where some page answered 200 with HTML, fetch once per run a path that cannot
exist beside it (`/<dir of that page>/citecheck-probe-<random>`). A site that answers that with
200 and the same text as the cited page serves soft-404s; one that answers 404 does not. The
probe's fingerprint (`support.shape.page_shape` of its markup sample and text: nonces, tokens,
numbers and the echoed path taken out) tells a site that answers the very same page for any path, a client-rendered shell.

With a team cache (`cache.shared`) the probe is made once per host for all runners: its result is a
side record (kind `sibling`, keyed by the run's policy and the origin, fresh for `--max-age` days
like the answers it judges), and a lease on the same key (`claim_keys`) makes one runner probe
while the others wait for its record. Only a settled answer is shared (see `cache.fact_kind`): a
probe that timed out or met a 5xx is the prober's alone, and the next runner probes again.
"""
from __future__ import annotations

import asyncio
import secrets
import string
import time
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
KIND = "sibling"
SHARED_POLL = 0.2  # seconds between looks for another runner's probe record


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
        cache = self.fetcher.cache
        if cache is None or not getattr(cache, "shared", False) or self.fetcher.defer_parse:
            return (await self._probe_now(url))[0]
        key = f"{cache.policy}|{origin(url)}"
        while True:
            stored = self._stored(cache, key)
            if stored is not None:
                return stored
            if cache.claim_keys([f"{KIND}:{key}"], 1):
                break
            await asyncio.sleep(SHARED_POLL)  # another runner is probing this host now
        try:
            return await self._probe_shared(cache, key, url)
        finally:
            cache.release_keys([f"{KIND}:{key}"])

    def _stored(self, cache: Any, key: str) -> Probed | None:
        record = cache.get_extras(KIND, [key]).get(key)
        if not isinstance(record, dict) or time.time() - float(record.get("fetched", 0)) > \
                self.fetcher.config.max_age_days * 86400:
            return None
        return record["status"], record["text"], None, record["shape"]

    async def _probe_shared(self, cache: Any, key: str, url: str) -> Probed:
        stored = self._stored(cache, key)  # stored just before this runner took the lease over
        if stored is not None:
            return stored
        probed, settled = await self._probe_now(url)
        if settled and probed[1] is not None:
            cache.put_extras(KIND, {key: {"fetched": time.time(), "status": probed[0], "text": probed[1],
                                          "shape": probed[3]}})
        return probed

    async def _probe_now(self, url: str) -> tuple[Probed, bool]:
        """The probe's result, and whether it is a settled answer (one worth sharing)."""
        from citecheck.fetch.cache import fact_kind

        result = await self.fetcher.fetch_fresh(probe_url(url), probe=False, urgent=True)
        page = result.page
        if page.status is None:
            return NOT_PROBED, False
        return self._result(page, result.raw), fact_kind(page) is not None

    @staticmethod
    def _result(page: Page, raw: Any) -> Probed:
        final = page.final_url or page.url
        if raw is not None:  # parsed later, once per host (the probe URL names it)
            shape = ""
            if page.status == 200:  # the fingerprint only matters for a page that answers any path
                facts = parse_body(raw.body, raw.content_type)  # once per host
                shape = page_shape(facts.html_sample, facts.text_sample, final)
            return page.status, None, (page.url, raw.body, raw.content_type), shape
        shape = page_shape(page.html_sample, page.text_sample, final) if page.status == 200 else ""
        return page.status, page.text_sample, None, shape

    async def close(self) -> None:
        for task in self._tasks.values():
            if not task.done():
                task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)
