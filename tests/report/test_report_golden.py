"""CLI output in every format against the golden files (regenerate with `python scripts/regen_golden.py`)."""
from __future__ import annotations

import difflib
import importlib.util
import json
from pathlib import Path
from types import ModuleType

import jsonschema
import pytest
from lxml import etree

from citecheck.schemas import load_schema

ROOT = Path(__file__).resolve().parents[2]


def _load_regen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regen_golden", ROOT / "scripts" / "regen_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regen = _load_regen()
CASES = [(memo, fmt) for memo in regen.memos() for fmt in regen.FORMATS]


def test_there_is_a_golden_memo_in_every_format() -> None:
    assert regen.memos() == ["golden_memo"]
    for memo, fmt in CASES:
        assert regen.golden_path(memo, fmt).is_file(), f"missing {regen.golden_path(memo, fmt)}"


@pytest.mark.parametrize(("memo", "fmt"), CASES, ids=[f"{m}.{f}" for m, f in CASES])
def test_output_matches_golden(memo: str, fmt: str) -> None:
    golden = regen.golden_path(memo, fmt).read_text(encoding="utf-8")
    current = regen.produce(memo, fmt)
    if current != golden:
        diff = "".join(list(difflib.unified_diff(golden.splitlines(True), current.splitlines(True),
                                                 f"golden/{memo}.{fmt}", "current"))[:60])
        pytest.fail(f"{memo}.{fmt} differs from its golden file; if the change is intended, run "
                    f"`python scripts/regen_golden.py` and review the diff:\n{diff}")


def test_goldens_are_valid_in_their_own_format() -> None:
    read = {fmt: regen.golden_path("golden_memo", fmt).read_text(encoding="utf-8") for fmt in regen.FORMATS}
    jsonschema.Draft202012Validator(load_schema()).validate(json.loads(read["json"]))
    sarif_schema = json.loads((ROOT / "fixtures" / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(sarif_schema).validate(json.loads(read["sarif"]))
    etree.XMLSchema(etree.parse(str(ROOT / "fixtures" / "schemas" / "junit.xsd"))).assertValid(
        etree.fromstring(read["junit"].encode("utf-8")))
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in read["github"].splitlines())
    findings = json.loads(read["json"])["findings"]
    assert {"U001", "E001", "E002"} <= {f["rule"] for f in findings}
    suppressions = json.loads(read["json"])["summary"]["suppressions"]
    assert len(read["github"].splitlines()) == len(findings) + len(suppressions)  # one notice per directive


def test_normalise_hides_durations_and_version_only() -> None:
    payload = json.dumps({"version": 1, "findings": [], "summary": {"duration_s": 1.234, "files": 3}})
    assert json.loads(regen.normalise("json", payload))["summary"] == {"duration_s": 0, "files": 3}
    sarif = json.dumps({"runs": [{"tool": {"driver": {"version": "9.9"}}, "properties": {"duration_s": 2.5}}]})
    run = json.loads(regen.normalise("sarif", sarif))["runs"][0]
    assert run["tool"]["driver"]["version"] == "VERSION" and run["properties"]["duration_s"] == 0
    text = "x\n2 finding(s): ... offline in 0.123 s\n"
    assert regen.normalise("text", text) == "x\n2 finding(s): ... offline in 0.0 s\n"
    assert regen.normalise("junit", '<a time="1.5"><b time="0.2"/></a>') == '<a time="0"><b time="0"/></a>'
    assert regen.normalise("github", "::error line=1::took 3.5 s") == "::error line=1::took 3.5 s"


def test_regen_check_mode_reports_a_stale_golden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(regen, "GOLDEN", tmp_path)
    (tmp_path / "golden_memo.text").write_text("stale\n", encoding="utf-8")
    assert regen.main(["--check"]) == 1
    assert regen.main([]) == 0
    assert regen.main(["--check"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"golden_memo.{f}" for f in regen.FORMATS)
