"""The library is the product: `citecheck.audit()` and `citecheck audit` give the same findings and
share their caches (a result the command stored serves the library's next call, and the other way
round; both read one pack cache); `citecheck baseline` records what `citecheck.audit()` finds;
`citecheck.write.write()` writes and reports what `citecheck write` does."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import citecheck
from citecheck import Caches, Config
from citecheck.cli import main
from citecheck.extract import load_corpus
from citecheck.write import write


def _memo(tmp_path: Path, base: str, extra: str = "") -> Path:
    memo = tmp_path / "memo.md"
    memo.write_text(f"# Memo\n\nThe harbor grew 45% ([report]({base}/article)).\n\n"
                    f"A study ([study]({base}/missing)) and a soft one ({base}/soft404).\n{extra}", encoding="utf-8")
    return memo


def _cli(memo: Path, cache: Path, *extra: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["audit", str(memo), "--allow", "127.0.0.1", "--format", "json", "--cache",
                                       str(cache), "--timeout", "5", *extra])
    assert result.exit_code == 1, result.output
    payload: dict[str, Any] = json.loads(result.stdout)
    return payload


def _config(cache: Path) -> Config:
    """What the command's `--allow 127.0.0.1 --cache FILE --timeout 5` make of the default configuration
    (the stored result is keyed on the whole configuration: a timeout of 5 is not one of 5.0)."""
    config = citecheck.load_config()
    return config.with_fetch(allow=(*config.fetch.allow, "127.0.0.1"), cache=str(cache), timeout=5.0)


def _findings(report: citecheck.Report) -> list[dict[str, Any]]:
    return [f.to_dict() for f in report.findings]


def test_a_result_the_command_stored_serves_the_library(served: Any, tmp_path: Path) -> None:
    memo, cache = _memo(tmp_path, served.base), tmp_path / "c.sqlite"
    cold = _cli(memo, cache)
    assert "from_result_cache" not in cold["summary"] and {f["rule"] for f in cold["findings"]} >= {"H001", "H003"}
    requests = sum(served.hits.values())
    report = citecheck.audit([str(memo)], _config(cache), online=True)
    assert report.replayed is not None and report.summary["from_result_cache"] is True
    assert _findings(report) == cold["findings"] and sum(served.hits.values()) == requests  # not even a fetch


def test_a_result_the_library_stored_serves_the_command(served: Any, tmp_path: Path) -> None:
    memo, cache = _memo(tmp_path, served.base), tmp_path / "c.sqlite"
    report = citecheck.audit([str(memo)], _config(cache), online=True)
    assert report.replayed is None and {f.rule for f in report.findings} >= {"H001", "H003"}
    requests = sum(served.hits.values())
    warm = _cli(memo, cache)
    assert warm["summary"]["from_result_cache"] is True and sum(served.hits.values()) == requests
    assert warm["findings"] == _findings(report)
    strip = {"duration_s", "from_result_cache"}
    assert {k: v for k, v in warm["summary"].items() if k not in strip} == \
        {k: v for k, v in report.summary.items() if k not in strip} | {"from_cache": 3, "fetched_now": 0}


def test_without_a_result_cache_the_library_audits_afresh_with_the_same_findings(served: Any, tmp_path: Path) -> None:
    memo, cache = _memo(tmp_path, served.base), tmp_path / "c.sqlite"
    cold = _cli(memo, cache)
    report = citecheck.audit([str(memo)], _config(cache), online=True, caches=Caches())
    assert report.replayed is None and report.summary["from_cache"] == 3  # the fact cache still answers
    assert _findings(report) == cold["findings"]


@pytest.mark.parametrize("name", ["bad_incident_memo.md", "ok_clean_memo.md"])
def test_offline_the_library_and_the_command_agree(name: str) -> None:
    memo = Path(__file__).resolve().parent.parent / "fixtures" / "memos" / name
    result = CliRunner().invoke(main, ["audit", str(memo), "--offline", "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    report = citecheck.audit([str(memo)])
    assert _findings(report) == json.loads(result.stdout)["findings"]


def test_both_read_one_pack_cache(tmp_path: Path) -> None:
    memo = tmp_path / "memo.md"
    memo.write_text("# Memo\n\nSee https://www.yourdomain.com/blog.\n", encoding="utf-8")
    CliRunner().invoke(main, ["audit", str(memo), "--offline"])
    packs = Caches.default(citecheck.load_config(), results=False).packs
    assert packs is not None and packs.path.is_file() and packs.docs  # what the command parsed and kept
    before = packs.path.read_bytes()
    citecheck.audit([str(memo)])
    assert packs.path.read_bytes() == before  # the library found every pack there: nothing new to keep


def test_a_baseline_holds_the_library_audits_findings_and_silences_them(tmp_path: Path) -> None:
    """Memo and corpus findings alike: before, every finding in a corpus file came back as new."""
    memo, baseline = tmp_path / "memo.md", tmp_path / "baseline.json"
    memo.write_text("# Memo\n\nSee https://www.yourdomain.com/blog and [x](http://localhost:8080/a).\n", encoding="utf-8")
    corpus = Path(__file__).resolve().parent.parent / "fixtures" / "write" / "corpus.json"
    inputs = [str(memo), str(corpus)]
    result = CliRunner().invoke(main, ["baseline", *inputs, "--offline", "-o", str(baseline)])
    assert result.exit_code == 0, result.output
    entries = json.loads(baseline.read_text())["findings"]
    report = citecheck.audit(inputs)
    assert [(e["rule"], e["path"], e["line"], e["url"]) for e in entries] == [
        (f.rule, f.path, f.line, f.url) for f in report.findings]
    assert {e["path"] for e in entries} == set(inputs)  # findings in both files
    assert citecheck.audit(inputs, baseline=str(baseline)).findings == []
    again = CliRunner().invoke(main, ["audit", *inputs, "--offline", "--baseline", str(baseline), "--format", "json"])
    assert again.exit_code == 0 and json.loads(again.stdout)["findings"] == []


def test_write_in_the_library_is_what_the_command_writes_and_reports(tmp_path: Path) -> None:
    corpus = Path(__file__).resolve().parent.parent / "fixtures" / "write" / "corpus.json"
    draft = "# Market\n\nRevenue rose 8% [src-001]. Share 28% [src-404]. See https://evil.example.com/x.\n"
    (tmp_path / "draft.md").write_text(draft, encoding="utf-8")
    packs = Path(os.environ["XDG_CACHE_HOME"]) / "citecheck" / "packs.json"
    assert not packs.exists()
    config = citecheck.load_config().with_overrides(ignore=("M008",))
    written = write(draft, load_corpus(str(corpus)), path=str(tmp_path / "draft.md"), config=config)
    assert packs.is_file()  # the library keeps the parsed packs where the command does
    result = CliRunner().invoke(main, ["write", str(tmp_path / "draft.md"), "--corpus", str(corpus), "-o",
                                       str(tmp_path / "memo.md"), "--ignore", "M008", "--format", "json"])
    assert result.exit_code == 1, result.output
    assert written.text == (tmp_path / "memo.md").read_text(encoding="utf-8")
    payload = json.loads(result.stdout)
    summary = written.report(str(tmp_path / "memo.md")).summary
    assert [f.to_dict() for f in written.findings] == payload["findings"]
    assert {k: v for k, v in summary.items() if k != "duration_s"} == \
        {k: v for k, v in payload["summary"].items() if k != "duration_s"}


def test_a_corpus_given_by_path_or_loaded_gives_the_same_findings() -> None:
    root = Path(__file__).resolve().parent.parent / "fixtures" / "memos"
    memo, corpus = str(root / "bad_incident_memo.md"), root / "corpus.json"
    by_path = citecheck.audit([memo], corpus=corpus)
    assert by_path.corpus is not None and by_path.corpus.path == str(corpus)
    assert {"M006", "M007"} <= {f.rule for f in by_path.findings}  # the corpus rules ran
    assert _findings(by_path) == _findings(citecheck.audit([memo], corpus=str(corpus))) == \
        _findings(citecheck.audit([memo], corpus=load_corpus(str(corpus))))
