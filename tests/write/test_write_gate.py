"""The write gate, piece by piece: footnotes, the citation list, unknown IDs, removal, hybrid, findings."""
from __future__ import annotations

import time
from collections import Counter

import pytest

from citecheck.config import Config
from citecheck.engine.registry import build_registry
from citecheck.extract.corpus import build_corpus
from citecheck.extract.markdown import extract_markdown
from citecheck.models import Corpus
from citecheck.urltext.citations import SENTINEL, split_block
from citecheck.urltext.corpusindex import CorpusIndex
from citecheck.write import transform, write

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

RECORDS = [
    {"id": "src-001", "url": "https://www.sec.gov/Archives/edgar/data/1318605/", "title": "Acme 10-K [2024] *final*",
     "fetched_at": "2026-11-20T09:00:00Z"},
    {"id": "src-002", "url": "https://www.reuters.com/acme-q3", "canonical_url": "https://reuters.com/acme-q3",
     "title": "Acme Q3 (see reuters.com/more)", "fetched_at": "2026-11-21"},
    {"id": "src-003", "url": "ftp://files.example.org/acme.pdf", "title": "", "fetched_at": "yesterday"},
]
CORPUS: Corpus = build_corpus("corpus.json", RECORDS, [1, 2, 3])
INDEX = CorpusIndex(CORPUS)
REGISTRY = build_registry()
CONFIG = Config(ignore=("M008",))


def body(text: str, **kw: bool) -> str:
    """The memo without its citation list."""
    out = transform(text, INDEX, **kw).text
    return out[:split_block(out).start].rstrip("\n")


def listing(text: str, **kw: bool) -> list[str]:
    out = transform(text, INDEX, **kw).text
    return out[split_block(out).start:].splitlines()[1:]


# -- footnotes and the citation list ------------------------------------------------------------------------------

@pytest.mark.parametrize(("draft", "expected"), [
    ("A [src-001]. B [src-002].", "A [^1]. B [^2]."),
    ("A [src-002]. B [src-001]. C [src-002].", "A [^1]. B [^2]. C [^1]."),
    ("A [src-001, src-002].", "A [^1][^2]."),
    ("A [src-001; src-002].", "A [^1][^2]."),
    ("A [src-002][src-001].", "A [^1][^2]."),
    ("A [src-001][src-001] and [src-001, src-001].", "A [^1] and [^1]."),
    ("A [SRC-001].", "A [^1]."),
    ("Code `[src-001]` stays; prose [src-002] does not.", "Code `[src-001]` stays; prose [^1] does not."),
    ("Mine[^1] and [src-001].\n\n[^1]: My note.", "Mine[^1] and [^2].\n\n[^1]: My note."),
])
def test_citations_become_footnotes_numbered_by_first_use(draft: str, expected: str) -> None:
    assert body(draft) == expected


def test_citation_list_is_built_from_the_corpus() -> None:
    out = transform("A [src-001]. B [src-002]. C [src-003].", INDEX).text
    assert out.endswith("\n")
    assert f"\n\n{SENTINEL}\n" in out
    assert listing("A [src-001]. B [src-002]. C [src-003].") == [
        ("[^1]: Acme 10-K \\[2024\\] \\*final\\*. <https://www.sec.gov/Archives/edgar/data/1318605/> "
         "(accessed 2026-11-20; src-001)"),
        "[^2]: Acme Q3 (see \\[link removed\\]). <https://www.reuters.com/acme-q3> (accessed 2026-11-21; src-002)",
        "[^3]: Untitled source. (src-003)",  # no http(s) URL, no date: neither is printed
    ]


def test_no_citations_no_list() -> None:
    assert transform("Nothing cited here.\n", INDEX).text == "Nothing cited here.\n"


