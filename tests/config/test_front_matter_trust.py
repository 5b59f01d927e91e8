"""Configuration outranks content (issue 26, item 2): a memo's or draft's front matter may add firm terms,
never remove or replace the configured profiles, and `write` keeps check-configuring keys out of the memo."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from citecheck.cli import main
from citecheck.write.frontmatter import CHECK_KEYS, drop_check_keys

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ("firm: {name: Nusantara Ventures, terms: [Indonesia, rupiah, OJK, Jakarta]}\n"
          "company: {name: Acme Robotics, geographies: [United States]}\n")
LEAKS = "# Acme Robotics\n\n## Risks\nA weaker rupiah, OJK rules, Jakarta hiring and Indonesia demand.\n"


@pytest.mark.parametrize("front", [
    "firm: {name: Other, terms: [Zzzz]}",  # the probe's own form
    "firm: {name: Other, terms: [], related: {United States: [Indonesia, rupiah, OJK, Jakarta]}}",
    "company: {name: Acme Robotics, geographies: [Indonesia, rupiah, OJK, Jakarta]}",
    "firm: {profile: indonesian-vc, name: Acme Robotics}",
])
def test_front_matter_cannot_remove_configured_leaks(tmp_path: Path, front: str) -> None:
    """Issue 26, failure 2: `firm: {name: Other, terms: [Zzzz]}` turned 4 firm-context leaks into 0."""
    (tmp_path / "cfg.yaml").write_text(CONFIG)
    (tmp_path / "memo.md").write_text(f"---\n{front}\n---\n{LEAKS}")
    result = CliRunner().invoke(main, ["audit", "--offline", str(tmp_path / "memo.md"), "--config",
                                       str(tmp_path / "cfg.yaml"), "--select", "M001", "--format", "json"])
    assert result.exit_code == 1, result.output
    assert len(json.loads(result.stdout)["findings"]) == 4


def test_front_matter_adds_firm_terms(tmp_path: Path) -> None:
    (tmp_path / "cfg.yaml").write_text(CONFIG)
    (tmp_path / "memo.md").write_text(f"---\nfirm: {{terms: [Surabaya]}}\n---\n{LEAKS}Surabaya too.\n")
    result = CliRunner().invoke(main, ["audit", "--offline", str(tmp_path / "memo.md"), "--config",
                                       str(tmp_path / "cfg.yaml"), "--select", "M001", "--format", "json"])
    assert len(json.loads(result.stdout)["findings"]) == 5


def test_write_keeps_configuring_keys_out_of_the_memo_and_still_checks_the_draft(tmp_path: Path) -> None:
    """Issue 26, failure 2: `write` kept a draft's front matter, so a draft could pass itself."""
    (tmp_path / "cfg.yaml").write_text(CONFIG)
    (tmp_path / "draft.md").write_text(f"---\ntitle: Acme\nfirm: {{name: Other, terms: [Zzzz]}}\n"
                                       f"company:\n  name: Acme Robotics\n  geographies: [Indonesia]\n---\n{LEAKS}")
    memo = tmp_path / "memo.md"
    corpus = ROOT / "fixtures" / "memos" / "corpus.json"
    result = CliRunner().invoke(main, ["write", str(tmp_path / "draft.md"), "--corpus", str(corpus), "-o", str(memo),
                                       "--config", str(tmp_path / "cfg.yaml"), "--format", "json"])
    assert result.exit_code == 1, result.output
    payload = json.loads(result.stdout)
    assert [f["line"] for f in payload["findings"] if f["rule"] == "M001"] == [11, 11, 11, 11]  # the draft's lines
    assert payload["summary"]["front_matter_removed"] == ["firm", "company"]
    text = memo.read_text()
    assert yaml.safe_load(text.split("---\n")[1]) == {"title": "Acme"}
    assert "Zzzz" not in text and "geographies" not in text


@pytest.mark.parametrize("front", [
    "firm: x\ntitle: T\n", "title: T\nfirm:\n  name: x\n  terms:\n  - a\n  - b\ncompany: C\n",
    "{firm: x, title: T,\n company: {name: A}}\n", "base: &b {name: Z}\nfirm:\n  <<: *b\ntitle: T\n",
    "title: T\nnote: |\n  a\n\n  b\nfirm: x\n", "'firm': x\ntitle: T\n", "title: T\nfirm:\n- a\n- b\n",
])
def test_drop_check_keys_keeps_the_rest_and_the_line_count(front: str) -> None:
    text = f"---\n{front}---\n# Memo\n\nBody.\n"
    out, dropped = drop_check_keys(text)
    assert set(dropped) <= set(CHECK_KEYS) and dropped
    assert out.count("\n") == text.count("\n") and out.endswith("---\n# Memo\n\nBody.\n")
    data = yaml.safe_load(out.split("---\n")[1])
    assert not set(data) & set(CHECK_KEYS)
    assert {k: v for k, v in yaml.safe_load(front).items() if k not in CHECK_KEYS} == data


def test_check_keys_list_every_front_matter_key_a_rule_reads() -> None:
    read = set()
    for module in (ROOT / "citecheck" / "checks").glob("*.py"):
        read |= set(re.findall(r"(?<!\w)front(?:_matter)?\.get\(\s*[\"'](\w+)[\"']", module.read_text(encoding="utf-8")))
    assert read and read <= set(CHECK_KEYS)
