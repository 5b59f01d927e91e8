"""What a memo claims about a cited work, read from the link text and the reference line around the
identifier: title, authors (as written, with "et al."), year.

Heuristics, in order (docs/scholarly.md lists them with their limits):
- link text `Author et al., 2022` / `Author and Author (2022)` → authors and year;
- a quoted title (“…” or "…": IEEE, Chicago, MLA) → title; authors before it, year in brackets or after;
- `Authors (Year). Title.` / `Authors (Year) Title.` / `Authors. Year. Title.` (APA, Harvard, Chicago
  author-date) → authors, year, and the sentence after the year as title (an italic one when it opens);
- an author list in front, without a year after it: Vancouver/ICMJE/NLM and AMA (`Doe J, Roe RA, et
  al. Title. J Abbrev. 2020;12(3):45-67.`), Nature (`Doe, J., Roe, R. A. & Lee, K. Title. Nature 575,
  1–5 (2019).`, `Doe, J. et al. Title.`), Springer LNCS (`Doe, J., Roe, R.: Title. In: Venue, pp. 1–5
  (2019)`) → authors, the sentence after them as title, the next one as venue, the last year;
- link text that reads as a title (Title Case, or four or more words that do not start like a
  description: "the original paper") → title.
A field the memo does not state is left empty and never compared.
"""
from __future__ import annotations

import re

from citecheck.scholarly.records import Claim
from citecheck.scholarly.text import plain

YEAR = r"(?:1[6-9]\d{2}|20\d{2})"
_AUTHOR_YEAR = re.compile(
    rf"^(?P<who>[^\W\d][\w'’.\- ]*?(?:\s+et\s+al\.?|\s+(?:and|&)\s+[^\W\d][\w'’\-]+)?)[,;\s]*\(?(?P<year>{YEAR})[a-z]?\)?$")
# a quoted title ends at a closing quote followed by a space, the end, or `,;.` (an inner quote such as
# `"The Market for "Lemons": …"` is followed by a letter or a colon and does not end it)
_QUOTED = re.compile(r"(?:^|(?<=[\s(]))[“\"](?P<title>.{2,400}?)[,.]?[”\"](?=\s|$|[,;.])")
_YEAR_LEAD = re.compile(
    rf"^(?P<who>.{{2,400}}?)[\s.,]*\(\s*(?P<year>{YEAR})[a-z]?(?:,[^)]*)?\)[.,:]?\s+(?P<rest>.+)$"
    rf"|^(?P<who2>.{{2,400}}?)[.,]\s+(?P<year2>{YEAR})[a-z]?[.,]\s+(?P<rest2>.+)$")
_ITALIC = re.compile(r"^(?:\*{1,2}|_{1,2})(?P<title>[^*_]{4,400}?)(?:\*{1,2}|_{1,2})")
_ET_AL = re.compile(r",?\s*\b(?:et\s+al\.?|and\s+others|et\s+alii)", re.IGNORECASE)
_SPLIT = re.compile(r"\s*;\s*|\s*,?\s*&\s*|\s*,?\s+and\s+|\s*,?\s+und\s+|\s*,?\s+y\s+")

# Vancouver/AMA: `van der Maaten L`, `García-Pérez MA` (family name, then one to three capital initials)
_PARTICLES = frozenset({"van", "von", "de", "der", "den", "da", "di", "del", "della", "la", "le", "du", "dos", "das",
                        "ter", "ten", "al", "el", "bin", "ibn", "y", "zu", "af"})
_NAME = r"[^\W\d_][\w'’\-]*(?:\s+[^\W\d_][\w'’\-]*){0,3}?"
_VANCOUVER = re.compile(rf"(?P<name>{_NAME})\s+(?P<ini>[A-Z]{{1,3}})(?=[,.]|\s+et\s+al\b)")
# Nature/LNCS: `Maaten, L. van der` is rare; `Doe, J.`, `Roe, R. A.`, `Pouget-Abadie, J.-B.`, `Kaiser, Ł.`
_NATURE = re.compile(rf"(?P<name>{_NAME}),\s+(?P<ini>[A-ZÀ-ÞŁ][a-z]?\.(?:\s?-?\s?[A-ZÀ-ÞŁ][a-z]?\.)*)")
# a group author alone: `Open Science Collaboration.`, `ATLAS Collaboration:`, `World Health Organization.`
_GROUP = re.compile(r"(?P<name>(?:[A-Z0-9][\w&'’\-]*\s+(?:(?:of|for|on|and|the)\s+)?){0,6}(?:Collaboration|Consortium|"
                    r"Collaborators|Group|Committee|Organi[sz]ation|Association|Society|Institute|Council|Agency|Team|"
                    r"Project|Network|Initiative|Investigators|Task Force|Panel|Commission|Foundation|Alliance|Board)s?)"
                    r"(?=[.,:&]|\s+et\s+al\b|\s+&)")
