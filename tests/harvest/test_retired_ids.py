"""A retired corpus ID (a real source a re-harvest found dead, its ID kept in `<corpus>.ids`) is
reported as retired, with its date and evidence, by `audit --corpus` and in `write`'s
`<needs-source/>` marker, never as an invented ID (issue 25 item 5)."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from citecheck.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "memos"
GONE = "https://www.freight-stats.org/reports/2023-tonnage"
RETIRED = {"id": "src-007", "url": GONE, "canonical_url": GONE, "title": "Tonnage 2023",
           "retired_at": "2026-11-30T08:00:00Z", "last_verified": "2026-10-01T08:00:00Z", "rule": "H001",
           "reason": "HTTP 404: the page does not exist", "evidence": "HTTP 404"}


def _corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "sourced_corpus.json"
    corpus.write_text((FIXTURES / "corpus.json").read_text())
    ids = {"version": 2, "high_water": 7, "ids": {"src-007": {"url": GONE, "keys": []}}, "retired": [RETIRED]}
    (tmp_path / "sourced_corpus.json.ids").write_text(json.dumps(ids))
    return corpus


def test_audit_reports_a_retired_id_as_retired_and_an_unknown_one_as_invented(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    (tmp_path / "memo.md").write_text("# Memo\n\nTonnage fell 3% in 2023 [src-007].\n\nMargins doubled [src-042].\n")
    result = CliRunner().invoke(main, ["audit", "--offline", "--format", "json", "--select", "M006",
                                       "--corpus", str(corpus), str(tmp_path / "memo.md")])
    assert result.exit_code == 1, result.output
    by_line = {f["line"]: f for f in json.loads(result.stdout)["findings"]}
    assert "was retired from the corpus (2026-11-30, H001: HTTP 404" in by_line[3]["message"]
    assert "invented" not in by_line[3]["message"] and by_line[3]["evidence"].startswith("retired 2026-11-30")
    assert "an invented source ID" in by_line[5]["message"]
    assert (by_line[3]["verdict"], by_line[5]["verdict"]) == ("dead", "unknown-id")


def test_write_says_so_in_the_needs_source_marker_without_the_dead_url(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    (tmp_path / "draft.md").write_text("# Memo\n\nTonnage fell 3% in 2023 [src-007].\n\nMargins doubled [src-042].\n")
    out = tmp_path / "memo.md"
    result = CliRunner().invoke(main, ["write", str(tmp_path / "draft.md"), "--corpus", str(corpus), "-o", str(out)])
    assert result.exit_code == 1, result.output  # the draft cited sources it may not cite
    memo = out.read_text() if out.exists() else result.stdout
    assert '<needs-source claim="Tonnage fell 3% in 2023" retired="src-007 retired 2026-11-30 (H001)"/>' in memo, memo
    assert '<needs-source claim="Margins doubled"/>' in memo
    assert "freight-stats.org" not in memo  # the retired source's URL is not in the corpus
