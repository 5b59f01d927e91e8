"""Linear work, bounded memory: adversarial inputs grown 2x, 4x and 8x cost at most proportionally more.

The work is counted, not timed: every Python and C function call made while extracting (a
`sys.setprofile` hook), so a loop that rescans what it already saw shows up as calls growing with
the square of the input whatever the machine's load. Memory is tracemalloc's peak. Each case is
one of the issue's findings (many links in one paragraph, runs of unmatched `[` in `write`,
backtick pairs, deep nesting) or a loader's hostile input.
"""
from __future__ import annotations

import json
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

from citecheck._util.safeload import load_yaml
from citecheck.extract.corpus import build_corpus, load_corpus_text
from citecheck.extract.html import extract_html
from citecheck.extract.markdown import extract_markdown
from citecheck.extract.mdinline import scan_inline
from citecheck.extract.mdparse import build_parser
from citecheck.support.claims import cited_claims
from citecheck.support.text import clean_claim
from citecheck.urltext.corpusindex import CorpusIndex
from citecheck.write.claims import clean
from citecheck.write.gate import transform, write

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

SIZES = (1, 2, 4, 8)
SLACK = 1.25  # constant costs (imports warmed, parser set-up) make small inputs relatively dearer
INDEX = CorpusIndex(None)
CORPUS = build_corpus("c.json", [{"id": "src-001", "url": "https://a.org/x", "title": "Freight"}], [1])


