"""Extraction on documents nobody here wrote, against what their own projects' tests expect.

`../shared/realworld/peer-fixtures/EXPECTED.tsv` states, per fixture, what lychee, markdown-link-check
and LinkChecker assert about it (exact URL sets, counts, "contains"). Every row has a check below
(a row without one fails); where citecheck differs on purpose, the check asserts the difference
itself and names its reason from `DIFFERENCES` (the same table as docs/extraction.md). Rows about
the *checking* stage (HTTP status, exclusion flags) are checked for the extraction facts they imply.
"""
from __future__ import annotations

import csv
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from w3lib.url import safe_url_string

from citecheck.errors import InputError
from citecheck.extract import collect, extract_document, read_text, sniff
from citecheck.models import Document, Link

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

ROOT = Path(__file__).resolve().parents[2]
REALWORLD = ROOT.parent / "shared" / "realworld"
PEER = REALWORLD / "peer-fixtures"
if not (PEER / "EXPECTED.tsv").is_file():
    pytest.skip("../shared/realworld is not beside this checkout", allow_module_level=True)

# The intended differences (docs/extraction.md, "Differences from the peers' expectations").
DIFFERENCES = {
    "keeps-malformed": "a malformed URL is kept as written so the malformed-url rule (U002) can report it",
    "no-example-filter": "placeholder and reserved domains are extracted; rule U001 reports them",
    "code-flagged": "URLs in code are extracted and flagged in_code instead of being dropped",
    "no-wikilinks": "[[wikilinks]] are not links in CommonMark and citecheck does not resolve them",
    "no-peer-directives": "other tools' comments (markdown-link-check-disable) are not honoured; "
                          "citecheck has its own <!-- citecheck: disable=… --> directives",
    "commonmark-dest": "a link destination cannot span lines (CommonMark); the first line is reported "
                       "as the bare URL it is",
    "reads-text": "a .txt memo is read as prose, so URLs in it are extracted",
    "prose-not-list": "a .txt memo is prose, not a URL list: a bare file name is not a URL",
    "opaque-data-uri": "data: URIs are extracted (rules decide), and an xmlns-like href is an ordinary link",
    "no-script-text": "text inside <script>/<style> is not prose and is not scanned",
    "root-relative": "a root-relative link (/path) is kept as written; lychee drops it without --root-dir",
    "obsolete-attrs": "obsolete plugin attributes (object classid/codebase, applet archive), CSS url() in "
                      "style attributes and meta refresh targets are not read",
    "dns-prefetch": "<link rel=dns-prefetch|preconnect> names an origin, not a resource, and is skipped",
}

_URLISH = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s|]+|\bmailto:[^\s|]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+(?:\?[^\s|]+)?",
                     re.IGNORECASE)
