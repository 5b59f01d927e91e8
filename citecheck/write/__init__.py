"""The write pipeline: render the Section Writer's prompt, then gate its draft.

    render_prompt(outline, section_id, corpus, ...)  → Prompt (system + user messages)
    write(draft_text, corpus, strict=True, hybrid=False) → WriteResult(text, findings)

The gate's invariant: the text `write` returns contains no URL that is not in the corpus.
The URL detection and scrubbing the gate shares with M009 draft-url lives below both, in
`citecheck.urltext`. The names load lazily, so importing `citecheck.write` does not pull in the
engine, the config loader or the prompt renderer.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citecheck.write.gate import WriteResult, transform, write
    from citecheck.write.prompt import Prompt, render_prompt

_EXPORTS = {"write": "gate", "WriteResult": "gate", "transform": "gate", "render_prompt": "prompt", "Prompt": "prompt"}
__all__ = ["Prompt", "WriteResult", "render_prompt", "transform", "write"]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'citecheck.write' has no attribute {name!r}")
    return getattr(importlib.import_module(f"citecheck.write.{_EXPORTS[name]}"), name)
