"""A corpus entry that breaks the `sourced_corpus.json` contract (missing field, wrong type, bad date).

Writers and `citecheck write` rely on every entry holding `id, url, canonical_url, title,
fetched_at, body_excerpt, summary, retrieval_query, retrieval_tool` as strings (with `id`, `url`,
`canonical_url` and `fetched_at` non-empty and `fetched_at` an ISO-8601 timestamp), and on the
optional `final_url, content_hash, section, snippet` being strings and `status` an integer. An
entry that breaks this was hand-edited or written by a tool that skipped the gate. Findings point
at the line where the entry starts.

Failing example:

    [{"id": "src-001", "url": "https://www.sec.gov/x", "title": "10-K", "fetched_at": "last Tuesday"}]

Passing example:

    [{"id": "src-001", "url": "https://www.sec.gov/x", "canonical_url": "https://www.sec.gov/x",
      "title": "10-K", "fetched_at": "2025-05-01T09:30:00Z", "body_excerpt": "…", "summary": "…",
      "retrieval_query": "acme 10-k", "retrieval_tool": "tavily"}]
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.models import Corpus, Hit, Location

ID = "C001"
NAME = "schema"
STAGE = "corpus"
SEVERITY = "error"
VERDICT = "corpus"
BLOCKS_APPEND = True  # harvest refuses to append to a corpus with an error here
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}

REQUIRED = ("id", "url", "canonical_url", "title", "fetched_at", "body_excerpt", "summary", "retrieval_query",
            "retrieval_tool")
NON_EMPTY = ("id", "url", "canonical_url", "fetched_at")
OPTIONAL_STR = ("final_url", "content_hash", "section", "snippet")


def parse_timestamp(value: str) -> dt.datetime | None:
    """An ISO-8601 date or timestamp (a trailing Z allowed), else None."""
    try:
        return dt.datetime.fromisoformat(value.strip())
    except ValueError:
        return None


def record_location(corpus: Corpus, index: int) -> Location:
    line = corpus.lines[index] if index < len(corpus.lines) else 1
    return Location(corpus.path, line, 1)


def record_problems(record: Mapping[str, Any]) -> Iterator[str]:
    """Every way one raw corpus record breaks the schema."""
    for key in REQUIRED:
        if key not in record:
            yield f"missing required field {key!r}"
        elif not isinstance(record[key], str):
            yield f"field {key!r} must be a string, got {type(record[key]).__name__}"
        elif key in NON_EMPTY and not record[key].strip():
            yield f"field {key!r} is empty"
    for key in OPTIONAL_STR:
        if record.get(key) is not None and not isinstance(record[key], str):
            yield f"field {key!r} must be a string, got {type(record[key]).__name__}"
    status = record.get("status")
    if status is not None and (isinstance(status, bool) or not isinstance(status, int)):
        yield f"field 'status' must be an integer HTTP status, got {status!r}"
    fetched = record.get("fetched_at")
    if isinstance(fetched, str) and fetched.strip() and parse_timestamp(fetched) is None:
        yield f"fetched_at {fetched!r} is not an ISO-8601 timestamp"


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Hit]:
    for index, record in enumerate(corpus.records):
        label = record.get("id") if isinstance(record.get("id"), str) and record.get("id") else f"entry {index + 1}"
        for problem in record_problems(record):
            yield Hit(f"{label}: {problem}", record_location(corpus, index), str(record.get("url") or ""),
                      evidence=problem)
