"""Pack data is checked against its pack's JSON Schema when loaded: a wrong type or an unknown key
is one line naming the file and the line (exit 2) in every command, never a silently disabled rule."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from citecheck.engine.packs import builtin_dir, load_packs
from citecheck.engine.packschema import schema_for, validate_pack
from citecheck.engine.registry import build_registry
from citecheck.errors import PackError

BUILTIN = sorted(builtin_dir().glob("*.yaml"))
CORPUS = [{"id": "src-001", "url": "https://a.gov/x", "canonical_url": "https://a.gov/x", "title": "t",
           "fetched_at": "2024-01-01T00:00:00Z", "body_excerpt": "b", "summary": "s", "retrieval_query": "q",
           "retrieval_tool": "t"}]
WRONG_TYPE = "pack: soft404\nkind: data\ndata:\n  # a string where a list belongs\n  titles: 'page not found'\n"
UNKNOWN_KEY = "pack: soft404\ndata:\n  titles: ['^gone$']\n  phrasez:\n    - nothing here\n"
BAD_REGEX = "pack: login\ndata:\n  titles:\n    - ok\n    - '(unclosed'\n"


def cli(*args: str) -> tuple[int, str]:
    from citecheck.cli import main

    result = CliRunner(env={"GITHUB_ACTIONS": None}).invoke(main, list(args))
    return result.exit_code, result.stderr


@pytest.mark.parametrize("file", BUILTIN, ids=lambda f: f.name)
def test_every_builtin_pack_matches_its_schema(file: Path) -> None:
    text = file.read_text(encoding="utf-8")
    doc = yaml.safe_load(text)
    assert schema_for("rules" if doc.get("kind") == "rules" else doc["pack"]) is not None, "every pack has a schema"
    validate_pack(file, text, doc, yaml.SafeLoader)


def test_every_pack_a_rule_reads_has_a_schema_and_every_schema_a_reader() -> None:
    read = {rule.pack for rule in build_registry().rules if rule.pack}
    shipped = {p.name[len("pack-"):-len(".schema.json")] for p in (Path(__file__).parents[2] / "citecheck" /
                                                                     "schemas").glob("pack-*.schema.json")}
    assert shipped == read | {"rules"}


def test_schemas_are_valid_draft_2020_12() -> None:
    from jsonschema import Draft202012Validator

    for name in ("rules", *{rule.pack for rule in build_registry().rules if rule.pack}):
        schema = schema_for(name)
        assert schema is not None
        Draft202012Validator.check_schema(schema)
        json.dumps(schema)


@pytest.mark.parametrize(("text", "expected"), [
    (WRONG_TYPE, "x.yaml:5: data.titles: expected a list, got a string 'page not found'"),
    (UNKNOWN_KEY, "x.yaml:4: data: unknown key 'phrasez' (known: generic_link_text, phrases, sink_paths, "
                  "stopwords, titles)"),
    (BAD_REGEX, "x.yaml:5: data.titles[1]: '(unclosed' is not a valid regular expression: missing ), "
                "unterminated subpattern at position 0"),
    ("pack: soft404\ndataz:\n  titles: [a]\n", "x.yaml:2: the pack: unknown key 'dataz' (known: data, description, "
                                                 "kind, pack)"),
    ("pack: soft404\nkind: data\n", "x.yaml:1: the pack: missing key 'data'"),
    ("pack: placeholder\ndata:\n  url_patterns:\n    - {label: x, pattern: 'a+', flags: i}\n",
     "x.yaml:4: data.url_patterns[0]: unknown key 'flags' (known: label, pattern)"),
    ("pack: mine\nkind: rules\nrules:\n  - id: M901\n    name: no-hype\n    type: existence\n    message: m\n"
     "    tokenz: [x]\n", "x.yaml:8: rules[0]: unknown key 'tokenz'"),
    ("pack: mine\nkind: rules\nrules:\n  - id: M902\n    name: caps\n    type: occurrence\n    message: m\n"
     "    max: lots\n", "x.yaml:8: rules[0].max: expected an integer, got a string 'lots'"),
])
def test_a_malformed_user_pack_is_one_line_naming_file_and_line(tmp_path: Path, text: str, expected: str) -> None:
    (tmp_path / "x.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(PackError) as err:
        load_packs([tmp_path])
    assert str(err.value).startswith(f"{tmp_path / 'x.yaml'}:") and "\n" not in str(err.value)
    assert expected in str(err.value)


def test_a_pack_no_rule_reads_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text("pack: soft_404\ndata:\n  titles: ['^gone$']\n", encoding="utf-8")
    with pytest.raises(PackError, match=r"x\.yaml:1: no rule reads a pack named 'soft_404'"):
        build_registry([str(tmp_path)])


def test_a_valid_user_pack_extends_the_builtin_one(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text("pack: soft404\ndata:\n  titles: ['^this page left$']\n", encoding="utf-8")
    titles = build_registry([str(tmp_path)]).packs.data["soft404"]["titles"]
    assert titles[-1] == "^this page left$" and len(titles) > 20


def test_builtin_stopwords_are_all_strings() -> None:
    # YAML 1.1 reads a bare `on` / `no` as a boolean: H003 and H007 never saw those stopwords
    assert all(isinstance(w, str) for w in load_packs().data["soft404"]["stopwords"])
    assert {"on", "no"} <= set(load_packs().data["soft404"]["stopwords"])


@pytest.mark.parametrize("text", [WRONG_TYPE, UNKNOWN_KEY], ids=["wrong-type", "unknown-key"])
@pytest.mark.parametrize("command", ["audit", "baseline", "curate", "write", "rules"])
def test_every_command_refuses_a_malformed_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str,
                                                text: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "packs").mkdir()
    (tmp_path / "packs" / "x.yaml").write_text(text, encoding="utf-8")
    (tmp_path / ".citecheck.yaml").write_text("packs: [packs]\n", encoding="utf-8")
    (tmp_path / "d.md").write_text("Revenue grew [src-001].\n", encoding="utf-8")
    (tmp_path / "corpus.json").write_text(json.dumps(CORPUS), encoding="utf-8")
    args = {"audit": ["audit", "--offline", "d.md"], "baseline": ["baseline", "--offline", "d.md"],
            "curate": ["curate", "--offline", "d.md", "-o", "out.json"],
            "write": ["write", "d.md", "--corpus", "corpus.json", "-o", "out.md"],
            "rules": ["rules", "--rules", "packs"]}[command]
    code, stderr = cli(*args)
    line = "5" if text == WRONG_TYPE else "4"
    assert code == 2
    assert stderr.count("\n") == 1 and f"x.yaml:{line}: data" in stderr, stderr
    assert not (tmp_path / "out.md").exists() and not (tmp_path / "out.json").exists()


def test_a_valid_rules_pack_defines_working_rules(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text(
        "pack: house-style\nkind: rules\nrules:\n"
        "  - {id: M901, name: no-hype, type: existence, message: 'hype word {}', tokens: [revolutionary], severity: info}\n"
        "  - {id: U901, name: no-intranet, type: domain-list, message: 'intranet host {}', domains: [corp.local], code: true}\n",
        encoding="utf-8")
    registry = build_registry([str(tmp_path)])
    assert {r.id for r in registry.rules} >= {"M901", "U901"}
    (tmp_path / "d.md").write_text("A revolutionary plan, see https://wiki.corp.local/x.\n", encoding="utf-8")
    from citecheck.cli import main

    result = CliRunner().invoke(main, ["audit", "--offline", "--format", "json", "--rules", str(tmp_path),
                                       str(tmp_path / "d.md")])
    found = {f["rule"]: f["severity"] for f in json.loads(result.stdout)["findings"]}
    assert found["M901"] == "info" and found["U901"] == "warning"
