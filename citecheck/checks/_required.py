"""Which literals every match of a pack regex must contain: a pre-filter's index, from the pattern's text.

A page pack holds a few hundred regex items, and a page's text sample is up to 6,000 characters. An
item is only worth trying on a text that contains one of its *required literals*: a set of strings
such that every match of the item contains at least one of them. `required_literals` reads the
pattern's text with a small recursive-descent scanner (public API only, no `re` internals) and
returns such a set, or an empty set when it cannot name one; anything it does not understand
(inline flags, conditionals, back-references, lookarounds, classes) contributes no literal, so an
answer it gives is always sound, merely sometimes weaker than it could be:

- a run of plain characters outside any optional part is one literal (`page not found`);
- a group that must occur contributes the union of its alternatives' sets (`(log|sign) ?in` →
  `{"log", "sign"}`), and a top-level alternation likewise (every alternative must have a set, or
  nothing is required);
- of the candidates in a sequence the best is kept: the one whose shortest literal is longest.

A literal must have at least three characters, or two when it is not ASCII (two CJK characters
are as rare as a short word); the caller folds them like the texts they are looked for in.
Not a rule module (no `ID`).
"""
from __future__ import annotations

import re

_LITERAL_ESCAPES = frozenset(".-/ '()[]{}?*+|^$\\\"#&~,:;!@%=<>`")
_Set = frozenset[str]
_BOUNDS = re.compile(r"\{(\d*)(,?)(\d*)\}")  # what `re` reads as a repetition count


def required_literals(regex: str) -> frozenset[str]:
    """A set of literals (as written) one of which occurs in every match of `regex`; empty when unknown."""
    try:
        found, end = _Scanner(regex).alternation(0)
    except _Unsupported:
        return frozenset()
    return found if end == len(regex) and found is not None else frozenset()


def _long_enough(literal: str) -> bool:
    size = len(literal.strip())
    return size >= 3 or (size == 2 and not literal.isascii())


def _better(a: _Set | None, b: _Set | None) -> _Set | None:
    """The more selective of two candidate sets: the longer shortest literal, then the smaller set."""
    usable = [s for s in (a, b) if s is not None and s and all(_long_enough(x) for x in s)]
    if not usable:
        return None
    return max(usable, key=lambda s: (min(len(x.strip()) for x in s), -len(s)))


class _Unsupported(Exception):
    """A construct the scanner does not model: the whole pattern then requires nothing."""


class _Scanner:
    def __init__(self, regex: str) -> None:
        self.regex = regex

    def alternation(self, i: int) -> tuple[_Set | None, int]:
        """Alternatives from `i` to the closing `)` or the end; the union of their sets."""
        union: set[str] = set()
        complete = True
        while True:
            found, i = self.sequence(i)
            if found is None:
                complete = False
            else:
                union |= found
            if i < len(self.regex) and self.regex[i] == "|":
                i += 1
                continue
            return (frozenset(union) if complete and union else None), i

    def sequence(self, i: int) -> tuple[_Set | None, int]:
        """One alternative: the best of its literal runs and required groups."""
        regex, best, run = self.regex, None, ""
        while i < len(regex) and regex[i] not in "|)":
            atom, literal, i = self.atom(i)
            low, repeats, i = self.quantifier(i)
            if low == 0:  # optional: neither it nor the run across it is required
                best, run = _better(best, frozenset([run]) if run else None), ""
                continue
            if literal is not None:
                run += literal
                if repeats:  # more copies may follow: what comes next is not adjacent to the run
                    best, run = _better(best, frozenset([run])), ""
                continue
            best, run = _better(best, frozenset([run]) if run else None), ""
            best = _better(best, atom)
        return _better(best, frozenset([run]) if run else None), i

    def atom(self, i: int) -> tuple[_Set | None, str | None, int]:
        """(set of a group, literal character, next index): one of the first two, or neither."""
        regex, c = self.regex, self.regex[i]
        if c == "\\":
            if i + 1 >= len(regex):
                raise _Unsupported
            nxt = regex[i + 1]
            if nxt.isdigit():
                raise _Unsupported  # a back-reference or an octal escape
            return None, (nxt if nxt in _LITERAL_ESCAPES else None), i + 2
        if c == "[":
            return None, None, self._class_end(i)
        if c == "(":
            return self.group(i)
        if c in ".^$":
            return None, None, i + 1
        if c in "*+?":
            raise _Unsupported  # a quantifier with nothing before it
        return None, c, i + 1

    def group(self, i: int) -> tuple[_Set | None, None, int]:
        regex = self.regex
        start = i + 1
        if regex.startswith("?", start):
            if regex.startswith("?:", start):
                start += 2
            elif regex.startswith("?P<", start):
                start = regex.index(">", start) + 1
            elif regex.startswith(("?=", "?!", "?<=", "?<!"), start):
                _, end = self._skip_group(i)
                return None, None, end  # a lookaround consumes nothing of the match
            else:
                raise _Unsupported  # inline flags, comments, conditionals, atomic groups
        found, end = self.alternation(start)
        if end >= len(regex) or regex[end] != ")":
            raise _Unsupported
        return found, None, end + 1

    def _skip_group(self, i: int) -> tuple[None, int]:
        depth = 0
        while i < len(self.regex):
            c = self.regex[i]
            if c == "\\":
                i += 2
                continue
            if c == "[":
                i = self._class_end(i)
                continue
            depth += c == "("
            depth -= c == ")"
            i += 1
            if depth == 0:
                return None, i
        raise _Unsupported

    def _class_end(self, i: int) -> int:
        """The index after the `]` that closes the class opened at `i`."""
        j = i + 1
        if self.regex.startswith("^", j):
            j += 1
        if self.regex.startswith("]", j):
            j += 1  # a leading `]` is a literal member
        while j < len(self.regex):
            if self.regex[j] == "\\":
                j += 2
                continue
            if self.regex[j] == "]":
                return j + 1
            j += 1
        raise _Unsupported

    def quantifier(self, i: int) -> tuple[int, bool, int]:
        """(minimum repetitions, whether more than one may follow, next index) of the quantifier at
        `i`; (1, False, i) when there is none."""
        regex = self.regex
        if i >= len(regex) or regex[i] not in "?*+{":
            return 1, False, i
        c = regex[i]
        if c == "{":
            bounds = _BOUNDS.match(regex, i)
            if bounds is None:
                return 1, False, i  # not a quantifier: `{` is then a literal, read as the next atom
            low, comma, high = bounds.groups()
            i, minimum = bounds.end(), int(low or 0)
            repeats = bool((comma and high != "1") or (not comma and minimum > 1))
        else:
            i, minimum, repeats = i + 1, (1 if c == "+" else 0), c != "?"
        if i < len(regex) and regex[i] in "?+":
            i += 1  # lazy or possessive
        return minimum, repeats, i
