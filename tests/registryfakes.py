"""Loopback stand-ins of the five scholarly APIs, answering as their public documentation says.

- DOI handle API `GET /doi/api/handles/{DOI}` (DOI Handbook, "REST API Response Format"): HTTP 200
  `{"responseCode": 1, "handle": …, "values": [...]}`; HTTP 404 `{"responseCode": 100, "handle": …}`;
- DOI content negotiation `GET /doi/{DOI}` with `Accept: application/vnd.citationstyles.csl+json`:
  a CSL-JSON item (else the resolver's 302 to the landing page);
- Crossref `GET /crossref/works/{DOI}`: `{"status": "ok", "message-type": "work", "message": {…}}`,
  404 "Resource not found." (text/plain) for a DOI that is not Crossref's;
- DataCite `GET /datacite/dois/{DOI}`: JSON:API `{"data": {"id", "type": "dois", "attributes": {…}}}`,
  404 `{"errors": [{"status": "404", "title": "The resource you are looking for doesn't exist."}]}`;
- arXiv `GET /arxiv/api/query?id_list=a,b&max_results=n`: an Atom feed with one `<entry>` per ID it
  has (none for an unknown ID; one "Error" entry for a malformed one);
- E-utilities `GET /pubmed/esummary.fcgi?db=pubmed&id=a,b&retmode=json`: `{"header", "result": {"uids",
  "<uid>": {…}}}`, an unknown UID as `{"uid": …, "error": "cannot get document summary"}`.

`FakeRegistries.log` records every request (registry, path and query, loop time, client port) so
tests can measure pacing; `fail[registry] = (status, headers)` or `"timeout"` makes one misbehave
(`(status, headers, n)`: only the next n requests). A "timeout" registry holds each request for
`stall` seconds or until the server shuts down, whichever comes first: the test's client gives up
before either, and the test's teardown does not wait out the stall.
"""
from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape

from aiohttp import web

CSL = "application/vnd.citationstyles.csl+json"
_ARXIV_ID = re.compile(r"^(\d{4}\.\d{4,5}|[a-z\-]+(\.[A-Z]{2})?/\d{7})(v\d+)?$")


@dataclass
class Work:
    """One registered work and where it is registered (`agency`: crossref | datacite | other)."""

    title: str
    authors: list[tuple[str, str]]  # (given, family)
    year: int
    doi: str = ""
    arxiv: str = ""
    pmid: str = ""
    agency: str = "crossref"
    venue: str = "Journal of Examples"
    retracted: bool = False
    subtitle: str = ""
    abstract: str = "We study examples."


