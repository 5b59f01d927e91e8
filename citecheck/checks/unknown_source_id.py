"""A `[src-NNN]` citation whose ID is not in the corpus: a source the writer made up.

Writers cite corpus entries by ID only. An ID the corpus does not hold — `[src-047]` in a corpus
that ends at `src-031` — is the ID-shaped version of a fabricated URL. Runs when a corpus is given
(`citecheck audit --corpus sourced_corpus.json`, and always inside `citecheck write`). An ID that
the corpus's registry (`sourced_corpus.json.ids`) retired — a real source a re-harvest found dead
on evidence — is reported as retired, with the date and the reason, never as invented.

Failing example (corpus holds src-001 … src-031):

    Acme's CAC payback is 9 months [src-047].

Passing example:

    Acme's CAC payback is 9 months [src-012].
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.models import Hit, Verdict

ID = "M006"
NAME = "unknown-source-id"
STAGE = "memo"
SEVERITY = "error"
VERDICT = "unknown-id"
WRITE = "contract"  # write always runs it, whatever --select/--ignore say
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def retired_note(record: Mapping[str, Any]) -> str:
    """When and why a corpus source was retired: '2026-11-30, http-error: HTTP 404'."""
    when = str(record.get("retired_at") or "")[:10] or "an unknown date"
    why = ": ".join(str(record[k]) for k in ("rule", "reason") if record.get(k))
    return f"{when}, {why}" if why else when


def check(memo: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    if memo.corpus is None:
        return
    known = {sid.casefold() for sid in memo.corpus.by_id()}
    retired = {sid.casefold(): record for sid, record in memo.corpus.retired.items()}
    for marker in memo.document.markers:
        if marker.kind != "source-id" or marker.in_code or marker.value.casefold() in known:
            continue
        record = retired.get(marker.value.casefold())
        if record is not None:  # a real source that died: never called invented
            evidence = str(record.get("evidence") or record.get("url") or "")
            yield Hit(f"[{marker.value}] was retired from the corpus ({retired_note(record)}): dead on evidence, "
                      "cite another source", marker.location, evidence=f"retired {retired_note(record)}; {evidence}",
                      verdict=Verdict.DEAD)  # a real source that is gone, not an invented one
            continue
        yield Hit(f"[{marker.value}] is not in the corpus ({memo.corpus.path}): an invented source ID",
                  marker.location, evidence=marker.value)
