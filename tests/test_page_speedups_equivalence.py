"""Shortcuts of the page stage against the general paths they replaced (the oracles).

- `visible_text` collapses each text chunk's whitespace in C passes over bytes and stops once the
  join holds `limit` characters; the oracle splits every chunk into words and joins them all.
- `Phrases.first` tries only the regex items whose required literal the text holds (and one joined
  search for the others on short texts); `every_item` searches every item of the list.

The visible-text oracle is the replaced code, verbatim but for the renames; do not "fix" it.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from lxml import etree

from citecheck.checks import _page
from citecheck.config import load_config
from citecheck.engine.registry import build_registry
from citecheck.engine.select import resolve
from citecheck.fetch.parse import _DROP, _DROP_SET, TEXT_MAX, _document, visible_text
from citecheck.support.text import collapse_spaces

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---- oracles: the code the shortcuts replaced ----

def oracle_visible_text(root: etree._Element, limit: int = TEXT_MAX) -> str:
    body = root.find("body")
    start = body if body is not None else root
    if start.tag in _DROP_SET:
        return ""
    etree.strip_elements(start, *_DROP, with_tail=False)
    parts: list[str] = []
    size = 0
    for chunk in start.itertext():
        words = str(chunk[: limit * 2]).split()
        if words:
            parts.extend(words)
            size += len(chunk)
            if size > limit:
                break
    return " ".join(parts)[:limit]


def every_item(folded: str, spec: _page.Phrases) -> str:
    """Every item of the list searched in the whole text: the leftmost match, the earlier item on a tie."""
    best: re.Match[str] | None = None
    best_key = (0, 0)
    for position, item in enumerate(spec.items):
        pattern = _page._pattern((item,), True)
        found = pattern.search(folded) if pattern is not None else None
        if found and (best is None or (found.start(), position) < best_key):
            best, best_key = found, (found.start(), position)
    return best.group(0) if best else ""
# ---- visible text ----

SPACES = "".join(c for c in map(chr, range(128)) if f"a{c}b".split() != [f"a{c}b"]) + "\x85\xa0\u2028\u3000"
chunk_text = st.text(alphabet=SPACES + "ab.\u00e9\u6f22", max_size=40) | st.sampled_from(
    ["  ", "\n" * 9, " " * 33, "x" * 50 + " " * 7, "word " * 400, "\t \x1c\x1f" * 30])


@st.composite
def html_documents(draw: st.DrawFn) -> str:
    tags = st.sampled_from(["p", "div", "b", "script", "style", "head", "body", "template", "svg", "li", "h1"])
    parts = []
    for _ in range(draw(st.integers(0, 30))):
        tag = draw(tags)
        parts.append(f"<{tag}>{draw(chunk_text)}</{tag}>" if draw(st.booleans()) else draw(chunk_text))
    return "<html>" + "".join(parts) + draw(st.sampled_from(["", "</body>", "</html>"]))


def test_collapse_spaces_is_split_and_join() -> None:
    for text in ["", " ", "a", " a  b\t\nc ", SPACES, "x" + SPACES * 40 + "y", "\u00e9 \u3000 x", "\x00 \x7f"]:
        assert collapse_spaces(text) == " ".join(text.split())


@SETTINGS
@given(chunk_text)
def test_collapse_spaces_matches_split_on_generated_text(text: str) -> None:
    assert collapse_spaces(text) == " ".join(text.split())


@SETTINGS
@given(html_documents(), st.sampled_from([1, 7, 60, TEXT_MAX]))
@example("<html><body>" + "<p>" + "word " * 3000 + "</p>" * 3, TEXT_MAX)
@example("<html><body>" + ("<p>" + " " * 20_000 + "late</p>") * 2, 50)
def test_visible_text_matches_oracle(markup: str, limit: int) -> None:
    ours, theirs = _document(markup), _document(markup)
    if ours is None or theirs is None:
        assert ours is theirs
        return
    assert visible_text(ours, limit) == oracle_visible_text(theirs, limit)


# ---- regex items skipped when their literal is absent ----

def _page_packs() -> list[_page.Phrases]:
    config = load_config()
    specs = []
    for rule in resolve(build_registry(config.packs), config):
        if rule.spec.stage != "page":
            continue
        for value in rule.options.get("pack", {}).values():
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                specs.append(_page.Phrases(value))
    return specs


PACKS = _page_packs()
SYNTHETIC = _page.Phrases([r"(the rest of )?this (article|story) is (only )?for subscribers", r"abc\d{0,3}x",
                            r"(?<!q)login( now)?", r"^\W*sign in", r"error \S+ page", r"wall$", r"(a|b)c{2,4}wall"])
words = st.sampled_from(["the rest of", "this article is", "for subscribers", "subscribe", "sign in", "login",
                         "now", "page", "not found", "404", "error", "abc12x", "qlogin", "wall", "bccwall",
                         "to continue reading", "\u00e9", "\u0131", "   "])


@pytest.mark.parametrize("spec", [*PACKS, SYNTHETIC], ids=lambda s: s.items[0][:24])
@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(words | st.text(alphabet="abcdefghilnorstu .,'", max_size=8), max_size=200))
def test_first_regex_matches_oracle(spec: _page.Phrases, pieces: list[str]) -> None:
    folded = _page.fold(" ".join(pieces))
    assert spec.first(folded) == every_item(folded, spec)
