"""PostgreSQL connection strings: which `--cache` values name one, and how to show one without its secrets.

Two forms are team caches, never SQLite file names: a URL (`postgresql://` or `postgres://`) and
libpq's `key=value` string (`host=db user=ci password=… dbname=cc`), which psycopg takes as is.
Every message a person sees shows them through `mask`: the password of the URL's userinfo, every
`password=` parameter (URL query or `key=value`, quoted or not) becomes `***`. A URL whose userinfo
holds a character that ends a URL part (`#`, `?`, `/`, `@`) is refused before it reaches the driver
(`unparseable`): libpq and urllib split such a URL in different places, and the driver's message
would echo a piece of the password. `scrub` takes the secrets out of a driver's message.
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

_URL_PREFIXES = ("postgresql://", "postgres://")
_KEYWORD_RE = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_]*\s*=")  # libpq's `keyword = value`
# a password parameter: in a URL query (`?password=…&`) or a key=value string (`password='…'`)
_PARAM_RE = re.compile(r"(?i)((?:^|(?<=[?&\s]))(?:ssl)?password\s*=\s*)('(?:\\.|[^'\\])*'?|[^&\s]*)")
_URL_IN_TEXT_RE = re.compile(r"(?i)postgres(?:ql)?://[^\s\"]*")
_URL_BREAKERS = "#?/@"
_PART_END_RE = re.compile(r"[/?#]")
_HOST_PORT_RE = re.compile(r"[^:@]*(?::[0-9]*)?")
_FRAGMENT_MIN = 3  # pieces of a secret this long or longer are scrubbed too (a driver echoes what it split)


def is_dsn(location: str | Path | None) -> bool:
    """Whether a `--cache` / `fetch.cache` value is a PostgreSQL connection string (either form)."""
    if not isinstance(location, str):
        return False
    return location.lower().startswith(_URL_PREFIXES) or _KEYWORD_RE.match(location) is not None


def mask(dsn: str) -> str:
    """The connection string with every password replaced by '***'."""
    if not dsn.lower().startswith(_URL_PREFIXES):
        return _PARAM_RE.sub(r"\1***", dsn)
    scheme, rest = dsn.split("://", 1)
    at = rest.rfind("@")  # the last '@': a password may hold one, a host never does
    if at >= 0 and ":" in rest[:at]:
        rest = f"{rest[:at].split(':', 1)[0]}:***@{rest[at + 1:]}"
    return f"{scheme}://" + _PARAM_RE.sub(r"\1***", rest)


def secrets(dsn: str) -> list[str]:
    """Every password the string holds, as written and percent-decoded, and the pieces of it a
    parser may split off (at `#?/@:&=`, three characters or more), longest first."""
    found: list[str] = []
    if dsn.lower().startswith(_URL_PREFIXES):
        rest = dsn.split("://", 1)[1]
        at = rest.rfind("@")
        if at >= 0 and ":" in rest[:at]:
            found.append(rest[:at].split(":", 1)[1])
    for match in _PARAM_RE.finditer(dsn):
        value = match.group(2)
        found += [value, value.strip("'").replace("\\'", "'")]
    found += [unquote(s) for s in found]
    found += [piece for s in found for piece in re.split(r"[#?/@:&=]", s) if len(piece) >= _FRAGMENT_MIN]
    return sorted({s for s in found if s}, key=len, reverse=True)


def unparseable(dsn: str) -> str:
    """Why a URL-form DSN cannot be handed to the driver safely ('' when it can)."""
    if not dsn.lower().startswith(_URL_PREFIXES):
        return ""
    rest = dsn.split("://", 1)[1]
    at = rest.rfind("@")
    userinfo = rest[:at] if at >= 0 else ""
    head = _PART_END_RE.split(userinfo, maxsplit=1)[0]
    if head != userinfo and _HOST_PORT_RE.fullmatch(head):
        return ""  # `host:5432/db?application_name=a@b`: the '@' is in the path or query, not a password's
    if any(c in userinfo for c in _URL_BREAKERS):
        return ("the user name or password holds '#', '?', '/' or '@', which must be percent-encoded in a URL "
                "(%23, %3F, %2F, %40); nothing was sent")
    return ""


def scrub(text: str, dsn: str) -> str:
    """`text` (a driver's message) with the DSN's secrets, any connection URL and any `password=` masked."""
    for secret in secrets(dsn):
        text = text.replace(secret, "***")
    text = _URL_IN_TEXT_RE.sub(lambda m: mask(m.group(0)), text)
    return _PARAM_RE.sub(r"\1***", text)
