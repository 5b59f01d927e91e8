"""Make untrusted corpus text safe to show a writer model inside a data block.

Titles, summaries and excerpts come from web pages, so they may hold prompt injections. Each
field becomes one line of inert text:

  - format and control characters go (zero-width, bidi overrides), Unicode is NFKC-folded;
  - anything URL-shaped is replaced by `(link removed)` (the writer cites IDs, never URLs);
  - chat-template tokens (`<|im_start|>`, `[INST]`, `<<SYS>>`, `</s>` …) are removed;
  - angle brackets become `‹ ›`, so no tag can open or close (`</corpus>`, `<needs-source/>`);
  - square brackets become parentheses and `src-NNN` loses its ASCII hyphen, so corpus text
    can neither form a citation nor name an ID the writer might copy;
  - backticks, runs of `=`, `#` and `-` are thinned, and all whitespace (newlines included)
    collapses to single spaces, so nothing can start a line, a heading, a fence or a role label.
"""
from __future__ import annotations

import re
import unicodedata

from citecheck.urltext.detect import url_spans

_TEMPLATE_TOKENS_RE = re.compile(
    r"<\|[^|>]{0,40}\|>|\[/?INST\]|<</?SYS>>|</?s>|<\|?(?:system|user|assistant|endoftext)\|?>", re.IGNORECASE)
_ID_RE = re.compile(r"\b(src)-(\d{3,})\b", re.IGNORECASE)
_RUNS_RE = re.compile(r"={3,}|#{2,}|-{3,}|_{3,}|\*{3,}")
_TRANSLATE = str.maketrans({"<": "‹", ">": "›", "[": "(", "]": ")", "`": "'", "{": "(", "}": ")"})


def neutralise(text: str, limit: int = 0) -> str:
    """One inert line of `text` (see the module docstring), cut to `limit` characters if set."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(c if unicodedata.category(c) not in ("Cf", "Cc") else " " for c in text)
    for span in reversed(url_spans(text)):
        text = text[:span.start] + " (link removed) " + text[span.end:]
    text = _TEMPLATE_TOKENS_RE.sub(" ", text)
    text = _ID_RE.sub(lambda m: f"{m.group(1)}\u2011{m.group(2)}", text)
    text = _RUNS_RE.sub(lambda m: m.group(0)[:2], text)
    text = " ".join(text.translate(_TRANSLATE).split())
    return cut(text, limit) if limit else text


def cut(text: str, limit: int) -> str:
    """At most `limit` characters, at a word boundary, marked with ` […]` when cut."""
    if len(text) <= limit:
        return text
    if limit < 8:
        return ""
    head = text[:limit - 4].rsplit(" ", 1)[0]
    return head + " […]"
