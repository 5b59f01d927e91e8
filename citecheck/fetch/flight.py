"""Single-flight fetching across runners that share a team cache (`citecheck.fetch.cache_pg`).

When several runners want the same URL at once, one fetches it and the others wait for its facts.
A runner about to fetch a URL first looks for fresh facts, then takes the URL's lease
(`PgCache.claim`); while another runner holds an unexpired lease it sleeps and looks again (100 ms,
growing to 1 s). The owner's `put_many` of the page ends the lease whether or not the page was
worth storing, so a transient failure (never a fact) is retried by the next runner on its own; a
runner killed mid-fetch holds nobody up beyond the lease (`CITECHECK_CACHE_LEASE`, default 60 s).
At most `concurrency` leases per runner are held at once, each only while its fetch runs.

The database calls are synchronous and short (one indexed row each); they run on the event loop.
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from citecheck.models import Page

__all__ = ["Flight"]
T = TypeVar("T")
POLL_FIRST, POLL_MAX = 0.1, 1.0


class Flight:
    """`await flight.run(target, fetch)` → (cached page, None) or (None, what `fetch()` returned)."""

    def __init__(self, cache: Any, max_age_days: float, concurrency: int) -> None:
        self.cache = cache
        self.max_age_days = max_age_days
        self.gate = asyncio.Semaphore(max(1, concurrency))
        self.waited = 0  # URLs whose facts another runner fetched while this one waited

    def _stored(self, target: str) -> Page | None:
        return self.cache.get_many([target], self.max_age_days).get(target)

    async def run(self, target: str, fetch: Callable[[], Awaitable[T]]) -> tuple[Page | None, T | None]:
        delay = POLL_FIRST
        while True:
            async with self.gate:
                found = self._stored(target)
                if found is None and self.cache.claim(target):
                    found = self._stored(target)  # the previous owner may have stored it just now
                    if found is None:
                        return None, await fetch()
                    self.cache.release([target])
            if found is not None:
                self.waited += 1
                return found, None
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, POLL_MAX)
