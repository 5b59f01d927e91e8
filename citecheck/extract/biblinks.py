"""The URLs written in a bibliography's entries, as links at their place in the file
(docs/bibliographies.md): BibTeX/BibLaTeX `url = {…}`, `\\url{…}` or `\\href{…}{…}` in
`howpublished`, `note`, `addendum`, and CSL's `URL`. An audit checks them like a memo's links (the
U rules offline; fetched and judged by the page rules online).

Not a link: the `doi` field (the entry's identifier, judged by its registry). A DOI, arXiv or PubMed
URL is a link here, and the audit leaves it to the registries (`citecheck.audit`), as in a memo.
LaTeX escapes in a URL (`\\_`, `\\%`, `\\#`, `\\&`, `\\~`) are undone; a URL is placed at the line and
column where it is written inside its entry (else at the entry's `@type{key,` line).
"""
from __future__ import annotations

import re

from citecheck.models import BibEntry, Link, LinkKind, Location

URL_FIELDS = ("url", "howpublished", "note", "addendum")
_IN_FIELD = re.compile(r"\\(?:url|href)\s*\{([^{}\s]+)\}|(?<![\w/])(https?://[^\s{}\"'<>]+)")
_ESCAPES = (("\\_", "_"), ("\\%", "%"), ("\\#", "#"), ("\\&", "&"), ("\\~", "~"), ("\\textasciitilde{}", "~"))
_TRAILING = ".,;:)]"


def entry_urls(entry: BibEntry) -> list[tuple[str, str]]:
    """(URL, as written) for each URL of the entry's URL fields, in field order, without repeats."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for name in URL_FIELDS:
        value = entry.fields.get(name, "")
        matches = [m.group(1) or m.group(2) for m in _IN_FIELD.finditer(value)]
        if name == "url" and not matches and value.strip():
            matches = [value.strip()]  # a url field holds a URL as written, without \url{}
        for written in matches:
            url = unescape(written).rstrip(_TRAILING) if written.startswith(("http://", "https://")) else ""
            if url and url not in seen:
                seen.add(url)
                out.append((url, written))
    return out


def unescape(written: str) -> str:
    url = written
    for escaped, plain in _ESCAPES:
        url = url.replace(escaped, plain)
    return url


def bib_links(path: str, entries: tuple[BibEntry, ...], text: str) -> tuple[Link, ...]:
    """Every entry's URLs as links (see the module doc), placed where the file writes them."""
    lines = text.split("\n")
    starts = sorted(e.location.line for e in entries if e.location.path == path)
    out = []
    for entry in entries:
        if entry.location.path != path:
            continue
        first = entry.location.line - 1
        following = [line for line in starts if line > entry.location.line]
        last = following[0] - 1 if following else len(lines)
        for url, written in entry_urls(entry):
            where = _place(lines, first, last, written, url) or Location(path, entry.location.line,
                                                                         entry.location.column)
            out.append(Link(url, Location(path, where.line, where.column), LinkKind.BIBLIOGRAPHY, entry.title,
                            raw=written, section=f"@{entry.key}"))
    return tuple(out)


def _place(lines: list[str], first: int, last: int, *spellings: str) -> Location | None:
    for index in range(max(first, 0), min(last, len(lines))):
        for spelling in spellings:
            column = lines[index].find(spelling)
            if column >= 0:
                return Location("", index + 1, column + 1)
    return None
