"""A bot challenge, captcha or block answered instead of the page: the URL is unverifiable, not dead.

Bot-protection services (Cloudflare, Imperva/Incapsula, Reblaze, Akamai, DataDome,
PerimeterX/HUMAN, Google Project Shield, Sucuri, AWS WAF) answer an automated client with an
interstitial, often with status 403 or 503, while a browser sees the article. Calling such a link
dead would delete good sources; admitting it as verified would admit a page nobody read. So the
finding is a warning that says *unverifiable*: check the link in a browser. The evidence names
what gave the challenge away (`cf-mitigated: challenge` header, LinkedIn's status 999, a challenge
title such as "Just a moment...", challenge scripts, a blocking status 403/429/451). Markers live
in the `bot_challenge` pack.

Failing example (the server answered 403 with `cf-mitigated: challenge`, title "Just a moment..."):

    Kickstarter backers doubled ([project](https://www.kickstarter.com/projects/1452363698/good-seed)).

Passing example (the same URL answered 200 with the project page):

    Kickstarter backers doubled ([project](https://www.kickstarter.com/projects/1452363698/good-seed)).
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.checks._page import Lists, Markers, Memo, emit
from citecheck.models import Hit, Page

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H006"
NAME = "bot-challenge"
STAGE = "page"
SEVERITY = "warning"
VERDICT = "unverifiable"
EVIDENCE = "Matched bot-challenge marker"  # what the HTML report calls a finding's evidence
PACK = "bot_challenge"
DEFAULTS: dict[str, Any] = {"blocked_statuses": [403, 429, 451, 999], "short_text": 3000, "empty_text": 200,
                            "extra_titles": [], "extra_phrases": [], "extra_markup": []}
OPTIONS = {"blocked_statuses": "statuses that mean the site refused an automated client",
           "short_text": "phrases count only on pages with at most this many characters of visible text",
           "empty_text": "injected protection scripts count on pages with less visible text than this",
           "extra_titles": "more challenge title regexes", "extra_phrases": "more challenge phrase regexes",
           "extra_markup": "more raw challenge markup markers"}
_INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)(?:</script>|$)", re.IGNORECASE | re.DOTALL)
_ERRORS = {"challenge": "fetcher saw a challenge", "rate-limited": "rate-limited past the Retry-After cap"}


def prepare(options: Mapping[str, Any]) -> Lists:
    lists = Lists.of(options, phrases=("titles", "phrases"), markers=("markup",))
    # weak markers come from the pack only (no extra_ option)
    return Lists(lists.phrases, {**lists.markers, "weak_markup": Markers(options.get("pack", {}).get("weak_markup", []))},
                 lists.lowered)


def challenge_markers(page: Page, options: Mapping[str, Any], prepared: Lists | None = None,
                      memo: Memo | None = None) -> list[str]:
    """What on the page itself shows a challenge (headers, title, text, markup); status aside."""
    pack = options.get("pack", {})
    lists = prepared or prepare(options)
    found = [f"{name}: {page.headers[name]}" for name, value in pack.get("headers", {}).items()
             if name in page.headers and str(value).lower() in page.headers[name].lower()]
    title = lists.find("titles", page.title, memo)
    found += [f"title {page.title!r}"] if title else []
    text = page.text_sample or ""
    if len(text) <= int(options.get("short_text", 3000)):
        phrase = lists.find("phrases", text, memo)
        found += [f"text {phrase!r}"] if phrase else []
    marker = lists.marker("markup", page.html_sample, memo)
    found += [f"markup {marker!r}"] if marker else []
    empty = len(text.strip()) < int(options.get("empty_text", 200))
    weak = lists.marker("weak_markup", page.html_sample, memo) if (empty or page.status in (403, 429, 503)) \
        and not found else ""
    found += [f"script {weak!r} on an empty page"] if weak else []
    if not found and empty and not page.title.strip() and inline_script_share(page.html_sample) >= 0.8:
        found.append("untitled empty page made of inline script (JS challenge)")
    return found


def inline_script_share(markup: str) -> float:
    """Share of the markup that is inline (not `src=`) script: near 1 for obfuscated JS challenges."""
    if len(markup or "") < 1000:
        return 0.0
    return sum(len(m.group(1)) for m in _INLINE.finditer(markup)) / len(markup)


def evidence(page: Page, options: Mapping[str, Any], prepared: Lists | None = None,
             memo: Memo | None = None) -> list[str]:
    """Every reason to treat this fetch as a challenge or block."""
    found = challenge_markers(page, options, prepared, memo)
    blocked = [int(s) for s in options.get("blocked_statuses", [])]
    if page.status in blocked:
        found.insert(0, f"HTTP {page.status}")
    if page.error in _ERRORS:
        found.insert(0, _ERRORS[page.error])
    return found


def check(fetched: Fetched, options: Mapping[str, Any], prepared: Lists | None = None) -> Iterator[Hit]:
    found = evidence(fetched.page, options, prepared, fetched.memo)
    if found:
        what = "blocked" if found == [f"HTTP {fetched.page.status}"] else "bot challenge"
        yield emit(fetched, f"{what} instead of the page: unverifiable, not dead (check it in a browser)",
                   "; ".join(found))
