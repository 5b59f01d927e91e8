"""A "soft 404": the server answers 200, but with a not-found page, its home page or a generic
landing page instead of the cited content.

Many sites never send 404: a dead article redirects to the home page or a section front, or renders
"Page not found" with status 200. Status-only checkers pass these, which is how fabricated deep
links survive. The rule weighs independent signals and reports only on two of them, or on one
strong one, listing the evidence:

- strong: a not-found title ("404 Not Found", "Page not found", "Página no encontrada", "页面不存在" …);
  a redirect of a deep link to the site root or a sink such as `/404`, `/error`, `/search`; a
  canonical link that names the home page; a text nearly identical to a random non-existent
  path on the same host that also answered 200; a not-found phrase on a short page;
- weak: a not-found phrase buried in a long page; a redirect up to a section (`/video/view/x` →
  `/video/`); a text similar to the random sibling; URL slug words absent from title and text.

A site that answers the *same page* for any path (the cited page and the random sibling fingerprint
alike once nonces, tokens, numbers and the echoed path are taken out, and their visible texts are
equal) proves nothing either way about the cited path. With little visible text it is a
client-rendered shell: the link is reported as **unverifiable** ("the site answers the same page
for any path", a warning), never as live; with substantive text the sibling's identical text is a
strong soft-404 signal.

Titles and phrases (English, Spanish, French, German, Portuguese, Indonesian, Chinese, Japanese
and more) live in the `soft404` pack. PDFs and other non-HTML answers are never soft 404s.

Failing example (200 after a redirect to https://www.wired.com/, title "WIRED - The Latest …"):

    Battery life is 2 h ([review](https://www.wired.com/2016/07/review-yi-4k-action-camera/)).

Passing example (200 with the review, title "Yi 4K Action Camera Review"):

    Battery life is 2 h ([review](https://www.wired.com/2016/07/review-yi-4k-action-camera/)).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from citecheck.checks._match import content_words, match, slug_words, stopset
from citecheck.checks._page import Lists, Memo, answered, emit, is_deep, is_html, is_root, pack_items, path_segments
from citecheck.models import Hit, Page
from citecheck.urls import registrable_domain

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H003"
NAME = "soft-404"
STAGE = "page"
SEVERITY = "error"
VERDICT = "soft-404"
GATE = "gone"
EVIDENCE = "Matched soft-404 marker"  # what the HTML report calls a finding's evidence
PACK = "soft404"
WEIGHTS = {"title": 2, "redirect-root": 2, "redirect-sink": 2, "canonical-root": 2, "sibling-same": 2,
           "phrase-short-page": 2, "phrase": 1, "redirect-section": 1, "sibling-similar": 1, "slug-absent": 1}
DEFAULTS: dict[str, Any] = {"min_score": 2, "weights": WEIGHTS, "short_text": 1500, "sibling_same": 97,
                            "sibling_similar": 85, "sibling_min_text": 100, "slug_overlap": 0.2,
                            "slug_text_overlap": 0.4, "shell_text": 300,
                            "extra_titles": [], "extra_phrases": [], "extra_sink_paths": []}
OPTIONS = {"min_score": "report when the signal weights add up to this (strong = 2, weak = 1)",
           "weights": "weight of each signal by name", "short_text": "a phrase on a page this short is strong",
           "sibling_same": "rapidfuzz ratio (0-100) to a random sibling that counts as the same page",
           "sibling_similar": "ratio that counts as a weak signal",
           "sibling_min_text": "both texts need this many characters for the sibling comparison",
           "slug_overlap": "URL slug words count as absent below this share of them in the title",
           "slug_text_overlap": "share of slug words the visible text may hold for the slug to count as absent",
           "shell_text": "a page the random sibling matches exactly is a client-rendered shell (unverifiable) "
                         "up to this many characters of visible text, a soft 404 above",
           "extra_titles": "more not-found title regexes", "extra_phrases": "more not-found phrase regexes",
           "extra_sink_paths": "more paths that dead links get redirected to"}
Signal = tuple[str, str]  # (name, evidence)
SHELL_MESSAGE = "unverifiable: the site answers the same page for any path (client-rendered)"


@dataclass(frozen=True)
class Prepared:
    """The pack, compiled once per configuration: title and phrase regexes, sink paths, stopwords."""

    lists: Lists
    sinks: frozenset[str]
    stopwords: frozenset[str]


def prepare(options: Mapping[str, Any]) -> Prepared:
    return Prepared(Lists.of(options, phrases=("titles", "phrases")),
                    frozenset(str(s).rstrip("/").lower() for s in pack_items(options, "sink_paths")),
                    stopset(options.get("pack", {}).get("stopwords", [])))


def _path(url: str) -> str:
    try:
        return urlsplit(url).path.rstrip("/").lower() or "/"
    except ValueError:
        return "/"


def content_signals(page: Page, options: Mapping[str, Any], prepared: Prepared, memo: Memo | None = None) -> list[Signal]:
    title = prepared.lists.find("titles", page.title, memo)
    out: list[Signal] = [("title", f"title {page.title!r}")] if title else []
    phrase = prepared.lists.find("phrases", page.text_sample, memo)
    if phrase:
        short = len(page.text_sample) <= int(options.get("short_text", 1500))
        out.append(("phrase-short-page" if short else "phrase", f"text {phrase!r}"))
    return out


def redirect_signals(page: Page, prepared: Prepared) -> list[Signal]:
    final = page.final_url or page.url
    if not is_deep(page.url) or final == page.url:
        return _canonical_signal(page)
    if is_root(final):
        return [("redirect-root", f"redirected to the home page {final}")]
    if _path(final) in prepared.sinks:
        return [("redirect-sink", f"redirected to {final}")]
    if _is_ancestor(final, page.url):
        return [("redirect-section", f"redirected up to {final}")]
    return _canonical_signal(page)


def _is_ancestor(final: str, original: str) -> bool:
    if registrable_domain(urlsplit(final).hostname or "") != registrable_domain(urlsplit(original).hostname or ""):
        return False
    up, down = path_segments(final), path_segments(original)
    return len(up) < len(down) and down[: len(up)] == up


def _canonical_signal(page: Page) -> list[Signal]:
    canonical = page.canonical
    if canonical.startswith("/"):
        parts = urlsplit(page.final_url or page.url)
        canonical = f"{parts.scheme}://{parts.netloc}{canonical}"
    if canonical.startswith("http") and is_root(canonical) and is_deep(page.final_url or page.url):
        return [("canonical-root", f"canonical link names the home page {canonical}")]
    return []


def same_page(page: Page) -> bool:
    """The random non-existent sibling answered 200 with this very page: the same fingerprint of
    markup and visible text (see `support.shape`)."""
    if page.sibling_status != 200 or not page.sibling_shape or not is_deep(page.url):
        return False
    from citecheck.support.shape import page_shape  # page rules only: not at every CLI start

    return page_shape(page.html_sample, page.text_sample, page.final_url or page.url) == page.sibling_shape


def sibling_signals(page: Page, options: Mapping[str, Any]) -> list[Signal]:
    sibling, text = page.sibling_text or "", page.text_sample or ""
    least = int(options.get("sibling_min_text", 100))
    if page.sibling_status != 200 or not is_deep(page.url) or min(len(sibling), len(text)) < least:
        return []
    same, similar = float(options.get("sibling_same", 97)), float(options.get("sibling_similar", 85))
    from rapidfuzz import fuzz  # only pages with a sibling probe: not at every CLI start

    # a ratio under both thresholds is never used: rapidfuzz may stop early (on lengths alone, say)
    ratio = fuzz.ratio(text[:5000], sibling[:5000], score_cutoff=min(same, similar))
    if ratio >= same:
        return [("sibling-same", f"same text as a random non-existent path ({ratio:.0f}%)")]
    if ratio >= similar:
        return [("sibling-similar", f"text {ratio:.0f}% similar to a random non-existent path")]
    return []


def slug_signals(page: Page, options: Mapping[str, Any], prepared: Prepared, memo: Memo | None = None) -> list[Signal]:
    wanted = content_words(slug_words(page.url), prepared.stopwords)
    if len(wanted) < 2:
        return []
    found = match(wanted, page, memo=memo)
    in_text = float(options.get("slug_text_overlap", 0.4))
    if found.title_score < float(options.get("slug_overlap", 0.2)) and found.text_score < in_text:
        return [("slug-absent", f"none of the URL words {' '.join(wanted[:6])!r} in title or text")]
    return []


def signals(page: Page, options: Mapping[str, Any], prepared: Prepared | None = None,
            memo: Memo | None = None) -> list[Signal]:
    """Every soft-404 signal of an answered HTML page."""
    if not answered(page) or not is_html(page):
        return []
    prepared = prepared or prepare(options)
    return [*content_signals(page, options, prepared, memo), *redirect_signals(page, prepared),
            *sibling_signals(page, options), *slug_signals(page, options, prepared, memo)]


def is_shell(page: Page, options: Mapping[str, Any]) -> bool:
    """A client-rendered shell the site serves for any path: the link cannot be verified."""
    return answered(page) and is_html(page) and len(page.text_sample or "") <= int(options.get("shell_text", 300)) \
        and same_page(page)


def check(fetched: Fetched, options: Mapping[str, Any], prepared: Prepared | None = None) -> Iterator[Hit]:
    found = signals(fetched.page, options, prepared, fetched.memo)
    shell = is_shell(fetched.page, options)
    if shell:  # a shell the site serves for any path: being like the sibling proves nothing
        found = [(name, text) for name, text in found if not name.startswith("sibling-")]
    weights = {**WEIGHTS, **options.get("weights", {})}
    score = sum(int(weights.get(name, 1)) for name, _ in found)
    if found and score >= int(options.get("min_score", 2)):
        names = ", ".join(name for name, _ in found)
        yield emit(fetched, f"soft 404: the page answers 200 but looks dead ({names})",
                   "; ".join(text for _, text in found))
    elif shell:  # no evidence of death, and none of life either
        chars = len(fetched.page.text_sample or "")
        yield emit(fetched, SHELL_MESSAGE,
                   f"a random non-existent path answered 200 with the identical page; {chars} characters of "
                   "visible text", severity="warning", verdict="unverifiable", gate="unverifiable")
