"""`citecheck mcp`: the corpus session as a Model Context Protocol server on stdio (the official
`mcp` SDK, 2.x). Each tool is a thin layer over `CorpusSession`; inputs and outputs are typed and
published as JSON Schemas. Stdout is the protocol (the SDK points fd 1 at stderr while it serves,
so stray output cannot corrupt it); logs go to stderr; every error is a one-line tool error and the
server goes on serving.
"""
from __future__ import annotations

import logging
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from citecheck import __version__
from citecheck.agents.arguments import OneLineToolErrors
from citecheck.agents.results import (
    AddResult,
    CheckResult,
    GateResult,
    PromptResult,
    ReferenceResult,
    SearchResult,
    SourceEntry,
)
from citecheck.agents.session import LIMITS, SECTION_PATTERN, CorpusSession
from citecheck.errors import CitecheckError

log = logging.getLogger("citecheck.mcp")
HEARTBEAT = 2.0  # seconds between progress notifications while a harvest runs

INSTRUCTIONS = """citecheck keeps fabricated and dead URLs out of written research. Every source has an ID
(src-NNN) that it earned by being fetched and validated. Harvester side: search_sources and add_sources
put validated sources into the corpus (nothing unvalidated ever comes back); check_urls judges URLs
without adding them. Writer side: prompt gives the writer's instructions and the corpus by ID,
get_source one source's text, gate_draft turns a draft's [src-NNN] citations into footnotes and removes
every URL that is not a corpus source. Cite IDs, never URLs."""

Urls = Annotated[list[Annotated[str, Field(min_length=1, max_length=LIMITS.url_chars)]],
                 Field(min_length=1, max_length=LIMITS.urls, description=f"URLs (at most {LIMITS.urls})")]
SectionId = Annotated[str | None, Field(pattern=SECTION_PATTERN, description="corpus section id ([a-z0-9_-], ≤ 64)")]
SourceId = Annotated[str, Field(pattern=r"^[Ss][Rr][Cc]-\d{3,7}$", description="a corpus ID such as src-007")]
Ids = Annotated[list[SourceId], Field(max_length=LIMITS.urls, description="IDs whose excerpts to include in full")]
Provider = Annotated[str, Field(pattern=r"^[a-z]{2,20}$")]


def build_server(session: CorpusSession) -> MCPServer:
    """The server and its seven tools, over one corpus session."""
    checker = OneLineToolErrors(lambda: _schemas(server))  # reads the schemas the tools below publish
    server: MCPServer = MCPServer("citecheck", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING",
                                  middleware=[checker])
    harvester, reader = ToolAnnotations(open_world_hint=True), ToolAnnotations(read_only_hint=True)

    @server.tool(annotations=harvester, structured_output=True)
    async def search_sources(query: Annotated[str, Field(min_length=1, max_length=LIMITS.query_chars,
                                                         description="search query; `@domain` restricts it to a site")],
                             ctx: Context, section: SectionId = None,
                             providers: Annotated[list[Provider] | None, Field(max_length=6, description=(
                                 "search providers (directory, tavily, serpapi, brave, perplexity, firecrawl); "
                                 "default: the server's --provider"))] = None,
                             max_results: Annotated[int, Field(ge=1, le=LIMITS.max_results)] = 10) -> SearchResult:
        """Search the configured providers, fetch and validate every result, and add the ones that pass
        to the corpus with IDs. Returns the section's validated sources (nothing unvalidated) and the
        rejections with their reasons. A network outage is an error, never an empty result."""
        return await _guard(lambda say: session.search(query, section, providers or (), max_results, say), ctx)

    @server.tool(annotations=harvester, structured_output=True)
    async def add_sources(urls: Urls, ctx: Context, section: SectionId = None) -> AddResult:
        """Put URLs you already hold (from a user, a document) through the same gate: each is fetched and
        validated; those that pass get IDs in the corpus, the others come back rejected with reasons."""
        return await _guard(lambda say: session.add(urls, section, say), ctx)

    @server.tool(annotations=reader, structured_output=True)
    async def get_source(id: SourceId,
                         max_chars: Annotated[int, Field(ge=200, le=LIMITS.excerpt_chars)] = LIMITS.excerpt_chars,
                         ) -> SourceEntry:
        """One corpus source with its main text (for a claim its summary cannot ground). Unknown or
        retired IDs are errors: do not cite them."""
        return await _guard_sync(lambda: session.get(id, max_chars))

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=True), structured_output=True)
    async def check_urls(urls: Urls, ctx: Context) -> CheckResult:
        """Would these URLs earn an ID now? The gate's verdict with its evidence (status, soft-404,
        wall, placeholder …). Nothing is added to the corpus."""
        return await _guard(lambda say: session.check(urls, say), ctx)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=True), structured_output=True)
    async def verify_reference(reference: Annotated[str, Field(min_length=1, max_length=LIMITS.reference_chars,
                                                               description="one reference: a line of a reference "
                                                               "list, a footnote, or a DOI/arXiv/PubMed ID")],
                               ctx: Context) -> ReferenceResult:
        """Does the work exist, and is it the work the reference describes? Each DOI, arXiv ID or PubMed
        ID is asked of its registry (the DOI system, Crossref, DataCite, arXiv, PubMed) and compared with
        the title, authors and year the reference states. Nothing is added to the corpus."""
        return await _guard(lambda say: session.verify(reference), ctx)

    @server.tool(annotations=reader, structured_output=True)
    async def gate_draft(markdown: Annotated[str, Field(max_length=LIMITS.draft_chars, description=(
                             f"the draft (Markdown, at most {LIMITS.draft_chars:,} characters) citing [src-NNN]"))],
                         hybrid: bool = False) -> GateResult:
        """citecheck write on a draft: [src-NNN] become footnotes with a citation list from the corpus,
        unknown IDs become <needs-source claim="…"/>, and every URL that is not a corpus source is
        removed (hybrid: a corpus URL is kept as its footnote). When the server has a bibliography
        (--bibliography), Pandoc [@key] citations are checked against it: a key it lacks becomes
        <needs-source/>. Returns the memo and what was removed."""
        return await _guard_sync(lambda: session.gate(markdown, hybrid), thread=True)

    @server.tool(annotations=reader, structured_output=True)
    async def prompt(section: SectionId = None, excerpts: Ids | None = None,
                     token_budget: Annotated[int | None, Field(ge=500, le=1_000_000)] = None) -> PromptResult:
        """The writer's prompt for a section: rules, guiding questions and the corpus as fenced data by
        ID, with no URL. No section: every source, for the whole memo."""
        return await _guard_sync(lambda: session.prompt(section, excerpts or (), token_budget))

    return server