_PAGES = re.compile(r"^(?:pp?\.|vol\.|no\.|\d[\d\s:–—\-]*$)", re.IGNORECASE)
_AUTHOR_SEP = re.compile(r",?\s+(?:&|and)\s+|,\s+")
_ET_AL_END = re.compile(r",?\s+et\s+al\.?")
# a bracketed note after a title: NLM's `[Internet]` and `[cited 2021 Jan 5]`, APA's `[Data set]`, `[Preprint]`,
# `[Doctoral dissertation, …]`, a translated title; never part of the work's title (or its year)
_BRACKETED = re.compile(r"\s*\[(?![\^@])[^\[\]]{1,80}\](?!\()")
_IDENTIFIER_TEXT = re.compile(r"\b10\.\d{4,9}/|\barxiv:|\bpmid\b|\bdoi\b|\bisbn\b", re.IGNORECASE)
_DESCRIPTIVE = frozenset({"the", "this", "that", "these", "those", "our", "their", "his", "her", "its", "see",
                          "here", "recent", "original", "paper", "study", "article", "preprint", "link", "source",
                          "doi", "pdf", "full", "text", "via", "from", "in", "on", "at", "as"})
_GENERIC_END = frozenset({"paper", "study", "article", "preprint", "report", "work", "analysis", "review", "here",
                          "link", "pdf", "doi", "source", "abstract", "version", "page"})


def link_claim(text: str, title_like_only: bool = True) -> Claim:
    """The claim a link text makes: authors and year, a title, or nothing."""
    text = plain(text.strip()).strip(" .,;")
    if not text or "://" in text or _IDENTIFIER_TEXT.search(text):
        return Claim(source=text)  # a link text naming the identifier or a URL (a badge) claims nothing about the work
    found = _AUTHOR_YEAR.match(text)
    if found and len(found.group("who").split()) <= 6 and all(  # names are capitalised: not 'Global cancer statistics 2018'
            w[:1].isupper() or w.lower().strip(".") in _PARTICLES | {"et", "al", "and", "&"}
            for w in found.group("who").split()):
        authors, et_al = split_authors(found.group("who"))
        return Claim(authors=tuple(authors), et_al=et_al, year=int(found.group("year")), source=text)
    if looks_like_title(text, strict=title_like_only):
        return Claim(title=text, source=text)
    return Claim(source=text)


def looks_like_title(text: str, strict: bool = True) -> bool:
    """Whether link text reads as a work's title rather than a description of it.

    In prose (`strict`): three or more words in Title Case, not a short description ending in a
    generic noun ("the Original Paper"). In a reference line any text of two or more words is a
    title, unless it is a short description ("the original paper", "full text", "PDF version")."""
    words = text.split()
    if len(words) < 2 or len(text) > 400:
        return False
    first, last = words[0].lower(), words[-1].lower().strip(".,")
    if len(words) <= 4 and (last in _GENERIC_END or all(w.lower().strip(".,") in _DESCRIPTIVE | _GENERIC_END
                                                        for w in words)):
        return False
    if not strict:
        return len(words) >= 3 or first not in _DESCRIPTIVE
    long_words = [w for w in words if len(w) >= 4 and w[0].isalpha()]
    capitalised = sum(1 for w in long_words if w[0].isupper())
    return len(words) >= 3 and bool(long_words) and capitalised / len(long_words) >= 0.6 and first not in ("see", "here")


