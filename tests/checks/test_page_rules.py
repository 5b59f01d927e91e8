"""Page rules (H001-H010) beyond their case files: declarations, purity, packs, evidence, severities."""
from __future__ import annotations

import ast
import importlib
import inspect
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from citecheck.checks import (
    _match,
    _page,
    bot_challenge,
    http_error,
    non_html,
    paywall,
    redirect,
    soft_404,
    title_mismatch,
    unreachable,
)
from citecheck.checks._literals import Literals
from citecheck.engine.registry import build_registry
from citecheck.engine.run import Fetched
from citecheck.models import Hop, Link, Location, Outcome, Page
from citecheck.support import text as support_text

MODULES = ("http_error", "unreachable", "soft_404", "paywall", "login_wall", "bot_challenge", "title_mismatch",
           "redirect", "parked_domain", "non_html")
ALLOWED_IMPORTS = {"__future__", "bisect", "re", "typing", "collections.abc", "urllib.parse", "dataclasses", "functools", "unicodedata",
                   "rapidfuzz", "lxml", "citecheck.models", "citecheck.urls", "citecheck.checks._page",
                   "citecheck.checks._match", "citecheck.checks.bot_challenge",
                   "citecheck.checks._literals", "citecheck.checks._required", "ahocorasick_rs", "citecheck.support.text",
                   "citecheck.engine.run", "citecheck.support.shape",
                   "citecheck._util.netaddr"}  # a pure address parser (IP literal spellings), no sockets
REGISTRY = build_registry()


def options(rule_id: str, **extra: Any) -> dict[str, Any]:
    spec = REGISTRY.get(rule_id)
    assert spec is not None
    return {**spec.defaults, "pack": REGISTRY.packs.data.get(spec.pack, {}), **extra}


def page(url: str = "https://news.site-a.org/2024/05/grid-reliability-report", **facts: Any) -> Page:
    facts.setdefault("outcome", Outcome.OK)
    facts.setdefault("status", 200)
    return Page(url=url, final_url=facts.pop("final_url", url), **facts)


def fetched(p: Page, text: str = "") -> Fetched:
    return Fetched(Link(p.url, Location("memo.md", 3, 7), text=text), p)


@pytest.mark.parametrize("name", MODULES)
def test_rule_module_declares_itself(name: str) -> None:
    module = importlib.import_module(f"citecheck.checks.{name}")
    doc = inspect.getdoc(module) or ""
    assert module.STAGE == "page" and module.ID.startswith("H")
    assert "Failing example" in doc and "Passing example" in doc
    assert set(module.OPTIONS) == set(module.DEFAULTS), "every option documented, every documented option real"
    if hasattr(module, "PACK"):
        assert REGISTRY.packs.data.get(module.PACK), f"pack {module.PACK} is missing or empty"


@pytest.mark.parametrize("name", [*MODULES, "_page", "_match", "_literals", "_required"])
def test_rule_module_is_pure(name: str) -> None:
    """No network, disk, config or printing: only the listed imports, no open()/print() calls."""
    source = Path(importlib.import_module(f"citecheck.checks.{name}").__file__ or "").read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert imported <= ALLOWED_IMPORTS, imported - ALLOWED_IMPORTS
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert not calls & {"open", "print", "input", "exec", "eval"}


@pytest.mark.parametrize("title", ["404 Not Found", "Page not found", "Página no encontrada", "Page introuvable",
                                   "Seite nicht gefunden", "Página não encontrada", "Halaman tidak ditemukan",
                                   "页面不存在", "ページが見つかりません", "Error 404 (No se ha encontrado.)!!1"])
def test_soft404_title_alone_is_strong_in_every_language(title: str) -> None:
    hits = list(soft_404.check(fetched(page(title=title)), options("H003")))
    assert len(hits) == 1 and "title" in hits[0].message


@pytest.mark.parametrize("title", ["Flight 404 lands safely", "Error codes explained", "Not found: a memoir of exile"])
def test_soft404_title_near_misses_do_not_fire(title: str) -> None:
    assert not soft_404.content_signals(page(title=title, text_sample="x" * 2000), options("H003"),
                                       soft_404.prepare(options("H003")))


def test_soft404_lists_every_independent_signal_as_evidence() -> None:
    p = page(title="Page not found", final_url="https://news.site-a.org/",
             chain=(Hop("https://news.site-a.org/2024/05/grid-reliability-report", 301, "https://news.site-a.org/"),
                    Hop("https://news.site-a.org/", 200)))
    (hit,) = soft_404.check(fetched(p), options("H003"))
    assert "title 'Page not found'" in hit.evidence and "home page" in hit.evidence
    assert hit.location == Location("memo.md", 3, 7)


