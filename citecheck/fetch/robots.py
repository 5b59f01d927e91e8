"""robots.txt: what a site lets citecheck fetch, asked before every request of a run.

The rules that apply are the group for citecheck's own user-agent token (`citecheck`) when the file
has one, else the `*` group, matched as RFC 9309 says (longest match wins, `*` and `$` patterns),
by Protego, the robots.txt parser of Scrapy. Each origin's file is fetched once per run through
the guarded fetcher (the SSRF guard, timeouts and body caps apply) and kept one day in the fetch
cache's side table (`get_extras`/`put_extras`, which every cache backend has). What the file's
answer means:

    2xx              its rules
    4xx (404, 410…)  no rules: everything is allowed (RFC 9309 2.3.1.3)
    429, 5xx, none   nothing is known: allowed, not cached (the page's own fetch will tell);
                     RFC 9309 would assume a full disallow, which would make a flaky robots.txt
                     look like a site that forbids checking

A disallowed URL is never requested: its page is *unverifiable* with the error word
`robots-disallowed`. robots.txt is part of the run's URL policy, so `fetch_all` asks it before the
fact cache: a page stored while the site allowed it is not answered once the site disallows it. `--ignore-robots` (config `fetch.robots: false`) turns all of this off.
"""
from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import urlsplit

from protego import Protego

TOKEN = "citecheck"
KIND = "robots"
LIFETIME = 86400.0  # seconds a stored robots.txt is trusted
ERROR = "robots-disallowed"


def origin_of(url: str) -> str:
    """`scheme://host[:port]` of a URL, lower-cased: robots.txt applies per origin."""
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def is_robots_url(url: str) -> bool:
    return urlsplit(url).path == "/robots.txt"


class Rules:
    """One origin's robots.txt, parsed once (`text` None: no rules, everything allowed)."""

    def __init__(self, origin: str, text: str | None) -> None:
        self.origin = origin
        self.text = text
        self._parser = Protego.parse(text) if text is not None else None

    def allows(self, url: str) -> bool:
        if self._parser is None or is_robots_url(url):
            return True
        return bool(self._parser.can_fetch(url, TOKEN))


class Robots:
    """`await robots.allows(url)`: one robots.txt fetch per origin per run, shared by concurrent asks."""

    def __init__(self, fetch: Any, cache: Any = None) -> None:
        self._fetch = fetch  # async (url) -> (Page, body), through the guarded fetcher
        self._cache = cache
        self._origins: dict[str, asyncio.Future[Rules]] = {}
        self.fetched = 0

    async def allows(self, url: str) -> bool:
        if is_robots_url(url):
            return True
        return (await self.rules(origin_of(url))).allows(url)

    async def rules(self, origin: str) -> Rules:
        """The rules of `origin` (`origin_of`), read or fetched once per run."""
        future = self._origins.get(origin)
        if future is None:
            future = self._origins[origin] = asyncio.get_running_loop().create_future()
            try:
                rules = await self._rules(origin)
            except BaseException:
                future.set_result(Rules(origin, None))  # never leave the other waiters hanging
                raise
            future.set_result(rules)
        return await asyncio.shield(future)

    async def _rules(self, origin: str) -> Rules:
        stored = self._cache.get_extras(KIND, [origin]).get(origin) if self._cache is not None else None
        if isinstance(stored, dict) and time.time() - float(stored.get("fetched", 0)) < LIFETIME:
            kept = stored.get("text")
            return Rules(origin, kept if isinstance(kept, str) else None)
        page, body = await self._fetch(f"{origin}/robots.txt")
        self.fetched += 1
        status = page.status
        text: str | None = None
        if status is not None and 200 <= status < 300 and page.outcome.value == "ok":
            text = (body or b"").decode("utf-8-sig", errors="replace")
        elif status is not None and 400 <= status < 500 and status != 429:
            text = None
        else:
            return Rules(origin, None)  # unknown now: allowed, and not remembered
        if self._cache is not None:
            self._cache.put_extras(KIND, {origin: {"fetched": time.time(), "status": status, "text": text}})
        return Rules(origin, text)
