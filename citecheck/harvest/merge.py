"""Re-harvesting into an existing corpus is a merge, and the merge table says what it did.

    kept       in the corpus, passed again, same content (its fetch facts are the new ones)
    refreshed  in the corpus, passed again, content changed (new excerpt and content_hash)
    added      a new source with a new ID, or a URL that came back and regained its old ID
    stale      in the corpus, unverifiable now: kept with its last good facts (`stale`,
               `last_verified`, `stale_reason`), never dropped, never renumbered
    retired    in the corpus, dead on evidence now: moved to the registry's retired list with
               the evidence and the date; its ID stays reserved for its URL

See `citecheck.harvest.evidence` for what counts as dead and what only as unverifiable.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, TextIO

from citecheck.harvest.gate import Reason
from citecheck.models import Source

STATES = ("kept", "refreshed", "added", "stale", "retired")
STALE_FIELDS = ("stale", "last_verified", "stale_reason")


@dataclass(frozen=True)
class MergeRow:
    state: str  # one of STATES
    id: str
    url: str
    detail: str = ""  # why (stale, retired), or "regained its ID" (added)

    def to_dict(self) -> dict[str, Any]:
        return {"state": self.state, "id": self.id, "url": self.url, "detail": self.detail}


def counts(rows: Sequence[MergeRow]) -> dict[str, int]:
    found = Counter(r.state for r in rows)
    return {state: found.get(state, 0) for state in STATES}


def reason_label(reason: Reason) -> str:
    label = f"{reason.rule} {reason.name}" if reason.rule else reason.name
    return f"{label}: {reason.message}"


def mark_stale(source: Source, reason: Reason) -> Source:
    """The source as it was, marked stale: its facts stay those of its last good fetch."""
    extra = dict(source.extra)
    extra["stale"] = True
    extra["last_verified"] = str(extra.get("last_verified") or source.fetched_at)
    extra["stale_reason"] = reason_label(reason)
    return replace(source, extra=extra)


def retirement(source: Source, reason: Reason, when: str) -> dict[str, Any]:
    """The retired-list record of a source dead on evidence."""
    return {"url": source.url, "canonical_url": source.canonical_url, "title": source.title, "retired_at": when,
            "last_verified": str(source.extra.get("last_verified") or source.fetched_at),
            "rule": reason.rule or reason.name, "reason": reason.message, "evidence": reason.evidence}


def same_content(old: Source, new: Source) -> bool:
    return bool(old.content_hash) and old.content_hash == new.content_hash and not old.extra.get("stale")


def write_table(rows: Sequence[MergeRow], stream: TextIO, target: str) -> None:
    """The merge table on stderr: one count line, then a line per source that did not stay as it was."""
    total = counts(rows)
    print(f"merge into {target}: " + ", ".join(f"{n} {state}" for state, n in total.items()), file=stream)
    for row in rows:
        if row.state != "kept":
            detail = f"  {row.detail}" if row.detail else ""
            print(f"  {row.state:<9}  {row.id:<8}  {row.url}{detail}", file=stream)


def payload(rows: Sequence[MergeRow]) -> dict[str, Any]:
    return {"counts": counts(rows), "rows": [r.to_dict() for r in rows]}
