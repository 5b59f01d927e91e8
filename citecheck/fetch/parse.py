"""Body → facts: title, canonical link, meta tags, bounded visible text and markup samples.

Parses each body once, only as far as the page rules need (no main-text extraction here:
that belongs to `harvest`): at most PARSE_MAX characters go to lxml, and the visible text stops at
TEXT_MAX. A long page is parsed in two steps: lxml first gets only the markup up to some way into
the body, and those facts stand when they provably equal a whole parse's (see `_prefix_facts`).
Robust to lying charsets, binary bodies, huge titles and deep nesting (every walk is linear in the
document: no per-element ancestor climbs).
"""
from __future__ import annotations

import hashlib
import itertools
import json
import re
from dataclasses import dataclass, field

from ahocorasick_rs import BytesAhoCorasick, Implementation
from lxml import etree

from citecheck.fetch.decode import decode
from citecheck.support.text import collapse_spaces

TITLE_MAX = 500
TEXT_MAX = 6_000
HTML_MAX = 8 * 1024
PARSE_MAX = 1024 * 1024
# A long page is parsed first up to PREFIX_BODY characters past its body's start (~6,000 visible
# characters take 7-10 KB of a plain article's markup, and a real page's <head> alone can be 100 KB),
# when that skips at least PREFIX_SAVING characters and at least as many as it reads. (Instructions
# per parse on the loopback benchmark's articles and on the saved real pages, against 16 KB: 8 KB
# -11 % / +1 %, 10 KB -9 % / -1 %, 12 KB -6 % / -1 %.)
PREFIX_BODY = 10 * 1024
PREFIX_SAVING = 8 * 1024


def _spellings(*words: str) -> list[str]:
    """Every ASCII upper/lower-case spelling of `words` (libxml2 folds tag names in ASCII only)."""
    return ["".join(letters) for word in words
            for letters in itertools.product(*({c.lower(), c.upper()} for c in word))]


def _finder(*words: str) -> BytesAhoCorasick:
    # one Aho-Corasick DFA over every spelling, on bytes: a case-blind regex scans ten times slower,
    # and the str automaton five times (it maps every offset back to characters)
    return BytesAhoCorasick(sorted(x.encode("ascii") for x in _spellings(*words)),
                            implementation=Implementation.DFA)


# What, after the cut, could still change the head facts of the prefix: any <meta> tag or JSON-LD
# script; a <title> or a <link> only when the prefix has none (the first title and canonical win).
_LATE = {(has_title, has_link): _finder("<meta", "ld+json", *(() if has_title else ("<title",)),
                                        *(() if has_link else ("<link",)))
         for has_title in (False, True) for has_link in (False, True)}

HTML_TYPES = ("text/html", "application/xhtml+xml")
_DROP = ("script", "style", "noscript", "template", "svg", "head", "iframe", "object")
_DROP_SET = frozenset(_DROP)
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
    found = _prefix_facts(text) if len(text) > PREFIX_BODY + PREFIX_SAVING else None
    if found is None:
        root = _document(text[:PARSE_MAX])
        if root is None:
            return BodyFacts(content_hash=digest, html_sample=text[:HTML_MAX])
        title, canonical, meta = _head_facts(root)
        found = title, canonical, meta, _visible(root, TEXT_MAX)[0]
    title, canonical, meta, sample = found
    return BodyFacts(title=title, canonical=canonical, text_sample=sample,
                     html_sample=text[:HTML_MAX], content_hash=digest, meta=meta)


def _prefix_facts(text: str) -> tuple[str, str, dict[str, str], str] | None:
    """The facts of `text[:PARSE_MAX]` from parsing only its start, or None when they might differ.

    The cut falls right before a "<" past the body's start, so no tag is split. libxml2 parses as
    it reads: the tree of the prefix is the whole document's tree up to the cut, except what was
    still open there (the right-hand spine). So the prefix's facts are the whole parse's when
    - the visible text reached its limit at a text chunk some later chunk follows (a tag closed it),
    - no title or JSON-LD script that counts lies on that open spine (it might be cut short), and
    - nothing after the cut could add a head fact (a <meta>, a JSON-LD script, the first <title> or
      canonical <link>; see _LATE).
    Otherwise the caller parses the whole text (tests hold both paths to the same facts)."""
    if not PAYOFF.worth_trying():
        return None
    found = _try_prefix(text)
    PAYOFF.record(found is not None)
    return found


