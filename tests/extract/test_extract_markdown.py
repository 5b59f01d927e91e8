"""Markdown extraction: every kind of link, where it is, and what it is."""
from __future__ import annotations

import pytest

from citecheck.extract import extract_document
from citecheck.models import Document, Link, LinkKind


def extract(text: str) -> Document:
    return extract_document("memo.md", text)


def at(text: str, link: Link) -> str:
    return text.split("\n")[link.location.line - 1][link.location.column - 1:]


def only(text: str) -> Link:
    links = extract(text).links
    assert len(links) == 1, links
    return links[0]


@pytest.mark.parametrize("source,url,raw", [
    ("See [a](https://x.com/a\\_b) now", "https://x.com/a_b", "https://x.com/a\\_b"),
    ("See [a](https://x.com/?a=1&amp;b=2)", "https://x.com/?a=1&b=2", "https://x.com/?a=1&amp;b=2"),
    ("See <https://x.com/%7Efoo?q=%20>", "https://x.com/%7Efoo?q=%20", "https://x.com/%7Efoo?q=%20"),
    ("See [a](<https://x.com/a b> \"t\")", "https://x.com/a b", "https://x.com/a b"),
    ("bare https://x.com/a\\_b&amp;c here", "https://x.com/a_b&c", "https://x.com/a\\_b&amp;c"),
    ("ünïcödé [a](https://bücher.de/ä)", "https://bücher.de/ä", "https://bücher.de/ä"),
])
def test_escapes_and_entities_keep_exact_positions(source: str, url: str, raw: str) -> None:
    link = only(source)
    assert (link.url, link.raw) == (url, raw)
    assert at(source, link).startswith(raw)


def test_repeated_url_on_one_line_gets_each_column() -> None:
    source = "[a](https://x.com) and [b](https://x.com) and https://x.com"
    columns = [link.location.column for link in extract(source).links]
    assert columns == [5, 28, 47]


def test_link_spanning_lines_points_at_its_destination() -> None:
    source = "Intro [first\nsecond](https://x.com/y) tail"
    link = only(source)
    assert (link.location.line, link.location.column, link.text) == (2, 9, "first second")


def test_reference_use_does_not_duplicate_its_definition() -> None:
    source = "See [the report][r] and [r] again.\n\n[r]: https://x.com/report \"Title\"\n"
    link = only(source)
    assert (link.kind, link.location.line, link.location.column, link.text) == (LinkKind.REFERENCE, 3, 6, "r")


@pytest.mark.parametrize("source,line,col", [
    ("[a]\n\n[a]:\n  https://x.com/next-line\n", 4, 3),
    ("> [a]\n>\n> [a]: https://x.com/quoted\n", 3, 8),
    ("- item\n\n  [a]: <https://x.com/pointy>\n", 3, 9),
    ("[unused]: https://x.com/unused\n", 1, 11),
])
def test_reference_definitions_anywhere(source: str, line: int, col: int) -> None:
    link = only(source)
    assert link.kind is LinkKind.REFERENCE and (link.location.line, link.location.column) == (line, col)
    assert at(source, link).startswith(link.raw)


def test_footnote_definition_links_are_footnotes_and_keep_special_kinds() -> None:
    source = ("Claim.[^1]\n\n[^1]: See [x](https://a.com/x), https://b.com/y and <https://c.com/z>;\n"
              "    also www.d.com/w and ![i](https://e.com/i.png).\n")
    kinds = {link.url: link.kind for link in extract(source).links}
    assert kinds == {"https://a.com/x": LinkKind.FOOTNOTE, "https://b.com/y": LinkKind.FOOTNOTE,
                     "https://c.com/z": LinkKind.FOOTNOTE, "http://www.d.com/w": LinkKind.WWW,
                     "https://e.com/i.png": LinkKind.IMAGE}


def test_unreferenced_footnote_still_yields_its_links() -> None:
    document = extract("Text.\n\n[^orphan]: https://orphan.com/x\n")
    assert [link.url for link in document.links] == ["https://orphan.com/x"]
    assert [(f.label, f.is_definition, f.location.line) for f in document.footnotes] == [("orphan", True, 3)]


def test_footnote_refs_and_definitions_have_positions() -> None:
    document = extract("A[^1] and B[^missing].\n\n[^1]: note\n")
    found = [(f.label, f.is_definition, f.location.line, f.location.column) for f in document.footnotes]
    assert found == [("1", False, 1, 2), ("missing", False, 1, 12), ("1", True, 3, 1)]


