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

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from citecheck.models import Hit, Link
from citecheck.urls import domain_match, host_of

ID = "U001"
NAME = "placeholder-domain"
STAGE = "url"
SEVERITY = "error"
VERDICT = "fabricated"
GATE = "gone"
EVIDENCE = "Reserved name"  # what the HTML report calls a finding's evidence
PACK = "placeholder"
DEFAULTS: dict[str, Any] = {"extra_domains": [], "allow": []}
OPTIONS = {"extra_domains": "more domains to treat as placeholders", "allow": "domains never to flag"}


class PerHost(ABC):
    """A per-configuration judge of hosts, `judge(host) -> str`, memoised per host (memos cite few
    hosts many times). Built by a rule's `prepare`; the memo lives and dies with it."""

    LIMIT = 65536

    def __init__(self) -> None:
        self._memo: dict[str, str] = {}

    @abstractmethod
    def judge(self, host: str) -> str:
        """The verdict for one host ('' when it is fine)."""

    def __call__(self, host: str) -> str:
        found = self._memo.get(host)
        if found is None:
            if len(self._memo) >= self.LIMIT:
                self._memo.clear()
            found = self._memo[host] = self.judge(host)
        return found


class PlaceholderMatcher(PerHost):
    """A host → the reserved name or pack entry it falls under ('' for none), memoised per host."""

    def __init__(self, reserved: frozenset[str], domains: frozenset[str], allow: frozenset[str]) -> None:
        super().__init__()
        self.reserved, self.domains, self.allow = reserved, domains, allow

    def judge(self, host: str) -> str:
        if not host or host in self.allow:
            return ""
        return domain_match(host, self.reserved) or domain_match(host, self.domains)


def pack_matcher(pack: Mapping[str, Any]) -> PlaceholderMatcher:
    """The matcher for a bare `placeholder` pack (what U007 and C005 defer to; build it in `prepare`)."""
    return prepare({"pack": pack})


def prepare(options: Mapping[str, Any]) -> PlaceholderMatcher:
    """The matcher for U001's options: the pack plus `extra_domains`, minus `allow`."""
    pack = options.get("pack", {})
    return PlaceholderMatcher(_lowered(pack.get("reserved_suffixes", [])),
                              _lowered([*pack.get("domains", []), *options.get("extra_domains", [])]),
                              _lowered(options.get("allow", [])))


def placeholder_match(host: str, options: Mapping[str, Any], prepared: PlaceholderMatcher | None = None) -> str:
    """The reserved name or pack entry `host` falls under, or ''."""
    return (prepared or prepare(options))(host)


def _lowered(names: Iterable[Any]) -> frozenset[str]:
    return frozenset(str(n).lower().strip(".") for n in names)


def check(link: Link, options: Mapping[str, Any], prepared: PlaceholderMatcher | None = None) -> Iterator[Hit]:
    host = host_of(link.url)
    matched = placeholder_match(host, options, prepared)
    if matched:
        yield Hit(f"placeholder domain {host!r}: no real source lives on a reserved name", link.location, link.url,
                  evidence=matched)
