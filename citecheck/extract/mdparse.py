"""The markdown-it-py parser citecheck uses, with source ranges recorded on the tokens.

markdown-it-py gives block tokens a line map but inline tokens no positions. Wrapping the inline
rules that make links, images, autolinks, code spans, raw HTML and footnote references records
`meta["src"] = (start, end)` — offsets into the inline token's `content` — and, for links with a
destination, `meta["dest"] = (start, end)` of the destination *as written*. Reference definitions
get the destination's absolute offset in the document (`meta["dest"]`). Nothing is searched for:
the offsets are the parser's own.

Link destinations are kept as written apart from Markdown escapes and entities (no percent-encoding,
no punycode), and every scheme is accepted: a linter must see `javascript:` and `file:` links that a
renderer would drop.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from markdown_it import MarkdownIt, helpers
from markdown_it.common.utils import unescapeAll
from markdown_it.ruler import Ruler
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.rules_core.state_core import StateCore
from markdown_it.rules_inline.state_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from citecheck.extract.deep import LABEL_STEPS_BASE, LABEL_STEPS_PER_CHAR, MAX_INLINE, MAX_NESTING

InlineRule = Callable[[StateInline, bool], bool]
BlockRule = Callable[[StateBlock, int, int, bool], bool]

# rule name → (the character it starts at, the token type it makes)
_RECORDED = {"link": ("[", "link_open"), "image": ("!", "image"), "autolink": ("<", "link_open"),
             "backticks": ("`", "code_inline"), "html_inline": ("<", "html_inline"),
             "footnote_ref": ("[", "footnote_ref")}
_SPACE = " \t\n"


def build_parser() -> MarkdownIt:
    """CommonMark + GFM tables, front matter and footnotes, with position-recording rules."""
    md = MarkdownIt("commonmark", {"html": True, "store_labels": True, "inline_definitions": True,
                                   "maxNesting": MAX_NESTING})
    md.enable(["table", "strikethrough"])
    md.normalizeLink = _keep  # type: ignore[method-assign,assignment]
    md.normalizeLinkText = _keep  # type: ignore[method-assign,assignment]
    md.validateLink = _accept  # type: ignore[method-assign,assignment]
    # this instance only (the helpers module stays untouched for other markdown-it users)
    md.helpers = SimpleNamespace(**{**vars(helpers), "parseLinkDestination": parse_link_destination})  # type: ignore[assignment]
    md.use(front_matter_plugin)
    md.use(footnote_plugin, inline=False, move_to_end=False, always_match_refs=True)
    _wrap(md.inline.ruler, "footnote_ref", _footnote_label_without_brackets)
    for name, (first, kind) in _RECORDED.items():
        _wrap(md.inline.ruler, name, _recorder(first, kind))
    _wrap(md.block.ruler, "reference", _recording_definition)
    md.inline.skipToken = _budgeted(md.inline.skipToken)  # type: ignore[method-assign,assignment]
    md.core.ruler.at("inline", _inline_where_needed)
    return md


def _inline_where_needed(state: StateCore) -> None:
    """markdown-it's inline stage, skipped for text with no `[`, `<` or backtick: nothing in it can
    be a link, image, autolink, code span, raw HTML or footnote reference, and citecheck reads bare
    URLs and markers from the source itself, not from the inline tokens. Skipped too for a paragraph
    above `MAX_INLINE`, and given up for one whose link labels cost more than `LABEL_STEPS` allow:
    its text is then scanned whole for URLs (see `deep`)."""
    for token in state.tokens:
        if token.type == "inline":
            if token.children is None:
                token.children = []
            content = token.content
            if len(content) > MAX_INLINE:  # tokens cost ~200x the text: a huge paragraph is read as text
                token.meta["too_large"] = True
            elif "[" in content or "<" in content or "`" in content:
                try:
                    _parse_inline(content, state, token.children)
                except _LabelScanTooLong:
                    token.children = []
                    token.meta["too_large"] = True


class _LabelScanTooLong(Exception):
    """A paragraph's link labels need more scanning steps than its `_Budgeted` state allows."""


