"""Which search result is the cited work: candidates validated field by field, never by rank alone.

A registry's search always returns something, so a candidate counts as the cited work only when
- its title (any of its titles, with or without the subtitle) equals the claimed one within a
  rapidfuzz ratio of `same_title` (0.90) after folding case, accents, punctuation and LaTeX; or
- its title is close (`near_title`, 0.75, token-set ratio: words dropped or reordered) and the
  claimed first author is one of its authors and the claimed year is within one of its years.
The second kind is the near-miss title (a word changed, a subtitle invented): the work is found, and
R002 reference-mismatch reports the title. A candidate that passes neither is another work, however
high the registry ranked it: "no registry knows this work" (R005), never "it does not exist".
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz

from citecheck.scholarly.compare import record_names
from citecheck.scholarly.records import Record
from citecheck.scholarly.text import fold, main_title


@dataclass(frozen=True)
class Candidate:
    """A search result and how close its title is to the claimed one (0-1)."""

    record: Record
    title_score: float
    same_work: bool


def title_score(claimed: str, record: Record) -> tuple[float, float]:
    """(ratio, token-set ratio), 0-1, of the claimed title against the record's closest title."""
    want = fold(claimed)
    best = (0.0, 0.0)
    for title in dict.fromkeys([record.title, *record.titles]):
        for candidate in (fold(title), fold(main_title(title))) if title else ():
            if candidate:
                best = max(best, (fuzz.ratio(want, candidate) / 100, fuzz.token_set_ratio(want, candidate) / 100))
    return best


def judge(title: str, first_author: str, year: int | None, record: Record, same_title: float = 0.90,
          near_title: float = 0.75) -> Candidate:
    """Whether `record` is the work claimed by (title, first author's folded surname, year)."""
    ratio, token_set = title_score(title, record)
    if ratio >= same_title:
        return Candidate(record, ratio, True)
    names: set[str] = set()
    for author in record.authors:
        names |= record_names(author)
    author_ok = bool(first_author) and first_author in names
    years = set(record.years) | ({record.year} if record.year else set())
    year_ok = year is None or not years or min(abs(year - y) for y in years) <= 1
    return Candidate(record, ratio, token_set >= near_title and author_ok and year_ok)


def best(title: str, first_author: str, year: int | None, records: Iterable[Record]) -> tuple[Candidate | None, Candidate | None]:
    """(the best candidate that is the cited work, the closest one overall) among search results."""
    judged = [judge(title, first_author, year, r) for r in records]
    same = [c for c in judged if c.same_work]
    closest = max(judged, key=lambda c: c.title_score, default=None)
    return (max(same, key=lambda c: c.title_score) if same else None), closest
