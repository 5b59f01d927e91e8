"""A claim against a record, field by field: which claimed fields the record contradicts.

Title: equal after folding (case, accents, punctuation, LaTeX, markup) within a rapidfuzz ratio of
`title_ratio` (0.90) to any title the record gives, with or without its subtitle, or a prefix of it
when the claim is cut short with "…"; and no content word swapped or inserted (`title_changes`: a
near-miss title changes one word and stays above any ratio; stop words, spelling variants, hyphens,
numbers written out, Greek letters spelled out and acronyms are not content changes, and a title
that differs from the record's only in those is the title whatever the ratio). Authors: each
claimed author's surname must be one of the record's (given names too: registries swap them for
some names); placeholder names never pass. Year: within `year_tolerance` (1) of any year the record
gives (print, online, issued, versions), and never after `this_year`.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from citecheck.scholarly.records import Author, Claim, Record
from citecheck.scholarly.text import fold, main_title

PLACEHOLDER_SURNAMES = frozenset({"doe", "roe", "author", "authors", "lastname", "surname", "placeholder", "anonymous",
                                  "nobody", "someone", "xxx", "tbd", "example", "name"})


def _ratio(a: str, b: str) -> float:
    """rapidfuzz's ratio (0-100), imported with the first comparison (an offline audit makes none)."""
    from rapidfuzz import fuzz

    return float(fuzz.ratio(a, b))


@dataclass(frozen=True)
class Mismatch:
    """One field the record contradicts: what the memo says and what the record says."""

    field: str  # title | authors | year
    claimed: str
    recorded: str
    why: str = ""


def compare(claim: Claim, record: Record, *, title_ratio: float = 0.90, year_tolerance: int = 1,
            this_year: int = 9999, placeholders: Iterable[str] = PLACEHOLDER_SURNAMES,
            fields: Iterable[str] = ("title", "authors", "year")) -> list[Mismatch]:
    """The claimed fields `record` contradicts (empty: consistent, or nothing claimed)."""
    wanted = set(fields)
    out: list[Mismatch] = []
    why = title_problem(claim.title, record, title_ratio) if "title" in wanted and claim.title else ""
    if why:
        out.append(Mismatch("title", claim.title, record.title, "" if why == "a different title" else why))
    if "authors" in wanted and claim.authors and record.authors:
        why = authors_problem(claim.authors, record.authors, frozenset(placeholders))
        if why:
            out.append(Mismatch("authors", "; ".join(claim.authors) + (" et al." if claim.et_al else ""),
                                "; ".join(a.display for a in record.authors[:8]) + ("; …" if len(record.authors) > 8 else ""),
                                why))
    if "year" in wanted and claim.year is not None:
        why = year_problem(claim.year, record, year_tolerance, this_year)
        if why:
            out.append(Mismatch("year", str(claim.year), str(record.year or ""), why))
    return out


def title_matches(claimed: str, record: Record, ratio: float) -> bool:
    """Whether the claimed title is one of the record's titles (see `title_problem`)."""
    return not title_problem(claimed, record, ratio)


def title_problem(claimed: str, record: Record, ratio: float) -> str:
    """Why the claimed title is not the record's ('' when it is).

    A title is the record's when, against one of the record's titles (with or without its subtitle;
    a venue the line ran into is not held against it), it is within the rapidfuzz `ratio` and changes
    no content word, or it differs only in ways writers vary a title (`title_changes` finds none and
    it drops no content word). A changed content word is a near-miss title ("Deep Residual Training"
    for "Deep Residual Learning"), whatever the ratio says."""
    want = fold(claimed)
    if not want:
        return ""
    candidates = [c for title in dict.fromkeys([record.title, *record.titles]) if title
                  for c in dict.fromkeys((fold(title), fold(main_title(title)))) if c]
    if not candidates:
        return ""
    venue = fold(record.venue)
    wants = [want, want[:-len(venue)].strip()] if venue and want.endswith(venue) and want != venue else [want]
    cut = claimed.rstrip().endswith(("…", "..."))
    if cut and any(len(w) >= 12 and c.startswith(w) for w in wants for c in candidates):
        return ""
    close = [(w, c) for w in wants for c in candidates if _ratio(w, c) >= ratio * 100]
    if not close:
        # short titles fall below any ratio on one stop word; only benign changes still make it the title
        if any(not changes and not dropped for w in wants for c in candidates
               for changes, dropped in [title_changes(w.split(), c.split())]):
            return ""
        return "a different title"
    best: list[str] | None = None
    for w, c in close:
        changes, _ = title_changes(w.split(), c.split())
        if not changes:
            return ""
        best = changes if best is None or len(changes) < len(best) else best
    words = best or []
    return f"{', '.join(repr(w) for w in words)} not in the record's title"


