"""Two bibliography entries with one key: a citation that can mean either source.

Pandoc keeps one of them silently and BibTeX stops with "Repeated entry"; either way a `[@key]`
cites a source nobody chose. BibTeX compares keys without regard to case (`Smith2021` and
`smith2021` collide), so this rule does too. The later entry is reported at its `@type{key,` line.

Failing example (`refs.bib`):

    @article{smith2021, title = {Ocean heat content}, year = 2021}
    @article{smith2021, title = {Ocean heat uptake}, year = 2021}

Passing example:

    @article{smith2021a, title = {Ocean heat content}, year = 2021}
    @article{smith2021b, title = {Ocean heat uptake}, year = 2021}
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.models import Hit

ID = "B001"
NAME = "duplicate-citation-key"
STAGE = "bibliography"
SEVERITY = "error"
VERDICT = "corpus"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def check(bibliography: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    first: dict[str, Any] = {}
    for entry in bibliography.entries:
        folded = entry.key.casefold()
        if folded in first:
            earlier = first[folded]
            yield Hit(f"key {entry.key!r} is already used by the entry on line {earlier.location.line}"
                      f" ({earlier.key!r})", entry.location, evidence=entry.key)
        else:
            first[folded] = entry
