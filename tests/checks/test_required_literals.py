"""`required_literals` is sound: every match of a pattern contains one of the literals it names.

The page packs' pre-filter never tries an item none of whose literals occurs in the text, so an
unsound answer would silently hide a wall, a soft-404 or a login page. Checked three ways: named
cases, random patterns from a small grammar against random texts, and every regex item of the
shipped packs against strings hypothesis generates to match it.
"""
from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecheck.checks import _page
from citecheck.checks._required import required_literals
from citecheck.engine.packs import builtin_dir

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop


@pytest.mark.parametrize(("regex", "expected"), [
    ("page not found", {"page not found"}),
    (r"(log|sign) ?in", {"log", "sign"}),
    (r"^(un momento|un instant|einen moment)[.…]*$", {"un momento", "un instant", "einen moment"}),
    (r"create (a |an )?(free )?account", {"account"}),  # "create " is shorter than "account"
    (r"(该|此)域名(正在)?出售", {"域名"}),  # two CJK characters are enough
    (r"abc|de", set()),  # an alternative without a literal long enough: nothing is required
    (r"abc|def", {"abc", "def"}),
    (r"(abc)?def", {"def"}),
    (r"x(abc)*y", set()),
    (r"(abc)+", {"abc"}),
    (r"ab+cde", {"cde"}),  # "ab" is too short, and "abcde" is not required ("abbcde")
    (r"abcx{2,5}yz", {"abcx"}),
    (r"abc{0,1}d", set()),
    (r"abcd{,3}e", {"abc"}),
    (r"a\.b\-c", {"a.b-c"}),
    (r"abc\d+def", {"abc"}),  # the first of two equal candidates is kept
    (r"(?=abc)xyz", {"xyz"}),  # a lookaround consumes nothing and requires nothing here
    (r"(?i)abc", set()),  # inline flags are not modelled
    (r"(a)\1bcd", set()),  # nor back-references
    (r"[abc]{3}def", {"def"}),
    (r"[]x]yzw", {"yzw"}),
    (r"(?P<name>abc|abd)e", {"abc", "abd"}),
    (r"x{y}zz", {"x{y}zz"}),  # `{y}` is not a repetition count: read as literal characters
])
def test_named_cases(regex: str, expected: set[str]) -> None:
    assert set(required_literals(regex)) == expected


_ATOMS = ["a", "b", "c", "ab", "abc", "bca", "cab", r"\d", "[ab]", ".", r"\b", "^", "$", " "]


def _pattern() -> st.SearchStrategy[str]:
    atom = st.sampled_from(_ATOMS)
    quantified = st.tuples(atom, st.sampled_from(["", "", "", "?", "*", "+", "{2}", "{0,2}", "{1,}"])).map("".join)
    return st.recursive(
        st.lists(quantified, min_size=1, max_size=5).map("".join),
        lambda inner: st.one_of(
            st.lists(inner, min_size=2, max_size=3).map("|".join),
            st.tuples(inner, st.sampled_from(["", "?", "+", "*"])).map(lambda t: f"({t[0]}){t[1]}"),
            st.tuples(inner, inner).map("".join),
        ),
        max_leaves=8,
    )


@settings(max_examples=800, suppress_health_check=[HealthCheck.too_slow])
@given(_pattern(), st.text(alphabet="abc 1", max_size=24))
def test_every_match_of_a_random_pattern_contains_a_named_literal(regex: str, text: str) -> None:
    try:
        compiled = re.compile(regex)
    except re.error:
        return
    literals = required_literals(regex)
    if literals and compiled.search(text):
        assert any(x in text for x in literals), (regex, text, literals)


def _pack_regexes() -> list[str]:
    """Every string that a shipped pack lists under a key some page rule compiles as a regex list."""
    found: list[str] = []
    for entry in builtin_dir().iterdir():  # the one way citecheck finds its packs (installed or a checkout)
        if entry.name.endswith(".yaml"):
            _strings(yaml.safe_load(entry.read_text(encoding="utf-8")), found)
    return [x for x in found if required_literals(x)]


def _strings(node: object, found: list[str]) -> None:
    if isinstance(node, dict):
        for value in node.values():
            _strings(value, found)
    elif isinstance(node, list):
        for value in node:
            _strings(value, found)
    elif isinstance(node, str):
        found.append(node)


def _compiled(regex: str) -> re.Pattern[str] | None:
    try:
        return re.compile(regex, re.IGNORECASE)
    except re.error:
        return None  # a non-regex list's entry (a plain phrase with a bracket, say)


_PACK_REGEXES = [(x, c) for x in _pack_regexes() if (c := _compiled(x)) is not None]
_MATCHING = {x: st.from_regex(c, fullmatch=False) for x, c in _PACK_REGEXES}  # built once, not per example


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_every_match_of_a_shipped_pack_item_contains_one_of_its_folded_literals(data: st.DataObject) -> None:
    regex, compiled = data.draw(st.sampled_from(_PACK_REGEXES))
    text = _page.fold(data.draw(_MATCHING[regex]))
    if compiled.search(text):  # folding can break a match (it collapses spaces): then nothing to check
        assert any(_page.fold(x) in text for x in required_literals(regex)), (regex, text)


def test_the_shipped_packs_leave_few_items_without_a_literal() -> None:
    """The reason for the literal sets: on 5,000 pages, items without one were 60% of the page stage's CPU."""
    assert len(_PACK_REGEXES) > 600
