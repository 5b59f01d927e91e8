"""The URL answered with an HTTP error that means the page does not exist (404, 410, other 4xx).

A fabricated citation usually lands here: the model invented a plausible path on a real site and the
site says 404. A 410 says the page was removed on purpose. Statuses that only mean "not for you"
(401, 403, 407, 429, 451, LinkedIn's 999) are *unverifiable*, never dead: they are left to H005
login-wall and H006 bot-challenge, and so is a challenge page served with 503. A 5xx that outlived
the fetcher's retries says the server is in trouble now, not that the page is gone: H002 reports it
as unverifiable.

Failing example (the server answers 404 Not Found):

    Adoption doubled ([AWS blog](https://aws.amazon.com/blogs/machine-learning/fabricated-slug/)).

Passing example (the server answers 200 with the post):

    Adoption doubled ([AWS blog](https://aws.amazon.com/blogs/machine-learning/real-post/)).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.checks._page import Lists, emit
from citecheck.checks.bot_challenge import challenge_markers
from citecheck.checks.bot_challenge import prepare as challenge_lists
from citecheck.models import Hit, Page

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H001"
NAME = "http-error"
STAGE = "page"
SEVERITY = "error"
VERDICT = "dead"
GATE = "gone"
PACK = "bot_challenge"
DEFAULTS: dict[str, Any] = {"unverifiable_statuses": [401, 403, 407, 429, 451, 999], "ignore_statuses": []}
OPTIONS = {"unverifiable_statuses": "4xx statuses that mean blocked, not dead (never reported here)",
           "ignore_statuses": "statuses never to report (e.g. [503] for a flaky intranet)"}
_REASONS = {404: "not found", 410: "gone (removed on purpose)"}
_NOT_DEAD = ("unverifiable", "excluded", "unsupported", "error")


def dead_status(page: Page, options: Mapping[str, Any]) -> str:
    """A description of the dead HTTP status of `page`, or '' when the status is not a dead one."""
    status = page.status
    if status is None or status < 400 or page.outcome.value in _NOT_DEAD:
        return ""
    if status in {int(s) for s in [*options.get("unverifiable_statuses", []), *options.get("ignore_statuses", [])]}:
        return ""
    if status >= 500:
        return ""  # the server's trouble, not the page's absence (H002: unverifiable)
    return f"HTTP {status}: {_REASONS.get(status, 'client error')}"


def prepare(options: Mapping[str, Any]) -> Lists:
    """The challenge markers H006 would see (a challenge page is never a dead one)."""
    return challenge_lists(options)


def check(fetched: Fetched, options: Mapping[str, Any], prepared: Lists | None = None) -> Iterator[Hit]:
    page = fetched.page
    reason = dead_status(page, options)
    if not reason or challenge_markers(page, options, prepared, fetched.memo):
        return
    where = f" (after redirect to {page.final_url})" if page.final_url and page.final_url != page.url else ""
    evidence = f"{page.status} {page.title}".strip()
    yield emit(fetched, f"dead link: {reason}{where}", evidence)
