"""A URL that does not parse: no client can fetch it, so it cannot be a source anyone read.

Checks the authority of every `http(s)` URL (and any other `scheme://` URL): unbalanced or
invalid IPv6 brackets, an empty host, whitespace or control characters, backslashes (which
browsers and Python split differently), a port outside 1–65535, empty or over-long labels,
characters no host name may hold, and host names that are not valid IDNA.

Failing example:

    Unit economics are in the [deck](https://docs.acme-robotics.com:99999/deck) and at http://[2001:db8::1/x.

Passing example:

    Unit economics are in the [deck](https://docs.acme-robotics.com/deck) and at http://[2606:4700::1111]/x.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from ipaddress import IPv6Address
from typing import Any
from urllib.parse import urlsplit

from citecheck.checks.unsupported_scheme import CITEABLE, scheme_of
from citecheck.models import Hit, Link

ID = "U002"
NAME = "malformed-url"
STAGE = "url"
SEVERITY = "error"
VERDICT = "invalid"
GATE = "retires"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}

_LABEL_RE = re.compile(r"^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$")
_AUTHORITY_RE = re.compile(r"^[a-z][a-z0-9+.-]*:(?://)?(?P<authority>[^/?#]*)", re.IGNORECASE)
_BRACKETED_RE = re.compile(r"^\[(?P<ip>[^\[\]]*)\](?::(?P<port>[^:]*))?$")


_BAD_CHARS = re.compile(r"[\s\x00-\x1f\x7f]")


def has_authority(url: str) -> bool:
    """True for URLs the authority checks apply to: http(s) and any `scheme://` URL."""
    scheme = scheme_of(url)
    return bool(scheme) and (scheme in CITEABLE or url.lstrip()[len(scheme) + 1:].startswith("//"))


def malformed_reason(url: str) -> str:
    """Why `url` is malformed, or '' when it parses (relative and opaque URLs are not judged)."""
    if not has_authority(url):
        return ""
    if _BAD_CHARS.search(url.strip()):
        return "contains whitespace or control characters"
    if "\\" in url:
        return "contains a backslash (browsers read it as '/')"
    hostport = _authority(url).rpartition("@")[2]
    if "[" in hostport or "]" in hostport:
        return _bracketed_problem(hostport)
    try:
        host = urlsplit(url.strip()).hostname or ""
    except ValueError as err:
        return f"unparseable ({err})"
    return _port_problem(hostport) or host_problem(host)


def _authority(url: str) -> str:
    m = _AUTHORITY_RE.match(url.strip())
    return m.group("authority") if m else ""


def _bracketed_problem(hostport: str) -> str:
    m = _BRACKETED_RE.match(hostport)
    if not m:
        return "unbalanced or misplaced brackets around an IPv6 host"
    try:
        IPv6Address(m.group("ip").split("%", 1)[0])
    except ValueError:
        return f"[{m.group('ip')}] is not a valid IPv6 address"
    port = m.group("port")
    return _port_text_problem(port) if port else ""


def _port_problem(hostport: str) -> str:
    return _port_text_problem(hostport.partition(":")[2]) if ":" in hostport else ""


def _port_text_problem(port: str) -> str:
    if not port:
        return ""
    if not port.isascii() or not port.isdigit():
        return f"port {port!r} is not a number"
    return "" if 0 < int(port) < 65536 else f"port {port} is outside 1-65535"


def host_problem(host: str) -> str:
    """Why `host` (as urlsplit gives it) is not a valid host name, or ''."""
    host = host.rstrip(".") if host.endswith(".") and not host.endswith("..") else host
    if not host:
        return "empty host"
    if not host.isascii():
        import idna  # here, not at the top: only a non-ASCII host or an `xn--` label needs its tables

        try:
            host = idna.encode(host, uts46=True).decode("ascii")
        except idna.IDNAError as err:
            return f"invalid internationalised host name ({err})"
    if len(host) > 253:
        return "host name longer than 253 characters"
    return next((p for p in map(_label_problem, host.split(".")) if p), "")


def _label_problem(label: str) -> str:
    if not label:
        return "empty label in host name ('..')"
    if len(label) > 63:
        return f"host label longer than 63 characters ({label[:20]}…)"
    if not _LABEL_RE.match(label):
        return f"host label {label!r} holds characters a host name cannot"
    if label.startswith("xn--"):
        import idna

        try:
            idna.decode(label)
        except idna.IDNAError:
            return f"host label {label!r} is not valid IDNA (punycode)"
    return ""


def check(link: Link, options: Mapping[str, Any]) -> Iterator[Hit]:
    reason = malformed_reason(link.url)
    if reason:
        yield Hit(f"malformed URL: {reason}", link.location, link.url, evidence=reason)
