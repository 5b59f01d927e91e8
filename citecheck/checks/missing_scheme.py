"""A source cited without a scheme, or defanged: the reader cannot click it as written.

`www.reuters.com/markets/…`, `reuters.com/markets/…` and defanged forms such as
`hxxps://reuters[.]com/…` are URL-shaped text, not links. In a Markdown link target
(`[Reuters](www.reuters.com/x)`) a schemeless host is even resolved as a relative path. Cite the
full `https://` URL. A warning by default (the `strict` preset makes it an error).

Failing example:

    Freight rates doubled (www.freightos.com/freight-index/ and hxxps://xeneta[.]com/blog/q3).

Passing example:

    Freight rates doubled (<https://www.freightos.com/freight-index/>).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.checks.unsupported_scheme import scheme_of
from citecheck.extract.bare import find_urls
from citecheck.models import Hit, Link, LinkKind

ID = "U008"
NAME = "missing-scheme"
STAGE = "url"
SEVERITY = "warning"
VERDICT = "schemeless"
GATE = "retires"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}

_SCHEMELESS = (LinkKind.WWW, LinkKind.DOMAIN)
_TARGETS = (LinkKind.INLINE, LinkKind.REFERENCE, LinkKind.FOOTNOTE, LinkKind.HTML, LinkKind.IMAGE)


def schemeless_target(url: str) -> bool:
    """True when a link target with no scheme is a host name (`www.x.com/a`), not a relative path."""
    if scheme_of(url) or url.startswith(("/", ".", "#", "?")):
        return False
    found = next(iter(find_urls(url)), None)
    return found is not None and found.start == 0 and found.kind in ("www", "domain")


def check(link: Link, options: Mapping[str, Any]) -> Iterator[Hit]:
    raw = link.raw or link.url
    if link.kind is LinkKind.DEFANGED:
        yield Hit(f"defanged URL {raw!r} cited as a source: cite the real URL ({link.url})", link.location,
                  link.url, evidence=raw, fix=link.url)
    elif link.kind in _SCHEMELESS or (link.kind in _TARGETS and schemeless_target(link.url)):
        fixed = link.url if scheme_of(link.url) else "https://" + link.url
        yield Hit(f"{raw!r} is cited without a scheme: write the full URL", link.location, link.url,
                  evidence=raw, fix=fixed.replace("http://", "https://", 1))
