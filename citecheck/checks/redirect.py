"""The link redirects: in a loop, through too many hops, permanently to a new address, or to
another site.

A loop or an endless chain means nobody can open the link (error). A redirect to somewhere
citecheck will not go is never silent: to a private, loopback, link-local or metadata address (a
cited URL that probes an internal network) is an error; to another scheme (`gopher:`, `file:`,
`data:`) or to a URL carrying a user name or password is a warning: the link cannot be checked. A permanent redirect (301/308)
means the cited address is outdated: the finding carries the new URL as its fix, so the memo
cites what readers will actually see (warning). A redirect to another registrable domain is worth
knowing (the source may have been sold, merged or replaced) but is often fine: info. Trivial moves
(http → https, adding `www.`, a trailing slash) are ignored unless `trivial: true`. Where the
redirect lands on a home page, a login page or a challenge, H003, H005 and H006 say so: a deep link
moved to a site's home page is never proposed as the new address. When the link is dead, soft-404
or walled, this finding is named in that finding's evidence instead of standing alone
(`citecheck.engine.rootcause`).

Failing example (301 to https://www.hookem.com/story/20160523/texas-shortstop-joe-baker-arrested/):

    Baker was arrested ([story](https://www.hookem.com/story/texas-shortstop-joe-baker-arrested/)).

Passing example (the final address is cited; it answers 200 directly):

    Baker was arrested ([story](https://www.hookem.com/story/20160523/texas-shortstop-joe-baker-arrested/)).
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from citecheck.checks._page import emit, is_deep, is_root
from citecheck.models import Hit, Page
from citecheck.urls import host_of, registrable_domain

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H008"
NAME = "redirect"
STAGE = "page"
SEVERITY = "warning"
VERDICT = "advisory"
DEFAULTS: dict[str, Any] = {"permanent": [301, 308], "trivial": False, "cross_domain": True}
OPTIONS = {"permanent": "statuses that mean moved for good", "trivial": "also report http→https, www. and slash moves",
           "cross_domain": "report (info) redirects to another registrable domain"}
# private/metadata destinations make the cited URL invalid as a source; the others leave it unverifiable
_REFUSED_VERDICTS = {"blocked-private": ("invalid", "blocked"), "bad-scheme": ("unverifiable", "blocked"),
                     "invalid-url": ("unverifiable", "blocked"), "credentials": ("unverifiable", "blocked")}
_USERINFO = re.compile(r"(//)[^/?#@\s]*@")
_MASK = r"\1****@"
_BROKEN = {"redirect-loop": "redirect loop", "too-many-redirects": "too many redirects"}
# the fetch guard's refusals of a redirect target: (what the target is, severity)
_REFUSED = {"blocked-private": ("a private, loopback, link-local or metadata address citecheck does not fetch "
                                "(--allow HOST to check an intranet source)", "error"),
            "bad-scheme": ("a URL that is not http or https", "warning"),
            "invalid-url": ("a URL that does not parse", "warning"),
            "credentials": ("a URL with a user name or password in it", "warning")}


def _key(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    host = (parts.hostname or "").removeprefix("www.")
    return f"{host}{parts.path.rstrip('/')}?{parts.query}"


def classify(page: Page, options: Mapping[str, Any]) -> tuple[str, str, str, str] | None:
    """(message, evidence, fix, severity) for the page's redirects, or None."""
    hops = [h for h in page.chain if 300 <= h.status < 400]
    trail = " → ".join(f"{h.status} {h.location or h.url}" for h in hops[:4])
    if page.error in _BROKEN:
        return f"broken redirect: {_BROKEN[page.error]} ({len(page.chain)} hops)", trail or page.error, "", "error"
    if page.error in _REFUSED and hops:
        what, severity = _REFUSED[page.error]
        target = _USERINFO.sub(_MASK, hops[-1].location or page.final_url)  # never repeat a secret
        return f"redirects to {what}: {target[:200]}", f"{page.error}: {_USERINFO.sub(_MASK, trail)}", "", severity
    final = page.final_url or page.url
    if not hops or final == page.url:
        return None
    trivial = _key(final) == _key(page.url) and not options.get("trivial", False)
    moved = {int(s) for s in options.get("permanent", [])}
    home = is_root(final) and is_deep(page.url)  # a deep link sent to a home page: H003's soft-404 signal
    if all(h.status in moved for h in hops) and not trivial and (page.status or 0) < 400 and not home:
        return f"moved permanently: cite {final} instead", trail, final, "warning"
    if options.get("cross_domain", True) and registrable_domain(host_of(final)) != registrable_domain(host_of(page.url)):
        return f"redirects to another site: {host_of(final)}", trail, "", "info"
    return None


def check(fetched: Fetched, options: Mapping[str, Any]) -> Iterator[Hit]:
    found = classify(fetched.page, options)
    if found:
        message, evidence, fix, severity = found
        # a redirect the guard refuses: the cited URL leads where no reader can follow or should go
        verdict, gate = _REFUSED_VERDICTS.get(fetched.page.error, ("", "")) if fetched.page.chain else ("", "")
        yield emit(fetched, message, evidence, fix, severity, verdict=verdict, gate=gate)
