"""Sentence splitting and the hard facts of a claim: content words, numbers, named entities."""
from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

# The ASCII characters str.split() splits on, each mapped to a space (a test holds the table to it)
_ASCII_SPACE = bytes.maketrans(b"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f", b"         ")


def collapse_spaces(text: str) -> str:
    """`" ".join(text.split())`; on ASCII text in C passes over bytes, with no list of words built
    (twice as fast on prose: a page's first 6,000 characters are ~1,000 words)."""
    if not text.isascii():
        return " ".join(text.split())
    spaced = text.encode("ascii").translate(_ASCII_SPACE)
    while b"  " in spaced:
        spaced = spaced.replace(b"  ", b" ")
    return spaced.strip(b" ").decode("ascii")


# Matches from the sentence's final punctuation (a first-character class the regex engine can scan
# for), not from a look-behind tried at every position: the sentence ends one character in.
_SENT_END_RE = re.compile(r"[.!?。！？][\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9\u4e00-\u9fff])")
_STOP_CHARS = ".!?。！？"  # _SENT_END_RE's first character class: where a match can start
_ABBREV = ("e.g.", "i.e.", "etc.", "vs.", "Inc.", "Ltd.", "Corp.", "Co.", "Mr.", "Ms.", "Dr.", "St.", "No.", "U.S.",
           "approx.", "Jan.", "Feb.", "Mar.", "Apr.", "Aug.", "Sept.", "Sep.", "Oct.", "Nov.", "Dec.", "Fig.")  # each ends in "."
_MD_LINK_RE = re.compile(r"!?\[([^\[\]]*)\]\([^()]*\)")  # no [ in the label, no ( in the target: linear
_CITE_RE = re.compile(r"\[\^[^\[\]]+\]|\[src-\d{3,}(?:\s*[,;]\s*src-\d{3,})*\]|<[^<>]+>", re.IGNORECASE)
_LIST_LABEL_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\*\*)?[\w][\w /&-]{0,40}:(?:\*\*)?\s+|^\s*(?:[-*+]|\d+[.)])\s+")
_URL_RE = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_MARKUP_RE = re.compile(r"[*_`#>|]+")
_WORD_RE = re.compile(r"[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f'-]+|\d[\d,.]*")
# A currency sign or digit not right after a word character or a dot (a sign needs a digit next),
# then the number and its unit. The look-behinds follow the first character, not precede it, so the
# regex engine scans for that character instead of trying every position.
_NUMBER_RE = re.compile(r"[$€£¥\d](?<![\w.][$€£¥\d])(?:(?<=[$€£¥])\d|(?<=\d))"
                        r"[\d,]*(?:\.\d+)?\s?(?:%|percent|per cent|bn|billion|million|m\b|k\b|x\b)?", re.IGNORECASE)
_NUMBER_NOISE_RE = re.compile(r"[$€£¥,\s]")
_NUMBER_CORE_RE = re.compile(r"\d+(?:\.\d+)?")
_ENTITY_RE = re.compile(r"\b(?:[A-Z][a-zA-Z0-9&'-]*[a-z0-9][a-zA-Z0-9&'-]*|[A-Z]{2,}[a-z]?s?)"
                        r"(?:\s+(?:[A-Z][a-zA-Z0-9&'-]+|of|de|and|&))*(?:\s+[A-Z][a-zA-Z0-9&'-]+)?")
_POSSESSIVE_RE = re.compile(r"['’]s\b")
STOPWORDS = frozenset(["a", "an", "the", "and", "or", "but", "if", "then", "of", "to", "in", "on", "at", "by", "for", "with", "from", "as", "is", "are", "was", "were", "be", "been", "being", "that", "this", "these", "those", "it", "its", "their", "there", "which", "who", "whom", "whose", "what", "when", "where", "why", "how", "than", "too", "very", "can", "could", "should", "would", "may", "might", "will", "shall", "do", "does", "did", "has", "have", "had", "not", "no", "nor", "so", "such", "into", "over", "under", "about", "after", "before", "between", "during", "per", "via", "our", "we", "they", "he", "she", "his", "her", "them", "also", "more", "most", "less", "least", "many", "much", "other", "some", "any", "each", "every", "all", "both", "either", "neither", "one", "two", "three", "first", "second", "new", "own", "same", "up", "down", "out", "off", "again", "further", "once"])
_SUFFIXES = ("ing", "edly", "ed", "es", "s", "ly")


