"""References without an identifier, to be judged by registry search: reference-list items and
footnote definitions of a memo, and bibliography entries (`.bib`, CSL) without a DOI or arXiv ID.
Entries with one are references like any other identifier (`bib_references`).

Which memo text is a reference (prose must never be mistaken for one):
- a block (list item, numbered or `[1]` item, an APA/Chicago line opening with `Surname, I.`, or a
  paragraph) under a heading that names a reference list (References, Bibliography, Sources, Works
  cited, Literature, …), whose claim has a title of three words or more and authors or a year;
- a footnote definition anywhere whose claim has authors, a year and a title (a footnote that reads
  "Acme 10-K, 2023" is not searched);
- never a block that holds an identifier (those are looked up by it) or another URL (the page is
  fetched and judged as a page), nor anything in code.
The claim is read by `citecheck.scholarly.claims.reference_claim` (APA, IEEE, Chicago, Harvard).
A bibliography entry is searched when it has a title and is not of a web kind (`online`, `webpage`,
`www`, or `misc` with a URL and no venue: its URL is the source).
"""
from __future__ import annotations

import re

from citecheck.models import BibEntry, Bibliography, Document, Location
from citecheck.scholarly.claims import reference_claim
from citecheck.scholarly.compare import surname
from citecheck.scholarly.ids import SEARCH, TEXT_PATTERN, Identifier, arxiv_id, clean_doi, from_url
from citecheck.scholarly.records import Claim
from citecheck.scholarly.references import (
    _FOOTNOTE,
    _ITEM_START,
    Reference,
    _block,
    _lines,
    _sections,
    strip_identifiers,
)

_URL = re.compile(r"https?://|\bwww\.", re.IGNORECASE)
_WEB_TYPES = frozenset({"online", "webpage", "www", "electronic", "post", "post-weblog"})
MIN_TITLE_WORDS = 2


def search_identifier(claim: Claim) -> Identifier:
    """The stand-in identifier of a reference found by search: "title|first surname|year"."""
    first = surname(claim.authors[0]) if claim.authors else ""
    return Identifier(SEARCH, f"{claim.title}|{first}|{claim.year or ''}")


def search_terms(ident: Identifier) -> tuple[str, str, int | None]:
    """(title, first author's folded surname, year) of a search identifier."""
    title, _, rest = ident.value.partition("|")
    first, _, year = rest.partition("|")
    return title, first, int(year) if year.isdigit() else None


def unlinked_references(doc: Document) -> tuple[Reference, ...]:
    """The memo's reference items and footnote definitions without an identifier (module doc)."""
    lines = doc.text.splitlines()
    sections = _sections(doc, len(lines))
    out: list[Reference] = []
    for index, line, in_code in _lines(lines):
        if in_code or not line.strip():
            continue
        listed = index < len(sections) and sections[index][1]
        footnote = bool(_FOOTNOTE.match(line))
        starts = footnote or _ITEM_START.match(line) or index == 0 or not lines[index - 1].strip()
        if not (listed or footnote) or not starts or line.lstrip().startswith("#"):
            continue
        block = _block(lines, index)
        if TEXT_PATTERN.search(block) or _URL.search(block):
            continue
        claim = reference_claim(strip_identifiers(block))
        if not _searchable(claim, strict=not listed):
            continue
        column = len(line) - len(line.lstrip()) + 1
        out.append(Reference(search_identifier(claim), Location(doc.path, index + 1, column), claim, "",
                             sections[index][0] if index < len(sections) else "", True))
    return tuple(out)


def _searchable(claim: Claim, strict: bool) -> bool:
    if len(claim.title.split()) < MIN_TITLE_WORDS:
        return False
    return bool(claim.authors and claim.year) if strict else bool(claim.authors or claim.year)


def bib_references(bib: Bibliography) -> tuple[Reference, ...]:
    """Every entry of a bibliography as a reference: by its DOI or arXiv ID, else by search."""
    out = []
    for entry in bib.entries:
        claim = Claim(title=entry.title, authors=entry.authors, year=entry.year, source=entry.key)
        ident = _entry_identifier(entry, claim)
        if ident is not None:
            out.append(Reference(ident, entry.location, claim, "", entry.key, True))
    return tuple(out)


def _entry_identifier(entry: BibEntry, claim: Claim) -> Identifier | None:
    doi = clean_doi(entry.doi)
    if doi:
        return Identifier("doi", doi)
    if entry.arxiv:
        found = arxiv_id(entry.arxiv)
        if found is not None:
            return found
    named = from_url(entry.url) if entry.url else None  # url = {https://doi.org/10.…} names the identifier
    if named is not None:
        return named
    web = entry.type.lower() in _WEB_TYPES or (entry.type.lower() == "misc" and entry.url and not entry.venue)
    if web or len(claim.title.split()) < MIN_TITLE_WORDS:
        return None
    return search_identifier(claim)
