"""The watermark-company rule's shortcuts say what their long forms say: the length bound agrees with
rapidfuzz's ratio, and the title-noise shortcut removes what every noise pattern removes."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from citecheck.checks.watermark_company import _similar, company_name
from citecheck.models import Document, Heading, Location


@given(st.text("abcde fgh", max_size=14), st.text("abcde fgh", max_size=14), st.sampled_from([80.0, 92.0, 95.0]))
@settings(max_examples=500, deadline=None)
def test_watermark_length_bound_agrees_with_rapidfuzz(a: str, b: str, cutoff: float) -> None:
    assert _similar(a, b, cutoff) == (bool(a and b) and fuzz.ratio(a, b) >= cutoff)


NOISE = ["investment memo", "memo", "series [a-z]", "review", "KK"]


@given(st.lists(st.sampled_from(["Acme", "memo", "MEMO", "Memorandum", "investment", "Series B", "review",
                                 "K", "k", "ſeed", ":", " ", "-", "é"]), max_size=8))
@settings(max_examples=300, deadline=None)
def test_title_noise_shortcut_removes_what_the_patterns_remove(words: list[str]) -> None:
    title = " ".join(words)
    expected = title
    for noise in NOISE:  # every pattern applied, as before the shortcut
        expected = re.sub(rf"(?<!\w)(?:{noise})(?!\w)", " ", expected, flags=re.IGNORECASE)
    expected = " ".join(re.sub(r"[:|–—-]+\s*$", "", expected.strip()).split())
    doc = Document(path="m.md", text=f"# {title}\n", format="markdown", headings=(Heading(1, title, Location("m.md", 1, 1)),))
    assert company_name(doc, {"title_noise": NOISE})[0] == expected
