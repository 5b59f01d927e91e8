"""The reporter interface: start, finding (once per finding), summary, close → the payload."""
from __future__ import annotations

import io
from typing import Any, TextIO

from citecheck.models import Finding


class Reporter:
    """Subclasses write to `self.out`; machine formats write only their payload. By default a
    reporter collects the findings (`self.items`) and the summary (`self.summ`) for `close`."""

    name = ""

    def __init__(self, out: TextIO | None = None, **context: Any) -> None:
        self.out = out or io.StringIO()
        self.context = context
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
