"""Engine findings (stage E): problems with citecheck's own input rather than with the memo."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.engine.rule import RuleSpec
from citecheck.models import Severity


def _never(subject: Any, options: Mapping[str, Any]) -> Iterator[Any]:
    return iter(())  # emitted by the engine itself, not by a check


INTERNAL_ERROR = RuleSpec(
    "E000", "internal-error", "engine", Severity.ERROR,
    """A rule crashed on this input; the run exits 2.

Every rule always runs on every subject. When one raises, citecheck reports the crash as a
finding naming the rule and the file instead of silently skipping the check (the
`if url and not issues:` validator bug). Cannot be disabled.

Failing example: a third-party rule that raises `KeyError` on a memo without front matter.
Passing example: every rule returns normally.""", _never, origin="citecheck.engine")

INVALID_DIRECTIVE = RuleSpec(
    "E001", "invalid-directive", "engine", Severity.ERROR,
    """An inline `<!-- citecheck: ... -->` comment names an unknown rule or a bad option.

A suppression of a rule that does not exist silences nothing and hides a typo.

Failing example: `<!-- citecheck: disable=U999 reason="x" -->`.
Passing example: `<!-- citecheck: disable=U001 reason="documentation of a placeholder" -->`.""",
    _never, origin="citecheck.engine")

SUPPRESSION_REASON = RuleSpec(
    "E002", "suppression-without-reason", "engine", Severity.ERROR,
    """An inline suppression lacks `reason="…"`, or its `until=YYYY-MM-DD` date has passed.

A reviewer must be able to see why a finding was silenced, and a temporary silence must end. Such
a directive suppresses nothing: the finding it meant to hide is reported beside this error (a
warning would be easy to miss: pre-commit hides the output of hooks that pass).

Failing example: `<!-- citecheck: disable=U001 -->` or `… until=2020-01-01 -->`.
Passing example: `<!-- citecheck: disable=U001 reason="quoted from the incident report" -->`.""",
    _never, origin="citecheck.engine")

META_RULES = (INTERNAL_ERROR, INVALID_DIRECTIVE, SUPPRESSION_REASON)
