"""The reviewer-facing verdict of one link or citation, from its findings and its fetched page.

Seven verdicts, worst first. A finding's verdict is its rule's declaration (`Finding.verdict`, the
same the citation-truth score reads, so the report and the score never disagree on what a rule
means), folded onto the seven display verdicts; a link without such a finding is placed by its page
outcome.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from citecheck.models import Finding, Outcome, Page
from citecheck.models import Verdict as Meaning  # a finding's declared verdict


@dataclass(frozen=True)
class Verdict:
    key: str
    label: str
    rank: int  # higher is worse
    blurb: str


VERDICTS: tuple[Verdict, ...] = (
    Verdict("fabricated", "Fabricated", 6, "no real source: placeholder, invalid or likely-fabricated URL, "
            "or an unknown source ID"),
    Verdict("dead", "Dead", 5, "the page does not exist now (HTTP error, unreachable, parked or rotted)"),
    Verdict("soft-404", "Soft 404", 4, "answers 200 but serves an error or not-found page"),
    Verdict("unsupported", "Unsupported", 3, "the page exists but does not back the claim (wrong page or passage)"),
    Verdict("unverifiable", "Unverifiable", 2, "paywall, login wall, bot challenge or timeout: not proven dead"),
    Verdict("live", "Live", 1, "fetched and no problem found"),
    Verdict("unchecked", "Unchecked", 0, "not fetched or not judged: offline run, code sample, excluded by the "
            "guard or the config, or a status accepted with --accept"),
)
BY_KEY = {v.key: v for v in VERDICTS}

# Fine-grained verdicts of the findings, folded onto the display verdicts (the others imply none).
_FOLD = {Meaning.FABRICATED: "fabricated", Meaning.INVALID: "fabricated", Meaning.UNKNOWN_ID: "fabricated",
         Meaning.DEAD: "dead", Meaning.ROTTED: "dead", Meaning.SOFT_404: "soft-404",
         Meaning.TITLE_MISMATCH: "unsupported", Meaning.UNSUPPORTED: "unsupported",
         Meaning.UNVERIFIABLE: "unverifiable"}
_BY_OUTCOME = {Outcome.OK: "live", Outcome.DEAD: "dead", Outcome.UNVERIFIABLE: "unverifiable",
               Outcome.ERROR: "unverifiable", Outcome.EXCLUDED: "unchecked", Outcome.UNSUPPORTED: "unchecked"}


def finding_verdict(f: Finding) -> tuple[str, str] | None:
    """(display verdict, finer reason) a finding implies for its link, or None if it implies none."""
    shown = _FOLD.get(f.verdict)
    return (shown, f.verdict.value) if shown else None


def classify(findings: Iterable[Finding], page: Page | None) -> tuple[str, list[str]]:
    """The worst verdict among a link's findings (else its page outcome) and the reasons behind it."""
    worst, reasons = "", []
    for f in findings:
        hit = finding_verdict(f)
        if hit is None:
            continue
        shown = hit[0]
        if shown == "dead" and page is not None and page.outcome is Outcome.UNVERIFIABLE:
            shown = "unverifiable"  # a blocked fetch is never proof of death
        if f.name not in reasons:
            reasons.append(f.name)
        if not worst or BY_KEY[shown].rank > BY_KEY[worst].rank:
            worst = shown
    if worst:
        return worst, reasons
    if page is None:
        return "unchecked", reasons
    return _BY_OUTCOME.get(page.outcome, "unchecked"), reasons
