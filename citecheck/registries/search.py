"""References without an identifier, found by registry search (`Identifier` kind `search`).

Crossref first: `GET {crossref}/works?query.bibliographic=<title, first author, year>&rows=5`
(the REST API's field for matching a citation string; with `mailto` for the polite pool), paced as
Crossref documents for list queries: one at a time, 1 request/s in the public pool, 3/s polite
(`crossref-search`, `crossref-search-polite` in `scholarly.pace`). For a work Crossref does not know,
DataCite (datasets, software, reports, and arXiv's own DOIs):
`GET {datacite}/dois?query=<title words>&page[size]=5` at DataCite's pace. Then, for a work neither
knows, arXiv: `GET {arxiv}?search_query=ti:w1 OR ti:w2 …&max_results=5` (the title's words) on arXiv's one
connection at its 3 s pace. Candidates are validated field by field (`citecheck.scholarly.match`).

DBLP (`GET {dblp}?q=<title words>&format=json&h=5`, computer science) is opt-in: `scholarly.search`
lists the registries to ask, in order (default `[crossref, datacite, arxiv]`). Each reference's chain
runs concurrently with the others; each registry's pacer keeps its own pace.

Outcomes (a `Lookup`): FOUND with the matched record (R002 then compares every claimed field);
UNINDEXED when every registry asked answered and none has the work ("not in Crossref, DataCite or arXiv",
never "does not exist"); UNVERIFIABLE when a registry could not answer and none found it. Facts are
filed under the Crossref query URL, as identifier lookups are under theirs.
"""
from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from citecheck.registries import openalex, semanticscholar
from citecheck.registries.keys import LABELS, credentials
from citecheck.registries.parse import arxiv_entries, csl_record, datacite_record, load_json
from citecheck.scholarly.ids import Identifier
from citecheck.scholarly.match import Candidate, best
from citecheck.scholarly.records import Author, Lookup, Record, Status
from citecheck.scholarly.text import plain
from citecheck.scholarly.unlinked import search_terms

if TYPE_CHECKING:
    from citecheck.registries.http import RegistryHttp, Reply

ROWS = 5
# searches per run: at Crossref's public pace (1/s) plus arXiv's 3 s for what Crossref lacks, 300
# references take 5-20 minutes; the rest are reported as not searched (R003), never skipped silently
MAX_SEARCHES = 300
_NOT_WORD = re.compile(r"[^\w\s]+")
_STOP = frozenset({"the", "and", "for", "with", "from", "into", "using", "via", "are", "its", "our", "their", "not"})


def crossref_params(ident: Identifier, mailto: str = "") -> dict[str, str]:
    title, first, year = search_terms(ident)
    params = {"query.bibliographic": " ".join(p for p in (title, first, str(year or "")) if p), "rows": str(ROWS)}
    if mailto:
        params["mailto"] = mailto
    return params


def search_key(ident: Identifier, endpoints: Any, registries: Iterable[str]) -> str:
    """The URL a search's facts are filed under: the Crossref query (without `mailto`), and which
    registries were asked (enabling DBLP must not be answered by a search that never asked it)."""
    return f"{endpoints['crossref']}/works?{urlencode(crossref_params(ident))}#searched={','.join(registries)}"


def arxiv_query(ident: Identifier) -> str:
    """`ti:w1 OR ti:w2 …` over the title's words, ranked by arXiv's relevance: by title only, so that
    a wrong author still finds the work (R002 then reports the authors), and word by word, so that a
    near-miss title does too (a quoted phrase would need every word right)."""
    title, _first, _year = search_terms(ident)
    words = [w for w in _NOT_WORD.sub(" ", title).split() if len(w) > 2 and w.lower() not in _STOP][:12]
    return " OR ".join(f"ti:{w}" for w in words) or f'ti:"{title}"'


def datacite_items(body: bytes) -> list[Record] | None:
    """The records of a DataCite `/dois?query=…` answer (JSON:API `{"data": [...]}`; None: not that shape)."""
    data = load_json(body)
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return None
    records = (datacite_record(json.dumps({"data": item}).encode()) for item in items if isinstance(item, dict))
    return [r for r in records if r is not None]


def datacite_query(ident: Identifier) -> str:
    title, _first, _year = search_terms(ident)
    return " ".join(w for w in _NOT_WORD.sub(" ", title).split() if w.lower() not in _STOP)


def dblp_items(body: bytes) -> list[Record] | None:
    """The records of a DBLP publication search (`{"result": {"hits": {"hit": [{"info": {…}}]}}}`)."""
    data = load_json(body)
    hits = ((data or {}).get("result") or {}).get("hits") if isinstance(data, dict) else None
    if not isinstance(hits, dict):
        return None
    out = []
    for hit in hits.get("hit") or []:
        info = hit.get("info") if isinstance(hit, dict) else None
        if not isinstance(info, dict):
            continue
        people = (info.get("authors") or {}).get("author") or []
        people = people if isinstance(people, list) else [people]
        authors = tuple(Author(literal=re.sub(r"\s+\d{4}$", "", str(p.get("text", "")))) for p in people if isinstance(p, dict))
        year = int(info["year"]) if str(info.get("year", "")).isdigit() else None
        title = plain(str(info.get("title", ""))).rstrip(".")
        out.append(Record(registry="dblp", title=title, titles=(title,), authors=authors, year=year,
                          years=(year,) if year else (), venue=str(info.get("venue", "")),
                          doi=str(info.get("doi", "")).lower(), url=str(info.get("ee", ""))))
    return out


