"""M008's fast text helpers against the plain implementations they replaced (the oracles below).

The fast paths (full stops found with `find`, numbers as united per-sentence sets, coverage from
per-sentence hits, the pruned fuzzy ranking) must agree with the originals on every input, not
only on the benchmark's pages: the cases mix abbreviations, decimals, currencies, units, non-ASCII
digits and case folds, CJK stops, quotes and dot-dense text.
"""
from __future__ import annotations

import random
import re

import pytest
from rapidfuzz import fuzz

from citecheck.support.assess import LexicalVerifier, Passages, _word_set, assess, passages
from citecheck.support.text import _ABBREV, _SENT_END_RE, content_word_set, content_words, numbers, split_sentences

_NUMBER_RE = re.compile(r"(?<![\w.])[$€£¥]?\d[\d,]*(?:\.\d+)?\s?(?:%|percent|per cent|bn|billion|million|m\b|k\b|x\b)?",
                        re.IGNORECASE)


def old_split_sentences(text: str) -> list[tuple[int, str]]:
    protected = text
    for abbr in _ABBREV:
        if abbr in protected:
            protected = protected.replace(abbr, abbr.replace(".", "\x00"))
    out: list[tuple[int, str]] = []
    start = 0
    for m in _SENT_END_RE.finditer(protected):
        out.append((start, text[start:m.start() + 1]))
        start = m.end()
    out.append((start, text[start:]))
    return [(o, s) for o, s in out if s.strip()]


def old_numbers(text: str) -> set[str]:
    found = set()
    for m in _NUMBER_RE.finditer(text):
        raw = m.group(0).lower().strip()
        value = re.sub(r"[$€£¥,\s]", "", raw)
        value = value.replace("percent", "%").replace("percent", "%").replace("billion", "bn")
        value = value.replace("million", "m")
        number = re.match(r"\d+(?:\.\d+)?", value)
        if number and not (len(number.group(0)) == 1 and value == number.group(0)):
            found.add(value.rstrip("."))
    return found


def old_best(claim: str, chunks: list[str], window_sets: list[frozenset[str]]) -> tuple[int, float]:
    words = set(content_words(claim))
    if not words or not chunks:
        return 0, 0.0

    def similarity(i: int) -> float:
        coverage = len(words & window_sets[i]) / len(words)
        return 0.75 * coverage + 0.25 * fuzz.token_set_ratio(claim, chunks[i]) / 100
    ranked = sorted(range(len(chunks)), key=lambda i: -len(words & window_sets[i]))[:5]
    best_s, best_i = max(((similarity(i), i) for i in ranked), key=lambda pair: (pair[0], -pair[1]))
    return best_i, best_s


TOKENS = ["e.g.", "i.e.", "i.e.g.", "U.S.", "U.S.S.", "Sept.", "Sep.", "Co.", "Corp.", "No.", "approx.", "etc.",
          "Dr.", "St.", "3.5", "1,200", "$3.5bn", "€4 billion", "£12m", "¥7", "12 percent", "12 per cent", "12 PER CENT",
          "45%", "2023", "5", "7.", "0.5x", "10k", "10\u212a", "3 bıllıon", "٣٤", "١٢٣ million", "12\x1cpercent",
          "v2.0", "a.5", "x$5", "$$5", "a5", "€€", "5$", "_7", ".25", "$.5", "1.2.3", "Acme", "Bureau of Transportation Statistics", "BTS", "grew", "Zürich", "Ünited", "the",
          "北京", "。", "！", "？", "!", "?", ".", "...", "....", '"', "”", "’", ")", "]", "(", "[", "“", "\x00", "x", "m",
          "k", "M.", "per", "cent", "Revenue", "of", "A", "0"]
SEPARATORS = [" ", " ", " ", "  ", "\n", "\t", "", ". ", "! ", "? ", "。", "\u00a0", ", "]


def texts(count: int, seed: int) -> list[str]:
    """Short texts dense in the tricky tokens."""
    rng = random.Random(seed)
    return ["".join(rng.choice(TOKENS) + rng.choice(SEPARATORS) for _ in range(rng.randint(0, 60)))
            for _ in range(count)]


