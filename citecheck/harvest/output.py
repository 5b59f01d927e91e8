"""Persisting a harvest (the edge): the corpus and its ID high-water mark, the rejects report,
per-section corpora, and the rejects table on stderr. Every file is written atomically."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TextIO

from citecheck.atomic import atomic_write
from citecheck.harvest.corpus import write_corpus
from citecheck.harvest.ids import write_registry
from citecheck.harvest.result import HarvestResult

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def write_outputs(result: HarvestResult, corpus_path: str | Path, *, rejects_path: str | Path | None = None,
                  per_section_dir: str | Path | None = None) -> None:
    """Corpus first, then its `.ids` registry (a crash between them cannot cause ID reuse), then the rest."""
    write_corpus(corpus_path, result.corpus)
    write_registry(corpus_path, result.book)
    if rejects_path is not None:
        atomic_write(rejects_path, json.dumps(result.rejects_payload(), indent=2, ensure_ascii=False) + "\n")
    if per_section_dir is not None:
        by_id = {s.id: s for s in result.corpus}
        for section, ids in result.sections.items():
            write_corpus(Path(per_section_dir) / f"{section}.json", [by_id[i] for i in ids])


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