def test_soft404_one_weak_signal_is_not_enough() -> None:
    p = page(title="Grid reliability report 2024", final_url="https://news.site-a.org/2024/",
             chain=(Hop("https://news.site-a.org/2024/05/grid-reliability-report", 302, "/2024/"),
                    Hop("https://news.site-a.org/2024/", 200)))
    assert [name for name, _ in soft_404.signals(p, options("H003"))] == ["redirect-section"]
    assert not list(soft_404.check(fetched(p), options("H003")))


def test_soft404_weights_are_options() -> None:
    p = page(title="Grid", canonical="https://news.site-a.org/")
    assert list(soft_404.check(fetched(p), options("H003")))
    assert not list(soft_404.check(fetched(p), options("H003", weights={"canonical-root": 1})))


def test_sibling_signal_needs_a_200_sibling_and_enough_text() -> None:
    text = "Home Research Events About latest policy research and commentary " * 3
    same = page(text_sample=text, sibling_text=text, sibling_status=200)
    assert [n for n, _ in soft_404.sibling_signals(same, options("H003"))] == ["sibling-same"]
    assert not soft_404.sibling_signals(page(text_sample=text, sibling_text=text, sibling_status=404), options("H003"))
    assert not soft_404.sibling_signals(page(text_sample="", sibling_text="", sibling_status=200), options("H003"))


def test_sibling_similar_band_and_its_thresholds() -> None:
    from rapidfuzz import fuzz

    text = "Home Research Events About latest policy research and commentary " * 3
    near = text.replace("policy", "energy").replace("Events", "Panels")
    ratio = fuzz.ratio(text, near)
    assert 85 <= ratio < 97
    p = page(text_sample=text, sibling_text=near, sibling_status=200)
    assert [n for n, _ in soft_404.sibling_signals(p, options("H003"))] == ["sibling-similar"]
    assert f"{ratio:.0f}% similar" in soft_404.sibling_signals(p, options("H003"))[0][1]
    assert [n for n, _ in soft_404.sibling_signals(p, options("H003", sibling_same=ratio))] == ["sibling-same"]
    at_threshold = options("H003", sibling_similar=ratio)  # a ratio equal to the threshold counts
    assert [n for n, _ in soft_404.sibling_signals(p, at_threshold)] == ["sibling-similar"]
    assert not soft_404.sibling_signals(p, options("H003", sibling_similar=ratio + 1))
    far = page(text_sample=text, sibling_text="Page not found. " * 8, sibling_status=200)
    assert not soft_404.sibling_signals(far, options("H003"))


@pytest.mark.parametrize("rule", [soft_404, title_mismatch, paywall])
def test_text_rules_skip_non_html(rule: Any) -> None:
    pdf = page(content_type="application/pdf", title="404 Not Found", text_sample="Il vous reste 50% de cet article à lire")
    assert not list(rule.check(fetched(pdf, "Building agentic RAG pipelines"), options(rule.ID)))


def test_non_html_reports_type_and_size() -> None:
    (hit,) = non_html.check(fetched(page(content_type="application/pdf", content_length=1_234_567)), {})
    assert "application/pdf" in hit.message and "1.2 MB" in hit.message


def test_http_error_stays_quiet_on_challenges_and_blocks() -> None:
    challenge = page(status=503, outcome=Outcome.DEAD, error="server-error", title="Just a moment...")
    assert not list(http_error.check(fetched(challenge), options("H001")))
    for status in (401, 403, 429, 999):
        assert not http_error.dead_status(page(status=status, outcome=Outcome.DEAD), options("H001"))
    assert http_error.dead_status(page(status=410, outcome=Outcome.DEAD), options("H001")).startswith("HTTP 410")


def test_bot_challenge_is_unverifiable_and_never_dead() -> None:
    p = page(status=403, outcome=Outcome.UNVERIFIABLE, headers={"cf-mitigated": "challenge"})
    (hit,) = bot_challenge.check(fetched(p), options("H006"))
    assert "unverifiable" in hit.message and "cf-mitigated: challenge" in hit.evidence


def test_unreachable_severity_intent() -> None:
    nx = unreachable.classify(page(status=None, outcome=Outcome.DEAD, error="nxdomain"), options("H002"))
    slow = unreachable.classify(page(status=None, outcome=Outcome.UNVERIFIABLE, error="timeout"), options("H002"))
    assert nx is not None and nx[1] == "error" and "NXDOMAIN" in nx[0]
    assert slow is not None and slow[1] == "warning" and "unverifiable" in slow[0]


