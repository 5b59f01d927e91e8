"""What a harvest returns: the corpus, the rejects with the findings that failed them, and stats."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from citecheck.harvest.gate import Reason
from citecheck.harvest.ids import IdBook
from citecheck.harvest.merge import MergeRow, payload
from citecheck.harvest.plan import Found
from citecheck.models import Finding, Source


@dataclass
class Reject:
    """A candidate that failed the gate (or a known source that fails it now and was dropped)."""

    found: Found
    reasons: list[Reason]
    findings: list[Finding] = field(default_factory=list)
    previous_id: str = ""
    final_url: str = ""

    def to_dict(self) -> dict[str, Any]:
        c = self.found.candidate
        where = self.found.location
        data = {"url": c.url, "section": self.found.section, "retrieval_query": c.query, "retrieval_tool": c.tool,
                "search_title": c.title, "snippet": c.snippet, "origin": f"{where.path}:{where.line}",
                "final_url": self.final_url, "stage": self.reasons[0].stage if self.reasons else "",
                "reasons": [r.to_dict() for r in self.reasons], "findings": [f.to_dict() for f in self.findings]}
        if self.previous_id:
            data["previous_id"] = self.previous_id
        return data


@dataclass
class HarvestResult:
    corpus: list[Source]
    rejects: list[Reject]
    stats: dict[str, Any]
    sections: dict[str, list[str]] = field(default_factory=dict)  # section id -> IDs of its sources
    errors: list[str] = field(default_factory=list)  # provider failures (the run went on without them)
    empty_sections: list[str] = field(default_factory=list)
    high_water: int = 0
    corpus_findings: list[Finding] = field(default_factory=list)  # self-check of the new corpus (C rules)
    gate: str = "default"
    crashed: bool = False  # a rule raised: reported as E000 on the candidates it hit
    merge: list[MergeRow] = field(default_factory=list)  # what the merge did to each source
    book: IdBook = field(default_factory=IdBook)  # the ID registry to write beside the corpus

    @property
    def exit_code(self) -> int:
        """0 when every section has sources; 1 when one ended empty, the corpus fails its own C
        rules, or (under --gate strict) any candidate was rejected; 2 when a rule crashed."""
        if self.crashed:
            return 2
        if self.empty_sections or self.corpus_findings:
            return 1
        return 1 if self.gate == "strict" and self.rejects else 0

    def rejects_payload(self) -> dict[str, Any]:
        return {"version": 1, "gate": self.gate, "rejects": [r.to_dict() for r in self.rejects],
                "merge": payload(self.merge),
                "summary": {"rejected": len(self.rejects), "kept": len(self.corpus),
                            "by_reason": _count(r.reasons[0].rule or r.reasons[0].name for r in self.rejects
                                                if r.reasons)}}


def _count(keys: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for key in keys:
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))
