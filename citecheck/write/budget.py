"""Fit body excerpts into a token budget: share the room fairly, trim at word boundaries, say so."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from citecheck.write.neutralise import cut

Measure = Callable[[dict[str, str], str], int]  # (excerpts, note) -> estimated prompt tokens


@dataclass(frozen=True)
class Fitted:
    texts: dict[str, str] = field(default_factory=dict)
    note: str = ""
    trimmed: bool = False
    over_budget: bool = False


def fit_excerpts(excerpts: dict[str, str], budget: int | None, measure: Measure) -> Fitted:
    """Excerpts as given when they fit (or there is no budget), else trimmed to fit."""
    if not budget or measure(excerpts, "") <= budget:
        return Fitted(dict(excerpts))
    note = (f"Note: body excerpts were trimmed to fit a budget of {budget} tokens (estimated as characters / 4); "
            f"ask for more with <needs-deeper-grounding ids=\"…\"/>.")
    empty = dict.fromkeys(excerpts, "")
    base = measure(empty, note)
    if base > budget:
        over = (f"Note: body excerpts were left out: without them this prompt is already about {base} tokens, "
                f"above the budget of {budget}.")
        return Fitted(empty, over, bool(excerpts), True)
    room = (budget - base) * 4
    texts = share(excerpts, room)
    while measure(texts, note) > budget and room > 0:  # word-boundary cuts and markers cost a little
        room -= max(16, room // 20)
        texts = share(excerpts, room)
    return Fitted(texts, note, True)


def share(excerpts: dict[str, str], room: int) -> dict[str, str]:
    """Water-filling: short excerpts stay whole, long ones split what is left equally."""
    limits: dict[str, int] = {}
    pending = sorted(excerpts, key=lambda sid: len(excerpts[sid]))
    left = max(0, room)
    while pending:
        fair = left // len(pending)
        sid = pending[0]
        if len(excerpts[sid]) <= fair:
            limits[sid] = len(excerpts[sid])
            left -= limits[sid]
            pending.pop(0)
            continue
        for other in pending:
            limits[other] = fair
        break
    return {sid: cut(text, limits.get(sid, 0)) for sid, text in excerpts.items()}
