"""A corpus ID that is malformed or reused: citations would point at the wrong source.

IDs are `src-` plus a number zero-padded to at least three digits (`src-007`, `src-1042`), unique
in the corpus (case-insensitively). `src-7`, `src-0007`, `SRC_007` or a second `src-007` break the
`[src-NNN]` citations that writers and `citecheck write` rely on.

Failing example:

    [{"id": "src-7", ...}, {"id": "src-008", ...}, {"id": "src-008", ...}]

Passing example:

    [{"id": "src-007", ...}, {"id": "src-008", ...}, {"id": "src-1000", ...}]
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.checks.schema import record_location
from citecheck.models import Corpus, Hit

ID = "C004"
NAME = "id-integrity"
STAGE = "corpus"
SEVERITY = "error"
VERDICT = "corpus"
BLOCKS_APPEND = True  # harvest refuses to append to a corpus with an error here
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}

_ID_RE = re.compile(r"^src-(?P<n>[0-9]{3,})$")


def id_problem(source_id: str) -> str:
    """Why `source_id` is not a canonical `src-NNN` ID, or ''."""
    m = _ID_RE.match(source_id)
    if not m:
        return f"{source_id!r} is not of the form src-NNN (three or more digits)"
    canonical = f"src-{int(m.group('n')):03d}"
    return "" if canonical == source_id else f"{source_id!r} is not canonically padded (expected {canonical!r})"


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Hit]:
    seen: dict[str, int] = {}
    for index, source in enumerate(corpus.sources):
        if not source.id:
            continue  # C001 reports a missing id
        loc = record_location(corpus, index)
        problem = id_problem(source.id)
        if problem:
            yield Hit(problem, loc, source.url, evidence=source.id)
        key = source.id.casefold()
        if key in seen:
            yield Hit(f"{source.id!r} is used again (first at line {seen[key]}): IDs must be unique", loc,
                      source.url, evidence=source.id)
        else:
            seen[key] = loc.line
