"""Run set-up that needs more than one input: the source directory the outline or config names,
and the outline's preferred sources checked against it."""
from __future__ import annotations

from collections.abc import Sequence

from citecheck.config import Config
from citecheck.errors import OutlineError
from citecheck.harvest.outline import Outline
from citecheck.harvest.plan import SectionPlan
from citecheck.harvest.providers import Entry, load_directory
from citecheck.harvest.yamlfile import relative_to


def directory_entries(outline: Outline | None, config: Config, plans: Sequence[SectionPlan]) -> tuple[Entry, ...]:
    """The curated source list: the outline's `directory:`, else `providers.directory.path` in config."""
    path = outline.directory if outline is not None else ""
    if not path:
        raw = (config.providers.get("directory") or {}).get("path", "")
        path = relative_to(config.path, str(raw)) if raw and config.path else str(raw or "")
    if not path:
        return ()
    return load_directory(path)


def check_preferred(plans: Sequence[SectionPlan], entries: Sequence[Entry]) -> None:
    """A preferred source is a domain (has a dot) or the name of a directory entry."""
    for plan in plans:
        for token in plan.section.preferred_sources:
            if "." in token or any(e.covers(token) for e in entries):
                continue
            known = ", ".join(e.name for e in entries) or "no directory is configured"
            raise OutlineError(f"{plan.origin}:{plan.section.line}: section {plan.section.id!r}: preferred source "
                               f"{token!r} is neither a domain nor a directory entry ({known})")
