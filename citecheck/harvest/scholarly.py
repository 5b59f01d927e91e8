"""DOI, arXiv and PubMed candidates judged by their registries (docs/scholarly.md), not by their
landing pages: the record's title, authors, year, venue and identifier make the corpus entry, and
its abstract, where the registry gives one, is the excerpt (else the thin-excerpt rule says so).

A candidate whose registry says it does not exist is rejected on R001's finding; one the registry
has no record for, or could not answer about, goes the ordinary way (its landing page is fetched).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from citecheck.config import Config
from citecheck.fetch.facts import now_iso
from citecheck.models import Hop, Link, Outcome, Page
from citecheck.scholarly.ids import Identifier, from_url
from citecheck.scholarly.records import Claim, Lookup, Record, Status

CONTENT_TYPE = "application/vnd.citationstyles.csl+json"


async def registry_lookups(urls: Iterable[str], config: Config, cache: Any, extra: Iterable[Identifier] = (),
                           deadline: float | None = None) -> tuple[dict[str, Lookup], Any]:
    """Each scholarly URL's registry answer (only those the registry settled), and the run's Lookups
    (with the answers for the `extra` identifiers: a --bib file's entries, asked in the same run).
    `deadline`: the seconds the lookups may take (`Lookups.late`: the identifiers cut off)."""
    idents = {url: ident for url in dict.fromkeys(urls) if (ident := from_url(url)) is not None}
    extra = list(extra)
    if not (idents or extra) or not config.scholarly.enabled:
        return {}, None
    from citecheck.registries import Registries

    found = await Registries(config.scholarly, config.fetch, cache).lookup([*idents.values(), *extra], deadline)
    settled = {url: lookup for url, ident in idents.items() if (lookup := found.get(ident)) is not None
               and (lookup.status is Status.ABSENT or lookup.record is not None)}
    return settled, found


def record_page(url: str, lookup: Lookup) -> Page:
    """The facts a registry answer stands for, as the page the gate and the corpus read (never stored:
    the registry's own facts are). From the cache when the answer was: a fresh answer is fresh evidence
    (an absence now retires a source verified before)."""
    ident = from_url(url)
    canonical = ident.url if ident is not None else url
    record = lookup.record
    if record is None:
        return Page(url=url, outcome=Outcome.DEAD, final_url=url, fetched_at=now_iso(), error="not-registered",
                    from_cache=lookup.from_cache)
    digest = hashlib.sha256(json.dumps(record.to_dict(), sort_keys=True).encode()).hexdigest()
    meta = {"description": record.abstract[:300]} if record.abstract else {}
    return Page(url=url, outcome=Outcome.OK, status=200, final_url=canonical, chain=(Hop(canonical, 200),),
                content_type=CONTENT_TYPE, title=record.title, text_sample=record.abstract[:2000], content_hash=digest,
                fetched_at=now_iso(), meta=meta, from_cache=lookup.from_cache)


def cited(link: Link, lookup: Lookup, claim: Claim | None = None) -> list[Any]:
    """The reference-stage subject of a candidate (existence and retraction: a search result's title is
    checked against the record by the title check, not as a claim; a bibliography entry's title,
    authors and year are its `claim`)."""
    from citecheck.engine.run import Cited
    from citecheck.scholarly.references import Reference

    ident = from_url(link.url)
    if ident is None:
        return []
    return [Cited(Reference(ident, link.location, claim or Claim(), link.url, link.section), lookup)]


def record_fields(record: Record, url: str) -> Mapping[str, Any]:
    """What a corpus entry keeps of a registry record besides its title (`Source.extra`)."""
    ident = from_url(url)
    fields: dict[str, Any] = {"identifier": ident.key if ident is not None else "", "registry": record.registry,
                              "authors": [a.display for a in record.authors], "year": record.year,
                              "venue": record.venue}
    if record.doi:
        fields["doi"] = record.doi
    return {k: v for k, v in fields.items() if v not in ("", None, [])}


def cut_off(url: str, lookups: Any) -> bool:
    """Whether the run's --deadline cut off the registry lookup of a scholarly URL."""
    ident = from_url(url)
    return ident is not None and lookups is not None and ident.key in lookups.late
