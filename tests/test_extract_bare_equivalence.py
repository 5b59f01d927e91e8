"""Differential test: `find_urls` returns exactly what it did before its scheme pass was made to
try one place per colon (and its hints became substring tests). The oracle below is a verbatim
copy of what the change replaced (the passes, their regexes and hints, `_classify` and the defang
test); `BareMatch` and the helpers the change left alone (`refang`, `trim`, `known_suffix`,
`_blank`) are the module's own, so results compare field by field.
Kept to a few seconds."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from citecheck.extract.bare import BareMatch, _blank, find_urls, known_suffix, refang, trim

# --- oracle: the parts of citecheck/extract/bare.py the speed-up replaced, verbatim ---------------

_DOT = r"(?:\.|\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\))"
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_PATH_CHARS = r"[^\s<>\"'`\u00a0\u3000]"

_SCHEME_RE = re.compile(
    r"(?<![\w@+.-])(?P<scheme>(?:(?:https?|hxxps?|hXXps?|h\*\*ps?|ftp|fxp|sftp|file|javascript|data|mailto|tel|ws|wss)"
    r"(?:\[:\]|:)(?://|\\\\)?)|[a-z][a-z0-9+.-]{1,31}://)" + _PATH_CHARS + "+",
    re.IGNORECASE,
)
# A host never starts right after a word character, a dot, or a closing bracket: besides being
# right, this keeps every pattern linear (no restart inside a long `a[.]a[.]a…` run).
_PROTO_RELATIVE_RE = re.compile(r"(?<![\w:/\])}])//(?:" + _LABEL + _DOT + r")+[a-z]{2,}(?:[/:?#]" + _PATH_CHARS + r"*)?", re.IGNORECASE)
_WWW_RE = re.compile(r"(?<![\w./@\])}-])www\d{0,3}" + _DOT + r"(?:" + _LABEL + _DOT + r")*[a-z]{2,63}(?:[/:?#]" + _PATH_CHARS + r"*)?", re.IGNORECASE)
_DOMAIN_RE = re.compile(
    r"(?<![\w./@:\])}-])(?:" + _LABEL + _DOT + r")+(?P<tld>[a-z]{2,63})(?P<rest>/" + _PATH_CHARS + r"*)",
    re.IGNORECASE,
)
_DEFANGED_HOST_RE = re.compile(
    r"(?<![\w./@\])}-])(?:" + _LABEL + r"(?:\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|\.))+" + r"[a-z]{2,63}(?:[/:?#]" + _PATH_CHARS + r"*)?",
    re.IGNORECASE,
)
_DEFANG_HINT = re.compile(r"\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)", re.IGNORECASE)
_WWW_HINT = re.compile("www", re.IGNORECASE)
_FANG = [("[.]", "."), ("(.)", "."), ("{.}", "."), ("[dot]", "."), ("(dot)", "."), ("[:]", ":")]


def _has_defang(text: str) -> bool:
    return _DEFANG_HINT.search(text) is not None


def _is_defanged(raw: str) -> bool:
    lowered = raw.lower()
    return lowered.startswith(("hxxp", "h**p", "fxp")) or any(f in lowered for f, _ in _FANG)


def _oracle_find_urls(text: str) -> Iterator[BareMatch]:
    """Yield every URL-like string in `text`, left to right, without overlaps.

    Passes run from the most to the least specific pattern. Text a pass claims is blanked (same
    length, so offsets hold) before the next pass, which therefore cannot overlap it and skips
    the long URL it would otherwise re-scan; a pass whose cheap precondition fails on what is left
    is skipped (most prose has no `www`, `//` or `/` outside the URLs already found).
    """
    found: list[BareMatch] = []
    for regex, kind, hint in _PASSES:
        if not hint(text):
            continue
        claimed = [match for m in regex.finditer(text) if (match := _candidate(m, kind))]
        if claimed:
            found.extend(claimed)
            text = _blank(text, claimed)
    found.sort(key=lambda b: b.start)
    yield from found


def _candidate(m: re.Match[str], kind: str) -> BareMatch | None:
    raw = trim(m.group(0))
    return _classify(raw, kind, m.start()) if len(raw) >= 4 else None


def _classify(raw: str, kind: str, start: int) -> BareMatch | None:
    defanged = _is_defanged(raw)
    if kind == "defanged" and not defanged:
        return None  # plain hosts without a path are ordinary words like "e.g" or "node.js"
    url = refang(raw) if defanged else raw
    if kind == "bare":
        scheme = _SCHEME_RE.match(url)
        if scheme is None or not url[scheme.end("scheme"):].lstrip("/\\"):
            return None  # a scheme with nothing after it ("http://") is not a URL
        if url.lower().startswith(("http:", "https:")) and "://" not in url:
            return None
        return BareMatch(start, raw, url, "defanged" if defanged else "bare")
    if url.startswith("//"):
        host = re.split(r"[/:?#]", url[2:], maxsplit=1)[0]
        return BareMatch(start, raw, "https:" + url, "defanged" if defanged else "domain") if known_suffix(host.lower()) else None
    host = re.split(r"[/:?#]", url, maxsplit=1)[0]
    if not known_suffix(host.lower()):
        return None
    return BareMatch(start, raw, "http://" + url, "defanged" if defanged else kind)


_PASSES: tuple[tuple[re.Pattern[str], str, Callable[[str], bool]], ...] = (
    (_SCHEME_RE, "bare", lambda text: ":" in text),
    (_PROTO_RELATIVE_RE, "domain", lambda text: "//" in text),
    (_WWW_RE, "www", lambda text: _WWW_HINT.search(text) is not None),
    (_DEFANGED_HOST_RE, "defanged", _has_defang),
    (_DOMAIN_RE, "domain", lambda text: "/" in text),
)

# --- generated text ------------------------------------------------------------------------------

# Pieces that reach every pass and every branch of trimming and classifying, glued without spaces
# as often as not, so look-behinds, runs before a colon and blanked text all get exercised.
PIECES = [
    "http://", "https://", "HTTPS://", "hxxp://", "hXXps://", "h**p://", "H**PS://", "fxp://", "ftp://", "sftp://",
    "file:///", "javascript:", "data:", "mailto:", "tel:", "ws://", "wss://", "git+ssh://", "x-y.z://", "a:",
    "http[:]//", "hxxps[:]//", "http:\\\\", "https:", "//", "www.", "WWW.", "www3.", "www[.]", "[.]", "(.)", "{.}",
    "[dot]", "(DOT)", ".", "..", "[:]", "example", "example.com", "a.b.co.uk", "münchen.de", "xn--mnchen-3ya.de",
    "例え.jp", "github.io", "node.js", "e.g", "127.0.0.1", ":8080", "/", "/path", "/a_(b)", "?q=1&r=2", "#frag",
    "user@example.com", "@", "+", "-", "_", "*", "**", "~", "'", '"', "`", ",", ";", "!", ")", "(", "]", "[", "}",
    "{", "<", ">", "&gt;", "&lt;", "&amp;", "[text](", "](http://a.b/c)", "<https://a.b>", "![img](", " ", " ",
    "\n", "\u00a0", "\u3000", "\t", "é", "K", "ſ", "ı", "İ", "0", "9", "see ", "and/or ", "x" * 30, "y" * 34,
]
# Whole URL-like strings in every spelling the passes know, so each pass gets real work.
URLS = st.builds(
    lambda prefix, labels, dot, tld, path, tail: prefix + dot.join([*labels, tld]) + path + tail,
    st.sampled_from(["", "", "http://", "HTTPS://", "hxxps[:]//", "h**p://", "//", "www.", "WWW.", "Www3.", "mailto:"]),
    st.lists(st.sampled_from(["example", "a", "sub-1", "xn--mnchen-3ya", "münchen", "www", "K", "ſ"]), min_size=1,
             max_size=3),
    st.sampled_from([".", ".", "[.]", "(.)", "{.}", "[dot]", "(DOT)"]),
    st.sampled_from(["com", "co.uk", "io", "zz", "js", "g", "ORG"]),
    st.sampled_from(["", "/", "/path", "/a_(b)", "/x?q=1&r=2#f", ":8080/x", "/é"]),
    st.sampled_from(["", ".", ")", "),", "&gt;", "'", "**", "]", "\\"]),
)
TEXTS = st.one_of(
    st.lists(st.one_of(URLS, st.sampled_from(PIECES)), max_size=16).map("".join),
    st.lists(st.sampled_from(PIECES), max_size=30).map("".join),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=3)), max_size=20).map("".join),
    st.text(alphabet="hxtps:/[.]()wdo*aeb-@_ ", max_size=60),
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
@example("see h**p://example.com/x and xh**ps://y.com/z")  # the one scheme whose run holds a "*"
@example("x" * 33 + "://a.b/c " + "y" * 32 + "://a.b/c")  # schemes just past and at the longest length
@example("WWW.Example.COM and Www2.example.org (see hxxp://x[.]y), a{.}b[DOT]io")
@example("a:b:http[:]//evil[.]com/x, www.example.com/y; example.org/z (//cdn.example.net/q)")
def test_find_urls_matches_the_original(text: str) -> None:
    assert list(find_urls(text)) == list(_oracle_find_urls(text)), text


@pytest.mark.parametrize("mark", ["[.]", "(.)", "{.}", "[dot]", "(DOT)", "[Dot]", "{dot}"])
@pytest.mark.parametrize("prefix", ["", "wWw", "hxxp://", "//"])
def test_each_pass_hint_alone_matches_the_original(prefix: str, mark: str) -> None:
    """One mark per text, so a hint that misses any one of them shows."""
    text = f"ask {prefix}example{mark}com or {prefix}example{mark}co{mark}uk/x"
    assert list(find_urls(text)) == list(_oracle_find_urls(text)), text
