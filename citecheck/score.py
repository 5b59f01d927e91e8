"""Citation-truth score (0-10) per memo and per section.

Each citation (a cite-able link, a `[src-NNN]` ID, a Pandoc `[@key]`, a scholarly reference that is
not a link, a `<needs-source/>` marker, an unsupported claim) is an item with a weight and a credit; the score is 10 × Σ(weight·credit) / Σ weight, and
"n/a" (None) when there is no citation at all.
Fabricated and placeholder URLs weigh heaviest. What a finding means is its rule's declared verdict
(`Finding.verdict`); `WEIGHTS` says what each verdict costs. Verdicts that are not about a citation
(advisory, memo, corpus, input: firm-context leaks, watermark names, redirects) do not enter the score;
they fail the run on their own. A claim verdict (unsupported, needs-source) is an item of its own.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass

from citecheck.models import Document, Finding, LinkKind, Verdict

# verdict → (weight, credit) of the item it sits on
WEIGHTS: Mapping[Verdict, tuple[float, float]] = {
    Verdict.FABRICATED: (3, 0.0), Verdict.INVALID: (2, 0.0), Verdict.DEAD: (2, 0.0), Verdict.SOFT_404: (2, 0.0),
    Verdict.UNKNOWN_ID: (2, 0.0), Verdict.UNVERIFIABLE: (1, 0.5), Verdict.ROTTED: (1, 0.5),
    Verdict.TITLE_MISMATCH: (1, 0.5), Verdict.UNCORPUSED: (1, 0.5), Verdict.SCHEMELESS: (1, 0.75),
    Verdict.UNSUPPORTED: (1, 0.0), Verdict.NEEDS_SOURCE: (1, 0.0),
}
CLAIMS = frozenset({Verdict.UNSUPPORTED, Verdict.NEEDS_SOURCE})  # items of their own, not marks on a link
NOT_SCORED = frozenset({Verdict.ADVISORY, Verdict.MEMO, Verdict.CORPUS, Verdict.INPUT})
_NOT_CITATIONS = {LinkKind.IMAGE}


@dataclass(frozen=True)
class WrittenReference:
    """A scholarly reference that is not a link: where it is, and whether a registry answered for it."""

    line: int
    column: int
    section: str
    checked: bool


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
        if f.verdict in CLAIMS or f.verdict not in WEIGHTS:
            continue
        weight, credit = WEIGHTS[f.verdict]
        if credit < best[1] or (credit == best[1] and weight > best[0]):
            best = (weight, credit, f.verdict.value)
    return best


def items_for(doc: Document, findings: list[Finding], fetched: Container[str] | None = None,
              with_corpus: bool = True, with_bibliography: bool = False, accepted: Container[str] = (),
              written: Iterable[WrittenReference] = ()) -> list[Item]:
    """The document's citations as scored items. `fetched` holds the URLs whose pages were checked
    (None: treat every link as checked); `with_corpus` says whether source IDs were looked up,
    `with_bibliography` whether Pandoc citation keys were (a bracketed `[@key]` is an item);
    `written`: its scholarly references that are not links (an identifier written as text, a
    reference-list item found by search), each an item like a link."""
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
        if v == "unchecked" and link.url in accepted:
            v = "accepted"  # answered with a status the team accepts (--accept): not verified, not "ok"
        out.append(Item(link.section, w, c, v))
    for marker in doc.markers:
        if marker.kind in ("source-id", "citation") and not marker.in_code:
            looked_up = with_corpus if marker.kind == "source-id" else with_bibliography
            w, c, v = _worst(at.get((marker.location.line, marker.location.column), []), looked_up)
            out.append(Item(marker.section, w, c, v))
    for ref in written:
        w, c, v = _worst(at.get((ref.line, ref.column), []), ref.checked)
        out.append(Item(ref.section, w, c, v))
    sections = _section_lookup(doc)
    for f in findings:
        if f.path == doc.path and f.verdict in CLAIMS:
            w, c = WEIGHTS[f.verdict]
            out.append(Item(f.section or sections(f.line), w, c, f.verdict.value))
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
              with_corpus: bool = True, with_bibliography: Container[str] = (),
              accepted: Container[str] = (),
              written: Mapping[str, Iterable[WrittenReference]] | None = None) -> dict[str, object]:
    """`citation_truth_score` overall, `sections` (per section), `memos` (per file), verdict counts.
    A score with nothing to score is None (null in JSON, "n/a" in text and HTML). A link whose page
    was not fetched (an offline run, a URL the guard excluded) counts as "unchecked", never "ok"."""
    all_items: list[Item] = []
    memos: dict[str, float | None] = {}
    by_section: dict[str, list[Item]] = defaultdict(list)
    for doc in documents:
        items = items_for(doc, findings, fetched, with_corpus, doc.path in with_bibliography, accepted,
                          (written or {}).get(doc.path, ()))
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
                            "problems": sum(1 for i in items if i.verdict not in ("ok", "unchecked", "accepted"))}
                     for name, items in by_section.items()},
    }
