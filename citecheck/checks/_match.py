"""How well a page's title (and lead text) answers what the link promised (its text or URL slug).

Shared by H007 title-mismatch and H003 soft-404. Words are compared fuzzily with rapidfuzz, so
plurals, inflections and small spelling variants still match. What the two rules derive from the
same page (the match of a word set, the word pool of a text, the headline) is kept in the page's
memo (`Fetched.memo`, passed as `memo=`), never in a process-wide cache.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cached_property
from typing import Any
from urllib.parse import unquote, urlsplit

from citecheck.checks._page import Memo, memoised
from citecheck.models import Page
from citecheck.support.text import ascii_words

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_SEGMENT_SPLIT = re.compile(r"[-_+.~,\s]+")
_EXTENSIONS = {"html", "htm", "php", "aspx", "asp", "jsp", "shtml", "cfm", "pdf"}
_H1 = re.compile(r"<h1[\s>].*?</h1>", re.IGNORECASE | re.DOTALL)
# An <h1> of plain text (no tag, no entity) with well-formed attributes: its text is the text between
# the tags, so it needs no parse (a parse costs 100 µs; most benchmark headlines are plain).
_PLAIN_H1 = re.compile(r"""<h1(?:[ \t\n\r]+[a-z_:][-a-z0-9_:.]*
                           (?:[ \t\n\r]*=[ \t\n\r]*(?:"[^"<>]*"|'[^'<>]*'|[^ \t\n\r"'<>=`/]+))?)*
                           [ \t\n\r]*>([^<&]*)</h1>\Z""", re.IGNORECASE | re.ASCII | re.VERBOSE)
# Characters lxml refuses (it raises ValueError, so the headline is '') or might not pass on verbatim.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def strip_accents(text: str) -> str:
    if text.isascii():
        return text  # the common case: nothing to decompose
    decomposed = unicodedata.normalize("NFKD", text)
    return _COMBINING.sub("", decomposed)


_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")


def _words(text: str) -> tuple[str, ...]:
    folded = strip_accents(text).casefold()
    fast = ascii_words(folded)  # the same tokens as _WORD on ASCII text
    return tuple(fast if fast is not None else _WORD.findall(folded))


def words(text: str) -> list[str]:
    """Lower-case, accent-free word tokens."""
    return list(_words(text or ""))


def _is_id(token: str) -> bool:
    """Opaque identifiers (numbers, hashes, mixed letters and digits) say nothing about the topic."""
    if len(token) > 24:
        return True
    # no character is both a letter and a digit, so an all-letter token needs no per-character scan
    return not token.isalpha() and any(c.isdigit() for c in token)


def slug_words(url: str, min_words: int = 3) -> list[str]:
    """Words of the URL's title slug: the last path segment with at least `min_words` words."""
    return list(_slug_words(url, min_words))


def _slug_words(url: str, min_words: int) -> tuple[str, ...]:
    try:
        path = unquote(urlsplit(url).path)
    except ValueError:
        return ()
    for segment in reversed([s for s in path.split("/") if s]):
        tokens = [t for t in _SEGMENT_SPLIT.split(segment.casefold()) if t and t not in _EXTENSIONS]
        # ASCII: one split of the tokens joined by spaces gives each token's words in turn (a space
        # is no word character), without a memoised `words` call per token
        joined = " ".join(tokens)
        fast = ascii_words(joined)
        parts = fast if fast is not None else [w for t in tokens for w in words(t)]
        topical = [w for w in parts if not _is_id(w)]
        if len(topical) >= min_words:
            return tuple(topical)
    return ()


def content_words(tokens: Iterable[str], stop: frozenset[str]) -> list[str]:
    """The tokens that say something: not a stopword (see `stopset`), longer than one character."""
    return [t for t in tokens if t not in stop and len(t) > 1]


def stopset(stopwords: Iterable[Any]) -> frozenset[str]:
    """A pack's stopwords as `words` spells tokens (a rule's `prepare` builds it once)."""
    return frozenset(strip_accents(str(s)).casefold() for s in stopwords)


def coverage(wanted: list[str], haystack: str, cutoff: float = 82.0, memo: Memo | None = None) -> float:
    """Share of `wanted` words that occur (fuzzily) among the words of `haystack`."""
    return _coverage(tuple(wanted), haystack, cutoff, memo) if wanted else 0.0


def _coverage(wanted: tuple[str, ...], haystack: str, cutoff: float, memo: Memo | None) -> float:
    pool = memoised(memo, ("pool", haystack), _pool, haystack)
    if not pool.words:
        return 0.0
    found = sum(1 for w in wanted if _present(w, pool, cutoff))
    return found / len(wanted)


class _Pool:
    """The distinct words of a text, as a list (for rapidfuzz), a set and a set of 5-letter stems."""

    __slots__ = ("prefixes", "set", "words")

    def __init__(self, words: list[str]) -> None:
        self.words = words
        self.set = frozenset(words)
        self.prefixes = frozenset(w[:5] for w in words if len(w) >= 5)


def _pool(haystack: str) -> _Pool:
    return _Pool(list(dict.fromkeys(_words(haystack))))


def _present(word: str, pool: _Pool, cutoff: float) -> bool:
    if word in pool.set:
        return True
    if len(word) < 4:
        return False
    if len(word) >= 5 and word[:5] in pool.prefixes:
        return True  # same first five letters: an inflection ("regulators" / "regulatory")
    from rapidfuzz import fuzz, process  # imported by the first page judged, not by every CLI start

    return process.extractOne(word, pool.words, scorer=fuzz.ratio, score_cutoff=cutoff) is not None


def headline(page: Page, memo: Memo | None = None) -> str:
    """The text of the first <h1> in the page's markup sample ('' when none)."""
    markup = page.html_sample or ""
    return memoised(memo, ("headline", markup), _headline, markup)


def _headline(markup: str) -> str:
    found = _H1.search(markup)
    if not found:
        return ""
    plain = _PLAIN_H1.match(found.group(0))
    if plain and not _NOT_XML.search(found.group(0)):
        return " ".join(plain.group(1).split())[:300]  # what lxml's text_content() would give
    from lxml import etree, html

    try:
        return " ".join(html.fragment_fromstring(found.group(0)).text_content().split())[:300]
    except (etree.ParserError, ValueError):
        return ""


def title_candidates(page: Page, memo: Memo | None = None) -> list[str]:
    """Title, og:title and first h1, de-duplicated, empty ones dropped."""
    found = [page.title, page.meta.get("og:title", ""), headline(page, memo)]
    return [t for t in dict.fromkeys(t.strip() for t in found) if t]


class Match:
    """How well `wanted` words are answered by the page's titles and (computed only when asked)
    by its lead text."""

    def __init__(self, wanted: tuple[str, ...], titles: tuple[str, ...], lead: str, memo: Memo | None = None) -> None:
        self.wanted = wanted
        self.title_score, self.best_title = max([(coverage(list(wanted), t, memo=memo), t) for t in titles]
                                                or [(0.0, "")])
        self._lead = lead
        self._memo = memo

    @cached_property
    def text_score(self) -> float:
        return coverage(list(self.wanted), self._lead, memo=self._memo)


def match(wanted: list[str], page: Page, lead_chars: int = 5000, memo: Memo | None = None) -> Match:
    """How well `wanted` is answered by `page`'s titles and lead text; with the page's `memo`, H003
    and H007 asking about the same slug words on the same page share one answer."""
    return memoised(memo, ("match", tuple(wanted), lead_chars), _match, tuple(wanted), page, lead_chars, memo)


def _match(wanted: tuple[str, ...], page: Page, lead_chars: int, memo: Memo | None) -> Match:
    return Match(wanted, tuple(title_candidates(page, memo)), page.text_sample[:lead_chars], memo)
