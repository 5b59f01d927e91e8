"""Body → facts: title, canonical link, meta tags, bounded visible text and markup samples.

Parses each body once, only as far as the page rules need (no main-text extraction here:
that belongs to `harvest`). Robust to lying charsets, binary bodies, huge titles and deep nesting.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field

from lxml import etree, html

TITLE_MAX = 500
TEXT_MAX = 20_000
HTML_MAX = 64 * 1024
_CHARSET_RE = re.compile(rb"""<meta[^>]+charset=["']?([\w.:-]+)""", re.IGNORECASE)
_WS_RE = re.compile(r"\s+")
_DROP = ("script", "style", "noscript", "template", "svg", "head")


@dataclass(frozen=True)
class BodyFacts:
    title: str = ""
    canonical: str = ""
    text_sample: str = ""
    html_sample: str = ""
    content_hash: str = ""
    meta: dict[str, str] = field(default_factory=dict)


def is_html(content_type: str, body: bytes) -> bool:
    ct = content_type.split(";")[0].strip().lower()
    if ct in ("text/html", "application/xhtml+xml"):
        return True
    if ct in ("", "text/plain", "application/octet-stream"):
        head = body[:512].lstrip().lower()
        return head.startswith((b"<!doctype html", b"<html", b"<head", b"<title"))
    return False


def decode(body: bytes, content_type: str) -> str:
    """Decode with the declared charset, then a meta charset, then UTF-8; never raise."""
    candidates = []
    m = re.search(r"charset=([\w.:-]+)", content_type or "", re.IGNORECASE)
    if m:
        candidates.append(m.group(1))
    meta = _CHARSET_RE.search(body[:4096])
    if meta:
        candidates.append(meta.group(1).decode("ascii", "ignore"))
    candidates.append("utf-8")
    for name in candidates:
        try:
            return body.decode(name)
        except (LookupError, UnicodeDecodeError):
            continue
    return body.decode("utf-8", errors="replace")


def parse_body(body: bytes, content_type: str = "text/html") -> BodyFacts:
    """Facts of an HTML body; a non-HTML body gets only its hash."""
    digest = hashlib.sha256(body).hexdigest()
    if not body or not is_html(content_type, body):
        return BodyFacts(content_hash=digest)
    text = decode(body, content_type)
    try:
        root = html.document_fromstring(text)
    except (etree.ParserError, ValueError):
        return BodyFacts(content_hash=digest, html_sample=text[:HTML_MAX])
    meta = _meta(root)
    title = _title(root) or meta.get("og:title", "")
    canonical = ""
    for link in root.iter("link"):
        if "canonical" in (link.get("rel") or "").lower().split() and link.get("href"):
            canonical = link.get("href", "").strip()
            break
    return BodyFacts(title=title, canonical=canonical, text_sample=visible_text(root), html_sample=text[:HTML_MAX],
                     content_hash=digest, meta=meta)


def _title(root: etree._Element) -> str:
    for el in root.iter("title"):
        return _WS_RE.sub(" ", el.text_content() or "").strip()[:TITLE_MAX]
    return ""


def _meta(root: etree._Element) -> dict[str, str]:
    out: dict[str, str] = {}
    for el in root.iter("meta"):
        key = (el.get("property") or el.get("name") or el.get("http-equiv") or "").strip().lower()
        value = (el.get("content") or "").strip()
        if key and value and key not in out:
            out[key] = value[:1000]
    for script in root.iter("script"):
        if (script.get("type") or "").lower() == "application/ld+json" and script.text:
            _json_ld(script.text, out)
    return out


def _json_ld(raw: str, out: dict[str, str]) -> None:
    try:
        data = json.loads(raw[:200_000])
    except ValueError:
        flag = re.search(r'"isAccessibleForFree"\s*:\s*"?(true|false)', raw, re.IGNORECASE)
        if flag:
            out["ld:isaccessibleforfree"] = flag.group(1).lower()
        return
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item[:50])
        elif isinstance(item, dict):
            if "isAccessibleForFree" in item:
                out["ld:isaccessibleforfree"] = str(item["isAccessibleForFree"]).lower()
            if "@type" in item and "ld:type" not in out:
                out["ld:type"] = str(item["@type"])[:100]
            stack.extend(v for k, v in item.items() if isinstance(v, (dict, list)) and k != "isAccessibleForFree")


def visible_text(root: etree._Element, limit: int = TEXT_MAX) -> str:
    """Whitespace-collapsed text outside script/style/head, cut at `limit` characters."""
    parts: list[str] = []
    size = 0
    body = root.find("body")
    start = body if body is not None else root
    for el in start.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag in _DROP:
            continue
        parent = el.getparent()
        skip = False
        while parent is not None:
            if parent.tag in _DROP:
                skip = True
                break
            parent = parent.getparent()
        if skip:
            continue
        for chunk in (el.text, el.tail):
            if chunk and chunk.strip():
                parts.append(chunk.strip())
                size += len(chunk)
        if size > limit:
            break
    return _WS_RE.sub(" ", " ".join(parts)).strip()[:limit]
