"""OpenAlex (opt-in): its REST API, as https://docs.openalex.org documents it (base
`https://api.openalex.org`, `scholarly.endpoints.openalex`).

- title search: `GET {openalex}/works?filter=title.search:<title words>&sort=relevance_score:desc&per_page=5`
  ("Search works" → "Search a specific field"; sorting by `relevance_score` needs a search filter,
  "Sort entity lists") → `{"meta": {"count", …}, "results": [work, …]}`. The filter value is the
  title's words only, in lower case: `,` separates filters, `|` means OR in a filter value, and
  AND/OR/NOT in capitals make a search boolean ("Search entities");
- a DOI's record: `GET {openalex}/works/doi:{doi}` ("Get a single work", external IDs) → one work;
  404 when OpenAlex does not have it (only "not in OpenAlex", never "does not exist");
- a work: `title`/`display_name`, `publication_year`, `authorships: [{author: {display_name},
  raw_author_name}]`, `doi` (`https://doi.org/…`), `ids: {pmid, …}`, `primary_location: {source:
  {display_name}, landing_page_url}`, `is_retracted`, `abstract_inverted_index` (word → positions).

The key comes from the environment only (`OPENALEX_API_KEY`), as the `api_key` query parameter:
OpenAlex requires one since 13 February 2026 ("Rate limits and authentication"); without it the
registry is skipped with one warning line. `mailto` is sent as well when configured. Pace: at most
10 requests a second, two at a time (the documented ceiling is 100/s; the daily budget is the limit).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from citecheck.registries.parse import load_json
from citecheck.scholarly.ids import Identifier
from citecheck.scholarly.records import Author, Record
from citecheck.scholarly.text import plain

NAME = "openalex"
KEY_ENV = "OPENALEX_API_KEY"
ROWS = 5


def abstract(inverted: Any) -> str:
    """The text of an `abstract_inverted_index` ({word: [positions]})."""
    if not isinstance(inverted, dict):
        return ""
    places = {p: str(word) for word, spots in inverted.items() if isinstance(spots, list)
              for p in spots if isinstance(p, int)}
    return " ".join(places[p] for p in sorted(places))


def work_item(item: Mapping[str, Any]) -> Record | None:
    """One OpenAlex work as a Record (None without a title)."""
    title = plain(str(item.get("title") or item.get("display_name") or ""))
    if not title:
        return None
    authors = []
    for authorship in item.get("authorships") or []:
        if not isinstance(authorship, dict):
            continue
        author = _mapping(authorship.get("author"))
        name = str(author.get("display_name") or authorship.get("raw_author_name") or "")
        if name:
            authors.append(Author(literal=plain(name)))
    year = item.get("publication_year") if isinstance(item.get("publication_year"), int) else None
    location = _mapping(item.get("primary_location"))
    source = _mapping(location.get("source"))
    doi = str(item.get("doi") or "").lower().removeprefix("https://doi.org/")
    retracted = item.get("is_retracted") is True
    return Record(registry=NAME, title=title, titles=(title,), authors=tuple(authors), year=year,
                  years=(year,) if year else (), venue=plain(str(source.get("display_name") or "")),
                  retracted=retracted, retraction="is_retracted (OpenAlex)" if retracted else "",
                  abstract=plain(abstract(item.get("abstract_inverted_index")))[:2000], doi=doi,
                  url=str(location.get("landing_page_url") or ""))


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def search_items(body: bytes) -> list[Record] | None:
    """The records of a `/works?filter=…` answer (None: not the documented `{"results": [...]}` shape)."""
    data = load_json(body)
    items = data.get("results") if isinstance(data, dict) and isinstance(data.get("meta"), dict) else None
    if not isinstance(items, list):
        return None
    return [r for r in (work_item(i) for i in items if isinstance(i, dict)) if r is not None]


def work_record(body: bytes) -> Record | None:
    data = load_json(body)
    return work_item(data) if isinstance(data, dict) and data.get("id") else None


def search_request(words: str, endpoints: Mapping[str, str], mailto: str) -> tuple[str, dict[str, str]]:
    # lower case: AND, OR and NOT in capitals would turn the search boolean
    value = " ".join(words.replace(",", " ").replace("|", " ").replace(":", " ").lower().split())
    params = {"filter": f"title.search:{value}", "sort": "relevance_score:desc", "per_page": str(ROWS)}
    return f"{endpoints[NAME]}/works", {**params, **({"mailto": mailto} if mailto else {})}


def doi_request(ident: Identifier, endpoints: Mapping[str, str], mailto: str) -> tuple[str, dict[str, str]]:
    return f"{endpoints[NAME]}/works/doi:{ident.value}", {"mailto": mailto} if mailto else {}


def auth(key: str) -> tuple[dict[str, str], dict[str, str]]:
    """(headers, query parameters) that carry the key."""
    return {}, {"api_key": key}
