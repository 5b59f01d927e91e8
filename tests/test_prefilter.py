"""The literal prefilter only ever skips work: whenever a pattern matches a text, one of its
required literals occurs in the case-folded text (checks/_prefilter.py)."""
from __future__ import annotations

import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from citecheck.checks._prefilter import may_match, required_literals
from citecheck.checks.hallucination_pattern import hallucination_signals
from citecheck.engine.packs import load_packs

ALPHABET = "ab/:X."
literal = st.text(alphabet=ALPHABET, min_size=1, max_size=3)
atom = st.one_of(
    literal.map(re.escape),
    st.sampled_from((r"[a-z]", r"\w*", r"\d", r".", r"[/:]", r"\b", r"^", r"$", r"\B")),
    literal.map(lambda x: f"(?<={re.escape(x)})"), literal.map(lambda x: f"(?<!{re.escape(x)})"),
    literal.map(lambda x: f"(?={re.escape(x)})"), literal.map(lambda x: f"(?!{re.escape(x)})"),
)


@st.composite
def patterns(draw: st.DrawFn) -> str:
    parts = draw(st.lists(atom, min_size=1, max_size=6))
    if draw(st.booleans()):
        cut = draw(st.integers(0, len(parts)))
        parts = [*parts[:cut], "(?:" + "|".join(draw(st.lists(literal.map(re.escape), min_size=1, max_size=3))) + ")",
                 *parts[cut:]]
    if draw(st.booleans()):
        at = draw(st.integers(0, len(parts) - 1))
        parts[at] = f"(?:{parts[at]}){draw(st.sampled_from(('?', '*', '+', '{2}', '{0,2}')))}"
    return ("(?i)" if draw(st.booleans()) else "") + "".join(parts)


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(patterns(), st.lists(st.text(alphabet=ALPHABET + "x1 ", max_size=12), min_size=1, max_size=4))
@example("(?<=/):[A-Za-z_]\\w*", ["host:8080/x", "/users/:id/"])
@example("ab\\bcd", ["ab cd", "abcd"])
@example("(?=ab)a", ["ab"])  # a lookahead names what follows, not what precedes
def test_a_match_always_holds_a_required_literal(pattern: str, texts: list[str]) -> None:
    try:
        compiled = re.compile(pattern)
    except re.error:
        return
    literals = required_literals(pattern)
    for text in texts:
        if compiled.search(text):
            assert may_match(literals, text.casefold()), (pattern, text, literals)


def test_a_literal_lookbehind_joins_the_literal_after_it() -> None:
    assert required_literals(r"(?<=/):[A-Za-z_]\w*(?=[/?#]|$)") == {"/:"}
    assert required_literals(r"(?<=/)XX(?=[/?#.-]|$)") == {"/xx"}
    assert required_literals(r"\d(?<=5)x") == {"5x"}
    assert required_literals(r"(?<![a-z])insert") == {"insert"}


def test_a_port_no_longer_defeats_the_prefilter_and_template_tokens_still_fire() -> None:
    import datetime as dt

    pack = load_packs().data["placeholder"]
    today = dt.date(2026, 11, 29)
    assert hallucination_signals("http://127.0.0.1:18085/economy/census-240891", pack, today) == []
    assert hallucination_signals("http://wiki.corp:8080/users/:id/profile", pack, today) == ["template token ':id'"]
