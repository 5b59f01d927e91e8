"""Public suffixes and registrable domains: tldextract over its bundled snapshot, ICANN section only,
never fetched and never cached on disk.

`ANSWERS` are the answers citecheck gave before it asked tldextract itself (its own reader of the
snapshot, `citecheck/psl.py`, deleted on 2026-12-02): hosts of every shape a memo or a redirect can
hold (IDNs, punycode, full-width dots, IPs, unknown suffixes, trailing dots, `localhost`, the
list's private section such as `github.io`, URL-ish text).
"""
from __future__ import annotations

import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from citecheck import urls
from citecheck.urls import public_suffix, registrable_domain

# (host, public suffix, registrable domain)
ANSWERS = [
    ('www.bls.gov', 'gov', 'bls.gov'),
    ('news.bbc.co.uk', 'co.uk', 'bbc.co.uk'),
    ('bbc.co.uk', 'co.uk', 'bbc.co.uk'),
    ('co.uk', 'co.uk', ''),
    ('uk', 'uk', ''),
    ('a.b.c.org', 'org', 'c.org'),
    ('EXAMPLE.COM', 'COM', 'EXAMPLE.COM'),
    ('Www.Example.Org', 'Org', 'Example.Org'),
    ('www.sec.gov', 'gov', 'sec.gov'),
    ('ox.ac.uk', 'ac.uk', 'ox.ac.uk'),
    ('www.gov.uk', 'gov.uk', 'www.gov.uk'),
    ('city.kawasaki.jp', 'kawasaki.jp', 'city.kawasaki.jp'),
    ('x.city.kawasaki.jp', 'kawasaki.jp', 'city.kawasaki.jp'),
    ('a.b.c.kawasaki.jp', 'c.kawasaki.jp', 'b.c.kawasaki.jp'),
    ('kawasaki.jp', 'jp', 'kawasaki.jp'),
    ('www.ck', 'ck', 'www.ck'),
    ('x.www.ck', 'ck', 'www.ck'),
    ('a.b.ck', 'b.ck', 'a.b.ck'),
    ('b.ck', 'b.ck', ''),
    ('example.com.au', 'com.au', 'example.com.au'),
    ('foo.bar.kyoto.jp', 'kyoto.jp', 'bar.kyoto.jp'),
    ('user.github.io', 'io', 'github.io'),
    ('github.io', 'io', 'github.io'),
    ('a.user.github.io', 'io', 'github.io'),
    ('waiterrant.blogspot.com', 'com', 'blogspot.com'),
    ('blogspot.com', 'com', 'blogspot.com'),
    ('bucket.s3.amazonaws.com', 'com', 'amazonaws.com'),
    ('app.herokuapp.com', 'com', 'herokuapp.com'),
    ('proj.appspot.com', 'com', 'appspot.com'),
    ('x.pages.dev', 'dev', 'pages.dev'),
    ('site.netlify.app', 'app', 'netlify.app'),
    ('x.vercel.app', 'app', 'vercel.app'),
    ('foo.azurewebsites.net', 'net', 'azurewebsites.net'),
    ('a.b.cloudfront.net', 'net', 'cloudfront.net'),
    ('me.blogspot.co.uk', 'co.uk', 'blogspot.co.uk'),
    ('bücher.de', 'de', 'bücher.de'),
    ('xn--bcher-kva.de', 'de', 'xn--bcher-kva.de'),
    ('例子.中国', '中国', '例子.中国'),
    ('例子.xn--fiqs8s', 'xn--fiqs8s', '例子.xn--fiqs8s'),
    ('xn--fiqs8s', 'xn--fiqs8s', ''),
    ('a.xn--fiqs8s', 'xn--fiqs8s', 'a.xn--fiqs8s'),
    ('пример.рф', 'рф', 'пример.рф'),
    ('xn--e1afmkfd.xn--p1ai', 'xn--p1ai', 'xn--e1afmkfd.xn--p1ai'),
    ('xn--broken-', '', ''),
    ('a.xn--zz.com', 'com', 'xn--zz.com'),
    ('ÉCOLE.fr', 'fr', 'ÉCOLE.fr'),
    ('x。example。com', 'com', 'example.com'),
    ('x．example．com', 'com', 'example.com'),
    ('x｡co｡uk', 'co.uk', 'x.co.uk'),
    ('münchen.museum', 'museum', 'münchen.museum'),
    ('1.2.3.4', '', ''),
    ('127.0.0.1', '', ''),
    ('999.1.1.1', '', ''),
    ('10.0.0.1', '', ''),
    ('[::1]', '', ''),
    ('[2001:db8::1]', '', ''),
    ('[2001:db8::1]:443', '', ''),
    ('::1', '', ''),
    ('0x7f.0.0.1', '', ''),
    ('169.254.169.254', '', ''),
    ('acme-robotics.cmo', '', ''),
    ('reports.mckinsey', 'mckinsey', 'reports.mckinsey'),
    ('www.gartner.cmo', '', ''),
    ('intranet', '', ''),
    ('localhost', '', ''),
    ('foo.localhost', '', ''),
    ('host.local', '', ''),
    ('router.lan', '', ''),
    ('x.internal', '', ''),
    ('host.example', '', ''),
    ('example', '', ''),
    ('x.test', '', ''),
    ('a.invalid', '', ''),
    ('onion', 'onion', ''),
    ('abc.onion', 'onion', 'abc.onion'),
    ('label0', '', ''),
    ('host.label1', '', ''),
    ('com.', 'com', ''),
    ('example.com.', 'com', 'example.com'),
    ('www.bbc.co.uk.', 'co.uk', 'bbc.co.uk'),
    ('a..com', 'com', ''),
    ('.', '', ''),
    ('..', '', ''),
    ('', '', ''),
    ('.com', 'com', ''),
    ('x.co.uk..', 'co.uk', 'x.co.uk'),
    ('//host.co.uk/x', 'co.uk', 'host.co.uk'),
    ('ftp://h.org', 'org', 'h.org'),
    ('h.org#x', 'org', 'h.org'),
    ('user:pw@h.net:1', 'net', 'h.net'),
    ('x.example.com:8080', 'com', 'example.com'),
    ('https://user@x.bbc.co.uk/path?q#f', 'co.uk', 'bbc.co.uk'),
    ('http://github.io/', 'io', 'github.io'),
    ('a.b.c', '', ''),
    ('-bad-.com', 'com', '-bad-.com'),
    ('a_b.com', 'com', 'a_b.com'),
]


