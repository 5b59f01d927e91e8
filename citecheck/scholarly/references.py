"""The scholarly references of a document: each identifier (in a link's URL or written as text) with
where it sits and what the memo claims about the work (`Reference`).

The claim is read from the link text and, when the identifier sits in a reference line — a
footnote definition, a line or list item under a References/Bibliography/Sources heading, or a
line that opens with an author list and a year — from that line (one list item, footnote or
paragraph line; see `citecheck.scholarly.claims`). An identifier in running prose claims only what
its link text claims.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from citecheck.models import Document, Location
from citecheck.scholarly.claims import link_claim, reference_claim
from citecheck.scholarly.ids import TEXT_PATTERN, Identifier, from_text, from_url
from citecheck.scholarly.records import Claim

REFERENCE_HEADINGS = re.compile(
    r"reference|bibliograph|sources|works\s+cited|literature|citations|further\s+reading|notes|quellen|literatur",
    re.IGNORECASE)
_ITEM_START = re.compile(r"^\s*(?:[-*+]\s|\d{1,3}[.)]\s|\[\^[^\]]+\]:|\[\d{1,3}\]|#{1,6}\s|<li\b|[A-Z][\w'’\-]+,\s+[A-Z])")
_FOOTNOTE = re.compile(r"^\s*\[\^[^\]]+\]:")
_REMOVE = [re.compile(p, re.IGNORECASE) for p in (
    r"!?\[([^\]]*)\]\(\s*<?[^)\s]*>?(?:\s+\"[^\"]*\")?\s*\)",  # Markdown link → its text (kept as group 1)
    r"<?https?://[^\s>]+>?", r"\bdoi:\s*\S+", r"\bdoi\s+10\.\S+", r"(?<![\w/.])10\.\d{4,9}/[^\s\]]+",
    r"\barxiv:\s*\S+", r"\bpmid:?\s*\d+", r"\bpmcid:?\s*\S+", r"\b(?:available\s+(?:at|from)|retrieved\s+from|url)\s*:?",
    r"\[online\]", r"\(\s*\)")]
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+\1")
MAX_BLOCK = 1500


@dataclass(frozen=True)
class Reference:
    """One identifier occurrence, its claim, and where it is (the link's URL when it came from one)."""

    identifier: Identifier
    location: Location
    claim: Claim
    url: str = ""
    section: str = ""
    in_reference_list: bool = False


def references(doc: Document) -> tuple[Reference, ...]:
    """Every scholarly identifier of `doc` in document order (links first on a line, then text)."""
    lines = doc.text.splitlines()
    sections = _sections(doc, len(lines))
    out: list[Reference] = []
    seen: set[tuple[int, str]] = set()
    for link in doc.links:
        if link.in_code:
            continue
        ident = from_url(link.url)
        if ident is None:
            continue
        index = link.location.line - 1
        claim, listed = _claim(lines, index, sections, link.text)
        out.append(Reference(ident, link.location, claim, link.url, link.section, listed))
        seen.add((link.location.line, ident.key))
    for index, line, in_code in _lines(lines):
        if in_code:
            continue
        spans = [m.span() for m in _CODE_SPAN.finditer(line)]
        for match in TEXT_PATTERN.finditer(line):
            ident = from_text(match)
            if ident is None or (index + 1, ident.key) in seen or any(a <= match.start() < b for a, b in spans):
                continue
            seen.add((index + 1, ident.key))
            claim, listed = _claim(lines, index, sections, "")
            out.append(Reference(ident, Location(doc.path, index + 1, match.start() + 1), claim, "",
                                 sections[index][0] if index < len(sections) else "", listed))
    return tuple(sorted(out, key=lambda r: (r.location.line, r.location.column)))


def _lines(lines: list[str]) -> list[tuple[int, str, bool]]:
    """(index, line, inside a fenced code block)."""
    out, fence = [], ""
    for index, line in enumerate(lines):
        stripped = line.lstrip()
        marker = stripped[:3]
        if marker in ("```", "~~~"):
            fence = "" if fence == marker else (fence or marker)
            out.append((index, line, True))
            continue
        out.append((index, line, bool(fence)))
    return out


def _sections(doc: Document, count: int) -> list[tuple[str, bool]]:
    """Per line: the heading it sits under and whether that heading names a reference list."""
    marks = sorted((h.location.line, h.text) for h in doc.headings)
    out: list[tuple[str, bool]] = []
    current = ("", False)
    pos = 0
    for line in range(1, count + 1):
        while pos < len(marks) and marks[pos][0] <= line:
            current = (marks[pos][1], bool(REFERENCE_HEADINGS.search(marks[pos][1])))
            pos += 1
        out.append(current)
    return out


def _claim(lines: list[str], index: int, sections: list[tuple[str, bool]], link_text: str) -> tuple[Claim, bool]:
    """The claim about the identifier on line `index`, and whether its line is a reference line."""
    block = _block(lines, index)
    under_heading = index < len(sections) and sections[index][1]
    from_block = reference_claim(strip_identifiers(block)) if block else Claim()
    listed = bool(_FOOTNOTE.match(block)) or under_heading or _reference_shaped(from_block, block)
    from_link = link_claim(link_text, title_like_only=not listed) if link_text else Claim()
    if not listed:
        return from_link, False
    # a title-like link text is the most explicit claim of the title (the line's quotes may be inside it)
    return Claim(title=from_link.title or from_block.title, authors=from_block.authors or from_link.authors,
                 et_al=from_block.et_al if from_block.authors else from_link.et_al,
                 year=from_block.year or from_link.year, source=from_block.source), True


def _reference_shaped(claim: Claim, block: str) -> bool:
    """A line outside any reference heading that still reads as a reference: authors, a year and a
    title, in a short line."""
    return bool(claim.authors and claim.year and claim.title) and len(block) <= 600


def _block(lines: list[str], index: int) -> str:
    """The list item, footnote definition or paragraph line holding line `index` (joined)."""
    if index >= len(lines):
        return ""
    start = index
    while start > 0 and lines[start - 1].strip() and not _ITEM_START.match(lines[start]):
        start -= 1
    end = index
    while end + 1 < len(lines) and lines[end + 1].strip() and not _ITEM_START.match(lines[end + 1]):
        end += 1
    return " ".join(line.strip() for line in lines[start:end + 1])[:MAX_BLOCK]


def strip_identifiers(text: str) -> str:
    """A reference line without its URLs and identifiers (Markdown links keep their text)."""
    text = _REMOVE[0].sub(r"\1", text)
    for pattern in _REMOVE[1:]:
        text = pattern.sub(" ", text)
    return " ".join(text.split()).strip(" ,;")
