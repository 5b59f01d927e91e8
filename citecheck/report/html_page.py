"""The page shell shared by the audit and harvest reports: one self-contained HTML document.

Its Content-Security-Policy allows nothing but the page's own stylesheet and script (by hash)
and data: images, so opening the file can make no network request even if a hostile string
slipped past escaping; referrers and DNS prefetching are off for links a reviewer follows.
"""
from __future__ import annotations

from collections.abc import Sequence

from citecheck.report.html_markup import esc, sprite
from citecheck.report.html_script import SCRIPT, csp_hash
from citecheck.report.html_style import STYLE


def content_security_policy() -> str:
    return ("default-src 'none'; "
            f"style-src {csp_hash(STYLE)}; script-src {csp_hash(SCRIPT)}; img-src data:; "
            "base-uri 'none'; form-action 'none'")


def page(title: str, heading: str, body: str, nav: Sequence[tuple[str, str]], lede: str = "") -> str:
    """A complete document: `body` and `lede` are markup built (and escaped) by the renderers."""
    links = "".join(f'<li><a href="#{esc(anchor)}">{esc(label)}</a></li>' for anchor, label in nav)
    intro = f'<p class="lede">{lede}</p>' if lede else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(content_security_policy())}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta http-equiv="x-dns-prefetch-control" content="off">\n'
        '<meta name="generator" content="citecheck">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>{esc(title)}</title>\n"
        f"<style>{STYLE}</style>\n"
        "</head>\n<body>\n"
        '<a class="skip" href="#main">Skip to main content</a>\n'
        '<header class="top"><p class="brand">citecheck</p>'
        f'<nav aria-label="Report sections"><ul>{links}</ul></nav></header>\n'
        f'<main id="main" tabindex="-1"><h1>{esc(heading)}</h1>{intro}\n{body}\n</main>\n'
        f"{sprite()}\n"
        f"<script>{SCRIPT}</script>\n"
        "</body></html>\n"
    )
