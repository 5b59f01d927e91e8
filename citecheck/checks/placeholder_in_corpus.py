"""A corpus entry whose URL no gate should have let through: placeholder, malformed, private, invented.

The URL rules run on memo links; this rule runs the same pure checks on every corpus entry's
`url`, `canonical_url` and `final_url` — U001 placeholder-domain, U002 malformed-url, U004
private-address and U005 hallucination-pattern — so a hand-edited or legacy corpus cannot launder
`example.com` into an ID. One finding per URL and check, at the line where the entry starts.
A private address the run's fetch policy allows (`--allow`, `--allow-private`, as for U004) is
not reported.

Failing example:

    [{"id": "src-001", "url": "https://example.com/acme-report", ...},
     {"id": "src-002", "url": "http://169.254.169.254/latest/meta-data/", ...}]

Passing example:

    [{"id": "src-001", "url": "https://www.sec.gov/Archives/edgar/data/1318605/", ...}]
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from citecheck.checks import hallucination_pattern, malformed_url, placeholder_domain, private_address
from citecheck.checks.hallucination_pattern import as_date, hallucination_signals
from citecheck.checks.malformed_url import malformed_reason
from citecheck.checks.placeholder_domain import PlaceholderMatcher, pack_matcher
from citecheck.checks.private_address import allowed, private_reason
from citecheck.checks.schema import record_location
from citecheck.models import Corpus, Hit, Source
from citecheck.urls import host_of

ID = "C005"
NAME = "placeholder-in-corpus"
STAGE = "corpus"
SEVERITY = "error"
VERDICT = "fabricated"
EVIDENCE = "Reserved name"  # what the HTML report calls a finding's evidence
PACK = "placeholder"
DEFAULTS: dict[str, Any] = {"today": None, "allow": [], "allow_private": False}
OPTIONS = {"today": "date that counts as today for U005's future-date check (YYYY-MM-DD)",
           "allow": "HOST_OR_IP[:PORT] entries whose private addresses are fine (default: the run's --allow)",
           "allow_private": "no private address is reported (default: the run's --allow-private)"}


@dataclass(frozen=True)
class Prepared:
    """U001's matcher and U005's patterns for the `placeholder` pack, built once by `prepare`."""

    domains: PlaceholderMatcher
    patterns: hallucination_pattern.Pack


def prepare(options: Mapping[str, Any]) -> Prepared:
    pack = options.get("pack", {})
    return Prepared(pack_matcher(pack), hallucination_pattern.Pack(pack))


def url_problems(url: str, prepared: Prepared, today: dt.date,
                 policy: Mapping[str, Any] | None = None) -> Iterator[tuple[str, str]]:
    """(rule ID, problem) for each U001/U002/U004/U005 check `url` fails (`policy`: the allow options)."""
    placeholder = prepared.domains(host_of(url))
    if placeholder:
        yield placeholder_domain.ID, f"placeholder domain {placeholder!r}"
    malformed = malformed_reason(url)
    if malformed:
        yield malformed_url.ID, f"malformed URL: {malformed}"
    address, private = private_reason(url)
    if private and not allowed(url, address, policy or {}):
        yield private_address.ID, f"{private} address {address}"
    signals = hallucination_signals(url, prepared.patterns, today)
    if signals:
        yield hallucination_pattern.ID, f"looks invented: {'; '.join(signals)}"


def _urls(source: Source) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for field in ("url", "canonical_url", "final_url"):
        value = getattr(source, field)
        if value and value not in seen:
            seen[value] = field
    return [(field, url) for url, field in seen.items()]


def check(corpus: Corpus, options: Mapping[str, Any], prepared: Prepared | None = None) -> Iterator[Hit]:
    prepared, today = prepared or prepare(options), as_date(options.get("today"))
    for index, source in enumerate(corpus.sources):
        for field, url in _urls(source):
            for rule, problem in url_problems(url, prepared, today, options):
                yield Hit(f"{source.id or 'entry'} {field}: {problem} (as {rule} would report)",
                          record_location(corpus, index), url, evidence=rule)
