"""Page-rule findings memoised by their exact inputs, so a warm rerun does not re-run the rules.

Rules are pure functions of (link, page facts, options), so their findings can be stored in the
fetch cache's side table under a digest of all three plus the code of every active rule. Any
change (a refetched page, a new severity or option, an edited rule module, another citecheck
version) changes the key; nothing stale can be served. A result with a rule crash (E000) is
never stored.
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
from citecheck.harvest.workers import Workers
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
        digest.update(_source_hash(rule.spec.check).encode())
    return digest.hexdigest()


def _source_hash(func: Any) -> str:
    try:
        return hashlib.sha256(Path(inspect.getsourcefile(func) or "").read_bytes()).hexdigest()
    except (OSError, TypeError):
        return "unknown"


class PageRules:
    """`check(link, page)`: the engine's page-stage findings for one link, from the memo when known."""

    def __init__(self, engine: Engine, cache: Any, workers: Workers | None = None) -> None:
        self.engine, self.cache, self.workers = engine, cache, workers
        self.salt = engine_digest(engine) if cache is not None else ""
        self.reused = 0

    async def check(self, link: Link, page: Page) -> list[Finding]:
        if self.cache is None:
            return await self._run(link, page)
        key = self._key(link, page)
        hit = self.cache.get_extra(KIND, key)
        if isinstance(hit, dict) and isinstance(hit.get("findings"), list):
            self.reused += 1
            return [_finding(d, link) for d in hit["findings"]]
        findings = await self._run(link, page)
        if not any(f.rule == CRASH for f in findings):  # a crash is reported, never remembered
            self.cache.put_extra(KIND, key, {"findings": [f.to_dict() for f in findings]})
        return findings

    async def _run(self, link: Link, page: Page) -> list[Finding]:
        if self.workers is not None:
            return await self.workers.page_findings(link, page)
        return self.engine.check_pages([link], {link.url: page}, link.location.path)

    def _key(self, link: Link, page: Page) -> str:
        facts = {name: getattr(page, name) for name in _FACTS}  # shallow: dataclasses.asdict is slow here
        # Page rules report at the link's own position, so the position is left out of the key and
        # put back on reuse: the same URL listed in another file or line reuses the result.
        subject = json.dumps([self.salt, link.url, link.kind.value, link.text, link.in_code, facts], sort_keys=True,
                             default=_plain)
        return hashlib.sha256(subject.encode()).hexdigest()


def _plain(value: Any) -> Any:
    if is_dataclass(value):
        return vars(value)
    if isinstance(value, Mapping):
        return dict(value)
    return str(value)


def _finding(data: dict[str, Any], link: Link) -> Finding:
    where = link.location
    return Finding(where.path, where.line, where.column, data["rule"], data["name"], Severity(data["severity"]),
                   data["message"], data["url"], data["evidence"], data["fix"], link.section)