async def _schemas(server: MCPServer) -> dict[str, Any]:
    return {tool.name: tool.input_schema for tool in await server.list_tools()}


async def _guard(work: Callable[[Callable[[str], None]], Awaitable[Any]], ctx: Context) -> Any:
    """Run a harvest with progress notifications: each stage line, and a heartbeat while it fetches."""
    progress = _Progress(ctx)
    outcome: list[Any] = []
    async with anyio.create_task_group() as group:  # an error leaves the group as a value, never wrapped
        group.start_soon(progress.beat)
        try:
            outcome.append(await _errors(lambda: work(progress.stage)))
        except ToolError as err:
            outcome.append(err)
        finally:
            group.cancel_scope.cancel()
    if isinstance(outcome[0], ToolError):
        raise outcome[0]
    return outcome[0]


async def _guard_sync(work: Callable[[], Any], thread: bool = False) -> Any:
    async def run() -> Any:
        return await anyio.to_thread.run_sync(work) if thread else work()

    return await _errors(run)


async def _errors(work: Callable[[], Awaitable[Any]]) -> Any:
    try:
        return await work()
    except CitecheckError as err:
        raise ToolError(str(err)) from None
    except Exception as err:  # noqa: BLE001 - a bug is still one line and the server keeps serving
        line = f"internal error ({type(err).__name__}): {' '.join(str(err).split())}"
        log.error(line)
        raise ToolError(line) from None


class _Progress:
    def __init__(self, ctx: Context) -> None:
        self.ctx, self.count, self.message, self.started = ctx, 0, "starting", time.monotonic()
        self.changed = anyio.Event()

    def stage(self, message: str) -> None:
        self.message = message
        self.changed.set()

    async def beat(self) -> None:
        while True:
            with anyio.move_on_after(HEARTBEAT):
                await self.changed.wait()
            self.changed = anyio.Event()
            self.count += 1
            elapsed = time.monotonic() - self.started
            try:
                await self.ctx.report_progress(self.count, None, f"{self.message} ({elapsed:.0f} s)")
            except Exception as err:  # noqa: BLE001 - a client that went away must not fail the tool
                log.debug("progress not sent: %s", err)


def serve(session: CorpusSession) -> None:
    """Serve on stdio until the client closes stdin."""
    if not logging.getLogger().handlers:
        logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="citecheck mcp: %(message)s")
    build_server(session).run("stdio")
