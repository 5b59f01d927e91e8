"""Score one claim against one source text: best passage, lexical coverage, hard fact checks."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from rapidfuzz import fuzz

from citecheck.support.text import (
    ascii_words,
    clean_claim,
    content_words,
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


class LexicalVerifier:
    """Coverage of the claim's content words (stemmed) plus rapidfuzz token-set similarity."""

    def best(self, claim: str, passages: Sequence[str]) -> tuple[int, float]:
        words = set(content_words(claim))
        if not words or not passages:
            return 0, 0.0
        sets = getattr(passages, "sets", None) or [_word_set(p) for p in passages]
        # Word coverage is cheap set arithmetic; the fuzzy ratio runs only on the best few passages.
        ranked = sorted(range(len(passages)), key=lambda i: -len(words & sets[i]))[:5]
        scored = [(similarity(words, claim, passages[i], sets[i]), i) for i in ranked]
        best_s, best_i = max(scored, key=lambda pair: (pair[0], -pair[1]))
        return best_i, best_s


def similarity(claim_words: set[str], claim: str, passage: str, passage_words: frozenset[str] | None = None) -> float:
    if not claim_words:
        return 0.0
    have = passage_words if passage_words is not None else _word_set(passage)
    coverage = len(claim_words & have) / len(claim_words)
    return 0.75 * coverage + 0.25 * fuzz.token_set_ratio(claim, passage) / 100


@lru_cache(maxsize=8192)  # sentences repeat across a site's pages (navigation, boilerplate)
def _word_set(passage: str) -> frozenset[str]:
    return frozenset(content_words(passage))


class Passages(list[str]):
    """Passages plus the content-word set of each (`sets`), built from per-sentence sets so each
    sentence is tokenised once, not once per window it falls in."""

    sets: list[frozenset[str]]


@lru_cache(maxsize=64)
def passages(text: str, window: int = 3, limit: int = 400) -> Passages:
    """Overlapping windows of `window` sentences (at most `limit` windows); memoised per source."""
    sentences = [s.strip() for _, s in split_sentences(text)][: limit + window - 1]
    words = [_word_set(s) for s in sentences]
    if len(sentences) <= window:
        out = Passages([" ".join(sentences)] if sentences else [])
        out.sets = [frozenset().union(*words)] if sentences else []
        return out
    count = min(limit, len(sentences) - window + 1)
    out = Passages(" ".join(sentences[i:i + window]) for i in range(count))
    out.sets = [frozenset().union(*words[i:i + window]) for i in range(count)]
    return out


@dataclass(frozen=True)
class Thresholds:
    min_score: float = 0.5
    check_numbers: bool = True
    check_entities: bool = True
    ignore_entities: frozenset[str] = field(default_factory=frozenset)


def assess(sentence: str, source_text: str, verifier: Verifier | None = None,
           thresholds: Thresholds = Thresholds()) -> Assessment:
    """Is `sentence` supported by `source_text`? Evidence is the best-matching passage."""
    claim = clean_claim(sentence)
    chunks = passages(source_text)
    if not claim or not chunks:
        return Assessment(True, 1.0, reason="nothing to check")
    index, score = (verifier or LexicalVerifier()).best(claim, chunks)
    passage = chunks[index]
    nearby = " ".join(chunks[max(0, index - 1): index + 2])
    missing_n = _missing_numbers(claim, nearby) if thresholds.check_numbers else ()
    missing_e = _missing_entities(claim, source_text, thresholds) if thresholds.check_entities else ()
    reasons = []
    if score < thresholds.min_score:
        reasons.append(f"low overlap ({score:.2f} < {thresholds.min_score})")
    if missing_n:
        reasons.append("numbers not in source: " + ", ".join(missing_n))
    if missing_e:
        reasons.append("names not in source: " + ", ".join(missing_e))
    return Assessment(not reasons, round(score, 3), passage, missing_n, missing_e, "; ".join(reasons))


def _missing_numbers(claim: str, passage: str) -> tuple[str, ...]:
    have = _numbers(passage)
    cores = {number_core(n) for n in have}
    return tuple(sorted(n for n in numbers(claim) if n not in have and number_core(n) not in cores))


@lru_cache(maxsize=256)
def _numbers(text: str) -> set[str]:
    return numbers(text)


def _missing_entities(claim: str, source: str, thresholds: Thresholds) -> tuple[str, ...]:
    lowered, tokens = _index(source)
    missing = []
    for name in entities(claim):
        if name in thresholds.ignore_entities:
            continue
        parts = name.split()
        if name.lower() in lowered or all(part.lower() in lowered for part in parts):
            continue
        if len(parts) > 1 and acronym(parts) in tokens:
            continue  # "Bureau of Transportation Statistics" is cited as "BTS"
        missing.append(name)
    return tuple(sorted(missing))


@lru_cache(maxsize=64)
def _index(source: str) -> tuple[str, frozenset[str]]:
    lowered = source.lower()
    fast = ascii_words(lowered)  # the same tokens as [a-z0-9]+ on ASCII text
    return lowered, frozenset(fast if fast is not None else re.findall(r"[a-z0-9]+", lowered))


def acronym(parts: list[str]) -> str:
    return "".join(p[0] for p in parts if p[:1].isupper()).lower()
