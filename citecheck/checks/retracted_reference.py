"""A cited work its registry marks as retracted.

Crossref records retractions (from publishers and, since 2023, the Retraction Watch database) as
an update of type retraction (`updated-by` / `update-to`) or a `relation.is-retracted-by` link;
PubMed types a retracted article "Retracted Publication"; DataCite has `IsRetractedBy`. A memo
that leans on a retracted paper should say so or cite something else. A warning: citing a
retraction on purpose (to discuss it) is legitimate; suppress it inline then.

Failing example (Crossref's record has `"updated-by": [{"type": "retraction", …}]`):

    Vaccines cause autism ([Wakefield et al., 1998](https://doi.org/10.1016/S0140-6736(97)11096-0)).

Passing example (no retraction recorded):

    Residual networks ([He et al., 2016](https://doi.org/10.1109/CVPR.2016.90)).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.models import Hit

if TYPE_CHECKING:
    from citecheck.engine.run import Cited

ID = "R004"
NAME = "retracted-reference"
STAGE = "reference"
SEVERITY = "warning"
VERDICT = "advisory"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def check(cited: Cited, options: Mapping[str, Any]) -> Iterator[Hit]:
    record = cited.lookup.record
    if record is None or not record.retracted:
        return
    ref = cited.reference
    notice = f" (notice: {record.retraction})" if record.retraction else ""
    yield Hit(f"{ref.identifier.label} is retracted according to {record.registry}{notice}", ref.location,
              ref.url or ref.identifier.url, evidence=f"{record.cite()} retracted{notice}")
