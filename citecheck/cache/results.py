"""A whole audit's results memoised in the fetch cache, so re-auditing unchanged memos is instant.

`citecheck audit` re-run on the same files with the same configuration, while every page they cite
is still the same fresh cache entry, must give the same report: extraction, the rules and the
score are pure functions of exactly those inputs. The result is stored in the fetch cache's side
table under a digest of

- citecheck's own code (every module and pack it ships, not just its version: an edited checkout
  never reuses an old result), the content of any extra pack folder the configuration names, and
  each active rule's ID, severity and options, with the whole package that defines it (a
  third-party rule or plugin: every file of its top-level package, not only the rule's module);
- the configuration (every rule selection, severity, option and fetch setting), the run's URL
  policy (`--allow`, `--allow-private`), today's date (future-date checks and `until=` suppressions
  depend on it) and the corpus file's bytes;
- the path and text of every input file;

and it is only served while each cited page's facts are the very cache rows the result was
computed from (same fetch time), filed under the strict policy or this run's, and still fresh for
their kind (answers `--max-age`, a corroborated NXDOMAIN one day). A page that was refetched,
expired or never storable (a transient failure, an uncorroborated DNS failure) makes it a miss, and
the audit runs in full. robots.txt speaks before this cache as before the fact cache: in a run that
honours it, a stored robots.txt rule past its day (the audit must ask again) or one that disallows a
cited URL or a hop of its stored walk is a miss. Results with a crashed rule, or of a run without network, are never stored.
`citecheck.audit()` uses it by default (`citecheck._api.Caches`), and the CLI for the formats that
need only findings and the summary (text, json, sarif, github); html and junit reports run in full.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import sqlite3
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck import __version__
from citecheck.config import Config, FetchConfig, default_cache_path
from citecheck.fetch.cache import NXDOMAIN_DAYS, is_team_cache, policy_key
from citecheck.fetch.cachefile import APPLICATION_ID, header_mark
from citecheck.models import Finding

if TYPE_CHECKING:
    from citecheck._audit import Report

KIND = "audit"
DAY = 86400.0


@lru_cache(maxsize=1)
def code_digest() -> str:
    """Digest of every file citecheck ships (modules and packs)."""
    import citecheck

    digest = hashlib.sha256(__version__.encode())
    roots = [Path(citecheck.__file__).parent]
    from citecheck.engine.packs import builtin_dir  # installed, or the checkout's rules/ run from source

    roots.append(builtin_dir())
    for root in roots:
        digest.update(_tree_digest(root).encode())
    return digest.hexdigest()


def _tree_digest(root: Path) -> str:
    digest = hashlib.sha256(str(root).encode())
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith((".py", ".yaml", ".yml", ".json")):
                path = Path(folder, name)
                digest.update(name.encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def source_hash(obj: Any, seen: dict[Path, str] | None = None) -> str:
    """Digest of the whole top-level package that defines `obj` (a function or class): a rule's
    helpers change its results as much as its own module does. "unknown" when there is no source.
    `seen`: digests already taken in this computation, by package (40 rules share one package)."""
    top = sys.modules.get((getattr(obj, "__module__", "") or "").split(".", 1)[0])
    where = getattr(top, "__file__", None)
    if not where:
        return "unknown"
    path = Path(where)
    if seen is not None and path in seen:
        return seen[path]
    try:
        found = _tree_digest(path.parent) if path.name == "__init__.py" else hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "unknown"
    if seen is not None:
        seen[path] = found
    return found


def rules_digest(active: Iterable[Any]) -> str:
    """Every active rule: ID, severity, options and the source of its package — third-party rules
    and plugins (a verifier for M008, say) included, which `code_digest` does not cover."""
    digest = hashlib.sha256()
    seen: dict[Path, str] = {}  # read each package once per digest, not once per rule
    for rule in active:
        digest.update(json.dumps([rule.spec.id, rule.spec.origin, rule.severity.value, rule.options], sort_keys=True,
                                 default=lambda value: _stable(value, seen)).encode())
        digest.update(source_hash(rule.spec.check, seen).encode())
    return digest.hexdigest()


def _stable(value: Any, seen: dict[Path, str] | None = None) -> str:
    """A plugin object in the options: its class and the digest of the file that defines it."""
    cls = value if isinstance(value, type) else type(value)
    return f"{cls.__module__}.{cls.__qualname__}:{source_hash(cls, seen)}"


def run_key(files: Iterable[tuple[str, str]], config: Config, corpus: bytes | None, active: Iterable[Any] = ()) -> str:
    digest = hashlib.sha256(code_digest().encode())
    digest.update(rules_digest(active).encode())
    digest.update(repr(config).encode())
    digest.update(policy_key(config.fetch.allow, config.fetch.allow_private, config.fetch.headers).encode())
    for pack in config.packs:  # user packs: their content, not just their path
        path = Path(pack)
        if path.is_dir():
            digest.update(_tree_digest(path).encode())
        elif path.is_file():
            digest.update(path.read_bytes())
    digest.update(dt.date.today().isoformat().encode())
    digest.update(hashlib.sha256(corpus).hexdigest().encode() if corpus is not None else b"-")
    for name, text in files:
        digest.update(f"\x00{name}\x00{len(text)}\x00".encode())
        digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


@dataclass(frozen=True)
class Cached:
    """A stored audit: findings, suppressed findings and the summary, as the reporters need them."""

    findings: list[Finding]
    suppressed: list[Finding]
    summary: dict[str, Any]


class ResultCache:
    """`lookup(key)` a stored audit for the inputs `run_key` digested, or `store(key, report, urls)` one,
    in the SQLite fact cache at `path` (its `extras` table), for a run under the URL policy `policy`.

    The lookup reads the cache file read-only and imports nothing of the HTTP stack."""

    def __init__(self, path: Path, max_age_days: float, policy: str = "", robots: bool = False) -> None:
        """`robots`: the run honours robots.txt, so a stored result is served only while each cited
        URL's site (and each redirect hop's) still allows it by rules the cache holds for the day,
        as `fetch_all` asks before the fact cache."""
        self.path, self.max_age_days, self.policy, self.robots = path, max_age_days, policy, robots

    @classmethod
    def beside(cls, fetch: FetchConfig) -> ResultCache | None:
        """The one in the fact cache `fetch` names (the default file without one); None when the run
        has no cache (`--no-cache`) or a team cache (the whole-audit memo lives in SQLite only)."""
        if not fetch.use_cache or is_team_cache(fetch.cache):
            return None
        return cls(Path(fetch.cache) if fetch.cache else default_cache_path(), fetch.max_age_days,
                   policy_key(fetch.allow, fetch.allow_private, fetch.headers), fetch.robots)

    def lookup(self, key: str) -> Cached | None:
        started = time.perf_counter()
        if not self.path.is_file() or header_mark(self.path)[1] != APPLICATION_ID:
            return None
        try:
            conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
            try:
                entry = self._entry(conn, key)
                stored: dict[str, float] = entry["pages"] if entry else {}
                now = _fetched_at(conn, list(stored)) if entry else {}
                allowed = not entry or not self.robots or _robots_allow(conn, list(stored))
            finally:
                conn.close()
        except (sqlite3.Error, ValueError, TypeError, KeyError):
            return None  # no readable entry: audit in full
        if not entry:
            return None
        if not all(self._current(now.get(url), when) for url, when in stored.items()):
            return None  # a page was refetched, has expired or left the cache: audit in full
        if not allowed:
            return None  # robots.txt speaks before any cache: a rule past its day, or a disallow now
        try:
            findings = [_finding(d) for d in entry["findings"]]
            suppressed = [_finding(d) for d in entry["suppressed"]]
        except (KeyError, TypeError, ValueError):
            return None
        summary = dict(entry.get("summary") or {})
        summary["duration_s"] = round(time.perf_counter() - started, 3)
        summary["from_result_cache"] = True
        summary["from_cache"], summary["fetched_now"] = len(stored), 0  # this run fetched nothing
        return Cached(findings, suppressed, summary)

    def _current(self, row: tuple[float, str, str] | None, when: float) -> bool:
        """The cited fact is the very row the result was computed from, fresh for its kind, and
        filed under a policy this run shares."""
        if row is None:
            return False
        fetched, kind, policy = row
        days = self.max_age_days if kind == "answer" else min(self.max_age_days, NXDOMAIN_DAYS)
        return fetched == when and policy in ("", self.policy) and fetched >= time.time() - days * DAY

    def _entry(self, conn: sqlite3.Connection, key: str) -> dict[str, Any] | None:
        row = conn.execute("SELECT data FROM extras WHERE kind = ? AND key = ?", [KIND, key]).fetchone()
        entry = json.loads(row[0]) if row else None
        return entry if isinstance(entry, dict) and isinstance(entry.get("pages"), dict) else None

    def store(self, key: str, report: Report, urls: Iterable[str]) -> bool:
        """Remember `report` (an audit of exactly these inputs) if every page it judged is a
        cache row; True when stored."""
        if report.crashed:
            return False
        from citecheck.errors import CacheError, InputError
        from citecheck.fetch.cache import Cache

        try:
            cache = Cache(self.path)
        except (InputError, CacheError):
            return False
        try:
            targets = sorted({url.split("#", 1)[0] for url in urls})
            rows = _fetched_at(cache.conn, targets)
            stamps = {url: row[0] for url, row in rows.items() if self._current(row, row[0])}
            if len(stamps) != len(targets) or not cache.writable:
                return False  # some page is not a current fact (a transient failure): nothing to validate against
            summary = {k: v for k, v in report.summary.items() if k != "duration_s"}
            cache.put_extra(KIND, key, {
                "pages": stamps, "summary": json.loads(json.dumps(summary, default=str)),
                "findings": [f.to_record() for f in report.findings],
                "suppressed": [f.to_record() for f in report.suppressed]})
            return True
        finally:
            cache.close()


def _fetched_at(conn: sqlite3.Connection, urls: list[str]) -> dict[str, tuple[float, str, str]]:
    """url → (fetched, kind, policy) of the stored facts."""
    out: dict[str, tuple[float, str, str]] = {}
    for start in range(0, len(urls), 500):
        chunk = urls[start:start + 500]
        for url, *row in conn.execute(f"SELECT url, fetched, kind, policy FROM pages "
                                      f"WHERE url IN ({','.join('?' * len(chunk))})", chunk):
            out[url] = (row[0], row[1], row[2])
    return out


def _robots_allow(conn: sqlite3.Connection, urls: list[str]) -> bool:
    """Whether robots.txt allows every URL and every redirect hop of its stored walk by the rules
    the cache holds: a rule past its day means the audit must ask again (no); an origin with no rule
    stored is one whose robots.txt did not answer (a name that does not resolve, a 5xx), which
    `fetch.robots` reads as nothing known, allowed."""
    from citecheck.fetch.robots import KIND as ROBOTS
    from citecheck.fetch.robots import LIFETIME, Rules, is_robots_url, origin_of

    asked = list(urls)
    for start in range(0, len(urls), 500):  # the hops of stored walks that redirected
        chunk = urls[start:start + 500]
        for (facts,) in conn.execute(f"SELECT facts FROM pages WHERE url IN ({','.join('?' * len(chunk))}) "
                                     "AND facts LIKE '%\"location\":\"_%'", chunk):
            asked += [hop["url"] for hop in json.loads(facts).get("chain", [])[1:]]
    origins = sorted({origin_of(url) for url in asked if not is_robots_url(url)})
    rules: dict[str, Rules] = {}
    for start in range(0, len(origins), 500):
        chunk = origins[start:start + 500]
        for origin, data in conn.execute(f"SELECT key, data FROM extras WHERE kind = ? AND key IN "
                                         f"({','.join('?' * len(chunk))})", [ROBOTS, *chunk]):
            record = json.loads(data)
            if not isinstance(record, dict) or time.time() - float(record.get("fetched", 0)) >= LIFETIME:
                return False
            text = record.get("text")
            rules[origin] = Rules(origin, text if isinstance(text, str) else None)
    return all(is_robots_url(url) or origin_of(url) not in rules or rules[origin_of(url)].allows(url) for url in asked)


def _finding(d: dict[str, Any]) -> Finding:
    return Finding.from_dict(d)
