"""The renderer is the oracle: render the memo the way readers will, and list every link it makes.

The gate's detector (`detect.py`) decides what *looks* like a URL; this module asks the renderers
that will actually show the memo what *becomes* a link: GitHub's cmark-gfm (with its autolink,
table, strikethrough and footnote extensions, raw HTML kept so nothing is hidden from the check)
and markdown-it-py with GFM extensions and linkify (the fuzzy `Amazon.com` links that
linkify-it makes). Every URL-bearing attribute of every element of both renderings is read
with lxml. `write` calls `leaks()` on its own output and never writes a memo that renders a
link outside the corpus (see `gate.fail_closed`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote

import cmarkgfm
from cmarkgfm.cmark import Options
from lxml import html as lxml_html
from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin

from citecheck.errors import CitecheckError, LeakError
from citecheck.urltext.corpusindex import CorpusIndex
from citecheck.urltext.regions import in_tag
from citecheck.urltext.scrub import UNCORPUSED, marker

# Attributes whose value a browser fetches or follows.
URL_ATTRIBUTES = frozenset((
    "href", "src", "srcset", "action", "formaction", "poster", "cite", "background", "data", "longdesc",
    "ping", "manifest", "codebase", "archive", "lowsrc", "dynsrc", "xlink:href", "imagesrcset", "itemid",
))
_CMARK_OPTIONS = Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_FOOTNOTES


@dataclass(frozen=True)
class Rendered:
    """One link a renderer made: which renderer, the attribute value and the element's text."""

    renderer: str  # cmark-gfm | markdown-it
    url: str
    text: str


@lru_cache(maxsize=1)
def _markdown_it() -> MarkdownIt:
    return MarkdownIt("gfm-like", {"html": True, "linkify": True}).use(footnote_plugin)


def render_cmark(text: str) -> str:
    """`text` as GitHub renders it (before GitHub's sanitiser, which only removes)."""
    return str(cmarkgfm.github_flavored_markdown_to_html(text, options=_CMARK_OPTIONS))


def render_markdown_it(text: str) -> str:
    """`text` through markdown-it-py with tables, strikethrough, footnotes, raw HTML and linkify."""
    return _markdown_it().render(text)


def links_in_html(page: str, renderer: str) -> list[Rendered]:
    """Every URL-bearing attribute value in an HTML fragment, with its element's text."""
    if not page.strip():
        return []
    root = lxml_html.fragment_fromstring(page, create_parent="div")
    found: list[Rendered] = []
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue  # comments and processing instructions carry no followed attribute
        for name, value in element.attrib.items():
            if name.lower() in URL_ATTRIBUTES and value.strip():
                found.append(Rendered(renderer, value.strip(), element.text_content()))
    return found


def rendered_links(text: str) -> list[Rendered]:
    """Every link either renderer makes of the Markdown `text`.

    cmark-gfm (C, a few times the text in memory) renders the whole memo. markdown-it-py keeps a
    token object per construct (hundreds of times the text), so a memo above `PIECE` is rendered
    by it in pieces cut at blank lines: what only markdown-it links (linkify's fuzzy hosts) never
    spans a blank line, and reference links across pieces are cmark's to see. One paragraph above
    `PIECE` is refused (exit 2) rather than checked by one renderer only.
    """
    found = links_in_html(render_cmark(text), "cmark-gfm")
    for piece in pieces(text):
        found += links_in_html(render_markdown_it(piece), "markdown-it")
    return found


PIECE = 1024 * 1024


def pieces(text: str) -> list[str]:
    """`text` whole, or cut at blank lines into runs of at most `PIECE` characters."""
    if len(text) <= PIECE:
        return [text]
    out: list[str] = []
    for block in text.split("\n\n"):
        if len(block) > PIECE:
            raise CitecheckError(f"write: a paragraph of {len(block)} characters is above the {PIECE}-character "
                                 "limit of the render check; refusing to write the memo")
        if out and len(out[-1]) + len(block) + 2 <= PIECE:
            out[-1] += "\n\n" + block
        else:
            out.append(block)
    return out


