"""IP address facts for the SSRF guard: which addresses are globally routable, and how a host
spelled as a number (`0x7f000001`, `127.1`, `017700000001`) reads as an IPv4 address.

Pure functions; no DNS, no sockets. `ip_refusal(ip)` is the one question the guard asks of every
address it would connect to, after unwrapping IPv4-mapped, IPv4-compatible, 6to4 and NAT64 forms.
"""
from __future__ import annotations

import ipaddress
import re

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

METADATA = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254", "169.254.170.2", "100.100.100.200", "192.0.0.192", "fd00:ec2::254"))

# Named so that a refusal says why; Python's own flags back these up (they differ across versions).
_NETWORKS: tuple[tuple[str, str], ...] = (
    ("0.0.0.0/8", "this-network"), ("10.0.0.0/8", "private"), ("100.64.0.0/10", "shared (CGNAT)"),
    ("127.0.0.0/8", "loopback"), ("169.254.0.0/16", "link-local"), ("172.16.0.0/12", "private"),
    ("192.0.0.0/24", "IETF protocol assignment"), ("192.0.2.0/24", "documentation"),
    ("192.88.99.0/24", "6to4 relay"), ("192.168.0.0/16", "private"), ("198.18.0.0/15", "benchmarking"),
    ("198.51.100.0/24", "documentation"), ("203.0.113.0/24", "documentation"), ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"), ("255.255.255.255/32", "broadcast"),
    ("::/128", "unspecified"), ("::1/128", "loopback"), ("64:ff9b:1::/48", "local NAT64"),
    ("100::/64", "discard"), ("2001::/32", "Teredo"), ("2001::/23", "IETF protocol assignment"),
    ("2001:db8::/32", "documentation"), ("3fff::/20", "documentation"), ("fc00::/7", "unique-local"),
    ("fe80::/10", "link-local"), ("fec0::/10", "site-local"), ("ff00::/8", "multicast"),
)
NETWORKS = tuple((ipaddress.ip_network(net), why) for net, why in _NETWORKS)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NUMBER = re.compile(r"(0[xX][0-9a-fA-F]*|[0-9]+)")


def embedded_ipv4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (mapped, compatible, 6to4, NAT64, Teredo client)."""
    if isinstance(ip, ipaddress.IPv4Address):
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    packed = int(ip)
    if ip in _NAT64 or (packed >> 32 == 0 and packed > 1):
        return ipaddress.IPv4Address(packed & 0xFFFFFFFF)
    return None


def ip_refusal(ip: IPAddress) -> str:
    """Why the fetcher must not connect to `ip` ('' when it is globally routable)."""
    inner = embedded_ipv4(ip)
    if inner is not None:
        why = _own_refusal(inner)
        if why:
            return f"{why} (embedded in {ip})"
        if isinstance(ip, ipaddress.IPv6Address) and (ip.ipv4_mapped is not None or int(ip) >> 32 == 0 or ip in _NAT64):
            return ""  # ::ffff:8.8.8.8 is 8.8.8.8: Python calls such wrappers non-global for that reason alone
    return _own_refusal(ip)


def _own_refusal(ip: IPAddress) -> str:
    if ip in METADATA:
        return "cloud metadata"
    for net, why in NETWORKS:
        if ip.version == net.version and ip in net:
            return why
    if ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified:
        return "not globally routable"
    if ip.is_private or ip.is_reserved or not ip.is_global:
        return "not globally routable"
    return ""


def parse_ipv4_number(host: str) -> ipaddress.IPv4Address | None:
    """A host that ends in a number is an IPv4 address the WHATWG way (hex, octal, 1-4 parts).

    Returns None for an ordinary name; raises ValueError for a numeric host that is no valid address
    (browsers refuse such a URL)."""
    labels = host.rstrip(".").split(".")
    if not labels or not _NUMBER.fullmatch(labels[-1]):
        return None
    if len(labels) > 4 or not all(_NUMBER.fullmatch(label) for label in labels):
        raise ValueError(f"{host!r} is not a valid IPv4 address")
    parts = [_number(label) for label in labels]
    if any(p > 255 for p in parts[:-1]) or parts[-1] >= 256 ** (5 - len(parts)):
        raise ValueError(f"{host!r} is out of IPv4 range")
    value = parts[-1]
    for index, part in enumerate(parts[:-1]):
        value += part << (8 * (3 - index))
    return ipaddress.IPv4Address(value)


def _number(label: str) -> int:
    if label[:2].lower() == "0x":
        return int(label[2:] or "0", 16)
    if len(label) > 1 and label.startswith("0"):
        if any(c in "89" for c in label):
            raise ValueError(f"{label!r} is not an octal number")
        return int(label, 8)
    return int(label)


def literal_ip(host: str) -> IPAddress | None:
    """The address a URL host names literally (any spelling), or None for a DNS name."""
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if ":" in bare:
        return ipaddress.IPv6Address(bare.split("%")[0])
    return parse_ipv4_number(bare)
