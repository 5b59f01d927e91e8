"""The shipped corpus JSON Schema, C001's contract and what `harvest` writes all agree."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from harvestkit import cli, project
from harvestsite import threaded_site

from citecheck.checks.schema import REQUIRED
from citecheck.schemas import load_schema

ROOT = Path(__file__).resolve().parents[2]


def test_schema_required_fields_are_c001s() -> None:
    assert tuple(load_schema("corpus.schema.json")["items"]["required"]) == REQUIRED


def test_harvested_corpus_validates(tmp_path: Path) -> None:
    with threaded_site() as site:
        assert cli(*project(tmp_path, site), "-q").exit_code == 0
    jsonschema.validate(json.loads((tmp_path / "corpus.json").read_text()), load_schema("corpus.schema.json"))


def test_fixture_corpora_validate_and_a_broken_one_does_not() -> None:
    schema = load_schema("corpus.schema.json")
    for path in (ROOT / "fixtures" / "memos" / "corpus.json", ROOT / "fixtures" / "support" / "corpus.json"):
        jsonschema.validate(json.loads(path.read_text()), schema)
    broken = [{"id": "source-1", "url": "https://x.org/a"}]
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(broken))
    assert errors and any("required" in e.message or "does not match" in e.message for e in errors)
