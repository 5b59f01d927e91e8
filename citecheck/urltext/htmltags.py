"""Raw HTML tags in a Markdown draft whose attributes carry a URL.

`<a href=…>text</a>` is unwrapped (the text stays); embedding tags (`img`, `iframe`, `script`,
`source`, …) are removed whole (an image keeps its alt text); any other tag keeps its name and
harmless attributes and loses the URL-carrying ones (`style="background:url(…)"`, `data-x=…`).
An attribute carries a URL when it is a URL attribute by name (`href`, `src`, `srcset`,
`action`, `poster`, `cite`, …) with a value other than a `#fragment`, or when its decoded value
contains anything URL-shaped.
"""
from __future__ import annotations

import html
import re
from dataclasses import replace

from citecheck.urltext.detect import url_spans
from citecheck.urltext.regions import Regions
from citecheck.urltext.structure import Construct

# Unquoted values may hold `=` here: browsers accept `<a href=https://x/?a=b>` though CommonMark does not.
_ATTR = r"[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s\"'<>`]+|'[^']*'|\"[^\"]*\"))?"
_OPEN_TAG_RE = re.compile(r"<(?P<name>[A-Za-z][A-Za-z0-9-]*)(?P<attrs>(?:\s+" + _ATTR + r")*)\s*(?P<close>/?)>")
_ATTR_RE = re.compile(r"(?P<name>[A-Za-z_:][A-Za-z0-9_.:-]*)(?:\s*=\s*(?P<value>[^\s\"'<>`]+|'[^']*'|\"[^\"]*\"))?")
URL_ATTRS = frozenset({
    "href", "src", "srcset", "imagesrcset", "action", "formaction", "poster", "data", "cite", "background",
    "longdesc", "lowsrc", "dynsrc", "codebase", "classid", "archive", "manifest", "ping", "usemap", "profile",
    "xlink:href", "xml:base", "srcdoc", "itemid",
})
EMBEDS = frozenset({"img", "image", "iframe", "frame", "embed", "object", "source", "track", "video", "audio",
                    "script", "link", "meta", "base", "input", "portal", "applet", "bgsound"})


def url_attribute(name: str, raw_value: str | None) -> bool:
    """Whether an attribute carries a URL (see the module docstring)."""
    if raw_value is None:
        return False
    value = html.unescape(raw_value.strip("\"'")).strip()
    if name.lower() in URL_ATTRS and value and not value.startswith("#"):
        return True
    return "url(" in value.lower().replace(" ", "") or bool(url_spans(value))


def html_tags(text: str, literal: Regions) -> list[Construct]:
    """One construct per tag with a URL-carrying attribute."""
    found: list[Construct] = []
    for m in _OPEN_TAG_RE.finditer(text):
        if m.start() in literal:
            continue
        attrs = list(_ATTR_RE.finditer(m.group("attrs")))
        bad = [a for a in attrs if url_attribute(a.group("name"), a.group("value"))]
        if not bad:
            continue
        values = [_value(m, a) for a in bad]
        found.append(replace(_construct(text, m, attrs, bad, *values[0]), more=tuple(values[1:])))
    return found


def _value(tag: re.Match[str], attr: re.Match[str]) -> tuple[str, int]:
    """An attribute's decoded value and the offset where it is written (inside any quotes)."""
    raw = attr.group("value") or ""
    quoted = raw.startswith(("'", '"'))
    return html.unescape(raw.strip("\"'")), tag.start("attrs") + attr.start("value") + (1 if quoted else 0)


def _construct(text: str, m: re.Match[str], attrs: list[re.Match[str]], bad: list[re.Match[str]], dest: str,
               dest_at: int) -> Construct:
    name = m.group("name").lower()
    if name == "a":
        close = re.compile(r"</a\s*>|<a[\s>]", re.IGNORECASE).search(text, m.end())
        if close and close.group(0).startswith("</"):
            return Construct(m.start(), close.end(), "anchor", dest, dest_at, keep=(m.end(), close.start()))
    if name in EMBEDS:
        alt = next((a.group("value") or "" for a in attrs if a.group("name").lower() == "alt"), "")
        alt = html.unescape(alt.strip("\"'"))
        alt = "" if url_spans(alt) else alt
        return Construct(m.start(), m.end(), "tag", dest, dest_at, keep_text=html.escape(alt, quote=False))
    kept = " ".join(a.group(0) for a in attrs if a not in bad)
    cleaned = f"<{m.group('name')}{' ' + kept if kept else ''}{m.group('close')}>"
    return Construct(m.start(), m.end(), "tag", dest, dest_at, keep_text=cleaned)
