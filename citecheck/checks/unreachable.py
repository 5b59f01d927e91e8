"""The page could not be verified over the network, or its domain does not exist.

*Dead* needs evidence from the other side. A domain that does not exist is the surest sign of an
invented source (models coin plausible company and journal domains), so a "no such name" answer is
dead and an error, but only when the run could corroborate it: the same resolver answered for
another name, or found the public suffix's zone (`org` for `…-institute.org`). A resolver that
says "no such name" for everything (no network, a broken sandbox) proves nothing about the page.

Everything that could be our side or a passing state is a warning that says *unverifiable*, with
its reason: an uncorroborated resolver failure, a refused, reset or timed-out connection, a failed
TLS handshake, a 5xx that outlived the retries (unless the page is a bot challenge: H006's), and a
response whose body never arrived in full (the server stalled after its headers, trickled past the
timeout, closed short of its Content-Length, or sent a body in an encoding that cannot be decoded). Try again later before
deleting the citation. When no outside host could be reached at all, the audit says "network
unavailable" and exits 2 instead (see the README). A page the site's robots.txt does not let
citecheck fetch (`robots-disallowed`) was never requested, nor was a page the run's `--deadline`
passed before (`deadline`): unverifiable too. A cited host name that resolves to a private,
loopback, link-local or metadata address is never fetched, and never silent: an error (a memo
must not probe an internal network; `--allow HOST` checks an intranet source). A cited IP literal
is U004's, a redirect there H008's.

Failing example (DNS answers NXDOMAIN for the host, and other names resolve):

    The survey ([report](https://www.global-ai-readiness-institute.org/2024-report)) found …

Passing example (the host resolves and answers):

    The survey ([report](https://www.oecd.org/digital/artificial-intelligence/)) found …
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck._util.netaddr import parse_ip
from citecheck.checks._page import Lists, emit
from citecheck.checks.bot_challenge import challenge_markers
from citecheck.checks.bot_challenge import prepare as challenge_lists
from citecheck.models import Hit, Outcome, Page
from citecheck.urls import host_of

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H002"
NAME = "unreachable"
STAGE = "page"
SEVERITY = "error"
VERDICT = "dead"
GATE = "gone"
UNREACHED = True  # no answer came: under a network outage the run's one line speaks for it
PACK = "bot_challenge"
DEFAULTS: dict[str, Any] = {"transient": ["unresolved", "refused", "reset", "timeout", "tls", "invalid-response",
                                          "server-error", "robots-disallowed", "deadline"]}
OPTIONS = {"transient": "fetch errors reported as unverifiable warnings (a corroborated NXDOMAIN is always dead, "
                        "error)"}
_WORDS = {"unresolved": "the name did not resolve, and nothing in this run showed the resolver works",
          "refused": "connection refused", "reset": "connection reset", "timeout": "timed out",
          "tls": "TLS handshake failed", "invalid-response": "invalid HTTP response",
          "server-error": "server error",
          "robots-disallowed": "robots.txt disallows citecheck (--ignore-robots to check it anyway)",
          "deadline": "the run's --deadline passed before it was fetched"}
_INCOMPLETE = {"timeout": "the body stopped arriving (timed out after the headers)",
               "reset": "the connection was reset before the body ended",
               "invalid-response": "the body was cut short of its length or could not be decoded"}


def classify(page: Page, options: Mapping[str, Any]) -> tuple[str, str] | None:
    """(message, severity) for a page that could not be verified, or None when the host answered."""
    if page.error == "nxdomain" and page.outcome is Outcome.DEAD:
        return f"dead link: domain {_host(page)!r} does not resolve (NXDOMAIN)", "error"
    if page.error == "blocked-private" and not page.chain and parse_ip(_host(page).strip("[]")) is None:
        return (f"{_host(page)!r} resolves to a private, loopback, link-local or metadata address: citecheck "
                "does not fetch it (--allow HOST to check an intranet source)", "error")
    if page.error not in options.get("transient", []) or page.outcome is not Outcome.UNVERIFIABLE:
        return None
    if page.status is None or page.error == "robots-disallowed":  # a redirect's status, then robots said no
        reason = _WORDS.get(page.error, page.error)
        return f"unreachable: {reason} on {_host(page)!r}: unverifiable, retry before removing", "warning"
    if page.error == "server-error":
        return f"HTTP {page.status}: server error after retries: unverifiable, retry before removing", "warning"
    reason = _INCOMPLETE.get(page.error, page.error)
    return f"incomplete response: HTTP {page.status}, but {reason}: unverifiable, retry before removing", "warning"


def _host(page: Page) -> str:
    # parsed only for the message: most pages answered, and a URL parse is most of this rule's cost
    return host_of(page.final_url or page.url) or page.url


def prepare(options: Mapping[str, Any]) -> Lists:
    """The challenge markers H006 would see: a challenge served with 503 is H006's, not a server error."""
    return challenge_lists(options)


def check(fetched: Fetched, options: Mapping[str, Any], prepared: Lists | None = None) -> Iterator[Hit]:
    found = classify(fetched.page, options)
    if found and fetched.page.error == "server-error" and challenge_markers(fetched.page, options, prepared, fetched.memo):
        return
    if found:
        message, severity = found
        if fetched.page.error == "blocked-private":  # a cited name on an internal address: not a source
            yield emit(fetched, message, fetched.page.error, severity=severity, verdict="invalid", gate="blocked")
        elif severity == "error":  # a corroborated NXDOMAIN: dead
            yield emit(fetched, message, fetched.page.error, severity=severity)
        else:  # our side or a passing state: unverifiable, no proof the source is gone
            yield emit(fetched, message, fetched.page.error, severity=severity, verdict="unverifiable", gate="blocked")
