#!/usr/bin/env python3
"""Scholarly references: catch rate per kind of fabrication and false-alarm rate per citation style.

Every real work of bench/scholarly_works.py is cited correctly in each style (APA, IEEE, Chicago,
Harvard, a Markdown title link, an author-year link, a footnote with `doi:`), with the variations
real writers make (sentence case, a dropped subtitle, accents left out, "et al.", a preprint's year
one off), and then cited wrongly in each kind of fabrication HALLMARK catalogues that an identifier
can carry: an identifier that does not exist, a real identifier with another work's title, a chimeric
or near-miss title, other or placeholder authors, a wrong or future year, and a retracted work. The
memos are audited online against the loopback registries of tests/registryfakes.py (nothing leaves
127.0.0.1), and each reference line's findings are compared with what it should get.

    python bench/scholarly_bench.py            # prints the tables bench/README.md quotes
    python bench/scholarly_bench.py --misses   # and every miss and false alarm
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "bench"), str(ROOT)]

from registryfakes import FakeRegistries, Work  # noqa: E402
from scholarly_works import WORKS, W  # noqa: E402

STYLES = ("apa", "ieee", "chicago", "harvard", "title-link", "author-year-link", "footnote")
PROSE = ("this paper", "a 2019 study", "the original paper", "recent work", "their follow-up", "here", "the preprint",
         "a widely cited analysis", "see the PDF", "as reported")
KINDS = {  # kind → (rule expected, styles that claim the perturbed field)
    "fabricated-doi": ("R001", STYLES),
    "fabricated-arxiv": ("R001", STYLES),
    "wrong-title": ("R002", ("apa", "ieee", "chicago", "harvard", "title-link", "footnote")),
    "chimeric-title": ("R002", ("apa", "ieee", "chicago", "harvard", "title-link", "footnote")),
    "near-miss-title": ("R002", ("apa", "ieee", "chicago", "harvard", "title-link", "footnote")),
    "wrong-authors": ("R002", ("apa", "ieee", "chicago", "harvard", "author-year-link", "footnote")),
    "placeholder-authors": ("R002", ("apa", "ieee", "chicago", "harvard", "author-year-link", "footnote")),
    "wrong-first-author": ("R002", ("apa", "ieee", "chicago", "harvard", "author-year-link", "footnote")),
    "wrong-year": ("R002", ("apa", "ieee", "chicago", "harvard", "author-year-link", "footnote")),
    "future-year": ("R002", ("apa", "ieee", "chicago", "harvard", "author-year-link", "footnote")),
    "retracted": ("R004", STYLES),
}
NEAR_MISS = {"Learning": "Training", "Networks": "Models", "Deep": "Large", "Language": "Vision", "Neural": "Sparse",
             "Image": "Video", "Recognition": "Detection", "Models": "Agents", "learning": "training",
             "networks": "models", "deep": "shallow", "the": "a", "of": "for", "with": "without"}


def initials(given: str) -> str:
    return " ".join(f"{part[0]}." for part in given.replace("-", " ").split() if part) if given else ""


def apa_name(given: str, family: str) -> str:
    return f"{family}, {initials(given)}" if given else family


def sentence_case(title: str) -> str:
    words = title.split()
    return " ".join([words[0], *[w if (w.isupper() or any(c.isupper() for c in w[1:])) else w.lower() for w in words[1:]]])


def strip_accents(text: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def ident_of(work: W, rng: random.Random) -> tuple[str, str]:
    """(URL, text form) of the work's identifier."""
    if work.doi:
        return f"https://doi.org/{work.doi}", f"doi:{work.doi}"
    if work.arxiv:
        return f"https://arxiv.org/abs/{work.arxiv}", f"arXiv:{work.arxiv}"
    return f"https://pubmed.ncbi.nlm.nih.gov/{work.pmid}/", f"PMID: {work.pmid}"


def cite(style: str, n: int, title: str, authors: list[tuple[str, str]], year: int, venue: str, url: str, text_id: str,
         rng: random.Random) -> str:
    """One reference line in `style`."""
    many = len(authors) > 6
    if style == "apa":
        names = [apa_name(g, f) for g, f in authors]
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", & " + names[-1]
        where = url if rng.random() < 0.7 else text_id
        return f"{n}. {who} ({year}). {title}. *{venue}*. {where}"
    if style == "ieee":
        names = [f"{initials(g)} {f}".strip() for g, f in authors]
        who = f"{names[0]} et al." if many else (names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", and " + names[-1])
        return f"[{n}] {who}, \"{title},\" *{venue}*, {year}, doi: {text_id.split(':', 1)[1].strip()}." if text_id.startswith("doi") \
            else f"[{n}] {who}, \"{title},\" *{venue}*, {year}. [Online]. Available: {url}"
    if style == "chicago":
        first = f"{authors[0][1]}, {authors[0][0]}".strip(", ")
        rest = [f"{g} {f}".strip() for g, f in authors[1:]]
        who = first if not rest else (f"{first}, et al" if many else ", ".join([first, *rest[:-1]]) + ", and " + rest[-1])
        return f"{n}. {who}. \"{title}.\" *{venue}* ({year}). {url}."
    if style == "harvard":
        names = [apa_name(g, f) for g, f in authors]
        who = names[0] + " et al." if len(names) > 3 else (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])
        return f"- {who} ({year}) {title}. {venue}. Available at: {url}"
    if style == "title-link":
        return f"{n}. As shown in [{title}]({url}), the effect holds."
    if style == "author-year-link":
        fam = [f for _, f in authors]
        who = fam[0] if len(fam) == 1 else (f"{fam[0]} & {fam[1]}" if len(fam) == 2 else f"{fam[0]} et al.")
        return f"{n}. The effect holds ([{who}, {year}]({url}))."
    names = [apa_name(g, f) for g, f in authors]
    who = names[0] + " et al." if len(names) > 2 else " & ".join(names)
    return f"[^{n}]: {who} ({year}). {title}. {venue}. {text_id}"


