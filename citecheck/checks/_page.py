"""Shared helpers of the page-stage rules (H…): text folding, phrase packs, URL shape, hits.

Pure functions only: every rule stays a function of its `Fetched` subject and options.
Not a rule module (no `ID`), so the registry skips it.
"""
from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from citecheck.checks._literals import Literals
from citecheck.checks._required import required_literals
from citecheck.models import Gate, Hit, Page, Severity, Verdict
from citecheck.support.text import collapse_spaces
from citecheck.urls import TRACKING_PARAMS

HTML_TYPES = ("text/html", "application/xhtml+xml")
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " ", "\u2013": "-",
                         # `re.IGNORECASE` holds dotless ı and dotted İ equal to i, and NFKC and casefold
                         # keep them apart: fold them to i, or a text's "ı" would match a pack's "i" in a
                         # regex but not in the literal pre-filter (tests/checks/test_required_literals.py)
                         "\u0131": "i", "\u0130": "i"})
_INDEX = re.compile(r"^(index|default|home)(\.[a-z0-9]+)?$", re.IGNORECASE)
_LOCALE = re.compile(r"^[a-z]{2}([-_][a-z]{2})?$", re.IGNORECASE)


def fold(text: str) -> str:
    """Case-folded, NFKC-normalised text with curly quotes straightened and whitespace collapsed."""
    # str.split() splits on exactly the characters `\s` matches, and is 4x faster than re.sub
    text = text or ""
    if text.isascii():  # NFKC and the quote table change no ASCII character: skip both passes
        if "  " in text or "\n" in text or "\t" in text or "\r" in text or "\x0b" in text or "\x0c" in text \
                or "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text:
            return collapse_spaces(text).lower()
        # no run of spaces and no other ASCII whitespace (a parsed text sample is collapsed already):
        # collapsing only strips the ends (memchr scans, not a byte translation and replace passes)
        return text.strip(" ").lower()
    return " ".join(unicodedata.normalize("NFKC", text).translate(_QUOTES).split()).casefold()


def fold_case_kept(text: str) -> str:
    """`fold(text)` without the case folding: for a list that matches case-sensitively (`case: true`)."""
    text = text or ""
    if text.isascii():
        return collapse_spaces(text)
    return " ".join(unicodedata.normalize("NFKC", text).translate(_QUOTES).split())


_NON_SPACE = re.compile(r"\S+")  # `\s` is exactly what str.split() splits on


def fold_mapped(text: str, case: bool = False) -> tuple[str, list[tuple[int, int, int, int, bool]]]:
    """`fold(text)` (`fold_case_kept` with `case`) and where each of its words came from in `text`:
    `(start in the folded text, its length, start in text, end in text, one to one)`. A word that
    folds to as many characters maps character by character; one that does not (a ligature, `ß`)
    maps as a whole. Folding word by word gives the text folding it whole does: NFKC and case folding
    never join across whitespace."""
    pieces: list[str] = []
    words: list[tuple[int, int, int, int, bool]] = []
    at = 0
    for word in _NON_SPACE.finditer(text):
        raw, start, end = word.group(0), word.start(), word.end()
        normal = raw if raw.isascii() else unicodedata.normalize("NFKC", raw).translate(_QUOTES)
        parts = normal.split()  # NFKC can make a space (U+00A8 -> ' \u0308')
        for part in parts:
            part = part if case else part.lower() if part.isascii() else part.casefold()
            if pieces:
                pieces.append(" ")
                at += 1
            pieces.append(part)
            words.append((at, len(part), start, end, len(parts) == 1 and len(part) == end - start))
            at += len(part)
    return "".join(pieces), words


def _folded_start(word: tuple[int, int, int, int, bool]) -> int:
    return word[0]


def _origin(words: list[tuple[int, int, int, int, bool]], at: int, end: bool) -> int:
    """Where folded position `at` (a match's start, or with `end` its last character) lies in the text."""
    i = max(bisect.bisect_right(words, at, key=_folded_start) - 1, 0)
    fstart, flen, start, stop, exact = words[i]
    offset = at - fstart
    if offset >= flen:  # the space after word i: a start moves to the next word, an end stays at this one
        return stop if end or i + 1 == len(words) else words[i + 1][2]
    if not exact:
        return stop if end else start
    return start + offset + 1 if end else start + offset


