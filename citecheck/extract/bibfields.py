"""What a bibliography entry says about its work, from its fields (BibTeX or CSL): title, authors,
year, DOI, URL, arXiv ID and venue, with LaTeX markup turned into text."""
from __future__ import annotations

import re
from collections.abc import Mapping

from citecheck.models import BibEntry, Location

_YEAR = re.compile(r"(?<!\d)(1[5-9]\d{2}|20\d{2})(?!\d)")
_DOI = re.compile(r"10\.\d{4,9}/\S+")
_ARXIV_NEW = re.compile(r"(?<![\w.])(\d{4}\.\d{4,5})(v\d+)?(?![\w.])")
_ARXIV_OLD = re.compile(r"(?<![\w.])([a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?")
_LATEX_HINT = re.compile(r"[\\$]")
VENUE_FIELDS = ("journal", "journaltitle", "booktitle", "container-title", "publisher", "institution",
                "school", "organization", "howpublished")


def entry_from_fields(key: str, kind: str, location: Location, fields: Mapping[str, str],
                      authors: tuple[str, ...]) -> BibEntry:
    """A `BibEntry` from lower-cased field names (BibTeX's or CSL's) and the author names."""
    return BibEntry(key=key, type=kind, location=location, title=text_of(fields.get("title", "")),
                    authors=tuple(text_of(a) for a in authors), year=year_of(fields),
                    doi=doi_of(fields.get("doi", "")), url=fields.get("url", "").strip(), arxiv=arxiv_of(fields),
                    venue=text_of(next((fields[f] for f in VENUE_FIELDS if fields.get(f)), "")),
                    fields=dict(fields))


def text_of(value: str) -> str:
    """Readable text of a field: LaTeX accents and commands converted, protective braces dropped."""
    if _LATEX_HINT.search(value):
        from pylatexenc.latex2text import LatexNodes2Text  # bibtexparser's own dependency

        try:
            value = str(LatexNodes2Text(math_mode="text").latex_to_text(value))
        except Exception:  # noqa: BLE001 - odd LaTeX keeps its text as written
            pass
    return " ".join(value.replace("{", "").replace("}", "").split())


def year_of(fields: Mapping[str, str]) -> int | None:
    for name in ("year", "date", "issued"):
        found = _YEAR.search(fields.get(name, ""))
        if found:
            return int(found.group(1))
    return None


def doi_of(value: str) -> str:
    """The DOI of a `doi` field (`10.…`, `doi:10.…`, `https://doi.org/10.…`), lower-cased."""
    found = _DOI.search(value.replace("\\_", "_"))
    return found.group(0).rstrip(".,;").lower() if found else ""


def arxiv_of(fields: Mapping[str, str]) -> str:
    """The arXiv ID an entry names: `eprint` with `archiveprefix`/`eprinttype` arXiv, an
    `arxiv.org/abs/…` URL, or a `journal = {arXiv preprint arXiv:…}`."""
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").lower()
    candidates = [fields.get("eprint", "")] if prefix == "arxiv" else []
    candidates += [fields.get("url", ""), fields.get("journal", ""), fields.get("note", ""),
                   fields.get("howpublished", "")]
    for value in candidates:
        if prefix != "arxiv" and "arxiv" not in value.lower():
            continue
        found = _ARXIV_NEW.search(value) or _ARXIV_OLD.search(value)
        if found:
            return found.group(1)
    return ""
