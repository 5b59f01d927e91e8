"""harvest's `--deadline`: the judging of candidates stops when the run's time is up.

As in `audit` (`fetch.deadline`, default 900 s, for the whole fetch stage: here from the moment the
candidates are known, after the searches, to the last verdict), a candidate whose judging had not
ended by then is cancelled and gets a verdict that never earns an ID: a new
candidate is rejected as unverifiable (`fetch-unverifiable`, evidence `deadline`), a corpus source
is kept stale with its last good facts. Its page is never stored and says nothing about the
network (`fetch.outage` skips it). What was fetched before the deadline is in the cache
(`Judge.flush`), so the next harvest resumes from there.

The registry lookups of DOI, arXiv and PubMed candidates and of `--bib` entries run on the same clock,
before the judging: a lookup not answered in time makes its candidates (entries) unverifiable in the same
way, its landing page is not fetched instead, nothing of it is stored, and the judging gets what is left.
"""
from __future__ import annotations

from collections.abc import Awaitable, Sequence
from dataclasses import replace

from citecheck._util.aio import late_after
from citecheck.fetch import past_deadline
from citecheck.harvest.gate import Reason, outcome_reason
from citecheck.harvest.judge import Verdict
from citecheck.harvest.plan import Found
from citecheck.models import Page


async def judged_within(seconds: float, jobs: Sequence[Awaitable[list[Verdict]]],
                        groups: Sequence[list[Found]], deadline: float | None = None) -> list[list[Verdict]]:
    """Each job's verdicts (one job per group), or the deadline's for the groups whose job had not
    ended after `seconds` (what is left of the run's `deadline`, said in the verdict). A job that
    raises stops the others and the run, as `asyncio.gather` would."""
    results, late = await late_after(seconds, jobs)
    said = seconds if deadline is None else deadline
    return [unjudged(group, said) if i in late else result for i, (result, group) in enumerate(zip(results, groups, strict=True))]


def unjudged(group: list[Found], deadline: float) -> list[Verdict]:
    """The verdicts of candidates the run's deadline cut off: failed, unverifiable, never an ID."""
    page = past_deadline(group[0].candidate.url, deadline)
    return [Verdict(found, [deadline_reason(page, deadline)], page=page) for found in group]


def deadline_reason(page: Page, deadline: float) -> Reason:
    """The reject reason of a candidate the run's deadline cut off (`page`: its `past_deadline` page)."""
    reason = outcome_reason(page)
    assert reason is not None  # an unverifiable outcome always has one
    return replace(reason, message=f"{reason.message}: the run's --deadline ({deadline:g} s) passed before it "
                                   "was judged")