@dataclass
class FakeRegistries:
    works: list[Work] = field(default_factory=list)
    fail: dict[str, Any] = field(default_factory=dict)
    log: list[tuple[str, str, float, int]] = field(default_factory=list)
    base: str = ""
    stall: float = 2.0  # how long a "timeout" registry keeps a request waiting (at most: shutdown ends it)
    _shutdown: asyncio.Event | None = field(default=None, init=False, repr=False)

    def endpoints(self) -> dict[str, str]:
        return {"doi": f"{self.base}/doi", "crossref": f"{self.base}/crossref", "datacite": f"{self.base}/datacite",
                "arxiv": f"{self.base}/arxiv/api/query", "pubmed": f"{self.base}/pubmed"}

    def asked(self, registry: str) -> list[str]:
        return [entry[1] for entry in self.log if entry[0] == registry]

    def by_doi(self, doi: str) -> Work | None:
        return next((w for w in self.works if w.doi and w.doi.lower() == doi.lower()), None)

    # the app --------------------------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/doi/api/handles/{doi:.+}", self.handle)
        app.router.add_get("/doi/{doi:10\\..+}", self.negotiate)
        app.router.add_get("/crossref/works/{doi:.+}", self.crossref)
        app.router.add_get("/datacite/dois/{doi:.+}", self.datacite)
        app.router.add_get("/arxiv/api/query", self.arxiv)
        app.router.add_get("/pubmed/esummary.fcgi", self.pubmed)
        self._shutdown = None  # a new server, a new loop
        app.on_shutdown.append(self._release)
        return app

    async def _release(self, app: web.Application) -> None:
        """Shutdown (before aiohttp waits for the handlers still running) ends every stall."""
        if self._shutdown is not None:
            self._shutdown.set()

    async def _stall(self) -> None:
        if self._shutdown is None:  # created on the server's own loop
            self._shutdown = asyncio.Event()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._shutdown.wait(), self.stall)

    async def _gate(self, registry: str, request: web.Request) -> web.StreamResponse | None:
        peer = request.transport.get_extra_info("peername") if request.transport else None
        self.log.append((registry, request.path_qs, time.monotonic(), peer[1] if peer else 0))
        failing = self.fail.get(registry)
        if failing == "timeout":
            await self._stall()
        if isinstance(failing, tuple):
            status, headers, *times = failing
            if times:  # (status, headers, n): fail the next n requests only
                self.fail[registry] = (status, headers, times[0] - 1) if times[0] > 1 else None
            return web.Response(status=status, headers=headers, text="Rate exceeded." if status == 429 else
                                "Service Unavailable")
        return None

    async def handle(self, request: web.Request) -> web.StreamResponse:
        failed = await self._gate("doi", request)
        if failed is not None:
            return failed
        doi = request.match_info["doi"]
        work = self.by_doi(doi)
        if work is None:
            return web.json_response({"responseCode": 100, "handle": doi}, status=404)
        return web.json_response({"responseCode": 1, "handle": work.doi, "values": [
            {"index": 1, "type": "URL", "data": {"format": "string", "value": f"https://publisher.example/{work.doi}"},
             "ttl": 86400, "timestamp": "2020-01-01T00:00:00Z"},
            {"index": 100, "type": "HS_ADMIN", "data": {"format": "admin", "value": {
                "handle": "0.na/10.1000", "index": 200, "permissions": "111111110111"}},
             "ttl": 86400, "timestamp": "2020-01-01T00:00:00Z"}]})

    async def negotiate(self, request: web.Request) -> web.StreamResponse:
        failed = await self._gate("doi", request)
        if failed is not None:
            return failed
        work = self.by_doi(request.match_info["doi"])
        if work is None:
            return web.Response(status=404, text="DOI Not Found")
        if CSL not in request.headers.get("Accept", ""):
            raise web.HTTPFound(f"https://publisher.example/{work.doi}")
        return web.json_response(csl(work), content_type=CSL)

    async def crossref(self, request: web.Request) -> web.StreamResponse:
        failed = await self._gate("crossref", request)
        if failed is not None:
            return failed
        work = self.by_doi(request.match_info["doi"])
        if work is None or work.agency != "crossref":
            return web.Response(status=404, text="Resource not found.")
        message = {**csl(work), "title": [work.title], "container-title": [work.venue],
                   "subtitle": [work.subtitle] if work.subtitle else [], "prefix": work.doi.split("/")[0],
                   "member": "263", "publisher": "Example Press", "type": "journal-article",
                   "abstract": f"<jats:p>{escape(work.abstract)}</jats:p>",
                   "published-print": {"date-parts": [[work.year, 6]]}, "issued": {"date-parts": [[work.year, 6]]},
                   "created": {"date-parts": [[work.year, 5, 1]], "date-time": f"{work.year}-05-01T00:00:00Z"},
                   "author": [{"given": g, "family": f, "sequence": "first" if i == 0 else "additional", "affiliation": []}
                              for i, (g, f) in enumerate(work.authors)]}
        if work.retracted:
            message["updated-by"] = [{"DOI": f"{work.doi}.retraction", "type": "retraction", "source": "retraction-watch",
                                      "label": "Retraction", "updated": {"date-parts": [[work.year + 2, 1, 1]]}}]
        return web.json_response({"status": "ok", "message-type": "work", "message-version": "1.0.0", "message": message})

    async def datacite(self, request: web.Request) -> web.StreamResponse:
        failed = await self._gate("datacite", request)
        if failed is not None:
            return failed
        work = self.by_doi(request.match_info["doi"])
        if work is None or work.agency != "datacite":
            return web.json_response({"errors": [{"status": "404", "title": "The resource you are looking for doesn't "
                                                                           "exist."}]}, status=404)
        return web.json_response({"data": {"id": work.doi.lower(), "type": "dois", "attributes": {
            "doi": work.doi.lower(), "prefix": work.doi.split("/")[0], "titles": [{"title": work.title}],
            "creators": [{"name": f"{f}, {g}", "nameType": "Personal", "givenName": g, "familyName": f, "affiliation": []}
                         for g, f in work.authors],
            "publisher": work.venue, "publicationYear": work.year, "types": {"resourceTypeGeneral": "Preprint"},
            "descriptions": [{"description": work.abstract, "descriptionType": "Abstract"}],
            "relatedIdentifiers": []}}}, content_type="application/vnd.api+json")

    async def arxiv(self, request: web.Request) -> web.StreamResponse:
        failed = await self._gate("arxiv", request)
        if failed is not None:
            return failed
        ids = [i for i in request.query.get("id_list", "").split(",") if i]
        entries = []
        for ident in ids:
            if not _ARXIV_ID.match(ident):
                return _feed([f"<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_{escape(ident)}</id>"
                              f"<title>Error</title><summary>incorrect id format for {escape(ident)}</summary>"
                              "<updated>2024-01-01T00:00:00-05:00</updated><link href=\"http://arxiv.org/api/errors\" "
                              "rel=\"alternate\" type=\"text/html\"/><author><name>arXiv api core</name></author></entry>"],
                             request.query_string)
            base = re.sub(r"v\d+$", "", ident)
            work = next((w for w in self.works if w.arxiv == base), None)
            if work is not None:
                entries.append(_entry(work))
        return _feed(entries, request.query_string)

    async def pubmed(self, request: web.Request) -> web.StreamResponse:
        failed = await self._gate("pubmed", request)
        if failed is not None:
            return failed
        ids = [i for i in request.query.get("id", "").split(",") if i]
        result: dict[str, Any] = {"uids": []}
        for uid in ids:
            work = next((w for w in self.works if w.pmid == uid), None)
            if work is None:
                result[uid] = {"uid": uid, "error": "cannot get document summary"}
                continue
            result["uids"].append(uid)
            result[uid] = {"uid": uid, "pubdate": f"{work.year} Jun", "epubdate": f"{work.year} May 2",
                           "source": work.venue[:20], "fulljournalname": work.venue, "title": work.title + ".",
                           "authors": [{"name": f"{f} {g[:1]}", "authtype": "Author", "clusterid": ""}
                                       for g, f in work.authors],
                           "pubtype": ["Journal Article", *(["Retracted Publication"] if work.retracted else [])],
                           "articleids": [{"idtype": "pubmed", "idtypen": 1, "value": uid},
                                          *([{"idtype": "doi", "idtypen": 3, "value": work.doi}] if work.doi else [])]}
        return web.json_response({"header": {"type": "esummary", "version": "0.3"}, "result": result})


