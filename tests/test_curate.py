"""`citecheck curate`: seven runs with overlapping URLs → one deduped master list, each URL fetched once."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from click.testing import CliRunner
from test_harvest_site import Page, threaded_site

from citecheck.cli import main


def _article(title: str) -> Page:
    return Page(200, f"<html><head><title>{title}</title></head><body><article>"
                     + "".join(f"<p>{title}: freight volumes, carriers and rates in detail, part {n}.</p>"
                               for n in range(30)) + "</article></body></html>")


def test_seven_runs_dedupe_and_fetch_each_url_once(tmp_path: Path) -> None:
    pages = {f"/reports/report-{i}": _article(f"Freight report number {i}") for i in range(10)}
    with threaded_site(pages) as site:
        base = f"http://{site.host}"
        runs = []
        for r in range(7):  # run r cites reports r..r+3, with tracking parameters and a dead link
            run = tmp_path / f"run-{r}"
            run.mkdir()
            cites = [f"- [Report {i}]({base}/reports/report-{i}?utm_source=run{r})" for i in range(r, r + 4)]
            (run / "memo.md").write_text("# Memo\n\n" + "\n".join(cites) + f"\n- [Gone]({base}/reports/gone)\n"
                                         "- [Fake](https://example.com/fake-report)\n")
            runs.append(str(run))
        (tmp_path / "cfg.yaml").write_text("ignore: [U004, C005]\nfetch: {allow: [127.0.0.1], no-cache: true}\n")
        out = tmp_path / "master.json"
        common = ["-o", str(out), "--config", str(tmp_path / "cfg.yaml")]
        result = CliRunner().invoke(main, ["curate", *runs, *common, "--report", str(tmp_path / "m.md"),
                                           "--csv", str(tmp_path / "m.csv")])
        fetched = Counter(p.split("?")[0] for p in site.log if "citecheck-probe" not in p and p != "/robots.txt")
        with_corpus = CliRunner().invoke(main, ["curate", *runs, *common, "--corpus-out", str(tmp_path / "corpus.json")])
    assert result.exit_code == 0, result.output
    assert set(fetched.values()) == {1} and len(fetched) == 11, fetched  # each distinct URL fetched once
    assert with_corpus.exit_code == 0, with_corpus.output
    master = json.loads(out.read_text())
    urls = master["urls"]
    assert len(urls) == 10 + 1 + 1  # ten reports, the dead link, the placeholder
    by_path = {u["url"].split("?")[0].rsplit("/", 1)[-1]: u for u in urls}
    assert by_path["report-3"]["occurrences"] == 4 and len(by_path["report-3"]["runs"]) == 4
    assert by_path["gone"]["verdict"] == "dead" and by_path["gone"]["occurrences"] == 7
    assert by_path["fake-report"]["verdict"] == "fabricated"
    assert urls[0]["occurrences"] == 7  # sorted by recurrence
    corpus = json.loads((tmp_path / "corpus.json").read_text())
    assert sorted(e["id"] for e in corpus) == [f"src-{i:03d}" for i in range(1, 11)]
    assert "| 7 | 7 |" in (tmp_path / "m.md").read_text()
