"""Page-rule findings memoised by their exact inputs, so a warm rerun does not re-run the rules.

Rules are pure functions of (link, page facts, options), so their findings can be stored in the
fetch cache's side table under a digest of all three plus the code of every active page rule. Any
change (a refetched page, a new severity or option, an edited rule module, another citecheck
version) changes the key; nothing stale can be served. A result with a rule crash (E000) is never
stored. Used by `harvest` (`citecheck.harvest.memo`) and by the audit's page worker
(`citecheck.pagejudge`).
"""
from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from citecheck import __version__
from citecheck.engine.run import Engine
from citecheck.models import Finding, Link, Page, Severity

KIND = "pagerules"
CRASH = "E000"
_FACTS = tuple(f.name for f in fields(Page) if f.name not in ("from_cache", "elapsed_ms"))


def engine_digest(engine: Engine) -> str:
    """What the page stage's findings depend on besides their subject."""
    digest = hashlib.sha256(__version__.encode())
    for rule in engine.by_stage.get("page", []):
        digest.update(json.dumps([rule.spec.id, rule.severity.value, rule.options], sort_keys=True,
                                 default=str).encode())
        digest.update(source_hash(rule.spec.check).encode())
    return digest.hexdigest()


def source_hash(func: Any) -> str:
    """Digest of the file that defines `func` (a function or class); "unknown" when there is none."""
    try:
        return hashlib.sha256(Path(inspect.getsourcefile(func) or "").read_bytes()).hexdigest()
    except (OSError, TypeError):
        return "unknown"


def page_key(salt: str, link: Link, page: Page) -> str:
    """The memo key of one link's page-stage findings."""
    facts = {name: getattr(page, name) for name in _FACTS}  # shallow: dataclasses.asdict is slow here
    # Page rules report at the link's own position, so the position is left out of the key and put
    # back on reuse: the same URL listed in another file or line reuses the result.
    subject = json.dumps([salt, link.url, link.kind.value, link.text, link.in_code, facts], sort_keys=True,
                         default=_plain)
    return hashlib.sha256(subject.encode()).hexdigest()


def storable(findings: list[Finding]) -> dict[str, Any] | None:
    """What to store for a result (None when it must not be remembered: a crash)."""
    if any(f.rule == CRASH for f in findings):
        return None
    return {"findings": [f.to_dict() for f in findings]}


def restored(hit: Any, link: Link) -> list[Finding] | None:
    """A stored result as findings at `link`'s position (None when the record is not one)."""
    if not isinstance(hit, dict) or not isinstance(hit.get("findings"), list):
        return None
    where = link.location
    return [Finding(where.path, where.line, where.column, d["rule"], d["name"], Severity(d["severity"]),
                    d["message"], d["url"], d["evidence"], d["fix"], link.section) for d in hit["findings"]]


def _plain(value: Any) -> Any:
    if is_dataclass(value):
        return vars(value)
    if isinstance(value, Mapping):
        return dict(value)
    return str(value)
