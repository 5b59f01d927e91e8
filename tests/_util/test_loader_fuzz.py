"""Property tests: the config, corpus, front-matter and pack loaders fail only with one-line
citecheck errors, never with a traceback, whatever bytes they are given."""
from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecheck.cli import main
from citecheck.config import build, load_config
from citecheck.errors import CitecheckError
from citecheck.extract import extract_document
from citecheck.extract.corpus import load_corpus_text

_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
config_keys = st.sampled_from(["extends", "select", "ignore", "fail-on", "rules", "firm", "company", "include",
                               "exclude", "max-file-size", "packs", "fetch", "providers", "bogus"])
configs = st.dictionaries(config_keys, json_values, max_size=5)


@_SETTINGS
@given(configs)
def test_config_mapping_is_accepted_or_refused_in_one_line(raw: dict) -> None:
    try:
        build(raw, ".citecheck.yaml", yaml.safe_dump(raw))
    except CitecheckError as err:
        assert "\n" not in str(err) and str(err).startswith(".citecheck.yaml:")


@_SETTINGS
@given(st.text(max_size=300))
def test_config_file_text_never_crashes(tmp_path_factory, text: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("cfg") / ".citecheck.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_config(path)
    except CitecheckError as err:
        assert "\n" not in str(err)


corpus_records = st.lists(st.dictionaries(
    st.sampled_from(["id", "url", "canonical_url", "title", "fetched_at", "body_excerpt", "summary", "status",
                     "retrieval_query", "retrieval_tool", "x"]), json_values, max_size=6), max_size=5)


@_SETTINGS
@given(st.one_of(st.text(max_size=300), corpus_records.map(json.dumps), json_values.map(json.dumps)))
def test_corpus_loader_never_crashes(text: str) -> None:
    try:
        corpus = load_corpus_text("c.json", text)
    except CitecheckError as err:
        assert "\n" not in str(err) and str(err).startswith("c.json:")
    else:
        assert len(corpus.sources) == len(corpus.records) == len(corpus.lines)


@_SETTINGS
@given(st.text(max_size=200))
def test_front_matter_never_crashes(body: str) -> None:
    try:
        extract_document("m.md", f"---\n{body}\n---\n# Memo\n", "markdown")
    except CitecheckError as err:
        assert "\n" not in str(err) and str(err).startswith("m.md:")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=200))
def test_cli_bad_config_is_exit_2_and_one_line(tmp_path_factory, text: str) -> None:  # type: ignore[no-untyped-def]
    folder: Path = tmp_path_factory.mktemp("cli")
    (folder / ".citecheck.yaml").write_text(text, encoding="utf-8")
    (folder / "m.md").write_text("# Memo\n\nSee https://www.sec.gov/x.\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["audit", "--offline", "--format", "json", "--config",
                                       str(folder / ".citecheck.yaml"), str(folder / "m.md")])
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 2:
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
