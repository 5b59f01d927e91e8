"""Whether two answers are the same page: a fingerprint of a page's markup with what changes from
one request to the next taken out.

A client-rendered site answers every path with one HTML shell; a sibling probe of a random path
then gets that shell back, but not byte for byte: CSP nonces, CSRF tokens, request IDs, cache
busters and timestamps differ per request, and the shell often echoes the requested path (a
canonical link, `og:url`, a router's initial state). The fingerprint drops all of that, so the cited
page and the probe fingerprint alike exactly when the server sent the same page for both paths.
"""
from __future__ import annotations

import hashlib
import re
from urllib.parse import quote, unquote, urlsplit

# a run that mixes letters and digits (or is long hex): nonces, tokens, IDs, hashes, base64 blobs
# (and any run of 20 or more such characters: a base64 nonce need not hold a digit)
_TOKEN = re.compile(r"[A-Za-z0-9+/_=-]{20,}|[A-Za-z0-9+/_-]*[0-9][A-Za-z0-9+/_-]*[A-Za-z][A-Za-z0-9+/_=-]*"
                    r"|[A-Za-z][A-Za-z0-9+/_-]*[0-9][A-Za-z0-9+/_=-]*")
_DIGITS = re.compile(r"[0-9]+")
_SPACE = re.compile(r"\s+")
MIN_SEGMENT = 3  # path segments shorter than this ("en", "p") are left in place


def _echoes(url: str) -> list[str]:
    """The spellings in which a page may echo its own URL: the whole URL, its path and each
    path segment, raw, percent-decoded and percent-encoded, longest first."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    pieces = {url, parts.path, f"{parts.path}?{parts.query}" if parts.query else ""}
    pieces.update(s for s in parts.path.split("/") if len(s) >= MIN_SEGMENT)
    spelled = {form for piece in pieces if piece for form in (piece, unquote(piece), quote(unquote(piece), safe=""))}
    spelled.update(s.replace("/", "\\/") for s in list(spelled))  # as a JSON string escapes it
    return sorted((s for s in spelled if len(s) >= MIN_SEGMENT), key=len, reverse=True)


def normalised(markup: str, url: str = "") -> str:
    """`markup` without the echoes of `url`, tokens, numbers and whitespace differences."""
    text = markup
    for echo in _echoes(url):
        text = text.replace(echo, "\x00")
    text = _TOKEN.sub("~", text)
    text = _DIGITS.sub("0", text)
    return _SPACE.sub(" ", text).strip()


def markup_shape(markup: str, url: str = "") -> str:
    """A short fingerprint of `normalised(markup, url)`; '' for empty markup."""
    if not markup.strip():
        return ""
    return hashlib.sha256(normalised(markup, url).encode("utf-8", "surrogatepass")).hexdigest()[:24]
