"""A corpus entry fetched too long ago: the page may have changed or gone since it was validated.

The gate's verdict is only as fresh as its fetch. Entries whose `fetched_at` is more than
`max_age_days` (default 30) before `today` (default: the current date) are reported; re-harvest
them. Unparseable timestamps are C001's business.

Failing example (today 2025-06-30):

    [{"id": "src-001", "fetched_at": "2025-04-02T10:00:00Z", ...}]

Passing example (today 2025-06-30):

    [{"id": "src-001", "fetched_at": "2025-06-20T10:00:00Z", ...}]
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.checks.hallucination_pattern import as_date
from citecheck.checks.schema import parse_timestamp, record_location
from citecheck.models import Corpus, Hit

ID = "C003"
NAME = "stale-fetch"
STAGE = "corpus"
SEVERITY = "warning"
VERDICT = "corpus"
DEFAULTS: dict[str, Any] = {"max_age_days": 30, "today": None}
OPTIONS = {"max_age_days": "days after which a fetch is stale",
           "today": "date that counts as today (YYYY-MM-DD; default: the current date)"}


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Hit]:
    today = as_date(options.get("today"))
    limit = float(options.get("max_age_days", 30))
    for index, source in enumerate(corpus.sources):
        fetched = parse_timestamp(source.fetched_at) if source.fetched_at else None
        if fetched is None:
            continue
        age = (today - fetched.date()).days
        if age > limit:
            yield Hit(f"{source.id or 'entry'} was fetched {age} days ago ({source.fetched_at}), more than "
                      f"{limit:g}: re-harvest it", record_location(corpus, index), source.url,
                      evidence=source.fetched_at)
