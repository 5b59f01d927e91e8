"""Two entries of one bibliography for the same work, under different keys.

Citations of one work split over two keys (and two renderings in the reference list), and a copy
that differs from its twin in title or year means one of them is wrong. Entries are the same work
when they give the same DOI or arXiv ID, or the same title (case, accents, punctuation and LaTeX
ignored) with the same year. The later entry is reported at its `@type{key,` line.

Failing example (`refs.bib`):

    @article{smith2021, title = {Ocean Heat Content}, doi = {10.1000/ohc.2021}, year = 2021}
    @article{smith21, title = {Ocean heat content}, doi = {10.1000/OHC.2021}, year = 2021}

Passing example:

    @article{smith2021, title = {Ocean Heat Content}, doi = {10.1000/ohc.2021}, year = 2021}
    @article{smith2022, title = {Ocean Heat Content, Revisited}, doi = {10.1000/ohc.2022}, year = 2022}
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.models import Hit

ID = "B002"
NAME = "duplicate-bibliography-entry"
STAGE = "bibliography"
SEVERITY = "warning"
VERDICT = "corpus"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def check(bibliography: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    first: dict[tuple[str, str], Any] = {}
    for entry in bibliography.entries:
        twin = None
        for identity in _identities(entry):
            twin = twin or first.get(identity)
            first.setdefault(identity, entry)
        if twin is not None and twin.key.casefold() != entry.key.casefold():  # a repeated key is B001's
            yield Hit(f"entry {entry.key!r} is the same work as {twin.key!r} (line {twin.location.line})",
                      entry.location, evidence=f"{twin.key} = {entry.key}")


def _identities(entry: Any) -> list[tuple[str, str]]:
    out = [("doi", entry.doi)] if entry.doi else []
    if entry.arxiv:
        out.append(("arxiv", entry.arxiv))
    title = _fold(entry.title)
    if len(title) >= 12 and entry.year:
        out.append(("title", f"{title}|{entry.year}"))
    return out


def _fold(text: str) -> str:
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(re.sub(r"[\W_]+", " ", bare.lower()).split())
