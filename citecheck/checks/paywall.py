"""The page is behind a paywall: the reader (and citecheck) sees a teaser, not the cited text.

A paywalled source may be real and still unusable as evidence, since nobody can check the quote
from the teaser. The rule needs text on the page that says the reader is cut off: a truncation
notice ("Il vous reste 57% de cet article à lire", "You've reached your free article limit",
"Jetzt weiterlesen mit BZ+", "この記事は会員限定です" …), or JSON-LD `isAccessibleForFree: false`
together with a premium label or subscriber prompt on the page. The JSON-LD flag alone is not
enough: free articles carry it (a real trap), and so is paywall markup that sits unused on free
pages. Phrases in several languages live in the `paywall` pack.

Failing example (Le Monde answers a teaser ending "La suite est réservée aux abonnés."):

    Binet warned Macron ([Le Monde](https://www.lemonde.fr/politique/article/2023/08/30/sophie-binet.html)).

Passing example (the article text is all there, even though the JSON-LD says not free):

    Reporters were shot at ([Reuters](https://www.reuters.com/world/middle-east/israeli-tank-2024-03-07/)).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.checks._page import answered, emit, find_phrase, is_html, pack_list
from citecheck.models import Hit, Page

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H004"
NAME = "paywall"
STAGE = "page"
SEVERITY = "warning"
PACK = "paywall"
DEFAULTS: dict[str, Any] = {"extra_phrases": [], "extra_labels": []}
OPTIONS = {"extra_phrases": "more truncation-notice regexes (one is enough)",
           "extra_labels": "more premium-label regexes (count only with isAccessibleForFree=false)"}


def evidence(page: Page, options: Mapping[str, Any]) -> list[str]:
    """Why the page is paywalled; empty when it is not."""
    if not answered(page) or not is_html(page):
        return []
    notice = find_phrase(page.text_sample, pack_list(options, "phrases"), regex=True)
    if notice:
        return [f"text {notice!r}"]
    if page.meta.get("ld:isaccessibleforfree", "").lower() != "false":
        return []
    label = find_phrase(f"{page.title}\n{page.text_sample}", pack_list(options, "labels"), regex=True)
    return ["JSON-LD isAccessibleForFree=false", f"label {label!r}"] if label else []


def check(fetched: Fetched, options: Mapping[str, Any]) -> Iterator[Hit]:
    found = evidence(fetched.page, options)
    if found:
        yield emit(fetched, "paywall: only a teaser is readable, the cited text cannot be verified",
                   "; ".join(found))
