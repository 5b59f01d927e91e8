"""parse_body against a verbatim copy of its pre-optimisation version (the oracle).

The one-walk extraction of title, canonical link, meta tags and JSON-LD (`_head_facts`) must give
exactly the oracle's BodyFacts on every generated body. The oracle below is what the change
replaced — the old parse_body, _title, _canonical and _meta, verbatim but for the renames; do not
"fix" it. The helpers the change left alone (decode, the lxml parse, JSON-LD, visible text) are
the module's own.
"""
from __future__ import annotations

import hashlib

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from lxml import etree

from citecheck.fetch.parse import BodyFacts, _document, _json_ld, parse_body
from citecheck.fetch.parse import decode as _decode
from citecheck.fetch.parse import is_html as _is_html
from citecheck.fetch.parse import visible_text as _visible_text

TITLE_MAX = 500
HTML_MAX = 8 * 1024
PARSE_MAX = 1024 * 1024


# ---- oracle: the functions the change replaced, verbatim but for the renames ----

def oracle_parse_body(body: bytes, content_type: str = "text/html") -> BodyFacts:
    """Facts of an HTML body; a non-HTML body gets only its hash."""
    digest = hashlib.sha256(body).hexdigest()
    if not body or not _is_html(content_type, body):
        return BodyFacts(content_hash=digest)
    text = _decode(body, content_type)
    root = _document(text[:PARSE_MAX])
    if root is None:
        return BodyFacts(content_hash=digest, html_sample=text[:HTML_MAX])
    meta = _meta(root)
    title = _title(root) or meta.get("og:title", "")
    return BodyFacts(title=title, canonical=_canonical(root), text_sample=_visible_text(root),
                     html_sample=text[:HTML_MAX], content_hash=digest, meta=meta)


def _title(root: etree._Element) -> str:
    for el in root.iter("title"):
        text = "".join(str(t) for t in el.itertext())  # str(): lxml's stubs allow bytes
        return " ".join(text[: TITLE_MAX * 4].split())[:TITLE_MAX]
    return ""


def _canonical(root: etree._Element) -> str:
    for link in root.iter("link"):
        if "canonical" in (link.get("rel") or "").lower().split() and link.get("href"):
            return (link.get("href") or "").strip()[:2000]
    return ""


def _meta(root: etree._Element) -> dict[str, str]:
    out: dict[str, str] = {}
    for el in root.iter("meta"):
        key = (el.get("property") or el.get("name") or el.get("http-equiv") or "").strip().lower()
        value = (el.get("content") or "").strip()
        if key and value and key not in out:
            out[key[:100]] = value[:1000]
        if len(out) >= 200:
            break
    for script in root.iter("script"):
        if (script.get("type") or "").lower() == "application/ld+json" and script.text:
            _json_ld(script.text, out)
    return out


# ---- generated bodies ----

WORDS = ("alpha", "beta", "caf\u00e9", "\u6f22\u5b57", "na\u00efve", "&amp;", "&lt;b&gt;", "&nbsp;", "&#233;",
         "<b>bold</b>", "<i>it", "</i>", "</p>", "</span>", "x<y", "a < b", "\u00a0", "\u2028", "\x1c")
FRAGMENTS = (
    "<title>Plain title</title>", "<TITLE>  Upper\n case  </TITLE>", "<title><b>tag</b> in title</title>",
    '<meta property="og:title" content="OG title">', '<META NAME="Description" CONTENT=" desc ">',
    '<meta http-equiv="refresh" content="0; url=/x">', '<meta charset="latin-1">', '<meta charset=utf-8>',
    '<meta name="a" content="x <p> y">', '<link rel="canonical" href=" /canon ">', '<link rel="Alternate canonical" href="/b">',
    '<LINK REL=canonical HREF=/c>', '<script type="application/ld+json">{"@type": "NewsArticle", "isAccessibleForFree": false}</script>',
    '<script type="application/ld+json">{"isAccessibleForFree": "True", broken</script>',
    "<script>var s = '<p>not text</p>';</script>", "<style>p { color: red }</style>", "<!-- comment <p> -->",
    "<!-- unterminated", "<noscript>no script</noscript>", "<svg><title>svg title</title><text>t</text></svg>",
    "<template><p>tpl</p></template>", "<iframe>frame</iframe>", "<object>obj</object>", "<textarea><p>raw</textarea>",
    "<div>", "</div>", "<ul><li>one<li>two</ul>", "<table><tr><td>cell</table>", "<p>", "<br>", "<head>", "<body>",
    "</body>", "</html>", "<html lang=en>", '<a href="x" title="<em>">', '<a title="unterminated', "<a href=x<b>", "<",
    "<!doctype html>", "<?pi stuff?>", "<![CDATA[ cdata ]]>", "<plaintext>", "<xmp><p></xmp>", "\x00", "<citecheck-cut>",
    "&", "&amp", "<math><mi>x</mi></math>",
)
PARAGRAPH = "<p>" + " ".join(["lorem ipsum dolor sit amet consectetur"] * 18) + "</p>\n"

fragment = st.one_of(st.sampled_from(FRAGMENTS), st.sampled_from(WORDS),
                     st.text(alphabet="ab <>/=&;'\"\n\t\u00e9", max_size=12), st.just(PARAGRAPH))


@st.composite
def documents(draw: st.DrawFn) -> str:
    head = draw(st.lists(fragment, max_size=12))
    body = draw(st.lists(st.one_of(fragment, st.just(PARAGRAPH)), max_size=40))
    filler = draw(st.integers(0, 45))  # long pages too: the text sample stops before the tail
    tail = draw(st.lists(fragment, max_size=10))
    return "".join(head) + "".join(body) + PARAGRAPH * filler + "".join(tail)


ENCODINGS = st.sampled_from(("utf-8", "latin-1", "cp1252", "utf-16"))
CONTENT_TYPES = st.sampled_from(("text/html", "text/html; charset=utf-8", "text/html; charset=ISO-8859-1",
                                 "text/html; charset=bogus", "text/html; charset=utf-16", "application/xhtml+xml",
                                 "", "text/plain", "application/octet-stream", "application/pdf", "image/png"))


@st.composite
def bodies(draw: st.DrawFn) -> tuple[bytes, str]:
    text = draw(documents())
    if draw(st.booleans()):
        text = draw(st.sampled_from(("<!doctype html>", "<html>", "<?xml version='1.0' encoding='utf-8'?>",
                                     "<?xml version='1.0' encoding='latin-1'?><html>"))) + text
    raw = text.encode(draw(ENCODINGS), errors="replace")
    if draw(st.booleans()):  # invalid UTF-8 somewhere
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.sampled_from((b"\xff", b"\xc3", b"\xe9\xe8", b"\x80\x80"))) + raw[at:]
    return raw, draw(CONTENT_TYPES)


SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(bodies())
@example((b"", "text/html"))
@example((bytes(range(256)) * 64, "text/html"))
@example((b"<title>" + b"x " * 100_000 + b"</title>", "text/html"))
@example((b"<div>" * 20_000 + PARAGRAPH.encode() * 40, "text/html"))
def test_parse_body_matches_oracle(case: tuple[bytes, str]) -> None:
    body, content_type = case
    assert parse_body(body, content_type) == oracle_parse_body(body, content_type)
