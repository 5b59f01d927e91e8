"""The reference stage of an online audit (docs/scholarly.md): each document's scholarly references,
their registries' answers (each identifier asked once, through the fact cache), the outage over page
and registry requests together, and the summary. `citecheck._audit` calls it; the rules are R001-R004."""
from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citecheck.config import Config
    from citecheck.engine.run import Cited, Engine
    from citecheck.extract import Inputs
    from citecheck.extract.bibliography import MemoBibliographies
    from citecheck.fetch import Pages
    from citecheck.fetch.cache import FactCache
    from citecheck.fetch.outage import Outage
    from citecheck.models import Document
    from citecheck.registries.lookup import Lookups
    from citecheck.scholarly.ids import Identifier
    from citecheck.scholarly.references import Reference

    # an async stand-in for the registries (tests): identifiers, config, cache -> what they said
    RegistryLookup = Callable[[list[Identifier], Config, FactCache | None], Awaitable[Lookups]]


def scholarly_references(inputs: Inputs, config: Config, engine: Engine,
                         bibs: MemoBibliographies | None = None) -> dict[str, tuple[Reference, ...]]:
    """Each document's and bibliography's scholarly references (docs/scholarly.md): identifiers, and
    reference items and entries without one (found by search), when a reference rule is active."""
    if not config.scholarly.enabled or not engine.by_stage.get("reference"):
        return {}
    from citecheck.scholarly.references import references
    from citecheck.scholarly.unlinked import bib_references, unlinked_references

    out = {doc.path: references(doc) + unlinked_references(doc) for doc in inputs.documents}
    for bib in bibs.unique() if bibs is not None else ():
        out[bib.path] = out.get(bib.path, ()) + bib_references(bib)
    return out


def bibliography_documents(bibs: MemoBibliographies | None, inputs: Inputs) -> list[Document]:
    """Each bibliography's URLs (`url`, `\\url{}` in `howpublished`/`note`, CSL `URL`) as a document of
    links only, so that they go through the link checks like a memo's (U rules; fetched and judged by
    the page rules online). Not the memo rules, not the score: entries are not memo citations. A DOI,
    arXiv or PubMed URL is left to its registry, as in a memo."""
    from citecheck.models import Document
    from citecheck.scholarly.ids import from_url

    memos = {doc.path for doc in inputs.documents}
    out = []
    for bib in bibs.unique() if bibs is not None else ():
        links = tuple(link for link in bib.links if from_url(link.url) is None) if bib.path not in memos else ()
        if links:
            out.append(Document(bib.path, "", "bibliography", links=links))
    return out


async def lookup(identifiers: list[Identifier], config: Config, registries: RegistryLookup | None,
                 cache: FactCache | None) -> Lookups | None:
    """The registries' answers for the run's identifiers (each asked once)."""
    if not identifiers:
        return None  # nothing to ask: the registry stack is never loaded
    from citecheck.registries.lookup import Registries

    if registries is not None:
        return await registries(identifiers, config, cache)
    own = open_cache(config) if cache is None else None
    try:
        # the run's --deadline bounds the lookups as it bounds the fetch beside them (both start now)
        return await Registries(config.scholarly, config.fetch, cache or own).lookup(identifiers, config.fetch.deadline)
    finally:
        if own is not None:
            own.close()


def run_outage(pages: Pages, lookups: Lookups | None) -> Outage | None:
    """The run's outage (`fetch.outage.Outage`) over page fetches and registry requests together:
    none while some outside host, page or registry, answered."""
    from citecheck.fetch.outage import assess

    replies = lookups.replies if lookups is not None else []
    page_outage = pages.outage
    if lookups is None or not replies:
        return page_outage
    registry_outage = assess([reply.as_page() for reply in replies], lookups.connected)
    pages_tried = bool(pages.fetched)
    if registry_outage is not None and (page_outage is not None or not pages_tried):
        hosts = registry_outage.hosts + (page_outage.hosts if page_outage is not None else 0)
        failed = registry_outage.failed + (page_outage.failed if page_outage is not None else 0)
        return type(registry_outage)(hosts=hosts, failed=failed)
    return None


def store_facts(lookups: Lookups | None, config: Config, cache: FactCache | None) -> None:
    if lookups is None or not lookups.facts or not config.fetch.use_cache:
        return
    from citecheck.registries.lookup import store

    own = open_cache(config) if cache is None else None
    try:
        store(cache or own, lookups)
    finally:
        if own is not None:
            own.close()


def cited(refs: Iterable[Reference], lookups: Lookups | None) -> list[Cited]:
    """The references a registry answered for, as reference-stage subjects."""
    from citecheck.engine.run import Cited

    out = []
    for ref in refs:
        lookup = lookups.get(ref.identifier) if lookups is not None else None
        if lookup is not None:
            out.append(Cited(ref, lookup))
    return out


def summary(references: Mapping[str, tuple[Reference, ...]], lookups: Lookups) -> dict[str, Any]:
    """How many references, identifiers, and what the registries said (for the summary)."""
    idents = {ref.identifier.key: ref.identifier for found in references.values() for ref in found}
    statuses = Counter(lookup.status.value for key in idents if (lookup := lookups.found.get(key)) is not None)
    return {"count": sum(len(found) for found in references.values()), "identifiers": len(idents),
            "registry": dict(sorted(statuses.items())), "from_cache": lookups.cached,
            "requests": len(lookups.replies)}


def open_cache(config: Config) -> FactCache | None:
    """The fetch cache the registry facts live in (None: the run has none)."""
    if not config.fetch.use_cache:
        return None
    from citecheck.fetch import open_cache as open_fetch_cache

    return open_fetch_cache(config.fetch)