def test_redirect_permanent_move_carries_the_fix_and_cross_domain_is_info() -> None:
    moved = page(url="https://a-site.org/old", final_url="https://a-site.org/new",
                 chain=(Hop("https://a-site.org/old", 301, "https://a-site.org/new"), Hop("https://a-site.org/new", 200)))
    (hit,) = redirect.check(fetched(moved), options("H008"))
    assert hit.fix == "https://a-site.org/new"
    away = page(url="https://a-site.org/x", final_url="https://b-site.net/x",
                chain=(Hop("https://a-site.org/x", 302, "https://b-site.net/x"), Hop("https://b-site.net/x", 200)))
    result = redirect.classify(away, options("H008"))
    assert result is not None and result[3] == "info"


@pytest.mark.parametrize("text", ["here", "source", "[1]", "1", "aquí", "こちら", "https://aws.amazon.com/x"])
def test_title_mismatch_ignores_generic_link_text(text: str) -> None:
    link = Link("https://news.site-a.org/item/42", Location("m.md"), text=text)
    assert title_mismatch.wanted_sets(link, options("H007")) == []


def test_title_mismatch_fabricated_aws_slug_lands_on_unrelated_page() -> None:
    url = "https://aws.amazon.com/blogs/machine-learning/fabricated-slug-building-agentic-rag-pipelines/"
    for title in ("404 Not Found", "AWS Machine Learning Blog"):
        (hit,) = title_mismatch.check(fetched(page(url=url, title=title), "here"), options("H007"))
        assert hit.evidence == title


# The shared helpers' shortcuts must give exactly what the plain computation gives.

def test_literals_find_exactly_the_literals_the_text_contains() -> None:
    rng = random.Random(7)
    alphabet = "ab c.\u00e9\u9875\u9762\U0001f600\u0301-"
    packs = [Literals("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4))) for _ in range(12))
             for _ in range(5)]
    for round_ in range(400):
        literals = packs[round_ % len(packs)]
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        assert literals.found_in(text) == {x for x in literals.literals if x in text}
    assert Literals(["", "aa"]).found_in("aaa") == {"aa"}  # overlapping matches; '' is never found
    copy = pickle.loads(pickle.dumps(packs[0]))  # prepared values travel to worker processes
    assert copy.literals == packs[0].literals and copy.found_in("ab c.") == packs[0].found_in("ab c.")


def test_fold_of_ascii_text_is_the_plain_split_and_casefold() -> None:
    spaces = {c for c in map(chr, range(128)) if f"a{c}b".split() != [f"a{c}b"]}
    assert spaces == {c for c in map(chr, range(128)) if support_text._ASCII_SPACE[ord(c)] == ord(" ")}
    rng = random.Random(3)
    for _ in range(2000):
        text = "".join(rng.choice([*spaces, "A", "b", "Z", "\x00", "\x7f", ".", "  "]) for _ in range(rng.randint(0, 30)))
        assert _page.fold(text) == " ".join(text.split()).casefold()


@pytest.mark.parametrize("h1", ["<h1>Not Found</h1>", "<H1 class=\"a b\" id='t'>\n  Grid   report\t</H1>",
                                "<h1 data-x=y>caf\u00e9 \u9875\u9762 \U0001f600</h1>", "<h1 title=\"a>b\">x</h1>",
                                "<h1>a &amp; b</h1>", "<h1>a <b>bold</b> c</h1>", "<h1 a=b/>x</h1>", "<h1>a\x0bb</h1>",
                                "<h1>\x85\u2028\xa0</h1>", "<h1 a='\"' b=\"'\">q</h1>", "<h1 hidden>x</h1>"])
def test_headline_without_a_parse_is_what_lxml_reads(h1: str) -> None:
    from lxml import etree, html

    try:
        expected = " ".join(html.fragment_fromstring(h1).text_content().split())[:300]
    except (etree.ParserError, ValueError):
        expected = ""
    assert _match._headline(f"<body>{h1}<p>after</p>") == expected


def test_no_character_is_both_letter_and_digit() -> None:
    """`_is_id` skips its digit scan on all-letter tokens; that is exact only while this holds."""
    assert not [c for c in map(chr, range(0x110000)) if c.isalpha() and c.isdigit()]
    assert _match._is_id("v2") and _match._is_id("x" * 25) and not _match._is_id("caf\u00e9")


def test_memoised_url_helpers_hand_out_fresh_lists() -> None:
    url = "https://news.site-a.org/en/2024/grid-reliability-report-for-texas"
    _match.slug_words(url).append("mutated")
    _page.path_segments(url).append("mutated")
    assert _match.slug_words(url) == ["grid", "reliability", "report", "for", "texas"]
    assert _page.path_segments(url) == ["2024", "grid-reliability-report-for-texas"]
