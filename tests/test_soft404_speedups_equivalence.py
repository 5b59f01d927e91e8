"""Shortcuts of H003 soft-404 / H007 title-mismatch helpers against the general paths they replaced
(the oracles).

- `fold` returns an ASCII text with no run of spaces and no other ASCII whitespace stripped and
  lowered, without `collapse_spaces`; the oracle always collapses.
- `_slug_words` splits an ASCII segment's tokens joined by spaces once; the oracle asks `words`
  about each token.

The oracles are the replaced code, verbatim but for the renames; do not "fix" them.
"""
from __future__ import annotations

import unicodedata
from urllib.parse import unquote, urlsplit

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from citecheck.checks import _match, _page
from citecheck.support.text import collapse_spaces

SETTINGS = settings(max_examples=500, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---- oracles: the code the shortcuts replaced ----

def oracle_fold(text: str) -> str:
    text = text or ""
    if text.isascii():  # NFKC and the quote table change no ASCII character: skip both passes
        return collapse_spaces(text).lower()
    return " ".join(unicodedata.normalize("NFKC", text).translate(_page._QUOTES).split()).casefold()


def oracle_slug_words(url: str, min_words: int) -> tuple[str, ...]:
    try:
        path = unquote(urlsplit(url).path)
    except ValueError:
        return ()
    for segment in reversed([s for s in path.split("/") if s]):
        tokens = [t for t in _match._SEGMENT_SPLIT.split(segment.casefold()) if t and t not in _match._EXTENSIONS]
        topical = [w for t in tokens for w in _match.words(t) if not _match._is_id(w)]
        if len(topical) >= min_words:
            return tuple(topical)
    return ()


# ---- generated inputs ----

_ASCII_SPACES = " \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"
ascii_text = st.text(alphabet=st.sampled_from("abcXYZ09.,'-" + _ASCII_SPACES), max_size=60)
any_text = st.text(alphabet=st.sampled_from("abcXYZ09.,'-" + _ASCII_SPACES + "\u00a0\u2019\u00e9\u00c9\u2028\u3000ﬁ"),
                   max_size=60)
segment = st.text(alphabet=st.sampled_from("abcdefghij0123456789-_+.~,%' éÉü中/"), max_size=40)


@SETTINGS
@given(st.one_of(ascii_text, any_text, st.text(max_size=40)))
@example("")
@example(" a b ")
@example("a  b")
@example("a\x1fb")
@example("\x1c")
@example("Page Not Found ")
def test_fold_matches_oracle(text: str) -> None:
    assert _page.fold.__wrapped__(text) == oracle_fold(text)


@SETTINGS
@given(st.lists(segment, min_size=1, max_size=4), st.sampled_from([1, 2, 3, 4]))
@example(["battery-tariff-battery-533481"], 3)
@example(["review-yi-4k-action-camera", ""], 3)
@example(["index.html"], 1)
@example(["caf%C3%A9-cr%C3%A8me-br%C3%BBl%C3%A9e"], 3)
@example(["it's-a-rock'n'roll_story.php"], 3)
def test_slug_words_matches_oracle(segments: list[str], min_words: int) -> None:
    url = "https://example.com/" + "/".join(segments)
    assert _match._slug_words.__wrapped__(url, min_words) == oracle_slug_words(url, min_words)
