"""Politeness and bookkeeping per host: in-flight limits (keyed by host:port), the optional
interval between requests to one host, and the statistics `--verbose` prints."""
from __future__ import annotations

import asyncio
import time
from collections import Counter
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import AsyncIterator


@dataclass
class HostStats:
    """What happened on one host:port during a run."""

    requests: int = 0
    retries: int = 0
    wire_bytes: int = 0
    seconds: float = 0.0
    statuses: Counter[str] = field(default_factory=Counter)

    def line(self, host: str) -> str:
        mean = self.seconds / self.requests * 1000 if self.requests else 0.0
        codes = " ".join(f"{code}×{n}" for code, n in sorted(self.statuses.items()))
        return (f"{host}: {self.requests} requests, {self.retries} retries, {self.wire_bytes / 1024:.0f} KiB, "
                f"mean {mean:.0f} ms [{codes}]")


class Slots:
    """A host:port semaphore, then the overall one (waiting for a busy host holds no global slot)."""

    def __init__(self, concurrency: int, host_concurrency: int, interval: float = 0.0) -> None:
        self.host_concurrency = max(1, host_concurrency)
        self.interval = interval
        self._global = asyncio.Semaphore(max(1, concurrency))
        self._hosts: dict[str, asyncio.Semaphore] = {}
        self._next_start: dict[str, float] = {}
        self.stats: dict[str, HostStats] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[HostStats]:
        sem = self._hosts.get(key)
        if sem is None:
            sem = self._hosts[key] = asyncio.Semaphore(self.host_concurrency)
        async with sem:
            if self.interval > 0:
                await self._space(key)
            async with self._global:
                stats = self.stats.get(key)
                if stats is None:
                    stats = self.stats[key] = HostStats()
                started = time.perf_counter()
                stats.requests += 1
                try:
                    yield stats
                finally:
                    stats.seconds += time.perf_counter() - started

    async def _space(self, key: str) -> None:
        now = time.monotonic()
        start = max(now, self._next_start.get(key, now))
        self._next_start[key] = start + self.interval
        if start > now:
            await asyncio.sleep(start - now)
