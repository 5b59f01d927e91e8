"""The memo names its company after a document platform: the model read the watermark.

A deck shared through DocSend or Dropbox carries the platform's name on every page; a model
asked "which company is this?" answered "DocSend", and the memo was titled "Dropbox Investment
Memo". Every name the memo gives its company is checked: the front matter's (`company: NAME` or
`company: {name:}`) and the first H1's, with words like "Investment Memo" stripped (front matter
adds a name to check, never hides the heading's; each part of the heading between `:`, `|` or a dash
is read on its own: "# Dropbox Investment Memo: Solvane Series B"), each compared with the
`watermarks` pack (rules/watermarks.yaml) after dropping legal suffixes: a finding when it equals
a platform name (rapidfuzz ratio ≥ `score_cutoff`) or platform names make up at least
`dominance` of it ("Dropbox DocSend"). A memo genuinely about Notion or Box: add it to `allow`.

Failing example:

    # Dropbox Investment Memo

Passing example:

    # Acme Robotics Investment Memo
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.models import Document, Hit, Location

ID = "M002"
NAME = "watermark-company"
STAGE = "memo"
SEVERITY = "error"
VERDICT = "memo"
PACK = "watermarks"
DEFAULTS: dict[str, Any] = {"score_cutoff": 92, "dominance": 0.75, "allow": []}
OPTIONS = {"score_cutoff": "rapidfuzz ratio (0-100) at which a name equals a platform name",
           "dominance": "share of the name (0-1) platform names must cover to dominate it",
           "allow": "company names never to report (a memo really about Notion)"}

_FRONT_KEY_RE = re.compile(r"^(?P<indent>\s*)(?P<key>[\w-]+)\s*:\s*(?P<value>.*)$")
_PUNCT_RE = re.compile(r"[^\w.]+")
_LITERAL_RE = re.compile(r"[a-z0-9 ]+", re.ASCII)  # a title-noise pattern that is plain lower-case words
_PARTS_RE = re.compile(r"\s*(?:[:|–—]+|\s-+\s)\s*")


def company_name(doc: Document, pack: Mapping[str, Any]) -> tuple[str, Location]:
    """The memo's company name and where it is written ('' when neither front matter nor H1 names one)."""
    return next(iter(company_names(doc, pack)), ("", Location(doc.path)))


def company_names(doc: Document, pack: Mapping[str, Any]) -> list[tuple[str, Location]]:
    """Every name the memo gives its company, and where: the front matter's, then the first H1's and
    each part of it (unless it is the same name)."""
    heading, where = _heading_name(doc, pack)
    # each part of the heading between `:`, `|` or a dash on its own: "# Dropbox Investment Memo:
    # Solvane Series B" names Dropbox and Solvane (the whole, "Dropbox : Solvane", is dominated by neither)
    parts = [p.strip() for p in _PARTS_RE.split(heading) if p.strip()] if heading else []
    found = [_front_matter_name(doc), (heading, where), *((part, where) for part in parts)]
    out: list[tuple[str, Location]] = []
    for name, loc in found:
        if name and name.casefold() not in {n.casefold() for n, _ in out}:
            out.append((name, loc))
    return out


def _front_matter_name(doc: Document) -> tuple[str, Location]:
    value = doc.front_matter.get("company")
    name = value if isinstance(value, str) else value.get("name") if isinstance(value, Mapping) else None
    if isinstance(name, str) and name.strip():
        return name.strip(), _front_matter_location(doc, name.strip(), isinstance(value, Mapping))
    return "", Location(doc.path)


def _heading_name(doc: Document, pack: Mapping[str, Any]) -> tuple[str, Location]:
    heading = next((h for h in doc.headings if h.level == 1), None)
    if heading is None:
        return "", Location(doc.path)
    title = heading.text
    for noise in pack.get("title_noise", []):
        if isinstance(noise, str) and _LITERAL_RE.fullmatch(noise) and title.isascii() and noise.lower() not in title.lower():
            continue  # cannot match (an ASCII title, a plain-word pattern): no pattern compiled for it
        title = re.sub(rf"(?<!\w)(?:{noise})(?!\w)", " ", title, flags=re.IGNORECASE)
    return " ".join(re.sub(r"[:|–—-]+\s*$", "", title.strip()).split()), heading.location


