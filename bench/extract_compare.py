"""Main-text extraction for the harvest corpus: trafilatura vs resiliparse, measured.

For each saved real article page (../shared/realworld/pages/article/*.html) a careful reader
picked phrases from the article body (`body`: must be kept) and from the page chrome around it
(`chrome`: navigation, cookie banners, comment forms, ad labels: must be dropped). Each
extractor is scored on body recall (body phrases found), chrome leak (chrome phrases found) and
CPU time per page (median of --repeat runs after one warm-up pass; CPU rather than wall time so a
busy machine does not distort it). The visible-text sample that
`citecheck.fetch.parse` already computes is the baseline: what a corpus would hold with no
extractor at all.

    python bench/extract_compare.py [--pages DIR] [--repeat 3] [--json OUT]
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PAGES = ROOT.parent / "shared" / "realworld" / "pages" / "article"

# file stem -> (body phrases, chrome phrases). The photobucket page is an image page with no
# text body; it is timed but not scored.
GOLD: dict[str, tuple[list[str], list[str]]] = {
    "embed__codepen.io__2020-09-23": (["It is the only way."], ["Pen Settings", "JavaScript preprocessors can help"]),
    "embed__en.wikipedia.org__2024-06-10": (["German-born theoretical physicist", "Einstein moved to Switzerland"],
                                            ["Jump to content", "Hidden categories"]),
    "embed__snipplr.com__2021-04-04": (["This is a basic HTML5 starter template"],
                                       ["Subscribe to comments", "Report this snippet"]),
    "embed__www.aol.com__2020-09-23": (["Holly Brookhouser has been fostering animals"],
                                       ["you can quickly save videos", "Save videos for later"]),
    "embed__www.hookem.com__2020-09-23": (["admitted to UTPD", "First pitch is scheduled"],
                                          ["Stephen Spillman / for American-Statesman"]),
    "embed__www.meetup.com__2021-04-04": (["Flutter es un SDK en lenguaje Dart", "arquitectura CLEAN"], ["Grupo público"]),
    "embed__www.reddit.com__2024-06-10": (["will come to a bad ending"],
                                          ["Reddit and its partners use cookies", "New comments cannot be posted"]),
    "embed__www.wired.com__2023-06-27": (["standard-bearer for action cameras"], ["Skip To: Start of Article", "View comments"]),
    "fundus__Reuters_2024_03_07": (["An Israeli tank crew killed a Reuters reporter", "Editing by Daniel Flynn"],
                                   ["Purchase Licensing Rights"]),
    "htmldate__eval__bka.de-messengerdienste": (["Der Messengerdienst Telegram entwickelt sich", "schweren Straftaten"],
                                                ["Springe direkt zu"]),
    "htmldate__eval__d43f330cbaf74e92b9aec85e937cb904": (["hat jemand eine idee was ich anders machen"],
                                                         ["Sie müssen sich einloggen"]),
    "htmldate__github.com": (["This library finds the creation date of web pages", "Pull requests are welcome"],
                             ["Skip to content", "perform that action at this time", "Launching GitHub Desktop"]),
    "postlight__www.nytimes.com": (["tracked down on Monday morning", "had legal representation"], ["Supported by"]),
    "trafilatura__archive.org.nesselsetzer.wordpress.com.antipoden": (["erstaunliche Betrachtungsweise",
                                                                       "weiter bei gnaddrig ad libitum"],
                                                                      ["About these ads"]),
    "trafilatura__franceculture.fr.idees": (["Serions-nous entrés dans", "coordonné par Anne Dujin"], ["LE DIRECT"]),
    "trafilatura__heise.de.lithium": (["Die Duesenfeld GmbH aus Wendeburg", "Nur die Separatorfolie"],
                                      ["In Pocket speichern", "Druckansicht"]),
    "trafilatura__nature.com.telescope": (["largest single-dish radio observatory", "A successful review will definitely"],
                                          ["Search for this author in", "An essential round-up of science news"]),
    "trafilatura__reuters.com.parasite": (["was the upset winner at the Screen Actors Guild", "Additional reporting by Steve"],
                                          ["for-phone-only"]),
    "trafilatura__stackoverflow.com.rust": (["most loved language for four years", "your next most-loved language"],
                                            ["Leave a Reply", "Akismet"]),
    "trafilatura__t3n.de-Laufzeit": (["Apple will sich von seinen Zulieferern", "unabhängig voneinander stattfinden"],
                                     ["Artikel merken", "Jetzt registrieren und merken"]),
    "trafilatura__thelocal.se.tattooed": (["hard pressed to find one of a state epidemiologist", "take responsibility"],
                                          ["Please log in", "Please keep comments civil"]),
}

_WS = re.compile(r"\s+")


def norm(text: str) -> str:
    return _WS.sub(" ", text.replace("\u00ad", "").replace("’", "'")).strip().lower()


def extractors() -> dict[str, Callable[[str], str]]:
    import trafilatura
    from lxml import html as lxml_html
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    from citecheck.fetch.parse import visible_text

    return {
        "baseline (visible text)": lambda h: visible_text(lxml_html.document_fromstring(h), 10**7),
        "trafilatura": lambda h: trafilatura.extract(h, include_comments=False) or "",
        "trafilatura fast": lambda h: trafilatura.extract(h, include_comments=False, fast=True) or "",
        "resiliparse": lambda h: extract_plain_text(HTMLTree.parse(h), main_content=True, alt_texts=False,
                                                    form_fields=False, noscript=False) or "",
    }


def _all_text(html: str) -> str:
    from lxml import html as lxml_html

    root = lxml_html.document_fromstring(html)
    for el in root.xpath("//script|//style"):
        el.drop_tree()
    return str(root.text_content())


def score(text: str, gold: tuple[list[str], list[str]]) -> tuple[int, int, int, int]:
    haystack = norm(text)
    body, chrome = gold
    return (sum(norm(p) in haystack for p in body), len(body), sum(norm(p) in haystack for p in chrome), len(chrome))


def run(pages: Path, repeat: int) -> dict[str, dict[str, float]]:
    files = sorted(pages.glob("*.html"))
    if not files:
        sys.exit(f"no pages in {pages}")
    from citecheck.fetch.parse import decode

    docs = {f.stem: decode(f.read_bytes(), "text/html") for f in files}
    for stem, (body, chrome) in GOLD.items():  # the gold must be true of the page itself
        page = norm(_all_text(docs[stem]))
        missing = [p for p in body + chrome if norm(p) not in page]
        if missing:
            sys.exit(f"gold phrase not on the page {stem}: {missing}")
    results: dict[str, dict[str, float]] = {}
    for name, extract in extractors().items():
        for html in docs.values():
            extract(html)  # warm-up: imports, lazy tables
        times: list[float] = []
        found = [0, 0, 0, 0]
        for stem, html in docs.items():
            runs = []
            for _ in range(repeat):
                started = time.process_time()  # CPU time: stable on a shared, loaded machine
                text = extract(html)
                runs.append(time.process_time() - started)
            times.append(statistics.median(runs))
            if stem in GOLD:
                found = [a + b for a, b in zip(found, score(text, GOLD[stem]))]
        results[name] = {"body_recall": found[0] / found[1], "chrome_leak": found[2] / found[3],
                         "median_ms": statistics.median(times) * 1000, "total_ms": sum(times) * 1000,
                         "max_ms": max(times) * 1000}
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=Path, default=DEFAULT_PAGES)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = run(args.pages, args.repeat)
    print(f"{len(list(args.pages.glob('*.html')))} pages, {len(GOLD)} scored\n")
    print("| extractor | body recall | chrome leak | median CPU ms/page | max CPU ms/page | total CPU ms |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, r in results.items():
        print(f"| {name} | {r['body_recall']:.0%} | {r['chrome_leak']:.0%} | {r['median_ms']:.1f} | "
              f"{r['max_ms']:.0f} | {r['total_ms']:.0f} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
