"""One memo as escaped source with line numbers, every cite highlighted where it is written.

Why source and not rendered Markdown: findings are positions (line:column) in the file the
reviewer will edit, and many planted problems live where a rendering hides or moves them —
reference and footnote definitions, HTML comments and suppression directives, raw HTML, code
blocks, front matter. The source view shows each one at its line, the same way for Markdown,
HTML and text memos, and nothing in the memo is ever interpreted as markup.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from citecheck.models import Finding
from citecheck.report.html_cites import Cite
from citecheck.report.html_evidence import badge, chips, finding_item, panel, severity
from citecheck.report.html_markup import esc, score_bar
from citecheck.report.html_model import MemoView
from citecheck.report.html_verdicts import BY_KEY

if TYPE_CHECKING:
    from citecheck.engine.registry import Registry

_SEV_RANK = {"error": 3, "warning": 2, "info": 1}


def render_memo(memo: MemoView, registry: Registry | None = None) -> str:
    """A <section> with the memo's header, file-level findings and its numbered source lines."""
    lines = [line.removesuffix("\r") for line in memo.doc.text.split("\n")]
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    by_line: dict[int, list[Cite]] = {}
    for cite in memo.cites:
        by_line.setdefault(cite.line, []).append(cite)
    rows, fenced = [], False
    for n, text in enumerate(lines, 1):
        kind, fenced = _line_kind(text, memo.doc.format, fenced)
        rows.append(_row(memo, n, text, kind, by_line.get(n, []), memo.line_findings.get(n, []), registry))
    label = f"Source of {memo.doc.path} with line numbers"
    return (f'<section class="memo" id="{memo.anchor}" aria-labelledby="{memo.anchor}-h">'
            f'<h2 id="{memo.anchor}-h"><span class="kicker">Memo {memo.index}</span> {esc(memo.doc.path)}</h2>'
            f'{_meta(memo)}{_file_findings(memo, registry)}'
            f'<div class="src" role="region" aria-label="{esc(label)}">{"".join(rows)}</div></section>')


def _meta(memo: MemoView) -> str:
    counts = Counter(c.verdict for c in memo.cites)
    score = (score_bar(memo.score, f"Citation-truth score of {memo.doc.path}") if memo.score is not None
             else '<span class="score na">Citation-truth score n/a: no citations</span>' if not memo.cites else "")
    found = sum(len(c.findings) for c in memo.cites) + sum(map(len, memo.line_findings.values()))
    found += len(memo.file_findings)
    facts = f"{len(memo.cites)} links and citations · {found} findings · {esc(memo.doc.format)}"
    return f'<div class="memo-meta">{score}<p>{facts}</p>{chips(counts)}</div>'


def _file_findings(memo: MemoView, registry: Registry | None) -> str:
    if not memo.file_findings:
        return ""
    items = "".join(finding_item(f, registry) for f in memo.file_findings)
    return (f'<details class="ev lf" id="{memo.anchor}-ff" open><summary>{len(memo.file_findings)} finding(s) '
            f'about the file as a whole</summary><div class="panel"><ul class="findings">{items}</ul></div></details>')


def _line_kind(text: str, fmt: str, fenced: bool) -> tuple[str, bool]:
    if fmt != "markdown":
        return "", fenced
    stripped = text.lstrip()
    if stripped.startswith(("```", "~~~")):
        return "code", not fenced
    if fenced:
        return "code", fenced
    if stripped.startswith("#") and stripped.lstrip("#").startswith(" "):
        return f"h h{min(len(stripped) - len(stripped.lstrip('#')), 6)}", fenced
    return "", fenced


def _row(memo: MemoView, n: int, text: str, kind: str, cites: list[Cite], found: list[Finding],
         registry: Registry | None) -> str:
    worst = max((_SEV_RANK[f.severity.value] for c in cites for f in c.findings), default=0)
    worst = max([worst, *(_SEV_RANK[f.severity.value] for f in found)])
    mark = {3: " p-error", 2: " p-warning", 1: " p-info"}.get(worst, "")
    line = (f'<div class="ln {kind}{mark}" id="{memo.anchor}-L{n}"><span class="no" data-n="{n}" aria-hidden="true">'
            f'</span><code class="tx">{_highlight(text, cites)}</code></div>')
    panels = [_cite_details(c, registry) for c in cites]
    if found:
        panels.append(_line_details(memo, n, found, registry))
    if not panels:
        return line
    return f'{line}<div class="evs" role="group" aria-label="Evidence for line {n}">{"".join(panels)}</div>'


def _highlight(text: str, cites: list[Cite]) -> str:
    out, pos = [], 0
    for cite in cites:
        start = _locate(text, cite, pos)
        at = start if start is not None else min(max(cite.column - 1, pos), len(text))
        shown = text[at:at + len(cite.text)] if start is not None else ""
        out.append(esc(text[pos:at]) + _mark(cite, shown))
        pos = at + len(shown)
    return "".join(out) + esc(text[pos:])


def _locate(text: str, cite: Cite, pos: int) -> int | None:
    if not cite.text:
        return None
    col, low, needle = cite.column - 1, text.lower(), cite.text.lower()
    if col >= pos and low[col:col + len(needle)] == needle:
        return col
    found = low.find(needle, pos)
    return found if found >= 0 else None


def _mark(cite: Cite, shown: str) -> str:
    v = BY_KEY[cite.verdict]
    what = "citation" if cite.kind == "source-id" else "link"
    label = f"{v.label} {what}: {cite.text}; {len(cite.findings)} finding(s); show evidence"
    return (f'<a class="cite v-{v.key}" id="{cite.key}" href="#{cite.anchor}" aria-label="{esc(label)}">'
            f'{badge(v.key)}<span class="u">{esc(shown)}</span></a>')


def _cite_details(cite: Cite, registry: Registry | None) -> str:
    first = cite.findings[0] if cite.findings else None
    gist = f'<span class="gist"><code>{esc(first.rule)}</code> {esc(first.message)}</span>' if first else ""
    more = f' <span class="more">+{len(cite.findings) - 1} more</span>' if len(cite.findings) > 1 else ""
    return (f'<details class="ev v-{cite.verdict}" id="{cite.anchor}"><summary>{badge(cite.verdict)} '
            f'<span class="u">{esc(cite.text)}</span> {gist}{more}</summary>{panel(cite, registry)}</details>')


def _line_details(memo: MemoView, n: int, found: list[Finding], registry: Registry | None) -> str:
    worst = max(found, key=lambda f: _SEV_RANK[f.severity.value])
    items = "".join(finding_item(f, registry) for f in found)
    return (f'<details class="ev lf" id="{memo.anchor}-lf{n}"><summary>{severity(worst.severity.value)} '
            f'{len(found)} finding(s) on line {n}: <span class="gist"><code>{esc(found[0].rule)}</code> '
            f'{esc(found[0].message)}</span></summary><div class="panel"><ul class="findings">{items}</ul></div></details>')
