"""The incident memo end to end: `citecheck audit --offline --format json` reports exactly the
(rule, line, column) triples in fixtures/memos/bad_incident_memo.expected.json, and the clean memo
reports nothing. Runs in a temporary directory so no `.citecheck.yaml` from the checkout leaks in."""
from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import netguard
import pytest
from click.testing import CliRunner

from citecheck.cli import main

MEMOS = Path(__file__).resolve().parent.parent / "fixtures" / "memos"
BAD = "bad_incident_memo.md"
CORPUS = "corpus.json"
# Every incident the memo reproduces must stay reproduced (the AWS blog URL needs a fetch or a corpus).
INCIDENT_RULES = {"U001", "U003", "U004", "U005", "U006", "U008", "M001", "M002", "M003", "M004", "M005"}


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in (BAD, CORPUS, "ok_clean_memo.md"):
        shutil.copy(MEMOS / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    netguard.forbid_inet_sockets(monkeypatch)
    return tmp_path


def audit(*args: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(main, ["audit", "--offline", "--format", "json", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, json.loads(result.stdout)


def triples(rows: list[dict[str, Any]]) -> Counter[tuple[str, int, int]]:
    return Counter((r["rule"], r["line"], r["column"]) for r in rows)


def expected(name: str) -> list[dict[str, Any]]:
    return json.loads((MEMOS / name).read_text(encoding="utf-8"))


def test_incident_memo_reports_exactly_the_expected_findings(workdir: Path) -> None:
    code, payload = audit(BAD)
    assert code == 1
    got, want = triples(payload["findings"]), triples(expected("bad_incident_memo.expected.json"))
    assert got == want, f"unexpected: {sorted(got - want)}\nmissing: {sorted(want - got)}"
    assert all(f["path"] == BAD for f in payload["findings"])


def test_expected_findings_cover_every_incident() -> None:
    rows = expected("bad_incident_memo.expected.json")
    rules = Counter(r["rule"] for r in rows)
    assert set(rules) >= INCIDENT_RULES
    assert rules["U001"] >= 12, "the example.com run of citations"
    assert rules["M001"] >= 4, "Indonesia, rupiah, OJK, Southeast Asia"


def test_incident_memo_with_corpus_adds_unknown_ids_and_uncorpused_urls(workdir: Path) -> None:
    code, payload = audit("--corpus", CORPUS, BAD)
    assert code == 1
    found = [f for f in payload["findings"] if f["rule"] in ("M006", "M007")]
    assert triples(found) == triples(expected("bad_incident_memo.corpus.expected.json"))
    aws = [f for f in found if f["url"].startswith("https://aws.amazon.com/blogs/machine-learning/fabricated-slug")]
    assert len(aws) == 1 and aws[0]["rule"] == "M007"
    assert [f["evidence"] for f in found if f["rule"] == "M006"] == ["src-014"]


def test_clean_memo_has_no_findings(workdir: Path) -> None:
    code, payload = audit("ok_clean_memo.md")
    assert payload["findings"] == []
    assert code == 0


def test_clean_memo_cites_only_its_corpus(workdir: Path) -> None:
    code, payload = audit("--corpus", CORPUS, "--select", "U,M001,M002,M003,M004,M005,M006,M007", "ok_clean_memo.md")
    assert payload["findings"] == []
    assert payload["summary"]["links"] >= 7
    assert code == 0
