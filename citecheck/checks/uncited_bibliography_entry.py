"""A bibliography entry the memo never cites: a source that supports nothing written.

A `.bib` file assembled with an LLM's help collects entries that no sentence uses, and an entry left
behind after an edit is a source whose claim was deleted. Each entry of the memo's bibliography
that no `[@key]` or in-text `@key` cites, and that the front matter's `nocite:` does not list (`@*`
lists all), is reported at its `@type{key,` line. Info by default: shared bibliographies are
normal; raise the severity to keep a memo's bibliography to what it cites.

Failing example (`refs.bib` holds `doe2020` and `lee2019`):

    Ocean heat content rose 40% [@doe2020].

Passing example:

    Ocean heat content rose 40% [@doe2020; @lee2019].
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.extract.pandoc import bibliography_refs
from citecheck.models import Hit

ID = "M013"
NAME = "uncited-bibliography-entry"
STAGE = "memo"
SEVERITY = "info"
VERDICT = "memo"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def check(memo: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    if not memo.bibliographies:
        return
    nocite = bibliography_refs(memo.document.front_matter).nocite
    if "*" in nocite:
        return
    cited = {m.value for m in memo.document.markers if m.kind in ("citation", "in-text-citation") and not m.in_code}
    seen: set[str] = set()
    for bib in memo.bibliographies:
        for entry in bib.entries:
            if entry.key in cited or entry.key in nocite or entry.key in seen:
                continue
            seen.add(entry.key)
            yield Hit(f"bibliography entry {entry.key!r} is not cited in {memo.document.path}", entry.location,
                      evidence=entry.key)
