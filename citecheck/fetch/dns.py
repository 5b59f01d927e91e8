"""What this run's resolver has shown about itself: the evidence an NXDOMAIN needs to mean *dead*.

A resolver that answers "no such name" for every name (a sandbox without DNS, a captive network)
looks, one lookup at a time, exactly like a world of fabricated domains. So "this name does not
exist" is believed only when the same run's resolver has shown that *DNS* works:

- it answered for another outside name of the run (a positive answer, even one the guard then
  refused; lookups still in flight are waited for, up to `CONTROL_TIMEOUT` seconds). An answer that
  may not have come from DNS at all never counts: a name the hosts file lists (`localhost`, a
  developer's aliases), a special-use or single-label name (`*.localhost`, `*.local`, `intranet`:
  the hosts file, mDNS or a search domain answer those), and any answer with a loopback, private,
  link-local or otherwise non-global address (a sandbox's stub, a split-horizon resolver); or
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
import ipaddress
import os
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from aiohttp.resolver import ThreadedResolver

from citecheck.fetch.addresses import ip_refusal
from citecheck.urls import public_suffix

CONTROL_TIMEOUT = 5.0  # seconds for the whole control query (dnspython's own retries included)
LOCAL_SUFFIXES = ("localhost", "local")  # RFC 6761 / 6762: answered on the machine or by mDNS, not by DNS


def hosts_file() -> Path:
    """The operating system's hosts file."""
    if os.name == "nt":
        return Path(os.environ.get("SYSTEMROOT", r"C:\Windows")) / "System32" / "drivers" / "etc" / "hosts"
    return Path("/etc/hosts")


@lru_cache(maxsize=4)
def hosts_file_names(path: Path) -> frozenset[str]:
    """Every name the hosts file at `path` lists (lower case; empty when it cannot be read)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return frozenset()
    names: set[str] = set()
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split()
        names.update(_name(name) for name in fields[1:])
    return frozenset(names)


def vouches(host: str, addresses: Iterable[str], local_names: frozenset[str]) -> bool:
    """Whether `host` resolving to `addresses` shows that DNS works (see the module docstring)."""
    name = _name(host)
    if "." not in name or name in local_names or name.rsplit(".", 1)[-1] in LOCAL_SUFFIXES:
        return False
    found = False
    for address in addresses:
        try:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return False
        if ip_refusal(ip):
            return False
        found = True
    return found


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

    def __init__(self, resolver: Any, local_names: frozenset[str] | None = None) -> None:
        """`local_names`: names a local source answers (default: the hosts file's)."""
        self.resolver = resolver
        self.local_names = hosts_file_names(hosts_file()) if local_names is None else local_names
        self.answered: set[str] = set()
        self._controls: dict[str, asyncio.Task[bool]] = {}
        self.inflight = 0  # lookups under way
        self._news = asyncio.Event()  # set whenever a lookup ends

    def lookup_started(self) -> None:
        self.inflight += 1

    def lookup_ended(self, host: str, addresses: Iterable[str] = ()) -> None:
        """A lookup of `host` ended with `addresses` (none: it failed); an answer that shows DNS
        works (`vouches`) may corroborate another name's NXDOMAIN."""
        self.inflight -= 1
        if vouches(host, addresses, self.local_names):
            self.answered.add(_name(host))
        self._news.set()

    async def corroborates(self, host: str) -> bool:
        """Whether an NXDOMAIN for `host` can be believed: another outside name resolved through DNS
        in this run, or the control query found `host`'s public-suffix zone."""
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
