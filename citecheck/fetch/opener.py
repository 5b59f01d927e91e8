"""The run's `Fetcher`, made on first need, and the robots.txt check that comes before the cache.

A re-audit whose pages the cache holds entirely asks robots.txt (stored rules, one day) and the
cache, and never fetches: it should not import aiohttp, build a session and a TLS context (~0.2-0.3 s
of a warm run's start). `Opener.get()` makes and enters the Fetcher the first time something must
go to the network (a URL the cache lacks, a robots.txt past its day); the robots.txt rules asked
before it came are handed to it, so each origin's file is still read once per run.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from citecheck.fetch.robots import Robots, is_robots_url, origin_of

if TYPE_CHECKING:
    from citecheck.fetch.client import Fetcher


class Opener:
    """`make(robots)` builds the run's Fetcher given the run's robots.txt rules (None without them)."""

    def __init__(self, make: Callable[[Robots | None], Fetcher], robots: bool, cache: Any = None) -> None:
        self._make = make
        self.robots = Robots(self._fetch_robots, cache) if robots else None
        self._opening: asyncio.Task[Fetcher] | None = None

    async def get(self) -> Fetcher:
        """The entered Fetcher (made and entered by the first caller; the others wait for it)."""
        if self._opening is None:
            self._opening = asyncio.ensure_future(self._open())
        return await asyncio.shield(self._opening)

    async def _open(self) -> Fetcher:
        fetcher = self._make(self.robots)
        await fetcher.__aenter__()
        return fetcher

    async def _fetch_robots(self, url: str) -> Any:
        return await (await self.get())._fetch_robots(url)

    async def allowed(self, targets: list[str]) -> list[str]:
        """The targets robots.txt lets this run fetch (all of them with --ignore-robots): each
        origin's rules are asked once, not once per target."""
        if self.robots is None:
            return targets
        origins = {t: origin_of(t) for t in targets if not is_robots_url(t)}
        wanted = list(dict.fromkeys(origins.values()))
        rules = dict(zip(wanted, await asyncio.gather(*(self.robots.rules(o) for o in wanted)), strict=True))
        return [t for t in targets if t not in origins or rules[origins[t]].allows(t)]

    async def close(self) -> None:
        """Leave the Fetcher if one was made (and finish making it if that was under way)."""
        if self._opening is not None:
            opening, self._opening = self._opening, None
            try:
                fetcher = await opening
            except Exception:  # noqa: BLE001 - it never opened: nothing to close
                return
            await fetcher.__aexit__(None, None, None)
