"""The summary header: totals, citation-truth score, verdict chart, memos, sections by trouble, rules.

Every number shown here is the JSON report's number for the same run (`data-key` names the
summary field), except the verdict chart, which counts the highlighted links and citations.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from citecheck.report.html_evidence import chips
from citecheck.report.html_markup import attrs, esc, icon, number, score_bar
from citecheck.report.html_model import ReportView
from citecheck.report.html_verdicts import BY_KEY, VERDICTS
from citecheck.score import CLAIMS

if TYPE_CHECKING:
    from citecheck.engine.registry import Registry

_CLAIM_VERDICTS = frozenset(v.value for v in CLAIMS)
TOTALS = (("Findings", "findings"), ("Errors", "errors"), ("Warnings", "warnings"), ("Info", "infos"),
          ("Files", "files"), ("Links", "links"), ("Distinct URLs", "urls"), ("Citations scored", "citations"),
          ("Fetched", "fetched"), ("Suppressed", "suppressed"), ("Baselined", "baselined"))


def render_summary(view: ReportView, registry: Registry | None = None) -> str:
    s = view.summary
    parts = [_totals(s), _score(s), _chart(view)]
    if view.memos:
        parts.append(_memos(view))
    if view.sections:
        parts.append(_sections(view))
    parts.append(_rules(s, registry))
    parts.append(_directives(s))
    return (f'<section id="summary" aria-labelledby="summary-h"><h2 id="summary-h">Summary</h2>'
            f'{"".join(parts)}</section>')


def _totals(s: Mapping[str, Any]) -> str:
    items = "".join(f'<div><dt>{label}</dt><dd data-key="{key}">{number(s[key])}</dd></div>'
                    for label, key in TOTALS if isinstance(s.get(key), (int, float)) and not isinstance(s[key], bool))
    mode = "online (pages fetched)" if s.get("online") else "offline (no page fetched)"
    return f'<div class="card"><h3>Totals</h3><dl class="totals">{items}</dl><p class="mode">Run: {mode}</p></div>'


def _score(s: Mapping[str, Any]) -> str:
    value = s.get("citation_truth_score")
    if "citation_truth_score" in s and value is None:
        return ('<div class="card"><h3>Citation-truth score</h3><p class="big" data-key="citation_truth_score">'
                'n/a</p><p class="none">No citations to score: a memo without sources earns no score.</p></div>')
    if not isinstance(value, (int, float)):
        return ('<div class="card"><h3>Citation-truth score</h3><p class="none">Not computed for this run.</p></div>')
    fine = s.get("verdicts")
    fine = fine if isinstance(fine, Mapping) else {}
    inputs = "".join(f'<li>{esc(k)} <b data-score-verdict="{esc(k)}">{number(v)}</b></li>' for k, v in sorted(fine.items()))
    # the chart counts links and source IDs by their worst finding; the score also counts each claim
    # (an unsupported sentence, a needs-source marker) as an item of its own: say so, with both numbers
    claims = sum(int(v) for k, v in fine.items() if k in _CLAIM_VERDICTS and isinstance(v, int))
    cites = sum(int(v) for v in fine.values() if isinstance(v, int)) - claims
    units = (f'<p class="note" data-score-units>{number(cites)} links and source IDs, as in the chart, each by '
             f'its worst finding, and {number(claims)} claim(s) counted on their own (unsupported: a cited source '
             'does not back the sentence; needs-source: a marker); a link in an unsupported sentence is shown as '
             'unsupported in the chart and the source, and counted by its own findings here.</p>') if fine else ""
    listing = f'<p class="k">What the score counted</p><ul class="plain">{inputs}</ul>{units}' if inputs else ""
    return (f'<div class="card"><h3>Citation-truth score</h3><p class="big" data-key="citation_truth_score">'
            f'{score_bar(value, "Citation-truth score, all memos")}</p>{listing}</div>')


def _chart(view: ReportView) -> str:
    counts = Counter(c.verdict for m in view.memos for c in m.cites)
    total = sum(counts.values())
    if not total:
        return '<div class="card wide"><h3>Links and citations by verdict</h3><p class="none">None found.</p></div>'
    x, rects = 0.0, []
    for v in VERDICTS:
        if counts.get(v.key):
            width = 100 * counts[v.key] / total
            rects.append(f'<rect class="v-{v.key}" x="{x:.2f}" width="{width:.2f}" height="10">'
                         f'<title>{v.label}: {counts[v.key]}</title></rect>')
            x += width
    desc = ", ".join(f"{v.label} {counts[v.key]}" for v in VERDICTS if counts.get(v.key))
    svg = (f'<svg class="stack" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" '
           f'aria-label="{esc(desc)}">{"".join(rects)}</svg>')
    legend = "".join(f'<li><span class="badge v-{v.key}">{icon(v.key)}<span class="lbl">{v.label}</span></span>'
                     f' <b data-verdict="{v.key}">{counts.get(v.key, 0)}</b> <span class="blurb">{esc(v.blurb)}</span></li>'
                     for v in VERDICTS)
    return (f'<div class="card wide" id="verdicts"><h3>{total} links and citations by verdict</h3>{svg}'
            f'<ul class="legend">{legend}</ul></div>')


def _memos(view: ReportView) -> str:
    rows = []
    for m in view.memos:
        score = score_bar(m.score, f"Score of {m.doc.path}") if m.score is not None else "n/a"
        found = sum(len(c.findings) for c in m.cites) + sum(map(len, m.line_findings.values())) + len(m.file_findings)
        rows.append(f'<tr><th scope="row"><a href="#{m.anchor}">{esc(m.doc.path)}</a></th>'
                    f'<td{attrs(data_k=f"{m.score if m.score is not None else 99:06.2f}", data_memo_score=m.doc.path if m.score is not None else None)}>'
                    f'{score}</td>'
                    f'<td data-k="{len(m.cites):06d}">{len(m.cites)}</td><td data-k="{found:06d}">{found}</td>'
                    f'<td class="wide">{chips(Counter(c.verdict for c in m.cites))}</td></tr>')
    head = ('<tr><th scope="col" data-sort>Memo</th><th scope="col" data-sort>Score</th>'
            '<th scope="col" data-sort>Links and citations</th><th scope="col" data-sort>Findings</th>'
            '<th scope="col">Verdicts</th></tr>')
    return (f'<div class="card wide"><h3 id="memos-h">Memos</h3><div class="table-wrap"><table class="sortable stackable" '
            f'aria-labelledby="memos-h"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table></div></div>')


def _sections(view: ReportView) -> str:
    rows = []
    for rank, r in enumerate(view.sections, 1):
        errors, warnings, bad, _ = r.trouble()
        value = r.score.get("score") if r.score else None
        score = score_bar(value, f"Score of section {r.name}") if isinstance(value, (int, float)) else "—"
        extra = ", ".join(f"{esc(k)} {number(v)}" for k, v in sorted(r.score.items())
                          if k != "score" and isinstance(v, (int, float))) if r.score else ""
        rows.append(f'<tr><td data-k="{rank:06d}">{rank}</td><th scope="row"><a href="#{r.memo.anchor}-L{r.line}">'
                    f'{esc(r.name)}</a> <span class="where">{esc(r.memo.doc.path)}:{r.line}</span></th>'
                    f'<td{attrs(data_k=f"{value if isinstance(value, (int, float)) else 99:06.2f}", data_section_score=r.name if isinstance(value, (int, float)) else None)}>'
                    f'{score}'
                    f'{f"<small>{extra}</small>" if extra else ""}</td><td data-k="{errors:06d}">{errors}</td>'
                    f'<td data-k="{warnings:06d}">{warnings}</td><td data-k="{bad:06d}">{bad}</td>'
                    f'<td class="wide">{chips(Counter(c.verdict for c in r.cites))}</td></tr>')
    head = "".join(f'<th scope="col" data-sort>{h}</th>' for h in
                   ("#", "Section", "Score", "Errors", "Warnings", "Problem links")) + '<th scope="col">Verdicts</th>'
    return (f'<div class="card wide" id="sections"><h3 id="sections-h">Sections, most trouble first</h3>'
            f'<p class="hint">Ranked by errors, then warnings, then links that are {BY_KEY["unverifiable"].label.lower()}'
            f' or worse, then lowest score.</p><div class="table-wrap"><table class="sortable stackable" aria-labelledby='
            f'"sections-h"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div></div>')


def _rules(s: Mapping[str, Any], registry: Registry | None) -> str:
    by_rule = s.get("by_rule") if isinstance(s.get("by_rule"), Mapping) else {}
    if not by_rule:
        return ""
    items = []
    for rule, count in sorted(by_rule.items()):
        spec = registry.get(rule) if registry is not None else None
        name = f' <span class="slug">{esc(spec.name)}</span>' if spec is not None else ""
        hint = f' — {esc(spec.summary)}' if spec is not None and spec.summary else ""
        items.append(f'<li><code class="rule">{esc(rule)}</code>{name} <b data-rule-count="{esc(rule)}">'
                     f'{number(count)}</b>{hint}</li>')
    return f'<div class="card wide"><h3>Rules that fired</h3><ul class="plain rules">{"".join(items)}</ul></div>'


def _directives(s: Mapping[str, Any]) -> str:
    """Each inline directive that suppressed findings (and how many), and the directives not read."""
    uses = [u for u in s.get("suppressions") or [] if isinstance(u, Mapping)]
    found = s.get("directives_ignored")
    ignored: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    if not uses and not ignored:
        return ""
    items = [f'<li><span class="where">{esc(u.get("path"))}:{esc(u.get("line"))}</span> <code>{esc(u.get("directive"))}'
             f'</code> <b data-suppressed-by="{esc(u.get("path"))}:{esc(u.get("line"))}">{number(u.get("suppressed", 0))}'
             f'</b> finding(s) — reason: {esc(u.get("reason", ""))}</li>' for u in uses]
    items += [f'<li><span class="where">{esc(path)}</span>: <b data-directives-ignored="{esc(path)}">{number(count)}'
              f'</b> directive(s) not read (--no-inline-config)</li>' for path, count in sorted(ignored.items())]
    return (f'<div class="card wide" id="directives"><h3>Inline directives</h3>'
            f'<ul class="plain">{"".join(items)}</ul></div>')
