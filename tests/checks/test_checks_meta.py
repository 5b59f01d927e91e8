"""Keep every built-in rule honest: it declares itself, is documented, and its module is pure.

Iterates over every module `citecheck.checks.RULES` lists (a new rule is covered without an edit
here); tests/test_meta.py covers every registered rule's docs, fixtures and README row.
"""
from __future__ import annotations

import ast
import inspect
from pathlib import Path
from types import ModuleType

import pytest

from citecheck.checks import RULES
from citecheck.engine.rule import STAGES as LETTERS

ROOT = Path(__file__).resolve().parents[2]
MODULES = {m.ID: m for m in RULES}
STAGES = {letter: stage for stage, letter in LETTERS.items()}
# What a rule may not touch: the network, the disk, processes, the config, the terminal.
FORBIDDEN_IMPORTS = ("socket", "ssl", "aiohttp", "requests", "httpx", "urllib.request", "http.client", "sqlite3",
                     "sqlite_utils", "os", "pathlib", "io", "shutil", "subprocess", "tempfile", "sys", "logging",
                     "citecheck.fetch", "citecheck.config", "citecheck.cli", "citecheck.report", "citecheck._audit", "citecheck._api",
                     "citecheck.harvest", "click", "rich")
FORBIDDEN_CALLS = {"print", "open", "input", "exec", "eval", "__import__"}


def module(rule_id: str) -> ModuleType:
    return MODULES[rule_id]


@pytest.mark.parametrize("rule_id", sorted(MODULES))
def test_rule_declares_itself(rule_id: str) -> None:
    mod = module(rule_id)
    assert mod.__name__ == f"citecheck.checks.{mod.NAME.replace('-', '_')}", "a rule module is named by its slug"
    assert STAGES[rule_id[0]] == mod.STAGE
    assert mod.SEVERITY in ("error", "warning", "info")
    assert set(getattr(mod, "OPTIONS", {})) == set(getattr(mod, "DEFAULTS", {})), \
        "every option is documented and has a default"


@pytest.mark.parametrize("rule_id", sorted(MODULES))
def test_rule_docstring_is_user_documentation(rule_id: str) -> None:
    doc = inspect.getdoc(module(rule_id)) or ""
    summary = " ".join(doc.split("\n\n", 1)[0].split())  # the first paragraph: one sentence, or two
    assert summary.endswith((".", ":")) and len(summary) <= 220, summary
    assert "Failing example" in doc and "Passing example" in doc
    assert doc.index("Failing example") < doc.index("Passing example")


def _imports(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
    return found


@pytest.mark.parametrize("rule_id", sorted(MODULES))
def test_rule_module_is_pure(rule_id: str) -> None:
    source = Path(inspect.getfile(module(rule_id))).read_text(encoding="utf-8")
    tree = ast.parse(source)
    for name in _imports(tree):
        assert not any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN_IMPORTS), name
    for node in ast.walk(tree):
        assert not isinstance(node, (ast.Global, ast.Nonlocal)), "no mutable module state"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, node.func.id
    assert "from __future__ import annotations" in source


def test_netaddr_is_pure() -> None:
    tree = ast.parse((ROOT / "citecheck" / "_util" / "netaddr.py").read_text(encoding="utf-8"))
    assert set(_imports(tree)) <= {"__future__", "functools", "ipaddress", "unicodedata"}  # functools: lru_cache


def test_no_rule_keeps_a_process_wide_memo() -> None:
    """Memos live in what a rule's `prepare` returns or in the page's `Fetched.memo` (DESIGN.md: no
    rule keeps a process-global cache); `lru_cache` stays in `citecheck.urls`, cleared by `cache_clear`."""
    import re

    for path in sorted((ROOT / "citecheck" / "checks").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\blru_cache\b|functools\.cache\b|^@cache\b", source, re.MULTILINE), path.name
