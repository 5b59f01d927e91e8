"""Find every URL-shaped span in a text, deliberately broadly (false positives beat leaks).

Runs on the shadow copy (see `shadow.py`), so zero-width splits, full-width forms, entities,
escapes and defanging do not hide anything, then maps each span back to the original text.
Shapes, beyond citecheck's own bare matcher (`extract.bare.find_urls`, also run on the
original text so defanged hosts without a path are caught):

  any `scheme://` or `scheme:\\\\` (also `https:evil.com`, `https:/evil.com`, which browsers fix up)
  known schemes without slashes (`mailto:`, `javascript:`, `data:`, `doi:`, `urn:`, `tel:` …)
  protocol-relative `//host.tld/…`; `www.` hosts with or without a path
  schemeless `host.tld/…`, `host.tld?q=…`, `host.tld#frag`, `host.tld:8080` (any alphabetic TLD:
  `node.js/x` counts, on purpose); IPv4 with a port or path; `localhost:port`
  bare DOIs `10.1234/abc`
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from citecheck.extract.bare import find_urls, refang, trim
from citecheck.write.shadow import Shadow, build_shadow

_TAIL = r"[^\s<>\"'`]"
_LABEL = r"[^\W_](?:[\w-]{0,62})"
_TLD = r"(?:[^\W\d_]{2,63}|xn--[a-z0-9-]{2,59})"
_KNOWN_SCHEMES = (
    "mailto|javascript|vbscript|data|tel|sms|urn|doi|file|news|nntp|magnet|blob|cid|mid|irc|ircs|xmpp|geo|git|ssh|"
    "sftp|svn|s3|gs|ipfs|ipns|ftp|ftps|about|view-source|intent|market|itms-apps|itms|webcal|feed|telnet|ldap|sip|"
    "sips|skype|zoommtg|slack|tg|whatsapp|spotify|steam|bitcoin|jar|chrome|chrome-extension|moz-extension|ws|wss"
)
_SHAPES = [
    ("scheme", re.compile(r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{0,31}:[/\\]{2}" + _TAIL + "*", re.I)),
    ("scheme", re.compile(r"(?<![\w+.\-])(?:h(?:tt|xx)ps?|wss?|ftps?):[/\\]?" + _TAIL + "+", re.I)),
    ("scheme", re.compile(r"(?<![\w+.\-])(?:" + _KNOWN_SCHEMES + r"):" + _TAIL + "+", re.I)),
    ("domain", re.compile(r"(?<![\w:/\\])[/\\]{2}(?:" + _LABEL + r"\.)+" + _TLD + r"\b" + _TAIL + "*", re.I)),
    ("www", re.compile(r"(?<![\w-])www\d{0,3}\.(?:" + _LABEL + r"\.)*" + _LABEL + _TAIL + "*", re.I)),
    ("domain", re.compile(r"(?<![\w-])(?:" + _LABEL + r"\.)+" + _TLD + r"\.?(?:(?::\d{1,5})(?!\d)|[/\\]|[?#](?=[^\s]))"
                          + _TAIL + "*", re.I)),
    ("ip", re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?:(?::\d{1,5})|[/\\?#])" + _TAIL + "*")),
    ("ip", re.compile(r"(?<![\w.-])localhost(?::\d{1,5}|[/\\])" + _TAIL + "*", re.I)),
    ("doi", re.compile(r"(?<![\w./])10\.\d{4,9}/" + _TAIL + "+")),
]


@dataclass(frozen=True)
class Span:
    """A URL-shaped span of the original text."""

    start: int
    end: int
    kind: str  # scheme | domain | www | ip | doi | bare | defanged
    url: str  # the normalised form (shadow text, refanged, scheme added when missing)


def url_spans(text: str, shadow: Shadow | None = None) -> list[Span]:
    """Every URL-shaped span of `text`, merged where they overlap, left to right."""
    shadow = shadow or build_shadow(text)
    found: list[Span] = []
    for kind, regex in _SHAPES:
        for m in regex.finditer(shadow.text):
            candidate = trim(m.group(0))
            if kind == "domain" and not _keeps_path(candidate):
                continue
            if len(candidate) >= 4:
                start, end = shadow.original(m.start(), m.start() + len(candidate))
                found.append(Span(start, end, kind, normalise_url(candidate)))
    for match in find_urls(shadow.text):
        start, end = shadow.original(match.start, match.start + len(match.raw))
        found.append(Span(start, end, match.kind, match.url))
    for match in find_urls(text):
        found.append(Span(match.start, match.start + len(match.raw), match.kind, match.url))
    return [Span(s.start, s.end, s.kind, normalise_url(trim(build_shadow(text[s.start:s.end]).text), s.kind))
            for s in merge(found)]


def _keeps_path(candidate: str) -> bool:
    """A schemeless host still has its path, query, fragment or port after trimming."""
    return bool(re.search(r"\.[^\W\d_]{2,63}\.?[/\\?#:]|xn--[a-z0-9-]+\.?[/\\?#:]|^[/\\]{2}", candidate, re.I))


def normalise_url(candidate: str, kind: str = "") -> str:
    """Refang and add a scheme, so a written URL can be compared with the corpus."""
    url = refang(candidate).replace("\\", "/")
    if kind == "doi" or url.lower().startswith("doi:"):
        return "https://doi.org/" + url.split(":", 1)[-1].lstrip("/") if ":" in url else "https://doi.org/" + url
    if url.startswith("//"):
        return "https:" + url
    if re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:(?!\d)", url):
        return re.sub(r"^(https?):/*", r"\1://", url, flags=re.I)
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
