"""Citation-truth score (0-10) per memo and per section.

Each citation (a cite-able link, a `[src-NNN]` ID, a `<needs-source/>` marker, an unsupported
claim) is an item with a weight and a credit; the score is 10 × Σ(weight·credit) / Σ weight, and
"n/a" (None) when there is no citation at all.
Fabricated and placeholder URLs weigh heaviest. Memo-level problems that are not about citations
(firm-context leaks, watermark names) do not enter the score; they fail the run on their own.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass

from citecheck.models import Document, Finding, LinkKind

# rule → (weight, credit, verdict)
VERDICTS: Mapping[str, tuple[float, float, str]] = {
    "U001": (3, 0.0, "fabricated"), "U005": (3, 0.0, "fabricated"), "M010": (3, 0.0, "fabricated"),
    "U002": (2, 0.0, "invalid"), "U003": (2, 0.0, "invalid"), "U004": (2, 0.0, "invalid"),
    "U006": (2, 0.0, "invalid"), "U007": (2, 0.0, "invalid"),
    "H001": (2, 0.0, "dead"), "H003": (2, 0.0, "soft-404"), "H009": (2, 0.0, "dead"),
    "M006": (2, 0.0, "unknown-id"),
    "H002": (2, 0.0, "dead"), "H006": (1, 0.5, "unverifiable"), "H004": (1, 0.5, "unverifiable"),
    "H005": (1, 0.5, "unverifiable"), "M011": (1, 0.5, "rotted"), "H007": (1, 0.5, "title-mismatch"),
    "M007": (1, 0.5, "uncorpused"), "M009": (1, 0.5, "uncorpused"), "U008": (1, 0.75, "schemeless"),
}
_ITEM_RULES = {"M008": (1, 0.0, "unsupported"), "M003": (1, 0.0, "needs-source")}
_NOT_CITATIONS = {LinkKind.IMAGE}


@dataclass(frozen=True)
class Item:
    section: str
    weight: float
    credit: float
    verdict: str


def _worst(rules: Iterable[Finding], checked: bool = True) -> tuple[float, float, str]:
    """The worst verdict among an item's findings; without one it is "ok" only when the item was
    checked (its page fetched, its ID looked up in a corpus), else "unchecked" (same weight and
    credit: an offline score is an upper bound)."""
    best: tuple[float, float, str] = (1, 1.0, "ok" if checked else "unchecked")
    for f in rules:
        verdict = VERDICTS.get(f.rule)
        if f.rule in ("H002", "H003") and f.severity.value != "error":  # H003: the same page for any path
            verdict = (1, 0.5, "unverifiable")
        if verdict and (verdict[1] < best[1] or (verdict[1] == best[1] and verdict[0] > best[0])):
            best = verdict
    return best


def items_for(doc: Document, findings: list[Finding], fetched: Container[str] | None = None,
              with_corpus: bool = True) -> list[Item]:
    """The document's citations as scored items. `fetched` holds the URLs whose pages were checked
    (None: treat every link as checked); `with_corpus` says whether source IDs were looked up."""
    at: dict[tuple[int, int], list[Finding]] = defaultdict(list)
    for f in findings:
        if f.path == doc.path:
            at[(f.line, f.column)].append(f)
    out: list[Item] = []
    for link in doc.links:
        if link.in_code or link.kind in _NOT_CITATIONS or (link.url.startswith(("#", "./", "../", "/")) and "://" not in link.url):
            continue
        checked = fetched is None or link.url in fetched
        w, c, v = _worst(at.get((link.location.line, link.location.column), []), checked)
        out.append(Item(link.section, w, c, v))
    for marker in doc.markers:
        if marker.kind == "source-id" and not marker.in_code:
            w, c, v = _worst(at.get((marker.location.line, marker.location.column), []), with_corpus)
            out.append(Item(marker.section, w, c, v))
    sections = _section_lookup(doc)
    for f in findings:
        if f.path == doc.path and f.rule in _ITEM_RULES:
            w, c, v = _ITEM_RULES[f.rule]
            out.append(Item(f.section or sections(f.line), w, c, v))
    return out


def _section_lookup(doc: Document):  # type: ignore[no-untyped-def]
    heads = sorted((h.location.line, h.text) for h in doc.headings)

    def find(line: int) -> str:
        current = ""
        for start, text in heads:
            if start > line:
                break
            current = text
        return current
    return find


def score(items: list[Item]) -> float | None:
    """10 × Σ(weight·credit) / Σ weight; None ("n/a") when there is no citation to score: a memo
    whose writer dropped every citation has earned no score, least of all 10/10."""
    total = sum(i.weight for i in items)
    return None if total == 0 else round(10 * sum(i.weight * i.credit for i in items) / total, 2)


def summarize(documents: Iterable[Document], findings: list[Finding], fetched: Container[str] | None = None,
              with_corpus: bool = True) -> dict[str, object]:
    """`citation_truth_score` overall, `sections` (per section), `memos` (per file), verdict counts.
    A score with nothing to score is None (null in JSON, "n/a" in text and HTML). A link whose page
    was not fetched (an offline run, a URL the guard excluded) counts as "unchecked", never "ok"."""
    all_items: list[Item] = []
    memos: dict[str, float | None] = {}
    by_section: dict[str, list[Item]] = defaultdict(list)
    for doc in documents:
        items = items_for(doc, findings, fetched, with_corpus)
        memos[doc.path] = score(items)
        all_items += items
        for item in items:
            by_section[item.section or "(no section)"].append(item)
    verdicts: dict[str, int] = defaultdict(int)
    for item in all_items:
        verdicts[item.verdict] += 1
    return {
        "citation_truth_score": score(all_items),
        "citations": len(all_items),
        "verdicts": dict(sorted(verdicts.items())),
        "memos": memos,
        "sections": {name: {"score": score(items), "citations": len(items),
                            "problems": sum(1 for i in items if i.verdict not in ("ok", "unchecked"))}
                     for name, items in by_section.items()},
    }
