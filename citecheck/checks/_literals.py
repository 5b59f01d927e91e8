"""Which of many literals occur in a text: one Aho-Corasick scan, shared by every rule reading it.

The page packs skip a regex item whose required literal is absent from the folded text, and raw
markup markers are plain substrings. Testing each literal with `in` scanned a 5 KB text sample
once per literal, some 40 times a pack, with five packs reading the same sample: on 5,000 benchmark
pages that was a third of the page stage's CPU. A `LiteralIndex` keeps every literal it has been
asked about in one automaton (ahocorasick-rs, about three times faster here than pyahocorasick)
and scans a text once; the answer is memoised per text, so the next rule reading the same page
pays a dict lookup.

The index only grows, and `found_in(text, literals)` is exactly `{x for x in literals if x in text}`,
so no answer depends on which rule asked first. Not a rule module (no `ID`).
"""
from __future__ import annotations

from collections.abc import Iterable

from ahocorasick_rs import AhoCorasick, Implementation


class _Automaton:
    """A fixed literal set, its automaton, and what it found in recent texts."""

    __slots__ = ("asked", "automaton", "literals", "memo")

    def __init__(self, literals: frozenset[str]) -> None:
        self.literals = literals
        patterns = sorted(x for x in literals if x)  # the automaton refuses empty patterns
        # a DFA scans twice as fast as the NFAs; a few hundred literals keep it small
        self.automaton = AhoCorasick(patterns, implementation=Implementation.DFA) if patterns else None
        self.memo: dict[str, frozenset[str]] = {}
        self.asked: set[frozenset[str]] = set()  # literal sets known to be covered

    def scan(self, text: str) -> frozenset[str]:
        if self.automaton is None:
            return frozenset()
        # overlapping: every literal that occurs, also one inside or across another's match
        return frozenset(self.automaton.find_matches_as_strings(text, overlapping=True))


class LiteralIndex:
    """Every literal asked about so far, and which of them a text contains."""

    def __init__(self, memo_size: int = 32) -> None:
        self.memo_size = memo_size  # a handful of texts per page, read by several rules in a row
        self._current = _Automaton(frozenset())

    def found_in(self, text: str, literals: frozenset[str]) -> frozenset[str]:
        """The members of `literals` that occur in `text` (empty literals never do)."""
        current = self._current
        if literals not in current.asked:  # a hash lookup: a frozenset keeps its hash
            if not literals <= current.literals:
                current = self._grow(literals)
            current.asked.add(literals)
        found = current.memo.get(text)
        if found is None:
            if len(current.memo) >= self.memo_size:
                current.memo.clear()
            found = current.memo[text] = current.scan(text)
        return found & literals if found else found

    def _grow(self, literals: Iterable[str]) -> _Automaton:
        # A new automaton object, never a mutated one: a caller holding the old one stays consistent.
        self._current = _Automaton(self._current.literals | frozenset(literals))
        return self._current
