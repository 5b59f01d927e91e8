"""Semantic Scholar (opt-in): its Academic Graph API, as https://api.semanticscholar.org/api-docs/graph
documents it (base `https://api.semanticscholar.org/graph/v1`, `scholarly.endpoints.semanticscholar`).

- relevance search: `GET {semanticscholar}/paper/search?query=<title words>&fields=…&limit=5` →
  `{"total": n, "offset": 0, "next": 5, "data": [paper, …]}` (no special query syntax);
- a DOI's record: `GET {semanticscholar}/paper/DOI:{doi}?fields=…` → one paper; 404
  `{"error": "Paper with id DOI:… not found"}` (only "not in Semantic Scholar", never "does not exist");
- a paper: `paperId`, `title`, `year`, `venue`, `authors: [{authorId, name}]`, `externalIds: {DOI,
  ArXiv, PubMed, …}`, `url`, `abstract` (may be missing for legal reasons), `journal: {name}`.

The key comes from the environment only (`SEMANTIC_SCHOLAR_API_KEY`), sent in the `x-api-key`
header (case-sensitive, as documented); without one the registry is skipped with one warning line.
Pace: one request at a time, 1 per second (the dedicated rate of an introductory key).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from citecheck.registries.parse import load_json
from citecheck.scholarly.ids import Identifier
from citecheck.scholarly.records import Author, Record
from citecheck.scholarly.text import plain

NAME = "semanticscholar"
KEY_ENV = "SEMANTIC_SCHOLAR_API_KEY"
FIELDS = "title,authors,year,venue,externalIds,url,abstract,journal,publicationDate"
ROWS = 5


def paper_record(item: Mapping[str, Any]) -> Record | None:
    """One Graph API paper as a Record (None without a title)."""
    title = plain(str(item.get("title") or "")).rstrip(".")
    if not title:
        return None
    authors = tuple(Author(literal=plain(str(a.get("name")))) for a in item.get("authors") or []
                    if isinstance(a, dict) and a.get("name"))
    years = [item["year"]] if isinstance(item.get("year"), int) else []
    date = str(item.get("publicationDate") or "")
    if re.match(r"\d{4}", date) and int(date[:4]) not in years:
        years.append(int(date[:4]))
    external = _mapping(item.get("externalIds"))
    journal = _mapping(item.get("journal"))
    venue = str(item.get("venue") or journal.get("name") or "")
    doi = str(external.get("DOI") or "").lower()
    arxiv = str(external.get("ArXiv") or "")
    url = f"https://arxiv.org/abs/{arxiv}" if arxiv and not doi else str(item.get("url") or "")
    return Record(registry=NAME, title=title, titles=(title,), authors=authors, year=years[0] if years else None,
                  years=tuple(years), venue=plain(venue), abstract=plain(str(item.get("abstract") or ""))[:2000],
                  doi=doi, url=url)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def search_items(body: bytes) -> list[Record] | None:
    """The records of a `/paper/search` answer (None: not the documented `{"data": [...]}` shape)."""
    data = load_json(body)
    items = data.get("data", []) if isinstance(data, dict) and "total" in data else None
    if not isinstance(items, list):
        return None
    return [r for r in (paper_record(i) for i in items if isinstance(i, dict)) if r is not None]


def work_record(body: bytes) -> Record | None:
    """A `/paper/DOI:…` answer as a Record."""
    data = load_json(body)
    return paper_record(data) if isinstance(data, dict) and data.get("paperId") else None


def search_request(words: str, endpoints: Mapping[str, str], _mailto: str) -> tuple[str, dict[str, str]]:
    return f"{endpoints[NAME]}/paper/search", {"query": words, "fields": FIELDS, "limit": str(ROWS)}


def doi_request(ident: Identifier, endpoints: Mapping[str, str], _mailto: str) -> tuple[str, dict[str, str]]:
    return f"{endpoints[NAME]}/paper/DOI:{ident.value}", {"fields": FIELDS}


def auth(key: str) -> tuple[dict[str, str], dict[str, str]]:
    """(headers, query parameters) that carry the key."""
    return {"x-api-key": key}, {}
