"""`--format text`: findings grouped by file, then a one-paragraph summary.

Lines are written in rich's console markup. With colour they go through rich; without colour
(a pipe, a file, a pre-commit hook) the markup is reduced to its plain text here, following
rich's own markup grammar (`RE_TAGS`, `escape` and `_parse` of `rich.markup`, checked against
rich by `tests/test_report_text.py`), so that a plain run does not pay the ~25 ms of importing rich.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import IO, Any

from citecheck.models import Finding
from citecheck.report.base import Reporter

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
# Control characters from a hostile memo must not reach a terminal (ESC sequences, bells, carriage returns);
# a tab is shown as \t too (its width would depend on the terminal's idea of the text before it).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_TAGS = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")  # rich.markup.RE_TAGS
_TAG_TO_ESCAPE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")  # the pattern of rich.markup.escape


def escape(markup: str) -> str:
    """Text made literal in rich markup (rich.markup.escape's rule, without importing rich)."""
    markup = _TAG_TO_ESCAPE.sub(lambda m: f"{m.group(1)}{m.group(1)}\\{m.group(2)}", markup)
    return markup + "\\" if markup.endswith("\\") and not markup.endswith("\\\\") else markup


def plain(markup: str) -> str:
    """The text rich would print for `markup` without colour: tags dropped, escapes resolved
    (rich.markup.render's walk over rich.markup._parse, styles left out)."""
    if "[" not in markup:
        return markup
    out, position = [], 0
    for match in _TAGS.finditer(markup):
        full_text, escapes, _tag = match.groups()
        start, end = match.span()
        if start > position:
            out.append(markup[position:start].replace("\\[", "["))
        position = end
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            out.append("\\" * backslashes)
            if escaped:
                out.append(full_text[len(escapes):].replace("\\[", "["))
    out.append(markup[position:].replace("\\[", "["))
    return "".join(out)


def shown(text: str) -> str:
    """`text` safe for one terminal line: markup escaped, control characters made visible."""
    return escape(_CONTROL.sub(lambda m: repr(m.group())[1:-1], text))


class _Plain:
    """The part of rich's Console the reporter uses, for output without colour."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out

    def print(self, markup: str = "") -> None:
        self.out.write(plain(markup) + "\n")


class TextReporter(Reporter):
    name = "text"

    def start(self) -> None:
        color = bool(self.context.get("color", False))
        self.console: Any = _Plain(self.out)
        if color:
            from rich.console import Console

            self.console = Console(file=self.out, force_terminal=True, no_color=False, highlight=False, emoji=False,
                                   width=int(self.context.get("width", 0)) or None, soft_wrap=True)
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
        if not self.context.get("quiet"):  # --quiet: the findings and nothing else, as ruff's
            for line in directive_lines(summary):
                self.console.print(line)
            self.console.print(summary_line(summary))


def directive_lines(s: dict[str, Any]) -> list[str]:
    """Which inline directive suppressed how many findings, and the directives left unread: a
    reviewer sees every silence the memo asked for, even without --report-suppressions."""
    lines = [f"[dim]suppressed by {shown(str(u.get('path')))}:{u.get('line')} {shown(str(u.get('directive')))} "
             f"reason={shown(repr(u.get('reason', '')))}: {u.get('suppressed', 0)} finding(s)[/]"
             for u in s.get("suppressions") or []]
    ignored = sum((s.get("directives_ignored") or {}).values())
    if ignored:
        lines.append(f"[dim]{ignored} inline directive(s) not read (--no-inline-config)[/]")
    if s.get("directives_removed"):
        lines.append(f"{s['directives_removed']} citecheck directive(s) removed from the draft: `write` never applies one")
    if s.get("front_matter_removed"):
        lines.append(f"front matter {', '.join(map(shown, s['front_matter_removed']))} kept out of the memo: "
                     "check settings belong in the configuration")
    return lines


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
    unchecked = (s.get("verdicts") or {}).get("unchecked")
    if unchecked:
        line += f"; {unchecked} unchecked (not fetched)"
    accepted = s.get("accepted") or {}
    if accepted:
        line += (f"; {sum(accepted.values())} accepted, not verified "
                 f"({', '.join(f'HTTP {k}: {v}' for k, v in accepted.items())})")
    excluded = s.get("excluded_by_config") or {}
    if excluded:
        line += f"; {sum(excluded.values())} excluded by config ({', '.join(shown(r) for r in excluded)})"
    if s.get("fetched"):
        line += f"; fetched {s['fetched']} ({', '.join(f'{k} {v}' for k, v in s.get('outcomes', {}).items())})"
    if s.get("suppressed"):
        line += f"; {s['suppressed']} suppressed by {len(s.get('suppressions') or [])} inline directive(s)"
    if "citation_truth_score" in s:
        value = s["citation_truth_score"]
        if s.get("network") == "unavailable":
            line += "; no citation-truth score (network unavailable)"
        elif "unjudged" in s:
            line += f"; no citation-truth score ({s['unjudged']} page(s) not judged: a page-stage worker failed)"
        else:
            line += "; citation-truth score n/a (no citations)" if value is None else f"; citation-truth score {value}/10"
    return line + f" in {s.get('duration_s', 0)} s"
