"""A host whose top-level domain does not exist: the URL was invented, or truncated.

The host's public suffix is looked up in tldextract's bundled Public Suffix List snapshot (never
fetched at run time). Models produce hosts such as `acme-robotics.cmo`, `reports.mckinsey` or a
bare `intranet`; none of them resolves on the public internet. IP literals, `localhost` and the
reserved names U001 reports (`.example`, `.test`, `.invalid`, `.local`, …) are not this rule's
business.

Failing example:

    Market sizing from [Gartner](https://www.gartner.cmo/en/newsroom/press-releases/2024-robotics).

Passing example:

    Market sizing from [Gartner](https://www.gartner.com/en/newsroom/press-releases/2024-robotics).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck._util.netaddr import parse_ip
from citecheck.checks.malformed_url import has_authority, host_problem
from citecheck.checks.placeholder_domain import PerHost, pack_matcher
from citecheck.models import Hit, Link
from citecheck.urls import domain_match, public_suffix, url_host

ID = "U007"
NAME = "unknown-suffix"
STAGE = "url"
SEVERITY = "error"
VERDICT = "invalid"
GATE = "retires"
PACK = "placeholder"
DEFAULTS: dict[str, Any] = {"allow": []}
OPTIONS = {"allow": "suffixes to accept although the bundled list lacks them (e.g. [corp] for an intranet)"}


def unknown_suffix(host: str, options: Mapping[str, Any], prepared: SuffixJudge | None = None) -> str:
    """The host's last label when its public suffix is unknown and no other rule owns it, else ''."""
    return (prepared or prepare(options))(host)


class SuffixJudge(PerHost):
    """`unknown_suffix` for one configuration, memoised per host."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__()
        self.placeholder = pack_matcher(options.get("pack", {}))
        self.allowed = frozenset(str(s).lower().lstrip(".") for s in options.get("allow", []))

    def judge(self, host: str) -> str:
        host = host.lower().rstrip(".")
        if not host or parse_ip(host) is not None or host_problem(host):
            return ""
        if host == "localhost" or host.endswith(".localhost") or self.placeholder(host):
            return ""
        last = host.rsplit(".", 1)[-1]
        if last in self.allowed or domain_match(host, self.allowed):
            return ""
        return "" if public_suffix(host) else last


def prepare(options: Mapping[str, Any]) -> SuffixJudge:
    return SuffixJudge(options)


def check(link: Link, options: Mapping[str, Any], prepared: SuffixJudge | None = None) -> Iterator[Hit]:
    if not has_authority(link.url):
        return
    host = url_host(link.url)
    suffix = unknown_suffix(host, options, prepared) if host else ""
    if suffix:
        yield Hit(f"host {host!r} ends in {suffix!r}, which is not a known public suffix", link.location,
                  link.url, evidence=suffix)
