"""`GuardedResolver`: the aiohttp resolver of the SSRF guard (`fetch.guard`). It resolves a name
once, refuses the whole answer if any address is off-limits for the run's `Guard`, and hands aiohttp
only the vetted addresses, so the connection is pinned to what was checked (no second lookup a
rebinding DNS server could answer differently)."""
from __future__ import annotations

import ipaddress
import socket
from typing import Any

from aiohttp.abc import AbstractResolver, ResolveResult

from citecheck.fetch.addresses import IPAddress, literal_ip
from citecheck.fetch.guard import Guard, Refused

__all__ = ["GuardedResolver"]


class GuardedResolver(AbstractResolver):
    """Resolve once, vet every answer, return only vetted addresses (the connection is pinned)."""

    def __init__(self, guard: Guard, base: Any = None, evidence: Any = None) -> None:
        self.guard = guard
        self._base = base
        self.evidence = evidence  # a dns.DnsEvidence told of every positive answer

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        try:
            literal = literal_ip(host)
        except ValueError as err:
            raise Refused("blocked-private", str(err)) from None
        if literal is not None:  # aiohttp normally skips us for literals; refuse odd spellings anyway
            answers = [_result(host, str(literal), port, literal)]
        else:
            answers = await self._lookup(host, port, family)
        if literal is None and self.guard.allows_name(host, port):
            return answers
        for answer in answers:
            ip = ipaddress.ip_address(answer["host"].split("%")[0])
            why = self.guard.refusal(host, ip, port)
            if why:
                raise Refused("blocked-private", f"{host} resolves to {ip} ({why})")
        return answers

    async def _lookup(self, host: str, port: int, family: socket.AddressFamily) -> list[ResolveResult]:
        """The base resolver's answer, told to the run's DNS evidence (it works, whatever the guard
        says next)."""
        if self.evidence is None:
            return await self._resolver().resolve(host, port, family)  # type: ignore[no-any-return]
        self.evidence.lookup_started()
        answers: list[ResolveResult] = []
        try:
            answers = await self._resolver().resolve(host, port, family)
        finally:
            self.evidence.lookup_ended(host, [answer["host"] for answer in answers])
        return answers

    async def zone_exists(self, zone: str) -> bool | None:
        """The base resolver's control query (see `citecheck.fetch.dns`), when it has one."""
        ask = getattr(self._resolver(), "zone_exists", None)
        return await ask(zone) if ask is not None else None

    def _resolver(self) -> Any:
        if self._base is None:
            from citecheck.fetch.dns import SystemResolver

            self._base = SystemResolver()
        return self._base

    async def close(self) -> None:
        if self._base is not None:
            await self._base.close()




def _result(host: str, address: str, port: int, ip: IPAddress) -> ResolveResult:
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    return ResolveResult(hostname=host, host=address, port=port, family=family, proto=0,
                         flags=socket.AI_NUMERICHOST | socket.AI_NUMERICSERV)
