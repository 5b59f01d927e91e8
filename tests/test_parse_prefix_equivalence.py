"""parse_body's two-step parse and one-collapse text walk against verbatim copies of what they replaced.

`parse_body` now parses a long page's start first (`_prefix_facts`) and keeps those facts only when
they provably equal a whole parse's; `_visible` joins the text chunks and collapses them once. The
oracle below is the code before that change — parse_body and visible_text, verbatim but for the
renames; do not "fix" it. The helpers the change left alone (decode, the lxml parse, the head walk)
are the module's own: tests/test_fetch_parse_equivalence.py holds those to their own oracle.

The prefix path is exercised twice: with the real cut sizes on long generated pages, and with tiny
cut sizes, so that every fragment kind lands on, before and after the cut.
"""
from __future__ import annotations

import hashlib

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from lxml import etree

from citecheck.fetch import parse as P
from citecheck.fetch.parse import BodyFacts, _document, _head_facts, parse_body
from citecheck.fetch.parse import decode as _decode
from citecheck.fetch.parse import is_html as _is_html
from citecheck.support.text import collapse_spaces

TEXT_MAX = 6_000
HTML_MAX = 8 * 1024
PARSE_MAX = 1024 * 1024
_DROP = ("script", "style", "noscript", "template", "svg", "head", "iframe", "object")
_DROP_SET = frozenset(_DROP)


# ---- oracle: the functions the change replaced, verbatim but for the renames ----

def oracle_parse_body(body: bytes, content_type: str = "text/html") -> BodyFacts:
    """Facts of an HTML body; a non-HTML body gets only its hash."""
    digest = hashlib.sha256(body).hexdigest()
    if not body or not _is_html(content_type, body):
        return BodyFacts(content_hash=digest)
    text = _decode(body, content_type)
    root = _document(text[:PARSE_MAX])
    if root is None:
        return BodyFacts(content_hash=digest, html_sample=text[:HTML_MAX])
    title, canonical, meta = _head_facts(root)
    return BodyFacts(title=title, canonical=canonical, text_sample=oracle_visible_text(root),
                     html_sample=text[:HTML_MAX], content_hash=digest, meta=meta)


_LONG = 200  # characters; a shorter chunk (most are a link or a line break) is split faster


def oracle_visible_text(root: etree._Element, limit: int = TEXT_MAX) -> str:
    """Whitespace-collapsed text outside script/style/head, cut at `limit` characters.

    Drops the invisible subtrees first (keeping their tails), then walks the text once: linear in
    the document however deep it nests. Mutates `root`, so call it after the other extractions."""
    body = next(root.iterchildren("body"), None)  # root.find("body"), without ElementPath's overhead
    start = body if body is not None else root
    if start.tag in _DROP_SET:
        return ""
    etree.strip_elements(start, *_DROP, with_tail=False)
    pieces: list[str] = []
    size = joined = 0
    for chunk in start.itertext():
        text = str(chunk[: limit * 2])
        # its words joined by single spaces: for long runs of text without splitting out each word
        piece = collapse_spaces(text) if len(text) > _LONG else " ".join(text.split())
        if piece:
            pieces.append(piece)
            size += len(chunk)
            joined += len(piece) + 1
            if size > limit or joined > limit:  # the join already holds `limit` characters
                break
    return " ".join(pieces)[:limit]


# ---- generated pages: fragments of every kind before, around and after where a cut falls ----

WORDS = ("alpha", "beta", "caf\u00e9", "\u6f22\u5b57", "&amp;", "&lt;b&gt;", "&nbsp;", "x<y", "a < b", "\u00a0",
         "\u2028", "\x1c", "  \n\t ", "<b>bold</b>", "<i>it", "</i>", "</p>", "<br>")
FRAGMENTS = (
    "<title>Plain title</title>", "<TITLE>  Upper\n case  </TITLE>", "<title>unterminated title",
    "<title>a <b>tag</b> in the title</title>", "<title>a < b in the title</title>",
    '<script type="application/ld+json">{"isAccessibleForFree": false, "x": "<b>"}</script>',
    '<meta property="og:title" content="OG title">', '<META NAME="Description" CONTENT=" desc ">',
    '<mEtA name="late" content="mixed case">', '<link rel="canonical" href=" /canon ">', "<LINK REL=canonical HREF=/c>",
    '<link rel="stylesheet" href="/s.css">',
    '<script type="application/ld+json">{"@type": "NewsArticle", "isAccessibleForFree": false}</script>',
    '<script type="Application/LD+JSON">{"isAccessibleForFree": "True"}</script>',
    '<script type="application/ld+json">{"isAccessibleForFree": false, "x": "a < b',
    "<script>var s = '<p>not text</p>';</script>", "<script>if (a < b) {", "<style>p { color: red }</style>",
    "<style>p < q {", "<!-- comment <p> -->", "<!-- unterminated", "<noscript>no script</noscript>",
    "<svg><title>svg title</title><text>t</text></svg>", "<template><p>tpl</p></template>", "<iframe>frame</iframe>",
    "<textarea><p>raw</textarea>", "<textarea>open raw", "<div>", "</div>", "<ul><li>one<li>two</ul>",
    "<table><tr><td>cell</table>", "<p>", "<head>", "<body>", "<BODY class=x>", "</body>", "</html>",
    '<a href="x" title="<em>">', '<a title="unterminated', "<a href=x<b>", "<", "<?pi stuff?>",
    "<![CDATA[ cdata ]]>", "<plaintext>", "<xmp><p></xmp>", "\x00", "&", "<math><mi>x</mi></math>",
)
SENTENCE = "lorem ipsum dolor sit amet consectetur "
PARAGRAPH = "<p>" + SENTENCE * 18 + "</p>\n"
SPACES = "<p>" + " \n " * 300 + "</p>"  # raw size without words: the walk counts it, the text does not