Memo = dict[Any, Any]  # what the rules judging one page derive from it, shared by them (`Fetched.memo`)


def memoised(memo: Memo | None, key: Any, make: Any, *args: Any) -> Any:
    """`make(*args)`, kept in `memo` under `key` when there is a memo: the page rules judging one
    link share what they derive from its page (its folded text, its lowered markup, word pools)."""
    if memo is None:
        return make(*args)
    found = memo.get(key, memo)
    if found is memo:
        found = memo[key] = make(*args)
    return found


def folded(text: str, memo: Memo | None = None) -> str:
    """`fold(text)`, shared through the page's memo."""
    return memoised(memo, ("fold", text), fold, text)


def lower(text: str, memo: Memo | None = None) -> str:
    """`text.lower()`, shared through the page's memo (several rules read the same markup)."""
    return memoised(memo, ("lower", text), str.lower, text)


def _pattern(items: tuple[str, ...], regex: bool, case: bool = False) -> re.Pattern[str] | None:
    bounded: list[str] = []
    free: list[str] = []
    for item in items:
        body = item if regex else re.escape(fold_case_kept(item) if case else fold(item))
        right = r"(?!\w)" if re.search(r"[a-z0-9.]$", fold(item)[-1:]) else ""
        (bounded if re.match(r"[a-z0-9]", fold(item)[:1]) else free).append(f"(?:{body}){right}")
    # One shared left word boundary in front of the group, not one per alternative: the engine
    # then skips non-boundary positions at once (about ten times faster on 20 KB of text).
    parts = ([r"(?<!\w)(?:" + "|".join(bounded) + ")"] if bounded else []) + free
    # Plain phrases are folded like the text, so only regex items need IGNORECASE.
    return re.compile("|".join(parts), re.IGNORECASE if regex and not case else 0) if parts else None