def reference_claim(text: str) -> Claim:
    """The claim a reference line makes (identifiers and URLs already taken out)."""
    text = _clean(text)
    quoted = _QUOTED.search(text)
    lead = _YEAR_LEAD.match(text)
    if lead and _name_like(lead.group("who") or lead.group("who2")) and (
            quoted is None or (lead.start("year") if lead.group("year") else lead.start("year2")) < quoted.start()):
        quoted = None  # APA/Harvard: the year comes first; a quoted phrase is part of the title
    head = None if lead and _name_like(lead.group("who") or lead.group("who2")) else _author_head(text)
    if head is not None and (quoted is None or quoted.start() > head[2]):
        authors, et_al, start = head
        rest = text[start:].lstrip()
        title = _sentence(rest)
        after = rest[len(title):].lstrip(" .?*_")
        if len(title.split()) >= 2:
            return Claim(title=title, authors=tuple(authors), et_al=et_al, year=_last_year(after), source=text,
                         venue=_venue(after))
    if quoted:
        before, after = text[:quoted.start()], text[quoted.end():]
        year = _year_in(before) or _last_year(after)
        who = re.sub(rf"[\s.,]*\(?{YEAR}[a-z]?\)?[\s.,]*$", "", before).strip(" .,:")
        authors, et_al = split_authors(who) if _name_like(who) else ([], False)
        return Claim(title=quoted.group("title").strip(" ,."), authors=tuple(authors), et_al=et_al,
                     year=year, source=text)
    if lead:
        who = lead.group("who") or lead.group("who2")
        year = int(lead.group("year") or lead.group("year2"))
        rest = lead.group("rest") or lead.group("rest2")
        authors, et_al = split_authors(who) if _name_like(who) else ([], False)
        quoted = _QUOTED.match(rest)  # Chicago author-date: Authors. Year. "Title." Journal.
        title = quoted.group("title").strip(" ,.") if quoted else _sentence(rest)
        if _PAGES.match(title):  # Science: `K. He, X. Zhang, in Proc. CVPR (2016), pp. 770–778.` names no title
            title = ""
        return Claim(title=title, authors=tuple(authors), et_al=et_al, year=year, source=text)
    return Claim(year=_last_year(text), source=text)


def _author_head(text: str) -> tuple[list[str], bool, int] | None:
    """The author list that opens a Vancouver/AMA, Nature or LNCS line: (authors, et al., where the
    title starts), or None when the line does not open with one.

    Every name must be a family name (capitalised; lower-case particles allowed) followed by its
    initials, the list must end in a full stop (Vancouver), the last initial's full stop (Nature) or a
    colon (LNCS), and a separator must be followed by another author: a line that merely starts
    with a capitalised phrase is not read as authors."""
    for pattern in (_VANCOUVER, _NATURE):
        authors: list[str] = []
        pos = 0
        while True:
            found = pattern.match(text, pos)
            if found is not None and _family_like(found.group("name")):
                authors.append(f"{found.group('name')} {found.group('ini')}" if pattern is _VANCOUVER
                               else f"{found.group('name')}, {found.group('ini')}")
            elif (found := _GROUP.match(text, pos)) is not None:  # `ATLAS Collaboration`, alone or first
                authors.append(found.group("name"))
            else:
                break
            pos = found.end()
            et_al = _ET_AL_END.match(text, pos)
            if et_al:
                tail = re.match(r"\.?\s*:?\s+", text[et_al.end():])
                return (authors, True, et_al.end() + tail.end()) if tail else None
            sep = _AUTHOR_SEP.match(text, pos)
            after = pattern.match(text, sep.end()) if sep else None
            if sep and ((after and _family_like(after.group("name"))) or _GROUP.match(text, sep.end())):
                pos = sep.end()
                continue
            group = not found.groupdict().get("ini")
            tail = re.match(r"\.\s+|\s*:\s+" if group else r"\.\s+" if pattern is _VANCOUVER else r"\s*:\s+|\s+",
                            text[pos:])
            start = pos + tail.end() if tail else -1
            opener = text[start:start + 1] if tail else ""
            if opener and (opener.isupper() or opener.isdigit() or opener in "\"“*_'‘[$" or _lower_term(text[start:])):
                return authors, False, start
            break
    return None


def _lower_term(rest: str) -> bool:
    """A title may open in lower case with a term: `mRNA vaccines…`, `p53 mutations…`, `α-synuclein…`
    (a capital or digit inside its first word, or a Greek letter), never with a plain word (`argued…`)."""
    first = rest.split(" ", 1)[0]
    return "\u03b1" <= first[:1] <= "\u03c9" or any(c.isupper() or c.isdigit() for c in first[1:])


def _family_like(name: str) -> bool:
    """A family name as written in an author list: one to four words, the last capitalised, the
    others capitalised or particles (`van der`)."""
    words = name.split()
    return (0 < len(words) <= 4 and words[-1][:1].isupper()
            and all(w[:1].isupper() or w.lower() in _PARTICLES for w in words)
            and not any(w.lower() in ("et", "al", "and", "in") for w in words))


def _venue(after: str) -> str:
    """The venue that follows a title: up to its volume, pages or year (`J Abbrev. 2020;12(3)`,
    `Nature 575, 1–5 (2019)`, `In: Proc. CVPR, pp. 1–5 (2016)`)."""
    after = re.sub(r"^(?:in:?\s+)", "", after.strip(" .*_"), flags=re.IGNORECASE)
    cut = re.split(rf"[.;,]?\s*(?:\(?\b{YEAR}\b|\d+\s*[(:,;–-]|\d+$|vol\.|pp?\.\s)", after, maxsplit=1)[0]
    return cut.strip(" .,;*_")[:200]


