"""Loopback stand-ins of the two opt-in registries that need a key, on top of tests/searchfakes.py,
answering in the shapes their public documentation gives.

- Semantic Scholar Academic Graph API (https://api.semanticscholar.org/api-docs/graph, base
  `/graph/v1`): `GET /s2/graph/v1/paper/search?query=…&fields=…&limit=N` →
  `{"total", "offset", "next", "data": [paper]}`; `GET /s2/graph/v1/paper/DOI:{doi}?fields=…` → one
  paper, 404 `{"error": "Paper with id DOI:… not found"}`; a paper is `{paperId, externalIds: {DOI,
  ArXiv, CorpusId}, url, title, abstract, venue, year, publicationDate, journal: {name}, authors:
  [{authorId, name}]}`. The key travels in the `x-api-key` header; a request without the expected
  key is 403 `{"message": "Forbidden"}`.
- OpenAlex (https://docs.openalex.org: "Search works", "Get a single work", "Work object",
  "Rate limits and authentication"): `GET /openalex/works?filter=title.search:…&sort=relevance_score:desc&per_page=N`
  → `{"meta": {"count", "db_response_time_ms", "page", "per_page"}, "results": [work], "group_by": []}`;
  `GET /openalex/works/doi:{doi}` → one work, 404 when unknown; a work is `{id, doi
  ("https://doi.org/…"), title, display_name, publication_year, authorships: [{author_position,
  author: {id, display_name}, raw_author_name}], primary_location: {source: {display_name},
  landing_page_url}, is_retracted, abstract_inverted_index}`. The key is the `api_key` parameter;
  without it (required since 13 February 2026) the stand-in answers 429, as an exhausted budget does.

Each indexes the works of its own `agency` ("s2", "openalex") and Crossref's, as the real indexes
hold Crossref's works; relevance is title word overlap, as in searchfakes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from registryfakes import CSL, Work
from searchfakes import SearchingRegistries, words

S2_KEY = "s2-test-key-0123"
OPENALEX_KEY = "oa-test-key-4567"


def s2_paper(work: Work) -> dict[str, Any]:
    external = {"CorpusId": 1000 + len(work.title)}
    if work.doi:
        external["DOI"] = work.doi
    if work.arxiv:
        external["ArXiv"] = work.arxiv
    return {"paperId": f"{abs(hash(work.title)):040x}"[:40], "externalIds": external,
            "url": "https://www.semanticscholar.org/paper/x", "title": work.title, "abstract": work.abstract,
            "venue": work.venue, "year": work.year, "publicationDate": f"{work.year}-06-01",
            "journal": {"name": work.venue}, "authors": [{"authorId": str(i), "name": f"{g} {f}"}
                                                         for i, (g, f) in enumerate(work.authors)]}


def openalex_work(work: Work) -> dict[str, Any]:
    inverted: dict[str, list[int]] = {}
    for position, word in enumerate(work.abstract.split()):
        inverted.setdefault(word, []).append(position)
    return {"id": f"https://openalex.org/W{1000 + len(work.title)}", "doi": f"https://doi.org/{work.doi}" if work.doi else None,
            "title": work.title, "display_name": work.title, "publication_year": work.year,
            "publication_date": f"{work.year}-06-01", "type": "article",
            "authorships": [{"author_position": "first" if i == 0 else "middle",
                             "author": {"id": f"https://openalex.org/A{i}", "display_name": f"{g} {f}"},
                             "institutions": [], "raw_author_name": f"{g} {f}"} for i, (g, f) in enumerate(work.authors)],
            "primary_location": {"is_oa": False, "landing_page_url": f"https://doi.org/{work.doi}" if work.doi else None,
                                 "source": {"id": "https://openalex.org/S1", "display_name": work.venue}},
            "is_retracted": work.retracted, "abstract_inverted_index": inverted}


@dataclass
class KeyedRegistries(SearchingRegistries):
    headers_seen: list[dict[str, str]] = field(default_factory=list)

    def app(self) -> web.Application:
        app = super().app()
        app.router.add_get("/s2/graph/v1/paper/search", self.s2_search)
        app.router.add_get("/s2/graph/v1/paper/{id:.+}", self.s2_paper)
        app.router.add_get("/openalex/works", self.openalex_search)
        app.router.add_get("/openalex/works/{id:.+}", self.openalex_one)
        return app

    async def negotiate(self, request: web.Request) -> web.StreamResponse:
        """A DOI of an agency that offers no content negotiation: doi.org answers 406 Not Acceptable."""
        work = self.by_doi(request.match_info["doi"])
        if work is not None and work.agency in ("s2", "openalex") and CSL in request.headers.get("Accept", ""):
            failed = await self._gate("doi", request)
            return failed if failed is not None else web.Response(status=406, text="Not Acceptable")
        return await super().negotiate(request)

    def endpoints(self) -> dict[str, str]:
        return {**super().endpoints(), "semanticscholar": f"{self.base}/s2/graph/v1", "openalex": f"{self.base}/openalex"}

    def _indexed(self, agency: str) -> list[Work]:
        return [w for w in self.works if w.agency in (agency, "crossref")]

    def _ranked(self, agency: str, query: str, size: int) -> list[Work]:
        wanted = words(query)
        scored = [(len(wanted & words(w.title)) / max(len(wanted), 1), w) for w in self._indexed(agency)]
        scored = [pair for pair in scored if pair[0] > 0]
        scored.sort(key=lambda pair: -pair[0])
        return [w for _, w in scored[:size]]

    async def _s2_gate(self, request: web.Request) -> web.StreamResponse | None:
        self.headers_seen.append(dict(request.headers))
        failed = await self._gate("semanticscholar", request)
        if failed is not None:
            return failed
        if request.headers.get("x-api-key") != S2_KEY:
            return web.json_response({"message": "Forbidden"}, status=403)
        return None

    async def s2_search(self, request: web.Request) -> web.StreamResponse:
        failed = await self._s2_gate(request)
        if failed is not None:
            return failed
        size = int(request.query.get("limit", "100"))
        found = self._ranked("s2", request.query.get("query", ""), size)
        return web.json_response({"total": len(found), "offset": 0, "next": len(found),
                                  "data": [s2_paper(w) for w in found]})

    async def s2_paper(self, request: web.Request) -> web.StreamResponse:
        failed = await self._s2_gate(request)
        if failed is not None:
            return failed
        ident = request.match_info["id"]
        work = next((w for w in self._indexed("s2") if ident.startswith("DOI:") and w.doi
                     and w.doi.lower() == ident[4:].lower()), None)
        if work is None:
            return web.json_response({"error": f"Paper with id {ident} not found"}, status=404)
        return web.json_response(s2_paper(work))

    async def _openalex_gate(self, request: web.Request) -> web.StreamResponse | None:
        failed = await self._gate("openalex", request)
        if failed is not None:
            return failed
        if request.query.get("api_key") != OPENALEX_KEY:
            return web.json_response({"error": "Rate limit exceeded", "message": "an API key is required"}, status=429)
        return None

    async def openalex_search(self, request: web.Request) -> web.StreamResponse:
        failed = await self._openalex_gate(request)
        if failed is not None:
            return failed
        value = request.query.get("filter", "")
        if not value.startswith("title.search:") or "," in value:
            return web.json_response({"error": "Invalid query parameters error."}, status=400)
        size = int(request.query.get("per_page", "25"))
        found = self._ranked("openalex", value.removeprefix("title.search:"), size)
        return web.json_response({"meta": {"count": len(found), "db_response_time_ms": 12, "page": 1, "per_page": size,
                                           "groups_count": None},
                                  "results": [openalex_work(w) for w in found], "group_by": []})

    async def openalex_one(self, request: web.Request) -> web.StreamResponse:
        failed = await self._openalex_gate(request)
        if failed is not None:
            return failed
        ident = request.match_info["id"]
        work = next((w for w in self._indexed("openalex") if ident.lower().startswith("doi:") and w.doi
                     and w.doi.lower() == ident[4:].lower()), None)
        if work is None:
            return web.json_response({"error": "404. The page you're looking for doesn't exist."}, status=404)
        return web.json_response(openalex_work(work))
