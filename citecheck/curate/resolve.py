"""Resolve `<needs-source claim="…"/>` markers: harvest sources for each claim, keep a source only
when its excerpt supports the claim, and turn the marker into a `[src-NNN]` citation.

The claim is the search query; new sources pass the same gate as any harvest and are appended to
the corpus with new IDs (known IDs never change). A marker whose best new source does not support
the claim stays in place for human review. The per-section counts of raised and resolved markers
are the data to decide whether an enrichment step is worth having at all.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citecheck.config import Config
from citecheck.extract import extract_document
from citecheck.harvest import HarvestResult, harvest_into_async
from citecheck.harvest.outline import Outline, Query, Section
from citecheck.models import Marker, Source
from citecheck.support.assess import Thresholds, assess

_TAG_RE = re.compile(r"<needs-source\b[^>]*?/?>", re.IGNORECASE)


@dataclass(frozen=True)
class Resolution:
    claim: str
    line: int
    column: int
    section: str
    source_id: str = ""  # set when resolved
    score: float = 0.0
    evidence: str = ""
    reason: str = ""

    @property
    def resolved(self) -> bool:
        return bool(self.source_id)


@dataclass
class ResolveResult:
    text: str
    corpus: list[Source]
    resolutions: list[Resolution]
    harvest: HarvestResult | None = None
    by_section: dict[str, dict[str, int]] = field(default_factory=dict)


def claims_in(path: str, text: str) -> list[Marker]:
    doc = extract_document(path, text)
    return [m for m in doc.markers if m.kind == "needs-source" and m.value.strip() and not m.in_code]


def claim_outline(markers: Sequence[Marker], providers: Sequence[str]) -> Outline:
    sections = tuple(Section(id=f"claim-{n:03d}", title=m.value[:80], queries=(Query(m.value, m.location.line),),
                             providers=tuple(providers), line=m.location.line)
                     for n, m in enumerate(markers, start=1))
    return Outline(title="needs-source claims", sections=sections, providers=tuple(providers))


async def resolve_async(path: str, text: str, corpus_path: str | Path, *, providers: Sequence[str],
                        config: Config, min_support: float = 0.5, gate: str = "default",
                        resolver: Any = None) -> ResolveResult:
    """Harvest for every claim into `corpus_path` and write it (`harvest_into_async`: locked, an
    interrupted write recovered, the corpus and its `.ids` committed), then cite the best supporting
    new source (or leave the marker). Without a marker the corpus is not touched."""
    markers = claims_in(path, text)
    if not markers:
        return ResolveResult(text, [], [], None, {})
    result = await harvest_into_async(corpus_path, claim_outline(markers, providers), providers=providers,
                                      config=config, gate=gate, resolver=resolver)
    by_id = {s.id: s for s in result.corpus}
    resolutions = []
    for n, marker in enumerate(markers, start=1):
        ids = result.sections.get(f"claim-{n:03d}", [])
        resolutions.append(_best(marker, [by_id[i] for i in ids if i in by_id], min_support))
    return ResolveResult(_apply(text, resolutions), result.corpus, resolutions, result, _tally(resolutions))


def _best(marker: Marker, sources: list[Source], min_support: float) -> Resolution:
    loc = marker.location
    base = Resolution(marker.value, loc.line, loc.column, marker.section)
    if not sources:
        return Resolution(**{**base.__dict__, "reason": "no source passed the gate"})
    scored = [(s, assess(marker.value, f"{s.title}. {s.summary} {s.body_excerpt}", thresholds=Thresholds(min_support)))
              for s in sources]
    source, best = max(scored, key=lambda pair: (pair[1].supported, pair[1].score))
    if not best.supported:
        return Resolution(**{**base.__dict__, "score": best.score, "evidence": best.passage[:300],
                             "reason": f"best new source {source.id} does not support the claim ({best.reason})"})
    return Resolution(**{**base.__dict__, "source_id": source.id, "score": best.score, "evidence": best.passage[:300]})


def _apply(text: str, resolutions: list[Resolution]) -> str:
    """Replace each resolved marker (found at its line and column) by `[src-NNN]`."""
    lines = text.split("\n")
    for r in sorted(resolutions, key=lambda r: (r.line, -r.column)):
        if not r.resolved or not 0 < r.line <= len(lines):
            continue
        line = lines[r.line - 1]
        m = _TAG_RE.search(line, max(0, r.column - 1))
        if m:
            lines[r.line - 1] = f"{line[:m.start()]}[{r.source_id}]{line[m.end():]}"
    return "\n".join(lines)


def _tally(resolutions: list[Resolution]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for r in resolutions:
        counts = out.setdefault(r.section or "(no section)", {"raised": 0, "resolved": 0})
        counts["raised"] += 1
        counts["resolved"] += int(r.resolved)
    return out
