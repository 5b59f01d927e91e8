"""Body → facts: title, canonical link, meta tags, bounded visible text and markup samples.

Parses each body once, only as far as the page rules need (no main-text extraction here:
that belongs to `harvest`): at most PARSE_MAX characters go to lxml, and the visible text stops at
TEXT_MAX. Robust to lying charsets, binary bodies, huge titles and deep nesting (every walk is linear in the
document: no per-element ancestor climbs).
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field

from lxml import etree

from citecheck.fetch.decode import decode
from citecheck.support.text import collapse_spaces

TITLE_MAX = 500
TEXT_MAX = 8_000  # a wall notice under a teaser sits past 6,000 characters on real pages (bench/README)
HTML_MAX = 8 * 1024
PARSE_MAX = 2 * 1024 * 1024  # the body cap: a page cut there is judged on all that arrived

HTML_TYPES = ("text/html", "application/xhtml+xml")
_DROP = ("script", "style", "noscript", "template", "svg", "head", "iframe", "object")
_DROP_SET = frozenset(_DROP)
# Site chrome that is not the page's own text: menus and footers can fill the whole text sample
# before the article (or the wall notice under its teaser) begins.
_CHROME = ("nav", "footer")
_CHROME_ROLES = frozenset({"navigation", "contentinfo"})
PASSWORD_FIELD = "form:password"  # a meta key: "true" when the page has a password input (a sign-in form)
# collect_ids=False: no id→element table (nothing here looks elements up by id; ~6 % of a parse)
_PARSER = etree.HTMLParser(remove_comments=True, remove_pis=True, collect_ids=False)
_BYTES_PARSER = etree.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True, collect_ids=False)


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
    if ct in HTML_TYPES:
        return True
    if ct in ("", "text/plain", "application/octet-stream"):
        head = body[:512].lstrip().lower()
        return head.startswith((b"<!doctype html", b"<html", b"<head", b"<title"))
    return False


def parse_body(body: bytes, content_type: str = "text/html") -> BodyFacts:
    """Facts of an HTML body; a non-HTML body gets only its hash."""
    digest = hashlib.sha256(body).hexdigest()
    if not body or not is_html(content_type, body):
        return BodyFacts(content_hash=digest)
    text = decode(body, content_type)
    root = _document(text[:PARSE_MAX])
    if root is None:
        return BodyFacts(content_hash=digest, html_sample=text[:HTML_MAX])
    title, canonical, meta = _head_facts(root)
    sample = visible_text(root, TEXT_MAX)
    return BodyFacts(title=title, canonical=canonical, text_sample=sample,
                     html_sample=text[:HTML_MAX], content_hash=digest, meta=meta)


def _document(text: str) -> etree._Element | None:
    # Plain etree elements: lxml.html's element classes cost a Python lookup per node.
    try:
        root = etree.fromstring(text, _PARSER)
    except ValueError:  # a str with an XML encoding declaration: hand lxml the bytes instead
        try:
            root = etree.fromstring(text.encode("utf-8"), _BYTES_PARSER)
        except (etree.ParserError, etree.XMLSyntaxError, ValueError):
            return None
    except (etree.ParserError, etree.XMLSyntaxError):
        return None
    return root if isinstance(root, etree._Element) else None


def _head_facts(root: etree._Element) -> tuple[str, str, dict[str, str]]:
    """Title, canonical link and meta tags, from one walk over the four tags they live in."""
    title_el = link_href = None
    meta: dict[str, str] = {}
    scripts: list[etree._Element] = []
    for el in root.iter("title", "meta", "link", "script", "input"):
        tag = el.tag
        if tag == "input":
            if (el.get("type") or "").strip().lower() == "password":
                meta[PASSWORD_FIELD] = "true"
        elif tag == "meta":
            if len(meta) < 200:
                _add_meta(el, meta)
        elif tag == "script":
            if el.text and (el.get("type") or "").lower() == "application/ld+json":
                scripts.append(el)
        elif tag == "title":
            if title_el is None:
                title_el = el
        elif link_href is None and "canonical" in (el.get("rel") or "").lower().split() and el.get("href"):
            link_href = (el.get("href") or "").strip()[:2000]
    for script in scripts:  # after every meta tag: a meta tag wins over JSON-LD for the same key
        _json_ld(str(script.text), meta)
    title = _title_text(title_el) if title_el is not None else ""
    return title or meta.get("og:title", ""), link_href or "", meta


def _title_text(el: etree._Element) -> str:
    text = "".join(str(t) for t in el.itertext())  # str(): lxml's stubs allow bytes
    return " ".join(text[: TITLE_MAX * 4].split())[:TITLE_MAX]


def _add_meta(el: etree._Element, out: dict[str, str]) -> None:
    key = (el.get("property") or el.get("name") or el.get("http-equiv") or "").strip().lower()
    value = (el.get("content") or "").strip()
    if key and value and key not in out:
        out[key[:100]] = value[:1000]


def _json_ld(raw: str, out: dict[str, str]) -> None:
    try:
        data = json.loads(raw[:200_000])
    except ValueError:
        flag = re.search(r'"isAccessibleForFree"\s*:\s*"?(true|false)', raw[:200_000], re.IGNORECASE)
        if flag:
            out["ld:isaccessibleforfree"] = flag.group(1).lower()
        return
    stack = [data]
    seen = 0
    while stack and seen < 5000:
        item = stack.pop()
        seen += 1
        if isinstance(item, list):
            stack.extend(item[:50])
        elif isinstance(item, dict):
            if "isAccessibleForFree" in item:
                out["ld:isaccessibleforfree"] = str(item["isAccessibleForFree"]).lower()
            if "@type" in item and "ld:type" not in out:
                out["ld:type"] = str(item["@type"])[:100]
            stack.extend(v for k, v in item.items() if isinstance(v, (dict, list)) and k != "isAccessibleForFree")


def _drop_keeping_tail(el: etree._Element) -> None:
    parent = el.getparent()
    if parent is None:
        return
    if el.tail:
        previous = el.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def visible_text(root: etree._Element, limit: int = TEXT_MAX) -> str:
    """Whitespace-collapsed text outside script/style/head and site chrome (menus, footers: `nav`,
    `footer`, role navigation or contentinfo), cut at `limit` characters.

    Drops the invisible subtrees first (keeping their tails), then walks the text once: linear in
    the document however deep it nests. Mutates `root`, so call it after the other extractions."""
    body = next(root.iterchildren("body"), None)  # root.find("body"), without ElementPath's overhead
    start = body if body is not None else root
    if start.tag in _DROP_SET:
        return ""
    etree.strip_elements(start, *_DROP, *_CHROME, with_tail=False)
    for el in start.xpath(".//*[@role]"):  # XPath: a C walk; most pages have few role attributes
        if (el.get("role") or "").strip().lower() in _CHROME_ROLES:
            _drop_keeping_tail(el)
    # The text is the chunks' words joined by single spaces, up to the first chunk that brings the
    # raw size (blank chunks aside) past `limit`: its first `limit` characters are those of any
    # longer run of chunks. So the chunks are joined first and collapsed once, not one by one.
    texts: list[str] = []
    size = 0
    for chunk in start.itertext():
        text = str(chunk[: limit * 2])
        if not text or text.isspace():  # no words (in what the walk reads of a long chunk)
            continue
        texts.append(text)
        size += len(chunk)
        if size > limit:
            break
    return collapse_spaces(" ".join(texts))[:limit]
