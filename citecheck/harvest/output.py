"""Persisting a harvest (the edge): the corpus and its ID high-water mark, the rejects report,
per-section corpora, the HTML review page, and the rejects table on stderr. Every file is written
atomically."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, TextIO

from citecheck._util.atomic import atomic_write
from citecheck.checks.id_integrity import check as id_integrity
from citecheck.errors import CorpusError
from citecheck.harvest.corpus import render, write_corpus
from citecheck.harvest.ids import registry_text
from citecheck.harvest.merge import payload
from citecheck.harvest.result import HarvestResult
from citecheck.harvest.transaction import commit
from citecheck.models import Corpus

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def write_outputs(result: HarvestResult, corpus_path: str | Path, *, rejects_path: str | Path | None = None,
                  per_section_dir: str | Path | None = None) -> None:
    """The corpus and its `.ids` registry as one commit (`transaction.commit`), then the rest.

    A corpus that fails its own self-check (C004: an ID twice, an ID that is not `src-NNN`) is never
    written: CorpusError, and the files on disk stay as they were."""
    refuse_broken(result, corpus_path)
    commit(corpus_path, render(result.corpus), registry_text(result.book))
    if rejects_path is not None:
        atomic_write(rejects_path, json.dumps(result.rejects_payload(), indent=2, ensure_ascii=False) + "\n")
    if per_section_dir is not None:
        by_id = {s.id: s for s in result.corpus}
        for section, ids in result.sections.items():
            write_corpus(Path(per_section_dir) / f"{section}.json", [by_id[i] for i in ids])


def refuse_broken(result: HarvestResult, corpus_path: str | Path) -> None:
    """CorpusError when the corpus about to be written has an ID twice or an ID that is not `src-NNN`
    (C004's check, run whatever the configuration enables)."""
    records = tuple(s.to_dict() for s in result.corpus)
    own = Corpus(str(corpus_path), tuple(result.corpus), records, tuple(range(1, len(records) + 1)))
    problems = [hit.message for hit in id_integrity(own, {})]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise CorpusError(f"{corpus_path}: the merged corpus fails its ID self-check (C004): {problems[0]}{more}; "
                          "nothing is written (check the corpus's .ids registry)")


def rejects_table(result: HarvestResult, stream: TextIO) -> None:
    """A short human table of what was rejected and why (stderr); lines are never cut, since the end
    of a reason often says what to do (the flag that allows a private address)."""
    if not result.rejects:
        return
    print(f"rejected {len(result.rejects)} candidate(s):", file=stream)
    rows = []
    for reject in result.rejects:
        reason = reject.reasons[0] if reject.reasons else None
        label = f"{reason.rule or reason.name}" if reason else "?"
        detail = f"{reason.message}" if reason else ""
        rows.append((reject.found.section, label, _clean(reject.found.candidate.url), _clean(detail)))
    widths = [max(len(r[i]) for r in rows) for i in range(2)]
    for section, label, url, detail in rows:
        print(f"  {section:<{widths[0]}}  {label:<{widths[1]}}  {url}  {detail}", file=stream)


def summary_lines(result: HarvestResult) -> list[str]:
    stale = sum(1 for s in result.corpus if s.extra.get("stale"))
    counted = f"{len(result.corpus)} sources in the corpus ({result.stats.get('new', 0)} new, {stale} stale)"
    lines = [f"{counted}, {len(result.rejects)} rejected"]
    for section in result.empty_sections:
        lines.append(f"section {section!r} ended with no source")
    for finding in result.corpus_findings:
        lines.append(f"corpus self-check: {finding.rule} {finding.message}")
    return lines


def _clean(text: str) -> str:
    return _CONTROL.sub("?", text)


def write_review(result: HarvestResult, path: str | Path, corpus_path: str) -> None:
    """The self-contained HTML review page (`citecheck harvest --report`): kept and rejected
    candidates per section, and the merge."""
    from citecheck.report.html_harvest import render_harvest_report

    atomic_write(path, render_harvest_report(review_data(result, corpus_path)))


def review_data(result: HarvestResult, output: str) -> dict[str, Any]:
    """The harvest result in the shape `render_harvest_report` reads (kept and rejected per section)."""
    by_id = {s.id: s for s in result.corpus}
    sections: dict[str, dict[str, list[Any]]] = {sid: {"kept": [by_id[i] for i in ids if i in by_id], "rejected": []}
                                                 for sid, ids in result.sections.items()}
    for reject in result.rejects:
        data = reject.to_dict()
        entry = {"url": data["url"], "title": data["search_title"], "findings": reject.findings,
                 "reasons": [f"{r.get('rule', r.get('stage', ''))}: {r.get('message', '')}" for r in data["reasons"]]}
        sections.setdefault(data["section"] or "(none)", {"kept": [], "rejected": []})["rejected"].append(entry)
    return {"title": f"citecheck harvest: {output}", "sections": sections, "merge": payload(result.merge)}
