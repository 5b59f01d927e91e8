"""The reporter interface: start, finding (once per finding), summary, close → the payload."""
from __future__ import annotations

import io
from typing import Any, TextIO

from citecheck.models import Finding


class Reporter:
    """Subclasses write to `self.out`; machine formats write only their payload."""

    name = ""

    def __init__(self, out: TextIO | None = None, **context: Any) -> None:
        self.out = out or io.StringIO()
        self.context = context

    def start(self) -> None:
        pass

    def finding(self, finding: Finding) -> None:
        pass

    def summary(self, summary: dict[str, Any]) -> None:
        pass

    def close(self) -> None:
        pass