def crossref_items(body: bytes) -> list[Record] | None:
    """The records of a Crossref `/works?query…` answer (None: not the documented list shape)."""
    data = load_json(body)
    message = data.get("message") if isinstance(data, dict) else None
    items = message.get("items") if isinstance(message, dict) else None
    if not isinstance(items, list):
        return None
    return [csl_record(item, "crossref") for item in items if isinstance(item, dict)]


Request = Callable[[Identifier, Mapping[str, str], str], tuple[str, dict[str, str]]]


@dataclass(frozen=True)
class Searcher:
    """One searchable registry: its name (for messages), pacer, request and answer reader. A registry
    that needs a key (`citecheck.registries.keys`) has its module's `doi`/`read_work` too: its record of
    a DOI, asked for a registered DOI no other registry describes (never to decide that a DOI does not
    exist)."""

    name: str
    pacer: str
    request: Request
    read: Callable[[bytes], list[Record] | None]
    doi: Request | None = None
    read_work: Callable[[bytes], Record | None] | None = None


def _crossref(ident: Identifier, endpoints: Mapping[str, str], mailto: str) -> tuple[str, dict[str, str]]:
    return f"{endpoints['crossref']}/works", crossref_params(ident, mailto)


def _datacite(ident: Identifier, endpoints: Mapping[str, str], _mailto: str) -> tuple[str, dict[str, str]]:
    return f"{endpoints['datacite']}/dois", {"query": datacite_query(ident), "page[size]": str(ROWS)}


def _arxiv(ident: Identifier, endpoints: Mapping[str, str], _mailto: str) -> tuple[str, dict[str, str]]:
    return endpoints["arxiv"], {"search_query": arxiv_query(ident), "max_results": str(ROWS)}


def _dblp(ident: Identifier, endpoints: Mapping[str, str], _mailto: str) -> tuple[str, dict[str, str]]:
    return endpoints["dblp"], {"q": datacite_query(ident), "format": "json", "h": str(ROWS)}


def arxiv_items(body: bytes) -> list[Record] | None:
    entries = arxiv_entries(body)
    return None if entries is None else list(entries.values())


def _keyed(module: Any) -> Searcher:
    """A registry defined in a module of its own (`semanticscholar`, `openalex`): adding one is that
    module, its line in `keys.KEYED` and its line here."""
    return Searcher(LABELS[module.NAME], module.NAME, lambda i, e, m: module.search_request(datacite_query(i), e, m),
                    module.search_items, module.doi_request, module.work_record)


SEARCHERS: Mapping[str, Searcher] = {
    "crossref": Searcher("Crossref", "crossref-search", _crossref, crossref_items),
    "datacite": Searcher("DataCite", "datacite", _datacite, datacite_items),
    "arxiv": Searcher("arXiv", "arxiv", _arxiv, arxiv_items),
    "dblp": Searcher("DBLP", "dblp", _dblp, dblp_items),
    "semanticscholar": _keyed(semanticscholar),
    "openalex": _keyed(openalex),
}


async def search(http: RegistryHttp, idents: list[Identifier], endpoints: Mapping[str, str], mailto: str,
                 registries: Iterable[str]) -> dict[Identifier, Lookup]:
    """Each searched reference's outcome (see the module doc)."""
    out = {ident: Lookup(Status.UNVERIFIABLE, None, f"not searched: more than {MAX_SEARCHES} references without "
                         "an identifier in one run", "search") for ident in idents[MAX_SEARCHES:]}
    chain = [SEARCHERS[name] for name in registries]
    if not chain:
        return {ident: Lookup(Status.UNVERIFIABLE, None, "no registry to search: every registry listed in "
                              "scholarly.search needs a key that is not set", "search") for ident in idents}
    found = await asyncio.gather(*(_chain(http, ident, endpoints, mailto, chain) for ident in idents[:MAX_SEARCHES]))
    out.update(zip(idents[:MAX_SEARCHES], found, strict=True))
    return out


async def _chain(http: RegistryHttp, ident: Identifier, endpoints: Mapping[str, str], mailto: str,
                 chain: list[Searcher]) -> Lookup:
    """Ask each registry in turn until one has the work."""
    problems: list[str] = []
    closest: Candidate | None = None
    for searcher in chain:
        url, params = searcher.request(ident, endpoints, mailto)
        headers, secret = credentials(searcher.pacer) or ({}, {})
        pacer = f"{searcher.pacer}-polite" if mailto and searcher.pacer == "crossref-search" else searcher.pacer
        reply = await http.get(pacer, url, headers=headers, params={**params, **secret})
        records = searcher.read(reply.body) if reply.status == 200 else None
        match, nearest = best(*search_terms(ident), records or [])
        if match is not None:
            return Lookup(Status.FOUND, match.record, _matched(searcher.name, match), searcher.pacer.split("-")[0])
        if records is None:
            problems.append(f"{searcher.name} search: {_why(reply)}")
        if nearest is not None and (closest is None or nearest.title_score > closest.title_score):
            closest = nearest
    near = (f"; closest record: {closest.record.cite()} (title similarity {closest.title_score:.2f})"
            if closest is not None else "")
    if problems:
        return Lookup(Status.UNVERIFIABLE, None, "; ".join(problems) + near, "search")
    asked = ", ".join(s.name for s in chain[:-1]) + (" or " if len(chain) > 1 else "") + chain[-1].name
    return Lookup(Status.UNINDEXED, None, f"no record in {asked} matches its title and first author{near}", "search")


def _matched(registry: str, found: Candidate) -> str:
    return f"{registry} search: matched {found.record.doi or found.record.title!r} (title similarity {found.title_score:.2f})"


def _why(reply: Reply) -> str:
    return reply.why() if reply.status != 200 else "an answer that is not the documented search result"
