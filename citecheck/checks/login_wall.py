"""The link lands on a sign-in page or a consent interstitial instead of the content.

A private document (a Google Drive file, an intranet page), a members-only forum thread or an event
page that now needs an account cannot back a claim: no reader of the memo can open it, and a model
may have summarised a page it never saw. Cookie-consent interstitials ("Before you continue to
YouTube", "Antes de ir a Google Maps") hide the content from an automated reader the same way, so
they are reported here too. Evidence: status 401/407; a redirect to a login path
(`/login?returnUri=…`, `/signin`, `ServiceLogin`); a redirect whose target carries the cited page
back in a return parameter (`/account?next=/doc/42`, `?return_to=`, `?returnUrl=`) and is a sign-in
step (an auth path word, a sign-in title or a password field); a page that is itself a sign-in
page: a sign-in title ("Login to Your Account") on a short page or on a page with a password field
anywhere in it; a short page that is a sign-in form (a password field and sign-in
words, and no word of the cited URL's slug in its title or text); a "you must be logged in to view" notice on a short page; a consent host or title.
A login box beside real content (a forum's sidebar, a "Log in" button) is not a wall: every
content signal needs a short page. All are *unverifiable*, not dead: a warning. Markers in several
languages live in the `login` pack.

Failing example (the event page now redirects to https://www.meetup.com/login/?returnUri=…):

    The meetup ([event](https://www.meetup.com/gpul-labs/events/248885422/)) drew 40 people.

Passing example (the event page answers with the event):

    The meetup ([event](https://www.meetup.com/gpul-labs/events/248885422/)) drew 40 people.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote, urlsplit

from citecheck.checks._match import slug_words
from citecheck.checks._page import Lists, Memo, emit, fold, lower
from citecheck.models import Hit, Page
from citecheck.urls import host_of

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H005"
NAME = "login-wall"
STAGE = "page"
SEVERITY = "warning"
VERDICT = "unverifiable"
GATE = "wall"
EVIDENCE = "Matched login-wall marker"  # what the HTML report calls a finding's evidence
PACK = "login"
DEFAULTS: dict[str, Any] = {"auth_statuses": [401, 407], "short_text": 1500, "form_text": 600, "consent_text": 4000,
                            "extra_paths": [], "extra_titles": [], "extra_phrases": [], "extra_consent_hosts": [],
                            "extra_return_params": [], "extra_auth_words": [], "extra_form_words": []}
OPTIONS = {"auth_statuses": "statuses that mean authentication is required",
           "short_text": "sign-in titles and notices count on pages with at most this much visible text",
           "consent_text": "consent phrases count on pages with at most this much visible text",
           "form_text": "a page with a password field and sign-in words is a sign-in form up to this much text",
           "extra_paths": "more login path regexes", "extra_titles": "more sign-in title regexes",
           "extra_return_params": "more query parameters that carry the page to return to after signing in",
           "extra_auth_words": "more regexes for sign-in steps in a URL path",
           "extra_form_words": "more regexes for the words of a sign-in form",
           "extra_phrases": "more sign-in notice regexes", "extra_consent_hosts": "more consent host prefixes"}


def prepare(options: Mapping[str, Any]) -> Lists:
    return Lists.of(options, phrases=("paths", "titles", "phrases", "auth_words", "form_words", "consent_titles",
                                      "consent_phrases"), lowered=("consent_hosts", "return_params"))


_PASSWORD = re.compile(r"""<input[^>]*\btype\s*=\s*["']?password\b""")


