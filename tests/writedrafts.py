"""Hypothesis strategies for `write` drafts over the fixture corpus (fixtures/write/corpus.json):
corpus IDs, unknown IDs, corpus URLs, random URLs in every syntax the gate knows, and prose.
Used by write/test_write_property.py and write/test_write_hostile_property.py."""
from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

from citecheck.extract import load_corpus
from citecheck.urltext.corpusindex import CorpusIndex

CORPUS = load_corpus(str(Path(__file__).resolve().parents[1] / "fixtures" / "write" / "corpus.json"))


INDEX = CorpusIndex(CORPUS)


CORPUS_URLS = [s.url for s in CORPUS.sources]


ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"


labels = st.sampled_from(["acme", "northwind", "a", "x1", "my-site", "sub", "www", "cdn", "doi", "xn--bcher-kva",
                          "localhost", "10", "ir", "eurostat", "very-long-label-with-dashes", "ünïcödé", "s3"])


tlds = st.sampled_from(["com", "org", "net", "io", "co.uk", "de", "ai", "dev", "xyz", "zz", "example", "рф"])


paths = st.sampled_from(["", "/", "/x", "/a/b.html", "/report-2024.pdf?utm_source=x&id=7", "/p#frag", "/~user/",
                         "/path_with_(parens)", "/%E2%9C%93", "/x.", "/a,b;c"])


hosts = st.builds(lambda ls, tld: ".".join(ls) + "." + tld, st.lists(labels, min_size=1, max_size=3), tlds)


schemes = st.sampled_from(["https://", "http://", "HTTPS://", "ftp://", "hxxps://", "hxxp[:]//", "//", "https:\\\\"])


random_urls = st.builds(lambda s, h, p: s + h + p, schemes, hosts, paths)


urls = st.one_of(random_urls, st.sampled_from(CORPUS_URLS))


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@st.composite
def zero_width_split(draw: st.DrawFn) -> str:
    url = draw(urls)
    cut = draw(st.integers(1, max(1, len(url) - 1)))
    return url[:cut] + draw(st.sampled_from(ZERO_WIDTH)) + url[cut:]


@st.composite
def defanged(draw: st.DrawFn) -> str:
    host, path = draw(hosts), draw(paths)
    dot = draw(st.sampled_from(["[.]", "(.)", "{.}", "[dot]", "(dot)"]))
    prefix, tail = draw(st.sampled_from(["hxxps://", "", "www[.]"])), draw(st.sampled_from(["", path]))
    return prefix + host.replace(".", dot, 1) + tail


def _wrap(fmt: str) -> st.SearchStrategy[str]:
    return st.builds(lambda u, t: fmt.format(u=u, t=t), urls, st.sampled_from(["text", "src-001", "a [b] c", ""]))


url_pieces = st.one_of(
    _wrap("[{t}]({u})"), _wrap('[{t}]({u} "title")'), _wrap("![{t}]({u})"), _wrap("[{t}](<{u}>)"), _wrap("<{u}>"),
    _wrap("[{t}][ref]\n\n[ref]: {u}\n"), _wrap("[^n]\n\n[^n]: {t} {u}\n"), _wrap('<a href="{u}">{t}</a>'),
    _wrap("<img src='{u}' alt='{t}'>"), _wrap('<div data-src="{u}">{t}</div>'), _wrap("<a href={u}>{t}"),
    _wrap("`{u}`"), _wrap("\n```\n{u}\n```\n"), _wrap("<!-- {u} -->"), _wrap("{u}"), _wrap("({u})."),
    _wrap("[[{t}]({u})]({u})"), _wrap("**{u}**"),
    st.builds(lambda h, p: "www." + h + p, hosts, paths), st.builds(lambda h, p: h + p, hosts, paths),
    st.builds(lambda h, p: "https://doi.org/10." + h[:4] + p, hosts, paths),
    st.builds(lambda n, p: f"10.{n}{p}", st.integers(1000, 99999), paths),
    zero_width_split(), defanged(), urls.map(_full_width), urls.map(lambda u: u.replace(":", "&#58;")),
    urls.map(lambda u: u.replace(".", "\\.")),
)


id_pieces = st.one_of(
    st.sampled_from(["[src-001]", "[src-002]", "[src-003]", "[src-004]", "[src-005]", "[src-001, src-004]",
                     "[src-002][src-003]", "[src-777]", "[src-001, src-999]", "[SRC-002]", "[src-0042]",
                     "[^1]", "[^note]\n\n[^note]: A note.\n"]),
)


prose = st.one_of(
    st.sampled_from(["Revenue rose 8% in 2024. ", "Margins held. ", "\n\n", "\n", "# Heading\n", "- item ",
                     "> quote ", "| a | b |\n|---|---|\n", "*", "_", "`", "[", "]", "(", ")", "<", ">", "!",
                     "e.g. ", "Node.js ", "U.S. ", "3:1 ", "10:30 ", ": ", "\\", "&amp; ", "~~"]),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12),
)


drafts = st.lists(st.one_of(url_pieces, id_pieces, prose, prose), max_size=25).map(" ".join)
