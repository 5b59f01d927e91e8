"""`--format html`: one self-contained review page for humans.

Summary header (totals, citation-truth score, verdict chart, memos, sections ranked by trouble,
rules that fired), then the findings table, then each memo as numbered source with every link
and citation highlighted by verdict and an evidence panel under its line. Inline CSS and script
only, pinned by a Content-Security-Policy; the output is a pure function of its input (no clock,
no randomness), so the same audit renders to the same bytes.

Context the reporter reads (`ReportContext`, all optional): `report` (an audit's `Report`: documents
and pages), `registry` (rule names and summaries), `suppressed` (findings silenced inline), `corpus`
(to resolve `[src-NNN]` citations), `title`, and `generated_at` (shown only when given).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.models import Corpus, Finding
from citecheck.report.base import Reporter
from citecheck.report.html_markup import esc
from citecheck.report.html_model import build_view
from citecheck.report.html_page import page
from citecheck.report.html_source import render_memo
from citecheck.report.html_summary import render_summary
from citecheck.report.html_table import render_findings

if TYPE_CHECKING:
    from citecheck._audit import Report
    from citecheck.engine.registry import Registry


class HtmlReporter(Reporter):
    name = "html"

    def close(self) -> None:
        ctx = self.context
        self.out.write(render_audit(self.items, self.summ, report=ctx.report, registry=ctx.registry,
                                    suppressed=ctx.suppressed, corpus=ctx.corpus, title=ctx.title,
                                    generated_at=ctx.generated_at))


def render_audit(findings: Iterable[Finding], summary: Mapping[str, Any], *, report: Report | None = None,
                 registry: Registry | None = None, suppressed: Iterable[Finding] | None = None, corpus: Corpus | None = None,
                 title: str = "", generated_at: str = "") -> str:
    """The whole review page for an audit, as a string."""
    view = build_view(findings, summary, report, corpus)
    paths = [m.doc.path for m in view.memos]
    heading = title or ("citecheck review: " + (", ".join(paths[:3]) + (" …" if len(paths) > 3 else "")
                                                if paths else "audit findings"))
    when = f" Generated {esc(generated_at)}." if generated_at else ""
    lede = (f"Every link and citation is highlighted in the memo source by verdict; open a highlight for its "
            f"evidence. Numbers match <code>citecheck audit --format json</code> for the same run.{when}")
    nav = [("summary", "Summary"), ("sections", "Sections"), ("findings", "Findings")]
    nav = [item for item in nav if item[0] != "sections" or view.sections]
    nav += [(m.anchor, f"Memo {m.index}") for m in view.memos[:8]]
    body = render_summary(view, registry) + render_findings(view, registry, list(suppressed or []))
    body += "".join(render_memo(m, registry) for m in view.memos)
    return page(heading, heading, body, nav, lede)