# number words, Greek letters and common abbreviations, and British spellings, each compared as one form
_NUMBER_WORDS = {w: str(n) for n, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"])}
_GREEK = {"α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta", "η": "eta",
          "θ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi",
          "ρ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "χ": "chi", "ψ": "psi",
          "ω": "omega", "ϵ": "epsilon", "ϑ": "theta", "ϕ": "phi"}
_ABBREVIATIONS = {"vs": "versus", "v": "versus", "usa": "us", "intl": "international", "natl": "national",
                  "dept": "department", "govt": "government", "st": "saint", "grey": "gray", "ageing": "aging",
                  "aluminium": "aluminum", "sulphur": "sulfur", "mould": "mold", "judgement": "judgment",
                  "acknowledgement": "acknowledgment", "artefact": "artifact", "artefacts": "artifacts", "tyre": "tire",
                  "programme": "program", "programmes": "programs", "1st": "first", "2nd": "second", "3rd": "third",
                  "i": "1", "ii": "2", "iii": "3", "iv": "4", "vi": "6", "vii": "7", "viii": "8", "ix": "9"}
_BRITISH = (("isation", "ization"), ("isations", "izations"), ("ising", "izing"), ("ised", "ized"), ("ises", "izes"),
            ("ise", "ize"), ("yse", "yze"), ("ysing", "yzing"), ("ysed", "yzed"), ("elling", "eling"),
            ("elled", "eled"), ("our", "or"), ("ours", "ors"), ("tre", "ter"), ("tres", "ters"), ("ogue", "og"),
            ("ogues", "ogs"), ("ence", "ense"))
_DIGRAPHS = (("haem", "hem"), ("paed", "ped"), ("anaes", "anes"), ("foet", "fet"), ("aemia", "emia"),
             ("oesoph", "esoph"), ("oestr", "estr"), ("aetiol", "etiol"), ("oedema", "edema"), ("diarrhoea", "diarrhea"))
# short words a writer changes in a title without citing another work (never counted as content)
TITLE_STOPWORDS = frozenset({
    "a", "an", "the", "of", "for", "in", "on", "at", "to", "and", "or", "by", "as", "is", "are", "be", "its", "it",
    "via", "per", "do", "we", "our", "vs", "versus", "v",
    "with", "from", "that", "this", "into", "over", "under", "using", "their", "about", "upon", "between", "through",
    "toward", "towards", "when", "what", "which", "where", "does", "have", "been", "there", "than", "then", "also",
    "some", "more", "most", "very", "these", "those", "within", "across", "among", "based"})


def _canon(word: str) -> str:
    """One spelling for the variants a title's word has: digits for number words, Greek letters
    spelled out, abbreviations expanded, British endings as American ones, ae/oe as e."""
    word = "".join(_GREEK.get(ch, ch) for ch in word)
    word = _NUMBER_WORDS.get(word, _ABBREVIATIONS.get(word, word))
    for uk, us in _BRITISH:
        if len(word) > len(uk) + 2 and word.endswith(uk):
            word = word[:-len(uk)] + us
            break
    for uk, us in _DIGRAPHS:
        if uk in word and len(word) > 4:
            word = word.replace(uk, us, 1)
            break
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"  # studies, study
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") and word.isalpha() else word


def _acronym(short: str, words: list[str]) -> bool:
    """Whether `short` (a folded word) is the acronym of `words` ('lstm' of 'long short term memory',
    'cnns' of 'convolutional neural networks')."""
    if len(short) < 2 or not short.isalpha() or len(words) < 2:
        return False
    forms = {short, short[:-1]} if short.endswith("s") and len(short) > 2 else {short}
    return bool(forms & {"".join(w[:1] for w in words), "".join(w[:1] for w in words if w not in TITLE_STOPWORDS)})


def title_changes(claimed: list[str], recorded: list[str]) -> tuple[list[str], int]:
    """The content words the claimed title (folded words) adds to or puts in place of the recorded
    one's, and how many content words of the record it drops.

    Not a change: stop words swapped, added or dropped; case, accents and punctuation (folded
    already); hyphens and spaces (`pre training`, `pretraining`); number words and digits; Greek
    letters and their names; British and American spelling; an acronym for the words it abbreviates;
    a word 85 % alike or more of the one it replaces (a plural, a typo)."""
    from difflib import SequenceMatcher

    a, b = [_canon(w) for w in claimed], [_canon(w) for w in recorded]
    changes: list[str] = []
    dropped = 0
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        mine, theirs = a[i1:i2], b[j1:j2]
        mine_c = [w for w in mine if w not in TITLE_STOPWORDS]
        theirs_c = [w for w in theirs if w not in TITLE_STOPWORDS]
        if "".join(mine) == "".join(theirs) or "".join(mine_c) == "".join(theirs_c) or \
                "".join(claimed[i1:i2]) == "".join(recorded[j1:j2]):
            continue  # hyphens and spaces, stop words
        if len(mine_c) == 1 and (_acronym(mine_c[0], theirs) or (  # an acronym after the words it abbreviates
                not theirs and any(_acronym(mine_c[0], b[k:j1]) for k in range(max(0, j1 - 8), j1 - 1)))):
            continue
        if len(theirs_c) == 1 and _acronym(theirs_c[0], mine):
            continue
        for word in mine_c:
            if word in theirs_c or (len(word) < 2 and not word.isdigit()):
                continue
            if len(word) >= 4 and any(len(t) >= 4 and _ratio(word, t) >= 85 for t in theirs_c):
                continue
            changes.append(claimed[i1 + mine.index(word)])
        dropped += sum(1 for t in theirs_c if t not in mine_c and not any(
            len(t) >= 4 and len(w) >= 4 and _ratio(w, t) >= 85 for w in mine_c))
    return changes, dropped


def surname(written: str) -> str:
    """The folded surname of an author as written: 'Smith, J.', 'J. Smith', 'Smith J', 'van der Berg, A.'."""
    text = written.strip()
    if "," in text:
        return _last_word(fold(text.split(",", 1)[0]))
    words = text.split()
    if len(words) >= 2 and re.fullmatch(r"[A-Z]{1,3}", words[-1]):  # Vancouver/PubMed: 'Smith JA'
        return _last_word(fold(" ".join(words[:-1])))
    return _last_word(fold(text))


def _last_word(folded: str) -> str:
    """The last word of a family name ('maaten' of 'van der maaten', 'le' of 'le')."""
    words = [w for w in folded.split() if len(w) > 1] or folded.split()
    return words[-1] if words else ""


def record_names(author: Author) -> set[str]:
    """The folded name words an author of the record may be cited by (family first, given too)."""
    names: set[str] = set()
    if author.family:
        names.update(fold(author.family).split())
        names.update(w for w in fold(author.given).split() if len(w) > 1)
    elif author.literal:
        literal = author.literal
        if "," in literal:
            names.update(fold(literal.split(",", 1)[0]).split())
            names.update(w for w in fold(literal.split(",", 1)[1]).split() if len(w) > 1)
        else:
            names.update(w for w in fold(literal).split() if len(w) > 1)
    return names


def _known(name: str, names: set[str]) -> bool:
    if name in names:
        return True
    return len(name) >= 5 and any(len(n) >= 5 and _ratio(name, n) >= 88 for n in names)


def authors_problem(claimed: Iterable[str], recorded: Iterable[Author], placeholders: frozenset[str]) -> str:
    """Why the claimed authors do not fit the record ('' when they do)."""
    names: set[str] = set()
    for author in recorded:
        names |= record_names(author)
    claimed = list(claimed)
    surnames = [surname(c) for c in claimed]
    for written, name in zip(claimed, surnames, strict=True):
        if name in placeholders and name not in names:
            return f"placeholder author name {written!r}"
    if surnames and surnames[0] and not _known(surnames[0], names):
        return f"first author {claimed[0]!r} is not an author of the record"
    absent = [c for c, s in zip(claimed, surnames, strict=True) if s and not _known(s, names)]
    if absent:
        return f"{', '.join(repr(a) for a in absent)} not among the record's authors"
    return ""


def year_problem(claimed: int, record: Record, tolerance: int, this_year: int) -> str:
    """Why the claimed year does not fit the record ('' when it does)."""
    if claimed > this_year:
        return f"{claimed} is in the future"
    years = set(record.years) | ({record.year} if record.year else set())
    if not years:
        return ""
    if min(abs(claimed - y) for y in years) > tolerance:
        return f"the record's year is {record.year or min(years)}"
    return ""