def split_sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pairs; conservative about abbreviations and decimals."""
    stops = _stops(text)
    protected = text
    for abbr in _abbreviations_in(text, stops):
        protected = protected.replace(abbr, abbr.replace(".", "\x00"))
    out: list[tuple[int, str]] = []
    start = 0
    for m in _SENT_END_RE.finditer(protected) if stops is None else _ends_at(protected, stops):
        out.append((start, text[start:m.start() + 1]))
        start = m.end()
    out.append((start, text[start:]))
    return [(o, s) for o, s in out if s.strip()]


def _stops(text: str) -> list[int] | None:
    """Where `text` has a sentence-final character, in order: C-level `find`s, not a regex trying
    every character. None when they are so dense that the regex is the cheaper way."""
    most = len(text) // 32
    stops: list[int] = []
    for char in ".!?" if text.isascii() else _STOP_CHARS:
        at = text.find(char)
        while at != -1:
            if len(stops) > most:
                return None
            stops.append(at)
            at = text.find(char, at + 1)
    return sorted(stops)


def _ends_at(protected: str, stops: list[int]) -> Iterator[re.Match[str]]:
    """`_SENT_END_RE.finditer(protected)`, tried only where a match can start."""
    start = 0
    for stop in stops:
        if stop >= start and (m := _SENT_END_RE.match(protected, stop)):
            start = m.end()
            yield m


def _abbreviations_in(text: str, stops: list[int] | None) -> list[str]:
    """The abbreviations `text` holds, in `_ABBREV` order (the others' replaces are no-ops).

    Each one ends in a full stop, so with the stops at hand only they are tried (one C-level
    `endswith` over all abbreviations each), not one scan of the whole text per abbreviation."""
    if stops is None:
        return [abbr for abbr in _ABBREV if abbr in text]
    found: set[str] = set()
    for stop in stops:
        if text.endswith(_ABBREV, 0, stop + 1):
            found.update(abbr for abbr in _ABBREV if text.endswith(abbr, 0, stop + 1))
    return [abbr for abbr in _ABBREV if abbr in found]


def clean_claim(sentence: str) -> str:
    """The sentence as a reader sees it: link text kept, citations, tags and URLs dropped."""
    text = _MD_LINK_RE.sub(r"\1", sentence)
    text = _LIST_LABEL_RE.sub("", text)
    text = _CITE_RE.sub(" ", text)
    text = _URL_RE.sub(" ", text)
    text = _MARKUP_RE.sub(" ", text)
    return " ".join(text.split())


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    w = word.lower().strip("'-")
    for suffix in _SUFFIXES:
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


_NOT_ALNUM = bytes(c if chr(c).isalnum() and c < 128 else 32 for c in range(256))


def ascii_words(text: str) -> list[str] | None:
    """Runs of ASCII letters and digits, by C-level byte translation (~6x faster than a regex
    findall); None when `text` is not ASCII (the caller's regex then decides)."""
    if not text.isascii():
        return None
    return text.encode("ascii").translate(_NOT_ALNUM).decode("ascii").split()


def content_words(text: str) -> list[str]:
    kept = map(_content_stem, _WORD_RE.findall(text))
    return [w for w in kept if w]


def content_word_set(text: str) -> set[str]:
    """`set(content_words(text))`, without the list in between (a set, then its one '' gone)."""
    words = set(map(_content_stem, _WORD_RE.findall(text)))
    words.discard("")
    return words


@lru_cache(maxsize=65536)
def _content_stem(word: str) -> str:
    """The stem of a content word; '' for a stopword or a number (one cached call per token)."""
    return "" if word.lower() in STOPWORDS or word[0].isdigit() else stem(word)


def numbers(text: str) -> set[str]:
    """Normalised numeric facts: `1,200` → `1200`, `12 percent` → `12%`, `$3.5bn` → `3.5bn`."""
    found = set()
    for raw in _NUMBER_RE.findall(text):
        plain = raw.rstrip()
        if plain.isdigit() and plain.isascii():  # a bare integer (most numbers): itself, bar one digit
            if len(plain) > 1:
                found.add(plain)
        elif value := _number_value(raw):
            found.add(value)
    return found


@lru_cache(maxsize=4096)  # "$3.5bn", "45%", "2023 " recur across a source's sentences and pages
def _number_value(raw: str) -> str:
    """One `_NUMBER_RE` match normalised; '' for a lone digit (a list marker, a count), which is
    not a checkable fact."""
    value = _NUMBER_NOISE_RE.sub("", raw.lower().strip())
    value = value.replace("percent", "%").replace("billion", "bn").replace("million", "m")
    number = _NUMBER_CORE_RE.match(value)
    if number and not (len(number.group(0)) == 1 and value == number.group(0)):
        return value.rstrip(".")
    return ""


def number_core(value: str) -> str:
    m = _NUMBER_CORE_RE.match(value)
    return m.group(0) if m else value


def entities(text: str) -> set[str]:
    """Capitalised names not at a sentence start (a light, dependency-free NER)."""
    found = set()
    for m in _ENTITY_RE.finditer(text):
        words = _POSSESSIVE_RE.sub("", m.group(0)).split()
        at_start = m.start() == 0 or text[: m.start()].rstrip().endswith((".", "!", "?", ":"))
        while words and words[0].lower() in STOPWORDS:
            words, at_start = words[1:], False
        if at_start and len(words) == 1:
            continue
        while words and words[-1].lower() in STOPWORDS:
            words = words[:-1]
        if words:
            found.add(" ".join(words))
    return found