fragment = st.one_of(st.sampled_from(FRAGMENTS), st.sampled_from(WORDS),
                     st.text(alphabet="ab <>/=&;'\"\n\t\u00e9", max_size=12))


@st.composite
def long_pages(draw: st.DrawFn) -> str:
    head = draw(st.lists(fragment, max_size=8))
    # half the bodies without markup that swallows the rest (<plaintext>, an open comment...)
    plain = st.sampled_from(WORDS) if draw(st.booleans()) else fragment
    body = draw(st.lists(st.one_of(plain, st.just(PARAGRAPH), st.just(SPACES)), max_size=30))
    filler = draw(st.integers(0, 90))  # up to ~63 KB: past the real cut and the saving it needs
    # after the cut: often only text, so that the two-step parse is taken, not just refused
    later = st.lists(fragment if draw(st.booleans()) else st.sampled_from(WORDS), max_size=6)
    middle = draw(later)
    more = draw(st.integers(0, 40))
    tail = draw(later)
    return ("".join(head) + "<body>" * draw(st.booleans()) + "".join(body) + PARAGRAPH * filler
            + "".join(middle) + PARAGRAPH * more + "".join(tail))


CONTENT_TYPES = st.sampled_from(("text/html", "text/html; charset=utf-8", "text/html; charset=ISO-8859-1",
                                 "text/html; charset=utf-16", ""))


@st.composite
def bodies(draw: st.DrawFn) -> tuple[bytes, str]:
    text = draw(long_pages())
    if draw(st.booleans()):
        text = "<!doctype html><html>" + text
    raw = text.encode(draw(st.sampled_from(("utf-8", "latin-1", "utf-16"))), errors="replace")
    return raw, draw(CONTENT_TYPES)


