"""An output gate on a model's final answer (LangChain-style `after_model` middleware).

    python examples/agents/output_gate.py [--workdir DIR]

`OutputGate` runs `citecheck write` on the final answer: `[src-NNN]` become footnotes from the
corpus, an invented ID becomes `<needs-source claim="…"/>`, and the fabricated URL and the bare
domain the "model" wrote are removed. `citecheck_gate` below has the shape of a LangChain v1
`@after_model` hook (state, runtime) -> state update; the tiny message class stands in for
`langchain.messages.AIMessage` (same `content`, `id`, `tool_calls` and `model_copy`).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from typing import Any

from _web import HERE, REPORTS, start

from citecheck.agents import OutputGate, source_urls


@dataclass(frozen=True)
class AIMessage:
    content: str
    id: str = "final"
    tool_calls: list[Any] = field(default_factory=list)

    def model_copy(self, update: dict[str, Any]) -> AIMessage:
        return replace(self, **update)


def after_model_gate(gate: OutputGate) -> Any:
    def citecheck_gate(state: dict[str, Any], runtime: Any) -> dict[str, Any] | None:
        last = state["messages"][-1]
        if getattr(last, "tool_calls", None):
            return None  # not the final answer yet
        return {"messages": [last.model_copy(update={"content": gate(last.content).text})]}
    return citecheck_gate


def main() -> int:
    work, base, config, stop = start(__doc__.splitlines()[0])
    try:
        corpus = work / "sourced_corpus.json"
        source_urls(urls=[base + p for p in REPORTS], corpus=corpus, config=config)
        gate = OutputGate(corpus, config)
        answer = (HERE.parent / "pipeline" / "draft.md").read_text()  # valid IDs, an invented one, two bad URLs
        update = after_model_gate(gate)({"messages": [AIMessage(answer)]}, None)
        assert update is not None
        final = update["messages"][0].content
        print(final)
        result = gate(answer)
        print(f"removed: {[r.url for r in result.removed]}; unknown IDs: {result.unknown_ids}; ok: {result.ok}")
        clean = "example.com" not in final and "freight-rules.eu" not in final
        return 0 if clean and "[^1]" in final and result.unknown_ids == ["src-009"] else 1
    finally:
        stop()


if __name__ == "__main__":
    sys.exit(main())
