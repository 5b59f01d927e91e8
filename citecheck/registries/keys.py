"""Registries whose APIs need a key (Semantic Scholar, OpenAlex): the key is read from the environment
only (never from a configuration file, which a memo's directory may plant), and a registry whose key
is not set is skipped with one warning line instead of being asked without one."""
from __future__ import annotations

import os
from collections.abc import Iterable

from citecheck.registries import openalex, semanticscholar

KEYED = {module.NAME: module for module in (semanticscholar, openalex)}
LABELS = {semanticscholar.NAME: "Semantic Scholar", openalex.NAME: "OpenAlex"}


def credentials(name: str) -> tuple[dict[str, str], dict[str, str]] | None:
    """(headers, query parameters) that carry `name`'s key; ({}, {}) for a registry without one; None
    when its key is needed and not set."""
    module = KEYED.get(name)
    if module is None:
        return {}, {}
    key = os.environ.get(module.KEY_ENV, "").strip()
    return module.auth(key) if key else None


def usable(registries: Iterable[str]) -> tuple[tuple[str, ...], list[str]]:
    """The registries a run can ask, in order, and one warning line for each skipped for want of its key."""
    names, skipped = [], []
    for name in registries:
        if credentials(name) is None:
            skipped.append(f"scholarly.search lists {name}, but {KEYED[name].KEY_ENV} is not set in the environment: "
                           f"{LABELS[name]} is skipped (its API needs a key, read from the environment only)")
        else:
            names.append(name)
    return tuple(names), skipped
