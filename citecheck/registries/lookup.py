"""Each identifier asked once per run, of the registry that is its authority, through the fact cache.

DOI: Crossref `/works/{DOI}` first (most DOIs; its record proves existence); on anything but a
record, the DOI system's handle API decides existence (`responseCode` 100 with HTTP 404: does not
exist; 1: exists), and an existing DOI's metadata comes by content negotiation (CSL-JSON), then
DataCite. arXiv DOIs (`10.48550/arXiv.*`) are DataCite's. arXiv IDs go to the arXiv API in batches
(`id_list`), PubMed IDs to esummary in batches. A Crossref 404 alone never makes a DOI absent.

Facts go to the fetch cache's side table under the request URL of the identifier's authority,
filed with the run's policy: a found record lives `found_days` (30), an authoritative absence
`absent_days` (1), an unanswered request is never stored. The policy speaks first: the cache only
answers for endpoints the run's guard would let it ask.
"""
from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from citecheck._util.allowlist import allows_url
from citecheck._util.netaddr import parse_ip
from citecheck.config import FetchConfig
from citecheck.config.registries import ENDPOINTS, SEARCHABLE, ScholarlyConfig
from citecheck.registries import keys
from citecheck.registries.parse import (
    arxiv_entries,
    crossref_record,
    csl_json_record,
    datacite_record,
    esummary_records,
    handle_code,
)
from citecheck.scholarly.ids import SEARCH, Identifier, possible_arxiv
from citecheck.scholarly.records import Lookup, Record, Status

if TYPE_CHECKING:
    from citecheck.registries.http import RegistryHttp, Reply

KIND = "registry"
DAY = 86400.0
CSL = "application/vnd.citationstyles.csl+json"
TOOL = "citecheck"
DEADLINE = "deadline"  # the `registry` of a lookup the run's --deadline cut off


@dataclass
class Lookups:
    """identifier key → Lookup, and what the run did to get them (requests, cache hits, facts to store)."""

    found: dict[str, Lookup] = field(default_factory=dict)
    replies: list[Reply] = field(default_factory=list)
    connected: set[str] = field(default_factory=set)
    cached: int = 0
    facts: dict[str, dict[str, Any]] = field(default_factory=dict)
    late: set[str] = field(default_factory=set)  # identifier keys the run's --deadline cut off (never facts)

    def get(self, ident: Identifier) -> Lookup | None:
        return self.found.get(ident.key)


def trusted_endpoints(settings: ScholarlyConfig, allow: tuple[str, ...], allow_private: bool) -> dict[str, str]:
    """The endpoints this run asks, and the discovered ones it does not (a planted config could name a
    stand-in that confirms every reference; a loopback mirror needs `--allow` anyway, which vouches for it)."""
    if not settings.discovered_endpoints:
        return dict(settings.endpoints)
    out = {}
    for name, url in settings.endpoints.items():
        host = (urlsplit(url).hostname or "").lower()
        ip = parse_ip(host)
        # an --allow entry that names the host, or --allow-private for a private address: never a public host
        vouched = url == ENDPOINTS.get(name) or allows_url(url, host, ip, allow, False) or (
            allow_private and ip is not None and not ip.is_global)
        out[name] = url if vouched else ENDPOINTS.get(name, url)
    return out


def fact_key(ident: Identifier, endpoints: Mapping[str, str], searched: Iterable[str]) -> str:
    """The request URL an identifier's facts are filed under (its authority's endpoint)."""
    if ident.kind == SEARCH:
        from citecheck.registries.search import search_key  # rapidfuzz: only for a run that searches

        return search_key(ident, endpoints, searched)
    if ident.kind == "doi":
        return f"{endpoints['doi']}/api/handles/{quote(ident.value, safe='/')}"
    if ident.kind == "arxiv":
        return f"{endpoints['arxiv']}?id_list={ident.value}"
    return f"{endpoints['pubmed']}/esummary.fcgi?db=pubmed&id={ident.value}"


