"""Broken footnotes: a reference with no definition, a definition nothing cites, or two definitions.

A `[^7]` without a `[^7]: …` line renders as literal text — the claim looks cited but has no
source. An unused definition is usually the source of a claim that was edited away (or a URL
smuggled past review), and a second definition of a label silently replaces the first.

Failing example:

    Revenue grew 80%[^1] while churn fell[^2].

    [^1]: Acme Robotics 10-K, https://www.sec.gov/Archives/edgar/data/1318605/
    [^3]: Gartner, 2024

Passing example:

    Revenue grew 80%[^1] while churn fell[^2].

    [^1]: Acme Robotics 10-K, https://www.sec.gov/Archives/edgar/data/1318605/
    [^2]: Acme Robotics Q4 2024 shareholder letter, https://ir.acme-robotics.com/q4-2024
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.models import FootnoteRef, Hit

ID = "M005"
NAME = "footnote-integrity"
STAGE = "memo"
SEVERITY = "error"
VERDICT = "memo"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def footnote_problems(footnotes: tuple[FootnoteRef, ...]) -> Iterator[tuple[FootnoteRef, str]]:
    """(footnote, problem) for every undefined reference, unused definition and duplicate definition."""
    refs = {f.label.casefold() for f in footnotes if not f.is_definition}
    labels = {f.label.casefold() for f in footnotes if f.is_definition}
    defined: dict[str, FootnoteRef] = {}
    for f in sorted(footnotes, key=lambda f: (f.location.line, f.location.column)):
        key = f.label.casefold()
        if not f.is_definition:
            if key not in labels:
                yield f, f"footnote [^{f.label}] is cited but never defined"
        elif key in defined:
            yield f, (f"footnote [^{f.label}] is defined again (first at line {defined[key].location.line}); "
                      f"renderers keep only one of them")
        else:
            defined[key] = f
            if key not in refs:
                yield f, f"footnote [^{f.label}] is defined but never cited"


def check(memo: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    for footnote, problem in footnote_problems(memo.document.footnotes):
        yield Hit(problem, footnote.location, evidence=f"[^{footnote.label}]")
