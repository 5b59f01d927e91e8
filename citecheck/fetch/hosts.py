"""Politeness and bookkeeping per host: in-flight limits (keyed by host:port), the optional
interval between requests to one host, and the statistics `--verbose` prints.

Politeness means the same with one runner or many. Alone, a runner counts its own requests:
at most `host-concurrency` in flight to a host, starts at least `host-interval` seconds apart.
With a team cache (`SharedBudget`: `citecheck.fetch.cache_pg`) the same two numbers count every
runner's requests: a request holds one of the host's slots in the database (taken in one statement,
polled for while all are held), and reserves its start after the last start any runner reserved.
A slot expires `hold` seconds after it was taken (the request's whole time budget and the longest
interval wait it can meet), so a runner killed mid-request holds a host's budget no longer than that;
a reserved start is reserved only by a slot holder, so a killed runner's reservations delay a host
by at most `host-concurrency` × `host-interval`.
"""
from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

SHARED_POLL_FIRST, SHARED_POLL_MAX = 0.01, 0.25  # seconds between asks while a host's shared slots are all held


class SharedBudget(Protocol):
    """A per-host budget several runners share (a team cache)."""

    def take_host_slot(self, host: str, limit: int, hold: float) -> int | None: ...

    def free_host_slot(self, host: str, slot: int) -> None: ...

    def reserve_start(self, host: str, interval: float) -> float: ...


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
    """A host:port semaphore, then the overall one (waiting for a busy host holds no global slot);
    with `shared`, then a slot of the host's budget all runners share. `hold`: the longest one
    request may keep a shared slot (its time budget)."""

    def __init__(self, concurrency: int, host_concurrency: int, interval: float = 0.0,
                 shared: SharedBudget | None = None, hold: float = 60.0) -> None:
        self.host_concurrency = max(1, host_concurrency)
        self.interval = interval
        self.shared = shared
        self.shared_hold = hold + interval * self.host_concurrency
        self._global = PrioritySemaphore(max(1, concurrency))
        self._hosts: dict[str, PrioritySemaphore] = {}
        self._next_start: dict[str, float] = {}
        self.stats: dict[str, HostStats] = {}

    def hold(self, key: str, urgent: bool = False) -> Hold:
        """Both slots for one request to `key` (`async with`); stats.waited says how long getting
        them took."""
        return Hold(self, key, urgent)

    async def _space(self, key: str) -> None:
        now = time.monotonic()
        start = max(now, self._next_start.get(key, now))
        self._next_start[key] = start + self.interval
        if start > now:
            await asyncio.sleep(start - now)

    async def _take_shared(self, shared: SharedBudget, key: str) -> int:
        """A slot of `key`'s shared budget, and its start reserved and waited for."""
        delay = SHARED_POLL_FIRST
        while (slot := await asyncio.to_thread(shared.take_host_slot, key, self.host_concurrency, self.shared_hold)) is None:
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, SHARED_POLL_MAX)
        try:
            if self.interval > 0:
                wait = await asyncio.to_thread(shared.reserve_start, key, self.interval)
                if wait > 0:
                    await asyncio.sleep(wait)
        except BaseException:
            try:
                shared.free_host_slot(key, slot)
            except Exception:  # noqa: BLE001 - the database went too: the slot expires by itself
                pass
            raise
        return slot


class Hold:
    """`async with slots.hold(key) as stats`: a class rather than an @asynccontextmanager, which
    costs a generator and its wrapper on every request of the run."""

    __slots__ = ("_host", "_key", "_shared_slot", "_slots", "_started", "_stats", "_urgent")

    def __init__(self, slots: Slots, key: str, urgent: bool) -> None:
        self._slots = slots
        self._key = key
        self._urgent = urgent

    async def __aenter__(self) -> HostStats:
        slots, key = self._slots, self._key
        asked = time.perf_counter()
        sem = slots._hosts.get(key)
        if sem is None:
            sem = slots._hosts[key] = PrioritySemaphore(slots.host_concurrency)
        await sem.acquire(self._urgent)
        self._shared_slot = None
        try:
            if slots.shared is None:
                if slots.interval > 0:
                    await slots._space(key)
                await slots._global.acquire(self._urgent)
            else:
                # The global slot first: a shared slot is held only while its request waits for
                # its start and runs, so its hold bounds that time (see the module docstring).
                await slots._global.acquire(self._urgent)
                try:
                    self._shared_slot = await slots._take_shared(slots.shared, key)
                except BaseException:
                    slots._global.release()
                    raise
        except BaseException:
            sem.release()
            raise
        stats = slots.stats.get(key)
        if stats is None:
            stats = slots.stats[key] = HostStats()
        self._host, self._stats = sem, stats
        self._started = time.perf_counter()
        stats.requests += 1
        stats.waited = self._started - asked
        return stats

    async def __aexit__(self, *exc: object) -> None:
        self._stats.seconds += time.perf_counter() - self._started
        slots = self._slots
        slots._global.release()
        try:
            if self._shared_slot is not None and slots.shared is not None:
                await asyncio.to_thread(slots.shared.free_host_slot, self._key, self._shared_slot)
        finally:
            self._host.release()
