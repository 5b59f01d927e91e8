"""`--format text`: grouped by file, one line per finding, a summary line last; safe on hostile text."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportkit import BAD_MEMO, CLEAN_MEMO, audit_files, finding, hostile_findings, render_report, summary_of

from citecheck.report import ReportContext, render

SUPPRESSING_MEMO = BAD_MEMO + "\n<!-- citecheck: disable=U001 reason=\"quoted\" -->\nhttps://example.org/quoted\n"


def test_grouped_by_file_with_summary_last(tmp_path: Path) -> None:
    report = audit_files(tmp_path, {"a.md": BAD_MEMO, "b.md": BAD_MEMO, "clean.md": CLEAN_MEMO})
    lines = render_report("text", report).splitlines()
    a, b = str(tmp_path / "a.md"), str(tmp_path / "b.md")
    assert lines.count(a) == 1 and lines.count(b) == 1
    assert str(tmp_path / "clean.md") not in lines
    block_a = lines[lines.index(a) + 1: lines.index(a) + 3]
    expected = [[f"{f.line}:{f.column}", "error", "U001"] for f in report.findings if f.path == a]
    assert len(expected) == 2 and [line.split()[:3] for line in block_a] == expected
    assert "https://example.com/acme-report" in block_a[0] and "(placeholder-domain)" in block_a[0]
    assert lines[-1].startswith("4 finding(s): 4 error(s), 0 warning(s), 0 info in 3 file(s)")
    assert "\x1b[" not in "\n".join(lines)


def test_files_are_grouped_even_if_findings_arrive_interleaved() -> None:
    findings = [finding(path="a.md", line=1), finding(path="b.md", line=1), finding(path="a.md", line=2)]
    lines = render("text", findings, summary_of(findings)).splitlines()
    assert lines.count("a.md") == 1
    assert lines.index("b.md") > lines.index("a.md") + 2


def test_clean_run_says_so(tmp_path: Path) -> None:
    out = render_report("text", audit_files(tmp_path, {"clean.md": CLEAN_MEMO}))
    assert out.splitlines()[0].startswith("No findings: 0 error(s)")


def test_suppressed_findings_listed_only_on_request(tmp_path: Path) -> None:
    report = audit_files(tmp_path, {"memo.md": SUPPRESSING_MEMO})
    shown = render_report("text", report, suppressed=True)
    assert "suppressed by inline directives:" in shown and "example.org" in shown
    hidden = render_report("text", report)
    assert "example.org" not in hidden and "; 1 suppressed" in hidden


def test_markup_and_terminal_escapes_in_messages_are_inert() -> None:
    findings = hostile_findings()
    out = render("text", findings, summary_of(findings), ReportContext(color=True))
    assert "[/]" not in out
    assert "<b>&amp;" in out
    plain = render("text", findings, summary_of(findings))
    assert "\x1b" not in plain and "\x07" not in plain and "\r" not in plain
    assert "\\x1b[31mred" in plain and "\\r\\n::error::injected" in plain
    assert len(plain.splitlines()) == 8  # 2 file headers, 3 one-line findings, 2 blanks, the summary


def test_colour_only_when_asked() -> None:
    findings = [finding()]
    assert "\x1b[" in render("text", findings, summary_of(findings), ReportContext(color=True))
    assert "\x1b[" not in render("text", findings, summary_of(findings), ReportContext(color=False))


# -- memo text is printed as written ------------------------------------------------------------------------------

MARKUP_PIECES = ["[", "]", "\\", "[/]", "[bold]", "[dim]x[/]", "[a]", "[#f00]", "[@click]", "[/bold]", "a", " ",
                 "é", ":warning:", "[[", "]]", "\\[b]", "\\\\[b]", "[b=1]", "x\\", "[link=https://x]y[/link]"]


@given(st.lists(st.one_of(st.sampled_from(MARKUP_PIECES), st.text(max_size=3)), max_size=12).map("".join),
       st.booleans())
@settings(max_examples=300, deadline=None)
def test_memo_text_is_never_read_as_markup(text: str, color: bool) -> None:
    """A message or URL is printed as written (control characters made visible), never
    as rich markup or emoji codes, with colour or without."""
    from citecheck.report.text import shown

    f = finding(message=text, url=f"https://x/{text}")
    out = render("text", [f], summary_of([f]), ReportContext(color=color))
    plain = re.sub("\x1b\\[[0-9;]*m", "", out) if color else out
    assert plain.split("\n")[1] == f"       1:1  error   U001 {shown(text)} {shown(f.url)}  (placeholder-domain)"


def test_no_color_is_respected(monkeypatch: pytest.MonkeyPatch) -> None:
    """With colour asked for (a terminal), NO_COLOR drops the colours and keeps bold and dim."""
    findings = [finding()]
    monkeypatch.setenv("NO_COLOR", "1")
    out = render("text", findings, summary_of(findings), ReportContext(color=True))
    assert "\x1b[1m" in out and "\x1b[1;31m" not in out and "\x1b[31m" not in out
    monkeypatch.delenv("NO_COLOR")
    assert "\x1b[1;31m" in render("text", findings, summary_of(findings), ReportContext(color=True))


def test_force_color_does_not_colour_a_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    findings = [finding()]
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    assert "\x1b[" not in render("text", findings, summary_of(findings), ReportContext(color=False))


def test_the_report_is_returned_inside_a_notebook_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under Jupyter rich would display what it prints instead of writing it: `render` returns it."""
    import rich.console

    monkeypatch.setattr(rich.console, "_is_jupyter", lambda: True)
    findings = [finding()]
    for color in (False, True):
        assert "U001" in render("text", findings, summary_of(findings), ReportContext(color=color))
