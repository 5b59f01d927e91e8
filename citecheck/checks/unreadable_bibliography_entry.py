"""A bibliography block that cannot be read: its entry is missing from what Pandoc and BibTeX see.

An unbalanced brace, a stray quote or a missing key makes the parser give up on the block, so every
`[@key]` citing it is an unknown key, and the entries after it may be swallowed too. The finding
points at the block's first line with the parser's reason.

Failing example (`refs.bib`):

    @article{smith2021,
      title = {Ocean heat content,
      year = 2021
    }

Passing example:

    @article{smith2021,
      title = {Ocean heat content},
      year = 2021
    }
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.models import Hit

ID = "B003"
NAME = "unreadable-bibliography-entry"
STAGE = "bibliography"
SEVERITY = "error"
VERDICT = "corpus"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def check(bibliography: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    for location, why in bibliography.unreadable:
        yield Hit(why, location)