class AlwaysTry(P.Payoff):
    """The two-step parse on every eligible page, however often it failed before."""

    def worth_trying(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def _always_try(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(P, "PAYOFF", AlwaysTry())


SETTINGS = settings(max_examples=200, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
ARTICLE = ("<!doctype html><html><head><meta charset='utf-8'><title>An article</title></head>\n<body><article>"
           + PARAGRAPH * 80 + "</article></body></html>\n")


@SETTINGS
@given(bodies())
@example((ARTICLE.encode(), "text/html"))
@example(((ARTICLE + '<meta name="late" content="x">').encode(), "text/html"))
@example(((ARTICLE + '<script type="application/ld+json">{"isAccessibleForFree": false}</script>').encode(), ""))
@example(((ARTICLE.replace("<title>An article</title>", "") + "<svg><title>late</title></svg>").encode(), ""))
def test_parse_body_matches_oracle_with_the_real_cut(case: tuple[bytes, str]) -> None:
    body, content_type = case
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(P, "PAYOFF", AlwaysTry())
        got = parse_body(body, content_type)
    assert got == oracle_parse_body(body, content_type)


@settings(SETTINGS, max_examples=400)
@given(bodies(), st.integers(0, 3_000), st.integers(1, 400), st.integers(50, 1_500))
def test_parse_body_matches_oracle_with_any_cut(case: tuple[bytes, str], prefix_body: int, saving: int,
                                                limit: int) -> None:
    body, content_type = case
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(P, "PREFIX_BODY", prefix_body)
        mp.setattr(P, "PREFIX_SAVING", saving)
        mp.setattr(P, "TEXT_MAX", limit)  # small, so that small cuts can hold the whole sample
        mp.setattr(P, "PAYOFF", AlwaysTry())
        got = parse_body(body, content_type)
    want = oracle_parse_body(body, content_type)
    want = BodyFacts(title=want.title, canonical=want.canonical, html_sample=want.html_sample,
                     content_hash=want.content_hash, meta=want.meta,
                     text_sample=_oracle_sample(body, content_type, limit))
    assert got == want


def _oracle_sample(body: bytes, content_type: str, limit: int) -> str:
    if not body or not _is_html(content_type, body):
        return ""
    root = _document(_decode(body, content_type)[:PARSE_MAX])
    return "" if root is None else oracle_visible_text(root, limit)


@given(st.lists(st.one_of(st.sampled_from(WORDS), st.just(PARAGRAPH), st.just(SPACES),
                          st.text(alphabet=" \t\n\x0b\x0c\r\x1c\x85\u00a0\u3000ab\u00e9<>", max_size=40)),
                max_size=40),
       st.integers(1, 3_000))
@example(["a  b", "c"], 4)  # the raw size reaches the limit exactly: the walk goes on
@example(["\x1f a", "b"], 1)  # a chunk blank in the part read of it (2 x limit) does not count
@SETTINGS
def test_visible_text_matches_oracle_at_every_limit(parts: list[str], limit: int) -> None:
    text = "<body>" + "<br>".join(parts)
    root_a, root_b = _document(text), _document(text)
    if root_a is None:
        assert root_b is None
        return
    assert P.visible_text(root_a, limit) == oracle_visible_text(root_b, limit)


# ---- the two-step parse is taken where it should be, and refused where it must be ----

def test_a_long_article_is_parsed_from_its_start_only() -> None:
    facts = P._prefix_facts(ARTICLE)
    assert facts is not None
    title, _canonical, meta, sample = facts
    assert title == "An article" and meta == {} and len(sample) == P.TEXT_MAX


@pytest.mark.parametrize("late", [
    '<meta name="robots" content="noindex">',
    '<MeTa property="og:title" content="x">',
    '<script type="application/LD+JSON">{"isAccessibleForFree": false}</script>',
])
def test_a_late_head_fact_forces_the_whole_parse(late: str) -> None:
    assert P._prefix_facts(ARTICLE.replace("</article>", late + "</article>")) is None


def test_a_late_meta_tag_is_refused_before_any_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_parse(text: str) -> None:
        raise AssertionError("parsed")
    monkeypatch.setattr(P, "_document", no_parse)
    assert P._prefix_facts(ARTICLE.replace("</article>", '<meta name="a" content="b"></article>')) is None


def test_a_late_title_or_link_matters_only_without_an_early_one() -> None:
    untitled = ARTICLE.replace("<title>An article</title>", "")
    assert P._prefix_facts(ARTICLE + "<title>second</title>") is not None
    assert P._prefix_facts(untitled + "<title>first</title>") is None
    assert P._prefix_facts(ARTICLE + '<link rel="canonical" href="/c">') is None
    canonical = ARTICLE.replace("</head>", '<link rel="canonical" href="/c"></head>')
    assert P._prefix_facts(canonical + '<link rel="canonical" href="/d">') is not None


@pytest.mark.parametrize("late", [
    "<title>a <b>tag</b> in the title</title>",
    '<script type="application/ld+json">{"isAccessibleForFree": false, "x": "<b>"}</script>',
])
def test_a_head_fact_open_at_the_cut_forces_the_whole_parse(late: str) -> None:
    untitled = ARTICLE.replace("<title>An article</title>", "")
    at = untitled.index("<body") + P.PREFIX_BODY - 3  # the cut falls right before its "<b>"
    page = untitled[:at] + late + untitled[at:]
    assert page.index("<", untitled.index("<body") + P.PREFIX_BODY) == at + late.index("<b>")
    assert P._prefix_facts(page) is None
    assert parse_body(page.encode()) == oracle_parse_body(page.encode())


def test_tries_pause_while_they_fail_and_resume_when_they_pay(monkeypatch: pytest.MonkeyPatch) -> None:
    payoff = P.Payoff()
    monkeypatch.setattr(P, "PAYOFF", payoff)
    parses: list[int] = []
    real_document = P._document

    def counting(text: str) -> etree._Element | None:
        parses.append(len(text))
        return real_document(text)
    monkeypatch.setattr(P, "_document", counting)
    # heavy markup: no 6,000 visible characters in the body's first PREFIX_BODY characters
    heavy = ("<html><head><title>t</title></head><body>" + '<div class="nav"><a href="/x">x</a></div>' * 2_000
             + PARAGRAPH * 40 + "</body></html>")
    for _ in range(8 + 3 * payoff.EXPLORE):
        parse_body(heavy.encode())
    prefix_parses = [n for n in parses if n < len(heavy)]
    assert len(prefix_parses) == payoff.WINDOW + 3  # the warm-up, then one in EXPLORE
    assert payoff.history == 0
    parses.clear()
    for _ in range(2 * payoff.EXPLORE):  # plain articles: the first try that pays resumes them
        assert parse_body(ARTICLE.encode()) == oracle_parse_body(ARTICLE.encode())
    assert payoff.history == (1 << payoff.WINDOW) - 1
    assert sum(n < len(ARTICLE) for n in parses) > payoff.EXPLORE


def test_payoff_needs_the_last_try_or_three_of_the_window() -> None:
    payoff = P.Payoff()
    for won in (True, True, True, False, False, False, False, False):
        payoff.record(won)
    assert payoff.worth_trying()  # three of the last eight paid
    payoff.record(False)  # the oldest win falls out of the window: two of eight
    assert not payoff.worth_trying()
    payoff.record(True)
    assert payoff.worth_trying()  # the last try paid


def test_a_short_page_is_parsed_whole() -> None:
    assert P._prefix_facts(ARTICLE[: P.PREFIX_BODY]) is None
