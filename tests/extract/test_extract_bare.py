"""The shared bare-URL matcher: what it finds, how it trims, and that it stays linear on hostile input."""
from __future__ import annotations

import time

import pytest

from citecheck.extract import extract_document
from citecheck.extract.bare import find_urls, trim


def found(text: str) -> list[tuple[str, str, str]]:
    return [(m.raw, m.url, m.kind) for m in find_urls(text)]


@pytest.mark.parametrize("text,expected", [
    ("(see https://a.com/c).", [("https://a.com/c", "https://a.com/c", "bare")]),
    ("https://en.wikipedia.org/wiki/Foo_(bar)", [("https://en.wikipedia.org/wiki/Foo_(bar)",) * 2 + ("bare",)]),
    ("**https://a.com/x**, and", [("https://a.com/x", "https://a.com/x", "bare")]),
    ("go to www.acme.co.uk/path.", [("www.acme.co.uk/path", "http://www.acme.co.uk/path", "www")]),
    ("sec.gov/cgi-bin/browse?x=1;", [("sec.gov/cgi-bin/browse?x=1", "http://sec.gov/cgi-bin/browse?x=1", "domain")]),
    ("hxxps://evil[.]com/a", [("hxxps://evil[.]com/a", "https://evil.com/a", "defanged")]),
    ("evil[.]com and bad(dot)org/x", [("evil[.]com", "http://evil.com", "defanged"),
                                      ("bad(dot)org/x", "http://bad.org/x", "defanged")]),
    ("hxxp[:]//a[.]b.com/x", [("hxxp[:]//a[.]b.com/x", "http://a.b.com/x", "defanged")]),
    ("s3://bucket/key and socks5://localhost:9050", [("s3://bucket/key", "s3://bucket/key", "bare"),
                                                    ("socks5://localhost:9050",) * 2 + ("bare",)]),
    ("mailto:ann@acme.com?subject=x", [("mailto:ann@acme.com?subject=x",) * 2 + ("bare",)]),
    ("//cdn.acme.com/lib.js", [("//cdn.acme.com/lib.js", "https://cdn.acme.com/lib.js", "domain")]),
    # what GitHub's autolink extension links: e-mail addresses, schemes and www. after `_` or a digit
    ("write ann@acme.com.", [("ann@acme.com", "mailto:ann@acme.com", "email")]),
    ("foo@bar.baz@qux.com", [("bar.baz@qux.com", "mailto:bar.baz@qux.com", "email")]),
    ("see_https://a.com/x", [("https://a.com/x", "https://a.com/x", "bare")]),
    ("1https://a.com/x", [("https://a.com/x", "https://a.com/x", "bare")]),
    ("_www.acme.com_", [("www.acme.com", "http://www.acme.com", "www")]),
])
def test_forms(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize("text", [
    "e.g. node.js and i.e. etc.", "http:// alone", "ann@acme", "a@b.c-", "version 1.2.3/4", "foo.notatld/path",
    "C://x", "data: 5 rows", "file.txt", "a..b/c",
])
def test_not_urls(text: str) -> None:
    assert found(text) == []


def test_trim_is_linear_and_balanced() -> None:
    assert trim("https://a.com/x)))") == "https://a.com/x"
    assert trim("https://a.com/(x)") == "https://a.com/(x)"
    assert trim("https://a.com/x&gt;") == "https://a.com/x"
    assert trim("https://a.com/x" + ")" * 200_000) == "https://a.com/x"


HOSTILE = {
    "dotted labels": "a." * 50_000,
    "dotted labels, slash": "a." * 50_000 + "/",
    "schemes": "http://" * 15_000,
    "empty schemes": "http:// " * 12_000,
    "www runs": "www." * 25_000,
    "defanged runs": "a[.]" * 25_000,
    "defanged runs, slash": "a[.]" * 25_000 + "b/",
    "dot-word runs": "a(dot)" * 16_000 + "com/",
    "brace runs": "a{.}" * 25_000,
    "closing parens": "http://a.com/" + ")" * 100_000,
    "long label": "a" * 100_000 + ".com/x",
    "hyphen labels": ("a" + "-" * 60 + "a.") * 1_600 + "com/",
    "protocol-relative": "//" + "a." * 50_000,
    "entities": "http://a.com/" + "&gt;" * 25_000,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_is_linear(name: str) -> None:
    text = HOSTILE[name]
    started = time.process_time()
    list(find_urls(text))
    small = time.process_time() - started
    started = time.process_time()
    list(find_urls(text * 2))
    double = time.process_time() - started
    # quadratic behaviour would take ~4x (and seconds); allow noise on a busy machine
    assert double < 2.0 and double < 3.5 * small + 0.05, (small, double)


@pytest.mark.parametrize("name", ["dotted labels", "schemes", "defanged runs", "closing parens", "www runs"])
@pytest.mark.parametrize("kind", ["markdown", "html", "text"])
def test_hostile_documents_extract_quickly(name: str, kind: str) -> None:
    started = time.process_time()
    extract_document("memo", HOSTILE[name], kind)
    assert time.process_time() - started < 3.0