# -- unknown IDs --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("draft", "expected"), [
    ("Revenue doubled [src-404].", 'Revenue doubled <needs-source claim="Revenue doubled"/>.'),
    ("First. Revenue doubled. [src-404]", 'First. Revenue doubled. <needs-source claim="Revenue doubled."/>'),
    ("[src-404] says revenue doubled.", '<needs-source claim="says revenue doubled."/> says revenue doubled.'),
    ('Margins "rose" & <b>fell</b> [src-404].',
     'Margins "rose" & <b>fell</b> <needs-source claim="Margins &quot;rose&quot; &amp; fell"/>.'),
    ("Both [src-001, src-404].", 'Both [^1]<needs-source claim="Both"/>.'),
    ("# Heading\n\n- item with a claim [src-404]",
     '# Heading\n\n- item with a claim <needs-source claim="item with a claim"/>'),
])
def test_unknown_ids_become_needs_source_with_the_claim(draft: str, expected: str) -> None:
    assert body(draft) == expected


def test_unknown_id_is_never_silently_dropped() -> None:
    out = transform("X [src-404]. Y [src-405, src-406].", INDEX)
    assert out.unknown_ids == ("src-404", "src-405", "src-406")
    assert out.text.count("<needs-source claim=") == 2


def test_claim_never_carries_a_url() -> None:
    out = body("See evil.com/x and https://evil.org/y now [src-404].")
    claim = out.split('claim="')[1].split('"')[0]
    assert "evil" not in claim and claim.startswith("See")


# -- strict removal -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("draft", "expected"), [
    ("[text](https://evil.com/x)", 'text<needs-source reason="uncorpused-url"/>'),
    ("![alt](https://evil.com/i.png)", 'alt<needs-source reason="uncorpused-url"/>'),
    ("<https://evil.com/x>", '<needs-source reason="uncorpused-url"/>'),
    ('<a href="https://evil.com">text</a>', 'text<needs-source reason="uncorpused-url"/>'),
    ("[r][x]\n\n[x]: https://evil.com/r",
     'r<needs-source reason="uncorpused-url"/>\n\n<needs-source reason="uncorpused-url"/>'),
    ("see https://evil.com/x.", 'see <needs-source reason="uncorpused-url"/>.'),
    ("see evil.com/x", 'see <needs-source reason="uncorpused-url"/>'),
    ("see [a](#anchor)", "see [a](#anchor)"),
    ("cite https://www.sec.gov/Archives/edgar/data/1318605", 'cite <needs-source reason="url-instead-of-id"/>'),
])
def test_strict_removes_every_url_keeping_link_text(draft: str, expected: str) -> None:
    assert body(draft) == expected


def test_no_strict_reports_but_keeps_urls() -> None:
    result = write("See [x](https://evil.com/x) [src-001].", CORPUS, strict=False, config=CONFIG, registry=REGISTRY)
    assert "https://evil.com/x" in result.text and "[^1]" in result.text
    assert [f.rule for f in result.findings if f.rule == "M009"] == ["M009"]


# -- hybrid -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("draft", "expected"), [
    ("[the 10-K](https://sec.gov/Archives/edgar/data/1318605)", "the 10-K[^1]"),
    ("See https://www.sec.gov/Archives/edgar/data/1318605/?utm_source=x.", "See [^1]."),
    ("See <https://reuters.com/acme-q3>", "See [^1]"),
    ('<a href="http://www.reuters.com/acme-q3/">Q3</a>', "Q3[^1]"),
    ("[a][r]\n\n[r]: https://www.reuters.com/acme-q3", "a[^1]"),
    ("[x](https://evil.com/x)", 'x<needs-source reason="uncorpused-url"/>'),
    ("`https://reuters.com/acme-q3`", '`<needs-source reason="url-instead-of-id"/>`'),
])
def test_hybrid_turns_corpus_urls_into_footnotes(draft: str, expected: str) -> None:
    assert body(draft, hybrid=True) == expected


def test_hybrid_footnote_shares_the_number_of_the_id() -> None:
    assert body("A [src-002]. B https://reuters.com/acme-q3.", hybrid=True) == "A [^1]. B [^1]."


# -- idempotence --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("hybrid", [False, True])
def test_write_on_its_own_output_changes_nothing(hybrid: bool) -> None:
    draft = ("# Memo\n\nA [src-002]. B [src-001, src-404]. C [x](https://evil.com).\n\nMine[^1]\n\n"
             "[^1]: Note.\n")
    once = transform(draft, INDEX, hybrid=hybrid).text
    assert transform(once, INDEX, hybrid=hybrid).text == once
    assert once.count(SENTINEL) == 1


