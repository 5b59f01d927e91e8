"""What this run's resolver has shown about itself: the evidence an NXDOMAIN needs to mean *dead*.

A resolver that answers "no such name" for every name (a sandbox without DNS, a captive network)
looks, one lookup at a time, exactly like a world of fabricated domains. So "this name does not
exist" is believed only when the same run's resolver has shown it works:

- it answered for another name of the run (any positive answer, even one the guard then refused;
  lookups still in flight are waited for, up to `CONTROL_TIMEOUT` seconds), or
- a control query, asked through the same resolver object, found the public suffix's zone (its
  SOA record: `org` for `fabricated-institute.org`). This is what lets a memo whose only link is a
  fabricated domain still be reported dead when the network works.

A resolver offers the control query by having `async zone_exists(zone) -> bool | None` (True: the
zone answered; False or None: no evidence). `SystemResolver`, the default, asks through dnspython
when it is installed; a resolver without the method (a caller's own aiohttp resolver) corroborates
only through other names. Test doubles implement the same method, so tests never ask real DNS.
"""
from __future__ import annotations

import asyncio
from typing import Any

from aiohttp.resolver import ThreadedResolver

from citecheck.psl import public_suffix

CONTROL_TIMEOUT = 5.0  # seconds for the whole control query (dnspython's own retries included)


class SystemResolver(ThreadedResolver):
    """The operating system's resolver (getaddrinfo), plus the SOA control query via dnspython."""

    async def zone_exists(self, zone: str) -> bool | None:
        try:
            import dns.asyncresolver
            import dns.exception
        except ImportError:  # pragma: no cover - dnspython is a dependency; a stripped install only loses the control
            return None
        try:
            resolver = dns.asyncresolver.Resolver()
            answer = await resolver.resolve(zone.rstrip(".") + ".", "SOA", lifetime=CONTROL_TIMEOUT)
        except (dns.exception.DNSException, OSError):
            return None  # NXDOMAIN for a public suffix, no answer, no resolv.conf: nothing proven
        return len(answer) > 0


class DnsEvidence:
    """Per run: the names the resolver answered for and the control queries asked (one per zone)."""

    def __init__(self, resolver: Any) -> None:
        self.resolver = resolver
        self.answered: set[str] = set()
        self._controls: dict[str, asyncio.Task[bool]] = {}
        self.inflight = 0  # lookups under way
        self._news = asyncio.Event()  # set whenever a lookup ends

    def lookup_started(self) -> None:
        self.inflight += 1

    def lookup_ended(self, host: str, answered: bool) -> None:
        """A lookup of `host` ended; `answered`: the resolver returned addresses for it."""
        self.inflight -= 1
        if answered:
            self.answered.add(_name(host))
        self._news.set()

    async def corroborates(self, host: str) -> bool:
        """Whether an NXDOMAIN for `host` can be believed: another name resolved in this run, or the
        control query found `host`'s public-suffix zone."""
        name = _name(host)
        if self.answered - {name}:
            return True
        zone = public_suffix(name) or name.rsplit(".", 1)[-1]
        if not zone or zone == name:
            return False
        task = self._controls.get(zone)
        if task is None:
            task = self._controls[zone] = asyncio.ensure_future(self._control(zone))
        if await asyncio.shield(task):
            return True
        # No control answer (no dnspython, or DNS over UDP blocked): lookups of the run still in
        # flight may yet show the resolver works; wait for them (at most as long as a control query).
        deadline = asyncio.get_running_loop().time() + CONTROL_TIMEOUT
        while not self.answered - {name}:
            if self.inflight <= 0:
                return False
            self._news.clear()
            try:
                await asyncio.wait_for(self._news.wait(), deadline - asyncio.get_running_loop().time())
            except TimeoutError:
                return False
        return True

    @property
    def controls(self) -> dict[str, bool]:
        """The control queries asked so far and their answers (for the outage report and tests)."""
        return {zone: task.result() for zone, task in self._controls.items() if task.done() and not task.cancelled()}

    async def _control(self, zone: str) -> bool:
        ask = getattr(self.resolver, "zone_exists", None)
        if ask is None:
            return False
        try:
            return bool(await asyncio.wait_for(ask(zone), CONTROL_TIMEOUT + 1))
        except Exception:  # noqa: BLE001 - a control query that fails proves nothing, it never fails the run
            return False

    async def close(self) -> None:
        for task in self._controls.values():
            task.cancel()
        if self._controls:
            await asyncio.gather(*self._controls.values(), return_exceptions=True)


def _name(host: str) -> str:
    return host.lower().rstrip(".").strip("[]")
