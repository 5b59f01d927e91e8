"""The bare-URL matcher shared by Markdown prose, HTML text, plain text and the write gate.

Finds scheme URLs, `www.` hosts, schemeless `domain.tld/path` strings, defanged forms
(`hxxps://`, `example[.]com`) and e-mail addresses (`ir@acme.com`, reported as `mailto:`, as
GitHub's autolink extension links them). Trailing punctuation is trimmed the way GitHub's autolink
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
# `_www.acme.com_` is a link on GitHub: an underscore (not another word character) may come before.
_WWW_RE = re.compile(r"(?<![^\W_]|[./@\])}-])www\d{0,3}" + _DOT + r"(?:" + _LABEL + _DOT + r")*[a-z]{2,63}(?:[/:?#]" + _PATH_CHARS + r"*)?", re.IGNORECASE)
_DOMAIN_RE = re.compile(
    r"(?<![\w./@:\])}-])(?:" + _LABEL + _DOT + r")+(?P<tld>[a-z]{2,63})(?P<rest>/" + _PATH_CHARS + r"*)",
    re.IGNORECASE,
)
_DEFANGED_HOST_RE = re.compile(
    r"(?<![\w./@\])}-])(?:" + _LABEL + r"(?:\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|\.))+" + r"[a-z]{2,63}(?:[/:?#]" + _PATH_CHARS + r"*)?",
    re.IGNORECASE,
)
# Where a `_SCHEME_RE` match can start, matched on the reversed text before its colon: after the
# run of characters its look-behind refuses, or at `h**p`, the one scheme with others in it.
_SCHEME_RUN = re.compile(r"[\w@+.-]*")
_STARRED_SCHEME = re.compile(r"s?p\*\*h", re.IGNORECASE)
_LETTER_RUN = re.compile(r"[A-Za-z]*")
_WEB_SCHEMES = ("ptth", "sptth", "ptf")  # reversed, as `before` is
_WEB_SCHEME_RE = re.compile(r"(?P<scheme>(?:https?|ftp)://)" + _PATH_CHARS + "+", re.IGNORECASE)
_SCHEME_MAX = 32  # the longest scheme; a longer run is cut where the look-behind fails, as it must
# An e-mail address as cmark-gfm's autolink extension reads one: ASCII local part, a domain of at
# least two labels not ending in `-` or `_`. Matched forward from each `@`, the local part walked
# back over at most 256 characters (a regex tried at every character of a long word is quadratic).
_EMAIL_DOMAIN = re.compile(r"@[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+")
_EMAIL_LOCAL = re.compile(r"[A-Za-z0-9.+_-]{1,256}")
_FANG = [("[.]", "."), ("(.)", "."), ("{.}", "."), ("[dot]", "."), ("(dot)", "."), ("[:]", ":")]
_TRAILING = ".,;:!?*_~'\""
_TRIMMABLE = frozenset(_TRAILING + ")]};")


@dataclass(frozen=True)
class BareMatch:
    start: int  # offset in the scanned text
    raw: str  # as written
    url: str  # refanged, with a scheme when one could be inferred
    kind: str  # bare | www | domain | defanged | email


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
    """Whether `text` holds a `[.]`, `(.)`, `{.}`, `[dot]` or `(dot)`, in any case.

    Substring tests instead of a case-blind regex search: no other character lowers to d, o or t.
    """
    if "[.]" in text or "(.)" in text or "{.}" in text:
        return True
    lowered = text.lower()
    return "[dot]" in lowered or "(dot)" in lowered


def _has_www(text: str) -> bool:
    return "www" in text.lower()  # no other character lowers to w


def _is_defanged(raw: str) -> bool:
    lowered = raw.lower()
    if lowered.startswith(("hxxp", "h**p", "fxp")):
        return True
    # Every `_FANG` token holds a bracket: most URLs have none, so skip the six substring tests.
    return ("[" in raw or "(" in raw or "{" in raw) and any(f in lowered for f, _ in _FANG)


def find_urls(text: str) -> Iterator[BareMatch]:
    """Yield every URL-like string in `text`, left to right, without overlaps.

    Passes run from the most to the least specific pattern. Text a pass claims is blanked (same
    length, so offsets hold) before the next pass, which therefore cannot overlap it and skips
    the long URL it would otherwise re-scan; a pass whose cheap precondition fails on what is left
    is skipped (most prose has no `www`, `//` or `/` outside the URLs already found).
    """
    found: list[BareMatch] = []
    for scan, kind, hint in _PASSES:
        if not hint(text):
            continue
        claimed = (list(_emails(text)) if kind == "email" else
                   [match for m in scan(text) if (match := _candidate(m, kind))])
        if claimed:
            found.extend(claimed)
            text = _blank(text, claimed)
    found.sort(key=lambda b: b.start)
    yield from found


def _scheme_matches(text: str) -> Iterator[re.Match[str]]:
    """The matches of `_SCHEME_RE.finditer(text)`, tried only where a scheme can end.

    A scheme ends at a ":" (or "[:]") and, by the look-behind, starts where the run of `[\\w@+.-]`
    characters before it starts: one place to try per colon, instead of the engine trying the
    look-behind at every character of the prose in between.
    """
    pos = 0
    while (colon := text.find(":", pos)) >= 0:
        m = _scheme_at(text, pos, colon - 1 if colon and text[colon - 1] == "[" else colon)
        if m:
            yield m
        pos = m.end() if m else colon + 1


def _scheme_at(text: str, pos: int, end: int) -> re.Match[str] | None:
    """The leftmost `_SCHEME_RE` match from `pos` whose scheme ends at `end`."""
    before = text[max(pos, end - _SCHEME_MAX):end][::-1]
    starred = _STARRED_SCHEME.match(before)
    if starred and (m := _SCHEME_RE.match(text, end - starred.end())):
        return m
    run = _SCHEME_RUN.match(before)  # never None: the run may be empty
    m = _SCHEME_RE.match(text, end - (run.end() if run else 0))
    if m is None:  # GitHub links `see_https://…`, `1https://…`: only a letter before the scheme stops it
        letters = _LETTER_RUN.match(before)
        if letters and before[:letters.end()].lower() in _WEB_SCHEMES:
            m = _WEB_SCHEME_RE.match(text, end - letters.end())
    return m


def _emails(text: str) -> Iterator[BareMatch]:
    """Every `local@domain.tld`, left to right; one step back and one forward per `@`: linear."""
    pos = taken = 0
    while (at := text.find("@", pos)) >= 0:
        pos = at + 1
        local = _EMAIL_LOCAL.match(text[max(taken, at - 256):at][::-1])
        domain = _EMAIL_DOMAIN.match(text, at)
        if not (local and domain) or text.startswith("@", domain.end()):  # a@b.c@d.e: the last `@` is it
            continue
        end = domain.end()
        while text[end - 1] == ".":
            end -= 1
        if text[end - 1] in "-_" or "." not in text[at:end]:
            continue
        start = at - local.end()
        yield BareMatch(start, text[start:end], "mailto:" + text[start:end], "email")
        pos = taken = end


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
        host = re.split(r"[/:?#]", url[2:], maxsplit=1)[0]
        return BareMatch(start, raw, "https:" + url, "defanged" if defanged else "domain") if known_suffix(host.lower()) else None
    host = re.split(r"[/:?#]", url, maxsplit=1)[0]
    if not known_suffix(host.lower()):
        return None
    return BareMatch(start, raw, "http://" + url, "defanged" if defanged else kind)


_PASSES: tuple[tuple[Callable[[str], Iterator[re.Match[str]]], str, Callable[[str], bool]], ...] = (
    (_scheme_matches, "bare", lambda text: ":" in text),
    (lambda text: _PROTO_RELATIVE_RE.finditer(text), "domain", lambda text: "//" in text),
    (lambda text: _WWW_RE.finditer(text), "www", _has_www),
    (lambda text: _DEFANGED_HOST_RE.finditer(text), "defanged", _has_defang),
    (lambda text: _DOMAIN_RE.finditer(text), "domain", lambda text: "/" in text),
    (lambda text: _DOMAIN_RE.finditer(text), "email", lambda text: "@" in text),  # the scan is `_emails`
)