def test_a_forged_citation_list_is_rebuilt_from_the_corpus() -> None:
    forged = f"A [^1].\n\n{SENTINEL}\n[^1]: Evil. <https://evil.com/x> (accessed 2026-01-01; src-001)\n"
    out = transform(forged, INDEX)
    assert "evil.com" not in out.text
    assert "[^1]: Acme 10-K" in out.text
    assert [v.url for v in out.violations] == ["https://evil.com/x"]


def test_trailing_text_after_a_sentinel_is_not_a_citation_list() -> None:
    text = f"A [src-001].\n\n{SENTINEL}\nnot an entry\n"
    assert split_block(text).start == len(text)


# -- findings -----------------------------------------------------------------------------------------------------

def test_findings_point_at_the_draft() -> None:
    draft = "# Memo\n\nRevenue [src-404].\nSee [x](https://evil.com/x) and `www.evil.org`.\n"
    result = write(draft, CORPUS, path="draft.md", config=CONFIG, registry=REGISTRY)
    got = [(f.rule, f.line, f.column, f.url) for f in result.findings if f.rule in ("M006", "M009")]
    assert got == [("M006", 3, 10, ""), ("M009", 4, 9, "https://evil.com/x"), ("M009", 4, 34, "www.evil.org")]
    assert all(f.path == "draft.md" for f in result.findings)


def test_contract_rules_run_even_when_deselected() -> None:
    config = Config(select=("U001",), ignore=("M009", "M006"))
    result = write("X [src-404] https://evil.com/x", CORPUS, config=config, registry=REGISTRY)
    assert Counter(f.rule for f in result.findings) == {"M006": 1, "M009": 1}


def test_m007_is_superseded_in_write() -> None:
    result = write("See [x](https://evil.com/x).", CORPUS, config=Config(), registry=REGISTRY)
    assert "M007" not in {f.rule for f in result.findings}


def test_clean_draft_has_no_contract_findings() -> None:
    result = write("# Memo\n\nAcme filed its 10-K [src-001].\n", CORPUS, config=CONFIG, registry=REGISTRY)
    assert [f for f in result.findings if f.severity.value == "error"] == []
    assert result.citations == (("1", "src-001"),)


@pytest.mark.parametrize("directive", [
    '<!-- citecheck: disable=M006,M009 reason="quoted from the incident report" -->',
    '<!-- citecheck: disable=all reason="reviewed" -->',
    '<!-- citecheck: disable-file=M006,M009 reason="reviewed" until=2999-01-01 -->',
    '<!--citecheck:disable=M009 reason="x"-->', '<!-- CITECHECK : disable=M009 reason="x" --!>',
    '<!-<!-- citecheck: x -->- citecheck: disable=M009 reason="joined" -->',
])
def test_a_draft_directive_never_suppresses_and_never_reaches_the_memo(directive: str) -> None:
    """Issue 26, failure 1: a draft's `disable=M006,M009` made write exit 0 and was copied into the memo."""
    draft = f"# Memo\n\n{directive}\nGrowth was 40% [src-999], see https://fabricated-stats.com/report.\n"
    result = write(draft, CORPUS, config=CONFIG, registry=REGISTRY)
    assert {"M006", "M009"} <= {f.rule for f in result.findings} and result.suppressed == []
    assert "citecheck:" not in result.text.replace("citecheck-citations:", "") and "fabricated-stats" not in result.text
    assert result.directives_removed >= 1
    assert extract_markdown("memo.md", result.text).directives == ()


# -- hostile shapes stay linear -------------------------------------------------------------------------------------

@pytest.mark.parametrize("draft", [
    "[" * 50_000, "[a\n" * 20_000, "`" + " ``" * 20_000, "[x](" * 20_000, '[x](y "' * 20_000, "[" * 2000 + "]" * 2000,
], ids=["open-brackets", "open-brackets-lines", "unmatched-backticks", "open-links", "open-titles", "deep-nesting"])
def test_hostile_shapes_do_not_go_quadratic(draft: str) -> None:
    started = time.process_time()
    transform(draft, INDEX)
    assert time.process_time() - started < 5, "these took minutes before the one-pass bracket and backtick scans"