@contextlib.contextmanager
def served(registries: FakeRegistries) -> Iterator[FakeRegistries]:
    """The registries on a loopback server thread, `base` set; its shutdown ends any stall."""
    from hostile_net import ServerThread

    with ServerThread(registries.app()) as thread:
        registries.base = f"http://127.0.0.1:{thread.port}"
        yield registries


def deadline_config(registries: FakeRegistries, cache: str, deadline: float, **sections: Any) -> dict[str, Any]:
    """A run's config asking these registries unpaced, no retries, a 30 s timeout and `deadline`."""
    port = registries.base.rsplit(":", 1)[1]
    pace = {name: [0.0, 2] for name in ("doi", "crossref", "crossref-polite", "datacite", "arxiv", "pubmed")}
    return {**sections, "fetch": {"allow": [f"127.0.0.1:{port}"], "cache": cache, "retries": 0, "timeout": 30,
                                  "deadline": deadline},
            "scholarly": {"endpoints": registries.endpoints(), "pace": pace}}


def csl(work: Work) -> dict[str, Any]:
    return {"type": "article-journal", "DOI": work.doi, "title": work.title + (f": {work.subtitle}" if work.subtitle else ""),
            "author": [{"given": g, "family": f} for g, f in work.authors],
            "issued": {"date-parts": [[work.year, 6]]}, "container-title": work.venue, "publisher": "Example Press"}


def _entry(work: Work) -> str:
    authors = "".join(f"<author><name>{escape(g)} {escape(f)}</name></author>" for g, f in work.authors)
    return (f"<entry><id>http://arxiv.org/abs/{work.arxiv}v2</id><updated>{work.year}-09-01T10:00:00Z</updated>"
            f"<published>{work.year}-06-12T17:57:34Z</published><title>{escape(work.title)}</title>"
            f"<summary>  {escape(work.abstract)}\n</summary>{authors}"
            f"<link href=\"http://arxiv.org/abs/{work.arxiv}v2\" rel=\"alternate\" type=\"text/html\"/>"
            f"<link title=\"pdf\" href=\"http://arxiv.org/pdf/{work.arxiv}v2\" rel=\"related\" type=\"application/pdf\"/>"
            "<arxiv:primary_category xmlns:arxiv=\"http://arxiv.org/schemas/atom\" term=\"cs.CL\" "
            "scheme=\"http://arxiv.org/schemas/atom\"/><category term=\"cs.CL\" scheme=\"http://arxiv.org/schemas/atom\"/>"
            "</entry>")


def _feed(entries: list[str], query: str) -> web.Response:
    body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" "
            "xmlns:opensearch=\"http://a9.com/-/spec/opensearch/1.1/\" xmlns:arxiv=\"http://arxiv.org/schemas/atom\">"
            f"<link href=\"http://arxiv.org/api/query?{escape(query)}\" rel=\"self\" type=\"application/atom+xml\"/>"
            f"<title type=\"html\">ArXiv Query: {escape(query)}</title><id>http://arxiv.org/api/fake</id>"
            "<updated>2024-01-01T00:00:00-05:00</updated>"
            f"<opensearch:totalResults>{len(entries)}</opensearch:totalResults>"
            "<opensearch:startIndex>0</opensearch:startIndex>"
            f"<opensearch:itemsPerPage>{len(entries)}</opensearch:itemsPerPage>{''.join(entries)}</feed>")
    return web.Response(body=body.encode(), content_type="application/atom+xml")
