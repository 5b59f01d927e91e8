"""A URL on a reserved or placeholder domain: no real source lives there.

RFC 2606 and RFC 6761 reserve `example.com`, `example.net`, `example.org` and the `.example`,
`.test`, `.invalid` and `.localhost` names for documentation and testing; LLMs fill
citation-shaped holes with them (one memo shipped 65 `example.com` citations). The `placeholder`
data pack adds common stand-ins (`yourdomain.com`, `domain.com`, `website.com`, `foo.com`, …).

Failing example:

    Revenue doubled in 2024 ([source](https://example.com/acme-annual-report)).

Passing example:

    Revenue doubled in 2024 ([source](https://www.sec.gov/Archives/edgar/data/320193/)).
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from citecheck.models import Hit, Link
from citecheck.urls import host_of

ID = "U001"
NAME = "placeholder-domain"
STAGE = "url"
SEVERITY = "error"
PACK = "placeholder"
DEFAULTS: dict[str, Any] = {"extra_domains": [], "allow": []}
OPTIONS = {"extra_domains": "more domains to treat as placeholders", "allow": "domains never to flag"}


def placeholder_match(host: str, options: Mapping[str, Any]) -> str:
    """The reserved name or pack entry `host` falls under, or ''."""
    if not host:
        return ""
    pack = options.get("pack", {})
    allow = {str(d).lower() for d in options.get("allow", [])}
    if host in allow:
        return ""
    for suffix in pack.get("reserved_suffixes", []):
        s = str(suffix).lower().lstrip(".")
        if host == s or host.endswith("." + s):
            return s
    for domain in [*pack.get("domains", []), *options.get("extra_domains", [])]:
        d = str(domain).lower()
        if host == d or host.endswith("." + d):
            return d
    return ""


def check(link: Link, options: Mapping[str, Any]) -> Iterator[Hit]:
    host = host_of(link.url)
    matched = placeholder_match(host, options)
    if matched:
        yield Hit(f"placeholder domain {host!r}: no real source lives on a reserved name", link.location, link.url,
                  evidence=matched)
