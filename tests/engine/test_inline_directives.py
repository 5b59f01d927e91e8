"""Inline directives are the user's, not the model's (issue 26, item 1): `disable=all` and rule groups are
refused (E002), `--no-inline-config` / `inline-directives: false` read none, and every report format says
how many findings each directive suppressed."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from lxml import etree

from citecheck.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
# a placeholder domain, a fabricated domain and an unknown ID: three errors a directive tried to hide
HOSTILE = ("# Memo\n\n{directive}\nSee https://example.com/x and https://fabricated-trucking-stats.com/report "
           "[src-999].\n")
QUOTED = '# Memo\n\n<!-- citecheck: disable=U001 reason="quoting the incident report" -->\nSee https://example.com/x.\n'


def _audit(tmp_path: Path, text: str, *args: str) -> Result:
    memo = tmp_path / "memo.md"
    memo.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["audit", "--offline", str(memo), *args])


@pytest.mark.parametrize("directive", [
    '<!-- citecheck: disable=all reason="reviewed" -->', '<!-- citecheck: disable-file reason="reviewed" -->',
    '<!-- citecheck: disable-file=all reason="reviewed" -->', '<!-- citecheck: disable=U,M,C,H,E reason="x" -->',
    '<!-- citecheck: disable-file=M00,U00 reason="reviewed" -->', '<!-- citecheck: disable=U001,all reason="x" -->',
])
def test_all_or_a_group_of_rules_is_refused_and_suppresses_nothing(tmp_path: Path, directive: str) -> None:
    """Issue 26, failure 1: `disable=all reason="reviewed"` gave 10.0/10 and passed --min-score 8."""
    result = _audit(tmp_path, HOSTILE.format(directive=directive), "--format", "json", "--min-score", "8",
                    "--corpus", str(FIXTURES / "memos" / "corpus.json"))
    assert result.exit_code == 1, result.output
    payload = json.loads(result.stdout)
    rules = {f["rule"] for f in payload["findings"]}
    assert {"E002", "U001", "M006"} <= rules and payload["summary"]["suppressed"] == 0
    assert "suppressions" not in payload["summary"]
    refusal = next(f for f in payload["findings"] if f["rule"] == "E002")
    assert refusal["severity"] == "error" and "refused" in refusal["message"]


def test_a_named_rule_with_a_reason_still_suppresses_and_the_summary_names_the_directive(tmp_path: Path) -> None:
    result = _audit(tmp_path, QUOTED, "--format", "json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)["summary"]
    assert summary["suppressed"] == 1
    assert summary["suppressions"] == [{"path": str(tmp_path / "memo.md"), "line": 3, "directive": "disable=U001",
                                        "reason": "quoting the incident report", "until": "", "suppressed": 1}]


def test_no_inline_config_reads_no_directive(tmp_path: Path) -> None:
    result = _audit(tmp_path, QUOTED, "--format", "json", "--no-inline-config")
    assert result.exit_code == 1, result.output
    payload = json.loads(result.stdout)
    assert [f["rule"] for f in payload["findings"]] == ["U001"]
    assert payload["summary"]["suppressed"] == 0
    assert payload["summary"]["directives_ignored"] == {str(tmp_path / "memo.md"): 1}


def test_config_inline_directives_false_reads_no_directive(tmp_path: Path) -> None:
    config = tmp_path / "cfg.yaml"
    config.write_text("inline-directives: false\n", encoding="utf-8")
    result = _audit(tmp_path, QUOTED, "--format", "json", "--config", str(config))
    assert result.exit_code == 1 and json.loads(result.stdout)["summary"]["suppressed"] == 0


def test_config_inline_directives_must_be_a_boolean(tmp_path: Path) -> None:
    config = tmp_path / "cfg.yaml"
    config.write_text("inline-directives: maybe\n", encoding="utf-8")
    result = _audit(tmp_path, QUOTED, "--config", str(config))
    assert result.exit_code == 2 and "inline-directives must be true or false" in result.stderr


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "junit", "html"])
def test_every_format_reports_what_each_directive_suppressed(tmp_path: Path, fmt: str) -> None:
    result = _audit(tmp_path, QUOTED, "--format", fmt)
    assert result.exit_code == 0, result.output
    out = result.stdout
    if fmt == "text":
        assert "suppressed by" in out and "memo.md:3 disable=U001" in out and "1 finding(s)" in out
    elif fmt in ("json", "sarif"):
        payload = json.loads(out)
        summary = payload["summary"] if fmt == "json" else payload["runs"][0]["properties"]
        assert summary["suppressions"][0]["directive"] == "disable=U001"
        assert summary["suppressions"][0]["suppressed"] == 1
    elif fmt == "github":
        assert "::notice file=" in out and "disable=U001 suppressed 1 finding(s)" in out
    elif fmt == "junit":
        props = etree.fromstring(out.encode("utf-8")).findall("testsuite/properties/property")
        assert any("disable=U001" in (p.get("value") or "") and "1 finding(s)" in (p.get("value") or "")
                   for p in props)
    else:
        assert 'data-suppressed-by="' in out and "disable=U001" in out


@pytest.mark.parametrize("fmt", ["text", "github", "html"])
def test_every_people_format_says_directives_were_not_read(tmp_path: Path, fmt: str) -> None:
    result = _audit(tmp_path, QUOTED, "--format", fmt, "--no-inline-config")
    assert result.exit_code == 1
    assert "not read (--no-inline-config)" in result.stdout
