"""The smaller surprises of a user's second hour (issue 25 Why 8), each pinned: whole rule summaries,
a severity label that never wraps, `firm: NAME` in the config as in front matter, every shipped firm
profile listed, and `citecheck prompt` on a memo saying what it needs."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from citecheck.cli import main
from citecheck.engine.registry import build_registry

ROOT = Path(__file__).resolve().parents[2]


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


def test_the_html_score_card_reconciles_its_counts_with_the_chart(tmp_path: Path) -> None:
    """The chart counts links and source IDs; the score also counts claims as items of their own. The
    score card says how many of each, and they add up to the chart's total and the score's items."""
    import json
    import re

    corpus = json.loads((ROOT / "fixtures" / "memos" / "corpus.json").read_text())[:2]
    (tmp_path / "c.json").write_text(json.dumps(corpus))
    (tmp_path / "m.md").write_text(f"# Memo\n\n## Market\n\nRevenue grew 973% in 1999 [{corpus[0]['id']}, "
                                   f"{corpus[1]['id']}]. See ([page](https://www.acme-ir.com/x)).\n")
    _code, page = _cli("audit", "--offline", "--format", "html", "--corpus", str(tmp_path / "c.json"),
                      str(tmp_path / "m.md"))
    payload = json.loads(_cli("audit", "--offline", "--format", "json", "--corpus", str(tmp_path / "c.json"),
                              str(tmp_path / "m.md"))[1])
    chart_total = int(re.search(r"<h3>(\d+) links and citations by verdict</h3>", page).group(1))  # type: ignore[union-attr]
    cites, claims = map(int, re.search(r"data-score-units>(\d+) links and source IDs.*? and (\d+) claim",  # type: ignore[union-attr]
                                       page).groups())
    verdicts = payload["summary"]["verdicts"]
    assert claims == verdicts.get("unsupported", 0) + verdicts.get("needs-source", 0) == 1
    assert cites == chart_total == 3 and cites + claims == payload["summary"]["citations"]