def calls(run: Callable[[], Any]) -> int:
    """The calls `run` makes, with the URL helpers' memos emptied first: what an earlier test or a
    smaller size already keyed would otherwise be free here and not in the next size."""
    from citecheck import urls

    urls.clear_memos()
    count = 0

    def hook(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(hook)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


def peak(run: Callable[[], Any]) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def assert_linear(costs: list[int], what: str) -> None:
    base = costs[0]
    for size, cost in zip(SIZES, costs, strict=True):
        assert cost <= base * size * SLACK, f"{what}: {costs} for sizes {SIZES} (x{size}: {cost / base:.2f})"


def _md(text: str) -> Callable[[], Any]:
    return lambda: extract_markdown("memo.md", text)


def _runs(clean_text: Callable[[str], Any], shape: str) -> Callable[[int], Callable[[], Any]]:
    return lambda n: lambda: clean_text(shape * (4000 * n))


def cpu(run: Callable[[], Any]) -> float:
    """The least CPU time of three runs of `run` (this process only: other processes' load aside)."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


# A backtracking regex is one C call whatever it costs, so the calls hook cannot see it: these count
# this process's CPU time at 1x and 8x instead. Quadratic work is 64x at 8x, linear 8x; the bound
# is 24x plus 50 ms (a base run of ~0.1 ms would otherwise be all noise).
REGEX_CASES: dict[str, Callable[[int], Callable[[], Any]]] = {
    # issue 26 item 12: M008's claim cleaning was quadratic in runs of `[` (write with 40k: 12-20 s)
    **{f"M008 claim cleaning: {shape!r} runs": _runs(clean_claim, shape) for shape in ("[", "[^", "<", "[a](", "![")},
    **{f"write's claim attribute: {shape!r} runs": _runs(clean, shape) for shape in ("[", "[^", "<", "[a](")},
    "M008 cited claims: [ runs": lambda n: (lambda doc: lambda: cited_claims(doc))(
        extract_markdown("m.md", "Freight grew [src-001]. " + "[" * (4000 * n) + " https://a.com/x [^1].\n")),
    "M008 cited claims: [^ runs": lambda n: (lambda doc: lambda: cited_claims(doc))(
        extract_markdown("m.md", "Freight grew [src-001]. " + "[^" * (4000 * n) + " https://a.com/x.\n")),
}


@pytest.mark.parametrize("case", sorted(REGEX_CASES))
def test_regex_work_grows_linearly(case: str) -> None:
    REGEX_CASES[case](1)()
    small, large = cpu(REGEX_CASES[case](1)), cpu(REGEX_CASES[case](8))
    assert large <= 24 * small + 0.05, f"{case}: {small * 1000:.1f} ms at 1x, {large * 1000:.1f} ms at 8x"


CASES: dict[str, Callable[[int], Callable[[], Any]]] = {
    "inline links in one paragraph": lambda n: _md(" ".join(f"[l{i}](https://a{i}.com/x)" for i in range(500 * n))),
    "bare URLs in one paragraph": lambda n: _md(" ".join(f"https://a{i}.com/x" for i in range(500 * n))),
    "autolinks and code spans": lambda n: _md(" ".join(f"<https://a{i}.com> `c{i}`" for i in range(300 * n))),
    "unmatched [ runs": lambda n: _md("[" * (1000 * n) + " https://a.com/x\n"),
    "emphasis runs": lambda n: _md("*_" * (2000 * n) + "https://a.com/x" + "_*" * (2000 * n)),
    "e-mail-ish words": lambda n: _md("a@" * (3000 * n) + "b.com"),
    "deep blockquotes": lambda n: _md(">" * (300 * n) + " [x](https://a.com/q)\n"),
    "deep lists": lambda n: _md("- " * (40 * n) + "[x](https://a.com/q)\n" + "  " * (40 * n) + "more\n"),
    "nested html": lambda n: _md("<div>" * (500 * n) + '<a href="https://a.com/h">x</a>' + "</div>" * (500 * n)),
    "html memo anchors": lambda n: lambda: extract_html("m.html", "<p>" + "".join(
        f'<a href="https://a{i}.com/">x{i}</a> ' for i in range(300 * n)) + "</p>"),
    "write: unmatched [ runs": lambda n: lambda: transform("[" * (1000 * n) + " text\n", INDEX),
    "write: many URLs in one paragraph": lambda n: lambda: transform(
        " ".join(f"see https://a{i}.com/x and [t](https://b{i}.org)" for i in range(100 * n)), INDEX),
    "write with M008: [ runs": lambda n: lambda: write("Freight grew [src-001]. " + "[" * (4000 * n) + " end.\n",
                                                         CORPUS),
    "markdown: paragraphs of [ runs": lambda n: _md(("[" * 500 + " x\n\n") * (8 * n)),
    "yaml: many aliases": lambda n: lambda: load_yaml(
        "base: &b {a: 1}\nlist:\n" + "".join("  - *b\n" for _ in range(1000 * n))),
    "json corpus": lambda n: lambda: load_corpus_text("c.json", json.dumps(
        [{"id": f"src-{i:03d}", "url": f"https://a{i}.com/", "title": "t" * 50} for i in range(300 * n)])),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_work_grows_linearly(case: str) -> None:
    CASES[case](1)()  # warm imports and caches
    assert_linear([calls(CASES[case](size)) for size in SIZES], case)


@pytest.mark.parametrize("shape", ["[", "[a", "[[]", "![", "[^", "[" * 60 + "x" + "]" * 60 + " "])
def test_pathological_brackets_cost_no_more_than_prose(shape: str) -> None:
    """markdown-it's link-label scan recursed into every nested `[` (up to its nesting limit): a 1 MB
    memo of `[` runs took 55-72 s, ~60 times prose with links. Its budget reads such a paragraph as
    text (E005): per character, no dearer than three times prose full of links."""
    size = 20_000
    prose = "see [a](https://a.com/x) and [b][r] or <https://c.org> `code` " * (size // 60)
    hostile = shape * (size // len(shape)) + " https://a.com/x"
    for text in (prose, hostile):
        extract_markdown("warm.md", text[:2000])
    per_char = calls(_md(hostile)) / len(hostile)
    assert per_char <= 3 * calls(_md(prose)) / len(prose), f"{shape!r}: {per_char:.1f} calls a character"
    assert extract_markdown("m.md", hostile).too_deep  # read as text, with the E005 warning


def test_each_inline_child_is_visited_a_bounded_number_of_times() -> None:
    """The calls hook cannot see a slice copied per link (`children[i + 1:]` was quadratic): count
    the children handed out instead."""
    md = build_parser()

    class Counted(list):  # type: ignore[type-arg]
        served = 0

        def __getitem__(self, key: Any) -> Any:
            item = super().__getitem__(key)
            Counted.served += len(item) if isinstance(key, slice) else 1
            return item

        def __iter__(self) -> Any:
            for item in super().__iter__():
                Counted.served += 1
                yield item

    served = []
    for size in SIZES:
        text = " ".join(f"[l{i}](https://a{i}.com/x)" for i in range(500 * size))
        token = next(t for t in md.parse(text, {}) if t.type == "inline")
        token.children = Counted(token.children or [])
        Counted.served = 0
        scan_inline(token, _Flat())
        served.append(Counted.served)
    assert_linear(served, "children served to scan_inline")


class _Flat:
    def position(self, offset: int) -> tuple[int, int]:
        return 1, offset + 1


@pytest.mark.parametrize("text, multiple", [
    ("`a` " * 262_144, 8),  # the backtick pairs: 1 MiB here (it was 230x the input)
    ("https://a.com/x " * 16_384, 60),
    ("see [x](https://a.com/x)\n\n" * 3_000, 700),  # small blocks: markdown-it's tokens dominate
], ids=["code spans", "bare URLs", "small blocks"])
def test_memory_is_a_bounded_multiple_of_the_input(text: str, multiple: int) -> None:
    used = peak(_md(text))
    assert used <= multiple * len(text), f"peak {used / len(text):.0f}x the input"


def test_memory_grows_linearly_with_small_blocks() -> None:
    assert_linear([peak(_md("- [x](https://a.com/x)\n" * (500 * size))) for size in SIZES], "list items")