def variant(work: W, rng: random.Random) -> tuple[str, list[tuple[str, str]], int]:
    """A correct citation as writers make it: case, subtitle, accents, the year a preprint has."""
    title, authors, year = work.title, list(work.authors), work.year
    roll = rng.random()
    if roll < 0.25:
        title = sentence_case(title)
    elif roll < 0.4 and ": " in title:
        title = title.split(": ", 1)[0]
    if rng.random() < 0.2:
        authors = [(strip_accents(g), strip_accents(f)) for g, f in authors]
    if rng.random() < 0.15:
        year += rng.choice((-1, 1))
    return title, authors, year


def perturb(kind: str, work: W, other: W, rng: random.Random) -> tuple[str, list[tuple[str, str]], int, str, str]:
    """(title, authors, year, url, text id) of a wrong citation of `work`."""
    url, text_id = ident_of(work, rng)
    title, authors, year = work.title, list(work.authors), work.year
    if kind == "fabricated-doi":
        doi = f"10.{rng.randint(1000, 9999)}/{rng.choice(['j', 's', 'nature'])}.{rng.randint(2015, 2024)}.{rng.randint(10000, 99999)}"
        url, text_id = f"https://doi.org/{doi}", f"doi:{doi}"
    elif kind == "fabricated-arxiv":
        ident = f"{rng.randint(18, 24)}{rng.randint(1, 12):02d}.{rng.randint(90000, 99999)}"
        url, text_id = f"https://arxiv.org/abs/{ident}", f"arXiv:{ident}"
    elif kind == "wrong-title":
        title = other.title
    elif kind == "chimeric-title":
        mine, theirs = title.split(), other.title.split()
        title = " ".join(mine[:max(2, len(mine) // 2)] + theirs[len(theirs) // 2:])
    elif kind == "near-miss-title":
        words = title.split()
        spots = [i for i, w in enumerate(words) if w.strip(":,") in NEAR_MISS]
        if spots:
            i = rng.choice(spots)
            words[i] = words[i].replace(words[i].strip(":,"), NEAR_MISS[words[i].strip(":,")])
        else:
            words.insert(len(words) // 2, "Scalable")
        title = " ".join(words)
    elif kind == "wrong-authors":
        authors = list(other.authors)
    elif kind == "placeholder-authors":
        authors = [("John", "Doe"), ("Jane", "Smith")]
    elif kind == "wrong-first-author":
        authors = [other.authors[0], *authors[1:]]
    elif kind == "wrong-year":
        year += rng.choice((-5, -4, -3, 3, 4))
    elif kind == "future-year":
        year = 2031
    return title, authors, year, url, text_id


def build(rng: random.Random) -> tuple[dict[str, str], dict[tuple[str, int], tuple[str, str, str]]]:
    """Memo texts by file name, and (file, line) → (kind, style, expected rule) for every reference."""
    memos: dict[str, str] = {}
    expected: dict[tuple[str, int], tuple[str, str, str]] = {}
    clean = [w for w in WORKS if not w.retracted]
    for style in STYLES:
        lines = ["# References", ""]
        for n, work in enumerate(clean, start=1):
            url, text_id = ident_of(work, rng)
            title, authors, year = variant(work, rng)
            lines += [cite(style, n, title, authors, year, work.venue, url, text_id, rng), ""]
            expected[(f"correct-{style}.md", len(lines) - 1)] = ("correct", style, "")
        memos[f"correct-{style}.md"] = "\n".join(lines)
    # running prose (no reference list): descriptive link texts and sentence-case titles claim nothing
    lines = ["# Discussion", ""]
    for work in clean:
        url, _ = ident_of(work, rng)
        text = rng.choice([*PROSE, sentence_case(work.title).lower()])
        lines += [f"The effect was large, as [{text}]({url}) shows for {rng.choice(['2019', 'the US', 'most cases'])}.", ""]
        expected[("correct-prose.md", len(lines) - 1)] = ("correct", "prose", "")
    memos["correct-prose.md"] = "\n".join(lines)
    for kind, (rule, styles) in KINDS.items():
        lines, n = ["# References", ""], 0
        pool = [w for w in WORKS if w.retracted] if kind == "retracted" else clean
        for style in styles:
            for work in pool:
                if kind == "wrong-first-author" and len(work.authors) < 2:
                    continue
                mine = {f for _, f in work.authors}
                other = rng.choice([w for w in clean if w is not work and w.title.split()[:2] != work.title.split()[:2]
                                    and not mine & {f for _, f in w.authors}])
                n += 1
                if kind == "retracted":
                    title, authors, year = variant(work, rng)
                    url, text_id = ident_of(work, rng)
                else:
                    title, authors, year, url, text_id = perturb(kind, work, other, rng)
                lines += [cite(style, n, title, authors, year, work.venue, url, text_id, rng), ""]
                expected[(f"{kind}.md", len(lines) - 1)] = (kind, style, rule)
        memos[f"{kind}.md"] = "\n".join(lines)
    return memos, expected


def registry_works() -> list[Work]:
    out = []
    for w in WORKS:
        agency = "datacite" if w.doi.lower().startswith("10.48550/") else "crossref"
        out.append(Work(title=w.title, authors=list(w.authors), year=w.year, venue=w.venue, retracted=w.retracted,
                        doi=w.doi, arxiv=w.arxiv, pmid=w.pmid, agency=agency))
    return out


def run(seed: int, misses: bool) -> dict[str, Any]:
    from hostile_net import ServerThread

    from citecheck import audit
    from citecheck.config import build as build_config

    rng = random.Random(seed)
    memos, expected = build(rng)
    fake = FakeRegistries(registry_works())
    with ServerThread(fake.app()) as thread, tempfile.TemporaryDirectory() as tmp:
        fake.base = f"http://127.0.0.1:{thread.port}"
        for name, text in memos.items():
            (Path(tmp) / name).write_text(text, encoding="utf-8")
        pace = {name: [0.0, 4] for name in ("doi", "crossref", "crossref-polite", "datacite", "arxiv", "pubmed")}
        config = build_config({"fetch": {"allow": [f"127.0.0.1:{thread.port}"], "no-cache": True, "retries": 0},
                               "scholarly": {"endpoints": fake.endpoints(), "pace": pace},
                               "rules": {"R002": {"options": {"today": "2026-12-01"}}}})
        report = audit([str(Path(tmp) / name) for name in memos], config, online=True)
        found: dict[tuple[str, int], set[str]] = defaultdict(set)
        messages: dict[tuple[str, int], list[str]] = defaultdict(list)
        for f in report.findings:
            if f.rule.startswith("R"):
                found[(Path(f.path).name, f.line)].add(f.rule)
                messages[(Path(f.path).name, f.line)].append(f"{f.rule} {f.message} | {f.evidence}")
        text = {name: memo.splitlines() for name, memo in memos.items()}
    caught: Counter[str] = Counter()
    total: Counter[str] = Counter()
    alarms: Counter[str] = Counter()
    correct: Counter[str] = Counter()
    for (name, line), (kind, style, rule) in expected.items():
        got = found.get((name, line), set())
        if kind == "correct":
            correct[style] += 1
            if got:
                alarms[style] += 1
                if misses:
                    print(f"FALSE ALARM {style}: {text[name][line - 1]}\n    {messages[(name, line)]}")
            continue
        total[kind] += 1
        if rule in got:
            caught[kind] += 1
        elif misses:
            print(f"MISS {kind}/{style}: {text[name][line - 1]}\n    {messages.get((name, line))}")
    return {"caught": caught, "total": total, "alarms": alarms, "correct": correct, "requests": len(fake.log)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="27,28,29", help="comma-separated seeds; the tables add them up")
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    result: dict[str, Any] = {"caught": Counter(), "total": Counter(), "alarms": Counter(), "correct": Counter(),
                              "requests": 0}
    for seed in (int(x) for x in args.seeds.split(",")):
        one = run(seed, args.misses)
        for key in result:
            result[key] += one[key]
    print(f"works: {len(WORKS)}; seeds: {args.seeds}; registry requests: {result['requests']}\n")
    print("| kind | references | caught | rate |\n| --- | --- | --- | --- |")
    for kind in KINDS:
        n, c = result["total"][kind], result["caught"][kind]
        print(f"| {kind} ({KINDS[kind][0]}) | {n} | {c} | {100 * c / n:.1f} % |")
    print("\n| style | correct references | false alarms | rate |\n| --- | --- | --- | --- |")
    for style in (*STYLES, "prose"):
        n, a = result["correct"][style], result["alarms"][style]
        print(f"| {style} | {n} | {a} | {100 * a / n:.1f} % |")


if __name__ == "__main__":
    main()
