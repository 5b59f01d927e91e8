"""Find every URL-shaped span in a text, deliberately broadly (false positives beat leaks).

Runs on the shadow copy (see `shadow.py`), so zero-width splits, full-width forms, entities,
escapes and defanging do not hide anything, then maps each span back to the original text. It finds
everything citecheck's bare matcher (`extract.bare.find_urls`) finds, and more (the write
tests check that with an independent scanner built on that matcher):

  any `scheme://` or `scheme:\\\\` (also `https:evil.com`, `https:/evil.com`, which browsers fix up)
  known schemes without slashes (`mailto:`, `javascript:`, `data:`, `doi:`, `urn:`, `tel:` …)
  protocol-relative `//host.tld/…`; `www.` hosts with or without a path
  schemeless `host.tld/…`, `host.tld?q=…`, `host.tld#frag`, `host.tld:8080` (any alphabetic TLD:
  `node.js/x` counts, on purpose); IPv4 with a port or path; `localhost:port`
  bare DOIs `10.1234/abc`; defanged hosts even without a path (`example[.]com`, `evil(dot)com`)
  e-mail addresses (`ir@evil.com`: GitHub's autolink extension makes them `mailto:` links)

A word character before a URL does not hide it: GitHub links the `https://evil.com` of
`see_https://evil.com`, `1https://evil.com` and `_www.evil.com_`, so the look-behinds refuse only
characters that would make the match start elsewhere (an ASCII letter or digit, `+`, `.`, `-`).
An underscore never hides a schemeless host either: `_evil.com/x_` is emphasis around a host that
markdown-it's linkify links (a label may hold `_`, so `my_site.com/x` is still matched whole).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from citecheck.extract.bare import refang, trim
from citecheck.urltext.shadow import Shadow, build_shadow

_I = re.IGNORECASE
_TAIL = r"[^\s<>\"'`]"
_LABEL = r"[^\W_][\w-]{0,62}+"  # possessive: a label never gives characters back
_TLD = r"(?:[^\W\d_]{2,63}|xn--[a-z0-9-]{2,59})"
KNOWN_SCHEMES = frozenset((
    "mailto", "javascript", "vbscript", "data", "tel", "sms", "urn", "doi", "file", "news", "nntp", "magnet",
    "blob", "cid", "mid", "irc", "ircs", "xmpp", "geo", "git", "ssh", "sftp", "svn", "s3", "gs", "ipfs", "ipns",
    "ftp", "ftps", "about", "view-source", "intent", "market", "itms-apps", "itms", "webcal", "feed", "telnet",
    "ldap", "sip", "sips", "skype", "zoommtg", "slack", "tg", "whatsapp", "spotify", "steam", "bitcoin", "jar",
    "chrome", "chrome-extension", "moz-extension", "ws", "wss", "http", "https", "hxxp", "hxxps",
))
# `scheme:` then: two slashes (any scheme), or a known scheme (browsers also fix up `https:evil.com`).
_SCHEME_RE = re.compile(r"(?<![A-Za-z0-9+.\-])(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]{0,31}+):(?P<slashes>[/\\]{0,2})"
                        + _TAIL + "+")
# (kind, regex, hint): a regex runs only when its cheap hint is in the lowered shadow text.
_SHAPES = [
    ("domain", re.compile(r"(?<![^\W_]|[:/\\])[/\\]{2}(?:" + _LABEL + r"\.)+" + _TLD + r"\b" + _TAIL + "*", _I),
     ("//", "\\\\")),
    ("scheme", re.compile(r"(?:https?|ftp)://" + _TAIL + "+", _I), ("://",)),  # after a digit too (`1https://`)
    ("www", re.compile(r"www\d{0,3}\.(?:" + _LABEL + r"\.)*" + _LABEL + _TAIL + "*", _I), ("www",)),
    ("ip", re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?:(?::\d{1,5})|[/\\?#])" + _TAIL + "*"), (".",)),
    ("ip", re.compile(r"(?<![\w.-])localhost(?::\d{1,5}|[/\\])" + _TAIL + "*", _I), ("localhost",)),
    ("doi", re.compile(r"(?<![\w./])10\.\d{4,9}/" + _TAIL + "*"), ("10.",)),  # an empty suffix is still a DOI shape
]
# Schemeless `host.tld/…`: found by its TLD (a literal dot: fast to search), then matched in a window.
_HOST_PATH_RE = re.compile(r"(?<![^\W_]|-)(?:" + _LABEL + r"\.)+" + _TLD + r"\.?(?:(?::\d{1,5})(?!\d)|[/\\]|[?#](?=[^\s]))"
                           + _TAIL + "*", _I)
_TLD_HINT_RE = re.compile(r"\." + _TLD + r"\.?(?::\d|[/\\]|[?#]\S)", _I)
# Defanged hosts need no path (`example[.]com`); the shadow has refanged them, so look at the original.
_DEFANGED_RE = re.compile(r"(?<![\w-])[\w-]++(?:(?:\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|\{dot\})[\w-]+)+"
                          + _TAIL + "*", _I)
# An e-mail address, matched forward from its `@` (the local part is found by walking back: a regex
# started at every character of a long word would be quadratic).
_EMAIL_DOMAIN_RE = re.compile(r"@[\w-]++(?:\.[\w-]++)+")
_EMAIL_LOCAL_RE = re.compile(r"[\w.+-]{1,256}")
_ANY_HINT_RE = re.compile(r"[:/\\.&\[({]|[^\x00-\x7f]")  # every URL shape needs one of these
_DEFANG_HINTS = ("[.]", "(.)", "{.}", "[dot]", "(dot)", "{dot}")


@dataclass(frozen=True)
class Span:
    """A URL-shaped span of the original text."""

    start: int
    end: int
    kind: str  # scheme | domain | www | ip | doi | bare | defanged | email
    url: str  # the normalised form (shadow text, refanged, scheme added when missing)


def url_spans(text: str, shadow: Shadow | None = None) -> list[Span]:
    """Every URL-shaped span of `text`, merged where they overlap, left to right."""
    if not _ANY_HINT_RE.search(text):
        return []
    shadow = shadow or build_shadow(text)
    found: list[Span] = []
    if ":" in shadow.text:
        for m in _SCHEME_RE.finditer(shadow.text):
            if len(m.group("slashes")) == 2 or m.group("scheme").lower() in KNOWN_SCHEMES:
                _add(found, shadow, m.start(), trim(m.group(0)), "scheme")
    lowered = shadow.text.lower()
    for kind, regex, hints in _SHAPES:
        if any(h in lowered for h in hints):
            for m in regex.finditer(shadow.text):
                _add(found, shadow, m.start(), trim(m.group(0)), kind)
    for lo, hi in _host_windows(shadow.text):
        for m in _HOST_PATH_RE.finditer(shadow.text, lo, hi):
            candidate = trim(m.group(0))
            if _keeps_path(candidate):
                _add(found, shadow, m.start(), candidate, "domain")
    if "@" in shadow.text:
        for start, candidate in _emails(shadow.text):
            _add(found, shadow, start, candidate, "email")
    if any(h in text.lower() for h in _DEFANG_HINTS):
        for m in _DEFANGED_RE.finditer(text):
            found.append(Span(m.start(), m.start() + len(trim(m.group(0))), "defanged", ""))
    return [Span(s.start, s.end, s.kind, normalise_url(trim(build_shadow(text[s.start:s.end]).text), s.kind))
            for s in merge(found)]


def _emails(text: str) -> list[tuple[int, str]]:
    """(start, address) of every `local@domain.tld`; linear: one backward and one forward step per `@`."""
    found: list[tuple[int, str]] = []
    pos = 0
    while (at := text.find("@", pos)) >= 0:
        pos = at + 1
        domain = _EMAIL_DOMAIN_RE.match(text, at)
        local = _EMAIL_LOCAL_RE.match(text[max(0, at - 256):at][::-1])
        if domain and local:
            address = trim(text[at - local.end():domain.end()])
            if "." in address[address.index("@"):]:
                found.append((at - local.end(), address))
                pos = domain.end()
    return found


def _host_windows(text: str) -> list[tuple[int, int]]:
    """Stretches that may hold a schemeless host with a path: up to 260 characters before a TLD
    (hosts are at most 253) to the next whitespace."""
    windows: list[tuple[int, int]] = []
    for m in _TLD_HINT_RE.finditer(text):
        space = re.compile(r"\s").search(text, m.end())
        lo, hi = max(0, m.start() - 260), space.start() if space else len(text)
        if windows and lo <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(hi, windows[-1][1]))
        else:
            windows.append((lo, hi))
    return windows


def _add(found: list[Span], shadow: Shadow, start: int, candidate: str, kind: str) -> None:
    if len(candidate) >= 4:
        begin, end = shadow.original(start, start + len(candidate))
        found.append(Span(begin, end, kind, ""))


def _keeps_path(candidate: str) -> bool:
    """A schemeless host still has its path, query, fragment or port after trimming."""
    return bool(re.search(r"\.[^\W\d_]{2,63}\.?[/\\?#:]|xn--[a-z0-9-]+\.?[/\\?#:]|^[/\\]{2}", candidate, _I))


def normalise_url(candidate: str, kind: str = "") -> str:
    """Refang and add a scheme, so a written URL can be compared with the corpus."""
    url = refang(candidate).replace("\\", "/")
    if kind == "email":
        return "mailto:" + url
    if kind == "doi" or url.lower().startswith("doi:"):
        return "https://doi.org/" + url.split(":", 1)[-1].lstrip("/") if ":" in url else "https://doi.org/" + url
    if url.startswith("//"):
        return "https:" + url
    if re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:(?!\d)", url):
        return re.sub(r"^(https?):/*", r"\1://", url, flags=_I)
    return "http://" + url


def merge(spans: list[Span]) -> list[Span]:
    """Union overlapping spans, keeping the kind of the first piece."""
    out: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if out and span.start < out[-1].end:
            last = out[-1]
            if span.end > last.end:
                out[-1] = Span(last.start, span.end, last.kind, last.url)
            continue
        out.append(span)
    return out
