"""What a discovered configuration may say: the model under audit never steers the gate (issue 26).

A `.citecheck.yaml` (or `[tool.citecheck]` table) found by walking up from the working directory
may have been written by whoever wrote the memos, so it may only narrow the network policy and add
to or tighten the checks. Everything else it says is replaced by the *trusted* configuration's
value — the user's own config directory, else the defaults — and named in `Config.ignored`, which
the CLI prints as one warning line (`ignored_warning`):

- network policy: `fetch.allow`, `allow-private`, `headers`, `robots: false` / `ignore-robots`,
  `archive-url`, `cache` (the facts every verdict is computed from), and `fetch.accept` (statuses
  reported as accepted instead of judged);
- checks: `ignore`, `select`, a rule turned off, a rule severity other than `error` (a discovered
  file cannot lower one; `error` is the top), any rule `options` (an option can silence a rule:
  `ignore_statuses: [404]`), a looser `fail-on`, `inline-directives: true` where the trusted
  configuration says false, `include`, `exclude` and `exclude-urls` (files and URLs never judged),
  `firm` / `company` where the trusted configuration has a profile, `harvest` and `write`
  (thresholds of the gates), `fetch.sibling-probe: false` (soft-404 evidence) and a longer
  `fetch.max-age`.

`--config FILE` and `$CITECHECK_CONFIG` are explicit and honoured in full, as is the user config.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from citecheck.config import PRESETS, Config, FetchConfig
from citecheck.config.registries import narrowed_scholarly

_FAIL_ON_RANK = {"info": 0, "warning": 1, "error": 2}  # higher: fewer findings fail the run


def narrowed(config: Config, raw: Mapping[str, Any], trusted: Config) -> Config:
    """`config`, read from a discovered file whose mapping is `raw`, with what it may not say
    replaced by `trusted`'s value and named in `ignored` (in the order of the module docstring)."""
    config, network = _network(config, _mapping(raw.get("fetch")), trusted)
    scholarly, ignored = narrowed_scholarly(config.scholarly, tuple(network))
    config, checks = _checks(replace(config, scholarly=scholarly), raw, trusted)
    names = (*ignored, *checks)
    return replace(config, ignored=names) if names else config


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _network(config: Config, written: Mapping[str, Any], trusted: Config) -> tuple[Config, list[str]]:
    fetch, base, default = config.fetch, trusted.fetch, FetchConfig()
    # the network policy is the trusted configuration's alone: a key the file set is named even when
    # the trusted value is the same (it is that value, not the file's, that the run uses)
    widened = {"allow": fetch.allow != default.allow, "allow-private": fetch.allow_private,
               "headers": fetch.headers != default.headers, "robots": not fetch.robots,
               "archive-url": fetch.archive_url != default.archive_url, "cache": fetch.cache != default.cache,
               "accept": fetch.accept != base.accept and bool(fetch.accept),
               "sibling-probe": not fetch.sibling_probe and base.sibling_probe,
               "max-age": fetch.max_age_days > base.max_age_days}
    spelled = {"robots": ("robots", "ignore-robots"), "max-age": ("max-age", "max-age-days")}
    ignored = [f"fetch.{name}" for key, wide in widened.items() if wide
               for name in spelled.get(key, (key,)) if name in written]
    fetch = replace(fetch, allow=base.allow, allow_private=base.allow_private, headers=base.headers,
                    robots=base.robots, archive_url=base.archive_url, cache=base.cache,
                    accept=base.accept if widened["accept"] else fetch.accept,
                    sibling_probe=fetch.sibling_probe or base.sibling_probe,
                    max_age_days=min(fetch.max_age_days, base.max_age_days))
    return replace(config, fetch=fetch), ignored


def _checks(config: Config, raw: Mapping[str, Any], trusted: Config) -> tuple[Config, list[str]]:
    """The checks' settings, each no looser than the trusted configuration's (named when the file wrote it)."""
    loose: dict[str, tuple[str, bool]] = {
        key: (attr, bool(getattr(config, attr)) and getattr(config, attr) != getattr(trusted, attr))
        for key, attr in (("ignore", "ignore"), ("select", "select"), ("include", "include"), ("exclude", "exclude"),
                          ("exclude-urls", "exclude_urls"), ("harvest", "harvest"), ("write", "write"))}
    loose.update({key: (key, bool(getattr(trusted, key)) and getattr(config, key) != getattr(trusted, key))
                  for key in ("firm", "company")})
    loose["fail-on"] = ("fail_on", _FAIL_ON_RANK[config.fail_on] > _FAIL_ON_RANK[trusted.fail_on])
    loose["inline-directives"] = ("inline_directives", config.inline_directives and not trusted.inline_directives)
    changes = {attr: getattr(trusted, attr) for attr, bad in loose.values() if bad}
    ignored = [key for key, (_, bad) in loose.items() if bad and key in raw]
    preset = PRESETS.get(str(raw.get("extends", "default")), {}).get("rules", {})
    rules, refused = _rules(config.rules, _mapping(raw.get("rules")), trusted, preset)
    if refused:
        ignored += refused
        changes["rules"] = rules
    return (replace(config, **changes) if changes else config), ignored


def _rules(rules: Mapping[str, Mapping[str, Any]], written: Mapping[str, Any], trusted: Config,
           preset: Mapping[str, Mapping[str, Any]]) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """The rule settings with what the file wrote that turns a rule off, sets a severity below
    `error` (unless the trusted configuration or the preset it extends, one of citecheck's own, says
    the same) or sets options replaced by the trusted configuration's setting for that rule."""
    out = {key: dict(value) for key, value in rules.items()}
    refused: list[str] = []
    for key in map(str, written):
        entry = out.get(key)
        if entry is None:
            continue
        base = trusted.rules.get(key, {"severity": None, "enabled": True, "options": {}})
        if not entry["enabled"] and base["enabled"]:
            refused.append(f"rules.{key}.enabled")
            entry["enabled"] = True
        if entry["severity"] not in (None, "error", base["severity"], preset.get(key, {}).get("severity")):
            refused.append(f"rules.{key}.severity")
            entry["severity"] = base["severity"]
        if entry["options"] and entry["options"] != base["options"]:
            refused.append(f"rules.{key}.options")
            entry["options"] = dict(base["options"])
    return out, refused


def ignored_warning(config: Config) -> str:
    """The one warning line for what a discovered config said and this run does not honour ('' when
    nothing)."""
    if not config.ignored:
        return ""
    return (f"citecheck: {config.path}: {', '.join(config.ignored)} ignored: a configuration found by walking up "
            "from the working directory may only narrow the network policy and add to or tighten the checks "
            "(give it with --config FILE, $CITECHECK_CONFIG or ~/.config/citecheck/config.yaml, or on the "
            "command line: --allow, --header, --cache, --ignore)")
