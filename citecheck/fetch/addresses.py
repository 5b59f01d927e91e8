"""IP address questions the SSRF guard asks, on top of `citecheck._util.netaddr` (shared with rule U004).

`literal_ip(host)` reads a URL host the way browsers do (`0x7f000001`, `127.1`, `[::ffff:7f00:1]`)
and, stricter than the offline rule, raises for a host that ends in a number yet is no valid
address (browsers refuse such URLs; the fetcher must not hand them to DNS). `ip_refusal(ip)` says
why the fetcher must not connect to an address, after unwrapping IPv4-mapped, compatible,
translated, 6to4, NAT64 and Teredo forms; Teredo is refused outright (a tunnel, never a source).
"""
from __future__ import annotations

import ipaddress
import re
from functools import lru_cache

from citecheck._util.netaddr import IPAddress, classify_ip, parse_ip
from citecheck._util.netaddr import embedded_ipv4 as _embedded

__all__ = ["IPAddress", "embedded_ipv4", "ip_refusal", "literal_ip"]
_NUMBER = re.compile(r"(0[xX][0-9a-fA-F]*|[0-9]+)")


def embedded_ipv4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address delivers to, if it carries one."""
    if isinstance(ip, ipaddress.IPv4Address):
        return None
    inner = _embedded(ip)
    return inner[0] if inner else None


def ip_refusal(ip: IPAddress) -> str:
    """Why the fetcher must not connect to `ip` ('' when it is globally routable)."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.teredo is not None:
        return f"Teredo tunnel ({ip.teredo[1]})"
    return classify_ip(ip)


@lru_cache(maxsize=4096)
def literal_ip(host: str) -> IPAddress | None:
    """The address a URL host names literally (any spelling), or None for a DNS name.

    Raises ValueError for a host that ends in a number but is no valid address (`1.2.3.4.5`)."""
    ip = parse_ip(host)
    if ip is not None:
        return ip
    bare = host.strip("[]")
    if ":" in bare:
        raise ValueError(f"{host!r} is not a valid IPv6 address")
    if _NUMBER.fullmatch(bare.rstrip(".").rsplit(".", 1)[-1]):
        raise ValueError(f"{host!r} is not a valid IPv4 address")
    return None
