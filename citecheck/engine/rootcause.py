"""One finding per root cause: what only follows from a link being dead, soft-404 or walled folds
into that link's finding.

When the page a link cites is not there to judge — the verdict of a finding on the link is dead,
soft-404 or unverifiable (a wall over the text, a bot challenge, a script shell, a fetch that failed)
— what other rules say about the same link follows from it: the title does not match the link text
(title-mismatch), the sentence's claim is not in the page (unsupported), the redirect that led there
(advisory: "moved permanently: cite … instead"). Those derived findings are named in the root
finding's evidence instead of standing as findings of their own, so a broken link is one finding (as
lychee reports one line per broken link) and the score counts it once. Which findings are roots and
which derive is read from their verdicts, never from rule IDs. A soft wall over text that is present
(gate `access`: metered, registration) is no root: the text can still be judged.

A derived finding belongs to a root on the same link: the same file, URL, line and column (page
rules report at the link), or, for a claim (reported where its sentence starts), the first root with
its URL at or after the sentence.
"""
from __future__ import annotations

from dataclasses import replace

from citecheck.models import Finding, Gate, Verdict

ROOTS = frozenset({Verdict.DEAD, Verdict.SOFT_404, Verdict.UNVERIFIABLE})
DERIVED = frozenset({Verdict.TITLE_MISMATCH, Verdict.UNSUPPORTED, Verdict.ADVISORY})
_CLAIMS = frozenset({Verdict.UNSUPPORTED})  # reported at their sentence, not at the link
_NOTE_MAX = 160  # characters of each derived finding's message kept in the root's evidence


def is_root(f: Finding) -> bool:
    """The link's page is not there to judge: dead, soft-404, or unverifiable but for a soft wall."""
    return f.verdict in ROOTS and f.gate is not Gate.ACCESS and bool(f.url)


def fold_derived(findings: list[Finding]) -> list[Finding]:
    """`findings` (sorted by place) with each derived finding folded into its root's evidence."""
    roots = [i for i, f in enumerate(findings) if is_root(f)]
    if not roots:
        return findings
    folded: dict[int, list[Finding]] = {}
    gone: set[int] = set()
    for i, f in enumerate(findings):
        root = _root_of(f, findings, roots) if f.verdict in DERIVED and f.url and not is_root(f) else None
        if root is not None:
            folded.setdefault(root, []).append(f)
            gone.add(i)
    return [_with_notes(f, folded[i]) if i in folded else f for i, f in enumerate(findings) if i not in gone]


def _root_of(f: Finding, findings: list[Finding], roots: list[int]) -> int | None:
    same_link = [i for i in roots if (findings[i].path, findings[i].url) == (f.path, f.url)]
    at = [i for i in same_link if (findings[i].line, findings[i].column) == (f.line, f.column)]
    if at:
        return at[0]
    if f.verdict in _CLAIMS:
        after = [i for i in same_link if (findings[i].line, findings[i].column) >= (f.line, f.column)]
        return after[0] if after else None
    return None


def _with_notes(root: Finding, derived: list[Finding]) -> Finding:
    notes = [f"{d.rule} {d.name}: {_clip(d.message)}" for d in derived]
    evidence = "; ".join([root.evidence, *(f"also {note}" for note in notes)] if root.evidence else
                         [f"also {note}" for note in notes])
    return replace(root, evidence=evidence)


def _clip(text: str) -> str:
    return text if len(text) <= _NOTE_MAX else text[:_NOTE_MAX - 1] + "…"
