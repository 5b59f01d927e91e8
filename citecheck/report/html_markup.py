"""Markup helpers for the HTML reports: escaping, safe links, verdict icons, score bars.

Everything that reaches the page from a memo, a fetched page or a finding goes through `esc`;
a URL becomes a live link only through `link_or_text`, and only when its scheme is http(s).
Icons are inline SVG symbols (no fonts, no images), so they print and survive any font set.
"""
from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any

_WEB_URL = re.compile(r"^https?://[^\s/?#\\]+", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x20\x7f]")

# One 16×16 stroke drawing per verdict; shapes differ so colour is never the only cue.
ICON_PATHS = {
    "fabricated": '<circle cx="8" cy="8" r="6"/><path d="M3.8 12.2l8.4-8.4"/>',
    "dead": '<path d="M4 4l8 8M12 4l-8 8"/>',
    "soft-404": '<path d="M8 2l6.5 12h-13z"/><path d="M8 6.5v3.5M8 12v.01"/>',
    "unsupported": '<path d="M3 6h10M3 10h10M11 2.5l-6 11"/>',
    "unverifiable": '<rect x="3" y="7.5" width="10" height="6.5" rx="1"/><path d="M5.5 7.5V5a2.5 2.5 0 0 1 5 0v2.5"/>',
    "live": '<path d="M2.5 8.5l3.5 3.5 7.5-8"/>',
    "unchecked": '<circle cx="8" cy="8" r="5.5" stroke-dasharray="2 2"/>',
    "error": '<circle cx="8" cy="8" r="6"/><path d="M8 4.5v4.5M8 11.5v.01"/>',
    "warning": '<path d="M8 2l6.5 12h-13z"/><path d="M8 6.5v3.5M8 12v.01"/>',
    "info": '<circle cx="8" cy="8" r="6"/><path d="M8 7.5v4M8 4.5v.01"/>',
}


def esc(value: Any) -> str:
    """HTML-escape any value for text or a quoted attribute."""
    return html.escape(str(value), quote=True)


def attrs(**values: Any) -> str:
    """` key="value"` pairs (underscores become dashes; None and False are left out)."""
    parts = []
    for key, value in values.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        parts.append(f" {name}" if value is True else f' {name}="{esc(value)}"')
    return "".join(parts)


def web_url(url: str) -> bool:
    """True only for an http(s) URL with a host and no whitespace or control characters."""
    return bool(_WEB_URL.match(url)) and not _CONTROL.search(url)


def link_or_text(url: str, text: str = "") -> str:
    """An external link for http(s) URLs; any other scheme (javascript:, data:, …) stays text."""
    label = esc(text or url)
    if web_url(url):
        return f'<a class="ext" href="{esc(url)}" rel="noreferrer noopener nofollow">{label}</a>'
    return f'<span class="nolink" title="not a web link: shown as text">{label}</span>'


def icon(key: str) -> str:
    """A reference to the sprite symbol for a verdict or severity."""
    return f'<svg class="ic" aria-hidden="true" focusable="false" viewBox="0 0 16 16"><use href="#i-{key}"/></svg>'


def sprite() -> str:
    """The hidden SVG sprite that `icon` refers to (once per page)."""
    symbols = "".join(f'<symbol id="i-{k}" viewBox="0 0 16 16">{p}</symbol>' for k, p in sorted(ICON_PATHS.items()))
    return f'<svg class="sprite" aria-hidden="true" focusable="false">{symbols}</svg>'


def score_bar(score: float, label: str) -> str:
    """A 0–10 score as number plus an inline SVG bar (band colour and pattern by level)."""
    value = max(0.0, min(10.0, float(score)))
    band = "good" if value >= 8 else "fair" if value >= 5 else "poor"
    width, shown = round(value * 10, 1), number(score)
    return (f'<span class="score {band}"><span class="num">{shown}</span><span class="of">/10</span>'
            f'<svg class="bar" viewBox="0 0 100 8" preserveAspectRatio="none" role="img" '
            f'aria-label="{esc(label)}: {shown} out of 10"><rect class="track" width="100" height="8"/>'
            f'<rect class="fill" width="{width}" height="8"/></svg></span>')


def number(value: Any) -> str:
    """A count or score as text: integers without decimals, floats as given."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return esc(value)


def join(parts: Iterable[str]) -> str:
    return "".join(parts)