def _endpoints_for(ident: Identifier, endpoints: Mapping[str, str]) -> list[str]:
    if ident.kind == SEARCH:
        return [endpoints[name] for name in SEARCHABLE if name in endpoints]
    if ident.kind == "doi":
        return [endpoints["doi"], endpoints["crossref"], endpoints["datacite"],
                *(endpoints[name] for name in ("semanticscholar", "openalex") if name in endpoints)]
    return [endpoints[ident.kind if ident.kind == "arxiv" else "pubmed"]]


class Registries:
    """One run's registry lookups: `await Registries(settings, fetch, cache).lookup(identifiers)`."""

    def __init__(self, settings: ScholarlyConfig, fetch: FetchConfig, cache: Any = None, resolver: Any = None) -> None:
        self.settings = settings
        self.endpoints = trusted_endpoints(settings, fetch.allow, fetch.allow_private)
        if self.endpoints != dict(settings.endpoints):
            moved = ", ".join(sorted(k for k, v in settings.endpoints.items() if self.endpoints[k] != v))
            print(f"citecheck: warning: scholarly.endpoints.{{{moved}}} of a discovered configuration name hosts "
                  "this run does not allow (--allow): the registries' public endpoints are asked", file=sys.stderr)
        self.fetch = fetch
        self.cache = cache
        self.resolver = resolver
        self.polite = bool(settings.mailto)
        # the registries this run can search (one that needs a key the environment lacks is skipped, said once)
        self.search, self.skipped = keys.usable(settings.search)

    async def lookup(self, identifiers: Iterable[Identifier], deadline: float | None = None) -> Lookups:
        """What the registries (or the cache) said of each identifier. With `deadline` (seconds, the
        time left of the run's --deadline), the requests still running then are cancelled and their
        identifiers are unverifiable (`Lookups.late`): nothing stored, no reply counted toward an outage."""
        wanted = list(dict.fromkeys(i for i in identifiers))
        out = Lookups()
        todo = self._from_cache(wanted, out)
        if not todo:
            return out  # the cache answered every identifier: no request, no HTTP stack
        from citecheck._util.aio import late_after
        from citecheck.registries.http import RegistryHttp  # aiohttp: only once something must be asked

        pace = dict(self.settings.pace)
        if self.polite:
            pace["crossref"] = pace.get("crossref-polite", pace["crossref"])
        async with RegistryHttp(self.fetch, pace, self.resolver) as http:
            dois = [i for i in todo if i.kind == "doi"]
            arxiv = [i for i in todo if i.kind == "arxiv"]
            pmids = [i for i in todo if i.kind == "pmid"]
            searches = [i for i in todo if i.kind == SEARCH]
            jobs = [*(self._doi(http, i, out) for i in dois), self._arxiv(http, arxiv, out),
                    self._pubmed(http, pmids, out), self._search(http, searches, out)]
            _results, late = await late_after(float("inf") if deadline is None else deadline, jobs)
            out.replies, out.connected = list(http.replies), set(http.connected)  # a cancelled request left none
        if late:
            for ident in (i for i in todo if i.key not in out.found):
                out.late.add(ident.key)
                out.found[ident.key] = Lookup(Status.UNVERIFIABLE, None, f"the run's --deadline ({deadline:g} s) "
                                              "passed before the registry answered", DEADLINE)
        return out

    # the cache ------------------------------------------------------------------------------------
    def _from_cache(self, wanted: list[Identifier], out: Lookups) -> list[Identifier]:
        if self.cache is None:
            return wanted
        admitted = [i for i in wanted if all(self.cache.admits(e) for e in _endpoints_for(i, self.endpoints))]
        keys = {fact_key(i, self.endpoints, self.search): i for i in admitted}
        stored = self.cache.get_extras(KIND, list(keys))
        now = time.time()
        for key, data in stored.items():
            lookup = self._fresh(data, now)
            if lookup is not None:
                out.found[keys[key].key] = lookup
                out.cached += 1
        return [i for i in wanted if i.key not in out.found]

    def _fresh(self, data: Mapping[str, Any], now: float) -> Lookup | None:
        try:
            if data.get("policy", "") not in ("", self.cache.policy):
                return None
            lookup = Lookup.from_dict(data["lookup"], from_cache=True)
            days = self.settings.found_days if lookup.status is Status.FOUND else self.settings.absent_days
            if lookup.status is Status.UNVERIFIABLE or float(data["fetched"]) < now - days * DAY:
                return None
        except (KeyError, TypeError, ValueError):
            return None
        return lookup

    def _settle(self, ident: Identifier, lookup: Lookup, out: Lookups) -> None:
        out.found[ident.key] = lookup
        if lookup.status is not Status.UNVERIFIABLE and self.cache is not None:
            out.facts[fact_key(ident, self.endpoints, self.search)] = {"fetched": time.time(), "policy": self.cache.policy,
                                                         "lookup": lookup.to_dict()}

    # DOIs -----------------------------------------------------------------------------------------
    async def _doi(self, http: RegistryHttp, ident: Identifier, out: Lookups) -> None:
        path = quote(ident.value, safe="/()")
        failed = ""
        if ident.is_arxiv_doi:
            reply = await http.get("datacite", f"{self.endpoints['datacite']}/dois/{path}")
            record = datacite_record(reply.body) if reply.status == 200 else None
            if record is not None:
                return self._settle(ident, Lookup(Status.FOUND, record, "DataCite record", "datacite"), out)
            failed = "" if reply.status == 404 else f"DataCite: {reply.why()}"
        else:
            reply = await http.get("crossref", f"{self.endpoints['crossref']}/works/{path}", params=self._mailto())
            record = crossref_record(reply.body) if reply.status == 200 else None
            if record is not None:
                return self._settle(ident, Lookup(Status.FOUND, record, "Crossref record", "crossref"), out)
            failed = "" if reply.status == 404 else f"Crossref: {reply.why()}"
        await self._handle(http, ident, path, failed, out)

    async def _handle(self, http: RegistryHttp, ident: Identifier, path: str, failed: str, out: Lookups) -> None:
        reply = await http.get("doi", f"{self.endpoints['doi']}/api/handles/{path}")
        code = handle_code(reply.body) if reply.status is not None else None
        if reply.status == 404 and code == 100:
            return self._settle(ident, Lookup(Status.ABSENT, None, "the DOI system answered responseCode 100 "
                                              "(Handle Not Found)", "doi"), out)
        if not (reply.status == 200 and code in (1, 200)):
            reason = f"DOI system: {reply.why()}" + (f" (responseCode {code})" if code is not None else "")
            return self._settle(ident, Lookup(Status.UNVERIFIABLE, None, "; ".join(filter(None, [failed, reason])),
                                              "doi"), out)
        cn = await http.get("doi", f"{self.endpoints['doi']}/{path}", headers={"Accept": CSL})
        record = csl_json_record(cn.body) if cn.status == 200 else None
        if record is None and not ident.is_arxiv_doi:
            dc = await http.get("datacite", f"{self.endpoints['datacite']}/dois/{path}")
            record = datacite_record(dc.body) if dc.status == 200 else None
        if record is None:
            record = await self._described(http, ident)
        if record is not None:
            return self._settle(ident, Lookup(Status.FOUND, record, "registered (DOI system); metadata by "
                                              f"{record.registry}", record.registry), out)
        if failed:  # Crossref could not answer and no other source had the metadata: try again later
            return self._settle(ident, Lookup(Status.UNVERIFIABLE, None, f"{failed}; registered, metadata "
                                              f"unavailable (content negotiation: {cn.why()})", "doi"), out)
        self._settle(ident, Lookup(Status.FOUND, None, "registered (DOI system), no metadata to compare", "doi"), out)

    async def _described(self, http: RegistryHttp, ident: Identifier) -> Record | None:
        """A registered DOI's record from an opt-in registry with a key (Semantic Scholar, OpenAlex), in
        `scholarly.search` order: only a description, never evidence that a DOI does not exist."""
        from citecheck.registries.search import SEARCHERS

        for name in self.search:
            searcher = SEARCHERS[name]
            credentials = keys.credentials(name)
            if searcher.doi is None or searcher.read_work is None or credentials is None:
                continue
            url, params = searcher.doi(ident, self.endpoints, self.settings.mailto)
            reply = await http.get(searcher.pacer, url, headers=credentials[0], params={**params, **credentials[1]})
            record = searcher.read_work(reply.body) if reply.status == 200 else None
            if record is not None:
                return record
        return None

    def _mailto(self) -> dict[str, str] | None:
        return {"mailto": self.settings.mailto} if self.settings.mailto else None

    # arXiv ----------------------------------------------------------------------------------------
    async def _arxiv(self, http: RegistryHttp, idents: list[Identifier], out: Lookups) -> None:
        for ident in [i for i in idents if not possible_arxiv(i.value)]:
            self._settle(ident, Lookup(Status.ABSENT, None, "not a possible arXiv identifier (no such month or "
                                       "number format)", "arxiv"), out)
        idents = [i for i in idents if possible_arxiv(i.value)]
        by_value = {i.value: i for i in idents}
        values = list(by_value)
        for start in range(0, len(values), self.settings.batch):
            batch = values[start:start + self.settings.batch]
            reply = await http.get("arxiv", self.endpoints["arxiv"],
                                   params={"id_list": ",".join(batch), "max_results": str(len(batch))})
            entries = arxiv_entries(reply.body) if reply.status == 200 else None
            for value in batch:
                ident = by_value[value]
                if entries is None:
                    why = reply.why() if reply.status != 200 else "an answer that is not an arXiv feed (or its error entry)"
                    self._settle(ident, Lookup(Status.UNVERIFIABLE, None, f"arXiv: {why}", "arxiv"), out)
                elif value in entries:
                    self._settle(ident, Lookup(Status.FOUND, entries[value], "arXiv record", "arxiv"), out)
                else:
                    self._settle(ident, Lookup(Status.ABSENT, None, "the arXiv API has no entry for this ID", "arxiv"),
                                 out)

    # references without an identifier -----------------------------------------------------------
    async def _search(self, http: RegistryHttp, idents: list[Identifier], out: Lookups) -> None:
        if not idents:
            return
        from citecheck.registries.search import search

        for line in self.skipped:
            print(f"citecheck: warning: {line}", file=sys.stderr)
        found = await search(http, idents, self.endpoints, self.settings.mailto, self.search)
        for ident, lookup in found.items():
            self._settle(ident, lookup, out)

    # PubMed ---------------------------------------------------------------------------------------
    async def _pubmed(self, http: RegistryHttp, idents: list[Identifier], out: Lookups) -> None:
        by_value = {i.value: i for i in idents}
        values = list(by_value)
        params = {"db": "pubmed", "retmode": "json", "tool": TOOL}
        if self.settings.mailto:
            params["email"] = self.settings.mailto
        if os.environ.get("NCBI_API_KEY"):
            params["api_key"] = os.environ["NCBI_API_KEY"]
        for start in range(0, len(values), self.settings.batch):
            batch = values[start:start + self.settings.batch]
            reply = await http.get("pubmed", f"{self.endpoints['pubmed']}/esummary.fcgi",
                                   params={**params, "id": ",".join(batch)})
            records = esummary_records(reply.body, batch) if reply.status == 200 else None
            for value in batch:
                ident = by_value[value]
                if records is None:
                    self._settle(ident, Lookup(Status.UNVERIFIABLE, None, f"PubMed: {reply.why()}", "pubmed"), out)
                elif records[value] is None:
                    self._settle(ident, Lookup(Status.ABSENT, None, "PubMed has no record with this PMID", "pubmed"),
                                 out)
                else:
                    self._settle(ident, Lookup(Status.FOUND, records[value], "PubMed record", "pubmed"), out)


def store(cache: Any, lookups: Lookups) -> None:
    """Write the run's registry facts (call only when the run had network: an outage stores nothing)."""
    if cache is not None and lookups.facts:
        cache.put_extras(KIND, lookups.facts)