def _path_query(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    return f"{parts.path}?{parts.query}".lower()


def _returns_to(final: str, original: str, lists: Lists) -> str:
    """The return parameter of `final` that brings the reader back to `original` ('' when none)."""
    try:
        want = urlsplit(original).path.rstrip("/")
        query = parse_qsl(urlsplit(final).query)
    except ValueError:
        return ""
    if len(want) < 2:
        return ""  # a site root comes back from anywhere
    names = set(lists.lowered["return_params"])
    for name, value in query:
        if name.lower() in names and want in unquote(value):
            return name
    return ""


def _mentions_slug(page: Page) -> bool:
    """The title or text names a word of the cited URL's slug: the page is about the cited content
    (a forum thread with a login box beside it), not a sign-in form standing in for it."""
    words = [w for w in slug_words(page.url, 2) if len(w) >= 4 and not w.isdigit()]
    haystack = fold(f"{page.title} {page.text_sample}")
    return any(w in haystack for w in words)


def redirect_evidence(page: Page, lists: Lists, has_password: bool, memo: Memo | None = None) -> list[str]:
    """A redirect of the cited URL to a sign-in step."""
    final = page.final_url or page.url
    if final == page.url or lists.find("paths", _path_query(page.url)):
        return []  # not redirected, or the cited URL is a sign-in page itself
    if lists.find("paths", _path_query(final)):
        return [f"redirected to the sign-in page {final}"]
    back = _returns_to(final, page.url, lists)
    signs_in = has_password or lists.find("titles", page.title, memo) \
        or lists.find("auth_words", urlsplit(final).path.lower())
    return [f"redirected to a sign-in step that returns to the cited page ({back}=…): {final}"] \
        if back and signs_in else []


def sign_in_evidence(page: Page, options: Mapping[str, Any], lists: Lists, memo: Memo | None = None) -> list[str]:
    if page.status in {int(s) for s in options.get("auth_statuses", [])}:
        challenge = page.headers.get("www-authenticate", "").strip()
        return [f"HTTP {page.status}", *([f"WWW-Authenticate {challenge[:80]!r}"] if challenge else []),
                *([f"title {page.title!r}"] if page.title else [])]
    # the parser notes a password input anywhere in the page (`form:password`); the markup sample
    # holds only the first 8 KiB, which a page's styles and scripts can fill before its form
    has_password = page.meta.get("form:password") == "true" \
        or _PASSWORD.search(lower(page.html_sample or "", memo)) is not None
    redirected = redirect_evidence(page, lists, has_password, memo)
    if redirected:
        return redirected
    chars = len(page.text_sample or "")
    short = chars <= int(options.get("short_text", 1500))
    title = lists.find("titles", page.title, memo)
    if title and (short or has_password):
        return [f"sign-in title {page.title!r}"]
    if has_password and chars <= int(options.get("form_text", 600)) and not _mentions_slug(page):
        words = lists.find("form_words", page.text_sample, memo)
        if words:
            return [f"the page is a sign-in form (a password field, {words!r}, {chars} characters of text)"]
    notice = lists.find("phrases", page.text_sample, memo) if short else ""
    return [f"text {notice!r}"] if notice else []


def consent_evidence(page: Page, options: Mapping[str, Any], lists: Lists, memo: Memo | None = None) -> list[str]:
    host = host_of(page.final_url or page.url)
    if host.startswith(lists.lowered["consent_hosts"]):
        return [f"consent host {host}"]
    if lists.find("consent_titles", page.title, memo):
        return [f"consent title {page.title!r}"]
    short = len(page.text_sample or "") <= int(options.get("consent_text", 4000))
    phrase = lists.find("consent_phrases", page.text_sample, memo) if short else ""
    return [f"consent text {phrase!r}"] if phrase else []


def check(fetched: Fetched, options: Mapping[str, Any], prepared: Lists | None = None) -> Iterator[Hit]:
    page = fetched.page
    lists = prepared or prepare(options)
    auth = {int(s) for s in options.get("auth_statuses", [])}
    failed = page.status is not None and page.status >= 400 and page.status not in auth
    if failed or page.outcome.value in ("excluded", "unsupported", "error"):
        return  # a 404 or a block is H001's or H006's finding, not a wall
    sign_in = sign_in_evidence(page, options, lists, fetched.memo)
    if sign_in:
        yield emit(fetched, "login wall: the content needs an account, unverifiable", "; ".join(sign_in))
        return
    consent = consent_evidence(page, options, lists, fetched.memo)
    if consent:
        yield emit(fetched, "consent wall: an interstitial hides the content, unverifiable", "; ".join(consent))
