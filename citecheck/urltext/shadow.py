"""A normalised shadow copy of a text that remembers where every character came from.

URL detection runs on the shadow, removal on the original. The shadow is what a reader (or a
browser's address bar) would see: Unicode NFKC (full-width `ｈｔｔｐｓ：／／` becomes `https://`),
format characters dropped (zero-width space/joiners, word joiner, BOM, soft hyphen, bidi
controls), HTML character references decoded (`&#58;` → `:`), Markdown backslash escapes undone
(`evil\\.com`), emphasis and code marks dropped (`**evil**.com`), defanged dots and colons
refanged (`example[.]com`, `hxxps[:]//`) and ideographic full stops read as dots. Each shadow
character maps back to the half-open span of original characters that produced it.
"""
from __future__ import annotations

import bisect
import html
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# Anything that is not plain printable ASCII prose needs the slow path.
_SPECIAL = (r"[^\x20-\x7e\n\t]|&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});|\\[!-/:-@\[-`{-~]"
            r"|[*`]|\[(?:\.|dot|:|/|://)\]|\((?:\.|dot)\)|\{(?:\.|dot)\}")
_SPECIAL_RE = re.compile(_SPECIAL, re.IGNORECASE)
_SPECIAL_STARS_RE = re.compile(r"h\*\*p|" + _SPECIAL, re.IGNORECASE)  # only when `**p` occurs: every `h` costs
_REFANG = {"h**p": "http", "[.]": ".", "[dot]": ".", "(.)": ".", "(dot)": ".", "{.}": ".", "{dot}": ".",
           "[:]": ":", "[/]": "/", "[://]": "://"}
_LOOKALIKE = {"\u3002": ".", "\uff61": ".", "\ufe12": ".", "\u2024": ".", "\u2044": "/", "\u2215": "/",
              "\u29f8": "/", "\uff0f": "/"}


@dataclass(frozen=True)
class Shadow:
    """`text` is the shadow. Runs: (shadow start, original start, original end, copied verbatim);
    a verbatim run maps character by character, any other run wholly to its original span."""

    text: str
    runs: tuple[tuple[int, int, int, bool], ...]
    run_starts: tuple[int, ...]

    def original(self, start: int, end: int) -> tuple[int, int]:
        """The original span covering shadow characters [start, end)."""
        return self._at(start)[0], self._at(end - 1)[1]

    def _at(self, offset: int) -> tuple[int, int]:
        run = self.runs[bisect.bisect_right(self.run_starts, offset) - 1]
        if run[3]:
            return run[1] + offset - run[0], run[1] + offset - run[0] + 1
        return run[1], run[2]


@lru_cache(maxsize=8192)
def normalise_char(ch: str) -> str:
    """What one character looks like to a reader: '' for format characters, else NFKC."""
    if ch in _LOOKALIKE:
        return _LOOKALIKE[ch]
    if unicodedata.category(ch) == "Cf":
        return ""
    out = unicodedata.normalize("NFKC", ch)
    return "".join(_LOOKALIKE.get(c, c) for c in out if unicodedata.category(c) != "Cf")


def build_shadow(text: str) -> Shadow:
    """The shadow of `text`; plain runs are copied in bulk."""
    parts: list[str] = []
    runs: list[tuple[int, int, int, bool]] = []
    size = pos = 0
    special = _SPECIAL_STARS_RE if "**p" in text.lower() else _SPECIAL_RE
    for m in special.finditer(text):
        if m.start() > pos:
            runs.append((size, pos, m.start(), True))
            parts.append(text[pos:m.start()])
            size += m.start() - pos
        out = _token(m.group(0))
        if out:
            runs.append((size, m.start(), m.end(), False))
            parts.append(out)
            size += len(out)
        pos = m.end()
    if pos < len(text) or not runs:
        runs.append((size, pos, len(text), True))
        parts.append(text[pos:])
    return Shadow("".join(parts), tuple(runs), tuple(r[0] for r in runs))


def _token(token: str) -> str:
    if len(token) == 1:
        return "" if token in "*`" else normalise_char(token)
    lowered = token.lower()
    if lowered in _REFANG:
        return _REFANG[lowered]
    if token[0] == "\\":
        return token[1]
    if token[0] == "&":
        decoded = html.unescape(token)
        return "".join(normalise_char(c) for c in decoded) if decoded != token else token
    return "".join(normalise_char(c) for c in token)


def shadow_text(text: str) -> str:
    """Only the normalised text (for matching a destination against the corpus)."""
    return build_shadow(text).text
