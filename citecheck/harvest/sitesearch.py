"""Links out of a fetched site-search results page: same-site, absolute, with their anchor text."""
from __future__ import annotations

from urllib.parse import urldefrag, urlsplit

from lxml import etree, html

from citecheck.fetch.parse import decode
from citecheck.urls import domain_match, host_of

MAX_LINKS = 50


def same_site_links(body: bytes, base_url: str, domain: str) -> list[tuple[str, str]]:
    """(url, anchor text) of every link on `domain` that is not the results page itself."""
    try:
        root: html.HtmlElement = html.document_fromstring(decode(body, "text/html"))  # type: ignore[assignment]
    except (etree.ParserError, ValueError):
        return []
    root.make_links_absolute(base_url, resolve_base_href=True, handle_failures="discard")
    own_path = urlsplit(base_url).path
    out: dict[str, str] = {}
    for anchor in root.iter("a"):
        href = urldefrag((anchor.get("href") or "").strip())[0]
        label = " ".join(anchor.text_content().split())
        if not href.startswith(("http://", "https://")) or len(label) < 3 or href in out:
            continue
        host = host_of(href)
        if not domain_match(host, (domain,)) or urlsplit(href).path in (own_path, "", "/"):
            continue
        out[href] = label
        if len(out) >= MAX_LINKS:
            break
    return list(out.items())
