"""The bare-URL matcher shared by Markdown prose, HTML text, plain text and the write gate.

Finds scheme URLs, `www.` hosts, schemeless `domain.tld/path` strings and defanged forms
(`hxxps://`, `example[.]com`). Trailing punctuation is trimmed the way GitHub's autolink
extension does it, so `(see https://a.b/c).` yields `https://a.b/c`.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from citecheck.urls import public_suffix

_DOT = r"(?:\.|\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\))"
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_PATH_CHARS = r"[^\s<>\"'`\u00a0\u3000]"

_SCHEME_RE = re.compile(
    r"(?<![\w@+.-])(?P<scheme>(?:(?:https?|hxxps?|hXXps?|h\*\*ps?|ftp|fxp|sftp|file|javascript|data|mailto|tel|ws|wss)"
    r"(?:\[:\]|:)(?://|\\\\)?)|[a-z][a-z0-9+.-]{1,31}://)" + _PATH_CHARS + "+",
    re.IGNORECASE,
)
# A host never starts right after a word character, a dot, or a closing bracket: besides being
# right, this keeps every pattern linear (no restart inside a long `a[.]a[.]a…` run).
_PROTO_RELATIVE_RE = re.compile(r"(?<![\w:/\])}])//(?:" + _LABEL + _DOT + r")+[a-z]{2,}(?:[/:?#]" + _PATH_CHARS + r"*)?", re.IGNORECASE)
_WWW_RE = re.compile(r"(?<![\w./@\])}-])www\d{0,3}" + _DOT + r"(?:" + _LABEL + _DOT + r")*[a-z]{2,63}(?:[/:?#]" + _PATH_CHARS + r"*)?", re.IGNORECASE)
_DOMAIN_RE = re.compile(
    r"(?<![\w./@:\])}-])(?:" + _LABEL + _DOT + r")+(?P<tld>[a-z]{2,63})(?P<rest>/" + _PATH_CHARS + r"*)",
    re.IGNORECASE,
)
_DEFANGED_HOST_RE = re.compile(
    r"(?<![\w./@\])}-])(?:" + _LABEL + r"(?:\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|\.))+" + r"[a-z]{2,63}(?:[/:?#]" + _PATH_CHARS + r"*)?",
    re.IGNORECASE,
)
_DEFANG_HINT = re.compile(r"\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)", re.IGNORECASE)
_WWW_HINT = re.compile("www", re.IGNORECASE)
_FANG = [("[.]", "."), ("(.)", "."), ("{.}", "."), ("[dot]", "."), ("(dot)", "."), ("[:]", ":")]
_TRAILING = ".,;:!?*_~'\""
_TRIMMABLE = frozenset(_TRAILING + ")]};")


@dataclass(frozen=True)
class BareMatch:
    start: int  # offset in the scanned text
    raw: str  # as written
    url: str  # refanged, with a scheme when one could be inferred
    kind: str  # bare | www | domain | defanged


def refang(raw: str) -> str:
    """Undo common defanging: hxxp → http, [.] → ., [:] → :."""
    out = raw
    for old, new in _FANG:
        out = out.replace(old, new).replace(old.upper(), new)
    out = re.sub(r"^h(?:xx|XX|\*\*)p", "http", out)
    out = re.sub(r"^fxp", "ftp", out)
    return out


def trim(candidate: str) -> str:
    """Strip trailing punctuation and unbalanced closing brackets (GFM autolink rules).

    Linear in the candidate's length: bracket counts are taken once and updated as characters go.
    """
    if not candidate or candidate[-1] not in _TRIMMABLE:
        return candidate
    opened = {")": candidate.count("("), "]": candidate.count("["), "}": candidate.count("{")}
    closed = {")": candidate.count(")"), "]": candidate.count("]"), "}": candidate.count("}")}
    end = len(candidate)
    while end:
        last = candidate[end - 1]
        if candidate.endswith(("&gt;", "&lt;"), 0, end):  # before ";" alone is taken as punctuation
            end -= 4
        elif last in _TRAILING:
            end -= 1
        elif last in closed and closed[last] > opened[last]:
            closed[last] -= 1
            end -= 1
        else:
            break
    return candidate[:end]


def known_suffix(host: str) -> bool:
    """True when tldextract's bundled snapshot knows the host's public suffix (never fetches).

    Shares `citecheck.urls`' extractor and cache: the snapshot is parsed once per process.
    """
    return bool(public_suffix(host))


def _has_defang(text: str) -> bool:
    return _DEFANG_HINT.search(text) is not None


def _is_defanged(raw: str) -> bool:
    lowered = raw.lower()
    return lowered.startswith(("hxxp", "h**p", "fxp")) or any(f in lowered for f, _ in _FANG)


def find_urls(text: str) -> Iterator[BareMatch]:
    """Yield every URL-like string in `text`, left to right, without overlaps.

    Passes run from the most to the least specific pattern. Text a pass claims is blanked (same
    length, so offsets hold) before the next pass, which therefore cannot overlap it and skips
    the long URL it would otherwise re-scan; a pass whose cheap precondition fails on what is left
    is skipped (most prose has no `www`, `//` or `/` outside the URLs already found).
    """
    found: list[BareMatch] = []
    for regex, kind, hint in _PASSES:
        if not hint(text):
            continue
        claimed = [match for m in regex.finditer(text) if (match := _candidate(m, kind))]
        if claimed:
            found.extend(claimed)
            text = _blank(text, claimed)
    found.sort(key=lambda b: b.start)
    yield from found


def _candidate(m: re.Match[str], kind: str) -> BareMatch | None:
    raw = trim(m.group(0))
    return _classify(raw, kind, m.start()) if len(raw) >= 4 else None


def _blank(text: str, claimed: list[BareMatch]) -> str:
    pieces, pos = [], 0
    for match in sorted(claimed, key=lambda b: b.start):
        pieces += [text[pos:match.start], " " * len(match.raw)]
        pos = match.start + len(match.raw)
    pieces.append(text[pos:])
    return "".join(pieces)


def _classify(raw: str, kind: str, start: int) -> BareMatch | None:
    defanged = _is_defanged(raw)
    if kind == "defanged" and not defanged:
        return None  # plain hosts without a path are ordinary words like "e.g" or "node.js"
    url = refang(raw) if defanged else raw
    if kind == "bare":
        scheme = _SCHEME_RE.match(url)
        if scheme is None or not url[scheme.end("scheme"):].lstrip("/\\"):
            return None  # a scheme with nothing after it ("http://") is not a URL
        if url.lower().startswith(("http:", "https:")) and "://" not in url:
            return None
        return BareMatch(start, raw, url, "defanged" if defanged else "bare")
    if url.startswith("//"):
        host = re.split(r"[/:?#]", url[2:], 1)[0]
        return BareMatch(start, raw, "https:" + url, "defanged" if defanged else "domain") if known_suffix(host.lower()) else None
    host = re.split(r"[/:?#]", url, 1)[0]
    if not known_suffix(host.lower()):
        return None
    return BareMatch(start, raw, "http://" + url, "defanged" if defanged else kind)


_PASSES: tuple[tuple[re.Pattern[str], str, Callable[[str], bool]], ...] = (
    (_SCHEME_RE, "bare", lambda text: ":" in text),
    (_PROTO_RELATIVE_RE, "domain", lambda text: "//" in text),
    (_WWW_RE, "www", lambda text: _WWW_HINT.search(text) is not None),
    (_DEFANGED_HOST_RE, "defanged", _has_defang),
    (_DOMAIN_RE, "domain", lambda text: "/" in text),
)
