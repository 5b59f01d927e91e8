"""Does the fetched page match what the search result said it was?

A search result that names one document while its URL serves another (a recycled slug, a home
page after a redirect, a provider's stale index) must not earn an ID. The search title is compared
with the fetched title (and og:title) by rapidfuzz token-set similarity after the site-name
suffix (" - Reuters", " | Eurostat") is removed; a low score is forgiven when the search snippet
is found in the page text. No title on either side means nothing to contradict.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz

from citecheck.models import Page

DEFAULT_THRESHOLD = 50.0
SNIPPET_THRESHOLD = 85.0
_SUFFIX = re.compile(r"\s+[-|–—·:»]\s+[^-|–—·:»]{2,60}$")
_WS = re.compile(r"\s+")


@dataclass(frozen=True)
class TitleVerdict:
    ok: bool
    score: float
    evidence: str = ""


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text or "").casefold()
    return _WS.sub(" ", text).strip()


def _variants(title: str) -> list[str]:
    title = fold(title)
    stripped = _SUFFIX.sub("", title)
    return [t for t in {title, stripped} if t]


def similarity(search_title: str, page_title: str) -> float:
    """Best token-set similarity (0-100) over the titles with and without a site-name suffix."""
    pairs = [(a, b) for a in _variants(search_title) for b in _variants(page_title)]
    return max((fuzz.token_set_ratio(a, b) for a, b in pairs), default=100.0)


def check_title(search_title: str, snippet: str, page: Page, threshold: float = DEFAULT_THRESHOLD) -> TitleVerdict:
    """Compare a candidate's search title (and snippet) with its fetched page."""
    page_titles = [t for t in (page.title, page.meta.get("og:title", "")) if t]
    if not search_title.strip() or not page_titles:
        return TitleVerdict(True, 100.0)
    score = max(similarity(search_title, t) for t in page_titles)
    if score >= threshold:
        return TitleVerdict(True, score)
    if snippet and len(snippet) >= 40 and page.text_sample and \
            fuzz.partial_ratio(fold(snippet)[:300], fold(page.text_sample)) >= SNIPPET_THRESHOLD:
        return TitleVerdict(True, score, "snippet found in the page")
    return TitleVerdict(False, score, f"search title {search_title!r} vs page title {page_titles[0]!r} "
                                      f"(similarity {score:.0f} < {threshold:.0f})")
