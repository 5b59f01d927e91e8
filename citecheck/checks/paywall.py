"""The page is behind a paywall: a reader of the memo meets a wall before the cited text.

A paywalled source may be real and still weak evidence. The rule tells three kinds of wall apart,
because they call for different verdicts:

- `hard`: only a teaser is served, the rest is for subscribers ("Il vous reste 57% de cet article à
  lire", "Subscribe to continue reading", "この記事は有料会員限定です"), or JSON-LD
  `isAccessibleForFree: false` next to a subscriber prompt or premium label. Nobody can check the
  quote from the teaser: a warning in `audit`, an error (rejected) in `harvest`.
- `metered`: the text is in the page, but readers get a few free articles ("You've reached your free
  article limit", "Il vous reste 2 articles gratuits", "Sie haben Ihr Kontingent … aufgebraucht").
- `registration`: the text is in the page, behind a free account ("Register to read more",
  "Create a free account to continue reading", "Registrieren Sie sich kostenlos, um weiterzulesen").

Metered and registration walls are `info` in `audit` and kept by `harvest`, whose corpus entry then
says `access: metered` (or `registration`). The finding's evidence starts with `access=<kind>;`,
the machine-readable kind (`access_of`). The JSON-LD flag alone is never enough (free articles carry
it), nor are paywall vendors' scripts, which load on free pages too: the wall must show in the
page's text. Phrases in English, French, German, Spanish, Portuguese, Italian, Dutch, Indonesian,
Chinese and Japanese (wording used by common paywall systems: Piano, Poool, Zephr, Laterpay, Pelcro,
Memberful, Leaky Paywall, Substack, Ghost, Medium) live in the `paywall` pack.

Failing example (Le Monde answers a teaser ending "La suite est réservée aux abonnés."):

    Binet warned Macron ([Le Monde](https://www.lemonde.fr/politique/article/2023/08/30/sophie-binet.html)).

Passing example (the article text is all there, even though the JSON-LD says not free):

    Reporters were shot at ([Reuters](https://www.reuters.com/world/middle-east/israeli-tank-2024-03-07/)).
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.checks._page import Lists, Memo, answered, emit, is_html
from citecheck.models import Finding, Hit, Page

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H004"
NAME = "paywall"
STAGE = "page"
SEVERITY = "warning"
VERDICT = "unverifiable"
GATE = "wall"
EVIDENCE = "Matched paywall marker"  # what the HTML report calls a finding's evidence
PACK = "paywall"
KINDS = ("hard", "metered", "registration")
DEFAULTS: dict[str, Any] = {"extra_phrases": [], "extra_labels": [], "extra_metered": [], "extra_registration": [],
                            "severity_hard": "warning", "severity_gated": "info"}
OPTIONS = {"extra_phrases": "more hard-wall notice regexes (one is enough)",
           "extra_labels": "more premium-label regexes (count only with isAccessibleForFree=false)",
           "extra_metered": "more meter notice regexes", "extra_registration": "more registration-wall regexes",
           "severity_hard": "severity of a hard wall (harvest always rejects one)",
           "severity_gated": "severity of a metered or registration wall"}
_MESSAGES = {"hard": "paywall (hard): only a teaser is readable, the cited text cannot be verified",
             "metered": "paywall (metered): the text is in the page, but readers get only a few free articles",
             "registration": "paywall (registration): the text is in the page, behind a free account"}
_ACCESS = re.compile(r"^access=(hard|metered|registration);")


def prepare(options: Mapping[str, Any]) -> Lists:
    return Lists.of(options, phrases=("metered", "registration", "phrases", "labels"))


def wall(page: Page, options: Mapping[str, Any], prepared: Lists | None = None,
         memo: Memo | None = None) -> tuple[str, list[str]]:
    """(kind, evidence) of the page's wall; ('', []) when there is none."""
    if not answered(page) or not is_html(page):
        return "", []
    lists = prepared or prepare(options)
    text = page.text_sample
    # a meter or registration notice says the text was served and the wall stands in the reader's
    # way; it wins over the subscribe prompt such walls also show
    for kind, key in (("metered", "metered"), ("registration", "registration"), ("hard", "phrases")):
        notice = lists.find(key, text, memo)
        if notice:
            return kind, [f"text {notice!r}"]
    if page.meta.get("ld:isaccessibleforfree", "").lower() != "false":
        return "", []
    label = lists.find("labels", f"{page.title}\n{text}", memo)
    return ("hard", ["JSON-LD isAccessibleForFree=false", f"label {label!r}"]) if label else ("", [])


def evidence(page: Page, options: Mapping[str, Any], prepared: Lists | None = None,
             memo: Memo | None = None) -> list[str]:
    """Why the page is paywalled, its kind first (`access=<kind>`); empty when it is not."""
    kind, found = wall(page, options, prepared, memo)
    return [f"access={kind}", *found] if kind else []


def access_of(finding: Finding) -> str:
    """The wall kind an H004 finding reports ('' for any other finding)."""
    found = _ACCESS.match(finding.evidence) if finding.rule == ID else None
    return found.group(1) if found else ""


def check(fetched: Fetched, options: Mapping[str, Any], prepared: Lists | None = None) -> Iterator[Hit]:
    kind, found = wall(fetched.page, options, prepared, fetched.memo)
    if kind:
        severity = options.get("severity_hard" if kind == "hard" else "severity_gated", "warning")
        yield emit(fetched, _MESSAGES[kind], "; ".join([f"access={kind}", *found]), severity=str(severity),
                   gate="wall" if kind == "hard" else "access")