def leaks(text: str, index: CorpusIndex) -> list[Rendered]:
    """The rendered links of `text` that are neither a corpus URL nor a same-document `#fragment`."""
    return [link for link in rendered_links(text) if not _allowed(link.url, index)]


def _allowed(url: str, index: CorpusIndex) -> bool:
    if url.startswith("#") or index.lookup(url):
        return True
    for form in host_forms(url)[1:]:  # another spelling of the host: the browser's host must be the entry's
        source = index.source(index.lookup(form))
        if source is not None and _host2008(url) in {_host2008(u) for u in (source.url, source.canonical_url,
                                                                           source.final_url) if u}:
            return True
    return False


def _host2008(url: str) -> str:
    """The host a browser would connect to, in IDNA 2008's ASCII form ('' when there is none). The
    fact keys fold IDNA 2003's way (`straße.de` is `strasse.de` there, another domain to a browser)."""
    match = _AUTHORITY_RE.match(url)
    if match is None:
        return ""
    host = unquote(match.group(2)).rpartition("@")[2].partition(":")[0].rstrip(".").lower()
    return _idna(host, "encode") or host


_AUTHORITY_RE = re.compile(r"^([a-z][a-z0-9+.-]*://)([^/?#]*)(.*)$", re.IGNORECASE | re.DOTALL)


def host_forms(url: str) -> list[str]:
    """`url` as a renderer wrote it and with its host in both IDN forms: cmark-gfm percent-encodes
    `bücher.example` (`b%C3%BCcher.example`), markdown-it writes punycode (`xn--bcher-kva.example`),
    and the corpus may hold either."""
    forms = [url]
    match = _AUTHORITY_RE.match(url)
    if match is None:
        return forms
    scheme, authority, rest = match.groups()
    host = unquote(authority)
    if any(c in host for c in "/?#@\\") or host.count(":") > 1:
        return forms  # a decoded delimiter would read as another URL than the browser's: never equated
    for spelling in (host, _idna(host, "encode"), _idna(host, "decode")):
        if spelling and spelling != authority:
            forms.append(scheme + spelling + rest)
    return list(dict.fromkeys(forms))


def _idna(host: str, way: str) -> str:
    """The host (a port after it kept) in IDNA 2008's ASCII or Unicode form (UTS 46, as markdown-it
    and browsers spell it: `straße` is `xn--strae-oqa`, never IDNA 2003's `strasse`, another
    domain); '' when it has none."""
    import idna

    name, colon, port = host.partition(":")
    try:
        spelled = idna.encode(name, uts46=True).decode("ascii") if way == "encode" else idna.decode(name)
    except (UnicodeError, idna.IDNAError):
        return ""
    return f"{spelled}{colon}{port}"


_FUZZY_HOST_RE = re.compile(r"^[\w~-]+(?:\.[\w~-]+)+$")  # linkify-it takes a `~` into the host
_FUZZY_HREF_RE = re.compile(r"^https?://[^/?#@:]+$", re.IGNORECASE)
_MAX_PASSES = 5


