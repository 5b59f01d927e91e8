"""A `<needs-source claim="…"/>` marker: a claim the writer could not back with a corpus source.

`citecheck write` turns a citation of an unknown source ID into this marker instead of letting a
made-up source through, and writers are told to emit it themselves when no source supports a
claim. Each marker is a claim a reviewer must source or cut before the memo ships. Info by
default (the `strict` preset makes it a warning).

Failing example:

    Acme holds 40% of the US market <needs-source claim="Acme holds 40% of the US market"/>.

Passing example:

    Acme holds 40% of the US market [src-004].
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.models import Hit, Marker

ID = "M003"
NAME = "needs-source-marker"
STAGE = "memo"
SEVERITY = "info"
VERDICT = "needs-source"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}

KIND = "needs-source"


def markers_of(memo: Any, kind: str) -> Iterator[Marker]:
    """The memo's markers of one kind, outside code."""
    return (m for m in memo.document.markers if m.kind == kind and not m.in_code)


def check(memo: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    for marker in markers_of(memo, KIND):
        if marker.value.startswith("reason="):
            yield Hit(f"a citation was removed here ({marker.value[7:]}): the claim needs a source",
                      marker.location, evidence=marker.value)
            continue
        claim = f": {marker.value!r}" if marker.value else " (no claim given)"
        yield Hit(f"unsourced claim{claim}", marker.location, evidence=marker.value)
