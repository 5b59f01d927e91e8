"""Configuration outranks content: `write` emits no front-matter key that configures a check.

A draft's front matter is the model's, and `firm:` / `company:` there would configure M001
firm-context-leak, M002 watermark-company and M008 unsupported-citation for every later audit of
the memo (issue 26: a draft replaced the firm profile and passed itself). `write` keeps the rest of
the front matter and blanks those keys' lines, so every other line keeps its number (the findings
point into the draft as written). When the keys cannot be cut out line by line (flow style,
anchors, merge keys), the remaining mapping is written back as one line of JSON (which YAML reads)
padded with blank lines to the same height; the result is parsed again and must equal the original
mapping without those keys.
"""
from __future__ import annotations

import json
import re
from typing import Any

from citecheck._util.safeload import load_yaml

# the front-matter keys rules read (`front_matter.get(...)` in citecheck/checks; a test keeps this true)
CHECK_KEYS = ("firm", "company")
_TOP_KEY = re.compile(r"""^(?P<q>["']?)(?P<key>[^\s:#'"][^:#'"]*?)(?P=q)\s*:(?:\s|$)""")


def drop_check_keys(text: str) -> tuple[str, dict[str, Any]]:
    """`text` with the check-configuring keys taken out of its front matter, and what they held."""
    block = _front_matter(text)
    if block is None:
        return text, {}
    start, end = block
    content = text[start:end]
    try:
        data = load_yaml(content)
    except Exception:  # noqa: BLE001 - the extractor reports malformed front matter; nothing to keep here
        return text, {}
    if not isinstance(data, dict) or not any(key in data for key in CHECK_KEYS):
        return text, {}
    wanted = {k: v for k, v in data.items() if k not in CHECK_KEYS}
    dropped = {k: data[k] for k in CHECK_KEYS if k in data}
    kept = _blank_keys(content)
    if _parses_to(kept, wanted):
        return text[:start] + kept + text[end:], dropped
    height = content.count("\n")
    flat = (json.dumps(wanted, ensure_ascii=False, default=str) if wanted else "") + "\n"
    flat += "\n" * max(height - 1, 0)
    if not _parses_to(flat, wanted):
        from citecheck.errors import CitecheckError

        raise CitecheckError("write: could not take firm:/company: out of the draft's front matter; "
                             "refusing to write the memo")
    return text[:start] + flat + text[end:], dropped


def _front_matter(text: str) -> tuple[int, int] | None:
    """(start, end) of the front matter's content: between a first line `---` and the next `---`."""
    first = text.find("\n")
    if first < 0 or text[:first].rstrip() != "---":
        return None
    at = first + 1
    while at <= len(text):
        nl = text.find("\n", at)
        line = text[at:] if nl < 0 else text[at:nl]
        if line.rstrip() == "---":
            return first + 1, at
        if nl < 0:
            return None
        at = nl + 1
    return None


def _blank_keys(content: str) -> str:
    """`content` with each top-level check key's lines (and its block) made empty."""
    out, inside = [], False
    for line in content.split("\n"):
        top = _TOP_KEY.match(line)
        if top is not None:
            inside = top.group("key") in CHECK_KEYS
        elif line[:1] not in ("", " ", "\t", "#", "-"):
            inside = False
        out.append("" if inside else line)
    return "\n".join(out)


def _parses_to(content: str, wanted: dict[str, Any]) -> bool:
    try:
        data = load_yaml(content) if content.strip() else {}
    except Exception:  # noqa: BLE001 - any failure means: use the other form
        return False
    return (data or {}) == wanted


def tidy(text: str) -> str:
    """The memo's front matter without the empty lines `drop_check_keys` left, when the mapping
    reads the same without them (a block scalar's blank lines are content: then they stay)."""
    block = _front_matter(text)
    if block is None:
        return text
    start, end = block
    content = text[start:end]
    lines = content.split("\n")
    squeezed = "\n".join(line for line in lines[:-1] if line.strip()) + "\n"
    try:
        same = load_yaml(squeezed) == load_yaml(content) if squeezed.strip() else not load_yaml(content)
    except Exception:  # noqa: BLE001 - keep what parsed before
        return text
    if not squeezed.strip() and same:
        return text[end:].split("\n", 1)[1] if "\n" in text[end:] else ""  # nothing left: no front matter
    return text[:start] + squeezed + text[end:] if same else text
