"""Configuration: `.citecheck.yaml` found upward (or `[tool.citecheck]` in pyproject.toml),
`extends:` presets, strict validation (an unknown key or bad value is a one-line ConfigError).

Where a file comes from decides what it may say. An *explicit* configuration — `--config FILE`,
`$CITECHECK_CONFIG`, or the user's own `$XDG_CONFIG_HOME/citecheck/config.yaml` — is honoured in
full. A *discovered* one (found by walking up from the working directory, so possibly written into
the audited tree by whoever wrote the memos) may only narrow the network policy and add to or
tighten the checks: `citecheck.config.trust` lists what it may not say; those settings are the user
config's (or the defaults) and are named in `Config.ignored`, which the CLI prints in one warning
line. Its `scholarly.endpoints` are asked only where the run's own policy allows their host.

Beside it: `registries` (the scholarly registries' endpoints and pace) and `urlpolicy` (`exclude-urls`,
`--accept`), and `trust` (what a discovered file may say). The `--allow` allowances are data the
rules read too: `citecheck._util.allowlist`.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from citecheck._util.safeload import LimitError, load_yaml
from citecheck.config.registries import ScholarlyConfig, scholarly_config
from citecheck.config.urlpolicy import UrlExclusion, exclusions, parse_statuses
from citecheck.errors import ConfigError

CONFIG_NAMES = (".citecheck.yaml", ".citecheck.yml", "citecheck.yaml")
SEVERITIES = ("error", "warning", "info")



def default_cache_path() -> Path:
    """The fetch cache when no `--cache` is given: `$XDG_CACHE_HOME/citecheck/cache.sqlite`."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "citecheck" / "cache.sqlite"

@dataclass(frozen=True)
class FetchConfig:
    timeout: float = 20.0  # per URL: every hop and retry included
    deadline: float = 900.0  # per run: URLs not fetched by then are unverifiable ("deadline")
    connect_timeout: float = 5.0
    read_timeout: float = 10.0
    concurrency: int = 64
    host_concurrency: int = 4
    host_interval: float = 0.0  # seconds between requests to one host
    max_body: int = 2 * 1024 * 1024
    max_decompressed: int = 8 * 1024 * 1024
    max_redirects: int = 10
    retries: int = 2
    backoff: float = 0.5  # seconds before the first retry; doubles each time, plus jitter
    retry_after_cap: float = 10.0
    user_agent: str = ""
    headers: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    allow: tuple[str, ...] = ()
    allow_private: bool = False
    cache: str = ""
    use_cache: bool = True
    max_age_days: float = 30.0
    sibling_probe: bool = True
    robots: bool = True  # honour robots.txt (--ignore-robots: false)
    archive_url: str = "https://archive.org/wayback/available"
    accept: tuple[str, ...] = ()  # statuses a team accepts (`403`, `500-503`): reported as accepted, never verified


@dataclass(frozen=True)
class Config:
    path: str = ""
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: str = "error"
    rules: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # id/slug -> {severity, enabled, options}
    firm: Mapping[str, Any] | str = field(default_factory=dict)  # a mapping, or a profile's name
    company: Mapping[str, Any] | str = field(default_factory=dict)  # a mapping, or the company's name
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_file_size: int = 20 * 1024 * 1024
    packs: tuple[str, ...] = ()
    fetch: FetchConfig = field(default_factory=FetchConfig)
    providers: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    harvest: Mapping[str, Any] = field(default_factory=dict)
    write: Mapping[str, Any] = field(default_factory=dict)
    inline_directives: bool = True  # honour `<!-- citecheck: disable=… -->` in audited memos
    ignored: tuple[str, ...] = ()  # what a discovered config said and this run does not honour (config.trust)
    bibliography: tuple[str, ...] = ()  # for memos whose front matter names none (Pandoc `[@key]` citations)
    scholarly: ScholarlyConfig = field(default_factory=ScholarlyConfig)
    exclude_urls: tuple[UrlExclusion, ...] = ()  # audit: URLs never fetched, each with its reason

    def excluded(self, url: str) -> UrlExclusion | None:
        """The first `exclude-urls` entry whose pattern matches `url` (re.search), or None."""
        return next((rule for rule in self.exclude_urls if re.search(rule.pattern, url)), None)

    def with_overrides(self, **changes: Any) -> Config:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    def with_fetch(self, **changes: Any) -> Config:
        return replace(self, fetch=replace(self.fetch, **{k: v for k, v in changes.items() if v is not None}))


PRESETS: dict[str, dict[str, Any]] = {
    "default": {},
    "strict": {
        "fail-on": "warning",
        "rules": {"M003": {"severity": "warning"}, "M004": {"severity": "warning"},
                  "U008": {"severity": "error"}, "H007": {"severity": "error"}},
    },
}