def _clean(text: str) -> str:
    text = re.sub(r"^\s*(?:[-*+]\s+|\d{1,3}[.)]\s+|\[\^?[\w\-]+\]:?\s*|\(\d{1,3}\)\s+)", "", text)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a Markdown link reads as its text
    text = re.sub(r"<[^>]{1,200}>", " ", text)
    text = _BRACKETED.sub("", text)
    return " ".join(plain(text).split()) if "\\" in text or "$" in text else " ".join(text.split())


def _sentence(rest: str) -> str:
    """The title that opens `rest`: an italic span, else the text up to the first full stop."""
    italic = _ITALIC.match(rest)
    if italic:
        return italic.group("title").strip(" .")
    # the first full stop that ends a word of two or more letters (not an initial such as 'U.S.')
    found = re.match(r"(.{2,400}?(?:[^\s.]{2}|[0-9\])\"”?!]))(?:\.+\s|\.+$|$|\?\s)", rest)
    title = (found.group(1) if found else rest).strip(" .*_")
    if rest[len(title):len(title) + 1] == "?":
        title += "?"
    return title


def _year_in(text: str) -> int | None:
    found = re.search(rf"\(({YEAR})[a-z]?\)", text) or re.search(rf"\b({YEAR})[a-z]?\b", text)
    return int(found.group(1)) if found else None


def _last_year(text: str) -> int | None:
    """The last year in `text` that is not part of a page range or a page number (`pp. 1627–1636`)."""
    found = re.findall(rf"(?<![\d.\-/–—])(?<!pp\. )(?<!p\. )({YEAR})[a-z]?(?![\d/\-–—])", text)
    return int(found[-1]) if found else None


def _name_like(who: str) -> bool:
    """Whether a text before the year could be a list of names (not a sentence of prose)."""
    words = who.split()
    if not words or len(words) > 60 or len(who) > 500:
        return False
    caps = sum(1 for w in words if w[:1].isupper() or w.lower() in ("et", "al.", "and", "&", "van", "von", "de", "der",
                                                                    "da", "di", "del", "la", "le", "du"))
    return caps / len(words) >= 0.7


def split_authors(who: str) -> tuple[list[str], bool]:
    """The authors of a written author list, and whether it ends in "et al.".

    `Smith, J., Doe, A., & Lee, B.` (APA), `J. Smith, A. Doe, and B. Lee` (IEEE), `Smith, John, and
    Jane Doe` (Chicago), `Smith J, Doe A` (Vancouver) all give one entry per person."""
    et_al = bool(_ET_AL.search(who))
    who = _ET_AL.sub("", who).strip(" .,;")
    pieces: list[str] = []
    for number, segment in enumerate(_SPLIT.split(who)):
        for place, piece in enumerate(segment.split(",")):
            piece = piece.strip(" .")
            if not piece:
                continue
            head = number == 0 and place == 1  # `Smith, John` opens a Chicago list, within its first segment
            if pieces and (is_initials(piece) or (head and _given_after_family(pieces, piece))):
                pieces[-1] = f"{pieces[-1]}, {piece}"
            else:
                pieces.append(piece)
    return [p for p in pieces if any(c.isalpha() for c in p)], et_al


def is_initials(piece: str) -> bool:
    """'J.', 'J. K.', 'A.-M.', 'Ł.', 'JK': given names written as initials."""
    parts = [p for p in re.split(r"[\s.\-]+", piece) if p]
    dotted = "." in piece
    return 0 < len(parts) <= 4 and all(
        p.isalpha() and p[0].isupper() and (len(p) == 1 or (len(p) == 2 and (p.isupper() or dotted))) for p in parts)


def _given_after_family(pieces: list[str], piece: str) -> bool:
    """`Smith, John` / `Ioannidis, John P. A.` at the head of a Chicago list: a family name of one to
    three words, then given names (one or two, initials after them), joined once."""
    words = piece.split()
    given = [w for w in words if not is_initials(w)]
    family = pieces[0].split() if len(pieces) == 1 else []
    return (bool(family) and "," not in pieces[0] and len(family) <= 3 and not any(is_initials(w) for w in family)
            and bool(words) and not is_initials(words[0]) and 1 <= len(given) <= 2
            and all(w[:1].isupper() for w in words))