class Phrases:
    """A phrase list, folded and compiled once (by the rule's `prepare`): `first(text)` finds the
    leftmost item in a text, the earlier item on a tie; `spans(text)` finds every match, where it
    stands in the text as written. The text is folded (`fold`), and so are plain items; regex items
    match it ignoring case. An item that starts or ends with a letter, digit (or, at its end, a dot)
    matches whole words only. With `case`, nothing is case-folded and regex items match case-
    sensitively (the YAML memo check types' `case: true`). Immutable and picklable.

    The page rules' pack lists and the YAML data check types (`citecheck.engine.packs`) both match
    through this class: one folding, one prefilter."""

    def __init__(self, items: Iterable[Any], regex: bool = True, case: bool = False) -> None:
        self.items = tuple(str(i) for i in items if str(i).strip())
        self.regex = regex
        self.case = case
        self._fold = fold_case_kept if case else fold
        self.folded = tuple(self._fold(i) for i in self.items)
        self.plain = None if regex else _pattern(self.items, False, case)
        self._joined: re.Pattern[str] | None = None  # all items in one pattern, for `spans` (made on first use)
        # For regex lists, (position, compiled item) indexed under each of the item's required
        # literals: an item none of whose literals occurs in the text is never tried.
        self.by_literal: dict[str, list[_Item]] = {}
        self.unconditional: list[_Item] = []  # tried on every text
        for position, item in enumerate(self.items if regex else ()):
            pattern = _pattern((item,), True, case)
            if pattern is None:
                continue
            literals = {self._fold(x) for x in required_literals(item)}
            if not literals or "" in literals:  # no literal, or one that folds away (all spaces)
                self.unconditional.append((position, pattern))
                continue
            for literal in literals:
                self.by_literal.setdefault(literal, []).append((position, pattern))
        self.literals = Literals(self.by_literal)
        self.any_unconditional = _any_of([pattern for _, pattern in self.unconditional])

    def first(self, text: str, memo: Memo | None = None) -> str:
        """The first item found in `text`, as it appears there (folded); '' when none."""
        if not self.items or not text:
            return ""
        text = folded(text, memo) if not self.case else memoised(memo, ("fold-case", text), fold_case_kept, text)
        if not self.regex:
            if not any(p in text for p in self.folded):
                return ""  # a substring pre-filter: most pages contain none of the phrases
            found = self.plain.search(text) if self.plain is not None else None
            return found.group(0) if found else ""
        return self._first_regex(text)

    def item(self, found: str) -> str:
        """The plain item, as written in the list, that `first` or `spans` found as `found`."""
        return next((item for item, key in zip(self.items, self.folded) if key == found), found)

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """Every match in `text`, left to right, not overlapping: `(start, end)` in `text` as written,
        and the match as `first` gives it (folded)."""
        if not self.items or not text:
            return []
        folded_text = self._fold(text)
        if not self._may_match(folded_text):
            return []
        if self._joined is None:
            self._joined = self.plain if not self.regex else _pattern(self.items, True, self.case)
        found = [m for m in self._joined.finditer(folded_text) if m.end() > m.start()] if self._joined else []
        if found and text.isascii() and len(folded_text) == len(text):  # nothing collapsed: the same places
            return [(m.start(), m.end(), m.group(0)) for m in found]
        words = fold_mapped(text, self.case)[1] if found else []  # where each folded word came from
        return [(_origin(words, m.start(), False), _origin(words, m.end() - 1, True), m.group(0)) for m in found]

    def _may_match(self, folded: str) -> bool:
        """The prefilter of `first`: some plain item, or some regex item's literal, is in the text."""
        if not self.regex:
            return any(p in folded for p in self.folded)
        return bool(self.unconditional) or bool(self.literals.found_in(folded))

    def _first_regex(self, folded: str) -> str:
        # On a short text (a title, a path) the calls cost more than the scans, so one joined search
        # decides whether any unconditional item can match; on a long one each item's own search is
        # faster (the joined pattern loses each item's literal-prefix scan).
        skip = len(folded) <= _SHORT and self.any_unconditional is not None \
            and self.any_unconditional.search(folded) is None
        tried = {} if skip else dict(self.unconditional)
        for literal in self.literals.found_in(folded):
            tried.update(self.by_literal[literal])  # an item found under two literals is tried once
        best: re.Match[str] | None = None
        best_key = (0, 0)
        for position, pattern in tried.items():
            found = pattern.search(folded)
            if found and (best is None or (found.start(), position) < best_key):
                best, best_key = found, (found.start(), position)
        return best.group(0) if best else ""


_Item = tuple[int, re.Pattern[str]]  # (position in the list, compiled item)
_SHORT = 400  # characters
_BACKREFERENCE = re.compile(r"\\[1-9]|\(\?P=|\(\?\(")


def _any_of(patterns: list[re.Pattern[str]]) -> re.Pattern[str] | None:
    """One alternation of `patterns` that matches a text exactly when one of them does (a pre-filter:
    most titles match none of a pack's unconditional items, and one search beats eight); None when
    the patterns cannot be joined faithfully (differing flags, back-references to group numbers)."""
    if len(patterns) < 2 or len({p.flags for p in patterns}) > 1 \
            or any(_BACKREFERENCE.search(p.pattern) for p in patterns):
        return None
    try:
        return re.compile("|".join(f"(?:{p.pattern})" for p in patterns), patterns[0].flags)
    except re.error:
        return None


def find_phrase(text: str, items: Iterable[Any], regex: bool = False) -> str:
    """The first phrase (or regex) of `items` found in `text`, as it appears there; '' when none.
    Compiles `items` on every call: rules compile theirs once, in `prepare` (see `Lists`)."""
    return Phrases(items, regex).first(text)


class Markers:
    """Raw markup markers (case-insensitive substrings), in list order; `first(markup)` finds one."""

    def __init__(self, items: Iterable[Any]) -> None:
        self.pairs = tuple((str(m), str(m).lower()) for m in items if str(m))
        self.literals = Literals(low for _, low in self.pairs)

    def first(self, markup: str, memo: Memo | None = None) -> str:
        present = self.literals.found_in(lower(markup or "", memo)) if self.pairs else frozenset()
        return next((m for m, low in self.pairs if low in present), "") if present else ""


