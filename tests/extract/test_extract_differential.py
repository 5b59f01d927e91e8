"""The renderer is the oracle: every link GitHub's cmark-gfm makes of a Markdown file is a link
citecheck reports.

Differential, one direction: citecheck may report more (schemeless `host.tld/path`, defanged
forms, URLs in code), never less. Run on every Markdown file in `../shared/realworld` and on
hypothesis-generated documents that put links of every form (inline, reference, image, autolink,
bare, `www.`, e-mail, raw HTML, glued to `_`, `*`, `~`, `(`) inside lists, blockquotes and HTML
nested past the parsers' limits.
"""
from __future__ import annotations

import html
import json
import os
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import cmarkgfm
import pytest
from click.testing import CliRunner
from cmarkgfm.cmark import Options
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecheck.cli import main
from citecheck.extract.html import extract_html
from citecheck.extract.markdown import extract_markdown

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

REALWORLD = Path(__file__).resolve().parents[3] / "shared" / "realworld"
EXAMPLES = int(os.environ.get("CITECHECK_HYPOTHESIS_EXAMPLES", "300"))
PROFILE = settings(max_examples=EXAMPLES, deadline=None,  # derandomized under CI by conftest's profile
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [value for name, value in attrs if name in ("href", "src") and value]


def rendered(markdown: str) -> list[str]:
    """Every href and src cmark-gfm renders, same-document `#fragments` aside."""
    parser = _Links()
    parser.feed(cmarkgfm.github_flavored_markdown_to_html(
        markdown, options=Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_FOOTNOTES))
    return [url for url in parser.urls if not url.startswith("#")]


def norm(url: str) -> str:
    """Compare as written: cmark percent-encodes and decodes entities; a mailto: query is not the address."""
    url = unquote(html.unescape(url)).strip()
    if url.lower().startswith("mailto:"):
        url = url.split("?", 1)[0]
    return url.lower().rstrip("/")


def missed(markdown: str) -> list[str]:
    reported = {norm(link.url) for link in extract_markdown("doc.md", markdown).links}
    return [url for url in rendered(markdown) if norm(url) not in reported]


REALWORLD_FILES = sorted(p for p in REALWORLD.rglob("*") if p.suffix.lower() in (".md", ".markdown")) \
    if REALWORLD.is_dir() else []


@pytest.mark.skipif(not REALWORLD_FILES, reason="../shared/realworld is not beside this checkout")
@pytest.mark.parametrize("path", REALWORLD_FILES, ids=lambda p: str(p.relative_to(REALWORLD)))
def test_every_link_github_renders_in_real_markdown_is_reported(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    assert missed(text) == []


@pytest.mark.parametrize("text", [
    "".join("  " * i + "- item\n" for i in range(40)) + "  " * 40 + "- see https://deep.example.org/list\n",
    ">" * 200 + " see [x](https://deep.example.org/quote)\n",
    "<div>" * 3000 + '<a href="https://deep.example.org/html">x</a>' + "</div>" * 3000 + "\n",
    "see_https://evil-c.com and _www.evil-e.com_ and ir@evil-f.com and x*www.evil-j.com\n",
])
def test_the_issue_cases_are_reported(text: str) -> None:
    assert rendered(text) and missed(text) == []


hosts = st.sampled_from(["acme.com", "sub.acme.co.uk", "x1.io", "my-site.org", "a.b.de"])
paths = st.sampled_from(["", "/", "/x", "/a_b", "/p?q=1&r=2", "/w_(x)", "/%E2%9C%93", "/x.pdf#f"])
urls = st.builds(lambda scheme, host, path: scheme + host + path,
                 st.sampled_from(["https://", "http://", "HTTPS://", "ftp://"]), hosts, paths)
emails = st.builds(lambda local, host: f"{local}@{host}", st.sampled_from(["ir", "a.b", "x+y", "j_k"]), hosts)


def _form(fmt: str) -> st.SearchStrategy[str]:
    return st.builds(lambda u: fmt.format(u=u), urls)


links = st.one_of(
    _form("[text]({u})"), _form("![alt]({u})"), _form("<{u}>"), _form("{u}"), _form("[t][r]\n\n[r]: {u}\n"),
    _form('<a href="{u}">t</a>'), _form("[t]({u} \"title\")"), _form("**{u}**"),
    st.builds(lambda h, p: "www." + h + p, hosts, paths), emails,
    st.builds(lambda pre, u: pre + u, st.sampled_from(["_", "*", "~", "(", "see_", "1", "é"]), urls),
    st.builds(lambda pre, h: pre + "www." + h, st.sampled_from(["_", "*", "~", "("]), hosts),
)
after = st.sampled_from(["", " ", ".", ",", ")", "_", "*", "~", "!", "?", "'", ":", ";"])
line = st.builds(lambda link, tail, prose: f"{prose} {link}{tail}", links, after,
                 st.sampled_from(["See", "Revenue rose 8%", "", "# Heading", "| a |"]))


@st.composite
def nested(draw: st.DrawFn) -> str:
    """A line of links inside a container nested `depth` deep (lists, quotes, HTML or a mix)."""
    text = draw(line)
    depth = draw(st.sampled_from([0, 1, 3, 12, 40, 80]))
    kind = draw(st.sampled_from(["list", "quote", "html", "mixed"]))
    if kind == "list":
        return "".join("  " * i + "- item\n" for i in range(depth)) + "  " * depth + "- " + text + "\n"
    if kind == "quote":
        return ">" * depth + " " + text + "\n"
    if kind == "html":
        many = depth * 40
        return "<div>" * many + "\n\n" + text + "\n\n" + "</div>" * many + "\n"
    return "".join(("> " * (i // 2)) + ("- " if i % 2 else "") for i in range(depth)) + text + "\n"


documents = st.lists(st.one_of(line, nested()), min_size=1, max_size=6).map("\n\n".join)


@PROFILE
@given(documents)
def test_every_link_github_renders_in_generated_markdown_is_reported(markdown: str) -> None:
    assert missed(markdown) == [], rendered(markdown)


@pytest.mark.parametrize("text, line", [
    ("".join("  " * i + "- item\n" for i in range(40)) + "  " * 40 + "- see https://deep.example.org/list\n", 32),
    ("para\n\n" + ">" * 200 + " see [x](https://deep.example.org/quote)\n", 3),
    ("<div>" * 3000 + '\n<a href="https://deep.example.org/html">x</a>\n' + "</div>" * 3000 + "\n", 1),
    ("para\n\n" + "[" * 3000 + " see <https://deep.example.org/brackets>\n", 3),  # link labels past the scan budget
    ("para\n\n" + "[a" * 2000 + " see <https://deep.example.org/brackets>\n", 3),
])
def test_content_past_a_parser_limit_is_reported_with_a_warning(tmp_path: Path, text: str, line: int) -> None:
    document = extract_markdown("deep.md", text)
    assert [link.url for link in document.links] == [rendered(text)[0]]
    assert [where.line for where in document.too_deep] == [line]
    memo = tmp_path / "deep.md"
    memo.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["audit", str(memo), "--offline", "--format", "json"])
    rules = [f["rule"] for f in json.loads(result.stdout)["findings"]]
    assert "E005" in rules and "U001" in rules, result.stdout  # the warning, and the link's own finding


def test_a_shallow_document_has_no_too_deep_warning() -> None:
    text = "".join("  " * i + "- item https://a.com/x\n" for i in range(10)) + ">" * 30 + " https://b.com/y\n"
    document = extract_markdown("ok.md", text)
    assert document.too_deep == () and len(document.links) == 11


def test_an_html_memo_past_lxmls_depth_keeps_its_links() -> None:
    page = "<html><body>" + "<div>" * 3000 + '<a href="https://deep.example.org/h">x</a>' + "</div>" * 3000
    document = extract_html("deep.html", page + "</body></html>")
    assert [link.url for link in document.links] == ["https://deep.example.org/h"] and document.too_deep


def test_a_document_above_the_structured_limit_is_read_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    import citecheck.extract.markdown as markdown

    text = "---\ntitle: x\n---\n" + "- [x](https://a.com/x) and _www.b.com_\n" * 50
    assert len(extract_markdown("big.md", text).links) == 100
    monkeypatch.setattr(markdown, "MAX_STRUCTURED", 1000)
    document = markdown.extract_markdown("big.md", text)
    assert {link.url for link in document.links} == {"https://a.com/x", "http://www.b.com"}
    assert len(document.links) == 100 and [where.line for where in document.too_deep] == [1]
    assert document.format == "markdown"
