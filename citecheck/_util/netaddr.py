"""Is a URL host an IP literal, and is that address one no public source can live on?

`classify_host` is shared by rule U004 (private-address) and the fetch guard. It reads a host
the way browsers and `inet_aton` do, so the obfuscated spellings LLMs and attackers produce
resolve to the address a client would actually connect to:

    2130706433, 0x7f000001, 0177.0.0.1, 0x7f.0.0.1, 127.1   → 127.0.0.1
    [::ffff:127.0.0.1], [::127.0.0.1], [64:ff9b::7f00:1]      → 127.0.0.1 (embedded IPv4)
    [2002:7f00:1::], [2001:0:…] (6to4, Teredo)                → the embedded IPv4

Python 3.11's `ipaddress` does not unwrap these (`ip_address('::ffff:127.0.0.1').is_loopback` is
False), so the embedded IPv4 address is classified explicitly. A reason of "" means public.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network

IPAddress = IPv4Address | IPv6Address

_V4_RANGES: tuple[tuple[IPv4Network, str], ...] = tuple((IPv4Network(net), why) for net, why in (
    ("0.0.0.0/32", "unspecified"),
    ("0.0.0.0/8", "reserved (this network)"),
    ("127.0.0.0/8", "loopback"),
    ("10.0.0.0/8", "private"),
    ("172.16.0.0/12", "private"),
    ("192.168.0.0/16", "private"),
    ("100.64.0.0/10", "shared address space (CGNAT)"),
    ("169.254.169.254/32", "link-local (cloud metadata service)"),
    ("169.254.0.0/16", "link-local"),
    ("192.0.0.0/24", "reserved (IETF protocol assignments)"),
    ("192.0.2.0/24", "reserved (documentation)"),
    ("198.51.100.0/24", "reserved (documentation)"),
    ("203.0.113.0/24", "reserved (documentation)"),
    ("192.88.99.0/24", "reserved (6to4 relay anycast)"),
    ("198.18.0.0/15", "reserved (benchmarking)"),
    ("224.0.0.0/4", "multicast"),
    ("255.255.255.255/32", "broadcast"),
    ("240.0.0.0/4", "reserved"),
))

_V6_RANGES: tuple[tuple[IPv6Network, str], ...] = tuple((IPv6Network(net), why) for net, why in (
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "private (deprecated site-local)"),
    ("fc00::/7", "private (unique local)"),
    ("ff00::/8", "multicast"),
    ("64:ff9b:1::/48", "private (local-use NAT64)"),
    ("100::/64", "reserved (discard-only)"),
    ("2001:db8::/32", "reserved (documentation)"),
    ("3fff::/20", "reserved (documentation)"),
))

# IPv6 forms that carry an IPv4 address a packet ends up at.
_NAT64 = IPv6Network("64:ff9b::/96")
_TRANSLATED = IPv6Network("::ffff:0:0:0/96")  # SIIT IPv4-translated
_COMPATIBLE = IPv6Network("::/96")  # deprecated IPv4-compatible
_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})


def parse_ipv4(text: str) -> IPv4Address | None:
    """An IPv4 address in any inet_aton spelling (1–4 parts, decimal, octal or hex), else None."""
    parts = text.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    numbers = [_ipv4_number(p) for p in parts]
    if any(n is None for n in numbers):
        return None
    *head, last = [n for n in numbers if n is not None]
    if any(n > 255 for n in head) or last >= 256 ** (4 - len(head)):
        return None
    value = last
    for index, number in enumerate(head):
        value += number << (8 * (3 - index))
    return IPv4Address(value)


def _ipv4_number(part: str) -> int | None:
    if part[:2] in ("0x", "0X"):
        digits, base = part[2:] or "0", 16
    elif len(part) > 1 and part.startswith("0"):
        digits, base = part[1:], 8
    else:
        digits, base = part, 10
    if not digits.isascii() or not digits.isalnum():
        return None
    try:
        return int(digits, base)
    except ValueError:
        return None


def parse_ip(host: str) -> IPAddress | None:
    """The IP address a URL host denotes (brackets, zone IDs, trailing dot tolerated), else None."""
    text = unicodedata.normalize("NFKC", host.strip()).translate(_DOTS).lower()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    if ":" in text:
        try:
            return IPv6Address(text.split("%", 1)[0])
        except ValueError:
            return None
    return parse_ipv4(text.removesuffix(".")) if text else None


def embedded_ipv4(ip: IPv6Address) -> tuple[IPv4Address, str] | None:
    """The IPv4 address an IPv6 address delivers to, and how it is embedded."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped, "IPv4-mapped"
    low32 = IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in _NAT64:
        return low32, "NAT64"
    if ip in _TRANSLATED:
        return low32, "IPv4-translated"
    if ip in _COMPATIBLE and int(ip) > 1:
        return low32, "IPv4-compatible"
    if ip.sixtofour is not None:
        return ip.sixtofour, "6to4"
    if ip.teredo is not None:
        return ip.teredo[1], "Teredo"
    return None


def classify_ip(ip: IPAddress) -> str:
    """Why no public source lives at `ip` (e.g. "loopback"), or "" for a public address."""
    if isinstance(ip, IPv6Address):
        for net, why in _V6_RANGES:
            if ip in net:
                return why
        inner = embedded_ipv4(ip)
        if inner is not None:
            why = classify_ip(inner[0])
            return f"{why} ({inner[1]} {inner[0]})" if why else ""
        return "" if ip.is_global else "reserved"
    for net4, why in _V4_RANGES:
        if ip in net4:
            return why
    return "" if ip.is_global else "reserved"


@lru_cache(maxsize=65536)
def classify_host(host: str) -> tuple[IPAddress | None, str]:
    """(address, reason) for an IP-literal host; (None, "") for a name. A reason of "" means public."""
    ip = parse_ip(host)
    if ip is None:
        return None, ""
    return ip, classify_ip(ip)


__all__ = ["IPAddress", "classify_host", "classify_ip", "embedded_ipv4", "parse_ip", "parse_ipv4"]
