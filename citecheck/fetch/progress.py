"""A progress bar on stderr, only for a person watching: never in machine formats or pipes."""
from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, Self

from citecheck.fetch.hosts import HostStats


class ProgressBar:
    """`with ProgressBar(enabled, total) as bar: bar.advance()`; a no-op unless stderr is a TTY."""

    def __init__(self, enabled: bool, total: int, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = enabled and total > 0 and bool(getattr(self.stream, "isatty", lambda: False)())
        self.total = total
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> Self:
        if self.enabled:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._progress = Progress(TextColumn("fetching"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                      console=Console(file=self.stream), transient=True)
            self._progress.__enter__()
            self._task = self._progress.add_task("fetch", total=self.total)
        return self

    def advance(self, count: int = 1) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, count)

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(None, None, None)
            self._progress = None


def stats_lines(stats: Mapping[str, HostStats], cached: int = 0) -> list[str]:
    """`--verbose` output: one line per host, busiest first, then the totals."""
    hosts = sorted(stats.items(), key=lambda item: (-item[1].requests, item[0]))
    lines = [s.line(host) for host, s in hosts]
    total = sum(s.requests for s in stats.values())
    retries = sum(s.retries for s in stats.values())
    lines.append(f"fetch: {total} requests to {len(stats)} hosts, {retries} retries, {cached} pages from the cache")
    return lines
