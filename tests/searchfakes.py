"""The registries' documented search APIs on top of the loopback stand-ins of tests/registryfakes.py.

- Crossref `GET /crossref/works?query.bibliographic=…&rows=N` (REST API docs, "Works" route,
  field queries): `{"status": "ok", "message-type": "work-list", "message": {"total-results", "items":
  [work, …], "items-per-page", "query": {"start-index", "search-terms"}}}`, items ranked by relevance
  with a `score`. Like the real index it always answers with its closest works, related or not.
  Here relevance is word overlap of the query with each Crossref work's title, family names and year.
- DataCite `GET /datacite/dois?query=…&page[size]=N` (REST API "Retrieve a list of DOIs"): JSON:API
  `{"data": [{"id", "type": "dois", "attributes": {titles, creators, publicationYear, …}}], "meta": {…}}`,
  most relevant first (here: title word overlap with the DataCite works);
- DBLP `GET /dblp/search/publ/api?q=…&format=json&h=N` (dblp "search API"): `{"result": {"hits":
  {"@total", "hit": [{"info": {"authors": {"author": [{"text"}] or {"text"}}, "title", "venue", "year",
  "doi", "ee"}}]}}}`, a title ending in a full stop as dblp writes them;
- arXiv `GET /arxiv/api/query?search_query=ti:w1 OR ti:w2&max_results=N` (arXiv API user manual,
  5.1 "Details of Query Construction": field prefixes, AND/OR/ANDNOT, quoted phrases): an Atom feed
  of the works matching, most matched terms first (with AND, or one quoted phrase: every term;
  `au:` an author of that family name); nothing matching is a feed without entries.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from registryfakes import FakeRegistries, Work, _entry, _feed, csl


def words(text: str) -> set[str]:
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return {w for w in re.split(r"[^\w]+", bare.lower()) if len(w) > 1}


def crossref_item(work: Work, score: float) -> dict[str, Any]:
    return {**csl(work), "title": [work.title], "container-title": [work.venue], "type": "journal-article",
            "abstract": f"<jats:p>{work.abstract}</jats:p>",
            "subtitle": [work.subtitle] if work.subtitle else [], "score": round(score, 3),
            "issued": {"date-parts": [[work.year, 6]]}, "published": {"date-parts": [[work.year, 6]]},
            "author": [{"given": g, "family": f, "sequence": "first" if i == 0 else "additional", "affiliation": []}
                       for i, (g, f) in enumerate(work.authors)]}


@dataclass
class SearchingRegistries(FakeRegistries):
    def app(self) -> web.Application:
        app = super().app()
        app.router.add_get("/crossref/works", self.crossref_search)  # /crossref/works/{doi} needs a DOI
        app.router.add_get("/datacite/dois", self.datacite_search)
        app.router.add_get("/dblp/search/publ/api", self.dblp_search)
        return app

    def endpoints(self) -> dict[str, str]:
        return {**super().endpoints(), "dblp": f"{self.base}/dblp/search/publ/api"}

    async def dblp_search(self, request: web.Request) -> web.StreamResponse:
        failed = await self._gate("dblp", request)
        if failed is not None:
            return failed
        wanted = words(request.query.get("q", ""))
        hits = []
        for work in self.works:
            if work.agency != "dblp":
                continue
            if wanted and len(wanted & words(work.title)) / len(wanted) >= 0.5:
                people = [{"@pid": f"00/{i}", "text": f"{g} {f}"} for i, (g, f) in enumerate(work.authors)]
                hits.append({"@score": "5", "@id": str(len(hits)), "info": {
                    "authors": {"author": people if len(people) > 1 else people[0]}, "title": work.title + ".",
                    "venue": work.venue, "year": str(work.year), "type": "Conference and Workshop Papers",
                    "doi": work.doi, "ee": f"https://doi.org/{work.doi}", "url": "https://dblp.org/rec/x"}})
        size = int(request.query.get("h", "30"))
        return web.json_response({"result": {"query": request.query.get("q", ""), "status": {"@code": "200", "text": "OK"},
                                  "hits": {"@total": str(len(hits)), "@computed": str(len(hits)), "@sent": str(min(size, len(hits))),
                                           "@first": "0", "hit": hits[:size]}}})

    async def datacite_search(self, request: web.Request) -> web.StreamResponse:
        failed = await self._gate("datacite-search", request)
        if failed is not None:
            return failed
        wanted = words(request.query.get("query", ""))
        size = int(request.query.get("page[size]", "25"))
        scored = []
        for work in self.works:
            if work.agency != "datacite" or not work.doi:
                continue
            overlap = len(wanted & words(work.title)) / max(len(wanted), 1)
            if overlap > 0:
                scored.append((overlap, work))
        scored.sort(key=lambda pair: -pair[0])
        data = [{"id": w.doi.lower(), "type": "dois", "attributes": {
            "doi": w.doi.lower(), "titles": [{"title": w.title}], "publisher": w.venue, "publicationYear": w.year,
            "creators": [{"name": f"{f}, {g}", "nameType": "Personal", "givenName": g, "familyName": f}
                         for g, f in w.authors],
            "types": {"resourceTypeGeneral": "Dataset"}, "relatedIdentifiers": []}} for _, w in scored[:size]]
        return web.json_response({"data": data, "meta": {"total": len(scored), "totalPages": 1, "page": 1}},
                                 content_type="application/vnd.api+json")

    async def crossref_search(self, request: web.Request) -> web.StreamResponse:
        failed = await self._gate("crossref-search", request)
        if failed is not None:
            return failed
        query = request.query.get("query.bibliographic", "")
        rows = min(int(request.query.get("rows", "20")), 1000)
        wanted = words(query)
        scored = []
        for work in self.works:
            if work.agency != "crossref" or not work.doi:
                continue
            have = words(" ".join([work.title, *(f for _, f in work.authors), str(work.year)]))
            overlap = len(wanted & have) / max(len(wanted), 1)
            if overlap > 0:
                scored.append((overlap, work))
        scored.sort(key=lambda pair: -pair[0])
        items = [crossref_item(w, 100 * s) for s, w in scored[:rows]]
        return web.json_response({"status": "ok", "message-type": "work-list", "message-version": "1.0.0", "message": {
            "facets": {}, "total-results": len(scored), "items": items, "items-per-page": rows,
            "query": {"start-index": 0, "search-terms": None}}})

    async def arxiv(self, request: web.Request) -> web.StreamResponse:
        query = request.query.get("search_query")
        if query is None:
            return await super().arxiv(request)
        failed = await self._gate("arxiv", request)
        if failed is not None:
            return failed
        terms = [words(t) for t in re.findall(r'ti:(?:"([^"]*)"|(\S+))', query) for t in t if t]
        author = re.search(r"au:(\S+)", query)
        ranked = []
        for work in self.works:
            if not work.arxiv:
                continue
            if author and not any(words(author.group(1)) <= words(f) for _, f in work.authors):
                continue
            hits = sum(term <= words(work.title) for term in terms)
            if hits and (" OR " in query or hits == len(terms)):
                ranked.append((hits, work))
        ranked.sort(key=lambda pair: -pair[0])
        limit = int(request.query.get("max_results", "10"))
        return _feed([_entry(w) for _, w in ranked[:limit]], request.query_string.replace("\"", "%22"))
