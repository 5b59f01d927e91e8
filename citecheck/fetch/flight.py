"""Single-flight fetching across runners that share a team cache (`citecheck.fetch.cache_pg`).

When several runners want the same URL at once, one fetches it and the others wait for its facts.
Every URL a runner did not find in the cache waits in one queue, and one poller per runner asks
the database for the queue at a time: as many free URLs as the runner has fetch slots are claimed
in one statement (`PgCache.claim_keys`: a lease row each, expiring on the server's clock), the
claimed ones are looked up once more (another runner may have stored them just now) and the rest
fetched; fresh facts end the wait of the first `WINDOW` waiting URLs (the others are looked up
when they move up, or when claimed). The owner's `put_many` of a page ends its lease whether or
not the page was worth storing, so a transient failure (never a fact) is retried by the next
runner on its own. A live runner renews its leases every third of a lease while it holds any (a
claimed URL may wait long for its host's budget, which all runners share), so only a runner killed
mid-fetch lets one run out: it holds nobody up beyond its lease (`CITECHECK_CACHE_LEASE`, default 60 s),
nor a waiter beyond its own `--timeout` (`patience`): a URL that has waited that long is fetched by
the waiter itself, without the lease.

The poller runs again when a fetch ends (at most every 50 ms) or after 0.1 s growing to 1 s while
nothing changes. Its database calls are synchronous and short; they run on the event loop.
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from citecheck.models import Page
from citecheck.urls import fact_key

__all__ = ["Flight"]
T = TypeVar("T")
POLL_FIRST, POLL_MAX, POLL_GAP = 0.1, 1.0, 0.05
WINDOW = 256


class Flight:
    """`await flight.run(target, fetch)` → (cached page, None) or (None, what `fetch()` returned)."""

    def __init__(self, cache: Any, max_age_days: float, concurrency: int, patience: float | None = None) -> None:
        self.cache = cache
        self.max_age_days = max_age_days
        self.patience = patience  # how long a URL waits for another runner (the run's --timeout); None: its lease
        self.slots = self.free = max(1, concurrency)  # fetch slots: how many URLs this runner may hold leases on
        self.waiting: dict[str, tuple[str, asyncio.Future[Page | None]]] = {}  # target → (key, future)
        self.waited = 0  # URLs whose facts another runner fetched while this one waited
        self.gave_up = 0  # URLs fetched here after waiting `patience` for another runner's lease
        self.held: dict[str, float] = {}  # target -> since when another runner's lease has kept it waiting
        self.abandoned: set[str] = set()  # targets whose wait ended by `patience`, to fetch without a slot
        self._wake = asyncio.Event()
        self._poller: asyncio.Task[None] | None = None
        self._renewer: asyncio.Task[None] | None = None

    async def run(self, target: str, fetch: Callable[[], Awaitable[T]]) -> tuple[Page | None, T | None]:
        if not self.cache.admits(target):
            return None, await fetch()  # the guard refuses it: nothing to share
        future: asyncio.Future[Page | None] = asyncio.get_running_loop().create_future()
        self.waiting[target] = (fact_key(target), future)
        if self._poller is None or self._poller.done():
            self._poller = asyncio.create_task(self._poll())
        self._wake.set()
        page = await future
        if target in self.abandoned:  # another runner held it longer than this run waits: fetched here
            self.abandoned.discard(target)
            self.gave_up += 1
            return None, await fetch()
        if page is not None:
            self.waited += 1
            return page, None
        if self._renewer is None or self._renewer.done():
            self._renewer = asyncio.create_task(self._renew())
        try:
            return None, await fetch()
        finally:
            self.free += 1
            self._wake.set()

    async def _poll(self) -> None:
        delay, last = POLL_FIRST, 0.0
        while self.waiting:
            gap = last + POLL_GAP - time.monotonic()
            if gap > 0:
                await asyncio.sleep(gap)
            last = time.monotonic()
            self._wake.clear()
            delay = POLL_FIRST if self._step() else min(delay * 1.5, POLL_MAX)
            if not self.waiting:
                break
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=delay)
            except TimeoutError:
                pass

    async def _renew(self) -> None:
        """Keep this runner's leases from running out while it holds any."""
        while self.free < self.slots:
            await asyncio.sleep(self.cache.lease / 3)
            if self.free < self.slots:
                await asyncio.to_thread(self.cache.renew_leases)

    def close(self) -> None:
        """Stop renewing (the run's fetches are over)."""
        if self._renewer is not None:
            self._renewer.cancel()

    def _step(self) -> bool:
        """One look at the database for the waiting URLs; whether any wait ended."""
        moved = False
        if self.free > 0:
            by_key: dict[str, str] = {}
            for target, (key, _) in self.waiting.items():
                by_key.setdefault(key, target)
            claimed = [by_key[k] for k in self.cache.claim_keys(list(by_key), self.free)]
            if len(claimed) < self.free:  # a slot was left: every key not claimed is another runner's now
                now = time.monotonic()
                for target in set(by_key.values()).difference(claimed):
                    self.held.setdefault(target, now)
            stored = self.cache.get_many(claimed, self.max_age_days, vetted=True)
            self.cache.release_keys([self.waiting[t][0] for t in stored])
            for target in claimed:
                if target not in stored:
                    self.free -= 1
                self._settle(target, stored.get(target))
            moved = bool(claimed)
        window = list(self.waiting)[:WINDOW]
        for target, page in self.cache.get_many(window, self.max_age_days, vetted=True).items():
            self._settle(target, page)
            moved = True
        return self._give_up() or moved

    def _give_up(self) -> bool:
        """End the wait of URLs another runner's lease has held for `patience` seconds (a killed runner
        holds its leases to their end, by default 60 s, whatever this run's --timeout)."""
        if self.patience is None or not self.held:
            return False
        now, ended = time.monotonic(), False
        for target, since in list(self.held.items()):
            if target not in self.waiting:
                del self.held[target]
            elif now - since >= self.patience:
                del self.held[target]
                self.abandoned.add(target)
                self._settle(target, None)
                ended = True
        return ended

    def _settle(self, target: str, page: Page | None) -> None:
        _, future = self.waiting.pop(target, (None, None))
        if future is not None and not future.done():
            future.set_result(page)
