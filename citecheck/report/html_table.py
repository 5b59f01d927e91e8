"""The findings table: every finding once, linked to where the memo view shows it.

Without JavaScript it is a plain table in report order; the inline script reveals the filter
form (rule, severity, free text) and turns the headers into sort buttons.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from citecheck.models import Finding
from citecheck.report.html_evidence import badge, rule_code, severity
from citecheck.report.html_markup import esc, link_or_text
from citecheck.report.html_model import ReportView
from citecheck.report.html_verdicts import BY_KEY, finding_verdict

if TYPE_CHECKING:
    from citecheck.engine.registry import Registry

_SEV_RANK = {"error": 3, "warning": 2, "info": 1}


def render_findings(view: ReportView, registry: Registry | None = None, suppressed: list[Finding] | None = None) -> str:
    paths = {m.doc.path: m.index for m in view.memos}
    single = len({f.path for f in view.findings}) == 1  # one file: "line:column" says it all
    rows = "".join(_row(f, n, view, paths, registry, single) for n, f in enumerate(view.findings))
    body = rows or '<tr><td colspan="5">No findings.</td></tr>'
    head = "".join(f'<th scope="col" data-sort>{h}</th>' for h in ("Severity", "Rule", "Location", "Verdict"))
    table = (f'<div class="table-wrap"><table id="ftable" class="sortable stackable findings-table" aria-describedby="f-count">'
             f'<caption>{len(view.findings)} findings{_in(view.findings)}; the location (line:column) opens the evidence in '
             f'the memo view</caption>'
             f'<thead><tr>{head}<th scope="col">Message</th></tr></thead><tbody>{body}</tbody></table></div>')
    return (f'<section id="findings" aria-labelledby="findings-h"><h2 id="findings-h">Findings '
            f'<span class="count">({len(view.findings)})</span></h2>{_filters(view.findings)}{table}'
            f'{_suppressed(suppressed or [], registry)}</section>')


def _in(findings: list[Finding]) -> str:
    paths = {f.path for f in findings}
    return f" in {esc(paths.pop())}" if len(paths) == 1 else ""


def _filters(findings: list[Finding]) -> str:
    rules = sorted({(f.rule, f.name) for f in findings})
    rule_opts = "".join(f'<option value="{esc(r)}">{esc(r)} {esc(n)}</option>' for r, n in rules)
    sevs = [s for s in ("error", "warning", "info") if any(f.severity.value == s for f in findings)]
    sev_opts = "".join(f'<option value="{s}">{s}</option>' for s in sevs)
    return ('<form id="ffilters" class="filters" role="search" aria-label="Filter findings" hidden>'
            f'<label>Rule <select id="f-rule"><option value="">all rules</option>{rule_opts}</select></label>'
            f'<label>Severity <select id="f-sev"><option value="">all severities</option>{sev_opts}</select></label>'
            '<label>Text <input id="f-q" type="search" autocomplete="off" placeholder="URL, message…"></label>'
            f'<output id="f-count" aria-live="polite">{len(findings)} of {len(findings)} findings shown</output></form>')


def _row(f: Finding, n: int, view: ReportView, paths: dict[str, int], registry: Registry | None, single: bool) -> str:
    sev = f.severity.value
    where = f"{f.line}:{f.column}" if single else f"{f.path}:{f.line}:{f.column}"
    target = view.target(f)
    title = f' title="{esc(f.path)}, line {f.line}, column {f.column}"'
    place = f'<a href="#{target}"{title}>{esc(where)}</a>' if target else f"<span{title}>{esc(where)}</span>"
    key = f"{paths.get(f.path, 9999):04d}|{esc(f.path)}|{f.line:07d}|{f.column:05d}|{n:06d}"
    shown = finding_verdict(f)
    verdict = badge(shown[0]) if shown else '<span class="muted">—</span>'
    url = f'<br><span class="url">{link_or_text(f.url)}</span>' if f.url else ""
    return (f'<tr data-rule="{esc(f.rule)}" data-sev="{sev}"><td data-k="{_SEV_RANK[sev]:d}{n:06d}">{severity(sev)}</td>'
            f'<td data-k="{esc(f.rule)}{n:06d}">{rule_code(f, registry)}</td><td data-k="{key}">{place}</td>'
            f'<td data-k="{9 - BY_KEY[shown[0]].rank if shown else 9}{n:06d}">{verdict}</td>'
            f'<td class="wide">{esc(f.message)}{url}</td></tr>')


def _suppressed(found: list[Finding], registry: Registry | None) -> str:
    if not found:
        return ""
    items = "".join(f'<li>{severity(f.severity.value)} {rule_code(f, registry)} <span class="where">'
                    f'{esc(f.path)}:{f.line}:{f.column}</span> {esc(f.message)}</li>' for f in found)
    return (f'<details class="suppressed"><summary>{len(found)} finding(s) suppressed by inline directives'
            f'</summary><ul class="plain">{items}</ul></details>')
