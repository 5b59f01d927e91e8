"""`citecheck harvest --report`: the HTML review page lists kept and rejected candidates per section."""
from __future__ import annotations

import json
from pathlib import Path

from harvestkit import cli, project
from harvestsite import threaded_site


def test_report_shows_kept_and_rejected_with_reasons(tmp_path: Path) -> None:
    report = tmp_path / "harvest.html"
    with threaded_site() as site:
        result = cli(*project(tmp_path, site), "-q", "--report", str(report))
    assert result.exit_code == 0, result.output
    page = report.read_text()
    corpus = json.loads((tmp_path / "corpus.json").read_text())
    assert f"{len(corpus)} sources kept and" in page
    for entry in corpus:
        assert entry["id"] in page
    assert "removed-report" in page and "H001" in page  # a rejected candidate with the rule that failed it
    assert "<script>alert" not in page and "Content-Security-Policy" in page
