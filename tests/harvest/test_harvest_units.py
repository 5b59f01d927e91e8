"""Harvest building blocks on their own: gate policy, title check, IDs, canonical URL, summary,
excerpt clipping and page rules on one candidate."""
from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.config import build
from citecheck.engine.registry import build_registry
from citecheck.engine.run import Engine
from citecheck.engine.select import resolve
from citecheck.errors import CorpusError, UsageError
from citecheck.extract.corpus import build_corpus
from citecheck.harvest.corpus import canonical_of, summarize
from citecheck.harvest.gate import Policy, Reason, outcome_reason
from citecheck.harvest.ids import IdBook, format_id, read_high_water
from citecheck.harvest.maintext import clip
from citecheck.harvest.titlecheck import check_title, similarity
from citecheck.models import Gate, Link, LinkKind, Location, Outcome, Page, Severity


def reason(rule: str, name: str, severity: str, gate: Gate = Gate.SEVERITY) -> Reason:
    return Reason("page", rule, name, Severity(severity), "m", gate=gate)


@pytest.mark.parametrize("gate,rejected", [
    ("strict", {"H004", "H005", "H001", "fetch-unverifiable", "title-contradiction", "H003", "H007"}),
    ("default", {"H004", "H005", "H001", "fetch-unverifiable", "title-contradiction", "H003"}),
    ("lenient", {"H004", "H005", "H001", "H003"}),
])
def test_gate_levels(gate: str, rejected: set[str]) -> None:
    """Walls reject at every gate: a hard paywall (H004) and a login or consent wall (H005); a
    metered or registration paywall whose text is there does not."""
    reasons = [reason("H004", "paywall", "warning", Gate.WALL), reason("H005", "login-wall", "warning", Gate.WALL),
               Reason("page", "H004", "paywall", Severity.INFO, "metered paywall", "access=metered; text 'x'", Gate.ACCESS),
               reason("H007", "title-mismatch", "warning"), reason("H001", "http-error", "error", Gate.GONE),
               reason("H003", "soft-404", "error", Gate.GONE), Reason("fetch", "", "fetch-unverifiable", Severity.ERROR, "m"),
               Reason("title", "", "title-contradiction", Severity.ERROR, "m"), reason("H010", "non-html", "info")]
    policy = Policy(gate)
    assert {r.rule or r.name for r in reasons if policy.rejects(r)} == rejected
    with pytest.raises(UsageError):
        Policy("loose")


def test_outcome_reasons() -> None:
    assert outcome_reason(Page("u", Outcome.OK, 200)) is None
    dead = outcome_reason(Page("u", Outcome.DEAD, 404))
    assert dead is not None and dead.severity is Severity.ERROR and "HTTP 404" in dead.message
    pdf = outcome_reason(Page("u", Outcome.UNSUPPORTED, 200))
    assert pdf is not None and pdf.severity is Severity.WARNING


@pytest.mark.parametrize("search,page,ok", [
    ("Road freight transport statistics", "Road freight transport statistics - Statistics Explained", True),
    ("Parasite scores upset at SAG awards", "'Parasite' scores historic upset at SAG awards | Reuters", True),
    ("Mobility Package II cabotage rules explained", "Ten cookie recipes for the holidays", False),
    ("", "Anything at all", True),  # nothing to contradict
    ("Annual report 2023", "", True),
])
def test_title_check(search: str, page: str, ok: bool) -> None:
    verdict = check_title(search, "", Page("u", Outcome.OK, 200, title=page))
    assert verdict.ok is ok
    if not ok:
        assert repr(page) in verdict.evidence and "similarity" in verdict.evidence


def test_title_check_forgiven_by_the_snippet() -> None:
    text = "Quarterly figures: spot rates on the Germany to Poland lanes rose four per cent in the third quarter."
    page = Page("u", Outcome.OK, 200, title="Home | Example Freight Exchange", text_sample=text)
    snippet = "spot rates on the Germany to Poland lanes rose four per cent in the third quarter"
    assert check_title("DE-PL rate barometer", snippet, page).ok
    assert not check_title("DE-PL rate barometer", "", page).ok
    assert similarity("A - B", "A") == 100


