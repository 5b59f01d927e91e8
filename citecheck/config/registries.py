"""`scholarly:` in `.citecheck.yaml`: the registries' endpoints, their pace, batches and fact lifetimes
(docs/scholarly.md), validated as strictly as the rest of the configuration (`citecheck.config`)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

ENDPOINTS: Mapping[str, str] = {
    "doi": "https://doi.org", "crossref": "https://api.crossref.org", "datacite": "https://api.datacite.org",
    "arxiv": "https://export.arxiv.org/api/query", "pubmed": "https://eutils.ncbi.nlm.nih.gov/entrez/eutils",
    "dblp": "https://dblp.org/search/publ/api", "semanticscholar": "https://api.semanticscholar.org/graph/v1",
    "openalex": "https://api.openalex.org"}
# seconds between two requests to a registry, and how many at once, as each documents its limits:
# arXiv one request per 3 s on one connection; Crossref 5 single lookups/s one at a time (public pool:
# 10/s, 3 at once with `mailto`); NCBI 3/s without an API key; DataCite 3,000 per 5 minutes; Semantic
# Scholar 1/s for a key; OpenAlex at most 100/s (kept at 10/s: its daily budget is the real limit)
PACE: Mapping[str, tuple[float, int]] = {
    "doi": (0.05, 4), "crossref": (0.2, 1), "crossref-polite": (0.1, 3), "datacite": (0.1, 2),
    "crossref-search": (1.0, 1), "crossref-search-polite": (0.34, 1), "dblp": (1.0, 1),
    "arxiv": (3.0, 1), "pubmed": (0.34, 1), "semanticscholar": (1.0, 1), "openalex": (0.1, 2)}


# dblp, semanticscholar and openalex are opt-in; the last two need a key from the environment
SEARCHABLE = ("crossref", "datacite", "arxiv", "dblp", "semanticscholar", "openalex")


@dataclass(frozen=True)
class ScholarlyConfig:
    """`scholarly:` — DOIs, arXiv and PubMed IDs judged through their registries (docs/scholarly.md)."""

    enabled: bool = True
    mailto: str = ""  # Crossref's polite pool and NCBI's `email`
    endpoints: Mapping[str, str] = field(default_factory=lambda: dict(ENDPOINTS))
    pace: Mapping[str, tuple[float, int]] = field(default_factory=lambda: dict(PACE))
    batch: int = 100  # identifiers per arXiv / PubMed request
    found_days: float = 30.0  # a found record is fresh this long in the fact cache
    absent_days: float = 1.0  # an authoritative "does not exist" this long
    # the endpoints come from a discovered config: each is asked only where the run's own policy
    # (--allow, an explicit config) allows its host, else the registry's public endpoint is
    discovered_endpoints: bool = False
    # registries searched, in order, for references without an identifier (dblp, semanticscholar and
    # openalex are opt-in; the opt-in registries that have a key also describe registered DOIs no other does)
    search: tuple[str, ...] = ("crossref", "datacite", "arxiv")


def scholarly_config(raw: Any, fail: Any) -> ScholarlyConfig:
    """`scholarly: {enabled, mailto, endpoints: {doi, crossref, datacite, arxiv, pubmed}, pace: {name: [s, n]},
    batch, found-days, absent-days, search: [crossref, datacite, arxiv, dblp, semanticscholar, openalex]}`."""
    if not isinstance(raw, dict):
        raise fail("scholarly", "scholarly must be a mapping")
    known = {"enabled", "mailto", "endpoints", "pace", "batch", "found-days", "absent-days", "search"}
    unknown = sorted({str(k) for k in raw} - known)
    if unknown:
        raise fail(unknown[0], f"unknown scholarly key {unknown[0]!r} (known: {', '.join(sorted(known))})")
    endpoints = dict(ENDPOINTS)
    given = raw.get("endpoints") or {}
    if not isinstance(given, dict) or not set(map(str, given)) <= set(ENDPOINTS):
        raise fail("endpoints", f"scholarly.endpoints must map some of {', '.join(ENDPOINTS)} to base URLs")
    for name, url in given.items():
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise fail(str(name), f"scholarly.endpoints.{name} must be an http(s) URL, got {url!r:.60}")
        endpoints[str(name)] = url.rstrip("/")
    pace = dict(PACE)
    for name, value in (raw.get("pace") or {}).items():
        if (str(name) not in PACE or not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in value) or value[1] < 1):
            raise fail(str(name), f"scholarly.pace.{name} must be [seconds between requests, requests at once] "
                                  f"for one of {', '.join(PACE)}")
        pace[str(name)] = (float(value[0]), int(value[1]))
    numbers = {}
    for key in ("batch", "found-days", "absent-days"):
        value = raw.get(key, getattr(ScholarlyConfig(), key.replace("-", "_")))
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 10_000:
            raise fail(key, f"scholarly.{key} must be a positive number, got {value!r:.40}")
        numbers[key.replace("-", "_")] = value
    search = raw.get("search", list(ScholarlyConfig().search))
    if (not isinstance(search, list) or not search
            or not all(isinstance(s, str) and s in SEARCHABLE for s in search)):
        raise fail("search", f"scholarly.search must list some of {', '.join(SEARCHABLE)} (in the order to ask them)")
    if not isinstance(raw.get("enabled", True), bool):
        raise fail("enabled", "scholarly.enabled must be true or false")
    return ScholarlyConfig(enabled=raw.get("enabled", True), mailto=str(raw.get("mailto") or ""), endpoints=endpoints,
                           pace=pace, batch=int(numbers["batch"]), found_days=float(numbers["found_days"]),
                           absent_days=float(numbers["absent_days"]), search=tuple(dict.fromkeys(search)))


def narrowed_scholarly(settings: ScholarlyConfig, ignored: tuple[str, ...]) -> tuple[ScholarlyConfig, tuple[str, ...]]:
    """A discovered config's scholarly settings: a pace faster than the registries' documented one is
    an explicit configuration's to set (dropped, named in `ignored`); its endpoints are marked, and
    `citecheck.registries.lookup.trusted_endpoints` keeps each only where the run's own policy allows
    its host."""
    faster = any(pace[0] < PACE[name][0] or pace[1] > PACE[name][1] for name, pace in settings.pace.items())
    moved = dict(settings.endpoints) != dict(ENDPOINTS)
    if faster:
        settings, ignored = replace(settings, pace=dict(PACE)), (*ignored, "scholarly.pace")
    return (replace(settings, discovered_endpoints=True) if moved else settings), ignored


