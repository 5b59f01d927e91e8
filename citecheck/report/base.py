"""The reporter interface: start, finding (once per finding), summary, close → the payload; and
`ReportContext`, what a reporter may read besides the findings and the summary."""
from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from citecheck.models import Corpus, Finding

if TYPE_CHECKING:
    from citecheck._audit import Report
    from citecheck.engine.registry import Registry


@dataclass(frozen=True)
class ReportContext:
    """Everything optional: `report` the audit (its documents and pages: html, junit, sarif),
    `registry` the rules (names, summaries: sarif, html), `corpus` to resolve `[src-NNN]` (html),
    `suppressed` the findings silenced inline (None: not listed; json then has no such key),
    `color` and `width` (text on a terminal), `quiet` (text: findings only), `title` and
    `generated_at` (html), `version` (sarif's tool version; default citecheck's)."""

    report: Report | None = None
    registry: Registry | None = None
    corpus: Corpus | None = None
    suppressed: Sequence[Finding] | None = None
    color: bool = False
    width: int = 0
    quiet: bool = False
    title: str = ""
    generated_at: str = ""
    version: str = ""


class Reporter:
    """Subclasses write to `self.out`; machine formats write only their payload. By default a
    reporter collects the findings (`self.items`) and the summary (`self.summ`) for `close`."""

    name = ""

    def __init__(self, out: TextIO | None = None, context: ReportContext | None = None) -> None:
        self.out = out or io.StringIO()
        self.context = context or ReportContext()
        self.items: list[Finding] = []
        self.summ: dict[str, Any] = {}

    def start(self) -> None:
        pass

    def finding(self, finding: Finding) -> None:
        self.items.append(finding)

    def summary(self, summary: dict[str, Any]) -> None:
        self.summ = dict(summary)

    def close(self) -> None:
        pass
