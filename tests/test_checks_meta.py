"""Keep the offline rules honest: documented, configurable, covered by cases, and pure."""
from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from types import ModuleType

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
RULES = {
    "U002": "malformed_url", "U003": "unsupported_scheme", "U004": "private_address", "U005": "hallucination_pattern",
    "U006": "credentials_in_url", "U007": "unknown_suffix", "U008": "missing_scheme", "M001": "firm_context_leak",
    "M002": "watermark_company", "M003": "needs_source_marker", "M004": "insufficient_data_marker",
    "M005": "footnote_integrity", "M006": "unknown_source_id", "M007": "uncorpused_url", "C001": "schema",
    "C002": "duplicate_canonical_url", "C003": "stale_fetch", "C004": "id_integrity", "C005": "placeholder_in_corpus",
}
# What a rule may not touch: the network, the disk, processes, the config, the terminal.
FORBIDDEN_IMPORTS = ("socket", "ssl", "aiohttp", "requests", "httpx", "urllib.request", "http.client", "sqlite3",
                     "sqlite_utils", "os", "pathlib", "io", "shutil", "subprocess", "tempfile", "sys", "logging",
                     "citecheck.fetch", "citecheck.config", "citecheck.cli", "citecheck.report", "citecheck.audit",
                     "citecheck.harvest", "click", "rich")
FORBIDDEN_CALLS = {"print", "open", "input", "exec", "eval", "__import__"}


def module(rule_id: str) -> ModuleType:
    return importlib.import_module(f"citecheck.checks.{RULES[rule_id]}")


@pytest.mark.parametrize("rule_id", sorted(RULES))
def test_rule_declares_itself(rule_id: str) -> None:
    mod = module(rule_id)
    assert rule_id == mod.ID
    assert mod.NAME.replace("-", "_") == RULES[rule_id], "a rule module is named by its slug"
    assert {"U": "url", "M": "memo", "C": "corpus"}[rule_id[0]] == mod.STAGE
    assert mod.SEVERITY in ("error", "warning", "info")
    assert set(mod.OPTIONS) == set(mod.DEFAULTS), "every option is documented and has a default"


@pytest.mark.parametrize("rule_id", sorted(RULES))
def test_rule_docstring_is_user_documentation(rule_id: str) -> None:
    doc = inspect.getdoc(module(rule_id)) or ""
    summary = doc.splitlines()[0]
    assert summary.endswith((".", ":")) and len(summary) <= 110
    assert "Failing example" in doc and "Passing example" in doc
    assert doc.index("Failing example") < doc.index("Passing example")


@pytest.mark.parametrize("rule_id", sorted(RULES))
def test_rule_has_failing_and_passing_cases(rule_id: str) -> None:
    data = yaml.safe_load((ROOT / "fixtures" / "rules" / f"{rule_id}.yml").read_text(encoding="utf-8"))
    assert data["rule"] == rule_id
    names = [c["name"] for c in data["cases"]]
    assert any(n.startswith("bad_") for n in names) and any(n.startswith("ok_") for n in names)
    assert len(names) == len(set(names))


def _imports(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
    return found


@pytest.mark.parametrize("rule_id", sorted(RULES))
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
    tree = ast.parse((ROOT / "citecheck" / "netaddr.py").read_text(encoding="utf-8"))
    assert set(_imports(tree)) <= {"__future__", "functools", "ipaddress", "unicodedata"}  # functools: lru_cache
