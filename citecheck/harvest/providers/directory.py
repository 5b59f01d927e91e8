"""The `directory` provider: a curated list of institutional sources, searched offline.

A directory file (YAML) lists institutions by name and domain, with known report URLs (title,
topics) and/or a site-search URL template. A query picks entries by its `@domain` restriction,
else by the section's preferred sources, else all; known reports are ranked by fuzzy match of the
query against their title and topics, and a site-search page (the only network use) is fetched
through citecheck's guarded fetcher and its same-site links become candidates.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import quote_plus

from rapidfuzz import fuzz

from citecheck.errors import InputError
from citecheck.harvest.outline import split_sites
from citecheck.harvest.providers.base import Candidate
from citecheck.harvest.yamlfile import line_of, node_at, read_yaml
from citecheck.urls import domain_match

FetchHtml = Callable[[str], Awaitable[tuple[str, bytes | None]]]  # url -> (final url, body or None)
MIN_SCORE = 55.0


@dataclass(frozen=True)
class Report:
    url: str
    title: str
    topics: tuple[str, ...] = ()


@dataclass(frozen=True)
class Entry:
    name: str
    domain: str
    reports: tuple[Report, ...] = ()
    search: str = ""

    def covers(self, token: str) -> bool:
        token = token.strip().lower()
        return token == self.name.lower() or bool(domain_match(token, (self.domain,)))


def load_directory(path: str) -> tuple[Entry, ...]:
    """Read a directory file; every problem is one InputError naming file and line."""
    data, node, where = read_yaml(path, InputError, "source directory")
    sources = data.get("sources") if isinstance(data, dict) else None
    if node is None or not isinstance(sources, list):
        raise InputError(f"{where}:1: a source directory is a mapping with a 'sources' list")
    return tuple(_entry(raw, where, line_of(node_at(node, ["sources", i]))) for i, raw in enumerate(sources))


def _entry(raw: Any, where: str, line: int) -> Entry:
    def fail(why: str) -> InputError:
        return InputError(f"{where}:{line}: {why}")

    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not isinstance(raw.get("domain"), str):
        raise fail("each source needs a 'name' and a 'domain'")
    unknown = set(raw) - {"name", "domain", "reports", "search"}
    if unknown:
        raise fail(f"unknown key {min(unknown)!r} (known: domain, name, reports, search)")
    search = str(raw.get("search") or "")
    if search and ("{query}" not in search or not search.startswith(("http://", "https://"))):
        raise fail(f"search must be an http(s) URL template containing {{query}}, got {search!r}")
    reports = []
    for item in raw.get("reports") or []:
        if not isinstance(item, dict) or not str(item.get("url", "")).startswith(("http://", "https://")):
            raise fail(f"source {raw['name']!r}: each report needs an http(s) 'url' (and a 'title')")
        reports.append(Report(item["url"], str(item.get("title", "")), tuple(map(str, item.get("topics") or ()))))
    return Entry(raw["name"], raw["domain"].lower().strip("."), tuple(reports), search)


class Directory:
    name = "directory"

    def __init__(self, entries: Sequence[Entry], fetch_html: FetchHtml | None = None,
                 prefer: Sequence[str] = (), min_score: float = MIN_SCORE) -> None:
        self.entries = tuple(entries)
        self.fetch_html = fetch_html
        self.prefer = tuple(prefer)
        self.min_score = min_score

    def scoped(self, prefer: Sequence[str]) -> Directory:
        """The same directory favouring one section's preferred sources."""
        return Directory(self.entries, self.fetch_html, prefer, self.min_score)

    def known(self, token: str) -> bool:
        return any(e.covers(token) for e in self.entries)

    async def aclose(self) -> None:
        return None

    async def search(self, query: str, limit: int) -> list[Candidate]:
        text, sites = split_sites(query)
        picked = [e for e in self.entries if any(e.covers(s) for s in sites)] if sites else \
            [e for e in self.entries if any(e.covers(p) for p in self.prefer)] or list(self.entries)
        found: list[Candidate] = []
        for entry in picked:
            found += self._reports(entry, text, query)
            if entry.search and text and self.fetch_html is not None:
                found += await self._site_search(entry, text, query)
        unique = list({c.url: c for c in reversed(found)}.values())[::-1]
        return [replace(c, rank=rank) for rank, c in enumerate(unique[:limit], 1)]

    def _reports(self, entry: Entry, text: str, query: str) -> list[Candidate]:
        scored = []
        for report in entry.reports:
            about = " ".join([report.title, *report.topics])
            score = fuzz.token_set_ratio(text.lower(), about.lower()) if text else 100.0
            if score >= self.min_score:
                scored.append((score, report))
        scored.sort(key=lambda pair: -pair[0])
        return [Candidate(r.url, r.title, "", query, self.name) for _, r in scored]

    async def _site_search(self, entry: Entry, text: str, query: str) -> list[Candidate]:
        from citecheck.harvest.sitesearch import same_site_links

        url = entry.search.replace("{query}", quote_plus(text))
        final_url, body = await self.fetch_html(url)  # type: ignore[misc]
        if not body:
            return []
        return [Candidate(link, title, "", query, self.name) for link, title in same_site_links(body, final_url or url,
                                                                                               entry.domain)]
