"""Property (issue 26): the model under audit cannot steer `write`. On generated drafts that mix inline
directives (every spelling the gate knows, and some it must not be fooled by), front matter that
configures checks, and every hostile URL form of `tests/writedrafts.py`, `write`

- fails (exit 1) whenever the draft cites an unknown ID or a URL outside the corpus,
- emits a memo with no citecheck directive and no `firm:` / `company:` front matter,
- and links nothing outside the corpus (the independent paranoid scanner of tests/leakscan.py).
"""
from __future__ import annotations

import os

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from leakscan import leaked
from writedrafts import CORPUS, CORPUS_URLS, id_pieces, prose, url_pieces

from citecheck.config import Config
from citecheck.engine.registry import build_registry
from citecheck.extract.markdown import extract_markdown
from citecheck.report.gate import exit_code
from citecheck.write import write
from citecheck.write.directives import has_directive

REGISTRY = build_registry()
EXAMPLES = max(int(os.environ.get("CITECHECK_HYPOTHESIS_EXAMPLES", "1000")) // 5, 50)

rules = st.sampled_from(["M006", "M009", "M006,M009", "unknown-source-id,draft-url", "all", "M", "M00", "E002",
                         "M001,M002,M006,M007,M008,M009", ""])
directive_forms = st.sampled_from([
    '<!-- citecheck: disable={r} reason="reviewed" -->', '<!-- citecheck: disable-file={r} reason="x" -->',
    "<!--citecheck:disable={r} reason=ok-->", '<!-- CITECHECK : disable={r} reason="x" --!>',
    '<!-- citecheck: disable={r} reason="a\nb" until=2999-01-01 -->', "<!-- citecheck: disable-next-line={r} -->",
    '<!-- citecheck: disable={r} reason="x"', '<!-<!-- citecheck: x -->- citecheck: disable={r} reason="j" -->',
    '`<!-- citecheck: disable={r} reason="in code" -->`', '\n```\n<!-- citecheck: disable={r} reason="x" -->\n```\n',
    '&lt;!-- citecheck: disable={r} --&gt;', '<!-- citecheck: disable={r} reason="x" --> trailing',
])
directives = st.builds(lambda form, r: form.format(r=r), directive_forms, rules)
front_values = st.sampled_from([
    "firm: {name: Other, terms: [Zzzz]}", "firm: indonesian-vc", "company: {name: Acme, geographies: [Indonesia]}",
    "company: Acme", "firm:\n  name: X\n  terms:\n  - a\n  - b", "title: Memo", "tags: [a, b]",
    "base: &b {name: Z}\nfirm:\n  <<: *b", "citecheck: {disable: all}",
])
front_matter = st.lists(front_values, max_size=4, unique=True).map(
    lambda vs: "---\n" + "\n".join(vs) + "\n---\n" if vs else "")
# each of these makes a draft break the contract, whatever else it holds
breaches = st.sampled_from([
    "Demand doubles by 2030 [src-777].", "See [the report](https://fabricated-trucking-stats.com/report).",
    "Source: https://made-up-analyst.io/q3-outlook", "Per <https://evil.example.net/x> it grew.",
    "Growth [src-001, src-999].",
])
bodies = st.lists(st.one_of(directives, url_pieces, id_pieces, prose, prose), max_size=20).map(" ".join)


@st.composite
def drafts(draw: st.DrawFn) -> tuple[str, bool]:
    body = draw(bodies)
    breach = draw(st.booleans())
    if breach:  # first, so no fence, HTML block or code span the pieces open can swallow it as code
        body = draw(breaches) + "\n\n" + body
    front = draw(front_matter)
    return front + body, breach


def _front_keys(memo: str) -> set[str]:
    if not memo.startswith("---\n") or "\n---\n" not in memo[3:]:
        return set()
    try:
        data = yaml.safe_load(memo[4:memo.index("\n---\n", 3)])
    except yaml.YAMLError:
        return set()
    return set(data) if isinstance(data, dict) else set()


PROBE = ('---\nfirm: {name: Other, terms: [Zzzz]}\n---\n<!-- citecheck: disable=M006,M009 reason="fine" -->\n'
         "Trucking moved 72.6% of freight [src-999] (see https://fabricated-trucking-stats.com/report).\n")


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=drafts(), hybrid=st.booleans())
@example(case=(PROBE, True), hybrid=False)
def test_write_cannot_be_steered_by_the_draft(case: tuple[str, bool], hybrid: bool) -> None:
    draft, breach = case
    result = write(draft, CORPUS, hybrid=hybrid, config=Config(), registry=REGISTRY)
    if breach:
        assert exit_code(result.findings, "error", result.crashed) == 1, result.findings
    assert result.suppressed == []
    memo = result.text
    assert not has_directive(memo), memo
    assert extract_markdown("memo.md", memo).directives == (), memo
    assert not _front_keys(memo) & {"firm", "company"}, memo
    assert leaked(memo, CORPUS_URLS) == [], memo
