"""Whether two answers are the same page: a fingerprint of a page's markup with what changes from
one request to the next taken out.

A client-rendered site answers every path with one HTML shell; a sibling probe of a random path
then gets that shell back, but not byte for byte: CSP nonces, CSRF tokens, request IDs, cache
busters and timestamps differ per request, and the shell often echoes the requested path (a
canonical link, `og:url`, a router's initial state). The fingerprint drops all of that, so the cited
page and the probe fingerprint alike exactly when the server sent the same page for both paths
(the visible text is part of the fingerprint: a long <head> shared by every page of a site is not
enough).
"""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from urllib.parse import quote, unquote, urlsplit

# a run that mixes letters and digits (or is long hex): nonces, tokens, IDs, hashes, base64 blobs
# (and any run of 20 or more such characters: a base64 nonce need not hold a digit)
_TOKEN = re.compile(r"[A-Za-z0-9+/_=-]{20,}|[A-Za-z0-9+/_-]*[0-9][A-Za-z0-9+/_-]*[A-Za-z][A-Za-z0-9+/_=-]*"
                    r"|[A-Za-z][A-Za-z0-9+/_-]*[0-9][A-Za-z0-9+/_=-]*")
_DIGITS = re.compile(r"[0-9]+")
_SPACE = re.compile(r"\s+")
MARKUP_COMPARED = 4096  # characters of normalised markup in the fingerprint (of an 8 KiB sample)
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


@lru_cache(maxsize=64)
def _echo_pattern(echoes: tuple[str, ...]) -> re.Pattern[str]:
    """The echoes as whole words (a segment `twit` must not eat into `twitter`), longest first."""
    return re.compile(r"(?<![A-Za-z0-9])(?:" + "|".join(map(re.escape, echoes)) + r")(?![A-Za-z0-9])")


def normalised(markup: str, url: str = "") -> str:
    """`markup` without the echoes of `url`, tokens, numbers and whitespace differences."""
    echoes = _echoes(url)
    text = _echo_pattern(tuple(echoes)).sub("\x00", markup) if echoes else markup
    text = _TOKEN.sub("~", text)
    text = _DIGITS.sub("0", text)
    return _SPACE.sub(" ", text).strip()


def page_shape(markup: str, text: str, url: str = "") -> str:
    """A short fingerprint of a page fetched from `url`: its markup sample and its visible text,
    each `normalised`; '' for a page without markup."""
    if not markup.strip():
        return ""
    # markup samples are cut at a fixed length before their echoes are taken out, and a probe's path
    # is longer than most: only a prefix both samples surely cover is compared
    both = f"{normalised(markup, url)[:MARKUP_COMPARED]}\x01{normalised(text, url)}"
    return hashlib.sha256(both.encode("utf-8", "surrogatepass")).hexdigest()[:24]
