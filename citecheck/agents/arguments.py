"""Tool arguments checked against the tools' published input schemas before any tool runs, so a
malformed call is one line that names the argument and the bound (pydantic's own message is
several lines and quotes the whole value: a 600,000-character draft). Every tool error that still
carries a line break is folded into one line on the way out."""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from mcp.types import CallToolResult, TextContent

CLIP = 80


class OneLineToolErrors:
    """Server middleware (`MCPServer(middleware=[...])`) for `tools/call`."""

    def __init__(self, schemas: Callable[[], Awaitable[Mapping[str, Any]]]) -> None:
        self._load = schemas
        self._validators: dict[str, Draft202012Validator] | None = None

    async def __call__(self, ctx: Any, call_next: Callable[[Any], Awaitable[Any]]) -> Any:
        if ctx.method == "tools/call" and isinstance(ctx.params, Mapping):
            problem = await self._problem(ctx.params)
            if problem:
                return tool_error(problem)
        return one_line(await call_next(ctx))

    async def _problem(self, params: Mapping[str, Any]) -> str:
        if self._validators is None:
            self._validators = {name: Draft202012Validator(schema) for name, schema in (await self._load()).items()}
        name, arguments = params.get("name"), params.get("arguments")
        validator = self._validators.get(name) if isinstance(name, str) else None
        if validator is None:
            return ""  # an unknown tool: the SDK answers that itself
        arguments = arguments if arguments is not None else {}
        known = validator.schema.get("properties", {})
        unknown = sorted(set(arguments) - set(known)) if isinstance(arguments, Mapping) else []
        if unknown:  # pydantic would drop them silently: `gate_draft(markdown, strict=False)` must not look obeyed
            return (f"{name}: invalid arguments: unknown {', '.join(map(repr, unknown))[:200]} "
                    f"(known: {', '.join(known)})")
        error = best_match(validator.iter_errors(arguments))
        return f"{name}: invalid arguments: {describe(error)}" if error is not None else ""


def describe(error: ValidationError) -> str:
    """One line: where, and what bound or type was broken (never the whole offending value)."""
    where = ".".join(str(p) for p in error.absolute_path) or "arguments"
    value, bound, kind = error.instance, error.validator_value, error.validator
    if kind == "required":
        return clip(error.message)
    if kind in ("maxLength", "minLength") and isinstance(value, str):
        side = "more" if kind == "maxLength" else "fewer"
        return f"{where}: {len(value):,} characters, {side} than the limit of {bound:,}"
    if kind in ("maxItems", "minItems") and isinstance(value, list):
        side = "more" if kind == "maxItems" else "fewer"
        return f"{where}: {len(value):,} items, {side} than the limit of {bound:,}"
    if kind == "type":
        return f"{where}: expected {bound}, got {type(value).__name__}"
    if kind == "pattern":
        return f"{where}: {clip(repr(value))} does not match {bound}"
    if kind in ("maximum", "minimum"):
        return f"{where}: {clip(repr(value))} is {'above the maximum' if kind == 'maximum' else 'below the minimum'} {bound}"
    return f"{where}: {clip(error.message)}"


def clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= CLIP else text[:CLIP - 1] + "…"


def tool_error(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def one_line(result: Any) -> Any:
    if isinstance(result, CallToolResult) and result.is_error:
        texts = [c.text for c in result.content if isinstance(c, TextContent)]
        return tool_error(" ".join(" ".join(texts).split()) or "tool error")
    return result
