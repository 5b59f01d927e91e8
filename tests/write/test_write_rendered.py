"""The renderer is the oracle: `write` output, rendered by GitHub's cmark-gfm and by markdown-it-py
with GFM extensions and linkify, links nothing outside the corpus.

The renderings are read here with the standard library's HTMLParser, independently of the gate's
own check (`citecheck.write.rendered`, which uses lxml), and the drafts mix corpus IDs with every
autolink-extension form the renderers know: schemes, `www.` and schemeless `host.tld/path` right
after `_`, `*`, `~`, `(`, a letter or a digit, e-mail addresses (cmark-gfm makes them `mailto:`
links), fuzzy hosts that only linkify links (`Amazon.com`), trailing punctuation, entities and escapes. A second property holds
the gate's first line to the same standard: the detector finds every such link itself, so the
render check (which would report kind `rendered`) never has to take one out.
"""
from __future__ import annotations

import os
from html.parser import HTMLParser
from pathlib import Path

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin

from citecheck.errors import LeakError
from citecheck.extract import load_corpus
from citecheck.urltext.corpusindex import CorpusIndex
from citecheck.write import transform
from citecheck.write.rendered import fail_closed

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

CORPUS = load_corpus(str(Path(__file__).resolve().parents[2] / "fixtures" / "write" / "corpus.json"))
INDEX = CorpusIndex(CORPUS)
CORPUS_URLS = {s.url for s in CORPUS.sources}
EXAMPLES = int(os.environ.get("CITECHECK_HYPOTHESIS_EXAMPLES", "300"))
PROFILE = settings(max_examples=EXAMPLES, deadline=None,  # derandomized under CI by conftest's profile
                   suppress_health_check=[HealthCheck.too_slow])
MDIT = MarkdownIt("gfm-like", {"html": True, "linkify": True}).use(footnote_plugin)
ISSUE_FORMS = ["_https://evil-a.com_", "see_https://evil-c.com", "_www.evil-e.com_", "ir@evil-f.com"]


class _Hrefs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [value for name, value in attrs if name in ("href", "src", "srcset", "action", "poster")
                      and value]


def hrefs(markdown: str) -> list[str]:
    """Every href/src either renderer makes of `markdown`."""
    found = []
    for page in (cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE
                                                           | Options.CMARK_OPT_FOOTNOTES), MDIT.render(markdown)):
        parser = _Hrefs()
        parser.feed(page)
        found += parser.urls
    return found


def outside(markdown: str) -> list[str]:
    return [url for url in hrefs(markdown) if not url.startswith("#") and url not in CORPUS_URLS]


hosts = st.builds(lambda a, b: f"{a}.{b}", st.sampled_from(["evil", "evil-a", "x1", "amazon", "my_site", "ünï"]),
                  st.sampled_from(["com", "io", "co.uk", "de", "ru", "zz"]))
paths = st.sampled_from(["", "/", "/x_y_", "/a(b)", "/p?q=1&r=2", "/x.", "#frag"])
schemes = st.sampled_from(["https://", "http://", "HTTPS://", "ftp://", "www.", "mailto:", "xmpp:"])
urls = st.one_of(st.builds(lambda s, h, p: s + h + p, schemes, hosts, paths),
                 st.builds(lambda h, p: h + p, hosts, paths),  # schemeless: linkify links `_evil.com/x_`
                 st.builds(lambda local, h: f"{local}@{h}", st.sampled_from(["ir", "a.b", "x+y", "_u", "j-k"]), hosts),
                 st.sampled_from(sorted(CORPUS_URLS)), hosts)
before = st.sampled_from(["", " ", "_", "*", "~", "(", "x", "1", "é", "see_", "**", "~~", "\\", "&nbsp;", "<", "["])
after = st.sampled_from(["", " ", "_", "*", "~", ")", ".", ",", ";", ":", "!", "?", "'", "**", "~~", ">", "]", ")."])
obfuscate = st.sampled_from([lambda u: u, lambda u: u.replace("@", "&#64;"), lambda u: u.replace(".", "&#46;", 1),
                             lambda u: u.replace("@", "\\@"), lambda u: u.replace(":", "&colon;")])
