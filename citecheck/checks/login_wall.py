"""The link lands on a sign-in page or a consent interstitial instead of the content.

A private document (a Google Drive file, an intranet page), a members-only forum thread or an event
page that now needs an account cannot back a claim: no reader of the memo can open it, and a model
may have summarised a page it never saw. Cookie-consent interstitials ("Before you continue to
YouTube", "Antes de ir a Google Maps") hide the content from an automated reader the same way, so
they are reported here too. Evidence: status 401/407; a redirect to a login path
(`/login?returnUri=…`, `ServiceLogin`); a sign-in title on a short page or a page with a password
field; a "you must be logged in to view" notice on a short page; a consent host or title. All are
*unverifiable*, not dead: a warning. Markers in several languages live in the `login` pack.

Failing example (the event page now redirects to https://www.meetup.com/login/?returnUri=…):

    The meetup ([event](https://www.meetup.com/gpul-labs/events/248885422/)) drew 40 people.

Passing example (the event page answers with the event):

    The meetup ([event](https://www.meetup.com/gpul-labs/events/248885422/)) drew 40 people.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from citecheck.checks._page import emit, find_phrase, lower, lowered_items, pack_list
from citecheck.models import Hit, Page
from citecheck.urls import host_of

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H005"
NAME = "login-wall"
STAGE = "page"
SEVERITY = "warning"
PACK = "login"
DEFAULTS: dict[str, Any] = {"auth_statuses": [401, 407], "short_text": 1500, "consent_text": 4000,
                            "extra_paths": [], "extra_titles": [],
                            "extra_phrases": [], "extra_consent_hosts": []}
OPTIONS = {"auth_statuses": "statuses that mean authentication is required",
           "short_text": "sign-in titles and notices count on pages with at most this much visible text",
           "consent_text": "consent phrases count on pages with at most this much visible text",
           "extra_paths": "more login path regexes", "extra_titles": "more sign-in title regexes",
           "extra_phrases": "more sign-in notice regexes", "extra_consent_hosts": "more consent host prefixes"}


def _path_query(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    return f"{parts.path}?{parts.query}".lower()


def sign_in_evidence(page: Page, options: Mapping[str, Any]) -> list[str]:
    if page.status in {int(s) for s in options.get("auth_statuses", [])}:
        return [f"HTTP {page.status}"]
    paths = pack_list(options, "paths")
    final = page.final_url or page.url
    if final != page.url and find_phrase(_path_query(final), paths, regex=True) \
            and not find_phrase(_path_query(page.url), paths, regex=True):
        return [f"redirected to the sign-in page {final}"]
    short = len(page.text_sample or "") <= int(options.get("short_text", 1500))
    has_password = 'type="password"' in lower(page.html_sample or "")
    title = find_phrase(page.title, pack_list(options, "titles"), regex=True)
    if title and (short or has_password):
        return [f"sign-in title {page.title!r}"]
    notice = find_phrase(page.text_sample, pack_list(options, "phrases"), regex=True) if short else ""
    return [f"text {notice!r}"] if notice else []


def consent_evidence(page: Page, options: Mapping[str, Any]) -> list[str]:
    host = host_of(page.final_url or page.url)
    if host.startswith(lowered_items(pack_list(options, "consent_hosts"))):
        return [f"consent host {host}"]
    if find_phrase(page.title, pack_list(options, "consent_titles"), regex=True):
        return [f"consent title {page.title!r}"]
    short = len(page.text_sample or "") <= int(options.get("consent_text", 4000))
    phrase = find_phrase(page.text_sample, pack_list(options, "consent_phrases"), regex=True) if short else ""
    return [f"consent text {phrase!r}"] if phrase else []


def check(fetched: Fetched, options: Mapping[str, Any]) -> Iterator[Hit]:
    page = fetched.page
    auth = {int(s) for s in options.get("auth_statuses", [])}
    failed = page.status is not None and page.status >= 400 and page.status not in auth
    if failed or page.outcome.value in ("excluded", "unsupported", "error"):
        return  # a 404 or a block is H001's or H006's finding, not a wall
    sign_in = sign_in_evidence(page, options)
    if sign_in:
        yield emit(fetched, "login wall: the content needs an account, unverifiable", "; ".join(sign_in))
        return
    consent = consent_evidence(page, options)
    if consent:
        yield emit(fetched, "consent wall: an interstitial hides the content, unverifiable", "; ".join(consent))
