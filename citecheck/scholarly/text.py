"""Text normalisation for comparing a claimed reference with a registry record: LaTeX (pylatexenc),
markup, accents, case and punctuation folded away."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_TAG = re.compile(r"<[^>]{1,200}>")
_NON_WORD = re.compile(r"[^\w]+")
_LATEX_HINT = re.compile(r"[\\$]|\{")


@lru_cache(maxsize=4096)
def plain(text: str) -> str:
    """Readable text: HTML/JATS tags and LaTeX markup (`\\'e`, `$\\alpha$`, `\\textit{}`) turned into
    text, whitespace collapsed."""
    out = _TAG.sub("", text)
    if _LATEX_HINT.search(out):
        out = _latex_to_text(out)
    return " ".join(out.split())


def _latex_to_text(text: str) -> str:
    from pylatexenc.latex2text import LatexNodes2Text

    try:
        return str(LatexNodes2Text(math_mode="text").latex_to_text(text))
    except Exception:  # noqa: BLE001 - a parser failure on odd input keeps the text as it was
        return text


@lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """Lower case, accents stripped, every run of punctuation one space: what titles are compared as."""
    decomposed = unicodedata.normalize("NFKD", plain(text))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    bare = bare.replace("ß", "ss").replace("ø", "o").replace("ł", "l").replace("đ", "d").replace("æ", "ae")
    return " ".join(_NON_WORD.sub(" ", bare.lower()).replace("_", " ").split())


def main_title(text: str) -> str:
    """The title before its subtitle (': ', ' - ', ' — ', '? ')."""
    cut = re.split(r":\s|\s[-–—]\s|\?\s", plain(text), maxsplit=1)
    return cut[0]