_TOP_KEYS = {"extends", "select", "ignore", "fail-on", "rules", "firm", "company", "include", "exclude",
             "max-file-size", "packs", "fetch", "providers", "harvest", "write", "inline-directives",
             "bibliography", "scholarly",
             "exclude-urls"}
_FETCH_KEYS = {f.replace("_", "-") for f in FetchConfig.__dataclass_fields__} | {"no-cache", "max-age", "ignore-robots"}
_RULE_KEYS = {"severity", "enabled", "options"}


def discover(start: str | Path | None = None) -> Path | None:
    """The nearest `.citecheck.yaml`, or a pyproject.toml with `[tool.citecheck]`, upward from `start`."""
    here = Path(start or os.getcwd()).resolve()
    for folder in (here, *here.parents):
        for name in CONFIG_NAMES:
            if (folder / name).is_file():
                return folder / name
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and "[tool.citecheck" in pyproject.read_text(encoding="utf-8", errors="replace"):
            return pyproject
    return None


_MAX_NUMBER = 2**53  # fetch numbers: finite (NaN and infinity compare false), and exact as floats


def user_config_path() -> Path | None:
    """The user's own config, `$XDG_CONFIG_HOME/citecheck/config.yaml` (or `.yml`), if there is one."""
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "citecheck"
    return next((base / name for name in ("config.yaml", "config.yml") if (base / name).is_file()), None)


def load_config(path: str | Path | None = None, *, search: bool = True) -> Config:
    """The given config file (else `$CITECHECK_CONFIG`), or the discovered one, or the user's own
    config, or the defaults; what a discovered file may not say (`citecheck.config.trust`) is the
    user config's (or the default) and named in `Config.ignored`."""
    explicit = path if path is not None else os.environ.get("CITECHECK_CONFIG") or None
    if explicit is not None:
        return _load_file(explicit)[0]
    user = user_config_path()
    found = discover() if search else None
    if found is None:
        return _load_file(user)[0] if user is not None else build({}, "")
    from citecheck.config.trust import narrowed

    config, raw = _load_file(found)
    return narrowed(config, raw, _load_file(user)[0] if user is not None else build({}, ""))


def _load_file(path: str | Path) -> tuple[Config, dict[str, Any]]:
    """The file's Config and the mapping it wrote."""
    file = Path(path)
    if not file.is_file():
        raise ConfigError(f"{file}: config file not found")
    text = file.read_text(encoding="utf-8", errors="replace")
    if file.name == "pyproject.toml":
        import tomllib  # only for a pyproject.toml: not at every start

        try:
            raw = tomllib.loads(text).get("tool", {}).get("citecheck", {})
        except tomllib.TOMLDecodeError as err:
            raise ConfigError(f"{file}: invalid TOML: {err}") from None
    else:
        import yaml  # only for a config file: not at every start

        try:
            raw = load_yaml(text) or {}
        except yaml.YAMLError as err:
            mark = getattr(err, "problem_mark", None)
            raise ConfigError(f"{file}:{mark.line + 1 if mark else 1}: invalid YAML: {getattr(err, 'problem', err)}") from None
        except LimitError as err:
            raise ConfigError(f"{file}: {err}") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{file}:1: config must be a mapping")
    return build(raw, str(file), text), raw


def build(raw: Mapping[str, Any], path: str = "", text: str = "") -> Config:
    """Validate a raw mapping (after applying `extends`) into a Config."""
    def fail(key: str, why: str) -> ConfigError:
        return ConfigError(f"{path or '<config>'}:{_line_of(text, key)}: {why}")

    unknown = {str(k) for k in raw} - _TOP_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise fail(key, f"unknown config key {key!r} (known: {', '.join(sorted(_TOP_KEYS))})")
    merged = _apply_extends(raw, fail)
    fail_on = merged.get("fail-on", "error")
    if not isinstance(fail_on, str) or fail_on not in SEVERITIES:
        raise fail("fail-on", f"fail-on must be one of {', '.join(SEVERITIES)}, got {fail_on!r}")
    rules = _rules(merged.get("rules") or {}, fail)
    fetch = _fetch(merged.get("fetch") or {}, fail)
    for key in ("firm", "company"):  # as in front matter: a mapping, or a name (`firm: brazilian-vc`)
        if not isinstance(merged.get(key) or {}, (dict, str)):
            raise fail(key, f"{key} must be a mapping or a name")
    for key in ("providers", "harvest", "write"):
        if not isinstance(merged.get(key) or {}, dict):
            raise fail(key, f"{key} must be a mapping")
    inline = merged.get("inline-directives", True)
    if not isinstance(inline, bool):
        raise fail("inline-directives", "inline-directives must be true or false")
    return Config(
        path=path, select=_strs(merged.get("select"), "select", fail), ignore=_strs(merged.get("ignore"), "ignore", fail),
        fail_on=fail_on, rules=rules, firm=merged.get("firm") or {}, company=merged.get("company") or {},
        include=_strs(merged.get("include"), "include", fail), exclude=_strs(merged.get("exclude"), "exclude", fail),
        max_file_size=_int(merged.get("max-file-size", 20 * 1024 * 1024), "max-file-size", fail),
        packs=tuple(_resolve(path, p) for p in _strs(merged.get("packs"), "packs", fail)), fetch=fetch,
        providers=merged.get("providers") or {}, harvest=merged.get("harvest") or {}, write=merged.get("write") or {},
        inline_directives=inline, scholarly=scholarly_config(merged.get("scholarly") or {}, fail),
        bibliography=tuple(_resolve(path, p) for p in _strs(merged.get("bibliography"), "bibliography", fail)),
        exclude_urls=exclusions(merged.get("exclude-urls"), path, fail),
    )