def fail_closed(text: str, index: CorpusIndex, generated: str = "") -> tuple[str, list[str]]:
    """`text` + `generated` with every rendered link outside the corpus taken out of `text`, and the
    links taken out. `generated` (the citation list, built from the corpus) is rendered with `text`
    but never edited: taking a link's words out of it would cut a source ID out of an entry, and the
    next run would no longer recognise the list (write output is a fixed point).

    A schemeless host with nothing after it (`Amazon.com`, which only linkify makes a link) keeps
    its words: its dots are escaped, which no renderer links. Anything else found in the text is
    replaced by a `<needs-source/>` marker. A link that cannot be found in the text, or that
    survives five passes, stops the write (`LeakError`): a memo that leaks is never written.

    Each pass takes out every distinct link of one rendering. A name with no whole-word occurrence
    left was unlinked by an earlier take-out of the pass (`evil.com` escaped inside `~evil.com`), so
    it waits for the next rendering; only a pass that can do nothing else searches for it as plain
    text, which may cut into a longer word (`xevil.com`).
    """
    taken: list[str] = []
    for _ in range(_MAX_PASSES):
        found = _distinct(leaks(text + generated, index))
        if not found:
            return text + generated, taken
        before = text
        for last_resort in (False, True):
            for link in found:
                outcome = _take_out(text, link, last_resort)
                if outcome is not None:
                    text, written = outcome
                    taken += [written] if written else []
            if text != before:
                break
        else:
            raise LeakError(f"write: the rendered memo links {found[0].url!r} ({found[0].renderer}), which is not "
                            "in the corpus, and the gate cannot find it in the text; refusing to write the memo")
    raise LeakError(f"write: the rendered memo still links {found[0].url!r} ({found[0].renderer}) after "
                    f"{_MAX_PASSES} passes; refusing to write the memo")


def _distinct(found: list[Rendered]) -> list[Rendered]:
    """One link per (href, text): a take-out removes every occurrence at once (`evil.com evil.com`,
    or the same link from both renderers), so a repeat would search only for what is already gone."""
    first: dict[tuple[str, str], Rendered] = {}
    for link in found:
        first.setdefault((link.url, link.text.strip()), link)
    return list(first.values())


def _take_out(text: str, link: Rendered, last_resort: bool = True) -> tuple[str, str] | None:
    """(new text, what was taken out: '' for an escaped name), or None when `link` is not in `text`
    (a name is searched as plain text only as a `last_resort`)."""
    shown = link.text.strip()
    if _FUZZY_HOST_RE.match(shown) and _FUZZY_HREF_RE.match(link.url):  # the href may be punycode
        escaped, count = _escape_name(text, shown, link.url.split("://", 1)[1].lower())
        if count:
            return escaped, ""  # a name, not a URL as written: not reported
        if not last_resort:
            return None
    bare = re.sub(r"^(?:mailto:|https?://)", "", link.url, flags=re.IGNORECASE)
    for candidate in dict.fromkeys((shown, link.url, bare, unquote(link.url), unquote(bare))):
        if len(candidate) >= 3 and candidate in text:
            return _replace(text, candidate, marker(UNCORPUSED)), candidate
    return None


def _replace(text: str, found: str, replacement: str) -> str:
    """Every `found` in `text` replaced; inside an HTML tag by `#` (a same-document link), never by
    the marker, whose own `<`, `>` and quotes would break the tag open."""
    out, pos = [], 0
    for match in re.finditer(re.escape(found), text):
        out += [text[pos:match.start()], "#" if in_tag(text, match.start()) else replacement]
        pos = match.end()
    return "".join(out) + text[pos:]


_NAME_RE = re.compile(r"[\w~-]+(?:\.[\w~-]+)+")


def _escape_name(text: str, shown: str, host: str) -> tuple[str, int]:
    """`text` with the dots of every whole-word `shown` escaped (linkify links `éevil.com` whole, not
    its `evil.com`; the host inside a corpus URL `<https://amazon.com/x>` stays intact), or, when
    `shown` is not written (linkify shows `xn--bcher-kva.рф` as `bücher.рф`), of every spelling of `host`."""
    escaped, count = _whole_word(shown).subn(_escape_dots, text)
    if count or host == shown.lower():
        return escaped, count
    for spelling in {m.group(0) for m in _NAME_RE.finditer(text) if _ascii_host(m.group(0)) == host}:
        escaped, more = _whole_word(spelling).subn(_escape_dots, escaped)
        count += more
    return escaped, count


def _whole_word(name: str) -> re.Pattern[str]:
    return re.compile(r"(?<![^\W_]|[./:@-])" + re.escape(name) + r"(?![^\W_]|[/-])")


def _escape_dots(match: re.Match[str]) -> str:
    return match.group(0).replace(".", "\\.")


def _ascii_host(name: str) -> str:
    try:
        return name.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return name.lower()
