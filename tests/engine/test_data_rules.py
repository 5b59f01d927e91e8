"""YAML data rules (`kind: rules` packs) match text as the page rules match their packs: through
`checks._page.Phrases`, one folding (NFKC, case, curly quotes, whitespace), whole words, one
prefilter; memo findings point at the text as written."""
from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citecheck.checks._page import Phrases, fold, fold_mapped
from citecheck.config import build
from citecheck.engine.registry import build_registry
from citecheck.engine.run import Engine, Memo
from citecheck.engine.select import resolve
from citecheck.extract.markdown import extract_markdown
from citecheck.models import Finding, Link, LinkKind, Location, Outcome, Page

PACK = """pack: house
kind: rules
rules:
  - {id: M901, name: no-hype, type: existence, message: 'hype {}', tokens: [revolutionary, 'game-chang\\w+', 'e\\.g\\.', "don't"]}
  - {id: M902, name: plain-words, type: substitution, message: 'use {} not {}', swap: {utilize: use, 'e.g.': 'for example', 'in order to': to}}
  - {id: M903, name: few-musts, type: occurrence, message: '{} musts', tokens: [must], max: 1}
  - {id: M904, name: acronym, type: existence, message: 'acronym {}', tokens: ['AI'], case: true}
  - {id: H901, name: coming-soon, type: phrase-list, message: 'placeholder {}', phrases: [coming soon, '404', "don't have access"]}
  - {id: U901, name: no-intranet, type: domain-list, message: 'intranet {}', domains: [.Corp.Example, intra.example]}
  - {id: H902, name: error-title, type: title-pattern, message: 'error title {}', patterns: ['not found', '^error']}
"""


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    (tmp_path / "house.yaml").write_text(PACK, encoding="utf-8")
    return Engine(resolve(build_registry([str(tmp_path)]), build({"select": ["M9", "H9", "U9"]})))


def _memo(engine: Engine, text: str) -> list[tuple[int, int, str, str, str]]:
    found = engine.check_memo(Memo(extract_markdown("m.md", text)))
    return sorted((f.line, f.column, f.rule, f.evidence, f.fix) for f in found)


def _page(engine: Engine, title: str, text: str) -> list[Finding]:
    link = Link("https://example.org/a", Location("m.md", 3, 1), LinkKind.INLINE, "a")
    page = Page(link.url, Outcome.OK, 200, title=title, text_sample=text, content_type="text/html")
    return engine.check_pages([link], {link.url: page}, "m.md")


def test_memo_check_types_fold_the_text_and_point_at_it_as_written(engine: Engine) -> None:
    text = "# M\n\nA  Revolutionary,\u00a0game-changing plan, e.g. this; we don\u2019t utilize it.\n"
    assert _memo(engine, text) == [
        (3, 4, "M901", "Revolutionary", ""), (3, 19, "M901", "game-changing", ""), (3, 39, "M901", "e.g.", ""),
        (3, 39, "M902", "e.g.", "for example"), (3, 53, "M901", "don\u2019t", ""), (3, 59, "M902", "utilize", "use")]


def test_memo_items_match_whole_words_and_swap_keys_are_plain_text(engine: Engine) -> None:
    # 'e.g.' as a swap key is text, not a regex: 'edge' is no 'e.g.'; 'revolutionaryish' is another word
    assert _memo(engine, "# M\n\nThe edge of revolutionaryish ideas.\n") == []


def test_case_true_keeps_case_and_occurrence_counts(engine: Engine) -> None:
    assert _memo(engine, "# M\n\nAI and ai and Ai, AI.\n") == [(3, 1, "M904", "AI", ""), (3, 19, "M904", "AI", "")]
    assert _memo(engine, "# M\n\nWe must. You MUST.\n") == [(3, 14, "M903", "MUST", "")]


def test_a_phrase_list_matches_folded_whole_words_leftmost_title_first(engine: Engine) -> None:
    hex_id = "Ray ID: 594049c59e2dfb8c. You don\u2019t  have access; coming soon."
    found = [(f.rule, f.evidence) for f in _page(engine, "Welcome", hex_id)]
    assert found == [("H901", "don't have access")]  # '404' inside a hex ID is no '404'; the item as written
    found = [(f.rule, f.evidence) for f in _page(engine, "Coming  Soon", "Error 404")]
    assert found == [("H901", "coming soon")]


def test_a_title_pattern_matches_the_folded_title_and_reports_it_as_written(engine: Engine) -> None:
    found = _page(engine, "Page\u00a0NOT  Found", "")
    assert [(f.rule, f.evidence) for f in found] == [("H902", "Page\u00a0NOT  Found")]
    assert _page(engine, "An error occurred", "") == []  # '^error' anchors at the start


def test_a_domain_list_matches_hosts_under_its_domains(engine: Engine) -> None:
    links = [Link(url, Location("m.md", n, 1), LinkKind.INLINE, "a") for n, url in enumerate(
        ("https://wiki.corp.example/a", "https://corp.example.org/", "https://intra.example/", "https://xintra.example/"),
        start=1)]
    assert [(f.line, f.evidence) for f in engine.check_links(links, "m.md")] == [(1, "wiki.corp.example"),
                                                                                (3, "intra.example")]


def test_data_rules_are_prepared_once_and_travel_to_workers(engine: Engine) -> None:
    assert all(rule.spec.prepare is not None for rule in engine.active if rule.spec.stage != "engine")
    phrases = next(rule for rule in engine.active if rule.spec.id == "M901").prepare()
    assert pickle.loads(pickle.dumps(phrases)).spans("a revolutionary idea") == [(2, 15, "revolutionary")]


@given(st.text(alphabet="aAß\u00a8\ufb01 \t\n\u00a0\u2019\u0130\u0131e\u0301.-x", max_size=40))
def test_folding_word_by_word_is_folding_the_whole_text(text: str) -> None:
    assert fold_mapped(text)[0] == fold(text)


@given(st.text(alphabet="ab .\n\t-", max_size=40))
def test_spans_point_at_what_was_matched(text: str) -> None:
    for start, end, found in Phrases(["a b", "b.", "ab"], regex=False).spans(text):
        assert fold(text[start:end]) == found


def test_a_data_rule_declares_its_part_in_write_and_its_evidence_label(tmp_path: Path) -> None:
    from citecheck.errors import PackError
    from citecheck.extract import load_corpus
    from citecheck.report.html_evidence import finding_item
    from citecheck.write import write

    corpus = load_corpus(str(Path(__file__).resolve().parents[2] / "fixtures" / "write" / "corpus.json"))
    rule = "  - {id: M905, name: no-tbd, type: existence, message: 'says {}', tokens: [TBD], evidence: Placeholder%s}\n"
    for declared, runs in (("", False), (", write: contract", True)):
        (tmp_path / "house.yaml").write_text("pack: house\nkind: rules\nrules:\n" + rule % declared, encoding="utf-8")
        registry = build_registry([str(tmp_path)])
        result = write("# Memo\n\nRevenue was TBD.\n", corpus, config=build({"ignore": ["M905", "M008"]}),
                       registry=registry)
        found = [f for f in result.findings if f.rule == "M905"]
        assert [(f.line, f.evidence) for f in found] == ([(3, "TBD")] if runs else [])
    assert '<span class="k">Placeholder:</span> <q>TBD</q>' in finding_item(found[0], registry)
    (tmp_path / "house.yaml").write_text("pack: house\nkind: rules\nrules:\n" + rule % ", write: always",
                                         encoding="utf-8")
    with pytest.raises(PackError, match=r"house\.yaml"):
        build_registry([str(tmp_path)])
