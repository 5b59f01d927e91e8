"""A `[src-NNN]` citation whose ID is not in the corpus: a source the writer made up.

Writers cite corpus entries by ID only. An ID the corpus does not hold — `[src-047]` in a corpus
that ends at `src-031` — is the ID-shaped version of a fabricated URL. Runs when a corpus is given
(`citecheck audit --corpus sourced_corpus.json`, and always inside `citecheck write`).

Failing example (corpus holds src-001 … src-031):

    Acme's CAC payback is 9 months [src-047].

Passing example:

    Acme's CAC payback is 9 months [src-012].
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.models import Hit

ID = "M006"
NAME = "unknown-source-id"
STAGE = "memo"
SEVERITY = "error"
VERDICT = "unknown-id"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def check(memo: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    if memo.corpus is None:
        return
    known = {sid.casefold() for sid in memo.corpus.by_id()}
    for marker in memo.document.markers:
        if marker.kind == "source-id" and not marker.in_code and marker.value.casefold() not in known:
            yield Hit(f"[{marker.value}] is not in the corpus ({memo.corpus.path}): an invented source ID",
                      marker.location, evidence=marker.value)
