"""A URL with a user name or password in it: a leaked secret, or a host-spoofing trick.

`https://user:token@api.acme.com/report` leaks a credential into a memo that will be shared;
`https://www.reuters.com@evil.example/story` looks like Reuters but goes to `evil.example`. Neither
belongs in a citation. The password is masked in the finding.

Failing example:

    Pipeline data: [CRM export](https://analyst:s3cr3t@crm.acme-robotics.com/export.csv).

Passing example:

    Pipeline data: [CRM export, shared 2024-05-02](https://crm.acme-robotics.com/export.csv).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from citecheck.checks.malformed_url import has_authority
from citecheck.models import Hit, Link

ID = "U006"
NAME = "credentials-in-url"
STAGE = "url"
SEVERITY = "error"
VERDICT = "invalid"
GATE = "retires"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def userinfo_of(url: str) -> tuple[str, bool] | None:
    """(user name, has a password) of a URL's userinfo, or None when it has none."""
    if not has_authority(url) or "@" not in url:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None  # U002 reports it
    if "@" not in parts.netloc:
        return None
    return parts.username or "", parts.password is not None


def check(link: Link, options: Mapping[str, Any]) -> Iterator[Hit]:
    info = userinfo_of(link.url)
    if info is None:
        return
    user, has_password = info
    shown = f"{user}:****" if has_password else user
    what = "a user name and password" if has_password else "a user name"
    yield Hit(f"URL carries {what} before the host ({shown}@…): a leaked secret or a spoofed host",
              link.location, link.url, evidence=f"{shown}@")
