"""The normalised shape of a rule, whether a Python module or a YAML data rule."""
from __future__ import annotations

import enum
import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from citecheck.errors import RegistryError
from citecheck.models import Fault, Gate, Severity, Verdict


class WriteRole(str, enum.Enum):
    """What `write` does with a memo rule (`WRITE`, default `runs`)."""

    RUNS = "runs"  #: as configured: --select/--ignore and the config decide
    CONTRACT = "contract"  #: part of write's contract: always run, whatever --select/--ignore say
    SUPERSEDED = "superseded"  #: never run by write: its own scrub reports everything the rule could


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
    # its findings say only that no answer came (no network, no registry reply): when the whole run
    # had no network, the one outage line speaks for them and they are dropped (`UNREACHED`)
    unreached: bool = False
    write_role: WriteRole = WriteRole.RUNS  # what `write` does with it (`WRITE`)
    # an error from it means a corpus cannot be appended to safely: harvest refuses it (`BLOCKS_APPEND`)
    blocks_append: bool = False
    evidence_label: str = ""  # what the HTML report calls its findings' evidence (`EVIDENCE`; default "Evidence")
    # what its findings say about the run itself (`Fault`): declared by the engine's own rules only (E000
    # crash, E003 unaudited input, in `citecheck.engine.meta`); the exit code, JUnit and the baseline read it
    fault: Fault = Fault.NONE

    @property
    def summary(self) -> str:
        """The doc's first paragraph on one line: a sentence that wraps in the source stays whole."""
        return " ".join(self.doc.strip().split("\n\n", 1)[0].split())


def spec_from_module(module: ModuleType) -> RuleSpec:
    """Read a rule module's declarations (ID, NAME, STAGE, VERDICT, GATE, SEVERITY, DEFAULTS, OPTIONS, check;
    optionally UNREACHED, WRITE, BLOCKS_APPEND, EVIDENCE: see `RuleSpec`)."""
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
        unreached=bool(getattr(module, "UNREACHED", False)),
        write_role=_enum(WriteRole, getattr(module, "WRITE", WriteRole.RUNS), origin, "WRITE"),
        blocks_append=bool(getattr(module, "BLOCKS_APPEND", False)),
        evidence_label=str(getattr(module, "EVIDENCE", "")),
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
