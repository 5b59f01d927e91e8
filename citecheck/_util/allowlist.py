"""The run's private-address allowances (`--allow HOST_OR_IP[:PORT]`, `--allow-private`) as data.

One reading of an allowance serves two layers: the fetch guard (`citecheck.fetch.guard`) lets a
connection through with it, and the offline rules that flag private addresses (U004
private-address, C005 placeholder-in-corpus) stay silent on what the same run is allowed to fetch.
So `--allow 127.0.0.1:8080` alone is enough to audit or harvest a local test server.
"""
from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from citecheck._util.netaddr import IPAddress, parse_ip
from citecheck.errors import ConfigError

__all__ = ["Allowed", "allow_hint", "allows_url", "parse_allow", "url_port"]
_NUMBER = re.compile(r"(0[xX][0-9a-fA-F]*|[0-9]+)")
_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class Allowed:
    """One `allow` entry: a host name or an address/network, optionally one port.

    An address entry admits that address as such: written in its canonical form in a URL
    (`127.0.0.1`, `[::1]`) or handed back by the resolver for a name. Other spellings that a client
    would translate to it (`2130706433`, `0x7f.1`, `127.1`, `[::ffff:127.0.0.1]`, NAT64 and 6to4
    forms) are other destinations as far as the policy goes, and stay refused."""

    name: str = ""
    network: ipaddress.IPv4Network | ipaddress.IPv6Network | None = None
    port: int | None = None

    def covers(self, host: str, ip: IPAddress | None, port: int | None) -> bool:
        if self.port is not None and port != self.port:
            return False
        if self.network is not None:
            if ip is None or ip.version != self.network.version or ip not in self.network:
                return False
            return _canonically_spelled(host, ip)
        return bool(self.name) and host.lower().rstrip(".") == self.name


def _canonically_spelled(host: str, ip: IPAddress) -> bool:
    """A resolved name (any), or an IP literal written exactly as the address's canonical form."""
    written = host.strip("[]").lower()
    if parse_ip(written) is None:
        return not _numeric_tail(written)  # a DNS name: `ip` is what the resolver answered
    return written == str(ip)


def _numeric_tail(host: str) -> bool:
    """A host that ends in a number (or has a colon) yet is no address: browsers refuse such URLs."""
    return ":" in host or bool(_NUMBER.fullmatch(host.rstrip(".").rsplit(".", 1)[-1]))


def parse_allow(entry: str) -> Allowed:
    """`HOST_OR_IP[:PORT]`, `[IPv6]:PORT`, a bare IPv6 address or a CIDR network."""
    text = entry.strip()
    port: int | None = None
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise ConfigError(f"fetch.allow: {entry!r} is not HOST_OR_IP[:PORT]")
        port = _port(rest[1:], entry) if rest.startswith(":") else None
    elif text.count(":") == 1:
        host, _, raw_port = text.partition(":")
        port = _port(raw_port, entry)
    else:
        host = text
    if not host:
        raise ConfigError(f"fetch.allow: {entry!r} is not HOST_OR_IP[:PORT]")
    try:
        return Allowed(network=ipaddress.ip_network(host, strict=False), port=port)
    except ValueError:
        pass
    ip = parse_ip(host)
    if ip is not None:
        return Allowed(network=ipaddress.ip_network(ip), port=port)
    if _numeric_tail(host):
        raise ConfigError(f"fetch.allow: {entry!r} is not HOST_OR_IP[:PORT]")  # a number that is no address
    return Allowed(name=host.lower().rstrip("."), port=port)


def _port(text: str, entry: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise ConfigError(f"fetch.allow: bad port in {entry!r}")
    return int(text)


def url_port(url: str) -> int | None:
    """The port a client connects to for `url` (the scheme's default when none is written)."""
    try:
        parts = urlsplit(url.strip())
        return parts.port or _DEFAULT_PORTS.get(parts.scheme.lower())
    except ValueError:
        return None


def allows_url(url: str, host: str, ip: IPAddress | None, allow: Iterable[str], allow_private: bool) -> bool:
    """Does the run's policy let the fetcher connect to `url` (whose host is `host`, at `ip`)?

    An entry that does not parse allows nothing here: the fetch guard reports it as a config error."""
    if allow_private:
        return True
    port = url_port(url)
    for entry in allow:
        try:
            allowed = parse_allow(str(entry))
        except ConfigError:
            continue
        if allowed.covers(host, ip, port):
            return True
    return False


def allow_hint(url: str, host: str) -> str:
    """The flags that would let this run fetch `url`: a private-address finding names them."""
    try:
        port = urlsplit(url.strip()).port
    except ValueError:
        port = None
    bare = host.strip("[]").lower()
    ip = parse_ip(bare)
    if ip is not None and bare != str(ip):  # only the canonical spelling can be allowed by address
        return f"--allow-private, or write the address as {ip}"
    spelled = f"[{bare}]" if ":" in bare else bare
    return f"--allow {spelled}:{port} or --allow-private" if port else f"--allow {spelled} or --allow-private"
