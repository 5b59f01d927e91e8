"""Shared helpers for the reporter tests: real audits of small memos, and hand-made hostile findings."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from citecheck import Report, audit
from citecheck.config import build
from citecheck.engine.registry import Registry, build_registry
from citecheck.models import Finding, Severity, Verdict
from citecheck.report import ReportContext, render

# Everything a message, path or URL might carry that a format has to escape or refuse.
HOSTILE = 'a <b>&amp; "q" \'s\' ]]> --> 100% :: x,y:z \r\n::error::injected \x00\x07\x1b[31mred\x1b[0m \ufffe end'
BAD_MEMO = (
    "# Sources\n\n"
    "Revenue doubled ([source](https://example.com/acme-report)).\n"
    "See also https://www.yourdomain.com/blog and https://www.sec.gov/Archives/edgar/data/320193/.\n"
)
CLEAN_MEMO = "# Clean\n\nThe filing is at [EDGAR](https://www.sec.gov/Archives/edgar/data/320193/).\n"
_REGISTRY: list[Registry] = []


def registry() -> Registry:
    if not _REGISTRY:
        _REGISTRY.append(build_registry())
    return _REGISTRY[0]


def audit_files(tmp_path: Path, files: dict[str, str], raw_config: dict[str, Any] | None = None) -> Report:
    """Write `files` under tmp_path and audit them offline with U001 and the engine rules only (so rules other
    engineers add do not change these expectations), plus the given config."""
    paths = []
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return audit(paths, build({"select": ["U001", "E"], **(raw_config or {})}), registry=registry())


def render_report(fmt: str, report: Report, suppressed: bool = False, **context: Any) -> str:
    """What `citecheck audit --format fmt` prints for this report."""
    return render(fmt, report.findings, report.summary, ReportContext(registry=registry(), report=report, color=False,
                  suppressed=report.suppressed if suppressed else None, **context))


def finding(rule: str = "U001", name: str = "placeholder-domain", severity: str = "error", message: str = "msg",
            path: str = "memo.md", line: int = 1, column: int = 1, url: str = "", evidence: str = "") -> Finding:
    declared = registry().get(rule)  # what the rule declares, as the engine would stamp it
    if declared is None:
        return Finding(path, line, column, rule, name, Severity(severity), message, url, evidence)
    return Finding(path, line, column, rule, name, Severity(severity), message, url, evidence,
                   verdict=declared.verdict or Verdict.ADVISORY, stage=declared.stage,
                   fault=declared.fault)


def hostile_findings() -> list[Finding]:
    return [
        finding(message=HOSTILE, path="dir, with: odd%chars/memo.md", url="https://example.com/?q=" + HOSTILE,
                evidence=HOSTILE),
        finding("E002", "suppression-without-reason", "warning", "plain warning", line=2, column=3),
        finding("M008", "unsupported-citation", "info", "an info", line=3, column=4),
    ]


def summary_of(findings: list[Finding]) -> dict[str, Any]:
    return {"files": 1, "documents": 1, "corpora": 0, "links": 0, "urls": 0, "findings": len(findings),
            "errors": sum(f.severity.value == "error" for f in findings),
            "warnings": sum(f.severity.value == "warning" for f in findings),
            "infos": sum(f.severity.value == "info" for f in findings), "by_rule": {}, "suppressed": 0,
            "online": False, "fetched": 0, "outcomes": {}, "duration_s": 0.5}