def test_ids_format_assign_and_high_water(tmp_path: Path) -> None:
    assert [format_id(n) for n in (7, 999, 1000)] == ["src-007", "src-999", "src-1000"]
    corpus = build_corpus("c.json", [{"id": "src-004", "url": "https://a.org/x"}, {"id": "src-009", "url": "https://b.org/"}],
                          [1, 2])
    (tmp_path / "c.json.ids").write_text('{"version": 1, "high_water": 12}')  # a version 1 sidecar: the mark only
    book = IdBook.from_corpus(corpus, tmp_path / "c.json")
    assert book.assign("https://www.a.org/x/?utm_source=t") == "src-004"  # same dedupe key
    assert book.assign("https://c.org/new") == "src-013"  # above the high-water mark, not above max id
    assert book.assign("https://c.org/new#frag") == "src-013" and book.high_water == 13
    assert read_high_water(tmp_path / "nothing.json") == 0
    with pytest.raises(CorpusError, match="is not src-NNN"):
        IdBook.from_corpus(build_corpus("c.json", [{"id": "src-7", "url": "https://a.org"}], [3]), None)
    (tmp_path / "bad.json.ids").write_text("{")
    with pytest.raises(CorpusError, match="unreadable ID registry"):
        read_high_water(tmp_path / "bad.json")


@pytest.mark.parametrize("final,declared,expected", [
    ("https://a.org/news/1?print=1", "/news/1", "https://a.org/news/1"),
    ("https://a.org/news/1", "https://other.org/news/1", "https://a.org/news/1"),  # another site: ignored
    ("https://a.org/news/1", "https://a.org/", "https://a.org/news/1"),  # home-page canonical bug: ignored
    ("https://a.org/", "https://www.a.org/", "https://www.a.org/"),
    ("https://a.org/x", "", "https://a.org/x"),
    ("https://a.org/x", "javascript:void(0)", "https://a.org/x"),
])
def test_canonical(final: str, declared: str, expected: str) -> None:
    assert canonical_of(Page(final, Outcome.OK, 200, final_url=final, canonical=declared)) == expected


def test_summary_prefers_the_page_description_and_never_invents() -> None:
    page = Page("u", Outcome.OK, 200, meta={"og:description": "The official road freight statistics for 2023."})
    assert summarize(page, "Body text.") == "The official road freight statistics for 2023."
    text = "First sentence here. Second one follows! " + "Third sentence is long. " * 20
    summary = summarize(Page("u", Outcome.OK, 200), text)
    assert summary.startswith("First sentence here. Second one follows!") and len(summary) <= 400
    assert summarize(Page("u", Outcome.OK, 200), "") == ""


def test_clip_cuts_at_a_word() -> None:
    text = "word " * 3000
    clipped = clip(text, 10_000)
    assert len(clipped) <= 10_000 and clipped.endswith("word…")
    assert clip("short", 10) == "short"


async def test_page_rules_on_one_candidate_report_at_its_link() -> None:
    """Harvest judges each candidate's page on the page stage: findings at the candidate's own
    place, with the configured severity, computed afresh every time (no memo to go stale)."""
    from citecheck.stage.pages import PageStage

    page = Page("https://a.org/x", Outcome.DEAD, 404, final_url="https://a.org/x", fetched_at="2025-01-01T00:00:00Z")
    for severity in ("error", "warning"):
        stage = PageStage(Engine(resolve(build_registry(), build({"select": ["H001"], "rules": {"H001": severity}}))))
        found = await stage.judge(Link("https://a.org/x", Location("u.md", 9, 4), LinkKind.CORPUS, "X", section="b"),
                                  page)
        assert [(f.rule, f.path, f.line, f.column, f.section, f.severity.value) for f in found] == \
            [("H001", "u.md", 9, 4, "b", severity)]


@pytest.mark.parametrize("gate,rejects", [("strict", True), ("default", True), ("lenient", False)])
def test_same_page_for_any_path_is_rejected_as_unverifiable(gate: str, rejects: bool) -> None:
    """H003's 'same page for any path' warning is unverifiable: out of the corpus unless lenient."""
    from citecheck.checks.soft_404 import SHELL_MESSAGE

    shell = Reason("page", "H003", "soft-404", Severity.WARNING, SHELL_MESSAGE, "a random … path answered 200",
                   Gate.UNVERIFIABLE)  # what the shell hit declares
    other = Reason("page", "H003", "soft-404", Severity.WARNING, "soft 404: …", "title",
                   Gate.GONE)  # a configured severity
    assert Policy(gate).rejects(shell) is rejects
    assert Policy(gate).rejects(other) is (gate == "strict")
