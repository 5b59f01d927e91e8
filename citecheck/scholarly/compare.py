"""A claim against a record, field by field: which claimed fields the record contradicts.

Title: equal after folding (case, accents, punctuation, LaTeX, markup) within a rapidfuzz ratio of
`title_ratio` (0.90) to any title the record gives, with or without its subtitle, or a prefix of it
when the claim is cut short with "…"; and no word of four or more letters that none of the record's
titles has (a near-miss title swaps one word and stays above any ratio). Authors: each claimed author's surname must be one of the
record's (given names too: registries swap them for some names); placeholder names never pass.
Year: within `year_tolerance` (1) of any year the record gives (print, online, issued, versions),
and never after `this_year`.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from citecheck.scholarly.records import Author, Claim, Record
from citecheck.scholarly.text import fold, main_title

PLACEHOLDER_SURNAMES = frozenset({"doe", "roe", "author", "authors", "lastname", "surname", "placeholder", "anonymous",
                                  "nobody", "someone", "xxx", "tbd", "example", "name"})


# short words a writer may change in a title without citing another work
TITLE_STOPWORDS = frozenset({"with", "from", "that", "this", "into", "over", "under", "using", "their", "about", "upon",
                             "between", "through", "toward", "towards", "when", "what", "which", "where", "does", "have",
                             "been", "there", "than", "then", "also", "some", "more", "most", "very", "versus"})


def _ratio(a: str, b: str) -> float:
    """rapidfuzz's ratio (0-100), imported with the first comparison (an offline audit makes none)."""
    from rapidfuzz import fuzz

    return float(fuzz.ratio(a, b))


@dataclass(frozen=True)
class Mismatch:
    """One field the record contradicts: what the memo says and what the record says."""

    field: str  # title | authors | year
    claimed: str
    recorded: str
    why: str = ""


def compare(claim: Claim, record: Record, *, title_ratio: float = 0.90, year_tolerance: int = 1,
            this_year: int = 9999, placeholders: Iterable[str] = PLACEHOLDER_SURNAMES,
            fields: Iterable[str] = ("title", "authors", "year")) -> list[Mismatch]:
    """The claimed fields `record` contradicts (empty: consistent, or nothing claimed)."""
    wanted = set(fields)
    out: list[Mismatch] = []
    why = title_problem(claim.title, record, title_ratio) if "title" in wanted and claim.title else ""
    if why:
        out.append(Mismatch("title", claim.title, record.title, "" if why == "a different title" else why))
    if "authors" in wanted and claim.authors and record.authors:
        why = authors_problem(claim.authors, record.authors, frozenset(placeholders))
        if why:
            out.append(Mismatch("authors", "; ".join(claim.authors) + (" et al." if claim.et_al else ""),
                                "; ".join(a.display for a in record.authors[:8]) + ("; …" if len(record.authors) > 8 else ""),
                                why))
    if "year" in wanted and claim.year is not None:
        why = year_problem(claim.year, record, year_tolerance, this_year)
        if why:
            out.append(Mismatch("year", str(claim.year), str(record.year or ""), why))
    return out


def title_matches(claimed: str, record: Record, ratio: float) -> bool:
    """Whether the claimed title is one of the record's titles (see `title_problem`)."""
    return not title_problem(claimed, record, ratio)


def title_problem(claimed: str, record: Record, ratio: float) -> str:
    """Why the claimed title is not the record's ('' when it is): too far from every title the
    record gives, with or without its subtitle (a venue the line ran into is not held against it),
    or close but with a word the record's titles do not have (a near-miss: "Deep Residual Networks"
    for "Deep Residual Learning")."""
    want = fold(claimed)
    if not want:
        return ""
    candidates = [c for title in dict.fromkeys([record.title, *record.titles]) if title
                  for c in dict.fromkeys((fold(title), fold(main_title(title)))) if c]
    if not candidates:
        return ""
    venue = fold(record.venue)
    wants = [want, want[:-len(venue)].strip()] if venue and want.endswith(venue) and want != venue else [want]
    cut = claimed.rstrip().endswith(("…", "..."))
    close = [w for w in wants if any(_ratio(w, c) >= ratio * 100 or (cut and len(w) >= 12 and c.startswith(w))
                                     for c in candidates)]
    if not close:
        return "a different title"
    known = set(" ".join(candidates).split())
    joined = "".join(candidates).replace(" ", "")
    extra = [w for w in close[-1].split() if len(w) >= 4 and w not in TITLE_STOPWORDS and w not in known
             and w not in joined and not any(len(k) >= 4 and _ratio(w, k) >= 85 for k in known)]
    return f"{', '.join(repr(w) for w in extra)} not in the record's title" if extra else ""


def surname(written: str) -> str:
    """The folded surname of an author as written: 'Smith, J.', 'J. Smith', 'Smith J', 'van der Berg, A.'."""
    text = written.strip()
    if "," in text:
        return _last_word(fold(text.split(",", 1)[0]))
    words = text.split()
    if len(words) >= 2 and re.fullmatch(r"[A-Z]{1,3}", words[-1]):  # Vancouver/PubMed: 'Smith JA'
        return _last_word(fold(" ".join(words[:-1])))
    return _last_word(fold(text))


def _last_word(folded: str) -> str:
    """The last word of a family name ('maaten' of 'van der maaten', 'le' of 'le')."""
    words = [w for w in folded.split() if len(w) > 1] or folded.split()
    return words[-1] if words else ""


def record_names(author: Author) -> set[str]:
    """The folded name words an author of the record may be cited by (family first, given too)."""
    names: set[str] = set()
    if author.family:
        names.update(fold(author.family).split())
        names.update(w for w in fold(author.given).split() if len(w) > 1)
    elif author.literal:
        literal = author.literal
        if "," in literal:
            names.update(fold(literal.split(",", 1)[0]).split())
            names.update(w for w in fold(literal.split(",", 1)[1]).split() if len(w) > 1)
        else:
            names.update(w for w in fold(literal).split() if len(w) > 1)
    return names


def _known(name: str, names: set[str]) -> bool:
    if name in names:
        return True
    return len(name) >= 5 and any(len(n) >= 5 and _ratio(name, n) >= 88 for n in names)


def authors_problem(claimed: Iterable[str], recorded: Iterable[Author], placeholders: frozenset[str]) -> str:
    """Why the claimed authors do not fit the record ('' when they do)."""
    names: set[str] = set()
    for author in recorded:
        names |= record_names(author)
    claimed = list(claimed)
    surnames = [surname(c) for c in claimed]
    for written, name in zip(claimed, surnames, strict=True):
        if name in placeholders and name not in names:
            return f"placeholder author name {written!r}"
    if surnames and surnames[0] and not _known(surnames[0], names):
        return f"first author {claimed[0]!r} is not an author of the record"
    absent = [c for c, s in zip(claimed, surnames, strict=True) if s and not _known(s, names)]
    if absent:
        return f"{', '.join(repr(a) for a in absent)} not among the record's authors"
    return ""


def year_problem(claimed: int, record: Record, tolerance: int, this_year: int) -> str:
    """Why the claimed year does not fit the record ('' when it does)."""
    if claimed > this_year:
        return f"{claimed} is in the future"
    years = set(record.years) | ({record.year} if record.year else set())
    if not years:
        return ""
    if min(abs(claimed - y) for y in years) > tolerance:
        return f"the record's year is {record.year or min(years)}"
    return ""
