"""Property tests: extraction never crashes, every position points at the text as written, the
bare matcher's offsets are exact, and `dedupe_key` is idempotent. Kept to a few seconds."""
from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from citecheck.errors import InputError
from citecheck.extract import extract_document
from citecheck.extract.bare import find_urls
from citecheck.urls import dedupe_key

# Pieces that make parsers take their interesting paths, mixed with arbitrary short text.
PIECES = ["[", "]", "(", ")", "<", ">", "`", "```\n", "http://", "https://a.com/x", "www.", ".", "&amp;", "&#x41;",
          "\\", "_", "*", "\n", "\n\n", " ", "|", "# ", "- ", "> ", "    ", "!", "[^1]", "[^1]: ", ":", "hxxp", "[.]",
          "a", "b.com", "/", "?", "=", "&", "\t", "<a href=\"", "\"", "'", "%41", "é", "\u00a0", "[x]: ", "<!--",
          "-->", "\r\n", "\r", "[src-001]", "~", "<needs-source/>", "<img src=", "srcset=", "---\n", "|---|\n", "<pre>", "</p>",
          "<![", "<!", "]]>", "<?", "CDATA[", "<![if ", "<![endif]>", "<!DOCTYPE"]
SOURCES = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=40).map("".join)
FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


@FAST
@given(SOURCES, st.sampled_from(["markdown", "html", "text"]))
@example("<pre><img src=", "markdown")  # lxml read its own `</body` as the open attribute's value
@example("---\n[---\n---\n", "markdown")  # malformed front matter: a clean InputError, by design
@example("http://\x00", "markdown")  # markdown-it reads NUL as U+FFFD: the raw text came back as 'http://\ufffd'
@example("[a](http://x\x00y) <http://a\x00b>", "markdown")
def test_every_position_points_at_the_url_as_written(text: str, kind: str) -> None:
    try:
        document = extract_document("memo", text, kind)
    except InputError as err:
        assert "front matter" in str(err)  # the one bad input extraction reports instead of reading
        return
    lines = _lines(text)
    for link in document.links:
        assert link.raw and link.url
        assert link.location.line >= 1 and link.location.column >= 1
        assert lines[link.location.line - 1][link.location.column - 1:].startswith(link.raw), (text, link)


@FAST
@given(st.text(max_size=200), st.sampled_from(["markdown", "html", "text"]))
@example("<![0", "html")  # html.parser's _markupbase raised AssertionError('expected name token')
@example("a<![1]", "html")
@example("<![foo]> <a href='https://a.com/x'>x</a>", "html")  # unknown marked-section keyword
@example("<p><![0 <a href='https://a.com/x'>x</a>", "markdown")  # inline HTML in Markdown goes through the scanner too
def test_arbitrary_text_never_crashes(text: str, kind: str) -> None:
    try:
        document = extract_document("memo", text, kind)
    except InputError as err:  # a clean one-line error is not a crash
        assert "front matter" in str(err)
        return
    assert all(link.location.line >= 1 for link in document.links)


@FAST
@given(st.one_of(SOURCES, st.text(max_size=120)))
def test_bare_matches_are_exact_ordered_and_disjoint(text: str) -> None:
    matches = list(find_urls(text))
    end = 0
    for m in matches:
        assert text[m.start:m.start + len(m.raw)] == m.raw and len(m.raw) >= 4
        assert m.start >= end, "matches overlap or are out of order"
        end = m.start + len(m.raw)


@settings(max_examples=200, deadline=None)
@given(st.one_of(SOURCES, st.text(max_size=60), st.sampled_from(["https://WWW.A.com:443/x/?utm_source=1#f",
                                                                  "mailto:A@b.com", "http://[::1]:8080/x/"])))
@example("Ahttps://a.com/x&amp;[")  # another scheme with a host: w3lib left '[' unescaped, the key read back escaped it
@example("ftp://a.com/a b[")
@example("(http://&amp;[http://")  # w3lib escaped the `[` of a `;`-parameter only once its trailing '//' was gone
def test_dedupe_key_is_idempotent(url: str) -> None:
    key = dedupe_key(url)
    assert dedupe_key(key) == key, (url, key)


DEST_CHARS = st.text(alphabet=st.sampled_from(list("ab ()\\\t\n<>\x7f\x01é/:.x")), max_size=24)


@settings(max_examples=400, deadline=None)
@given(DEST_CHARS, st.data())
def test_fast_destination_scanner_agrees_with_markdown_it(text: str, data: st.DataObject) -> None:
    from markdown_it.helpers import parseLinkDestination

    from citecheck.extract.mdparse import parse_link_destination

    pos = data.draw(st.integers(0, len(text)))
    maximum = data.draw(st.integers(pos, len(text)))
    want, got = parseLinkDestination(text, pos, maximum), parse_link_destination(text, pos, maximum)
    assert (got.ok, got.pos, got.str) == (want.ok, want.pos, want.str)