def _apply_extends(raw: Mapping[str, Any], fail: Any) -> dict[str, Any]:
    name = raw.get("extends", "default")
    if not isinstance(name, str) or name not in PRESETS:
        raise fail("extends", f"unknown preset {name!r} (known: {', '.join(PRESETS)})")
    merged: dict[str, Any] = dict(PRESETS[name].items())
    for key, value in raw.items():
        if key == "rules" and isinstance(value, dict):
            merged["rules"] = {**merged.get("rules", {}), **value}
        elif key != "extends":
            merged[key] = value
    return merged


def _rules(raw: Any, fail: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(raw, dict):
        raise fail("rules", "rules must be a mapping of rule id or slug to settings")
    out: dict[str, dict[str, Any]] = {}
    for key, value in raw.items():
        if isinstance(value, (str, bool)) and value in ("off", False):
            value = {"enabled": False}
        elif isinstance(value, str) and value in SEVERITIES:
            value = {"severity": value}
        if not isinstance(value, dict):
            raise fail(str(key), f"rules.{key} must be a mapping, a severity or 'off'")
        if not isinstance(value.get("options") or {}, dict):
            raise fail(str(key), f"rules.{key}.options must be a mapping")
        options = dict(value.get("options") or {})
        options.update({k: v for k, v in value.items() if k not in _RULE_KEYS})
        severity = value.get("severity")
        if severity is not None and (not isinstance(severity, str) or severity not in SEVERITIES):
            raise fail(str(key), f"rules.{key}.severity must be one of {', '.join(SEVERITIES)}, got {severity!r}")
        out[str(key)] = {"severity": severity, "enabled": bool(value.get("enabled", True)), "options": options}
    return out


def _fetch(raw: Any, fail: Any) -> FetchConfig:
    if not isinstance(raw, dict):
        raise fail("fetch", "fetch must be a mapping")
    unknown = {str(k) for k in raw} - _FETCH_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise fail(key, f"unknown fetch key {key!r} (known: {', '.join(sorted(_FETCH_KEYS))})")
    values: dict[str, Any] = {}
    defaults = FetchConfig()
    for key, value in raw.items():
        if key == "no-cache":
            values["use_cache"] = not bool(value)
            continue
        if key == "ignore-robots":  # as the --ignore-robots flag; `robots: false` says the same
            if not isinstance(value, bool):
                raise fail(key, "fetch.ignore-robots must be true or false")
            values["robots"] = not value
            continue
        if key == "max-age":
            key = "max-age-days"
        attr = key.replace("-", "_")
        default = getattr(defaults, attr)
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise fail(key, f"fetch.{key} must be true or false")
        elif isinstance(default, (int, float)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= _MAX_NUMBER:
                raise fail(key, f"fetch.{key} must be a finite number from 0 to {_MAX_NUMBER}, got {value!r:.40}")
        elif isinstance(default, tuple):
            value = _strs(value, f"fetch.{key}", fail)
        elif isinstance(default, str):
            value = str(value)
        elif key == "headers" and not (isinstance(value, dict) and all(
                isinstance(v, dict) and all(isinstance(x, (str, int, float)) for x in v.values()) for v in value.values())):
            raise fail(key, "fetch.headers must map host -> {Header: value}")
        values[attr] = type(default)(value) if isinstance(default, (int, float)) and not isinstance(default, bool) else value
    parse_statuses(values.get("accept", ()), lambda why: fail("accept", f"fetch.{why}"))
    return FetchConfig(**values)


def _strs(value: Any, key: str, fail: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
        raise fail(key.split(".")[-1], f"{key} must be a list of strings")
    return tuple(str(v) for v in value)


def _int(value: Any, key: str, fail: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise fail(key, f"{key} must be a positive integer (bytes), got {value!r}")
    return value


def _resolve(config_path: str, value: str) -> str:
    if not config_path or os.path.isabs(value):
        return value
    return str(Path(config_path).parent / value)


def _line_of(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith((f"{key}:", f"{key} =", f'"{key}"', f"- {key}")):
            return number
    return 1
