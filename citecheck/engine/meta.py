"""Engine findings (stage E): problems with citecheck's own input rather than with the memo."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.engine.rule import RuleSpec
from citecheck.models import Fault, Severity, Verdict


def _never(subject: Any, options: Mapping[str, Any]) -> Iterator[Any]:
    return iter(())  # emitted by the engine itself, not by a check


INTERNAL_ERROR = RuleSpec(
    "E000", "internal-error", "engine", Severity.ERROR,
    """A rule crashed on this input; the run exits 2.

Every rule always runs on every subject. When one raises, citecheck reports the crash as a
finding naming the rule and the file instead of silently skipping the check (the
`if url and not issues:` validator bug). Cannot be disabled.

Failing example: a third-party rule that raises `KeyError` on a memo without front matter.
Passing example: every rule returns normally.""", _never, origin="citecheck.engine", verdict=Verdict.INPUT,
    fault=Fault.CRASH, blocks_append=True)  # a corpus a rule crashed on was never vetted

INVALID_DIRECTIVE = RuleSpec(
    "E001", "invalid-directive", "engine", Severity.ERROR,
    """An inline `<!-- citecheck: ... -->` comment names an unknown rule or a bad option.

A suppression of a rule that does not exist silences nothing and hides a typo.

Failing example: `<!-- citecheck: disable=U999 reason="x" -->`.
Passing example: `<!-- citecheck: disable=U001 reason="documentation of a placeholder" -->`.""",
    _never, origin="citecheck.engine", verdict=Verdict.INPUT)

SUPPRESSION_REASON = RuleSpec(
    "E002", "suppression-without-reason", "engine", Severity.ERROR,
    """An inline suppression lacks `reason="…"`, its `until=` date has passed, or it names all rules or a group.

A reviewer must be able to see why a finding was silenced, and a temporary silence must end. A
directive names each rule it silences (ID or slug): `disable=all`, a bare `disable` or
`disable-file`, a stage letter (`M`) or an ID prefix (`M00`) is refused, since one comment in a
model-written memo must not switch the gate off. Such a directive suppresses nothing: the finding
it meant to hide is reported beside this error (a warning would be easy to miss: pre-commit hides
the output of hooks that pass). `--no-inline-config` (config `inline-directives: false`) reads no
directive at all.

Failing example: `<!-- citecheck: disable=U001 -->`, `… until=2020-01-01 -->` or
`<!-- citecheck: disable=all reason="reviewed" -->`.
Passing example: `<!-- citecheck: disable=U001 reason="quoted from the incident report" -->`.""",
    _never, origin="citecheck.engine", verdict=Verdict.INPUT)

UNREADABLE_INPUT = RuleSpec(
    "E003", "unreadable-input", "engine", Severity.ERROR,
    """An input file could not be audited; the others were, and the run exits 2.

One stray binary, unreadable or malformed file must not hide the findings of every other memo,
nor pass silently: the file is named with the reason (cannot read, binary, invalid UTF-8, above
`max-file-size`, a dangling symlink, malformed front matter or corpus JSON), in a directory walk
and among several named files alike (pre-commit passes the staged files). A single file named
alone on the command line is the usual one-line error instead.

Failing example: `citecheck audit memos/` where `memos/scan.md` is a PDF saved under a `.md` name,
or `memos/q3.md` has front matter with an unclosed `[`.
Passing example: every file under `memos/` is a readable UTF-8 memo.""", _never, origin="citecheck.engine", verdict=Verdict.INPUT,
    fault=Fault.UNAUDITED)

SPECIAL_FILE = RuleSpec(
    "E004", "special-file", "engine", Severity.WARNING,
    """A FIFO, device or socket matched the walk's globs and was skipped.

Opening a FIFO waits for a writer that may never come, and a device has no end: a directory walk
skips them (a path named on the command line, such as `<(cmd)`, is read as asked).

Failing example: `mkfifo memos/live.md; citecheck audit memos/`.
Passing example: `memos/` holds regular files only.""", _never, origin="citecheck.engine", verdict=Verdict.INPUT)

TOO_DEEP = RuleSpec(
    "E005", "parser-limit", "engine", Severity.WARNING,
    """Markdown or HTML beyond a parser limit (nesting depth, brackets, paragraph or document size); content still scanned.

Parsers bound their work: 64 nested Markdown containers, 2,048 nested HTML elements, 256 KiB of
text in one Markdown paragraph, link labels that need more than two scanning steps a character
(runs of `[`: markdown-it's label scan recurses into each one), 4 MiB of Markdown in one file.
Past a limit, citecheck reads the content as plain text: every URL there is
still reported, so no structure can hide a link, but its kind, link text, code flag and footnote
context may be wrong. Renderers show such content, so a reviewer should look at it.

Failing example: a link inside forty nested list items, inside 3,000 nested `<div>` elements, or
after 3,000 `[` in one paragraph.
Passing example: a memo whose lists and quotes nest a few levels deep.""", _never, origin="citecheck.engine", verdict=Verdict.INPUT)

META_RULES = (INTERNAL_ERROR, INVALID_DIRECTIVE, SUPPRESSION_REASON, UNREADABLE_INPUT, SPECIAL_FILE, TOO_DEEP)
