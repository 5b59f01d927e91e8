"""Citation truth: M008 on planted claims (precision/recall floors), and the score gate on an
incident-like memo versus the clean memo."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from citecheck.cli import main

ROOT = Path(__file__).resolve().parent.parent
SUPPORT = ROOT / "fixtures" / "support"


def _audit(*args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(main, ["audit", "--offline", "--format", "json", *args])
    return result.exit_code, json.loads(result.stdout)


def test_unsupported_citations_precision_and_recall() -> None:
    truth = json.loads((SUPPORT / "planted_claims.truth.json").read_text())
    _, report = _audit(str(SUPPORT / "planted_claims.md"), "--corpus", str(SUPPORT / "corpus.json"), "--select", "M008")
    flagged = {f["line"] for f in report["findings"]}
    bad, good = set(truth["unsupported_lines"]), set(truth["supported_lines"])
    precision = len(flagged & bad) / len(flagged)
    recall = len(flagged & bad) / len(bad)
    assert not flagged & good, f"supported claims flagged: {sorted(flagged & good)}"
    assert precision == 1.0 and recall >= 0.85, (precision, recall)  # measured: 1.00 and 0.875 (7/8)


def _incident_like(tmp: Path) -> Path:
    links = "\n".join(f"- Figure {i} ([source](https://example.com/report-{i}))." for i in range(65))
    memo = tmp / "incident_like.md"
    memo.write_text(
        "---\nfirm: {name: Nusantara Ventures, terms: [Indonesia, rupiah]}\ncompany: {name: Lumen, geographies: [US]}\n"
        "---\n# Lumen memo\n\n## Market\n\n" + links + "\n\n## Risks\n\nA weaker rupiah hurts; Indonesia is far.\n")
    return memo


def test_incident_like_memo_scores_below_8_and_fails_the_gate(tmp_path: Path) -> None:
    code, report = _audit(str(_incident_like(tmp_path)), "--min-score", "8.0")
    assert report["summary"]["citation_truth_score"] < 8.0
    assert report["summary"]["verdicts"]["fabricated"] == 65
    assert code == 1
    code, report = _audit(str(_incident_like(tmp_path)), "--min-score", "8.0", "--ignore", "U001,M001")
    assert (code, report["summary"]["citation_truth_score"]) == (0, 10.0)  # without those rules nothing is wrong


def test_clean_memo_scores_above_8_and_passes_the_gate() -> None:
    code, report = _audit(str(ROOT / "fixtures" / "memos" / "ok_clean_memo.md"), "--corpus",
                          str(ROOT / "fixtures" / "memos" / "corpus.json"), "--min-score", "8.0")
    assert report["summary"]["citation_truth_score"] > 8.0
    assert code == 0


def test_score_below_min_score_alone_fails_the_run(tmp_path: Path) -> None:
    memo = tmp_path / "m.md"
    memo.write_text("# M\n\nClaim one <needs-source claim=\"one\"/>. Claim two [src-001].\n")
    code, report = _audit(str(memo), "--min-score", "8.0")
    assert report["summary"]["errors"] == 0 and report["summary"]["citation_truth_score"] < 8.0
    assert code == 1
    assert _audit(str(memo), "--min-score", "1.0")[0] == 0


def test_a_memo_without_citations_scores_na_and_fails_min_score(tmp_path: Path) -> None:
    memo = tmp_path / "uncited.md"
    memo.write_text("# Lumen memo\n\nRevenue doubled and the market is huge.\n")
    corpus = ROOT / "fixtures" / "memos" / "corpus.json"
    result = CliRunner().invoke(main, ["audit", "--offline", "--format", "json", str(memo), "--corpus", str(corpus),
                                       "--min-score", "8"])
    report = json.loads(result.stdout)
    assert report["summary"]["citation_truth_score"] is None and report["summary"]["memos"] == {str(memo): None}
    assert result.exit_code == 1 and "no citations to score" in result.stderr
    empty = tmp_path / "empty.md"
    empty.write_text("")
    assert _audit(str(empty), "--min-score", "0")[0] == 1
    assert _audit(str(empty))[0] == 0  # without --min-score nothing is wrong with an empty memo


def test_na_is_said_in_text_and_html(tmp_path: Path) -> None:
    memo = tmp_path / "uncited.md"
    memo.write_text("# M\n\nNo sources here.\n")
    text = CliRunner().invoke(main, ["audit", "--offline", "--format", "text", str(memo)])
    assert "citation-truth score n/a (no citations)" in text.stdout
    page = CliRunner().invoke(main, ["audit", "--offline", "--format", "html", str(memo)]).stdout
    assert 'data-key="citation_truth_score">n/a</p>' in page and "Citation-truth score n/a: no citations" in page


def test_offline_links_are_unchecked_in_every_format(tmp_path: Path) -> None:
    memo = tmp_path / "memo.md"
    memo.write_text("# M\n\nGrowth ([BLS](https://www.bls.gov/cpi/)) and https://www.census.gov/data.html.\n")
    code, report = _audit(str(memo))
    assert code == 0 and report["summary"]["verdicts"] == {"unchecked": 2}  # never "ok" without a fetch
    text = CliRunner().invoke(main, ["audit", "--offline", "--format", "text", str(memo)]).stdout
    assert "2 unchecked (not fetched)" in text
    sarif = json.loads(CliRunner().invoke(main, ["audit", "--offline", "--format", "sarif", str(memo)]).stdout)
    assert sarif["runs"][0]["properties"]["verdicts"] == {"unchecked": 2}
    page = CliRunner().invoke(main, ["audit", "--offline", "--format", "html", str(memo)]).stdout
    assert '<b data-verdict="unchecked">2</b>' in page and "Unchecked" in page and "not-checked" not in page


def test_a_fetched_link_without_findings_is_ok_and_an_unfetched_one_unchecked() -> None:
    from citecheck.extract import extract_document
    from citecheck.score import summarize

    doc = extract_document("m.md", "# M\n\n[a](https://a.example.org/x) [b](https://b.example.org/y) [src-001]\n")
    fetched = summarize([doc], [], fetched={"https://a.example.org/x"}, with_corpus=True)
    assert fetched["verdicts"] == {"ok": 2, "unchecked": 1}
    assert summarize([doc], [], fetched=set(), with_corpus=False)["verdicts"] == {"unchecked": 3}
