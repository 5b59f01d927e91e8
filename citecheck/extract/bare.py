"""The bare-URL matcher shared by Markdown prose, HTML text, plain text and the write gate.

Finds scheme URLs, `www.` hosts, schemeless `domain.tld/path` strings and defanged forms
(`hxxps://`, `example[.]com`). Trailing punctuation is trimmed the way GitHub's autolink
extension does it, so `(see https://a.b/c).` yields `https://a.b/c`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from bisect import bisect_right
from functools import lru_cache
from typing import Callable, Iterator

import tldextract

_DOT = r"(?:\.|\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\))"
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_PATH_CHARS = r"[^\s<>\"'`\u00a0\u3000]"

_SCHEME_RE = re.compile(
    r"(?<![\w@])(?P<scheme>(?:https?|hxxps?|hXXps?|h\*\*ps?|ftp|fxp|sftp|file|javascript|data|mailto|tel|ws|wss)"
    r"(?:\[:\]|:)(?://|\\\\)?)" + _PATH_CHARS + "+",
    re.IGNORECASE,
)
_PROTO_RELATIVE_RE = re.compile(r"(?<![\w:/])//(?:" + _LABEL + _DOT + r")+[a-z]{2,}(?:[/:?#]" + _PATH_CHARS + r"*)?", re.IGNORECASE)
_WWW_RE = re.compile(r"(?<![\w./@-])www\d{0,3}" + _DOT + r"(?:" + _LABEL + _DOT + r")*[a-z]{2,63}(?:[/:?#]" + _PATH_CHARS + r"*)?", re.IGNORECASE)
_DOMAIN_RE = re.compile(
    r"(?<![\w./@:-])(?:" + _LABEL + _DOT + r")+(?P<tld>[a-z]{2,63})(?P<rest>/" + _PATH_CHARS + r"*)",
    re.IGNORECASE,
)
_DEFANGED_HOST_RE = re.compile(
    r"(?<![\w./@-])(?:" + _LABEL + r"(?:\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|\.))+" + r"[a-z]{2,63}(?:[/:?#]" + _PATH_CHARS + r"*)?",
    re.IGNORECASE,
)
_DEFANG_HINT = re.compile(r"\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)")
_FANG = [("[.]", "."), ("(.)", "."), ("{.}", "."), ("[dot]", "."), ("(dot)", "."), ("[:]", ":")]
_TRAILING = ".,;:!?*_~'\""


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
    opened = {")": candidate.count("("), "]": candidate.count("["), "}": candidate.count("{")}
    closed = {")": candidate.count(")"), "]": candidate.count("]"), "}": candidate.count("}")}
    end = len(candidate)
    while end:
        last = candidate[end - 1]
        if last in _TRAILING:
            end -= 1
        elif last in closed and closed[last] > opened[last]:
            closed[last] -= 1
            end -= 1
        elif candidate.endswith(("&gt;", "&lt;"), 0, end):
            end -= 4
        else:
            break
    return candidate[:end]


@lru_cache(maxsize=65536)
def known_suffix(host: str) -> bool:
    """True when tldextract's bundled snapshot knows the host's public suffix (never fetches)."""
    return bool(_EXTRACT(host).suffix)


_EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def _has_defang(lowered: str) -> bool:
    return _DEFANG_HINT.search(lowered) is not None


def _is_defanged(raw: str) -> bool:
    lowered = raw.lower()
    return lowered.startswith(("hxxp", "h**p", "fxp")) or any(f in lowered for f, _ in _FANG)


class _Taken:
    """Disjoint intervals already claimed, with O(log n) overlap checks."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def free(self, start: int, end: int) -> bool:
        i = bisect_right(self.starts, start)
        if i and self.ends[i - 1] > start:
            return False
        return i == len(self.starts) or self.starts[i] >= end

    def add(self, start: int, end: int) -> None:
        i = bisect_right(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)


def find_urls(text: str) -> Iterator[BareMatch]:
    """Yield every URL-like string in `text`, left to right, without overlaps.

    Passes run from the most to the least specific pattern; a later pass never takes text an
    earlier one claimed. A pass whose cheap precondition fails is skipped (most prose has no `//`).
    """
    taken, found = _Taken(), []
    lowered = text.lower()
    for regex, kind, hint in _PASSES:
        if hint is not None and not hint(lowered):
            continue
        for m in regex.finditer(text):
            raw = trim(m.group(0))
            start, end = m.start(), m.start() + len(raw)
            if len(raw) < 4 or not taken.free(start, end):
                continue
            match = _classify(raw, kind, start)
            if match:
                taken.add(start, end)
                found.append(match)
    found.sort(key=lambda b: b.start)
    yield from found


def _classify(raw: str, kind: str, start: int) -> BareMatch | None:
    defanged = _is_defanged(raw)
    if kind == "defanged" and not defanged:
        return None  # plain hosts without a path are ordinary words like "e.g" or "node.js"
    url = refang(raw) if defanged else raw
    if kind == "bare":
        if url.lower().startswith(("http:", "https:")) and "://" not in url:
            return None
        return BareMatch(start, raw, url, "defanged" if defanged else "bare")
    if url.startswith("//"):
        host = re.split(r"[/:?#]", url[2:], 1)[0]
        return BareMatch(start, raw, "https:" + url, "defanged" if defanged else "domain") if known_suffix(host) else None
    host = re.split(r"[/:?#]", url, 1)[0]
    if not known_suffix(host.lower()):
        return None
    return BareMatch(start, raw, "http://" + url, "defanged" if defanged else kind)


_PASSES: tuple[tuple[re.Pattern[str], str, Callable[[str], bool] | None], ...] = (
    (_SCHEME_RE, "bare", lambda low: ":" in low),
    (_PROTO_RELATIVE_RE, "domain", lambda low: "//" in low),
    (_WWW_RE, "www", lambda low: "www" in low),
    (_DEFANGED_HOST_RE, "defanged", _has_defang),
    (_DOMAIN_RE, "domain", lambda low: "/" in low),
)