@pytest.mark.parametrize(("host", "suffix", "domain"), ANSWERS, ids=[repr(row[0]) for row in ANSWERS])
def test_answers_as_before(host: str, suffix: str, domain: str) -> None:
    assert (public_suffix(host), registrable_domain(host)) == (suffix, domain)


def test_private_section_is_not_a_suffix() -> None:
    """A page on `user.github.io` redirected to `other.github.io` stays on one registrable domain."""
    assert registrable_domain("user.github.io") == registrable_domain("other.github.io") == "github.io"
    assert public_suffix("waiterrant.blogspot.com") == "com"


@pytest.fixture
def suffix_list_server() -> Iterator[list[str]]:
    """A loopback server offering a suffix list in which `com` is no suffix; records each request."""
    asked: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            body = b"// ===BEGIN ICANN DOMAINS===\nnet\n// ===END ICANN DOMAINS===\n"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    asked.append(f"http://127.0.0.1:{server.server_address[1]}/list")
    yield asked
    server.shutdown()
    server.server_close()


def test_never_fetches_the_list_nor_writes_a_cache(suffix_list_server: list[str], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """tldextract's own defaults would fetch the list (from TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS here) and
    keep it under the user's cache directory; citecheck answers from the bundled snapshot only."""
    url = suffix_list_server.pop(0)
    home = tmp_path / "home"
    home.mkdir()
    for name, value in {"TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS": url, "HOME": str(home),
                        "XDG_CACHE_HOME": str(home / ".cache"), "TLDEXTRACT_CACHE": str(home / "tld")}.items():
        monkeypatch.setenv(name, value)
    urls.clear_memos()  # a fresh extractor, built under this environment
    try:
        assert public_suffix("www.example.com") == "com"
        assert registrable_domain("news.bbc.co.uk") == "bbc.co.uk"
    finally:
        urls.clear_memos()
    assert suffix_list_server == []
    assert not list(os.scandir(home))
