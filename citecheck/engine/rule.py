"""The normalised shape of a rule, whether a Python module or a YAML data rule."""
from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from citecheck.errors import RegistryError
from citecheck.models import Gate, Severity, Verdict

STAGES = {"url": "U", "page": "H", "memo": "M", "corpus": "C", "bibliography": "B", "reference": "R", "engine": "E"}


@dataclass(frozen=True)
class RuleSpec:
    id: str
    name: str
    stage: str
    severity: Severity
    doc: str
    check: Callable[..., Iterable[Any]]  # check(subject, options) or, with prepare, check(subject, options, prepared=…)
    defaults: Mapping[str, Any] = field(default_factory=dict)
    options_doc: Mapping[str, str] = field(default_factory=dict)
    pack: str = ""  # name of the data pack the engine injects as options["pack"]
    plugins: Mapping[str, str] = field(default_factory=dict)  # option -> entry-point group it names
    origin: str = ""  # module path or pack file
    shardable: bool = False  # a memo rule whose work units are independent: honours Memo.share
    # prepare(options) -> what `check` needs derived from its options (compiled packs, indexes), made
    # once per resolved configuration and passed to every call as check(..., prepared=value)
    prepare: Callable[[Mapping[str, Any]], Any] | None = None
    # what the rule's findings mean for the cited link or work, and how the harvest gate treats them
    # (a hit may say otherwise for itself: `Hit.verdict`, `Hit.gate`); `validate` refuses a rule without one
    verdict: Verdict | None = None
    gate: Gate = Gate.SEVERITY

    @property
    def summary(self) -> str:
        """The doc's first paragraph on one line: a sentence that wraps in the source stays whole."""
        return " ".join(self.doc.strip().split("\n\n", 1)[0].split())


def spec_from_module(module: ModuleType) -> RuleSpec:
    """Read a rule module's declarations (ID, NAME, STAGE, VERDICT, GATE, SEVERITY, DEFAULTS, OPTIONS, check)."""
    origin = module.__name__
    for attr in ("ID", "NAME", "STAGE", "VERDICT", "check"):
        if not hasattr(module, attr):
            raise RegistryError(f"rule module {origin} lacks {attr}")
    spec = RuleSpec(
        id=module.ID, name=module.NAME, stage=module.STAGE,
        severity=Severity(getattr(module, "SEVERITY", "error")),
        doc=inspect.getdoc(module) or "", check=module.check,
        defaults=dict(getattr(module, "DEFAULTS", {})), options_doc=dict(getattr(module, "OPTIONS", {})),
        pack=getattr(module, "PACK", ""), plugins=dict(getattr(module, "PLUGINS", {})), origin=origin,
        shardable=bool(getattr(module, "SHARDABLE", False)), prepare=getattr(module, "prepare", None),
        verdict=_enum(Verdict, module.VERDICT, origin, "VERDICT"),
        gate=_enum(Gate, getattr(module, "GATE", Gate.SEVERITY), origin, "GATE"),
    )
    validate(spec)
    return spec


def _enum(kind: Any, value: Any, origin: str, what: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        known = ", ".join(member.value for member in kind)
        raise RegistryError(f"rule module {origin}: {what} {value!r} is not one of {known}") from None


def validate(spec: RuleSpec) -> None:
    if spec.verdict is None:
        raise RegistryError(f"rule {spec.id} ({spec.origin}) declares no VERDICT (one of "
                            f"{', '.join(v.value for v in Verdict)}): what its findings mean for a citation")
    letter = STAGES.get(spec.stage)
    if letter is None:
        raise RegistryError(f"rule {spec.id} ({spec.origin}): unknown stage {spec.stage!r}")
    if not (len(spec.id) == 4 and spec.id[0] == letter and spec.id[1:].isdigit()):
        raise RegistryError(f"rule {spec.id} ({spec.origin}): id must be '{letter}' and three digits for stage {spec.stage}")
