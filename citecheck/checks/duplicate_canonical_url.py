"""Two corpus entries for the same page: one source with two IDs.

Re-harvesting must keep one ID per canonical URL; a duplicate splits the citations of one source
over two IDs and inflates the source count. Entries are compared by `citecheck.urls.dedupe_key` of
their `canonical_url` (or `url` when empty): tracking parameters, fragment, scheme, `www.` and a
trailing slash do not make a page different. The later entry is reported.

Failing example:

    [{"id": "src-001", "canonical_url": "https://www.reuters.com/markets/acme/", ...},
     {"id": "src-002", "canonical_url": "http://reuters.com/markets/acme?utm_source=x", ...}]

Passing example:

    [{"id": "src-001", "canonical_url": "https://www.reuters.com/markets/acme/", ...},
     {"id": "src-002", "canonical_url": "https://www.reuters.com/markets/acme-q2/", ...}]
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.checks.schema import record_location
from citecheck.models import Corpus, Hit
from citecheck.urls import dedupe_key

ID = "C002"
NAME = "duplicate-canonical-url"
STAGE = "corpus"
SEVERITY = "error"
VERDICT = "corpus"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Hit]:
    first: dict[str, str] = {}
    for index, source in enumerate(corpus.sources):
        url = source.canonical_url or source.url
        if not url.strip():
            continue
        key = dedupe_key(url)
        if key in first:
            yield Hit(f"{source.id or 'entry'} has the same canonical URL as {first[key]}: one source, two IDs",
                      record_location(corpus, index), url, evidence=first[key])
        else:
            first[key] = source.id or f"entry {index + 1}"
