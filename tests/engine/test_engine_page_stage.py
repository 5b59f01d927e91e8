"""The page stage's fast paths held to their slow equivalents: the unrolled `Engine.check_pages` loop
against one `Engine._run` per (link, rule), the indexed and pre-filtered regex packs against trying
every item, and the memoised `match` against a fresh one."""
from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from citecheck.checks import _match, _page
from citecheck.engine.rule import RuleSpec
from citecheck.engine.run import Engine, Fetched
from citecheck.engine.select import ActiveRule
from citecheck.models import Hit, Link, Location, Outcome, Page, Severity


def _rule(rule_id: str, check: Any, **options: Any) -> ActiveRule:
    spec = RuleSpec(rule_id, f"rule-{rule_id.lower()}", "page", Severity.WARNING, "doc", check)
    return ActiveRule(spec, Severity.WARNING, options)


def _quiet(fetched: Fetched, options: Mapping[str, Any]) -> Iterator[Hit]:
    return iter(())


def _loud(fetched: Fetched, options: Mapping[str, Any]) -> Iterator[Hit]:
    yield Hit(f"seen {fetched.page.title}", fetched.link.location, fetched.link.url)
    yield Hit("twice", fetched.link.location, fetched.link.url)


def _half_then_crash(fetched: Fetched, options: Mapping[str, Any]) -> Iterator[Hit]:
    yield Hit("before the crash", fetched.link.location, fetched.link.url)
    raise KeyError("boom")


def _links() -> tuple[list[Link], dict[str, Page]]:
    links = [Link(f"https://example.org/{i}", Location("memo.md", i + 1, 1), text="t", section=f"s{i}",
                  in_code=i % 3 == 0) for i in range(9)]
    pages = {link.url: Page(url=link.url, final_url=link.url, outcome=Outcome.OK, status=200, title=f"p{i}")
             for i, link in enumerate(links) if i != 4}  # link 4 was not fetched: no page rule sees it
    return links, pages


def _one_run_per_pair(engine: Engine, links: list[Link], pages: dict[str, Page]) -> list[Any]:
    """What `check_pages` is the fast form of."""
    out = []
    for link in links:
        if link.url in pages:
            for rule in engine.by_stage["page"]:
                if not link.in_code or rule.options.get("code"):
                    out.extend(engine._run(rule, Fetched(link, pages[link.url]), "memo.md", link.section))
    return out


def test_check_pages_is_one_run_per_link_and_rule() -> None:
    rules = [_rule("H901", _loud), _rule("H902", _quiet, code=True), _rule("H903", _half_then_crash),
             _rule("H904", _loud, code=True)]
    links, pages = _links()
    fast, slow = Engine(rules), Engine(rules)
    assert fast.check_pages(links, pages, "memo.md") == _one_run_per_pair(slow, links, pages)
    assert fast.crashed and slow.crashed


def test_a_crashing_page_rule_becomes_e000_and_keeps_none_of_its_hits() -> None:
    links, pages = _links()
    engine = Engine([_rule("H903", _half_then_crash), _rule("H901", _loud)])
    found = engine.check_pages(links, pages, "memo.md")
    crashes = [f for f in found if f.rule == "E000"]
    assert len(crashes) == 5  # 8 fetched links, 3 of them in code (the rules have no `code` option)
    assert "rule H903 (rule-h903) crashed: KeyError" in crashes[0].message
    assert not any(f.message == "before the crash" for f in found)
    assert [f.rule for f in found[:3]] == ["E000", "H901", "H901"]  # the next rule still runs
    assert engine.crashed


def _slow_first_regex(text: str, items: list[str]) -> str:
    """Every item tried on the folded text: the leftmost match, the earlier item on a tie."""
    folded = _page.fold(text)
    best: re.Match[str] | None = None
    for item in items:
        pattern = _page._pattern((item,), True)
        found = pattern.search(folded) if pattern is not None else None
        if found and (best is None or found.start() < best.start()):
            best = found
    return best.group(0) if best else ""


_ITEMS = [r"^(log ?in|sign ?in)\b", r"\b(404|410)\W{0,3}(not found|page)", r"page not found",
          r"^\W*(oops|whoops)\W*$", r"not found", r"(该|此)域名(正在)?出售", r"\bsubscribe\b to (continue|read)",
          r"(a)\1b", r"x(?i:Y)z"]
_WORDS = ["login", "sign in", "404", "page", "not found", "oops", "!", "subscribe", "to continue", "该域名出售",
          "aab", "xyz", "xYz", "news", "   ", "Sign-In", "whoops"]


@pytest.mark.parametrize("seed", range(300))
def test_indexed_and_prefiltered_regex_pack_finds_what_trying_every_item_finds(seed: int) -> None:
    rng = random.Random(seed)
    items = rng.sample(_ITEMS, rng.randint(1, len(_ITEMS)))
    text = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(0, 12)))
    if seed % 7 == 0:
        text += " filler" * 80  # past the short-text pre-filter
    assert _page.find_phrase(text, tuple(items), regex=True) == _slow_first_regex(text, items)


def test_joined_prefilter_refuses_patterns_it_cannot_join_faithfully() -> None:
    compiled = [re.compile(p) for p in (r"(a)\1", r"b")]
    assert _page._any_of(compiled) is None  # a back-reference would point at another item's group
    assert _page._any_of([re.compile("a"), re.compile("b", re.IGNORECASE)]) is None
    joined = _page._any_of([re.compile(r"^a$"), re.compile(r"\bb")])
    assert joined is not None and joined.search("a") and joined.search("x b") and not joined.search("ab")


def test_memoised_match_is_a_fresh_match() -> None:
    page = Page(url="https://x.org/a", final_url="https://x.org/a", outcome=Outcome.OK, status=200,
                title="Grid reliability report", text_sample="The grid held up in the storm.")
    other = Page(url="https://x.org/a", final_url="https://x.org/a", outcome=Outcome.OK, status=200,
                 title="Unrelated", text_sample="Nothing to see.")
    for p in (page, other, page):
        fresh = _match.Match(("grid", "storm"), tuple(_match.title_candidates(p)), p.text_sample[:5000])
        memo = _match.match(["grid", "storm"], p)
        assert (memo.title_score, memo.best_title, memo.text_score, memo.wanted) == \
            (fresh.title_score, fresh.best_title, fresh.text_score, fresh.wanted)
