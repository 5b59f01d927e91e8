"""A link whose scheme is not http or https: nothing a reader can open and verify as a source.

Only `http:` and `https:` URLs are cite-able. Models emit `javascript:` and `data:` links (which
run code or smuggle content), `file:` paths from their sandbox, and `ftp:`, `mailto:` or `tel:`
links where a source belongs. Relative links and anchors (`#risks`, `./appendix.md`) are
navigation, not citations, and are left alone. A bare e-mail address in prose (`ir@acme.com`, which
renderers turn into a `mailto:` link) is reported as *info*: usually a contact line, not a source
posing as one (a written `[source](mailto:…)` link stays an error).

Failing example:

    Churn fell to 2% ([dashboard](file:///Users/analyst/churn.xlsx)).

Passing example:

    Churn fell to 2% ([10-K, p. 41](https://www.sec.gov/Archives/edgar/data/1318605/)); see [Risks](#risks).
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.models import Hit, Link, LinkKind, Severity

ID = "U003"
NAME = "unsupported-scheme"
STAGE = "url"
SEVERITY = "error"
VERDICT = "invalid"
GATE = "retires"
DEFAULTS: dict[str, Any] = {"allow": []}
OPTIONS = {"allow": "extra schemes to accept as cite-able (e.g. [doi])"}

CITEABLE = ("http", "https")
# A Windows drive (`C:\x`, `c:/x`) is a path, not a one-letter scheme.
_SCHEME_RE = re.compile(r"^\s*(?P<scheme>[a-z][a-z0-9+.-]+):", re.IGNORECASE)


def scheme_of(url: str) -> str:
    """The URL's scheme in lower case, or '' for a relative reference."""
    m = _SCHEME_RE.match(url)
    return m.group("scheme").lower() if m else ""


def check(link: Link, options: Mapping[str, Any]) -> Iterator[Hit]:
    scheme = scheme_of(link.url)
    allowed = {*CITEABLE, *(str(s).lower().rstrip(":") for s in options.get("allow", []))}
    if scheme and scheme not in allowed:
        if link.kind is LinkKind.EMAIL:
            yield Hit("e-mail address: renders as a mailto: link, which is not a cite-able source",
                      link.location, link.url, evidence=f"{scheme}:", severity=Severity.INFO)
            return
        yield Hit(f"{scheme}: link is not a cite-able source (only http and https URLs can be verified)",
                  link.location, link.url, evidence=f"{scheme}:")
