"""A URL with the fingerprints of an invented one: template tokens, placeholders, impossible dates.

Models complete URL *shapes*. The tell-tale leftovers: template tokens (`{id}`, `<slug>`, `:id`,
`[slug]`), placeholders (`XXXX`, `12345`, `...`/`…`, `path/to`, `your-domain`, `lorem ipsum`,
`example-article`), a DOI-shaped path (`/10.1038/…`) on a host that neither resolves nor publishes
DOIs, and a date in the path that has not happened yet (or never can, like `2024/02/30`). The
patterns and DOI hosts live in the `placeholder` pack (rules/placeholder_patterns.yaml). "Future"
is relative to the `today` option (YYYY-MM-DD), or the current date when it is unset.

Failing example:

    See [the launch post](https://www.acme-robotics.com/blog/2031/04/02/{slug}) and
    [the study](https://www.mckinsey.com/insights/10.1038/s41586-024-07421-0).

Passing example:

    See [the launch post](https://www.acme-robotics.com/blog/2024/04/02/series-b) and
    [the study](https://doi.org/10.1038/s41586-024-07421-0).
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import unquote, urlsplit

from citecheck.checks.unsupported_scheme import CITEABLE, scheme_of
from citecheck.models import Hit, Link
from citecheck.urls import domain_match, url_host

ID = "U005"
NAME = "hallucination-pattern"
STAGE = "url"
SEVERITY = "error"
VERDICT = "fabricated"
GATE = "retires"
PACK = "placeholder"
DEFAULTS: dict[str, Any] = {"today": None, "doi_hosts": []}
OPTIONS = {"today": "date that counts as today for future-date checks (YYYY-MM-DD; default: the current date)",
           "doi_hosts": "more hosts where DOI-shaped paths are genuine"}



def as_date(value: Any) -> dt.date:
    """The `today` option as a date; None means the current date (the one impure default)."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if value:
        return dt.date.fromisoformat(str(value)[:10])
    return dt.date.today()


class Pack:
    """The `placeholder` pack's URL patterns and DOI lists and the rule's date and DOI patterns,
    compiled once (by `prepare`)."""

    def __init__(self, pack: Mapping[str, Any]) -> None:
        entries = list(pack.get("url_patterns", []))
        self.sources = [(str(p.get("label", "pattern")), str(p["pattern"])) for p in entries]
        self.patterns: list[tuple[str, re.Pattern[str]]] | None = None  # compiled when a URL first matches
        scoped = [f"(?i:{p[4:]})" if p.startswith("(?i)") else p for _, p in self.sources]
        # one alternation: most URLs match none, so one search settles them (and a run whose URLs
        # all pass never compiles the patterns one by one: half of this rule's start-up)
        self.any = re.compile("|".join(f"(?:{p})" for p in scoped)) if scoped else None
        self.doi_hosts = frozenset(str(h).lower() for h in pack.get("doi_hosts", []))
        self.doi_routes = frozenset(str(r).lower() for r in pack.get("doi_routes", []))
        self.doi = re.compile(r"(?:^|/)(?P<doi>10\.\d{4,9}/\S+)", re.ASCII)
        self.full_date = re.compile(r"(?<!\d)(?P<y>(?:19|20)\d\d)(?P<sep>[-/_])(?P<m>\d\d)(?P=sep)(?P<d>\d\d)(?!\d)",
                                    re.ASCII)
        self.month = re.compile(r"/(?P<y>(?:19|20)\d\d)/(?P<m>0[1-9]|1[0-2])(?=/|$)", re.ASCII)
        # Both date shapes contain "19dd" or "20dd" followed by a separator and two digits: a cheap
        # first-character-indexed search that lets most paths skip the two look-behind patterns.
        self.any_date = re.compile(r"(?:19|20)\d\d[-/_]\d\d", re.ASCII)

    def signals(self, rest: str) -> list[str]:
        if self.any is None or not self.any.search(rest):
            return []
        if self.patterns is None:
            self.patterns = [(label, re.compile(pattern)) for label, pattern in self.sources]
        return [f"{label} {m.group(0)!r}" for label, rx in self.patterns for m in [rx.search(rest)] if m]


def prepare(options: Mapping[str, Any]) -> Pack:
    return Pack(options.get("pack", {}))


def hallucination_signals(url: str, pack: Mapping[str, Any] | Pack, today: dt.date,
                          doi_hosts: tuple[str, ...] = ()) -> list[str]:
    """Every invented-URL signal in an http(s) URL (`pack` raw or as `prepare` built it)."""
    if scheme_of(url) not in CITEABLE:
        return []
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return []
    compiled = pack if isinstance(pack, Pack) else Pack(pack)
    host = url_host(url)
    path = unquote(parts.path)
    rest = unquote("".join((parts.netloc, parts.path, "?" + parts.query if parts.query else "",
                            "#" + parts.fragment if parts.fragment else "")))
    signals = compiled.signals(rest)
    signals += _doi_signal(host, path, compiled, doi_hosts)
    signals += _date_signals(path, today, compiled)
    return signals


def _doi_signal(host: str, path: str, pack: Pack, extra: tuple[str, ...]) -> list[str]:
    if "10." not in path:
        return []
    m = pack.doi.search(path)
    if not m:
        return []
    if domain_match(host, pack.doi_hosts) or domain_match(host, {str(h).lower() for h in extra}):
        return []
    before = path[: m.start("doi")].strip("/").lower().split("/")
    if any(seg in pack.doi_routes for seg in before):
        return []
    return [f"DOI-shaped path {m.group('doi')[:40]!r} on {host}, which does not resolve DOIs"]


def _date_signals(path: str, today: dt.date, pack: Pack) -> list[str]:
    if not pack.any_date.search(path):
        return []
    found = []
    for m in pack.full_date.finditer(path):
        try:
            day = dt.date(int(m.group("y")), int(m.group("m")), int(m.group("d")))
        except ValueError:
            found.append(f"impossible date {m.group(0)!r}")
            continue
        if day > today:
            found.append(f"future date {m.group(0)!r}")
    for m in pack.month.finditer(path):
        if (int(m.group("y")), int(m.group("m"))) > (today.year, today.month) and not pack.full_date.match(
                path, m.start() + 1):
            found.append(f"future date {m.group(0).strip('/')!r}")
    return found


def check(link: Link, options: Mapping[str, Any], prepared: Pack | None = None) -> Iterator[Hit]:
    signals = hallucination_signals(link.url, prepared or prepare(options), as_date(options.get("today")),
                                    tuple(options.get("doi_hosts", [])))
    if signals:
        yield Hit(f"URL looks invented: {'; '.join(signals)}", link.location, link.url, evidence=signals[0])