def test_code_is_extracted_but_flagged() -> None:
    source = ("Prose https://p.com/x and `https://inline.com/x`.\n\n```bash\ncurl https://fence.com/x\n```\n\n"
              "    https://indented.com/x\n\n- item\n\n  ```\n  https://listed.com/x\n  ```\n")
    flags = {link.url: link.in_code for link in extract(source).links}
    assert flags == {"https://p.com/x": False, "https://inline.com/x": True, "https://fence.com/x": True,
                     "https://indented.com/x": True, "https://listed.com/x": True}
    for link in extract(source).links:
        assert at(source, link).startswith(link.raw)


def test_link_around_code_span_is_one_link() -> None:
    link = only("[`https://shown.com`](https://target.com)")
    assert (link.url, link.kind, link.in_code) == ("https://target.com", LinkKind.INLINE, False)


def test_image_inside_link_gives_both() -> None:
    source = "[![logo](https://img.com/l.png)](https://site.com)"
    found = [(link.kind, link.url, link.location.column) for link in extract(source).links]
    assert found == [(LinkKind.IMAGE, "https://img.com/l.png", 10), (LinkKind.INLINE, "https://site.com", 34)]


def test_every_scheme_is_kept_for_the_rules() -> None:
    urls = [link.url for link in extract("[a](javascript:alert(1)) [b](file:///etc/passwd) [c](data:,x)").links]
    assert urls == ["javascript:alert(1)", "file:///etc/passwd", "data:,x"]


def test_table_cells_with_escaped_pipes() -> None:
    source = "| a | b |\n|---|---|\n| x \\| y https://cell.com/a | [c](https://c.com) |\n"
    for link in extract(source).links:
        assert at(source, link).startswith(link.raw), link
    assert len(extract(source).links) == 2


def test_headings_set_sections_and_hold_links() -> None:
    source = "# Title https://h.com/x ##\n\nText https://t.com\n\nSetext\n======\n\n[a](https://s.com)\n"
    document = extract(source)
    assert [(h.level, h.text) for h in document.headings] == [(1, "Title https://h.com/x"), (1, "Setext")]
    assert [(link.url, link.section) for link in document.links] == [
        ("https://h.com/x", "Title https://h.com/x"), ("https://t.com", "Title https://h.com/x"),
        ("https://s.com", "Setext")]
    assert document.links[0].location.column == 9


def test_html_in_markdown_points_at_attribute_values_and_text() -> None:
    source = ('Inline <a href="https://i.com/?a&amp;b">x</a>.\n\n<div class="note">\n'
              '  <img\n    src="https://img.com/p.png" alt="p">\n  <p>see https://blocktext.com/x</p>\n</div>\n')
    found = {link.url: (link.kind, link.location.line, link.location.column) for link in extract(source).links}
    assert found == {"https://i.com/?a&b": (LinkKind.HTML, 1, 17), "https://img.com/p.png": (LinkKind.HTML, 5, 10),
                     "https://blocktext.com/x": (LinkKind.BARE, 6, 10)}


def test_markers_have_positions() -> None:
    source = "Claim [src-001, src-002].\n\nOther <needs-source claim=\"x\"/> and `[src-009]`.\n"
    found = [(m.kind, m.value, m.location.line, m.location.column, m.in_code) for m in extract(source).markers]
    assert ("source-id", "src-001", 1, 8, False) in found and ("source-id", "src-002", 1, 17, False) in found
    assert ("needs-source", "x", 3, 7, False) in found and ("source-id", "src-009", 3, 39, True) in found


def test_front_matter_urls_are_extracted() -> None:
    source = "---\ntitle: Memo\nsource: https://front.com/x\n---\n# Memo\n"
    document = extract(source)
    assert document.front_matter["source"] == "https://front.com/x"
    assert [(link.url, link.location.line, link.location.column) for link in document.links] == [
        ("https://front.com/x", 3, 9)]


def test_containers_and_tabs_keep_columns() -> None:
    source = "> quote https://q.com/x\nlazy https://lazy.com/y\n\n1. one\n\t[t](https://tab.com/z)\n"
    for link in extract(source).links:
        assert at(source, link).startswith(link.raw), link
    assert len(extract(source).links) == 3


def test_hard_break_backslash_is_not_part_of_the_url() -> None:
    link = only("https://x.com/a\\\nnext line")
    assert (link.url, link.raw) == ("https://x.com/a", "https://x.com/a")


def test_link_text_url_is_not_a_second_link() -> None:
    link = only("[https://shown.com](https://target.com)")
    assert (link.url, link.text) == ("https://target.com", "https://shown.com")


def test_email_autolink_is_mailto_at_the_address() -> None:
    link = only("Write <ann@acme.com>.")
    assert (link.url, link.raw, link.location.column) == ("mailto:ann@acme.com", "ann@acme.com", 8)