def _front_matter_location(doc: Document, name: str, nested: bool) -> Location:
    lines = doc.text.split("\n")
    in_company = False
    for number, line in enumerate(lines[1:], start=2):
        if line.strip() in ("---", "..."):
            break
        m = _FRONT_KEY_RE.match(line)
        if not m:
            continue
        if not m.group("indent"):
            in_company = m.group("key") == "company"
        if in_company and (m.group("key") == "name" if nested else m.group("key") == "company"):
            column = line.find(name, m.start("value"))
            return Location(doc.path, number, column + 1 if column >= 0 else m.start("key") + 1)
    return Location(doc.path, 1, 1)


def normalise(name: str, pack: Mapping[str, Any]) -> str:
    """Lower case, punctuation (except '.') to spaces, legal suffixes dropped."""
    return _normalise(name, Platforms(pack).suffixes)


def _normalise(name: str, suffixes: frozenset[str]) -> str:
    text = unicodedata.normalize("NFKC", name).casefold()
    words = _PUNCT_RE.sub(" ", text).replace(". ", " ").strip(" .").split()
    while len(words) > 1 and words[-1].strip(".") in suffixes:
        words.pop()
    return " ".join(words)


class Platforms:
    """The pack's platform names, normalised once per pack; each name's word pattern compiles the
    first time a company name contains the platform's name (~36 compiles saved at a typical start)."""

    def __init__(self, pack: Mapping[str, Any]) -> None:
        self.suffixes = frozenset(str(s).casefold() for s in pack.get("legal_suffixes", []))
        self.entries = [(str(platform), p_norm, p_norm.replace(" ", ""))
                        for platform in pack.get("platforms", [])
                        for p_norm in [_normalise(str(platform), self.suffixes)]]
        self.words: dict[str, re.Pattern[str]] = {}  # normalised name -> its whole-word pattern, once needed

    def word(self, p_norm: str) -> re.Pattern[str]:
        """The pattern of `p_norm` as a whole word, compiled on first use."""
        pattern = self.words.get(p_norm)
        if pattern is None:
            pattern = self.words[p_norm] = re.compile(rf"(?<!\w){re.escape(p_norm)}(?!\w)")
        return pattern


def prepare(options: Mapping[str, Any]) -> Platforms:
    return Platforms(options.get("pack", {}))


def _similar(a: str, b: str, cutoff: float) -> bool:
    """rapidfuzz's ratio(a, b) >= cutoff. The ratio is 200 * LCS / (len a + len b), and the longest
    common subsequence is at most the characters the two share (as multisets), so most pairs are
    decided without importing rapidfuzz, which a CLI start then never pays for."""
    if not a or not b or 200 * min(len(a), len(b)) / (len(a) + len(b)) < cutoff:
        return False
    if 200 * sum((Counter(a) & Counter(b)).values()) / (len(a) + len(b)) < cutoff:
        return False
    from rapidfuzz import fuzz

    return fuzz.ratio(a, b) >= cutoff


def watermark_match(name: str, pack: Mapping[str, Any] | Platforms, cutoff: float = 92, dominance: float = 0.75) -> str:
    """The platform `name` equals or is dominated by (`pack` raw or as `prepare` built it), or ''."""
    platforms = pack if isinstance(pack, Platforms) else Platforms(pack)
    norm = _normalise(name, platforms.suffixes)
    compact = norm.replace(" ", "")
    if not compact:
        return ""
    covered, best = 0, ""
    for platform, p_norm, p_compact in platforms.entries:
        if _similar(norm, p_norm, cutoff) or _similar(compact, p_compact, cutoff):
            return platform
        if p_compact and p_norm in norm and platforms.word(p_norm).search(norm):  # no substring: no compile
            covered += len(p_compact)
            best = best if len(best) >= len(platform) else platform
    return best if covered / len(compact) >= dominance else ""


def check(memo: Any, options: Mapping[str, Any], prepared: Platforms | None = None) -> Iterator[Hit]:
    pack = options.get("pack", {})
    allowed = {str(a).casefold() for a in options.get("allow", [])}
    for name, loc in company_names(memo.document, pack):
        if name.casefold() in allowed:
            continue
        platform = watermark_match(name, prepared or pack, float(options.get("score_cutoff", 92)),
                                   float(options.get("dominance", 0.75)))
        if not platform:
            continue
        yield Hit(f"company name {name!r} is the document platform {platform!r}: the memo read the watermark, "
                  f"not the deck", loc, evidence=name)
