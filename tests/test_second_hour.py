"""The smaller surprises of a user's second hour (issue 25 Why 8), each pinned: whole rule summaries,
a severity label that never wraps, `firm: NAME` in the config as in front matter, every shipped firm
profile listed, and `citecheck prompt` on a memo saying what it needs."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from citecheck.cli import main
from citecheck.engine.registry import build_registry

ROOT = Path(__file__).resolve().parent.parent


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner(env={"GITHUB_ACTIONS": None}).invoke(main, list(args))
    return result.exit_code, result.output


def test_every_rule_summary_is_a_whole_sentence() -> None:
    for spec in build_registry().rules:
        assert spec.summary.endswith("."), (spec.id, spec.summary)
    assert "its home page or a generic landing page instead of the cited content." in \
        build_registry().get("H003").summary  # type: ignore[union-attr]
    table = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "its home page or a generic landing page" in table


def test_the_severity_label_never_wraps_in_the_html_report() -> None:
    from citecheck.report.html_style import STYLE

    rule = next(part for part in STYLE.split("}") if part.lstrip().startswith(".sev{"))
    assert "white-space:nowrap" in rule and "overflow-wrap:normal" in rule


def test_a_firm_profile_named_in_the_config_is_accepted_as_in_front_matter(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "memo.md").write_text("# Memo\n\n## Risks\nA weaker BRL could hurt sales in Brazil.\n")
    (tmp_path / ".citecheck.yaml").write_text("firm: brazilian-vc\ncompany: {name: Acme, geographies: [United States]}\n")
    code, out = _cli("audit", "--offline", "--select", "M001", "memo.md")
    assert code == 1 and "'BRL'" in out and "'Brazil'" in out, out
    (tmp_path / ".citecheck.yaml").write_text("firm: [brazilian-vc]\n")
    code, out = _cli("audit", "--offline", "--select", "M001", "memo.md")
    assert code == 2 and "firm must be a mapping or a name" in out


def test_rules_m001_lists_every_shipped_firm_profile() -> None:
    code, out = _cli("rules", "M001")
    assert code == 0 and "profiles: indonesian-vc, brazilian-vc" in out


@pytest.mark.parametrize("name, expected", [("memo.md", "a memo, not an outline"),
                                            ("sourced_corpus.json", "a JSON array is a corpus (--corpus)")])
def test_prompt_on_a_file_that_is_not_an_outline_says_what_it_needs(tmp_path: Path, name: str, expected: str) -> None:
    corpus = ROOT / "fixtures" / "memos" / "corpus.json"
    given = tmp_path / name
    given.write_text("# Memo\n\n---\n\nText [src-001].\n---\n" if name.endswith(".md") else corpus.read_text())
    code, out = _cli("prompt", str(given), "--section", "market", "--corpus", str(corpus))
    assert code == 2 and expected in out and "malformed YAML" not in out and out.strip().count("\n") == 0, out
