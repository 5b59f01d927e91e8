"""Assemble a Page from the last answer of a fetch: selected headers, body facts, outcome."""
from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from citecheck.fetch.parse import HTML_TYPES, BodyFacts, is_html, parse_body
from citecheck.fetch.verdict import decide, is_challenge
from citecheck.models import Hop, Outcome, Page

KEPT_HEADERS = ("content-type", "content-length", "content-encoding", "content-language", "location",
                "retry-after", "cf-mitigated", "server", "x-robots-tag", "link", "refresh", "last-modified",
                "www-authenticate", "etag")
HEADER_MAX = 1000


@dataclass
class Answer:
    """One HTTP exchange (or the failure to have one)."""

    url: str
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    error: str = ""
    complete: bool = False  # the body was read to its end
    wire: int | None = None  # body bytes read off the wire (None: no body was read)


def select_headers(raw: Mapping[str, str]) -> dict[str, str]:
    """The response headers rules look at, lower-case names, values bounded; set-cookie as a flag."""
    out: dict[str, str] = {}
    for name in KEPT_HEADERS:
        value = raw.get(name)
        if value is not None:
            out[name] = value[:HEADER_MAX]
    if "set-cookie" in raw:
        out["set-cookie"] = "present"
    return out


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


@dataclass(frozen=True)
class Raw:
    """A fresh page's body, not parsed yet (`Fetcher(defer_parse=True)`): `complete` turns the page
    and this into the page `build_page` would have made, wherever that runs (a page-rule worker)."""

    body: bytes
    content_type: str
    sibling: tuple[str, bytes, str] | None = None  # (probe URL, body, content type) of the host's probe


def build_page(url: str, answer: Answer, chain: tuple[Hop, ...], fetched_at: str, error: str = "",
               parse: bool = True) -> Page:
    """The Page for `url` whose walk ended with `answer` (error overrides, e.g. too-many-redirects).
    With `parse=False` the body facts (title, text and markup samples, hash, meta) are left empty
    for `complete` to fill in."""
    content_type = answer.headers.get("content-type", "")
    facts = BodyFacts()
    if answer.body and answer.status is not None and parse:
        facts = parse_body(answer.body, content_type)
    challenge = answer.status is not None and is_challenge(answer.status, answer.headers, answer.body)
    outcome, word = decide(answer.status, error or answer.error, challenge)
    return Page(url=url, outcome=outcome, status=answer.status, final_url=answer.url, chain=chain,
                headers=answer.headers, content_type=media_type(content_type), title=facts.title,
                canonical=facts.canonical, text_sample=facts.text_sample, html_sample=facts.html_sample,
                content_hash=facts.content_hash, content_length=_length(answer), fetched_at=fetched_at,
                error=word, meta=facts.meta, wire_bytes=answer.wire,
                body_bytes=len(answer.body) if answer.wire is not None else None)


def _length(answer: Answer) -> int | None:
    declared = answer.headers.get("content-length", "").strip()
    if declared.isdigit():
        return int(declared)
    return len(answer.body) if answer.status is not None and answer.complete else None


def refused_page(url: str, error: str, chain: tuple[Hop, ...], fetched_at: str) -> Page:
    """A URL the guard would not fetch (or no longer follow)."""
    outcome, word = decide(None, error)
    last = chain[-1] if chain else None
    return Page(url=url, outcome=outcome, status=last.status if last else None,
                final_url=last.location if last else url, chain=chain, fetched_at=fetched_at, error=word)


def complete(page: Page, raw: Raw, sibling_text: str | None = None) -> Page:
    """`page` (built with `parse=False`) with its body facts, as `build_page` makes it; the sibling
    probe's text is `sibling_text` when the caller parsed it already (one probe serves a host)."""
    changes: dict[str, Any] = {}
    if raw.body and page.status is not None:
        facts = parse_body(raw.body, raw.content_type)
        changes.update(title=facts.title, canonical=facts.canonical, text_sample=facts.text_sample,
                       html_sample=facts.html_sample, content_hash=facts.content_hash, meta=facts.meta)
    if raw.sibling is not None and page.sibling_status is not None:
        changes["sibling_text"] = sibling_text if sibling_text is not None else sibling_sample(raw.sibling)
    return replace(page, **changes) if changes else page


def sibling_sample(sibling: tuple[str, bytes, str]) -> str:
    """The visible-text sample of a sibling probe's body (what `Siblings` records when parsing)."""
    _url, body, content_type = sibling
    return parse_body(body, content_type).text_sample if body else ""


def is_html_page(page: Page, body: bytes | None = None) -> bool:
    """A 200 HTML answer: the kind of page whose host gets a sibling probe (`body`: the unparsed
    body of a page built with `parse=False`)."""
    if page.outcome is not Outcome.OK or page.status != 200:
        return False
    if page.content_type in HTML_TYPES:
        return True
    if page.content_type:
        return False
    return is_html("", body) if body is not None else bool(page.html_sample)


def validators(page: Page) -> dict[str, str]:
    """The conditional-request headers stored facts allow (RFC 9110 13.1): `If-None-Match` from the
    ETag, `If-Modified-Since` from Last-Modified; empty for a page that did not answer 2xx."""
    if page.outcome is not Outcome.OK or page.status is None or not 200 <= page.status < 300:
        return {}
    out = {}
    if page.headers.get("etag"):
        out["If-None-Match"] = page.headers["etag"]
    if page.headers.get("last-modified"):
        out["If-Modified-Since"] = page.headers["last-modified"]
    return out


def revalidated(url: str, stored: Page, chain: tuple[Hop, ...], answer: Answer, fetched_at: str) -> Page:
    """`stored` confirmed by a 304 for its final URL now: its facts, fetched now, with this walk's
    redirects and the validators the 304 sent (a 304 refreshes the facts, RFC 9111 4.3.4)."""
    headers = dict(stored.headers)
    headers.update({k: v for k, v in answer.headers.items() if k in ("etag", "last-modified")})
    last = chain[-1].url if chain else url
    final = (*chain[:-1], Hop(last, stored.status or 200, ""))
    return replace(stored, url=url, chain=final, final_url=last, headers=headers, fetched_at=fetched_at,
                   from_cache=False, error="")
