"""Politeness and bookkeeping per host: in-flight limits (keyed by host:port), the optional
interval between requests to one host, and the statistics `--verbose` prints."""
from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field


@dataclass
class HostStats:
    """What happened on one host:port during a run."""

    requests: int = 0
    retries: int = 0
    wire_bytes: int = 0
    seconds: float = 0.0
    statuses: Counter[str] = field(default_factory=Counter)
    waited: float = 0.0  # slot wait of the latest request (the per-URL budget does not count it)

    def line(self, host: str) -> str:
        mean = self.seconds / self.requests * 1000 if self.requests else 0.0
        codes = " ".join(f"{code}×{n}" for code, n in sorted(self.statuses.items()))
        return (f"{host}: {self.requests} requests, {self.retries} retries, {self.wire_bytes / 1024:.0f} KiB, "
                f"mean {mean:.0f} ms [{codes}]")


class PrioritySemaphore:
    """A semaphore whose urgent waiters (later hops and retries of a walk already under way) go
    before fresh URLs, so a redirect chain is not queued behind the whole run."""

    def __init__(self, value: int) -> None:
        self._value = value
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    async def acquire(self, urgent: bool = False) -> None:
        if self._value > 0 and not self._waiters:
            self._value -= 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (0 if urgent else 1, next(self._seq), future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # woken and cancelled at once: pass the slot on
            raise

    def release(self) -> None:
        while self._waiters:
            _, _, future = heapq.heappop(self._waiters)
            if not future.done():
                future.set_result(None)
                return
        self._value += 1


class Slots:
    """A host:port semaphore, then the overall one (waiting for a busy host holds no global slot)."""

    def __init__(self, concurrency: int, host_concurrency: int, interval: float = 0.0) -> None:
        self.host_concurrency = max(1, host_concurrency)
        self.interval = interval
        self._global = PrioritySemaphore(max(1, concurrency))
        self._hosts: dict[str, PrioritySemaphore] = {}
        self._next_start: dict[str, float] = {}
        self.stats: dict[str, HostStats] = {}

    @asynccontextmanager
    async def hold(self, key: str, urgent: bool = False) -> AsyncIterator[HostStats]:
        """Both slots for one request to `key`; stats.waited says how long getting them took."""
        asked = time.perf_counter()
        sem = self._hosts.get(key)
        if sem is None:
            sem = self._hosts[key] = PrioritySemaphore(self.host_concurrency)
        await sem.acquire(urgent)
        try:
            if self.interval > 0:
                await self._space(key)
            await self._global.acquire(urgent)
            try:
                stats = self.stats.get(key)
                if stats is None:
                    stats = self.stats[key] = HostStats()
                started = time.perf_counter()
                stats.requests += 1
                stats.waited = started - asked
                try:
                    yield stats
                finally:
                    stats.seconds += time.perf_counter() - started
            finally:
                self._global.release()
        finally:
            sem.release()

    async def _space(self, key: str) -> None:
        now = time.monotonic()
        start = max(now, self._next_start.get(key, now))
        self._next_start[key] = start + self.interval
        if start > now:
            await asyncio.sleep(start - now)