def find_marker(markup: str, items: Iterable[Any]) -> str:
    """The first raw substring marker of `items` in markup (case-insensitive); compiles `items`."""
    return Markers(items).first(markup)





def pack_items(options: Mapping[str, Any], key: str) -> tuple[Any, ...]:
    """`options['pack'][key]` plus the rule's own `extra_<key>` option."""
    return (*options.get("pack", {}).get(key, []), *options.get(f"extra_{key}", []))


@dataclass(frozen=True)
class Lists:
    """A page rule's pack lists, compiled once by its `prepare(options)` and handed to `check`:
    regex phrase lists (searched in folded text), raw markup markers, and lowered plain items."""

    phrases: Mapping[str, Phrases]
    markers: Mapping[str, Markers]
    lowered: Mapping[str, tuple[str, ...]]

    @classmethod
    def of(cls, options: Mapping[str, Any], phrases: Iterable[str] = (), markers: Iterable[str] = (),
           lowered: Iterable[str] = ()) -> Lists:
        """Each named list as `pack[key]` plus the `extra_<key>` option."""
        return cls({key: Phrases(pack_items(options, key)) for key in phrases},
                   {key: Markers(pack_items(options, key)) for key in markers},
                   {key: tuple(str(i).lower() for i in pack_items(options, key)) for key in lowered})

    def find(self, key: str, text: str, memo: Memo | None = None) -> str:
        """The first item of regex list `key` in `text`; '' when none."""
        return self.phrases[key].first(text, memo)

    def marker(self, key: str, markup: str, memo: Memo | None = None) -> str:
        """The first marker of list `key` in `markup`; '' when none."""
        return self.markers[key].first(markup, memo)


def content_type(page: Page) -> str:
    raw = page.content_type or page.headers.get("content-type", "")
    return raw.split(";")[0].strip().lower()


def is_html(page: Page) -> bool:
    """True unless the page is known to be something other than HTML (a PDF, an image, JSON …)."""
    ctype = content_type(page)
    return not ctype or ctype in HTML_TYPES or bool(page.html_sample)


def answered(page: Page) -> bool:
    """The server answered with content (2xx, fetched as ok)."""
    return page.outcome.value == "ok" and page.status is not None and 200 <= page.status < 300


def path_segments(url: str) -> list[str]:
    """Meaningful path segments: no empty ones, no index file, no leading locale (`/en/`, `/de-de/`)."""
    return list(_segments(url))


def _segments(url: str) -> tuple[str, ...]:
    try:
        segs = [s for s in urlsplit(url).path.split("/") if s]
    except ValueError:
        return ()
    if segs and _INDEX.match(segs[-1]):
        segs = segs[:-1]
    if segs and _LOCALE.match(segs[0]):
        segs = segs[1:]
    return tuple(segs)


def content_query(url: str) -> list[tuple[str, str]]:
    """Query parameters that can select content (tracking parameters dropped)."""
    try:
        return [(k, v) for k, v in parse_qsl(urlsplit(url).query) if k.lower() not in TRACKING_PARAMS]
    except ValueError:
        return []


def is_deep(url: str) -> bool:
    """The URL names something below a site's home page (a path or a content-selecting query)."""
    return bool(path_segments(url) or content_query(url))


def is_root(url: str) -> bool:
    return not is_deep(url)


def emit(fetched: Any, message: str, evidence: str = "", fix: str = "", severity: str = "", verdict: str = "",
         gate: str = "") -> Hit:
    """A hit on the link; `severity`, `verdict` and `gate` are this finding's own, when they differ from
    the rule's declarations (a severity set in config still wins)."""
    return Hit(message, fetched.link.location, fetched.link.url, evidence[:300], fix,
               Severity(severity) if severity else None, Verdict(verdict) if verdict else None,
               Gate(gate) if gate else None)
