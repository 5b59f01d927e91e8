"""`--format text`: findings grouped by file through rich, then a one-paragraph summary."""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.markup import escape

from citecheck.models import Finding
from citecheck.report.base import Reporter

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
# Control characters from a hostile memo must not reach a terminal (ESC sequences, bells, carriage returns).
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def shown(text: str) -> str:
    """`text` safe for one terminal line: rich markup escaped, control characters made visible."""
    return escape(_CONTROL.sub(lambda m: repr(m.group())[1:-1], text))


class TextReporter(Reporter):
    name = "text"

    def start(self) -> None:
        color = bool(self.context.get("color", False))
        self.console = Console(file=self.out, force_terminal=color, no_color=not color, highlight=False,
                               width=int(self.context.get("width", 0)) or (None if color else 200), soft_wrap=True)
        self.items: list[Finding] = []

    def finding(self, finding: Finding) -> None:
        self.items.append(finding)

    def summary(self, summary: dict[str, Any]) -> None:
        for path, group in by_path(self.items).items():
            self.console.print(f"[bold underline]{shown(path)}[/]")
            for f in group:
                self.console.print(finding_line(f))
                if f.fix:
                    self.console.print(f"            [green]fix:[/] {shown(f.fix)}")
            self.console.print()
        suppressed = self.context.get("suppressed")
        if suppressed:
            self.console.print("[dim]suppressed by inline directives:[/]")
            for f in suppressed:
                self.console.print(f"  [dim]{shown(f.path)}:{f.line}:{f.column} {f.severity.value} {f.rule} "
                                   f"{shown(f.message)} ({f.name})[/]")
            self.console.print()
        self.console.print(summary_line(summary))


def by_path(findings: Iterable[Finding]) -> dict[str, list[Finding]]:
    """Findings grouped by file, files in first-seen order (the engine sorts, but do not rely on it)."""
    groups: dict[str, list[Finding]] = {}
    for f in findings:
        groups.setdefault(f.path, []).append(f)
    return groups


def finding_line(f: Finding) -> str:
    style = _STYLE[f.severity.value]
    where = f"{f.line}:{f.column}"
    url = f" [dim]{shown(f.url)}[/]" if f.url and f.url not in f.message else ""
    return (f"  {where:>8}  [{style}]{f.severity.value:<7}[/] [bold]{f.rule}[/] "
            f"{shown(f.message)}{url}  [dim]({f.name})[/]")


def summary_line(s: dict[str, Any]) -> str:
    """`N finding(s): … in F file(s), …` — the last line of every text report."""
    mode = "online" if s.get("online") else "offline"
    parts = [f"{s.get('errors', 0)} error(s)", f"{s.get('warnings', 0)} warning(s)", f"{s.get('infos', 0)} info"]
    head = f"[bold]{s.get('findings', 0)} finding(s)[/]" if s.get("findings") else "[bold green]No findings[/]"
    line = (f"{head}: {', '.join(parts)} in {s.get('files', 0)} file(s), "
            f"{s.get('links', 0)} link(s), {s.get('urls', 0)} distinct URL(s), {mode}")
    if s.get("fetched"):
        line += f"; fetched {s['fetched']} ({', '.join(f'{k} {v}' for k, v in s.get('outcomes', {}).items())})"
    if s.get("suppressed"):
        line += f"; {s['suppressed']} suppressed"
    if "citation_truth_score" in s:
        value = s["citation_truth_score"]
        if s.get("network") == "unavailable":
            line += "; no citation-truth score (network unavailable)"
        else:
            line += "; citation-truth score n/a (no citations)" if value is None else f"; citation-truth score {value}/10"
    return line + f" in {s.get('duration_s', 0)} s"
