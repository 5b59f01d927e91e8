"""A real identifier whose registry record contradicts the memo's title, authors or year.

A real DOI with another work's title or authors (a "hybrid" fabrication) is the commonest kind of
fabricated reference, and the hardest to see: the link works.

The claim is read from the link text and the reference line (APA, IEEE, Chicago, Harvard,
Vancouver/AMA, Nature, Springer LNCS, ACM, MLA, `[Title](https://doi.org/…)`, `[Author et al.,
2022](…)`, footnotes with `doi:`; see docs/scholarly.md) and compared with the registry's record,
only in the fields the memo states:
- title: the same after folding case, accents, punctuation, LaTeX and markup, within a rapidfuzz
  ratio of `title_ratio` of any of the record's titles, with or without the subtitle, and no
  content word swapped or inserted (a stop word, a spelling variant, a hyphen or a number written
  out is not one);
- authors: each claimed surname is one of the record's authors; placeholder names ("John Doe") never pass;
- year: within `year_tolerance` of a year the record gives (print, online, versions), and not in the future.
The evidence names the field and shows the record's value; the fix is the record's citation. The
verdict is title-mismatch (the identifier names another work than the text promised), fabricated
when the title and the authors are both contradicted (a real identifier under an invented citation).

Failing example (the DOI's record is "Deep Residual Learning for Image Recognition", He et al., 2016):

    1. Smith, J. (2019). A survey of everything. https://doi.org/10.1109/CVPR.2016.90

    2. He K, Zhang X, Ren S, Sun J. Deep residual learning for video recognition. Proc CVPR. 2016. doi:10.1109/CVPR.2016.90

Passing example:

    1. He, K., Zhang, X., Ren, S., & Sun, J. (2016). Deep residual learning for image recognition. https://doi.org/10.1109/CVPR.2016.90
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.models import Hit, Verdict
from citecheck.scholarly.compare import PLACEHOLDER_SURNAMES, compare

if TYPE_CHECKING:
    from citecheck.engine.run import Cited

ID = "R002"
NAME = "reference-mismatch"
STAGE = "reference"
SEVERITY = "error"
# the identifier is real but names another work; with both its title and its authors contradicted the
# citation is a hybrid fabrication (per hit)
VERDICT = "title-mismatch"
EVIDENCE = "Page title found"  # what the HTML report calls a finding's evidence
DEFAULTS: dict[str, Any] = {"fields": ["title", "authors", "year"], "title_ratio": 0.90, "year_tolerance": 1,
                            "extra_placeholder_names": [], "today": None}
OPTIONS = {"fields": "claimed fields to compare (title, authors, year)",
           "title_ratio": "rapidfuzz ratio (0-1) at which a claimed title equals a record title",
           "year_tolerance": "years a claimed year may differ from the record's",
           "extra_placeholder_names": "more surnames that are never a real author (lower case)",
           "today": "date that counts as today for future years (YYYY-MM-DD; default: the current date)"}


def check(cited: Cited, options: Mapping[str, Any]) -> Iterator[Hit]:
    record, ref = cited.lookup.record, cited.reference
    if record is None or ref.claim.empty:
        return
    today = dt.date.fromisoformat(str(options["today"])) if options.get("today") else dt.date.today()
    found = compare(ref.claim, record, title_ratio=float(options.get("title_ratio", 0.90)),
                    year_tolerance=int(options.get("year_tolerance", 1)), this_year=today.year,
                    placeholders=PLACEHOLDER_SURNAMES | {str(n).lower() for n in options.get("extra_placeholder_names", [])},
                    fields=options.get("fields", ("title", "authors", "year")))
    if not found:
        return
    fields = ", ".join(m.field for m in found)
    evidence = "; ".join(f"{m.field}: claimed {m.claimed!r}, record {m.recorded!r}" + (f" ({m.why})" if m.why else "")
                         for m in found)
    verb = "does" if len(found) == 1 else "do"
    wrong = {m.field: m for m in found}
    claim = ref.claim
    claimed = {"title": claim.title, "authors": "; ".join(claim.authors) + (" et al." if claim.et_al else ""),
               "year": str(claim.year) if claim.year is not None else ""}
    recorded = {"title": record.title,
                "authors": "; ".join(a.display for a in record.authors[:8]) + ("; …" if len(record.authors) > 8 else ""),
                "year": str(record.year or "")}
    side_by_side = tuple((name, claimed[name], recorded[name], name not in wrong, wrong[name].why if name in wrong else "")
                         for name in ("title", "authors", "year") if claimed[name])
    yield Hit(f"{ref.identifier.label} is a different work than cited ({fields} {verb} not match the "
              f"{record.registry} record)", ref.location, ref.url or ref.identifier.url, evidence=evidence,
              fix=record.cite(), verdict=Verdict.FABRICATED if {"title", "authors"} <= {m.field for m in found} else None,
              compared=side_by_side)
