"""A page rule that ends its process on a URL with /die in it: a page-stage worker lost mid-batch
(the OOM killer, say). Test-only: never registered."""
from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

ID = "H999"
NAME = "dies-on-die"
STAGE = "page"
SEVERITY = "error"
VERDICT = "dead"


def check(subject: Any, options: Any) -> Iterator[Any]:
    if "/die" in subject.link.url:
        os._exit(3)
    yield from ()
