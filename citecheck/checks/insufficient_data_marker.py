"""An `<insufficient-data/>` marker: the writer said the corpus cannot answer this point.

Honest, and exactly what a writer should do instead of inventing a figure — but each marker is a
gap a reviewer must see before the memo ships. Info by default (the `strict` preset makes it a
warning).

Failing example:

    Gross margin by segment: <insufficient-data reason="no segment reporting in the corpus"/>

Passing example:

    Gross margin by segment: hardware 31%, software 78% [src-009].
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.checks.needs_source_marker import markers_of
from citecheck.models import Hit

ID = "M004"
NAME = "insufficient-data-marker"
STAGE = "memo"
SEVERITY = "info"
VERDICT = "memo"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}

KIND = "insufficient-data"


def check(memo: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    for marker in markers_of(memo, KIND):
        why = f": {marker.value!r}" if marker.value else ""
        section = f" in section {marker.section!r}" if marker.section else ""
        yield Hit(f"insufficient data{section}{why}", marker.location, evidence=marker.value)
