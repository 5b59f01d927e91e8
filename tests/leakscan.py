"""A paranoid URL scanner for the write tests, written independently of the gate's detector.

It normalises the whole text at once (HTML entities, NFKC, format characters, Markdown escapes,
emphasis and code marks, defanging) and then looks for anything URL-shaped with citecheck's bare
matcher plus deliberately broad regexes of its own. The only URLs allowed in `write` output are
the corpus URLs inside the `<…>` autolinks of the generated citation list; those are masked
before scanning. Its own tests: write/test_write_scanner.py.
"""
from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable

from citecheck.extract.bare import find_urls

_REFANG = [(re.compile(r"\[(?:\.|dot)\]|\((?:\.|dot)\)|\{(?:\.|dot)\}", re.IGNORECASE), "."),
           (re.compile(r"\[:\]"), ":"), (re.compile(r"\[/\]"), "/"), (re.compile(r"\[://\]"), "://"),
           (re.compile(r"\bh(?:xx|XX)p", re.IGNORECASE), "http")]


_BROAD = [
    re.compile(r"[a-z][a-z0-9+.\-]*:[/\\]{2}[^\s<>\"']+", re.IGNORECASE),  # any scheme://
    re.compile(r"\b(?:https?|hxxps?):[/\\]?[\w.-]+\.[a-z]{2,}", re.IGNORECASE),  # https:host (browsers fix it up)
    re.compile(r"\b(?:mailto|javascript|vbscript|data|doi|tel|urn|file):[^\s<>\"']+", re.IGNORECASE),
    re.compile(r"(?<![\w/:])[/\\]{2}[\w-]+(?:\.[\w-]+)*\.[^\W\d_]{2,}", re.IGNORECASE),  # //host.tld
    re.compile(r"\bwww\d*\.[\w-]+", re.IGNORECASE),
    re.compile(r"[\w-]+(?:\.[\w-]+)*\.[^\W\d_]{2,}\.?(?::\d+|[/\\])", re.IGNORECASE),  # host.tld/ or host.tld:port
    re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+|/)"),
    re.compile(r"\blocalhost(?::\d+|/)", re.IGNORECASE),
    re.compile(r"\b10\.\d{4,9}/\S+"),  # bare DOI
]


def normalise(text: str) -> str:
    """What a reader would see: entities decoded, NFKC, invisible characters and markup removed."""
    out = unicodedata.normalize("NFKC", html.unescape(text))
    out = "".join(c for c in out if unicodedata.category(c) != "Cf")
    out = out.replace("\u3002", ".").replace("\uff61", ".")
    out = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", out)
    out = out.replace("*", "").replace("`", "")
    for regex, repl in _REFANG:
        out = regex.sub(repl, out)
    return out


def scan(text: str) -> list[str]:
    """Every URL-shaped string in `text` (raw and normalised), as found."""
    found: list[str] = []
    for variant in (text, normalise(text)):
        found.extend(m.raw for m in find_urls(variant))
        for regex in _BROAD:
            found.extend(m.group(0) for m in regex.finditer(variant))
    return found


def mask_citation_urls(output: str, corpus_urls: Iterable[str]) -> str:
    """Blank out `<corpus URL>` autolinks (the citation list's only URLs)."""
    for url in sorted(set(corpus_urls), key=len, reverse=True):
        output = output.replace(f"<{url}>", "<>")
    return output


def leaked(output: str, corpus_urls: Iterable[str]) -> list[str]:
    """URL-shaped strings in `write` output that are not the corpus URLs of the citation list."""
    return scan(mask_citation_urls(output, corpus_urls))
