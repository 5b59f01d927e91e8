"""Literal prefilters for pattern packs: skip a regex when the text cannot possibly match it.

Python's `re` scans every position of the text with every branch of an alternation, and a
case-insensitive branch that starts with a word gets no first-character shortcut; on a 5,000-link
memo the hallucination-pattern pack spent 25 µs a URL failing to match. Most patterns contain a
literal that any match must contain (`lorem`, `path/to`, `{`, `12345`); if none of a pack's
required literals occurs in the case-folded text, no pattern can match and the search is skipped.

`required_literals(pattern)` reads the pattern's parse tree (the standard library's own parser)
and returns a set of case-folded strings of which every match contains at least one, or None
when it cannot prove such a set (then the pack is always searched: the prefilter only ever
skips work, it never changes a result).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

try:  # Python 3.11+: the parser behind re.compile
    from re import _constants as _c  # type: ignore[attr-defined]
    from re import _parser as _p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - older layouts: no prefilter, same results
    _c = _p = None

_ZERO_WIDTH = {"AT", "ASSERT", "ASSERT_NOT"}


def required_literals(pattern: str) -> frozenset[str] | None:
    """Case-folded strings one of which every match of `pattern` contains; None if unknown."""
    if _p is None:
        return None
    try:
        tree = _p.parse(pattern)
    except (re.error, RecursionError, TypeError):
        return None
    found = _sequence(list(tree))
    if not found or any(not lit for lit in found):
        return None
    return frozenset(found)


def pack_literals(patterns: Iterable[str]) -> frozenset[str] | None:
    """The union over a pack: a text containing none of them matches no pattern. None if any
    pattern has no provable literal."""
    out: set[str] = set()
    for pattern in patterns:
        lits = required_literals(pattern)
        if lits is None:
            return None
        out |= lits
    return frozenset(out)


def may_match(literals: frozenset[str] | None, folded: str) -> bool:
    """False only when no literal occurs in `folded` (the text after `str.casefold()`)."""
    return literals is None or any(lit in folded for lit in literals)


def _sequence(items: list[tuple[Any, Any]]) -> set[str] | None:
    """Best required set of a concatenation: the candidate whose shortest literal is longest."""
    candidates: list[set[str]] = []
    run: list[str] = []

    def close() -> None:
        if run:
            candidates.append({"".join(run).casefold()})
            run.clear()

    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            run.append(chr(arg))
            continue
        if name in _ZERO_WIDTH:
            # consumes nothing: the literals on both sides are adjacent in every match, so the run
            # goes on; a literal lookbehind also names the characters right before the position
            # (`(?<=/):id` needs "/:", not just ":", which every URL with a port holds)
            if name == "ASSERT" and arg[0] < 0 and not run:
                body = list(arg[1])
                if body and all(str(o) == "LITERAL" for o, _ in body):
                    run.extend(chr(c) for _, c in body)
            continue
        close()
        if name == "SUBPATTERN":
            sub = _sequence(list(arg[-1]))
            if sub:
                candidates.append(sub)
        elif name == "BRANCH":
            alts = [_sequence(list(alt)) for alt in arg[1]]
            if alts and all(alts):
                candidates.append(set().union(*alts))  # type: ignore[arg-type]
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, _high, body = arg
            body = list(body)
            if low >= 1:
                if len(body) == 1 and str(body[0][0]) == "LITERAL":
                    candidates.append({chr(body[0][1]).casefold() * min(low, 8)})
                else:
                    sub = _sequence(body)
                    if sub:
                        candidates.append(sub)
        elif name == "ATOMIC_GROUP":
            sub = _sequence(list(arg))
            if sub:
                candidates.append(sub)
    close()
    candidates = [c for c in candidates if c and all(c)]
    if not candidates:
        return None
    return max(candidates, key=lambda c: (min(map(len, c)), -len(c)))