def _try_prefix(text: str) -> tuple[str, str, dict[str, str], str] | None:
    # where the body starts, in its usual spellings (a miss only costs a cut too early to succeed)
    body = text.find("<body", 0, PARSE_MAX)
    if body < 0:
        body = max(text.find("<BODY", 0, PARSE_MAX), 0)
    cut = text.find("<", body + PREFIX_BODY, PARSE_MAX)
    # a try that fails costs its parse on top of the whole one: try only where it skips at least
    # as much as it reads (so a failure costs at most half a whole parse more)
    if cut < 0 or min(len(text), PARSE_MAX) - cut < max(PREFIX_SAVING, cut):
        return None
    late = text[cut:PARSE_MAX].encode("utf-8", "surrogatepass")
    if _LATE[True, True].find_matches_as_indexes(late):  # a <meta> or JSON-LD: no need to parse
        return None
    return _prefix_parse(text[:cut], late)


def _prefix_parse(prefix: str, late: bytes) -> tuple[str, str, dict[str, str], str] | None:
    root = _document(prefix)
    if root is None:
        return None
    title, canonical, meta, counted = _head_walk(root)
    if any(_maybe_open(el) for el in counted):
        return None
    has_title = bool(counted) and counted[0].tag == "title"
    if not (has_title and canonical) and _LATE[has_title, bool(canonical)].find_matches_as_indexes(late):
        return None
    sample, closed = _visible(root, TEXT_MAX)
    return (title, canonical, meta, sample) if closed else None


class Payoff:
    """Whether the two-step parse has been paying off in this process. Plain articles hold 6,000
    visible characters in the first 10 KB of their body; most real pages, heavy with markup, do
    not, and there a try costs its own parse on top of the whole one (at most half a whole parse:
    a try reads no more than it skips, which is what a success saves). So tries go on while the last one paid or at least
    three of the last WINDOW did, and otherwise pause but for one in EXPLORE (pages change within a
    run). Only the cost depends on this: both paths give the same facts."""

    WINDOW = 8
    EXPLORE = 16

    def __init__(self) -> None:
        self.history = 0  # the last WINDOW outcomes, newest in bit 0
        self.tries = self.paused = 0

    def worth_trying(self) -> bool:
        if self.tries < self.WINDOW or self.history & 1 or 3 * self.history.bit_count() >= self.WINDOW:
            return True
        self.paused += 1
        return self.paused % self.EXPLORE == 0

    def record(self, won: bool) -> None:
        self.tries += 1
        self.history = ((self.history << 1) | won) & ((1 << self.WINDOW) - 1)


PAYOFF = Payoff()


def _maybe_open(el: etree._Element) -> bool:
    """Whether `el` may have been open at the end of its document: neither it nor any ancestor is
    followed by text or an element (any of those means a closing tag was read)."""
    node: etree._Element | None = el
    while node is not None:
        if node.tail is not None or node.getnext() is not None:
            return False
        node = node.getparent()
    return True


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
    title, canonical, meta, _counted = _head_walk(root)
    return title, canonical, meta


def _head_walk(root: etree._Element) -> tuple[str, str, dict[str, str], list[etree._Element]]:
    """`_head_facts`, and the elements whose content counted: the title first, if any, then the
    JSON-LD scripts (meta and link tags are void: they cannot be cut short)."""
    title_el = link_href = None
    meta: dict[str, str] = {}
    scripts: list[etree._Element] = []
    for el in root.iter("title", "meta", "link", "script"):
        tag = el.tag
        if tag == "meta":
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
    counted = scripts if title_el is None else [title_el, *scripts]
    return title or meta.get("og:title", ""), link_href or "", meta, counted


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


def visible_text(root: etree._Element, limit: int = TEXT_MAX) -> str:
    """Whitespace-collapsed text outside script/style/head, cut at `limit` characters.

    Drops the invisible subtrees first (keeping their tails), then walks the text once: linear in
    the document however deep it nests. Mutates `root`, so call it after the other extractions."""
    return _visible(root, limit)[0]


def _visible(root: etree._Element, limit: int) -> tuple[str, bool]:
    """`visible_text`, and whether the walk stopped at the limit before the document's last text
    chunk (so every chunk it used ended at a tag: a cut-short document gives the same text)."""
    body = next(root.iterchildren("body"), None)  # root.find("body"), without ElementPath's overhead
    start = body if body is not None else root
    if start.tag in _DROP_SET:
        return "", False
    etree.strip_elements(start, *_DROP, with_tail=False)
    # The text is the chunks' words joined by single spaces, up to the first chunk that brings the
    # raw size (blank chunks aside) past `limit`: its first `limit` characters are those of any
    # longer run of chunks. So the chunks are joined first and collapsed once, not one by one.
    texts: list[str] = []
    size = 0
    chunks = start.itertext()
    for chunk in chunks:
        text = str(chunk[: limit * 2])
        if not text or text.isspace():  # no words (in what the walk reads of a long chunk)
            continue
        texts.append(text)
        size += len(chunk)
        if size > limit:
            return collapse_spaces(" ".join(texts))[:limit], next(chunks, None) is not None
    return collapse_spaces(" ".join(texts))[:limit], False
