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

from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

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
    if host in _lowered(tuple(options.get("allow", []))):
        return ""
    chain = _suffix_chain(host)  # host itself, then each parent: a.b.example → b.example → example
    reserved = _lowered(tuple(pack.get("reserved_suffixes", [])))
    for name in chain:
        if name in reserved:
            return name
    domains = _lowered((*pack.get("domains", []), *options.get("extra_domains", [])))
    return next((name for name in chain if name in domains), "")


@lru_cache(maxsize=64)
def _lowered(names: tuple[Any, ...]) -> frozenset[str]:
    return frozenset(str(n).lower().strip(".") for n in names)


def _suffix_chain(host: str) -> list[str]:
    labels = host.split(".")
    return [".".join(labels[i:]) for i in range(len(labels))]


def check(link: Link, options: Mapping[str, Any]) -> Iterator[Hit]:
    host = host_of(link.url)
    matched = placeholder_match(host, options)
    if matched:
        yield Hit(f"placeholder domain {host!r}: no real source lives on a reserved name", link.location, link.url,
                  evidence=matched)
