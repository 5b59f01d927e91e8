"""Hostile files: bounded work, one line naming the file, exit 2, nothing half-written.

YAML alias bombs ("billion laughs") in front matter, config, packs and outlines; JSON corpora with
a 5,000-digit integer, 100k levels of nesting or a lone surrogate; non-finite config numbers; and
files in a declared non-UTF-8 encoding (a byte-order mark), which are read, not refused. Each
case runs through the real CLI in every command and output format that reads the file.
"""
from __future__ import annotations

import json
import sys
import tracemalloc
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from citecheck._util.safeload import MAX_YAML_NODES, LimitError, load_json, load_yaml
from citecheck.cli import main
from citecheck.errors import ConfigError, CorpusError, InputError, PackError
from citecheck.report import FORMATS as REPORT_FORMATS

FORMATS = tuple(f for f in REPORT_FORMATS if f != "html")  # html: tests/test_report_html*.py
SOURCE = {"id": "src-001", "url": "https://good.org/a", "canonical_url": "https://good.org/a", "title": "Good",
          "fetched_at": "2026-01-01T00:00:00Z", "body_excerpt": "x", "summary": "s", "retrieval_query": "q",
          "retrieval_tool": "t"}


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """`a: &a [x × width]`, then each level `width` aliases of the one before: width**levels nodes."""
    lines = [f"l0: &l0 [{', '.join(['x'] * width)}]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * width)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


HOSTILE_CORPORA = {
    "5000-digit integer": "[" + json.dumps({**SOURCE, "status": 1})[:-1] + ', "n": ' + "9" * 5000 + "}]",
    "100k nesting": '[{"id": "src-001", "x": ' + "[" * 100_000 + "]" * 100_000 + "}]",
    "lone surrogate": "[" + json.dumps({**SOURCE, "title": "\ud800"}) + "]",
    "wrapped, 100k nesting": '{"sources": ' + "[" * 100_000 + "]" * 100_000 + "}",
}


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner(env={"GITHUB_ACTIONS": None}).invoke(main, list(args), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback is a failure of the test, not an exit code
    if result.exit_code == 2:
        assert result.stdout == "", result.stdout  # nothing half-printed either
        return 2, result.stderr
    return result.exit_code, result.stdout


def one_line_error(stderr: str, path: Path) -> None:
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("citecheck: error: ") and str(path) in lines[0], stderr


# -- the loaders themselves ----------------------------------------------------------------------

def test_an_alias_bomb_is_refused_before_it_is_expanded() -> None:
    tracemalloc.start()
    with pytest.raises(LimitError, match="expand past"):
        load_yaml(alias_bomb(levels=12))  # 9**12 nodes once expanded: 2.8e11
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 2_000_000, peak


def test_aliases_within_the_budget_still_load() -> None:
    data = load_yaml("base: &b {timeout: 3}\nfetch: *b\nlist: [*b, *b]\n")
    assert data["fetch"] == {"timeout": 3} and len(data["list"]) == 2
    assert load_yaml(alias_bomb(levels=4, width=9))["l3"][0][0][0][0] == "x"  # 9**4 = 6,561 leaves
    assert 9 ** 5 < MAX_YAML_NODES < 9 ** 6


@pytest.mark.parametrize("text, why", [("&a [*a]", "recursive"), ("x: " + "1" * 5000, "cannot be read")])
def test_hostile_yaml_is_a_limit_error_never_a_crash(text: str, why: str) -> None:
    with pytest.raises(LimitError, match=why):
        load_yaml(text)


@pytest.mark.parametrize("text", ["[" * 100_000, "- " * 100_000 + "x", "{a: " * 50_000 + "1" + "}" * 50_000])
def test_deep_yaml_is_refused_never_a_crash(text: str) -> None:
    # libyaml's composer would overflow the C stack here. Which limit speaks first is the library's
    # business (our depth check, or PyYAML >= 6.0.4's own flow-level limit, each in its own words):
    # what matters is a clean refusal that names the line, never a RecursionError or a segfault.
    with pytest.raises((LimitError, yaml.YAMLError)) as caught:
        load_yaml(text)
    assert "line" in str(caught.value)


@pytest.mark.parametrize("name", sorted(HOSTILE_CORPORA))
def test_hostile_json_is_a_limit_error(name: str) -> None:
    with pytest.raises(LimitError):
        load_json(HOSTILE_CORPORA[name])


def test_json_within_the_limits_loads() -> None:
    assert load_json('[{"n": ' + "9" * 100 + ', "s": "\\ud83d\\ude00"}]') == [{"n": int("9" * 100), "s": "\U0001f600"}]


# -- through the CLI: every command and format ---------------------------------------------------

@pytest.mark.parametrize("name", sorted(HOSTILE_CORPORA))
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_hostile_corpus_is_one_line_and_exit_2_in_audit(tmp_path: Path, name: str, fmt: str) -> None:
    corpus = tmp_path / "c.json"
    corpus.write_text(HOSTILE_CORPORA[name], encoding="utf-8")
    memo = tmp_path / "memo.md"
    memo.write_text("Claim [src-001].\n", encoding="utf-8")
    code, out = run("audit", str(memo), "--corpus", str(corpus), "--offline", "--format", fmt)
    assert code == 2
    one_line_error(out, corpus)
    code, out = run("audit", str(corpus), "--offline", "--format", fmt)  # the corpus as an input
    assert code == 2
    one_line_error(out, corpus)


@pytest.mark.parametrize("name", sorted(HOSTILE_CORPORA))
def test_a_hostile_corpus_stops_write_before_anything_is_written(tmp_path: Path, name: str) -> None:
    corpus = tmp_path / "c.json"
    corpus.write_text(HOSTILE_CORPORA[name], encoding="utf-8")
    draft, memo = tmp_path / "draft.md", tmp_path / "memo.md"
    draft.write_text("Claim [src-001].\n", encoding="utf-8")
    code, out = run("write", str(draft), "--corpus", str(corpus), "-o", str(memo), "--format", "json")
    assert code == 2 and not memo.exists()
    one_line_error(out, corpus)


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_alias_bomb_in_front_matter_is_one_line_and_exit_2(tmp_path: Path, fmt: str) -> None:
    memo = tmp_path / "memo.md"
    memo.write_text("---\n" + alias_bomb(levels=10) + "---\n\nSee https://good.org/a\n", encoding="utf-8")
    code, out = run("audit", str(memo), "--offline", "--format", fmt)
    assert code == 2
    one_line_error(out, memo)


def test_an_alias_bomb_in_a_draft_stops_write(tmp_path: Path) -> None:
    corpus, draft, memo = tmp_path / "c.json", tmp_path / "draft.md", tmp_path / "memo.md"
    corpus.write_text(json.dumps([SOURCE]), encoding="utf-8")
    draft.write_text("---\n" + alias_bomb(levels=10) + "---\n\nClaim [src-001].\n", encoding="utf-8")
    code, out = run("write", str(draft), "--corpus", str(corpus), "-o", str(memo))
    assert code == 2 and not memo.exists()
    one_line_error(out, draft)


def test_an_alias_bomb_in_the_config_is_a_config_error(tmp_path: Path) -> None:
    config, memo = tmp_path / ".citecheck.yaml", tmp_path / "memo.md"
    config.write_text("firm:\n  " + alias_bomb(levels=10).replace("\n", "\n  "), encoding="utf-8")
    memo.write_text("See https://good.org/a\n", encoding="utf-8")
    code, out = run("audit", str(memo), "--config", str(config), "--offline")
    assert code == 2
    one_line_error(out, config)


def test_an_alias_bomb_in_a_pack_is_a_pack_error(tmp_path: Path) -> None:
    packs, memo = tmp_path / "packs", tmp_path / "memo.md"
    packs.mkdir()
    (packs / "bomb.yaml").write_text("pack: bomb\ndata:\n  " + alias_bomb(levels=10).replace("\n", "\n  "),
                                     encoding="utf-8")
    memo.write_text("See https://good.org/a\n", encoding="utf-8")
    code, out = run("audit", str(memo), "--rules", str(packs), "--offline")
    assert code == 2
    one_line_error(out, packs / "bomb.yaml")


def test_an_alias_bomb_in_an_outline_is_an_outline_error(tmp_path: Path) -> None:
    from citecheck.harvest.outline import load_outline

    outline = tmp_path / "outline.yaml"
    outline.write_text("title: T\n" + alias_bomb(levels=10), encoding="utf-8")
    with pytest.raises(InputError, match="expand past") as caught:
        load_outline(str(outline))
    assert str(outline) in str(caught.value)


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf", "1e400", "9" * 5000])
def test_config_numbers_are_finite(tmp_path: Path, value: str) -> None:
    config, memo = tmp_path / ".citecheck.yaml", tmp_path / "memo.md"
    config.write_text(f"fetch:\n  timeout: {value}\n", encoding="utf-8")
    memo.write_text("See https://good.org/a\n", encoding="utf-8")
    code, out = run("audit", str(memo), "--config", str(config), "--offline")
    assert code == 2
    one_line_error(out, config)


def test_loaders_raise_the_callers_error_types(tmp_path: Path) -> None:
    from citecheck.config import load_config
    from citecheck.engine.packs import load_packs
    from citecheck.extract import load_corpus

    (tmp_path / "c.json").write_text(HOSTILE_CORPORA["lone surrogate"], encoding="utf-8")
    (tmp_path / "cfg.yaml").write_text("fetch:\n  timeout: .nan\n", encoding="utf-8")
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "x.yaml").write_text("[" * 100_000, encoding="utf-8")
    with pytest.raises(CorpusError, match="lone surrogate"):
        load_corpus(str(tmp_path / "c.json"))
    with pytest.raises(ConfigError, match="finite"):
        load_config(tmp_path / "cfg.yaml")
    with pytest.raises(PackError) as caught:  # the wording is our depth check's or PyYAML's own limit's
        load_packs([str(tmp_path / "p")])
    assert "x.yaml" in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_a_memo_with_a_byte_order_mark_is_audited_not_called_binary(tmp_path: Path, encoding: str) -> None:
    memo = tmp_path / "memo.md"
    bom = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}.get(encoding, b"")
    memo.write_bytes(bom + "# Memo\r\nSee https://good.org/ünï and more.\n".encode(encoding))
    code, out = run("audit", str(memo), "--offline", "--format", "json")
    assert code in (0, 1), out
    assert json.loads(out)["summary"]["links"] == 1, out


def test_a_byte_order_mark_with_broken_text_is_one_line(tmp_path: Path) -> None:
    memo = tmp_path / "memo.md"
    memo.write_bytes(b"\xff\xfe" + "ok".encode("utf-16-le") + b"\x00\xd8")  # a lone high surrogate
    code, out = run("audit", str(memo), "--offline")
    assert code == 2
    one_line_error(out, memo)


if sys.platform == "win32":  # pragma: no cover
    pytestmark = pytest.mark.skip("POSIX paths")


@pytest.mark.parametrize("name", sorted(HOSTILE_CORPORA))
def test_a_hostile_corpus_stops_curate_before_anything_is_written(tmp_path: Path, name: str) -> None:
    corpus, runs, master = tmp_path / "c.json", tmp_path / "run.md", tmp_path / "master.json"
    corpus.write_text(HOSTILE_CORPORA[name], encoding="utf-8")
    runs.write_text("See https://good.org/a\n", encoding="utf-8")
    code, out = run("curate", str(runs), "-o", str(master), "--offline", "--corpus-out", str(corpus))
    assert code == 2 and not master.exists()
    one_line_error(out, corpus)
