"""A discovered configuration may only add to or tighten the checks (issue 26: the model under audit
never steers the gate). A `.citecheck.yaml` found by walking up — possibly written beside the memos
by whoever wrote them — cannot ignore, deselect, turn off or lower a rule, set its options, loosen
`fail-on`, re-enable inline directives, exclude files or URLs, accept statuses, or replace the
user's firm profile; each is refused with one warning line naming it. `--config FILE` (or
`$CITECHECK_CONFIG`, or the user's config directory) is honoured in full."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citecheck.cli import main
from citecheck.config import load_config

MEMO = "# Memo\n\nThe harbor grew ([report](https://example.com/report)).\n"  # U001 placeholder-domain: an error


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("CITECHECK_CONFIG", raising=False)
    (tmp_path / "memos").mkdir()
    (tmp_path / "memos" / "memo.md").write_text(MEMO)
    monkeypatch.chdir(tmp_path / "memos")
    return tmp_path / "memos"


def audit(*extra: str) -> tuple[int, set[str], list[str]]:
    result = CliRunner().invoke(main, ["audit", ".", "--offline", "--format", "json", *extra])
    rules = {f["rule"] for f in json.loads(result.stdout)["findings"]} if result.stdout else set()
    return result.exit_code, rules, [line for line in result.stderr.splitlines() if " ignored: " in line]


@pytest.mark.parametrize("planted,refused", [
    ("ignore: [U001]\n", "ignore"),
    ("ignore: [placeholder-domain]\n", "ignore"),
    ("select: [M001]\n", "select"),
    ("rules:\n  U001: off\n", "rules.U001.enabled"),
    ("rules:\n  placeholder-domain: {enabled: false}\n", "rules.placeholder-domain.enabled"),
    ("rules:\n  U001: info\n", "rules.U001.severity"),
    ("fail-on: error\nrules:\n  U001: {severity: warning}\n", "rules.U001.severity"),
    ("exclude: ['*.md']\n", "exclude"),
    ("include: ['*.txt']\n", "include"),
])
def test_a_planted_config_cannot_switch_the_gate_off(tree: Path, planted: str, refused: str) -> None:
    code, rules, _ = audit()
    assert code == 1 and "U001" in rules
    (tree / ".citecheck.yaml").write_text(planted)
    code, rules, warnings = audit()
    assert code == 1 and "U001" in rules
    assert len(warnings) == 1 and refused in warnings[0] and ".citecheck.yaml" in warnings[0]
    code, rules, warnings = audit("--config", ".citecheck.yaml")  # the user's own choice: honoured
    assert code != 1  # exit 0, or 2 when the explicit exclude left no file to audit
    assert warnings == []


def test_what_may_tighten_is_honoured_silently(tree: Path) -> None:
    (tree / ".citecheck.yaml").write_text("extends: strict\nfail-on: warning\nrules:\n  U001: error\n  M003: warning\n"
                                          "inline-directives: false\nfetch:\n  timeout: 5\n  max-redirects: 3\n")
    config = load_config()
    assert config.ignored == ()
    assert (config.fail_on, config.inline_directives, config.fetch.timeout) == ("warning", False, 5)
    assert config.rules["U001"]["severity"] == "error" and config.rules["M003"]["severity"] == "warning"


def test_rule_options_accept_and_the_user_profile_are_refused(tree: Path) -> None:
    xdg = tree.parent / "xdg" / "citecheck"
    xdg.mkdir(parents=True)
    (xdg / "config.yaml").write_text("fail-on: warning\ninline-directives: false\nignore: [M008]\n"
                                     "firm: {name: Acme, terms: [Project Falcon]}\n")
    (tree / ".citecheck.yaml").write_text(
        "fail-on: error\ninline-directives: true\nfirm: {name: Other, terms: [Zzzz]}\n"
        "rules:\n  H001: {ignore_statuses: [404]}\nfetch:\n  accept: ['404']\n  sibling-probe: false\n  max-age: 365\n"
        "harvest: {title_threshold: 0}\n")
    config = load_config()
    assert set(config.ignored) == {"fail-on", "inline-directives", "firm", "rules.H001.options", "fetch.accept",
                                   "fetch.sibling-probe", "fetch.max-age", "harvest"}
    assert (config.fail_on, config.inline_directives, dict(config.firm)["name"]) == ("warning", False, "Acme")
    assert config.rules["H001"]["options"] == {} and config.fetch.accept == () and config.fetch.sibling_probe
    assert config.fetch.max_age_days == 30 and config.harvest == {}
    assert config.ignore == ()  # the discovered file said nothing to widen here: the user's ignore is not merged in
    explicit = load_config(str(tree / ".citecheck.yaml"))
    assert explicit.ignored == () and explicit.fetch.accept == ("404",) and explicit.harvest == {"title_threshold": 0}
    (tree / ".citecheck.yaml").write_text("exclude-urls: ['example\\.com']\n")
    assert load_config().exclude_urls == () and load_config().ignored == ("exclude-urls",)


def test_the_user_config_may_still_ignore_beside_a_discovered_one(tree: Path) -> None:
    xdg = tree.parent / "xdg" / "citecheck"
    xdg.mkdir(parents=True)
    (xdg / "config.yaml").write_text("ignore: [U001]\n")
    (tree / ".citecheck.yaml").write_text("ignore: [U001]\n")  # the same as the trusted setting: nothing widened
    config = load_config()
    assert config.ignored == () and config.ignore == ("U001",)
