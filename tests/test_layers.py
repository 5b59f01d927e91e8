"""The layers DESIGN.md draws, kept true: no import cycle between citecheck's top-level units, rules
that import nothing above them, the public API at the top, modules of a readable size.
(`lint-imports` checks the same layer contract in CI from setup.cfg; this test also runs it.)"""
from __future__ import annotations

import inspect
import itertools
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "citecheck"
MAX_LINES = 400
FORBIDDEN_FOR_CHECKS = ("write", "harvest", "cli", "fetch", "_api", "_audit", "curate", "resolve", "report")


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    # cache_dir=None: grimp would otherwise write .grimp_cache/ into the working directory (the checkout)
    return grimp.build_graph("citecheck", include_external_packages=False, exclude_type_checking_imports=True,
                             cache_dir=None)


def _unit_edges(graph: grimp.ImportGraph) -> dict[tuple[str, str], list[tuple[str, str]]]:
    edges: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            a, b = _unit(module), _unit(imported)
            if a != b:
                edges[a, b].append((module, imported))
    return edges


def test_no_import_cycle_between_top_level_units(graph: grimp.ImportGraph) -> None:
    edges = _unit_edges(graph)
    after: dict[str, set[str]] = defaultdict(set)
    for a, b in edges:
        after[a].add(b)
    state: dict[str, int] = {}

    def visit(unit: str, path: list[str]) -> None:
        state[unit] = 1
        for nxt in sorted(after[unit]):
            if state.get(nxt) == 1:
                cycle = [*path[path.index(nxt):], nxt] if nxt in path else [unit, nxt]
                links = [f"{x} -> {y} ({edges[x, y][0][0]} imports {edges[x, y][0][1]})"
                         for x, y in itertools.pairwise(cycle)]
                raise AssertionError("import cycle: " + "; ".join(links))
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[unit] = 2

    for unit in sorted(after):
        if unit not in state:
            visit(unit, [unit])


def test_checks_import_nothing_above_them(graph: grimp.ImportGraph) -> None:
    bad = [(a, b) for (x, y), pairs in _unit_edges(graph).items() if x == "checks" and y in FORBIDDEN_FOR_CHECKS
           for a, b in pairs]
    assert not bad, f"checks/ imports upward: {bad[:5]}"


def test_the_public_api_is_the_library() -> None:
    import citecheck

    assert citecheck.__version__ and inspect.isfunction(citecheck.audit) and citecheck.Report.__name__ == "Report"


def test_no_module_is_over_400_lines() -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, long


def test_import_linter_contracts_hold() -> None:
    pytest.importorskip("importlinter", reason="import-linter is in the test extras: pip install -e '.[test]'")
    run = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    result = subprocess.run([sys.executable, "-c", run, "--config", str(ROOT / "setup.cfg"), "--no-cache"],
                            capture_output=True, text=True, check=False, cwd=ROOT)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "3 kept, 0 broken" in result.stdout
