"""A Pandoc/Quarto citation `[@key]` whose key is not in the memo's bibliography: an invented source.

Memos written in Quarto, Pandoc or R Markdown cite with `[@key]` from a bibliography (`.bib`,
CSL-JSON or CSL-YAML) named in the front matter (`bibliography:`, or `references:` inline), by
`--bibliography` or by the `bibliography:` config key. A key the bibliography does not hold —
`[@smith2021ocean]` when nobody ever added Smith 2021 — is the key-shaped version of `[src-047]`: the
writer made the source up, and Pandoc renders it as "(smith2021ocean?)". Keys are compared exactly,
as Pandoc does. Bracketed citations (`[@key]`, `[see @key, p. 3; -@other]`) are always judged; an
in-text `@name` is judged only when it reads as a key (a digit or inner punctuation: `@smith2021`,
`@doe:ocean`), so an `@octocat` mention is not; e-mail addresses, code and Quarto
cross-references (`@fig-…`, `@tbl-…`) are never citations. A memo without a bibliography is not
judged, nor one whose bibliography file cannot be read (E003 says so).

Failing example (front matter `bibliography: refs.bib`, which holds `doe2020`):

    Ocean heat content rose 40% [@smith2021ocean].

Passing example:

    Ocean heat content rose 40% [@doe2020, p. 3].
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.extract.pandoc import looks_like_key
from citecheck.models import Hit

ID = "M012"
NAME = "unknown-citation-key"
STAGE = "memo"
SEVERITY = "error"
VERDICT = "fabricated"
WRITE = "contract"  # write always runs it, whatever --select/--ignore say
DEFAULTS: dict[str, Any] = {"in_text": True}
OPTIONS: dict[str, str] = {"in_text": "also judge in-text `@key` citations that read as keys (not only `[@key]`)"}


def check(memo: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    if memo.bibliographies is None:
        return
    known = {entry.key for bib in memo.bibliographies for entry in bib.entries}
    where = ", ".join(bib.path for bib in memo.bibliographies) or "its bibliography"
    for marker in memo.document.markers:
        if marker.in_code or marker.value in known:
            continue
        if marker.kind == "citation" or (marker.kind == "in-text-citation" and options.get("in_text", True)
                                         and looks_like_key(marker.value)):
            cited = f"[@{marker.value}]" if marker.kind == "citation" else f"@{marker.value}"
            yield Hit(f"{cited} is not in the bibliography ({where}): an invented source",
                      marker.location, evidence=marker.value)
