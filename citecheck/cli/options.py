"""Shared click options as decorators, and turning them into a Config."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import click

from citecheck.config import Config, load_config
from citecheck.config.trust import ignored_warning

F = Callable[..., Any]


def _split(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(v.strip() for item in values for v in item.split(",") if v.strip())


def config_options(func: F) -> F:
    for deco in reversed([
        click.option("--config", "config_path", type=click.Path(dir_okay=False),
                     help="Config file (default: $CITECHECK_CONFIG, else .citecheck.yaml found upward, whose "
                          "network-widening and check-weakening keys (ignore, rules off or lowered, …) are ignored, else "
                          "~/.config/citecheck/config.yaml)."),
        click.option("--select", multiple=True, help="Only these rules: IDs, slugs, stage letters or prefixes (comma-separated)."),
        click.option("--ignore", multiple=True, help="Skip these rules (IDs, slugs, stage letters or prefixes)."),
        click.option("--rules", "rule_dirs", multiple=True, type=click.Path(file_okay=False), help="Extra YAML rule pack directory (repeatable)."),
    ]):
        func = deco(func)
    return func


def fetch_options(func: F) -> F:
    for deco in reversed([
        click.option("--allow-private", is_flag=True, default=None, help="Allow fetching private, loopback and link-local addresses."),
        click.option("--allow", "allow", multiple=True, metavar="HOST_OR_IP[:PORT]", help="Allow one private host or address (repeatable)."),
        click.option("--concurrency", type=click.IntRange(1, 4096), help="Requests in flight overall (default 64)."),
        click.option("--host-concurrency", type=click.IntRange(1, 1024), help="Requests in flight per host (default 4)."),
        click.option("--timeout", type=click.FloatRange(0.1, 3600), help="Seconds per URL, all hops and retries included (default 20)."),
        click.option("--max-redirects", type=click.IntRange(0, 50), help="Redirect hops to follow (default 10)."),
        click.option("--cache", "cache_path", type=click.Path(), help="Cache file, or a postgresql:// URL of a team cache (default: $CITECHECK_CACHE_URL, fetch.cache, the XDG cache dir)."),
        click.option("--no-cache", is_flag=True, default=False, help="Neither read nor write the cache."),
        click.option("--max-age", type=click.FloatRange(0, 3650), help="Days a cached fetch stays fresh (default 30); harvest re-checks its corpus's own sources at any age."),
        click.option("--user-agent", help="User-Agent header."),
        click.option("--header", "headers", multiple=True, metavar="HOST:NAME:VALUE", help="Extra request header for one host (repeatable)."),
        click.option("--ignore-robots", is_flag=True, default=False, help="Fetch what robots.txt disallows for citecheck (logged)."),
    ]):
        func = deco(func)
    return func


def build_config(config_path: str | None, select: tuple[str, ...] = (), ignore: tuple[str, ...] = (),
                 rule_dirs: tuple[str, ...] = (), **fetch: Any) -> Config:
    config = load_config(config_path)
    if config.ignored:  # a discovered config may only narrow the network policy: say what it lost
        click.echo(ignored_warning(config), err=True)
    config = config.with_overrides(select=_split(select) or None, ignore=config.ignore + _split(ignore),
                                   packs=config.packs + tuple(rule_dirs))
    return apply_fetch_options(config, **fetch)


def apply_fetch_options(config: Config, allow_private: bool | None = None, allow: tuple[str, ...] = (),
                        concurrency: int | None = None, host_concurrency: int | None = None,
                        timeout: float | None = None, max_redirects: int | None = None,
                        cache_path: str | None = None, no_cache: bool = False, max_age: float | None = None,
                        user_agent: str | None = None, headers: tuple[str, ...] = (),
                        ignore_robots: bool = False) -> Config:
    merged_headers: dict[str, dict[str, str]] = {k: dict(v) for k, v in config.fetch.headers.items()}
    for item in headers:
        host, _, rest = item.partition(":")
        name, _, value = rest.partition(":")
        if not host or not name:
            raise click.BadParameter(f"{item!r} is not HOST:NAME:VALUE", param_hint="--header")
        merged_headers.setdefault(host.lower(), {})[name.strip()] = value.strip()
    if ignore_robots:
        click.echo("citecheck: --ignore-robots: robots.txt is not consulted in this run", err=True)
    return config.with_fetch(
        allow_private=allow_private, allow=config.fetch.allow + tuple(allow) if allow else None,
        concurrency=concurrency, host_concurrency=host_concurrency, timeout=timeout, max_redirects=max_redirects,
        cache=cache_path or os.environ.get("CITECHECK_CACHE_URL") or None, use_cache=False if no_cache else None,
        max_age_days=max_age, user_agent=user_agent, headers=merged_headers if headers else None,
        robots=False if ignore_robots else None,
    )
