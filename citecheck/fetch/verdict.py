"""From what the server (or the network) said to a Page's outcome and error word.

The closed error vocabulary: nxdomain, unresolved, refused, reset, timeout, tls, rate-limited,
server-error, too-many-redirects, redirect-loop, blocked-private, bad-scheme, credentials,
invalid-url, body-too-large, decompression-bomb, invalid-response, challenge; and excluded-by-config,
the word of a page `exclude-urls` / `--exclude-url` kept from the fetch (never requested).

*Dead* needs evidence from the other side: a status the host answered (404, 410, other 4xx), or a
"no such name" the run could corroborate (`nxdomain`, set by the fetcher after
`citecheck.fetch.dns.DnsEvidence` agreed). A resolver's "no such name" by itself is `unresolved`,
and a 5xx or 429 that outlived the retries is `server-error`/`rate-limited`: all *unverifiable*,
like timeouts, resets and refused connections. A 2xx whose body did not arrive in full (timeout,
reset, short of its Content-Length, undecodable) is unverifiable too, never ok.
"""
from __future__ import annotations

import asyncio
import errno
import socket
import ssl
from collections.abc import Mapping

from citecheck.models import Outcome

UNVERIFIABLE_STATUSES = frozenset({401, 403, 407, 429, 451, 999})
RETRY_STATUSES = frozenset({429, 502, 503, 504})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
RETRYABLE_ERRORS = frozenset({"timeout", "reset"})
# Errors after which a 2xx status proves nothing: the content never arrived.
_BODY_FAILURES = frozenset({"timeout", "reset", "invalid-response"})
_NETWORK_OUTCOMES = {"nxdomain": Outcome.DEAD, "blocked-private": Outcome.EXCLUDED, "credentials": Outcome.EXCLUDED,
                     "bad-scheme": Outcome.UNSUPPORTED, "invalid-url": Outcome.UNSUPPORTED}
_CHALLENGE_MARKERS = (b"cf-browser-verification", b"cf_chl_opt", b"/cdn-cgi/challenge-platform",
                      b"/cdn-cgi/bm/cv/", b"__cf$cv$params",  # Cloudflare bot management
                      b"just a moment...",
                      b"attention required! | cloudflare", b"_incapsula_resource", b"captcha-delivery.com",
                      b"px-captcha", b"please verify you are a human", b"checking your browser before accessing",
                      b"g-recaptcha", b"h-captcha", b"awswaf")


def is_challenge(status: int | None, headers: Mapping[str, str], body: bytes) -> bool:
    """A bot challenge (Cloudflare, PerimeterX, DataDome, LinkedIn 999): never proof of a dead page."""
    if status == 999 or headers.get("cf-mitigated", "").lower() == "challenge":
        return True
    if status not in (403, 429, 503):
        return False
    head = body[:32768].lower()
    return any(marker in head for marker in _CHALLENGE_MARKERS)


def status_outcome(status: int) -> tuple[Outcome, str]:
    """The outcome a final status means by itself (after retries)."""
    if 200 <= status < 300:
        return Outcome.OK, ""
    if status in UNVERIFIABLE_STATUSES:
        return Outcome.UNVERIFIABLE, "rate-limited" if status == 429 else ""
    if 400 <= status < 500:
        return Outcome.DEAD, ""
    if 500 <= status < 600:
        return Outcome.UNVERIFIABLE, "server-error"  # the host is in trouble now; the page may be fine
    return Outcome.UNVERIFIABLE, "invalid-response"  # 1xx, 3xx without Location, nonsense


def decide(status: int | None, error: str, challenge: bool = False) -> tuple[Outcome, str]:
    """Outcome and error word for a finished fetch."""
    if challenge:
        return Outcome.UNVERIFIABLE, "challenge"
    if status is None:
        return _NETWORK_OUTCOMES.get(error, Outcome.UNVERIFIABLE), error
    outcome, word = status_outcome(status)
    if error in _BODY_FAILURES and outcome is Outcome.OK:
        return Outcome.UNVERIFIABLE, error
    return outcome, error or word


def classify(err: BaseException) -> str:
    """The error word for an exception raised while connecting or reading."""
    import aiohttp  # loaded by whoever fetched already; not by a process that only parses pages

    cause = getattr(err, "os_error", None) or err.__cause__
    if isinstance(err, aiohttp.ClientConnectorDNSError):
        if isinstance(cause, socket.gaierror) and cause.errno in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", -5)):
            return "unresolved"  # "no such name", from a resolver nobody has vouched for yet
        if cause is not None and "not found" in str(cause).lower():  # aiodns: "Domain name not found"
            return "unresolved"
        return "timeout"  # EAI_AGAIN and friends: the resolver did not answer, nothing is proven
    if isinstance(err, (aiohttp.ClientConnectorCertificateError, aiohttp.ClientConnectorSSLError, ssl.SSLError)):
        return "tls"
    if isinstance(err, (asyncio.TimeoutError, TimeoutError)):
        return "timeout"
    if isinstance(err, aiohttp.ClientConnectorError):
        return "refused" if _errno(err) != errno.ECONNRESET else "reset"
    if isinstance(err, aiohttp.ClientPayloadError):
        return "reset" if isinstance(cause, ConnectionResetError) or "reset" in str(err).lower() else "invalid-response"
    if isinstance(err, (aiohttp.ServerDisconnectedError, ConnectionResetError, BrokenPipeError)):
        return "reset"
    if isinstance(err, aiohttp.ClientOSError):
        return "reset" if _errno(err) in (errno.ECONNRESET, errno.EPIPE, errno.ECONNABORTED) else "refused"
    if isinstance(err, (aiohttp.InvalidURL, ValueError)):
        return "invalid-url"
    return "invalid-response"  # ClientResponseError (bad status line, oversized headers) and the rest


def _errno(err: BaseException) -> int | None:
    return getattr(getattr(err, "os_error", None), "errno", None) or getattr(err, "errno", None)
