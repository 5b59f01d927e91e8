"""The rule registry: the built-in rules (listed in `citecheck.checks.RULES`), every module or
package a `citecheck.rules` entry point names (found through importlib.metadata, as flake8's
plugin finder does), and the data rules of YAML packs."""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from citecheck.engine.packs import Packs, load_packs
from citecheck.engine.rule import RuleSpec, spec_from_module
from citecheck.errors import PackError, RegistryError

if TYPE_CHECKING:
    from citecheck.cache.packs import PackCache

ENTRY_POINT_GROUP = "citecheck.rules"
BUILTIN = "citecheck.checks"  # an install made before the built-ins were listed named them here too


@dataclass(frozen=True)
class Registry:
    rules: tuple[RuleSpec, ...]
    packs: Packs

    def get(self, key: str) -> RuleSpec | None:
        key_l = key.lower()
        return next((r for r in self.rules if r.id.lower() == key_l or r.name == key_l), None)

    def by_stage(self, stage: str) -> list[RuleSpec]:
        return [r for r in self.rules if r.stage == stage]


def _modules_of(obj: ModuleType) -> Iterator[ModuleType]:
    """A rule module itself, or every rule module inside a package."""
    if hasattr(obj, "ID"):
        yield obj
        return
    for info in pkgutil.iter_modules(getattr(obj, "__path__", []), obj.__name__ + "."):
        module = importlib.import_module(info.name)
        if hasattr(module, "ID"):
            yield module


def plugin_modules() -> list[ModuleType]:
    """The modules or packages the installed `citecheck.rules` entry points name."""
    from importlib.metadata import entry_points

    found: list[ModuleType] = []
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if entry.module == BUILTIN:
            continue
        obj = entry.load()
        if not isinstance(obj, ModuleType):
            raise RegistryError(f"entry point {entry.name} in {ENTRY_POINT_GROUP} must name a module, got {obj!r}")
        found.append(obj)
    return found


def python_rules() -> list[RuleSpec]:
    """The built-in rules, then the rules of every plugin module or package."""
    from citecheck.checks import RULES

    return [spec_from_module(module) for module in RULES] + \
        [spec_from_module(module) for obj in plugin_modules() for module in _modules_of(obj)]


def build_registry(pack_dirs: Iterable[str] = (), packs_cache: PackCache | None = None) -> Registry:
    """All rules, refusing duplicate IDs or slugs (`packs_cache`: see `load_packs`)."""
    packs = load_packs(pack_dirs, packs_cache)
    from citecheck.engine.meta import META_RULES

    rules = [*META_RULES, *python_rules(), *packs.rules]
    read = {rule.pack for rule in rules if rule.pack}
    for name, origin in packs.origins.items():
        if name not in read:  # a misspelt pack name would extend nothing, in silence
            raise PackError(f"{origin}:1: no rule reads a pack named {name!r} (packs: {', '.join(sorted(read))})")
    seen: dict[str, str] = {}
    for rule in rules:
        for key in (rule.id.lower(), rule.name):
            if key in seen:
                raise RegistryError(f"duplicate rule {key!r}: {rule.origin} and {seen[key]}")
            seen[key] = rule.origin
    return Registry(tuple(sorted(rules, key=lambda r: r.id)), packs)