class _Budgeted(StateInline):
    """An inline parse with a budget of label-scanning steps proportional to its text."""

    def __init__(self, src: str, md: MarkdownIt, env: Any, out: list[Token]) -> None:
        super().__init__(src, md, env, out)
        self.steps_left = LABEL_STEPS_PER_CHAR * len(src) + LABEL_STEPS_BASE


def _parse_inline(content: str, core: StateCore, out: list[Token]) -> None:
    """`md.inline.parse`, on a `_Budgeted` state."""
    inline = core.md.inline
    state = _Budgeted(content, core.md, core.env, out)
    inline.tokenize(state)
    for rule in inline.ruler2.getRules(""):
        rule(state)


def _budgeted(skip: Callable[[StateInline], None]) -> Callable[[StateInline], None]:
    """markdown-it's `skipToken`, which its link-label scan calls for every position inside a label
    (recursing into nested `[` up to `maxNesting`), charged to the state's budget. A run of `[`
    costs ~64 steps a character (a 1 MB memo of `[` runs took a minute); prose stays below one."""
    def skip_token(state: StateInline) -> None:
        if isinstance(state, _Budgeted):
            state.steps_left -= 1
            if state.steps_left < 0:
                raise _LabelScanTooLong
        skip(state)

    return skip_token


# Where markdown-it's destination scanner has to look at a character: space and controls end the
# destination, a backslash escapes the next character, parentheses nest.
_DEST_STOP = re.compile(r"[\x00-\x20\x7f\\()]")


def parse_link_destination(string: str, pos: int, maximum: int) -> Any:
    """markdown-it's `parseLinkDestination`, same results, jumping between the characters that
    matter instead of visiting each one in Python (it was the extractor's largest single cost:
    called for every inline link and reference definition). `<…>` destinations go to the original."""
    if pos < maximum and string[pos] == "<":
        return helpers.parseLinkDestination(string, pos, maximum)
    result = _DestResult()
    start, level = pos, 0
    while True:
        m = _DEST_STOP.search(string, pos, maximum)
        if m is None:
            pos = max(pos, min(maximum, len(string)))
            break
        pos = m.start()
        char = string[pos]
        if char <= " " or char == "\x7f":
            break
        if char == "\\":
            if pos + 1 < maximum:
                if string[pos + 1] == " ":
                    break
                pos += 2
            else:
                pos += 1
            continue
        if char == "(":
            level += 1
            if level > 32:
                return result
        elif level == 0:  # ")"
            break
        else:
            level -= 1
        pos += 1
    if start == pos or level != 0:
        return result
    result.str = unescapeAll(string[start:pos])
    result.pos = pos
    result.ok = True
    return result


class _DestResult:
    __slots__ = ("ok", "pos", "str")

    def __init__(self) -> None:
        self.ok = False
        self.pos = 0
        self.str = ""


def _keep(url: str) -> str:
    return url


def _accept(url: str) -> bool:
    return True


def _wrap(ruler: Ruler[Any], name: str, wrapper: Callable[[Any], Any]) -> None:
    """Replace rule `name` by `wrapper(original)`, keeping the chains it may interrupt."""
    rule = next(r for r in ruler.__rules__ if r.name == name)
    ruler.at(name, wrapper(rule.fn), {"alt": list(rule.alt)})


# Where a footnote label `[^label]` can end: the plugin stops at a space, a newline or `]`.
_FOOTNOTE_LABEL_END = re.compile(r"[\[\] \n]")


def _footnote_label_without_brackets(rule: InlineRule) -> InlineRule:
    """The footnote plugin's `[^label]`, refused at once when a `[` comes before the label's `]`
    (GitHub takes no bracket in a label either). The plugin scanned to the next `]`, space or
    newline from every `[^`, so a paragraph of `[^[^[^…` was quadratic (100k of them: minutes)."""
    def wrapped(state: StateInline, silent: bool) -> bool:
        start = state.pos
        if state.src.startswith("[^", start):
            end = _FOOTNOTE_LABEL_END.search(state.src, start + 2, state.posMax)
            if end is None or state.src[end.start()] != "]":
                return False
        return rule(state, silent)

    return wrapped


