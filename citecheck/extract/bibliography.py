"""Bibliographies: loading a file by its kind (BibTeX, CSL-JSON, CSL-YAML), and finding the ones
each memo cites from.

A memo's bibliography is, in order: the files its front matter names (`bibliography:`, a path or a
list, relative to the memo, else to the working directory, as Quarto and Pandoc read them) and the
`references:` items of its front matter; without either, the files of `--bibliography` or the
`bibliography:` config key. A named file that cannot be read is an E003 problem (the memo's keys are
then not judged against a partial bibliography).
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from citecheck.errors import InputError
from citecheck.extract.pandoc import bibliography_refs
from citecheck.extract.walk import Problem
from citecheck.models import Bibliography, Document

BIBTEX_EXT = (".bib", ".bibtex", ".biblatex")
CSL_JSON_EXT = (".json",)
CSL_YAML_EXT = (".yaml", ".yml")


def parse_bibliography(path: str, text: str) -> Bibliography:
    """A bibliography from its text, by extension (then by content: `@` opens BibTeX), with the URLs
    its entries write as links."""
    from citecheck.extract.biblinks import bib_links

    bib = _parse(path, text)
    links = bib_links(path, bib.entries, text)
    return replace(bib, links=links) if links else bib


def _parse(path: str, text: str) -> Bibliography:
    from citecheck.extract.bibtex import load_bibtex
    from citecheck.extract.csl import load_csl_json, load_csl_yaml

    ext = Path(path).suffix.lower()
    if ext in CSL_JSON_EXT:
        return load_csl_json(path, text)
    if ext in CSL_YAML_EXT:
        return load_csl_yaml(path, text)
    if ext in BIBTEX_EXT or text.lstrip().startswith(("@", "%")):
        return load_bibtex(path, text)
    if text.lstrip().startswith(("[", "{")):
        return load_csl_json(path, text)
    return load_bibtex(path, text)


@dataclass
class MemoBibliographies:
    """Each memo's bibliographies (by memo path), every distinct one loaded once, and the files that
    could not be read."""

    by_memo: dict[str, tuple[Bibliography, ...]] = field(default_factory=dict)
    loaded: dict[str, Bibliography] = field(default_factory=dict)  # by resolved path
    problems: list[Problem] = field(default_factory=list)
    broken: set[str] = field(default_factory=set)  # memos whose bibliography is incomplete

    def unique(self) -> list[Bibliography]:
        return list(self.loaded.values())


def memo_bibliographies(documents: Iterable[Document], configured: Iterable[str], max_bytes: int,
                        known: Iterable[Bibliography] = ()) -> MemoBibliographies:
    """Load the bibliography of every memo that has one (see the module doc); `known` are those
    already read as inputs of the run (not read twice)."""
    from citecheck.extract.csl import csl_entries

    out = MemoBibliographies()
    for bib in known:
        out.loaded[_resolved(bib.path)] = bib
    fallback = tuple(configured)
    for doc in documents:
        refs = bibliography_refs(doc.front_matter)
        paths = [_relative(doc.path, p) for p in refs.files] if refs.files or refs.inline else list(fallback)
        bibs = [b for b in (_load(out, doc, p, max_bytes) for p in paths) if b is not None]
        if refs.inline:
            items = doc.front_matter.get("references") or []
            bibs.append(Bibliography(doc.path, "csl-yaml", tuple(csl_entries(doc.path, items, doc.text, False))))
        if bibs or paths:
            out.by_memo[doc.path] = tuple(bibs)
    return out


def _load(out: MemoBibliographies, doc: Document, path: str, max_bytes: int) -> Bibliography | None:
    key = _resolved(path)
    if key in out.loaded:
        return out.loaded[key]
    from citecheck.extract import read_text

    try:
        bib = parse_bibliography(path, read_text(path, max_bytes))
    except InputError as err:
        out.broken.add(doc.path)
        message = str(err).removeprefix(f"{path}: ")
        out.problems.append(Problem(path, f"bibliography of {doc.path}: {message}; its citation keys "
                                          "were not judged"))
        return None
    out.loaded[key] = bib
    return bib


def _relative(memo: str, written: str) -> str:
    """A front-matter path: beside the memo when it is there, else as written (the working directory)."""
    written = os.path.expanduser(written)
    if os.path.isabs(written) or memo in ("-", "<stdin>"):
        return written
    beside = os.path.join(os.path.dirname(memo), written)
    return beside if os.path.exists(beside) or not os.path.exists(written) else written


def _resolved(path: str) -> str:
    try:
        return str(Path(path).resolve())
    except OSError:
        return path



def load_bibliographies(paths: Iterable[str], max_bytes: int) -> tuple[Bibliography, ...]:
    """The bibliography files the user named (`--bibliography`, config); one that cannot be read is
    an InputError (one line, exit 2)."""
    from citecheck.extract import read_text

    return tuple(parse_bibliography(path, read_text(path, max_bytes)) for path in dict.fromkeys(paths))
