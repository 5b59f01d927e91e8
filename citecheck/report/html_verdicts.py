"""The reviewer-facing verdict of one link or citation, from its findings and its fetched page.

Seven verdicts, worst first. The rule → verdict table is `citecheck.score.VERDICTS` (so the
report and the citation-truth score never disagree on what a rule means), folded onto the seven
display verdicts; rules the score does not know are placed by their slug, then by page outcome.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from citecheck.models import Finding, Outcome, Page
from citecheck.score import VERDICTS as SCORE_VERDICTS


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
    Verdict("unchecked", "Unchecked", 0, "not fetched: offline run, code sample, or excluded by the guard"),
)
BY_KEY = {v.key: v for v in VERDICTS}

# Fine-grained verdicts of the score, folded onto the display verdicts.
_FOLD = {"fabricated": "fabricated", "invalid": "fabricated", "unknown-id": "fabricated", "dead": "dead",
         "rotted": "dead", "soft-404": "soft-404", "title-mismatch": "unsupported", "unsupported": "unsupported",
         "unverifiable": "unverifiable"}
# Slugs of rules the score table does not (yet) list: first match wins.
_BY_SLUG = (("fabricat", "fabricated"), ("placeholder", "fabricated"), ("hallucinat", "fabricated"),
            ("rotted", "dead"), ("http-error", "dead"), ("unreachable", "dead"), ("parked", "dead"),
            ("soft-404", "soft-404"), ("unsupported", "unsupported"), ("mismatch", "unsupported"),
            ("paywall", "unverifiable"), ("login", "unverifiable"), ("challenge", "unverifiable"))
_BY_OUTCOME = {Outcome.OK: "live", Outcome.DEAD: "dead", Outcome.UNVERIFIABLE: "unverifiable",
               Outcome.ERROR: "unverifiable", Outcome.EXCLUDED: "unchecked", Outcome.UNSUPPORTED: "unchecked"}


def finding_verdict(f: Finding) -> tuple[str, str] | None:
    """(display verdict, finer reason) a finding implies for its link, or None if it implies none."""
    known = SCORE_VERDICTS.get(f.rule)
    if f.rule == "M008":
        known = (1, 0.0, "unsupported")
    if known is not None:
        fine = known[2]
        if f.rule in ("H002", "H003") and f.severity.value != "error":  # as in score._worst
            fine = "unverifiable"
        shown = _FOLD.get(fine)
        return (shown, fine) if shown else None
    slug = f.name.lower()
    for needle, shown in _BY_SLUG:
        if needle in slug:
            return shown, f.name
    return None


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
