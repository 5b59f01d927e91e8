"""M008's default passage ranker, in a module of its own.

The engine builds the configured verifier when it resolves the rules (`citecheck.verifiers`
'lexical' by default), at every start; the ranking code it needs (`assess`, `text`) is imported
when it first ranks passages, which an audit without sources never does (~0.01e9 instructions, a
seventieth of an offline audit).
"""
from __future__ import annotations

from collections.abc import Sequence


class LexicalVerifier:
    """Coverage of the claim's content words (stemmed) plus rapidfuzz token-set similarity."""

    def best(self, claim: str, passages: Sequence[str]) -> tuple[int, float]:
        from citecheck.support.assess import Passages, _score, _word_set
        from citecheck.support.text import content_word_set

        words = content_word_set(claim)
        if not words or not passages:
            return 0, 0.0
        if isinstance(passages, Passages):
            counts = passages.coverage(words)
        else:
            counts = [len(words & _word_set(p)) for p in passages]
        # Word coverage is cheap set arithmetic; the fuzzy ratio runs only on the best few passages
        # (a stable sort: ties in index order), and not on one that could not win with a ratio of 100.
        ranked = sorted(range(len(passages)), key=counts.__getitem__, reverse=True)[:5]
        best_s, best_i = -1.0, 0
        for i in ranked:
            coverage = counts[i] / len(words)
            if 0.75 * coverage + 0.25 < best_s:  # would lose even with a ratio of 100
                continue
            score = _score(coverage, claim, passages[i])
            if score > best_s or (score == best_s and i < best_i):
                best_s, best_i = score, i
        return best_i, best_s
