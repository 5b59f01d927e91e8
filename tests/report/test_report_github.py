"""`--format github`: one well-formed workflow command per finding, escaped so hostile text cannot break out."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from reportkit import BAD_MEMO, HOSTILE, audit_files, finding, hostile_findings, render_report, summary_of

from citecheck.cli import main
from citecheck.report import render
from citecheck.report.github import escape_data, escape_property

LINE_RE = re.compile(
    r"^::(?P<cmd>error|warning|notice) (?:file=(?P<file>[^,:\r\n]+),)?line=(?P<line>\d+),col=(?P<col>\d+),"
    r"title=(?P<title>[^,:\r\n]+)::(?P<message>[^\r\n]*)$"
)


def unescape(text: str) -> str:
    """What the Actions runner decodes (the inverse of the escaping)."""
    for code, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, char)
    return text


SUMMARY = "::notice title=citecheck::"  # the run's one summary line (unchecked links), not a finding


def parse(payload: str) -> list[re.Match[str]]:
    lines = [line for line in payload.splitlines() if not line.startswith(SUMMARY)]
    matches = [LINE_RE.match(line) for line in lines]
    bad = [line for line, m in zip(lines, matches) if m is None]
    assert not bad, f"not a workflow command: {bad[0]!r}"
    return [m for m in matches if m is not None]


def test_one_annotation_per_finding_with_file_line_col_title(tmp_path: Path) -> None:
    report = audit_files(tmp_path, {"memo.md": BAD_MEMO})
    commands = parse(render_report("github", report))
    assert len(commands) == len(report.findings) == 2
    for m, f in zip(commands, report.findings):
        assert m["cmd"] == "error"
        assert unescape(m["file"]) == f.path
        assert (int(m["line"]), int(m["col"])) == (f.line, f.column)
        assert unescape(m["title"]) == "U001 placeholder-domain"
        assert unescape(m["message"]) == f"{f.message} ({f.url})"


def test_severities_map_to_error_warning_notice() -> None:
    findings = hostile_findings()
    commands = parse(render("github", findings, summary_of(findings)))
    assert [m["cmd"] for m in commands] == ["error", "warning", "notice"]


def test_hostile_text_is_escaped_and_round_trips() -> None:
    f = hostile_findings()[0]
    payload = render("github", [f], summary_of([f]))
    assert payload.count("\n") == 1 and "\r" not in payload
    (m,) = parse(payload)
    assert unescape(m["file"]) == f.path
    assert unescape(m["message"]) == f"{HOSTILE} ({f.url})"


@pytest.mark.parametrize(("raw", "data", "prop"), [
    ("100%", "100%25", "100%25"),
    ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
    ("x:y,z", "x:y,z", "x%3Ay%2Cz"),
    ("%0A", "%250A", "%250A"),
])
def test_escaping_rules(raw: str, data: str, prop: str) -> None:
    assert escape_data(raw) == data
    assert escape_property(raw) == prop


def test_stdin_has_no_file_property() -> None:
    (m,) = parse(render("github", [finding(path="<stdin>", line=4, column=2)], summary_of([])))
    assert m["file"] is None and m["line"] == "4"


def test_auto_format_under_github_actions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    memo = tmp_path / "memo.md"
    memo.write_text(BAD_MEMO, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    args = ["audit", "memo.md", "--offline", "--select", "U001"]
    result = CliRunner(env={"GITHUB_ACTIONS": "true"}).invoke(main, args)
    assert result.exit_code == 1, result.output
    commands = parse(result.stdout)
    assert [m["file"] for m in commands] == ["memo.md", "memo.md"]
    plain = CliRunner(env={"GITHUB_ACTIONS": None}).invoke(main, args)
    assert not plain.stdout.startswith("::")


def test_offline_run_says_its_links_are_unchecked(tmp_path: Path) -> None:
    memo = tmp_path / "memo.md"
    memo.write_text("# M\n\nGrowth ([BLS](https://www.bls.gov/cpi/)).\n")
    from citecheck import audit

    report = audit([str(memo)])
    payload = render("github", report.findings, report.summary)
    assert report.summary["verdicts"] == {"unchecked": 1}
    assert payload == (f"{SUMMARY}1 link(s) and citation(s) unchecked: not fetched (offline run, excluded URL, or no "
                       "corpus to look IDs up in)\n")
