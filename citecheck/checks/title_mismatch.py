"""The page's title has nothing to do with what the link promised: likely a fabricated or rotted URL.

A model that invents a citation writes a plausible slug (`/blogs/machine-learning/building-agentic-
rag-pipelines/`) and a confident link text; the site answers with its "404 Not Found" page, its home
page or an unrelated post. The rule compares the words of the link text and of the URL's title slug
with the page's title, `og:title` and first `<h1>` (rapidfuzz word matching, so plurals and small
variants count), and with the start of the visible text. It reports when almost none of the words
are found. It stays quiet when there is nothing to compare: a generic link text ("here", "source",
"[1]", "aquí", "こちら" …, from the `soft404` pack) with no slug words, an empty title, a non-HTML
answer, or a page that did not answer 2xx.

Failing example (the page title is "404 Not Found", or an unrelated "AWS Machine Learning Blog"):

    See [Building agentic RAG pipelines](https://aws.amazon.com/blogs/machine-learning/fabricated-slug-building-agentic-rag-pipelines/).

Passing example (the page title is "Building agentic RAG pipelines with Amazon Bedrock"):

    See [agentic RAG on Bedrock](https://aws.amazon.com/blogs/machine-learning/building-agentic-rag-pipelines/).
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from citecheck.checks._match import content_words, match, slug_words, stopset, words
from citecheck.checks._page import answered, emit, fold, is_html, pack_items
from citecheck.models import Hit, Link

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H007"
NAME = "title-mismatch"
STAGE = "page"
SEVERITY = "warning"
VERDICT = "title-mismatch"
EVIDENCE = "Page title found"  # what the HTML report calls a finding's evidence
PACK = "soft404"
DEFAULTS: dict[str, Any] = {"min_overlap": 0.25, "text_overlap": 0.6, "min_words": 2, "slug_min_words": 3,
                            "extra_generic_link_text": []}
OPTIONS = {"min_overlap": "share of link/slug words that the title must contain",
           "text_overlap": "share of words that the start of the visible text may contain instead",
           "min_words": "compare only with at least this many meaningful words",
           "slug_min_words": "a path segment is a title slug from this many words on",
           "extra_generic_link_text": "more link texts that say nothing about the target"}
_FOOTNOTE = re.compile(r"^\W*(\[?\^?\w{0,3}\d+\]?|\d+)\W*$")


@dataclass(frozen=True)
class Prepared:
    """Generic link texts (folded) and stopwords, built once per configuration."""

    generic: frozenset[str]
    stopwords: frozenset[str]


def prepare(options: Mapping[str, Any]) -> Prepared:
    return Prepared(frozenset(fold(str(g)) for g in pack_items(options, "generic_link_text")),
                    stopset(options.get("pack", {}).get("stopwords", [])))


def link_words(link: Link, prepared: Prepared) -> list[str]:
    """Meaningful words of the link text; none when it is generic, a footnote mark or the URL itself."""
    text = fold(link.text)
    if not text or text in prepared.generic or _FOOTNOTE.match(text) or "://" in text or text.startswith("www."):
        return []
    return content_words(words(text), prepared.stopwords)


def wanted_sets(link: Link, options: Mapping[str, Any], prepared: Prepared | None = None) -> list[list[str]]:
    prepared = prepared or prepare(options)
    least = int(options.get("min_words", 2))
    slug = slug_words(link.url, int(options.get("slug_min_words", 3)))
    sets = [link_words(link, prepared), content_words(slug, prepared.stopwords)]
    return [s for s in sets if len(s) >= least]


def check(fetched: Fetched, options: Mapping[str, Any], prepared: Prepared | None = None) -> Iterator[Hit]:
    page = fetched.page
    if not answered(page) or not is_html(page) or not page.title.strip():
        return
    sets = wanted_sets(fetched.link, options, prepared)
    results = [match(w, page, memo=fetched.memo) for w in sets]
    if not results:
        return
    title_ok = any(r.title_score >= float(options.get("min_overlap", 0.25)) for r in results)
    if not title_ok and not any(r.text_score >= float(options.get("text_overlap", 0.6)) for r in results):
        asked = " ".join(results[0].wanted[:8])
        yield emit(fetched, f"title mismatch: page title {page.title!r} does not match the link ({asked!r})",
                   page.title)
