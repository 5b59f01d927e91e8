"""`--format text`: findings grouped by file, then a one-paragraph summary.

Each line is a rich `Text` built from (text, style) pieces, so a message from the memo is never read
as markup; rich's Console prints it, with colour only when asked (`color`: a terminal on stdout) and
not under NO_COLOR, and as plain text otherwise (a pipe, a file, a pre-commit hook).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.text import Text

from citecheck.models import Finding
from citecheck.report.base import Reporter

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
# Control characters from a hostile memo must not reach a terminal (ESC sequences, bells, carriage returns);
# a tab is shown as \t too (its width would depend on the terminal's idea of the text before it).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def shown(text: str) -> str:
    """`text` safe for one terminal line: control characters made visible."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


class TextReporter(Reporter):
    name = "text"

    def start(self) -> None:
        color = self.context.color
        # force_terminal/no_color are explicit: neither FORCE_COLOR nor a terminal elsewhere turns colour on
        # for a report that is not going to a terminal; with colour, rich reads NO_COLOR itself. The report
        # is the payload returned to the caller, so never shown as a notebook's cell output instead
        self.console = Console(file=self.out, force_terminal=color, no_color=None if color else True,
                               color_system="auto" if color else None, highlight=False, markup=False, emoji=False,
                               width=self.context.width or None, soft_wrap=True,
                               force_jupyter=False, legacy_windows=False)
        self.items: list[Finding] = []

    def finding(self, finding: Finding) -> None:
        self.items.append(finding)

    def summary(self, summary: dict[str, Any]) -> None:
        lines: list[Text] = []
        for path, group in by_path(self.items).items():
            lines.append(Text(shown(path), "bold underline"))
            for f in group:
                lines.append(finding_line(f))
                if f.fix:
                    lines.append(Text.assemble("            ", ("fix:", "green"), f" {shown(f.fix)}"))
            lines.append(Text())
        suppressed = self.context.suppressed
        if suppressed:
            lines.append(Text("suppressed by inline directives:", "dim"))
            lines.extend(Text.assemble("  ", (f"{shown(f.path)}:{f.line}:{f.column} {f.severity.value} {f.rule} "
                                              f"{shown(f.message)} ({f.name})", "dim")) for f in suppressed)
            lines.append(Text())
        if not self.context.quiet:  # --quiet: the findings and nothing else, as ruff's
            lines.extend(directive_lines(summary))
            lines.append(summary_line(summary))
        if lines:  # one Text, printed once: a long report costs one render, not one per line
            self.console.print(Text("\n").join(lines))


def directive_lines(s: dict[str, Any]) -> list[Text]:
    """Which inline directive suppressed how many findings, and the directives left unread: a
    reviewer sees every silence the memo asked for, even without --report-suppressions."""
    lines = [Text(f"suppressed by {shown(str(u.get('path')))}:{u.get('line')} {shown(str(u.get('directive')))} "
                  f"reason={shown(repr(u.get('reason', '')))}: {u.get('suppressed', 0)} finding(s)", "dim")
             for u in s.get("suppressions") or []]
    ignored = sum((s.get("directives_ignored") or {}).values())
    if ignored:
        lines.append(Text(f"{ignored} inline directive(s) not read (--no-inline-config)", "dim"))
    if s.get("directives_removed"):
        lines.append(Text(f"{s['directives_removed']} citecheck directive(s) removed from the draft: "
                          "`write` never applies one"))
    if s.get("front_matter_removed"):
        lines.append(Text(f"front matter {', '.join(map(shown, s['front_matter_removed']))} kept out of the memo: "
                          "check settings belong in the configuration"))
    return lines


def by_path(findings: Iterable[Finding]) -> dict[str, list[Finding]]:
    """Findings grouped by file, files in first-seen order (the engine sorts, but do not rely on it)."""
    groups: dict[str, list[Finding]] = {}
    for f in findings:
        groups.setdefault(f.path, []).append(f)
    return groups


def finding_line(f: Finding) -> Text:
    where = f"{f.line}:{f.column}"
    line = Text.assemble(f"  {where:>8}  ", (f"{f.severity.value:<7}", _STYLE[f.severity.value]), " ",
                         (f.rule, "bold"), f" {shown(f.message)}")
    if f.url and f.url not in f.message:
        line.append_text(Text.assemble(" ", (shown(f.url), "dim")))
    return line.append_text(Text.assemble("  ", (f"({f.name})", "dim")))


def summary_line(s: dict[str, Any]) -> Text:
    """`N finding(s): … in F file(s), …` — the last line of every text report."""
    mode = "online" if s.get("online") else "offline"
    parts = [f"{s.get('errors', 0)} error(s)", f"{s.get('warnings', 0)} warning(s)", f"{s.get('infos', 0)} info"]
    head = (f"{s.get('findings', 0)} finding(s)", "bold") if s.get("findings") else ("No findings", "bold green")
    line = (f": {', '.join(parts)} in {s.get('files', 0)} file(s), "
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
    return Text.assemble(head, line + f" in {s.get('duration_s', 0)} s")