_BARE_EMAIL = re.compile(r"(?<![\w.+:/-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
_RESERVED = re.compile(r"(^|\.)(example\.(com|org|net|edu)|example|invalid|test|localhost)$")


# -- helpers ------------------------------------------------------------------------------------

@cache
def doc(rel: str) -> Document:
    path = str(PEER / rel)
    text = read_text(path)
    return extract_document(path, text, sniff(path, text))


def links(rel: str, in_code: bool | None = None) -> list[Link]:
    return [link for link in doc(rel).links if in_code is None or link.in_code == in_code]


def urls(rel: str, in_code: bool | None = None) -> list[str]:
    return [link.url for link in links(rel, in_code)]


def norm(url: str) -> str:
    """Trivial normalisation: scheme/host case, percent-encoding, mailto: prefix, trailing slash."""
    url = url.strip()
    if "@" in url and not _SCHEME.match(url):
        url = "mailto:" + url
    url = safe_url_string(url)
    scheme, sep, rest = url.partition(":")
    if rest.startswith("//"):
        host, slash, path = rest[2:].partition("/")
        rest = "//" + host.lower() + slash + path
    return (scheme.lower() + sep + rest).rstrip("/")


def norms(values: list[str]) -> set[str]:
    return {norm(v) for v in values}


def absolute(values: list[str]) -> list[str]:
    return [v for v in values if _SCHEME.match(v)]


def expected_urls(row: dict[str, str]) -> set[str]:
    """The URLs an EXPECTED.tsv row lists (its trailing "(…)" explanation left out)."""
    stated = row["expected"].split("  (")[0]
    if stated.startswith("("):  # "(empty: …)", "(no URLs extracted: …)"
        return set()
    return norms([u.rstrip(".,;:") for u in _URLISH.findall(stated)])


def bare_emails(rel: str) -> list[str]:
    return _BARE_EMAIL.findall(doc(rel).text)


def reserved(url: str) -> bool:
    host = re.sub(r"^[a-z]+://|^mailto:[^@]*@", "", url.lower()).split("/")[0].split("?")[0].split(":")[0]
    return bool(_RESERVED.search(host))


def first_int(row: dict[str, str]) -> int:
    return int(re.search(r"\d+", row["expected"]).group(0))  # type: ignore[union-attr]


# -- one check per EXPECTED.tsv row ------------------------------------------------------------

Check = Callable[[dict[str, str]], None]
CHECKS: dict[tuple[str, str], Check] = {}


def check(file: str, options: str) -> Callable[[Check], Check]:
    def register(fn: Check) -> Check:
        CHECKS[(file, options)] = fn
        return fn

    return register


@check("lychee/TEST.md", "--dump --include-mail")
def _test_md_count(row: dict[str, str]) -> None:
    # "test@example.com" is written without mailto:; GitHub links it, and so does citecheck
    assert bare_emails("lychee/TEST.md") == ["test@example.com"]
    assert "mailto:test@example.com" in urls("lychee/TEST.md")
    assert len(urls("lychee/TEST.md")) == first_int(row)


@check("lychee/TEST.md", "(derived, not asserted verbatim)")
def _test_md_set(row: dict[str, str]) -> None:
    assert expected_urls(row) == norms(absolute(urls("lychee/TEST.md")))
    assert norms(absolute(urls("lychee/TEST.md"))) <= expected_urls(row)


@check("lychee/TEST.md", "default (mail excluded)")
def _test_md_default(row: dict[str, str]) -> None:
    # total 12 = 10 web links + 2 mail addresses (excluded); citecheck has the 10 and both addresses
    web = [u for u in urls("lychee/TEST.md") if not u.startswith("mailto:")]
    assert len(web) == 10 and len(urls("lychee/TEST.md")) == 12


@check("lychee/TEST.md", '--exclude ".*"')
def _test_md_exclude_all(row: dict[str, str]) -> None:
    # every link is excluded, so "12 Excluded" is the extraction count
    assert len(urls("lychee/TEST.md")) == first_int(row)


@check("lychee/TEST.md", "--exclude https://en.wikipedia.org/* --exclude https://ldra.com/")
def _test_md_exclude_two(row: dict[str, str]) -> None:
    # 4 excluded = the two matching links + the two mail addresses lychee excludes by default
    matching = [u for u in urls("lychee/TEST.md") if re.match(r"https://en\.wikipedia\.org/|https://ldra\.com", u)]
    mail = [u for u in urls("lychee/TEST.md") if u.startswith("mailto:")]
    assert len(matching) + len(mail) == first_int(row)


@check("lychee/TEST_EXAMPLE_DOMAINS.md", "--include-mail --dump (example/reserved domains excluded by default)")
def _example_domains(row: dict[str, str]) -> None:
    got = absolute(urls("lychee/TEST_EXAMPLE_DOMAINS.md"))
    assert any(reserved(u) for u in got), DIFFERENCES["no-example-filter"]
    kept = norms([u for u in got if not reserved(u)])
    # the bare address mail@somedomain.com is the mailto: link GitHub makes of it, as lychee says
    assert kept == expected_urls(row) and norm("mailto:mail@somedomain.com") in kept


@check("lychee/TEST_EXAMPLE_DOMAINS_FALSE_POSITIVES.md", "--include-mail --dump")
def _example_look_alikes(row: dict[str, str]) -> None:
    got = urls("lychee/TEST_EXAMPLE_DOMAINS_FALSE_POSITIVES.md")
    assert len(got) == first_int(row)
    assert expected_urls(row) <= norms(got)
    assert not any(reserved(u) for u in ("http://gobyexample.com/", "https://examples.com/", "https://texample.net/"))


@check("lychee/TEST_CODE_BLOCKS.md", "--dump")
def _code_blocks_default(row: dict[str, str]) -> None:
    assert norms(urls("lychee/TEST_CODE_BLOCKS.md", in_code=False)) == expected_urls(row)
    assert urls("lychee/TEST_CODE_BLOCKS.md", in_code=True), DIFFERENCES["code-flagged"]


@check("lychee/TEST_CODE_BLOCKS.md", "--dump --include-verbatim")
def _code_blocks_verbatim(row: dict[str, str]) -> None:
    assert expected_urls(row) <= norms(urls("lychee/TEST_CODE_BLOCKS.md", in_code=True))


@check("lychee/TEST_SCHEMES.md", "--scheme https --scheme http")
def _schemes_md(row: dict[str, str]) -> None:
    got = urls("lychee/TEST_SCHEMES.md")
    assert len(got) == first_int(row) and "slack://channel?id=123" in got


@check("lychee/TEST_SCHEMES.txt", "--exclude file://")
def _schemes_txt(row: dict[str, str]) -> None:
    got = urls("lychee/TEST_SCHEMES.txt")
    assert got == ["slack://channel?id=123", "file:///test_folder/test_file", "https://example.com"]
    assert len(got) == first_int(row)


@check("lychee/TEST_ALL_PRIVATE.md", "--exclude-all-private")
def _all_private(row: dict[str, str]) -> None:
    got = urls("lychee/TEST_ALL_PRIVATE.md")
    assert len(got) == first_int(row) and "http://[::1]" in got


@check("lychee/TEST_LOCAL_DIRECTORIES.md", "default")
def _local_directories(row: dict[str, str]) -> None:
    assert urls("lychee/TEST_LOCAL_DIRECTORIES.md") == ["file:///", "file:///dev/", ".", "../docs/"]
    assert first_int(row) == 4


@check("lychee/TEST_EMAIL.md", "--include-mail")
def _email_all(row: dict[str, str]) -> None:
    assert bare_emails("lychee/TEST_EMAIL.md") == ["foobar@gmail.com"]
    assert len(urls("lychee/TEST_EMAIL.md")) == first_int(row)


@check("lychee/TEST_EMAIL.md", "default")
def _email_default(row: dict[str, str]) -> None:
    # total 3, 2 mail addresses excluded, 1 web link
    got = urls("lychee/TEST_EMAIL.md")
    assert [u for u in got if not u.startswith("mailto:")] == ["https://endler.dev"]
    assert got.count("mailto:info@wikipedia.org") == 1 and got.count("mailto:foobar@gmail.com") == 1


@check("lychee/TEST_EMAIL_QUERY_PARAMS.md", "--dump --include-mail")
def _email_query_md(row: dict[str, str]) -> None:
    assert expected_urls(row) <= norms(urls("lychee/TEST_EMAIL_QUERY_PARAMS.md"))


@check("lychee/TEST_EMAIL_QUERY_PARAMS.html", "--dump --include-mail")
def _email_query_html(row: dict[str, str]) -> None:
    assert expected_urls(row) <= norms(urls("lychee/TEST_EMAIL_QUERY_PARAMS.html"))


@check("lychee/TEST_STYLESHEET_LINK.md", "default")
def _stylesheet_not_email(row: dict[str, str]) -> None:
    # lychee's total is 0 because it drops root-relative links; the point of the row is "not an e-mail"
    assert urls("lychee/TEST_STYLESHEET_LINK.md") == ["/@global/global.css"], DIFFERENCES["root-relative"]
    assert not any(u.startswith("mailto:") for u in urls("lychee/TEST_STYLESHEET_LINK.md"))


@check("lychee/TEST_GITHUB.md", "default")
def _github(row: dict[str, str]) -> None:
    assert urls("lychee/TEST_GITHUB.md") == ["https://github.com/lycheeverse/lychee"] and first_int(row) == 1


def _contains_not_contains(rel: str) -> None:
    assert "https://example.com" in urls(rel, in_code=False)
    prose = " ".join(urls(rel, in_code=False))
    assert "cdn.posit.co" not in prose and "inline.example.com" not in prose
    code = " ".join(urls(rel, in_code=True))
    assert "cdn.posit.co" in code and "inline.example.com" in code, DIFFERENCES["code-flagged"]


@check("lychee/TEST_QUARTO.qmd", "--dump")
def _quarto(row: dict[str, str]) -> None:
    _contains_not_contains("lychee/TEST_QUARTO.qmd")


@check("lychee/TEST_RMARKDOWN.Rmd", "--dump")
def _rmarkdown(row: dict[str, str]) -> None:
    _contains_not_contains("lychee/TEST_RMARKDOWN.Rmd")


@check("lychee/mdx/test.mdx", "--dump")
def _mdx(row: dict[str, str]) -> None:
    assert expected_urls(row) <= norms(urls("lychee/mdx/test.mdx"))


@check("lychee/TEST_WIKI.md", "--dump")
def _wiki_default(row: dict[str, str]) -> None:
    assert norms(urls("lychee/TEST_WIKI.md")) == expected_urls(row) == set()


@check("lychee/TEST_WIKI.md", "--dump --include-wikilinks --base-url <fixtures dir>")
def _wiki_included(row: dict[str, str]) -> None:
    # lychee resolves [[LycheeWikilink]] when asked; citecheck never does
    assert "LycheeWikilink" in doc("lychee/TEST_WIKI.md").text
    assert urls("lychee/TEST_WIKI.md") == [], DIFFERENCES["no-wikilinks"]


@check("lychee/double-count/index.md + lychee/double-count/home.md", "both files as inputs")
def _double_count(row: dict[str, str]) -> None:
    inputs = collect([str(PEER / "lychee/double-count/index.md"), str(PEER / "lychee/double-count/home.md")])
    found = [link.url for d in inputs.documents for link in d.links]
    assert (len(found), len(set(found))) == (6, 3)
    assert found.count("resource-1.md") == 2


@check("lychee/LINK_PERIOD.html", "--dump")
def _link_period(row: dict[str, str]) -> None:
    assert urls("lychee/LINK_PERIOD.html") == ["https://www.example.com/smth."]


@check("lychee/TEST_VERBATIM.html", "--dump")
def _verbatim_default(row: dict[str, str]) -> None:
    assert norms(urls("lychee/TEST_VERBATIM.html", in_code=False)) == expected_urls(row)


@check("lychee/TEST_VERBATIM.html", "--dump --include-verbatim (served over HTTP)")
def _verbatim_included(row: dict[str, str]) -> None:
    got = urls("lychee/TEST_VERBATIM.html", in_code=True)
    for element in ("pre", "code", "samp", "kbd", "var"):
        assert f"http://www.example.com/{element}" in got
    assert "http://www.example.com/script" not in urls("lychee/TEST_VERBATIM.html"), DIFFERENCES["no-script-text"]


@check("lychee/TEST_HTTP.html", "--require-https")
def _require_https(row: dict[str, str]) -> None:
    # the message is a check-stage verdict; extraction must hand the http:// link to it
    assert urls("lychee/TEST_HTTP.html") == ["http://example.com"]


@check("lychee/TEST_DATA_URIS.html", "--dump")
def _data_uris(row: dict[str, str]) -> None:
    got = urls("lychee/TEST_DATA_URIS.html")
    web = [u for u in got if not u.startswith("data:") and "w3.org/2000/svg" not in u]
    assert norms(web) == expected_urls(row)
    assert len(got) == 5, DIFFERENCES["opaque-data-uri"]


@check("lychee/TEST_DATA_URIS.html", "--dump --verbose")
def _data_uris_verbose(row: dict[str, str]) -> None:
    assert len(urls("lychee/TEST_DATA_URIS.html")) == first_int(row)


def _html5(row: dict[str, str]) -> None:
    got = absolute(urls(row["file"]))
    if row["file"].endswith("MALFORMED_LINKS.html"):
        malformed = {"https://example]org/malformed_two"}
        assert malformed <= set(got), DIFFERENCES["keeps-malformed"]
        got = [u for u in got if u not in malformed]
    assert norms(got) == expected_urls(row)


for _name in ("TEST_HTML5", "TEST_HTML5_LOWERCASE_DOCTYPE", "TEST_HTML5_MINIFIED", "TEST_HTML5_MALFORMED_LINKS",
              "TEST_HTML5_CUSTOM_ELEMENTS"):
    check(f"lychee/{_name}.html", "library extractor (HTML)")(_html5)


def _network_note(row: dict[str, str]) -> None:
    # the verdict needs the network; extraction must yield the URL the note is about
    assert expected_urls(row) and expected_urls(row) <= norms(urls(row["file"]))


for _file, _options in (("lychee/INTERNET_ARCHIVE.md", "--suggest (needs network)"),
                        ("lychee/FRAGMENT_REGRESSION.md", "--include-fragments (needs network)"),
                        ("lychee/TEST_FRAGMENT_ERR_CODE.md", "--include-fragments (needs network)")):
    check(_file, _options)(_network_note)


@check("markdown-link-check/hash-links.md", "default options")
def _hash_links(row: dict[str, str]) -> None:
    stated = [part.strip().rsplit(" ", 1)[0] for part in row["expected"].split("  (")[0].split("|")]
    seen = list(dict.fromkeys(urls("markdown-link-check/hash-links.md")))  # it checks each link once
    assert [norm(u) for u in seen] == [norm(u) for u in stated]


@check("markdown-link-check/sample.md", "%%BASE_URL%% replaced by a local mock server")
def _mlc_sample(row: dict[str, str]) -> None:
    got = urls("markdown-link-check/sample.md")
    assert len(got) == first_int(row) == 20
    assert got[-2:] == ["hhttppss://example.org", "applesauce://example.org"]


@check("markdown-link-check/file.md", "%%BASE_URL%% -> file:// dir")
def _mlc_disabled(row: dict[str, str]) -> None:
    got = urls("markdown-link-check/file.md")
    assert got[:3] == ["%%BASE_URL%%/hello.jpg", "hello.jpg", "goodbye.jpg"] and first_int(row) == 3
    assert len(got) == 7, DIFFERENCES["no-peer-directives"]


@check("markdown-link-check/section-links.md", "baseUrl https://BASEURL")
def _mlc_sections(row: dict[str, str]) -> None:
    assert len(urls("markdown-link-check/section-links.md")) == first_int(row)


@check("linkchecker/file.markdown", "file check")
def _lc_markdown(row: dict[str, str]) -> None:
    got = norms(urls("linkchecker/file.markdown"))
    assert expected_urls(row) - got == {norm("http://urllink2.example.com")}, DIFFERENCES["commonmark-dest"]
    assert got - expected_urls(row) == {norm("http://urllink2")}, DIFFERENCES["commonmark-dest"]


@check("linkchecker/file.txt", "file check")
def _lc_text(row: dict[str, str]) -> None:
    assert expected_urls(row) == set()
    assert urls("linkchecker/file.txt") == ["file:///etc/group"], DIFFERENCES["reads-text"]


@check("linkchecker/urllist.txt", "file check (URL list format)")
def _lc_urllist(row: dict[str, str]) -> None:
    assert urls("linkchecker/urllist.txt") == ["javascript:loadthis()"], DIFFERENCES["prose-not-list"]
    assert "file.html" in row["expected"]


# LinkChecker's .result files: URLs it reads that citecheck does not, with the reason.
LINKCHECKER_ONLY = {
    "http.html": {"clsid:12345-67890": "obsolete-attrs", "http://example.org/foo/ #a=1,2,3": "obsolete-attrs",
                  "file.html": "obsolete-attrs", "file.asc": "obsolete-attrs", "file.txt": "obsolete-attrs",
                  "dns://www.example.org": "dns-prefetch", "dns://www.example.com": "dns-prefetch"},
    "misc.html": {"http://www.example.com/": "obsolete-attrs"},
}


@check("linkchecker/*.html", "see matching .result file")
def _lc_html(row: dict[str, str]) -> None:
    for page in sorted(PEER.glob("linkchecker/*.html")):
        stated = [line[4:] for line in (page.parent / (page.name + ".result")).read_text("utf-8").splitlines()
                  if line.startswith("url ")][1:]  # the first is the page itself
        got = set(urls(f"linkchecker/{page.name}"))
        only = {u: DIFFERENCES[r] for u, r in LINKCHECKER_ONLY.get(page.name, {}).items()}
        missing = {u.replace("%%", "%") for u in stated} - got - set(only)
        assert not missing, f"{page.name}: LinkChecker reads {sorted(missing)}, citecheck does not"
        stale = {u for u in only if u in got}
        assert not stale, f"{page.name}: {sorted(stale)} listed as LinkChecker-only but citecheck reads them"


def _rows() -> list[dict[str, str]]:
    with open(PEER / "EXPECTED.tsv", encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


ROWS = _rows()


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['file']}|{r['options']}" for r in ROWS])
def test_expected_row(row: dict[str, str]) -> None:
    handler = CHECKS.get((row["file"], row["options"]))
    assert handler is not None, f"EXPECTED.tsv row without a check: {row['file']} / {row['options']}"
    handler(row)


def test_every_check_has_a_row() -> None:
    assert set(CHECKS) == {(r["file"], r["options"]) for r in ROWS}


def _extractor_cases() -> list[tuple[str, list[str]]]:
    with open(PEER / "markdown-link-extractor" / "cases.tsv", encoding="utf-8", newline="") as fh:
        return [(r["input_markdown"], [u.strip() for u in r["expected_links_in_order"].split("|") if u.strip()])
                for r in csv.DictReader(fh, delimiter="\t")]


# markdown-link-extractor (marked) accepts a size suffix in image destinations: `(foo.jpg =20%x50)`
# is not a link in CommonMark, so citecheck finds nothing there (intended: CommonMark rules).
NOT_COMMONMARK = {"![example](foo/image.jpg =20%x50)"}


@pytest.mark.parametrize("source,expected", _extractor_cases())
def test_markdown_link_extractor_case(source: str, expected: list[str]) -> None:
    got = [link.url for link in extract_document("case.md", source).links]
    assert got == ([] if source in NOT_COMMONMARK else expected)


def _realworld_files() -> list[Path]:
    files = sorted(REALWORLD.glob("markdown/*.md"))
    for path in sorted(PEER.rglob("*")):
        if path.is_file() and path.suffix.lower() in {".md", ".markdown", ".html", ".htm", ".txt", ".qmd", ".rmd",
                                                       ".mdx"}:
            files.append(path)
    return files


def _readable(path: Path) -> str | None:
    try:
        return read_text(str(path))
    except InputError as err:  # the one deliberately broken file: lychee's invalid_utf8 fixture
        assert "invalid_utf8" in str(path), err
        return None


@pytest.mark.parametrize("path", _realworld_files(), ids=lambda p: str(p.relative_to(REALWORLD)))
def test_positions_point_at_the_url_text(path: Path) -> None:
    text = _readable(path)
    if text is None:
        return
    document = extract_document(str(path), text, sniff(str(path), text))
    lines = text.split("\n")
    for link in document.links:
        assert link.raw, link
        at = lines[link.location.line - 1][link.location.column - 1:]
        assert at.startswith(link.raw), (link.location, link.raw, at[:60])
    for marker in document.markers:
        at = lines[marker.location.line - 1][marker.location.column - 1:]
        assert at.lower().startswith(("src-", "<needs", "<insufficient", "<needs-deeper", "@")), (marker, at[:40])


def test_realworld_markdown_is_link_heavy() -> None:
    # guards the position test above against a parser that silently finds nothing
    counts = {p.name: len(extract_document(str(p), read_text(str(p))).links) for p in REALWORLD.glob("markdown/*.md")}
    assert len(counts) == 10 and min(counts.values()) >= 5 and sum(counts.values()) > 1000, counts


def test_every_difference_is_documented() -> None:
    doc = (ROOT / "docs" / "extraction.md").read_text(encoding="utf-8")
    assert not [key for key in DIFFERENCES if f"`{key}`" not in doc]
