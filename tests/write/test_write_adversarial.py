"""The invariant on the adversarial fixtures: every URL spelling goes, each removal is reported.

Each fixtures/write/adversarial_*.md opens with `<!-- expect: M009=N M006=M -->`: the number of
removals (M009 draft-url) and unknown IDs (M006) `write` must report, in strict and hybrid mode.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from leakscan import leaked, scan

from citecheck.config import Config
from citecheck.engine.registry import build_registry
from citecheck.extract import load_corpus
from citecheck.write import write

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "write"
ADVERSARIAL = sorted(FIXTURES.glob("adversarial_*.md"))
CORPUS = load_corpus(str(FIXTURES / "corpus.json"))
CORPUS_URLS = [s.url for s in CORPUS.sources]
REGISTRY = build_registry()
CONFIG = Config(ignore=("M008",))  # claim support is another rule's business; keep the counts exact


def expectations(text: str) -> dict[str, int]:
    head = re.match(r"<!-- expect: (?P<pairs>[^>]*) -->", text)
    assert head, "an adversarial fixture starts with <!-- expect: M009=N M006=M -->"
    return {k: int(v) for k, v in re.findall(r"(M\d{3})=(\d+)", head.group("pairs"))}


def test_there_is_an_adversarial_fixture_per_family() -> None:
    names = {p.stem.removeprefix("adversarial_") for p in ADVERSARIAL}
    assert {"markdown_links", "autolinks_and_bare", "html", "obfuscated", "code_and_comments", "doi", "ids"} <= names


@pytest.mark.parametrize("path", ADVERSARIAL, ids=[p.stem for p in ADVERSARIAL])
@pytest.mark.parametrize("hybrid", [False, True], ids=["strict", "hybrid"])
def test_adversarial_draft_leaves_no_url_and_reports_each_removal(path: Path, hybrid: bool) -> None:
    draft = path.read_text(encoding="utf-8")
    expected = expectations(draft)
    if expected["M009"]:
        assert leaked(draft, CORPUS_URLS), "the scanner must see the URLs this fixture hides"
    result = write(draft, CORPUS, hybrid=hybrid, path=path.name, config=CONFIG, registry=REGISTRY)
    assert leaked(result.text, CORPUS_URLS) == []
    counts = Counter(f.rule for f in result.findings)
    assert {rule: counts.get(rule, 0) for rule in expected} == expected
    assert "M007" not in counts, "write reports URLs as M009 removals only"
    assert all(f.path == path.name and f.line >= 1 and f.column >= 1 for f in result.findings)


@pytest.mark.parametrize("path", ADVERSARIAL, ids=[p.stem for p in ADVERSARIAL])
def test_adversarial_output_is_a_fixed_point(path: Path) -> None:
    once = write(path.read_text(encoding="utf-8"), CORPUS, config=CONFIG, registry=REGISTRY)
    twice = write(once.text, CORPUS, config=CONFIG, registry=REGISTRY)
    assert twice.text == once.text
    assert not [f for f in twice.findings if f.rule in ("M006", "M009")]


@pytest.mark.parametrize("path", ADVERSARIAL, ids=[p.stem for p in ADVERSARIAL])
def test_finding_positions_point_at_the_removed_text(path: Path) -> None:
    draft = path.read_text(encoding="utf-8")
    lines = draft.split("\n")
    result = write(draft, CORPUS, path=path.name, config=CONFIG, registry=REGISTRY)
    for f in (f for f in result.findings if f.rule == "M009"):
        written = lines[f.line - 1][f.column - 1:]
        assert written.startswith(f.url) or scan(written[:len(f.url) + 8]), (f.url, written[:60])


def test_markers_keep_link_text() -> None:
    draft = (FIXTURES / "adversarial_markdown_links.md").read_text(encoding="utf-8")
    text = write(draft, CORPUS, config=CONFIG, registry=REGISTRY).text
    assert 'per the annual report<needs-source reason="uncorpused-url"/>.' in text
    assert "but [above](#market) stays" in text
    assert "[^own]: The writer's own note, <needs-source" in text
