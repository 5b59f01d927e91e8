"""The write pipeline: render the Section Writer's prompt, then gate its draft.

    render_prompt(outline, section_id, corpus, ...)  → Prompt (system + user messages)
    write(draft_text, corpus, strict=True, hybrid=False) → WriteResult(text, findings)

The gate's invariant: the text `write` returns contains no URL that is not in the corpus.
The URL detection and scrubbing the gate shares with M009 draft-url lives below both, in
`citecheck.urltext`.
"""
from __future__ import annotations

from citecheck.write.gate import WriteResult, transform, write
from citecheck.write.prompt import Prompt, render_prompt

__all__ = ["Prompt", "WriteResult", "render_prompt", "transform", "write"]
