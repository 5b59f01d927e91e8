"""The view model of the HTML review report: memos with their cites, line findings and sections.

Built once from a `Report` (documents, pages) and the findings and summary the reporter was
given; the renderers only read it. Identifiers are counters, never text from the memo.
"""
from __future__ import annotations

from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from citecheck.models import EXCLUDED_BY_CONFIG, Corpus, Document, Finding, Outcome, Page
from citecheck.report.html_cites import SENTENCE_SPAN, Cite, cites_of, owner, settle
from citecheck.report.html_verdicts import BY_KEY

if TYPE_CHECKING:
    from citecheck._audit import Report

NO_SECTION = "(no section)"  # the name the citation-truth score gives text before any heading


@dataclass
class MemoView:
    index: int
    doc: Document
    cites: list[Cite]
    line_findings: dict[int, list[Finding]] = field(default_factory=dict)
    file_findings: list[Finding] = field(default_factory=list)
    score: float | None = None

    @property
    def anchor(self) -> str:
        return f"m{self.index}"

    @cached_property
    def _heads(self) -> tuple[list[int], list[str]]:
        heads = sorted((h.location.line, h.text) for h in self.doc.headings)
        return [h[0] for h in heads], [h[1] for h in heads]

    def section_of(self, line: int) -> tuple[str, int]:
        """(heading text, heading line) of the section holding `line`; (NO_SECTION, 1) before any."""
        starts, names = self._heads
        at = bisect_right(starts, line)
        return (names[at - 1] or NO_SECTION, starts[at - 1]) if at else (NO_SECTION, 1)


@dataclass
class SectionRow:
    memo: MemoView
    name: str
    line: int
    findings: list[Finding] = field(default_factory=list)
    cites: list[Cite] = field(default_factory=list)
    score: Mapping[str, Any] | None = None

    def trouble(self) -> tuple[int, int, int, float]:
        """Errors, warnings, problem cites (unverifiable or worse), then the lowest score first."""
        sev = Counter(f.severity.value for f in self.findings)
        bad = sum(1 for c in self.cites if BY_KEY[c.verdict].rank >= BY_KEY["unverifiable"].rank)
        value = self.score.get("score") if self.score else None
        return sev["error"], sev["warning"], bad, -(float(value) if isinstance(value, (int, float)) else 10.0)


@dataclass
class ReportView:
    memos: list[MemoView]
    findings: list[Finding]
    summary: Mapping[str, Any]
    sections: list[SectionRow]
    targets: dict[int, str]  # id(finding) → element id of the place that shows it

    def target(self, f: Finding) -> str:
        return self.targets.get(id(f), "")


def build_view(findings: Iterable[Finding], summary: Mapping[str, Any], report: Report | None = None,
               corpus: Corpus | None = None) -> ReportView:
    """Assemble the view; `report` is an `audit.Report` (or None: findings and summary only)."""
    findings = list(findings)
    docs: list[Document] = list(report.inputs.documents) if report is not None else []
    pages: Mapping[str, Page] = report.pages if report is not None else {}
    by_path: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        by_path[f.path].append(f)
    memos, targets = [], {}
    for index, doc in enumerate(docs, 1):
        memo = MemoView(index, doc, cites_of(doc, f"m{index}", pages, corpus))
        memo.score = _memo_score(summary, doc.path, len(docs))
        targets.update(_attach(memo, by_path.get(doc.path, [])))
        _mark_accepted(memo, summary)
        memos.append(memo)
    sections = sorted((row for memo in memos for row in _sections(memo, summary)),
                      key=lambda r: (tuple(-x for x in r.trouble()), r.memo.index, r.line))
    return ReportView(memos, findings, summary, sections, targets)


def _mark_accepted(memo: MemoView, summary: Mapping[str, Any]) -> None:
    """A link whose final status the team accepts (`--accept`; the summary's `accepted` counts by
    status) is shown unchecked, "accepted", never by its raw outcome and never live; one the config
    kept from the fetch (`exclude-urls`) is unchecked, "excluded by config"."""
    statuses = {int(k) for k in (summary.get("accepted") or {}) if str(k).isdigit()}
    for cite in memo.cites:
        page = cite.page
        if page is None or cite.reasons:
            continue
        if page.status in statuses and page.outcome is not Outcome.OK:
            cite.verdict, cite.reasons = "unchecked", [f"accepted (HTTP {page.status}, --accept): not verified"]
        elif page.error == EXCLUDED_BY_CONFIG:
            cite.verdict, cite.reasons = "unchecked", ["excluded by config (exclude-urls / --exclude-url)"]


def _attach(memo: MemoView, findings: list[Finding]) -> dict[int, str]:
    targets: dict[int, str] = {}
    nlines = memo.doc.text.count("\n") + 1
    by_line: dict[int, list[Cite]] = defaultdict(list)
    for c in memo.cites:
        by_line[c.line].append(c)
    for f in findings:
        cite = owner(f, [c for n in range(f.line, f.line + SENTENCE_SPAN + 1) for c in by_line.get(n, ())])
        if cite is not None:
            cite.findings.append(f)
            targets[id(f)] = cite.anchor
        elif 1 <= f.line <= nlines:
            memo.line_findings.setdefault(f.line, []).append(f)
            targets[id(f)] = f"{memo.anchor}-lf{f.line}"
        else:
            memo.file_findings.append(f)
            targets[id(f)] = f"{memo.anchor}-ff"
    for cite in memo.cites:
        settle(cite)
    return targets


def _sections(memo: MemoView, summary: Mapping[str, Any]) -> list[SectionRow]:
    scores = summary.get("sections") if isinstance(summary.get("sections"), Mapping) else {}
    rows: dict[int, SectionRow] = {}

    def row(line: int) -> SectionRow:
        name, start = memo.section_of(line)
        if start not in rows:
            entry = scores.get(name) if isinstance(scores, Mapping) else None
            rows[start] = SectionRow(memo, name, start, score=entry if isinstance(entry, Mapping) else None)
        return rows[start]

    for cite in memo.cites:
        row(cite.line).cites.append(cite)
        row(cite.line).findings.extend(cite.findings)
    for line, found in sorted(memo.line_findings.items()):
        row(line).findings.extend(found)
    if memo.file_findings:
        row(1).findings.extend(memo.file_findings)
    return list(rows.values())


def _memo_score(summary: Mapping[str, Any], path: str, count: int) -> float | None:
    per = summary.get("memos")
    if isinstance(per, Mapping) and isinstance(per.get(path), (int, float)):
        return float(per[path])
    overall = summary.get("citation_truth_score")
    return float(overall) if count == 1 and isinstance(overall, (int, float)) else None
