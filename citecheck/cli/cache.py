"""`citecheck cache stats|prune|clear|migrate [--cache PATH|URL]`: look after the fetch cache.

Every subcommand works on both backends: the SQLite file (default) and a PostgreSQL team cache
(`--cache postgresql://…`, `CITECHECK_CACHE_URL` or `fetch.cache`); `migrate` is for the latter."""
from __future__ import annotations

import datetime as dt
import json
import os

import click

from citecheck.config import load_config
from citecheck.errors import CacheError, CitecheckError
from citecheck.fetch.cache import FactCache, is_team_cache, open_store

_PATH = click.option("--cache", "cache_path", type=click.Path(),
                     help="Cache file or postgresql:// URL (default: $CITECHECK_CACHE_URL, fetch.cache from "
                          "config, else the XDG cache dir).")
_CONFIG = click.option("--config", "config_path", type=click.Path(dir_okay=False),
                       help="Config file (default: .citecheck.yaml found upward).")


def _location(cache_path: str | None, config_path: str | None) -> str | None:
    return cache_path or os.environ.get("CITECHECK_CACHE_URL") or load_config(config_path).fetch.cache or None


def _open(cache_path: str | None, config_path: str | None) -> FactCache:
    return open_store(_location(cache_path, config_path))


@click.group(context_settings={"max_content_width": 100})
def command() -> None:
    """Inspect, prune or clear the fetch cache (facts of past fetches, never verdicts)."""


@command.command()
@_PATH
@_CONFIG
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
def stats(cache_path: str | None, config_path: str | None, as_json: bool) -> None:
    """Where the cache is, how many facts it holds by kind and by outcome, and how old they are.

    \b
    Kinds: answer (a response the host sent; fresh for --max-age days) and nxdomain (a
    corroborated "no such name"; fresh for at most a day). Transient failures are never stored."""
    with _open(cache_path, config_path) as cache:
        data = cache.stats()
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True))
        return
    click.echo(f"cache:    {data['path']}")
    click.echo(f"pages:    {data['pages']}" + "".join(f"  {k}={v}" for k, v in data["by_kind"].items()))
    click.echo("outcomes:" + "".join(f"  {k}={v}" for k, v in data["by_outcome"].items()))
    click.echo(f"extras:   {data['extras']}")
    click.echo(f"size:     {data['bytes'] / 1024:.0f} KiB")
    click.echo(f"oldest:   {_when(data['oldest'])}")
    click.echo(f"newest:   {_when(data['newest'])}")
    if "leases" in data:
        click.echo(f"leases:   {data['leases']} (URLs a runner is fetching now)")
    if "host_slots" in data:
        click.echo(f"slots:    {data['host_slots']} (requests in flight now, all runners, counted per host)")
    if not data["writable"]:
        click.echo("mode:     read-only (lookups only; nothing is stored)")


@command.command()
@_PATH
@_CONFIG
@click.option("--max-age", type=click.FloatRange(0, 3650), help="Drop entries older than this many days "
              "(default: fetch.max-age-days from config, 30).")
def prune(cache_path: str | None, config_path: str | None, max_age: float | None) -> None:
    """Drop entries older than --max-age days."""
    days = max_age if max_age is not None else load_config(config_path).fetch.max_age_days
    with _open(cache_path, config_path) as cache:
        gone = cache.prune(days)
    click.echo(f"pruned {gone} entries older than {days:g} days")


@command.command()
@_PATH
@_CONFIG
def clear(cache_path: str | None, config_path: str | None) -> None:
    """Drop every entry."""
    with _open(cache_path, config_path) as cache:
        gone = cache.clear()
    click.echo(f"cleared {gone} entries")


@command.command()
@_PATH
@_CONFIG
def migrate(cache_path: str | None, config_path: str | None) -> None:
    """Create or upgrade a PostgreSQL team cache's tables (needs CREATE on the schema; see
    docs/team-cache.md). Safe to run again and from several places at once."""
    from citecheck.errors import UsageError

    location = _location(cache_path, config_path)
    if not is_team_cache(location):
        raise UsageError("cache migrate is for a PostgreSQL team cache: --cache postgresql://… "
                         "(a SQLite cache is created and upgraded by itself)")
    assert location is not None
    from citecheck.fetch.cache_pg import connect, failure, mask
    from citecheck.fetch.pgschema import migrate as run_migrate

    with connect(location) as conn:
        try:
            before, after = run_migrate(conn)
        except CitecheckError as err:
            raise CacheError(f"team cache {mask(location)}: {err}") from None
        except Exception as err:
            if type(err).__module__.startswith("psycopg"):
                raise failure(location, err) from None
            raise
    state = "already at" if before == after else f"migrated from version {before} to"
    click.echo(f"team cache {mask(location)}: {state} schema version {after}")


def _when(stamp: float | None) -> str:
    if stamp is None:
        return "-"
    return dt.datetime.fromtimestamp(stamp, dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
