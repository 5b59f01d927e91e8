"""One bad memo never hides the others (issue 25 item 3): a file whose reading, decoding, front
matter or corpus JSON fails is an E003 finding for that file, in a directory walk and in a list of
named files (as pre-commit passes them), while every other file is audited; a file named alone is
the usual one-line error."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

BAD = "# Memo\n\nSee [report](https://example.com/report).\n"
BROKEN = {
    "front.md": "---\nfirm: [unclosed\n---\n# Memo\n",
    "listfm.md": "---\n- a\n- b\n---\n# Memo\n",
    "latin.md": "caf\u00e9 https://example.com/x".encode("latin-1"),
    "scan.md": b"%PDF-1.7\x00\x01\x02binary",
    "sourced_corpus.json": "[{\"id\": \"src-001\",",
}


def _audit(*args: str) -> tuple[int, dict[str, Any], str]:
    from citecheck.cli import main

    result = CliRunner(env={"GITHUB_ACTIONS": None}).invoke(
        main, ["audit", "--offline", "--format", "json", "--select", "U001,E", *args])
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip() else {}, result.stderr


def _tree(root: Path) -> list[str]:
    (root / "good.md").write_text(BAD, encoding="utf-8")
    for name, content in BROKEN.items():
        if isinstance(content, bytes):
            (root / name).write_bytes(content)
        else:
            (root / name).write_text(content, encoding="utf-8")
    return ["good.md", *BROKEN]


def _by_path(payload: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for finding in payload["findings"]:
        out.setdefault(Path(finding["path"]).name, []).append(finding["rule"])
    return out


@pytest.mark.parametrize("how", ["walk", "named"])
def test_each_broken_file_is_one_e003_and_the_good_one_is_audited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   how: str) -> None:
    monkeypatch.chdir(tmp_path)
    names = _tree(tmp_path)
    code, payload, err = _audit(*(["."] if how == "walk" else names))
    assert code == 2, err
    found = _by_path(payload)
    assert found.pop("good.md") == ["U001"]
    assert found == {name: ["E003"] for name in BROKEN}
    front = next(f for f in payload["findings"] if f["path"].endswith("front.md"))
    assert front["line"] == 3 and "front matter" in front["message"] and front["severity"] == "error"


def test_a_file_named_alone_is_still_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _tree(tmp_path)
    code, payload, err = _audit("front.md")
    assert code == 2 and payload == {}
    assert err.strip().count("\n") == 0 and "front.md:3: malformed front matter" in err


def test_the_api_reports_extraction_problems_per_file(tmp_path: Path) -> None:
    from citecheck.extract import collect

    (tmp_path / "a.md").write_text(BAD, encoding="utf-8")
    (tmp_path / "b.md").write_text(BROKEN["front.md"], encoding="utf-8")
    inputs = collect([str(tmp_path / "a.md"), str(tmp_path / "b.md")])
    assert [d.path for d in inputs.documents] == [str(tmp_path / "a.md")]
    assert [(p.path, p.rule, p.line) for p in inputs.problems] == [(str(tmp_path / "b.md"), "E003", 3)]


def test_a_parser_crash_on_one_file_is_that_files_e003(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Any exception while extracting one memo (an HTML scanner bug, say) is a finding for that
    file, not a traceback that hides every other memo; alone, it is one line."""
    import citecheck.extract as extract

    real = extract.extract_document

    def crash_on_b(path: str, text: str, kind: str = "markdown") -> Any:
        if path.endswith("b.md"):
            raise AssertionError("expected name token")
        return real(path, text, kind)

    monkeypatch.setattr(extract, "extract_document", crash_on_b)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.md").write_text(BAD, encoding="utf-8")
    (tmp_path / "b.md").write_text("# B\n", encoding="utf-8")
    code, payload, err = _audit("a.md", "b.md")
    assert code == 2, err
    assert _by_path(payload) == {"a.md": ["U001"], "b.md": ["E003"]}
    assert "AssertionError: expected name token" in next(f["message"] for f in payload["findings"]
                                                         if f["rule"] == "E003")
    code, payload, err = _audit("b.md")
    assert code == 2 and payload == {} and err.strip().count("\n") == 0 and "could not be parsed" in err
