"""Score one claim against one source text: best passage, lexical coverage, hard fact checks."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from citecheck.support.lexical import LexicalVerifier
from citecheck.support.text import (
    ascii_words,
    clean_claim,
    content_word_set,
    entities,
    number_core,
    numbers,
    split_sentences,
)


@dataclass(frozen=True)
class Assessment:
    supported: bool
    score: float  # 0..1
    passage: str = ""
    missing_numbers: tuple[str, ...] = ()
    missing_entities: tuple[str, ...] = ()
    reason: str = ""


class Verifier(Protocol):
    """Ranks passages for a claim; returns (index of best passage, similarity 0..1).

    The default is lexical and offline. A user can plug an NLI or embedding model in through
    the `citecheck.verifiers` entry point group (a callable returning a Verifier)."""

    def best(self, claim: str, passages: Sequence[str]) -> tuple[int, float]: ...


def similarity(claim_words: set[str], claim: str, passage: str, passage_words: frozenset[str] | None = None) -> float:
    if not claim_words:
        return 0.0
    have = passage_words if passage_words is not None else _word_set(passage)
    return _score(len(claim_words & have) / len(claim_words), claim, passage)


def _score(coverage: float, claim: str, passage: str) -> float:
    """3/4 word coverage, 1/4 token-set ratio (0-100): at most `0.75 * coverage + 0.25`."""
    from rapidfuzz import fuzz  # here, not at the top: the verifier is built at every start, used only with sources

    return 0.75 * coverage + 0.25 * fuzz.token_set_ratio(claim, passage) / 100


@lru_cache(maxsize=8192)  # sentences repeat across a site's pages (navigation, boilerplate)
def _word_set(passage: str) -> frozenset[str]:
    return frozenset(content_word_set(passage))


class Passages(list[str]):
    """Passages plus the sentences they are built from and each one's content-word set, so a
    sentence is tokenised (and its numbers found) once, not once per window it falls in."""

    sentences: list[str]
    sentence_sets: list[frozenset[str]]
    window: int

    def coverage(self, words: set[str]) -> list[int]:
        """How many of `words` each passage holds: the claim's hits per sentence, united per
        window (a claim's few words, not a union of every window's words built per source)."""
        hits = list(map(words.intersection, self.sentence_sets))
        return [len(set().union(*hits[i:i + self.window])) for i in range(len(self))]

    def numbers_near(self, index: int) -> frozenset[str]:
        """`numbers()` of passages index-1..index+1 joined by spaces, from the numbers of their
        sentences: a number never runs across a sentence's final stop (nor does the space after
        one let it), so the join holds exactly the numbers of its sentences. A sentence without
        one (not from `passages()`) has the join scanned instead."""
        windows = range(len(self))[max(0, index - 1): index + 2]
        order = [j for w in windows for j in range(w, min(w + self.window, len(self.sentences)))]
        if all(self.sentences[j].endswith(_SENTENCE_ENDS) for j in order[:-1]):
            return frozenset().union(*(_sentence_numbers(self.sentences[j]) for j in order))
        return frozenset(numbers(" ".join(self[max(0, index - 1): index + 2])))


_SENTENCE_ENDS = tuple(".!?。！？")  # the final character of every sentence but a text's last


@lru_cache(maxsize=8192)
def _sentence_numbers(sentence: str) -> frozenset[str]:
    return frozenset(numbers(sentence))


@lru_cache(maxsize=64)
def passages(text: str, window: int = 3, limit: int = 400) -> Passages:
    """Overlapping windows of `window` sentences (at most `limit` windows); memoised per source."""
    sentences = [s.strip() for _, s in split_sentences(text)][: limit + window - 1]
    if len(sentences) <= window:
        out = Passages([" ".join(sentences)] if sentences else [])
    else:
        count = min(limit, len(sentences) - window + 1)
        out = Passages(" ".join(sentences[i:i + window]) for i in range(count))
    out.sentences = sentences
    out.sentence_sets = [_word_set(s) for s in sentences]
    out.window = window
    return out


@dataclass(frozen=True)
class Thresholds:
    min_score: float = 0.5
    check_numbers: bool = True
    check_entities: bool = True
    ignore_entities: frozenset[str] = field(default_factory=frozenset)
    # the cited source's publisher, as its site names itself (`iea`, `ourworldindata`): "the IEA
    # says" names who speaks, not a fact the passage must repeat
    publishers: frozenset[str] = field(default_factory=frozenset)


def assess(sentence: str, source_text: str, verifier: Verifier | None = None,
           thresholds: Thresholds = Thresholds()) -> Assessment:
    """Is `sentence` supported by `source_text`? Evidence is the best-matching passage."""
    claim = clean_claim(sentence)
    chunks = passages(source_text)
    if not claim or not chunks:
        return Assessment(True, 1.0, reason="nothing to check")
    index, score = (verifier or LexicalVerifier()).best(claim, chunks)
    passage = chunks[index]
    missing_n = _missing_numbers(claim, chunks.numbers_near(index)) if thresholds.check_numbers else ()
    missing_e = _missing_entities(claim, source_text, thresholds) if thresholds.check_entities else ()
    reasons = []
    if score < thresholds.min_score:
        reasons.append(f"low overlap ({score:.2f} < {thresholds.min_score})")
    if missing_n:
        reasons.append("numbers not in source: " + ", ".join(missing_n))
    if missing_e:
        reasons.append("names not in source: " + ", ".join(missing_e))
    return Assessment(not reasons, round(score, 3), passage, missing_n, missing_e, "; ".join(reasons))


def _missing_numbers(claim: str, have: frozenset[str]) -> tuple[str, ...]:
    """The claim's numbers found in `have` neither as written nor by their core (`3.5bn` → `3.5`)."""
    cores = {number_core(n) for n in have}
    return tuple(sorted(n for n in numbers(claim) if n not in have and number_core(n) not in cores))


def _missing_entities(claim: str, source: str, thresholds: Thresholds) -> tuple[str, ...]:
    lowered = _lowered(source)
    missing = []
    for name in entities(claim):
        if name in thresholds.ignore_entities:
            continue
        parts = name.split()
        if thresholds.publishers and _is_publisher(parts, thresholds.publishers):
            continue
        if name.lower() in lowered or all(part.lower() in lowered for part in parts):
            continue
        if len(parts) > 1 and acronym(parts) in _tokens(source):
            continue  # "Bureau of Transportation Statistics" is cited as "BTS"
        missing.append(name)
    return tuple(sorted(missing))


@lru_cache(maxsize=64)
def _lowered(source: str) -> str:
    return source.lower()


@lru_cache(maxsize=64)  # built only for a many-word name not found as written (rarely)
def _tokens(source: str) -> frozenset[str]:
    lowered = _lowered(source)
    fast = ascii_words(lowered)  # the same tokens as [a-z0-9]+ on ASCII text
    return frozenset(fast if fast is not None else re.findall(r"[a-z0-9]+", lowered))


def _is_publisher(parts: list[str], publishers: frozenset[str]) -> bool:
    """The name is the publisher's: its site label as one word ("IEA", "Our World in Data") or as
    the initials of a many-word name ("International Energy Agency" for iea.org)."""
    joined = "".join(parts).lower()
    return joined in publishers or (len(parts) > 1 and acronym(parts) in publishers)


def acronym(parts: list[str]) -> str:
    return "".join(p[0] for p in parts if p[:1].isupper()).lower()