PROSE = " and the index rose over the quarter as prices held" * 6  # pads stops apart: the `find` path, not the regex's
FIXED = ["", ".", "Mr. Smith went to Washington. He said no.", "It grew 3.5% in 2023. Then it fell!",
         "See e.g. Fig. 3. It is U.S. policy. The end", "Dots " + ". " * 400 + "End. Done.",
         "Leaders ........ 12\nNext line. Last", "收入增长。北京 Acme 公司！Yes? No.", "Price: $3.5bn. 12 percent. Per cent",
         'He said "yes." Then left. (It was 5.) Next', "Sept. Sep. Co. Corp. No. 5 approx. 7 vs. 8 etc. Done."]
FIXED += [case + PROSE + ". " + case + PROSE for case in FIXED] + [". Leading stop" + PROSE + "! Then i.e.g. Next."]


def prose(count: int, seed: int) -> list[str]:
    """Long texts with the tricky tokens spread through plain words."""
    rng = random.Random(seed)
    words = PROSE.split()
    return ["".join((rng.choice(TOKENS) if rng.random() < 0.15 else rng.choice(words)) + rng.choice(SEPARATORS[:5])
                    for _ in range(rng.randint(50, 600))) for _ in range(count)]


CASES = FIXED + prose(300, 4) + texts(1500, 1)


@pytest.mark.parametrize("text", FIXED)
def test_split_sentences_matches_the_plain_splitter(text: str) -> None:
    assert split_sentences(text) == old_split_sentences(text)


@pytest.mark.parametrize("text", FIXED)
def test_numbers_match_the_per_match_normaliser(text: str) -> None:
    assert numbers(text) == old_numbers(text)


def test_every_abbreviation_ends_in_a_full_stop() -> None:
    assert all(abbr.endswith(".") for abbr in _ABBREV)  # only full stops are searched for them


def test_sentences_numbers_and_words_on_mixed_text() -> None:
    for text in CASES:
        assert split_sentences(text) == old_split_sentences(text), text
        assert numbers(text) == old_numbers(text), text
        assert content_word_set(text) == set(content_words(text)), text


def test_passage_helpers_match_joined_windows() -> None:
    for text in CASES[:500]:
        chunks = passages(text, 3, 400)
        if not chunks:
            continue
        sentences = [s.strip() for _, s in old_split_sentences(text)]
        window_sets = [frozenset().union(*map(_word_set, sentences[i:i + 3] if len(chunks) > 1 else sentences))
                       for i in range(len(chunks))]
        words = set(content_words(text)) | {"grew", "revenu"}
        assert chunks.coverage(words) == [len(words & s) for s in window_sets], text
        for index in range(-1, len(chunks)):
            assert chunks.numbers_near(index) == old_numbers(" ".join(chunks[max(0, index - 1): index + 2])), text
        rng = random.Random(text)
        for claim in [text[:80], " ".join(rng.sample(text.split(), min(12, len(text.split())))) + " grew 45%"]:
            assert LexicalVerifier().best(claim, chunks) == old_best(claim, list(chunks), window_sets), claim
            assert LexicalVerifier().best(claim, list(chunks)) == old_best(claim, list(chunks), window_sets), claim


def test_numbers_near_falls_back_to_the_join_when_a_sentence_runs_on() -> None:
    chunks = Passages(["It grew 12", "percent in 2023."])  # not from passages(): no final stop on the first
    chunks.sentences, chunks.sentence_sets, chunks.window = list(chunks), [frozenset(), frozenset()], 1
    assert chunks.numbers_near(0) == old_numbers("It grew 12 percent in 2023.") == {"12%", "2023"}


def test_a_name_is_found_by_its_acronym_when_not_as_written() -> None:
    source = "Flights. The BTS reported that delays fell in March across the network."
    found = assess("Delays fell in March, said the Bureau of Transportation Statistics.", source)
    missing = assess("Delays fell in March, said the Bureau of Labor Statistics.", source)
    assert found.missing_entities == () and missing.missing_entities == ("Bureau of Labor Statistics",)