def _recorder(first: str, kind: str) -> Callable[[InlineRule], InlineRule]:
    return lambda rule: _recording(rule, first, kind)


def _recording(rule: InlineRule, first: str, kind: str) -> InlineRule:
    def wrapped(state: StateInline, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        if state.src[start] != first or not rule(state, silent):
            return False
        if not silent:
            token = next((t for t in state.tokens[count:] if t.type == kind), None)
            if token is not None:
                _mark(state, token, start)
        return True

    return wrapped


def _mark(state: StateInline, token: Token, start: int) -> None:
    token.meta["src"] = (start, state.pos)
    if token.type == "link_open" and token.markup == "autolink":
        token.meta["dest"] = (start + 1, state.pos - 1)
    elif token.type in ("link_open", "image") and "label" not in token.meta:
        dest = _inline_destination(state, start, token.type == "image")
        if dest is not None:
            token.meta["dest"] = dest


def _inline_destination(state: StateInline, start: int, image: bool) -> tuple[int, int] | None:
    """Re-find `(dest` after the label of a link the parser just accepted; None for references."""
    end, src = state.pos, state.src
    saved = state.pos
    label_end = state.md.helpers.parseLinkLabel(state, start + 1 if image else start, not image)
    state.pos = saved
    pos = label_end + 1
    if label_end < 0 or pos >= end or src[pos] != "(":
        return None
    pos += 1
    while pos < end and src[pos] in _SPACE:
        pos += 1
    result = state.md.helpers.parseLinkDestination(src, pos, end)
    if not result.ok or result.pos == pos:
        return None
    if src[pos] == "<":
        return pos + 1, result.pos - 1
    return pos, result.pos


def _recording_definition(rule: BlockRule) -> BlockRule:
    def wrapped(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        count = len(state.tokens)
        if not rule(state, start_line, end_line, silent):
            return False
        if not silent and len(state.tokens) > count and state.tokens[-1].type == "definition":
            dest = definition_destination(state, start_line, state.line)
            if dest is not None:
                state.tokens[-1].meta["dest"] = dest
        return True

    return wrapped


def definition_destination(state: StateBlock, first: int, last: int) -> tuple[int, int] | None:
    """Absolute source offsets of a reference definition's destination (`[label]: dest`)."""
    src = state.src
    line, pos = first, state.bMarks[first] + state.tShift[first] + 1
    pos, line = _skip_label(state, pos, line, last)
    if pos < 0:
        return None
    pos, line = _skip_blank(state, pos + 2, line, last)
    if pos < 0:
        return None
    result = state.md.helpers.parseLinkDestination(src, pos, state.eMarks[line])
    if not result.ok:
        return None
    if src[pos] == "<":
        return pos + 1, result.pos - 1
    return pos, result.pos


def _skip_label(state: StateBlock, pos: int, line: int, last: int) -> tuple[int, int]:
    src = state.src
    while line < last:
        end = state.eMarks[line]
        while pos < end and src[pos] != "]":
            pos += 2 if src[pos] == "\\" else 1
        if pos < end:
            return pos, line
        line += 1
        pos = state.bMarks[line] + state.tShift[line] if line < last else -1
    return -1, line


def _skip_blank(state: StateBlock, pos: int, line: int, last: int) -> tuple[int, int]:
    src = state.src
    while line < last:
        end = state.eMarks[line]
        while pos < end and src[pos] in " \t":
            pos += 1
        if pos < end:
            return pos, line
        line += 1
        pos = state.bMarks[line] + state.tShift[line] if line < last else -1
    return -1, line


def parse(md: MarkdownIt, text: str) -> tuple[list[Token], dict[str, Any]]:
    """Tokens and the parser's env (references, footnotes) for `text`."""
    env: dict[str, Any] = {}
    return md.parse(text, env), env