pieces = st.one_of(
    st.builds(lambda b, u, a, f: b + f(u) + a, before, urls, after, obfuscate),
    st.sampled_from([*ISSUE_FORMS, "[src-001]", "[src-002, src-003]", "[src-999]", "Revenue rose. ", "\n\n",
                     "- item ", "> quote ", "| a | b |\n|---|---|\n", "`code` ", "[^1]\n\n[^1]: n\n"]),
)
drafts = st.lists(pieces, min_size=1, max_size=12).map(" ".join)


@pytest.mark.parametrize("form", ISSUE_FORMS)
def test_the_issue_forms_are_linked_by_the_renderers_and_gone_from_the_memo(form: str) -> None:
    assert outside(form), "the renderers no longer link this form: the regression case is void"
    memo = transform(f"Claim [src-001]. {form} more.", INDEX).text
    assert outside(memo) == [] and "evil" not in memo, memo


def test_a_fuzzy_host_keeps_its_words_but_is_no_link() -> None:
    memo = transform("Amazon.com grew [src-001].", INDEX).text
    assert memo.startswith("Amazon\\.com grew") and outside(memo) == []


def test_a_link_the_gate_cannot_find_stops_the_write() -> None:
    # a renderer link whose text and href are nowhere in the text as written: nothing to take out
    with pytest.raises(LeakError, match="refusing to write"):
        fail_closed('<a href="&#x68;ttps://e&#x76;il.com/">&#x65;vil</a>', INDEX)


def test_the_generated_citation_list_is_rendered_but_never_edited() -> None:
    # the leak's words (`src-001`) are also the entry's source ID: taking them out there breaks the list
    listing = "[^1]: Acme. <https://www.sec.gov/Archives/edgar/data/1318605/000162828024002390/tsla-20231231.htm> (src-001)\n"
    memo, taken = fail_closed("A [src-001](https://evil.com/x) [^1].\n\n", INDEX, listing)
    assert memo.endswith("\n\n" + listing) and "evil" not in memo and taken, memo
    with pytest.raises(LeakError):  # a leak only the list holds cannot be taken out: nothing is written
        fail_closed("A [^1].\n\n", INDEX, "[^1]: <https://evil.com/x>\n")


@PROFILE
@given(draft=drafts, hybrid=st.booleans())
def test_no_rendered_link_leaves_the_corpus(draft: str, hybrid: bool) -> None:
    out = transform(draft, INDEX, hybrid=hybrid)
    assert outside(out.text) == [], out.text


# A name written twice and again inside a longer word: the render check took the repeat out of the
# longer word (`x<needs-source/>`); a name escaped inside `~evil.com` unlinks it too; linkify shows
# a punycode host decoded, so the name it shows is not the one written.
REPEATED_NAMES = ["evil.com evil.com xevil.com", "evil.com evil.com evil.comx", "evil.com éevil.com éevil.comx",
                  "evil.com ~evil.com ~evil.comx", "Amazon.com Amazon.com xAmazon.com", "xn--bcher-kva.рф"]


@pytest.mark.parametrize("draft", REPEATED_NAMES)
def test_a_repeated_name_is_escaped_and_no_longer_word_is_cut(draft: str) -> None:
    assert outside(draft), "the renderers no longer link these names: the regression case is void"
    out = transform(draft, INDEX)
    assert outside(out.text) == [] and out.violations == ()
    assert out.text.replace("\\.", ".") == draft, out.text  # every word kept, only dots escaped


@PROFILE
@given(draft=drafts)
@example(draft="evil.com evil.com xevil.com")
def test_the_detector_alone_finds_every_rendered_link(draft: str) -> None:
    out = transform(draft, INDEX)
    assert [v.url for v in out.violations if v.kind == "rendered"] == [], out.text


def test_a_big_memo_is_rendered_by_markdown_it_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    from citecheck.errors import CitecheckError
    from citecheck.write import rendered

    monkeypatch.setattr(rendered, "PIECE", 600)
    draft = "\n\n".join(f"Paragraph {i} names Amazon.com and evil{i}.ru [src-001]." for i in range(40))
    memo = transform(draft, INDEX).text
    assert outside(memo) == [] and "Amazon\\.com" in memo and "evil7\\.ru" in memo
    assert len(rendered.pieces(memo)) > 3 and "".join(rendered.pieces(memo)).count("Paragraph") == 40
    with pytest.raises(CitecheckError, match="render check"):
        transform("word " * 200, INDEX)
