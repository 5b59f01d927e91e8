"""The host could not be reached: the name does not resolve (NXDOMAIN), or the connection was
refused, reset, timed out or failed its TLS handshake.

A domain that does not exist is the surest sign of an invented source (models coin plausible
company and journal domains), so NXDOMAIN is dead and an error. A refused, reset or timed-out
connection proves nothing about the page (servers go down, firewalls drop crawlers), so those are
warnings that say *unverifiable*: try again later before deleting the citation.

Failing example (DNS answers NXDOMAIN for the host):

    The survey ([report](https://www.global-ai-readiness-institute.org/2024-report)) found …

Passing example (the host resolves and answers):

    The survey ([report](https://www.oecd.org/digital/artificial-intelligence/)) found …
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.checks._page import emit
from citecheck.models import Hit, Page
from citecheck.urls import host_of

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H002"
NAME = "unreachable"
STAGE = "page"
SEVERITY = "error"
DEFAULTS: dict[str, Any] = {"transient": ["refused", "reset", "timeout", "tls", "invalid-response"]}
OPTIONS = {"transient": "fetch errors reported as unverifiable warnings (NXDOMAIN is always dead, error)"}
_WORDS = {"refused": "connection refused", "reset": "connection reset", "timeout": "timed out",
          "tls": "TLS handshake failed", "invalid-response": "invalid HTTP response"}


def classify(page: Page, options: Mapping[str, Any]) -> tuple[str, str] | None:
    """(message, severity) for an unreachable host, or None when the host answered."""
    if page.error == "nxdomain":
        return f"dead link: domain {_host(page)!r} does not resolve (NXDOMAIN)", "error"
    if page.error in options.get("transient", []) and page.status is None:
        reason = _WORDS.get(page.error, page.error)
        return f"unreachable: {reason} on {_host(page)!r}: unverifiable, retry before removing", "warning"
    return None


def _host(page: Page) -> str:
    # parsed only for the message: most pages answered, and a URL parse is most of this rule's cost
    return host_of(page.url) or page.url


def check(fetched: Fetched, options: Mapping[str, Any]) -> Iterator[Hit]:
    found = classify(fetched.page, options)
    if found:
        message, severity = found
        yield emit(fetched, message, fetched.page.error, severity=severity)
