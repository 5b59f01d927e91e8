"""Outline loading: the shipped example and schema agree; every malformed outline is one
OutlineError naming file:line; `@domain` site restrictions; the source directory file."""
from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
import yaml

from citecheck.errors import InputError, OutlineError
from citecheck.harvest.outline import load_outline, parse_outline, split_sites
from citecheck.harvest.providers import load_directory
from citecheck.schemas import load_schema

HEAD = "title: Memo\ncompany: {name: Acme}\n"


def test_example_outline_loads_and_matches_the_schema(fixtures: Path) -> None:
    path = fixtures / "harvest" / "outline.yaml"
    jsonschema.Draft202012Validator(load_schema("outline.schema.json")).validate(yaml.safe_load(path.read_text()))
    outline = load_outline(path)
    assert [s.id for s in outline.sections] == ["market", "competition", "regulation"]
    assert outline.providers == ("directory", "tavily") and outline.limit == 8
    assert outline.directory == str(fixtures / "harvest" / "directory.yaml")
    market = outline.sections[0]
    assert market.queries[1].text == "road freight statistics @ec.europa.eu" and market.queries[1].line == 20
    assert market.preferred_sources == ("Eurostat", "destatis.de")
    assert outline.sections[2].urls[0].text.startswith("https://transport.ec.europa.eu/")
    assert outline.firm == {"name": "Example Capital Partners"}


BAD = [
    ("bad_yaml", "title: [Memo\n", 2, "malformed YAML"),
    ("bad_not_mapping", "- a\n- b\n", 1, "an outline is a mapping"),
    ("bad_missing_sections", HEAD, 1, "'sections' is a required property"),
    ("bad_unknown_top_key", HEAD + "sections: [{id: a, title: A}]\nsectons: []\n", 4, "unknown key 'sectons'"),
    ("bad_unknown_section_key", HEAD + "sections:\n  - id: a\n    title: A\n    query: [x]\n", 6, "unknown key 'query'"),
    ("bad_unknown_provider", HEAD + "providers: [google]\nsections: [{id: a, title: A}]\n", 3,
     "unknown provider 'google'"),
    ("bad_duplicate_section", HEAD + "sections:\n  - id: a\n    title: A\n  - id: a\n    title: B\n", 6,
     "duplicate section id 'a' (first used on line 4)"),
    ("bad_duplicate_key", HEAD + "sections:\n  - id: a\n    title: A\n    title: B\n", 6, "duplicate key 'title'"),
    ("bad_section_id", HEAD + "sections:\n  - id: Market Size\n    title: A\n", 4, "must be lowercase"),
    ("bad_query_type", HEAD + "sections:\n  - id: a\n    title: A\n    queries: [1]\n", 6, "is not of type 'string'"),
    ("bad_url", HEAD + "sections:\n  - id: a\n    title: A\n    urls: [www.x.org/a]\n", 6, "not an http(s) URL"),
    ("bad_empty_sections", HEAD + "sections: []\n", 3, "should be non-empty"),
]


@pytest.mark.parametrize("text,line,message", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_malformed_outline_is_one_line_with_file_and_line(text: str, line: int, message: str) -> None:
    with pytest.raises(OutlineError) as info:
        parse_outline(text, "memo.yaml")
    assert str(info.value).startswith(f"memo.yaml:{line}: "), str(info.value)
    assert message in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("text", [b[1] for b in BAD if b[0] not in ("bad_yaml", "bad_duplicate_section",
                                                                     "bad_duplicate_key")])
def test_schema_rejects_what_the_loader_rejects(text: str) -> None:
    assert not jsonschema.Draft202012Validator(load_schema("outline.schema.json")).is_valid(yaml.safe_load(text))


def test_unreadable_outline(tmp_path: Path) -> None:
    with pytest.raises(OutlineError, match="cannot read outline"):
        load_outline(tmp_path / "missing.yaml")


@pytest.mark.parametrize("query,expected", [
    ("road freight @ec.europa.eu", ("road freight", ("ec.europa.eu",))),
    ("@destatis.de goods transport @Eurostat.EC.europa.eu", ("goods transport", ("destatis.de", "eurostat.ec.europa.eu"))),
    ("email me@example.org about it", ("email me@example.org about it", ())),
    ("no restriction", ("no restriction", ())),
])
def test_split_sites(query: str, expected: tuple[str, tuple[str, ...]]) -> None:
    assert split_sites(query) == expected


def test_directory_file(fixtures: Path, tmp_path: Path) -> None:
    entries = load_directory(str(fixtures / "harvest" / "directory.yaml"))
    assert [e.name for e in entries] == ["Eurostat", "destatis", "European Commission DG MOVE"]
    assert entries[0].covers("eurostat") and entries[0].covers("ec.europa.eu") and not entries[1].covers("europa.eu")
    bad = tmp_path / "dir.yaml"
    bad.write_text("sources:\n  - name: A\n    domain: a.org\n  - name: B\n    domain: b.org\n    search: x\n")
    with pytest.raises(InputError, match=r"dir.yaml:4: search must be an http\(s\) URL template"):
        load_directory(str(bad))
