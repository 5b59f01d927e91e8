"""`citecheck write` on the command line: exit codes, atomic output, report formats, bad input."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from citecheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
CORPUS = str(ROOT / "fixtures" / "write" / "corpus.json")
DIRTY = "# Market\n\nRevenue rose 8% [src-001]. Share 28% [src-404]. See https://evil.example.com/x.\n"
CLEAN = "# Market\n\nRevenue rose 8% [src-001, src-002].\n"


def run(tmp_path: Path, draft: str, *args: str, stdin: str | None = None) -> tuple[Result, Path]:
    src, memo = tmp_path / "draft.md", tmp_path / "memo.md"
    src.write_text(draft, encoding="utf-8")
    target = "-" if stdin is not None else str(src)
    result = CliRunner().invoke(main, ["write", target, "--corpus", CORPUS, "-o", str(memo), "--ignore", "M008",
                                       *args], input=stdin)
    return result, memo


def test_violations_exit_1_and_the_memo_is_still_written(tmp_path: Path) -> None:
    result, memo = run(tmp_path, DIRTY, "--format", "json")
    assert result.exit_code == 1
    payload = json.loads(result.output)
    assert sorted(f["rule"] for f in payload["findings"] if f["severity"] == "error") == ["M006", "M009"]
    assert payload["summary"]["mode"] == "strict" and payload["summary"]["footnotes"] == 1
    assert payload["summary"]["removed_urls"] == 1 and payload["summary"]["unknown_ids"] == 1
    text = memo.read_text(encoding="utf-8")
    assert "evil.example.com" not in text and "[^1]" in text
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], "no temp file left behind"


def test_clean_draft_exits_0_and_a_rerun_changes_nothing(tmp_path: Path) -> None:
    result, memo = run(tmp_path, CLEAN, "--format", "text")
    assert result.exit_code == 0, result.output
    first = memo.read_bytes()
    again = CliRunner().invoke(main, ["write", str(memo), "--corpus", CORPUS, "-o", str(tmp_path / "again.md"),
                                      "--ignore", "M008"])
    assert again.exit_code == 0, again.output
    assert (tmp_path / "again.md").read_bytes() == first
    # the memo as its own output is refused (issue 26, item 8: an output never overwrites an input)
    same = CliRunner().invoke(main, ["write", str(memo), "--corpus", CORPUS, "-o", str(memo)])
    assert same.exit_code == 2 and "refusing to overwrite" in same.stderr and memo.read_bytes() == first


def test_hybrid_keeps_corpus_urls_as_footnotes(tmp_path: Path) -> None:
    draft = "Rules [here](https://transport.ec.europa.eu/transport-modes/road/mobility-package-i_en).\n"
    strict, memo = run(tmp_path, draft)
    assert strict.exit_code == 1 and "url-instead-of-id" in memo.read_text(encoding="utf-8")
    hybrid, memo = run(tmp_path, draft, "--hybrid")
    assert hybrid.exit_code == 0, hybrid.output
    assert memo.read_text(encoding="utf-8").startswith("Rules here[^1].\n\n<!-- citecheck-citations")


def test_report_goes_to_a_file_when_asked(tmp_path: Path) -> None:
    report = tmp_path / "report.sarif"
    result, _ = run(tmp_path, DIRTY, "--format", "sarif", "--report", str(report))
    assert result.exit_code == 1 and result.output == ""
    sarif = json.loads(report.read_text(encoding="utf-8"))
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} >= {"M006", "M009"}


def test_stdin_draft(tmp_path: Path) -> None:
    result, memo = run(tmp_path, "", "--format", "json", stdin=CLEAN)
    assert result.exit_code == 0
    assert memo.read_text(encoding="utf-8").startswith("# Market\n\nRevenue rose 8% [^1][^2].")


@pytest.mark.parametrize(("args", "message"), [
    (["write", "missing.md", "--corpus", CORPUS, "-o", "m.md"], "missing.md: cannot read"),
    (["write", "{draft}", "--corpus", "{bad_corpus}", "-o", "m.md"], "invalid JSON"),
    (["write", "{draft}", "--corpus", CORPUS, "-o", "m.md", "--llm"], "give a DRAFT file, or --llm"),
    (["write", "{draft}", "--corpus", CORPUS, "-o", "m.md", "--select", "Z999"], "no rule matches 'Z999'"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
                                          message: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "draft.md").write_text(CLEAN, encoding="utf-8")
    (tmp_path / "bad.json").write_text("[{", encoding="utf-8")
    argv = [a.format(draft="draft.md", bad_corpus="bad.json") for a in args]
    result = CliRunner().invoke(main, argv)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "m.md").exists()


def test_m009_is_documented_in_citecheck_rules() -> None:
    listing = CliRunner().invoke(main, ["rules"])
    assert any(line.startswith("M009  draft-url") for line in listing.output.splitlines())
    explained = CliRunner().invoke(main, ["rules", "M009"])
    assert explained.exit_code == 0
    assert ("M009 draft-url  [stage: memo, default severity: error, verdict: uncorpused, gate: severity, "
            "write: contract]") in explained.output
    assert "allow_corpus_urls" in explained.output and "Failing example" in explained.output


def test_stdin_must_be_utf8(tmp_path: Path) -> None:
    memo = tmp_path / "memo.md"
    result = CliRunner().invoke(main, ["write", "-", "--corpus", CORPUS, "-o", str(memo)], input=b"A \xff [src-001]\n")
    assert result.exit_code == 2
    assert result.stderr.strip() == "citecheck: error: <stdin>: invalid UTF-8 (byte 0xff at offset 2)"
    assert not memo.exists()


def test_unwritable_output_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    result, _ = run(tmp_path, CLEAN, "-o", str(blocker / "memo.md"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"citecheck: error: {blocker / 'memo.md'}: cannot write:")
    assert "Traceback" not in result.stderr
