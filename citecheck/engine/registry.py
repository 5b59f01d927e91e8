"""The rule registry: Python rules from the `citecheck.rules` entry point group, plus YAML packs."""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from citecheck.engine import plugins
from citecheck.engine.packs import Packs, load_packs
from citecheck.engine.rule import RuleSpec, spec_from_declarations, spec_from_module
from citecheck.errors import PackError, RegistryError

if TYPE_CHECKING:
    from citecheck.engine.packcache import PackCache

ENTRY_POINT_GROUP = plugins.GROUP


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
    """A rule module itself, or every rule module inside a package (how the built-ins register)."""
    if hasattr(obj, "ID"):
        yield obj
        return
    for info in pkgutil.iter_modules(getattr(obj, "__path__", []), obj.__name__ + "."):
        module = importlib.import_module(info.name)
        if hasattr(module, "ID"):
            yield module


def python_rules() -> list[RuleSpec]:
    """The built-in rules (`citecheck.checks`, registered even from a source tree without installed
    metadata, from their generated index: each module is imported when its rule is prepared or
    run) and every other module or package the `citecheck.rules` entry points name."""
    from citecheck.checks._index import RULES

    specs = [spec_from_declarations(module, declared) for module, declared in RULES.items()]
    builtin = importlib.import_module(plugins.BUILTIN)
    loaded: list[object] = []
    if plugins.may_have_plugins():
        from importlib.metadata import entry_points

        loaded += [obj for obj in (ep.load() for ep in entry_points(group=ENTRY_POINT_GROUP)) if obj is not builtin]
    for obj in loaded:
        if not isinstance(obj, ModuleType):
            raise RegistryError(f"entry point in {ENTRY_POINT_GROUP} must name a module, got {obj!r}")
        specs.extend(spec_from_module(m) for m in _modules_of(obj))
    return specs


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
