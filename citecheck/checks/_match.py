"""How well a page's title (and lead text) answers what the link promised (its text or URL slug).

Shared by H007 title-mismatch and H003 soft-404. Words are compared fuzzily with rapidfuzz, so
plurals, inflections and small spelling variants still match.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote, urlsplit

from citecheck.models import Page

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_SEGMENT_SPLIT = re.compile(r"[-_+.~,\s]+")
_EXTENSIONS = {"html", "htm", "php", "aspx", "asp", "jsp", "shtml", "cfm", "pdf"}
_H1 = re.compile(r"<h1[\s>].*?</h1>", re.IGNORECASE | re.DOTALL)


def strip_accents(text: str) -> str:
    if text.isascii():
        return text  # the common case: nothing to decompose
    decomposed = unicodedata.normalize("NFKD", text)
    return _COMBINING.sub("", decomposed)


_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")


@lru_cache(maxsize=64)  # small: each page is judged once, by several rules in a row
def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(strip_accents(text).casefold()))


def words(text: str) -> list[str]:
    """Lower-case, accent-free word tokens (memoised: the same text sample is asked about often)."""
    return list(_words(text or ""))


def _is_id(token: str) -> bool:
    """Opaque identifiers (numbers, hashes, mixed letters and digits) say nothing about the topic."""
    return any(c.isdigit() for c in token) or len(token) > 24


def slug_words(url: str, min_words: int = 3) -> list[str]:
    """Words of the URL's title slug: the last path segment with at least `min_words` words."""
    try:
        path = unquote(urlsplit(url).path)
    except ValueError:
        return []
    for segment in reversed([s for s in path.split("/") if s]):
        tokens = [t for t in _SEGMENT_SPLIT.split(segment.casefold()) if t and t not in _EXTENSIONS]
        tokens = [w for t in tokens for w in words(t)]
        if len([t for t in tokens if not _is_id(t)]) >= min_words:
            return [t for t in tokens if not _is_id(t)]
    return []


def content_words(tokens: Iterable[str], stopwords: Iterable[str]) -> list[str]:
    stop = _stopset(tuple(str(s) for s in stopwords))
    return [t for t in tokens if t not in stop and len(t) > 1]


@lru_cache(maxsize=64)
def _stopset(stopwords: tuple[str, ...]) -> frozenset[str]:
    return frozenset(strip_accents(s).casefold() for s in stopwords)


def coverage(wanted: list[str], haystack: str, cutoff: float = 82.0) -> float:
    """Share of `wanted` words that occur (fuzzily) among the words of `haystack`."""
    if not wanted:
        return 0.0
    pool = _pool(haystack)
    if not pool:
        return 0.0
    found = sum(1 for w in wanted if _present(w, pool, cutoff))
    return found / len(wanted)


@lru_cache(maxsize=32)
def _pool(haystack: str) -> list[str]:
    return list(dict.fromkeys(_words(haystack)))


def _present(word: str, pool: list[str], cutoff: float) -> bool:
    if word in pool:
        return True
    if len(word) < 4:
        return False
    from rapidfuzz import fuzz, process  # imported by the first page judged, not by every CLI start

    best = process.extractOne(word, pool, scorer=fuzz.ratio, score_cutoff=cutoff)
    return best is not None or any(len(p) >= 5 and (p.startswith(word[:5]) and word.startswith(p[:5])) for p in pool)


def headline(page: Page) -> str:
    """The text of the first <h1> in the page's markup sample ('' when none)."""
    found = _H1.search(page.html_sample or "")
    if not found:
        return ""
    from lxml import etree, html

    try:
        return " ".join(html.fragment_fromstring(found.group(0)).text_content().split())[:300]
    except (etree.ParserError, ValueError):
        return ""


def title_candidates(page: Page) -> list[str]:
    """Title, og:title and first h1, de-duplicated, empty ones dropped."""
    found = [page.title, page.meta.get("og:title", ""), headline(page)]
    return [t for t in dict.fromkeys(t.strip() for t in found) if t]


@dataclass(frozen=True)
class Match:
    """How well `wanted` words are answered by the page's titles and by its lead text."""

    wanted: tuple[str, ...]
    title_score: float
    text_score: float
    best_title: str


def match(wanted: list[str], page: Page, lead_chars: int = 5000) -> Match:
    titles = title_candidates(page)
    scored = [(coverage(wanted, t), t) for t in titles] or [(0.0, "")]
    score, best = max(scored)
    return Match(tuple(wanted), score, coverage(wanted, page.text_sample[:lead_chars]), best)
