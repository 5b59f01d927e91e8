"""Which rules run, with what severity and options: the resolved view of registry + config."""
from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from citecheck.config import Config
from citecheck.engine.registry import Registry
from citecheck.engine.rule import RuleSpec
from citecheck.errors import ConfigError, UsageError
from citecheck.models import Fault, Severity

_IMPLICIT = {"url": {"code": False}, "page": {"code": False}}


@dataclass(frozen=True)
class ActiveRule:
    """A rule as the configuration resolved it. `check(subject, options)` is the rule's check with
    what its `prepare(options)` returned bound in: prepared here, once, never per subject."""

    spec: RuleSpec
    severity: Severity
    options: Mapping[str, Any]
    severity_set: bool = False  # configured explicitly: overrides a rule's per-finding severity
    deferred: bool = False  # a stage this run should never reach: prepared on first use, if ever
    check: Callable[..., Iterable[Any]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check = self.spec.check
        if self.spec.prepare is not None:
            check = _Deferred(self) if self.deferred else partial(check, prepared=self.prepare())
        object.__setattr__(self, "check", check)

    def prepare(self) -> Any:
        """What the rule's `prepare(options)` returns; a failure is a ConfigError naming the rule."""
        assert self.spec.prepare is not None
        try:
            return self.spec.prepare(self.options)
        except Exception as err:  # noqa: BLE001 - bad option data must name the rule, not crash
            raise ConfigError(f"rule {self.spec.id} ({self.spec.name}): cannot prepare its options: "
                              f"{type(err).__name__}: {err}") from None


class _Deferred:
    """The check of a rule in a stage the run does not expect to reach (the page rules of an
    offline audit: compiling their ~400 patterns was a fifth of a small audit's start-up). Should
    it run after all, it prepares once, then checks as usual."""

    def __init__(self, rule: ActiveRule) -> None:
        self.rule = rule
        self.bound: Callable[..., Iterable[Any]] | None = None

    def __call__(self, subject: Any, options: Mapping[str, Any]) -> Iterable[Any]:
        if self.bound is None:
            self.bound = partial(self.rule.spec.check, prepared=self.rule.prepare())
        return self.bound(subject, options)


def matches(spec: RuleSpec, token: str) -> bool:
    """A selector matches by full ID, slug, stage letter or ID prefix (`U`, `U00`, `U001`, `placeholder-domain`)."""
    token = token.strip()
    return spec.name == token.lower() or (spec.id.upper().startswith(token.upper()) and token[:1].isalpha() and (
        len(token) == 1 or token[1:].isdigit()))


def check_selectors(registry: Registry, tokens: Iterable[str], what: str) -> None:
    for token in tokens:
        if not any(matches(spec, token) for spec in registry.rules):
            raise UsageError(f"--{what}: no rule matches {token!r} (see `citecheck rules`)")


def resolve(registry: Registry, config: Config, defer: Collection[str] = ()) -> list[ActiveRule]:
    """Apply select/ignore, per-rule enable, severity and options; validate option names. Rules of
    the stages in `defer` are prepared only if they run (an offline run defers "page")."""
    check_selectors(registry, config.select, "select")
    check_selectors(registry, config.ignore, "ignore")
    settings = _settings_by_rule(registry, config)
    active = []
    for spec in registry.rules:
        setting = settings.get(spec.id, {})
        if spec.fault is not Fault.CRASH:  # a crash is always reported
            if config.select and not any(matches(spec, t) for t in config.select):
                continue
            if any(matches(spec, t) for t in config.ignore) or not setting.get("enabled", True):
                continue
        severity = Severity(setting.get("severity") or spec.severity.value)
        active.append(ActiveRule(spec, severity, _options(registry, spec, config, setting.get("options", {})),
                                 severity_set=bool(setting.get("severity")),
                                 deferred=_deferrable(spec, setting, config, defer)))
    return active


def _deferrable(spec: RuleSpec, setting: Mapping[str, Any], config: Config, defer: Collection[str]) -> bool:
    """A rule of a deferred stage keeps its prepare for later only when it runs on shipped data
    alone: options or packs the user gave are prepared now, so that a bad regex in them is a
    configuration error at start (exit 2) even in an offline run that never judges a page."""
    return spec.stage in defer and not setting.get("options") and not config.packs


def _settings_by_rule(registry: Registry, config: Config) -> dict[str, Mapping[str, Any]]:
    out: dict[str, Mapping[str, Any]] = {}
    for key, setting in config.rules.items():
        spec = registry.get(key)
        if spec is None:
            raise ConfigError(f"{config.path or '<config>'}: rules.{key}: no such rule (see `citecheck rules`)")
        out[spec.id] = setting
    return out


def _options(registry: Registry, spec: RuleSpec, config: Config, overrides: Mapping[str, Any]) -> dict[str, Any]:
    options: dict[str, Any] = {**_IMPLICIT.get(spec.stage, {}), **spec.defaults}
    for key in ("firm", "company"):
        value = getattr(config, key)
        if key in options and value:  # a mapping, or a name (a firm profile's), as in front matter
            options[key] = value if isinstance(value, str) else dict(value)
    # The fetch policy's allowances reach the rules that would flag what it allows (U004, C005).
    for key, value in (("allow", list(config.fetch.allow)), ("allow_private", config.fetch.allow_private)):
        if key in options:
            options[key] = value
    unknown = set(overrides) - set(options)
    if unknown:
        raise ConfigError(f"{config.path or '<config>'}: rules.{spec.id}: unknown option {sorted(unknown)[0]!r} "
                          f"(options: {', '.join(sorted(options)) or 'none'})")
    options.update(overrides)
    for key, group in spec.plugins.items():
        options[key] = load_plugin(group, options.get(key), config.path)
    if spec.pack:
        options["pack"] = registry.packs.data.get(spec.pack, {})
    return options


BUILTIN_PLUGINS = {"citecheck.verifiers": {"lexical": "citecheck.support.lexical:LexicalVerifier"}}


def load_plugin(group: str, name: Any, where: str) -> Any:
    """An option that names a plugin (an entry point in `group`) becomes the loaded object, made
    here at configuration time so the rule itself stays pure."""
    if not isinstance(name, str):
        return name
    builtin = BUILTIN_PLUGINS.get(group, {}).get(name)
    if builtin:  # built-in names are reserved: no entry-point scan (~25 ms), same object as installed
        module, _, attr = builtin.partition(":")
        obj = getattr(importlib.import_module(module), attr)
        return obj() if isinstance(obj, type) else obj
    from importlib.metadata import entry_points

    found = [ep for ep in entry_points(group=group) if ep.name == name]
    if not found:
        known = sorted(ep.name for ep in entry_points(group=group))
        raise ConfigError(f"{where or '<config>'}: no {group} plugin named {name!r} (installed: {', '.join(known) or 'none'})")
    obj = found[0].load()
    return obj() if isinstance(obj, type) else obj
