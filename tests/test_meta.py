"""Meta-tests that keep the docs true and the rules pure.

Every registered rule documents a failing and a passing example, has fixture cases that fail and pass
(fixtures/rules/<ID>.yml), and a row in README.md's generated rule table; every rule module imports
nothing that fetches, caches, prints reports or opens files.
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

import citecheck.checks
from citecheck.engine.registry import build_registry

ROOT = Path(__file__).resolve().parent.parent
CASES_DIR = ROOT / "fixtures" / "rules"
REGISTRY = build_registry()
RULES = list(REGISTRY.rules)
CHECKED_RULES = [r for r in RULES if r.stage != "engine"]  # E000-E002 are exercised in test_cli.py
CHECK_MODULES = sorted(m.name for m in pkgutil.iter_modules(citecheck.checks.__path__, "citecheck.checks."))
FORBIDDEN_MODULES = ("aiohttp", "sqlite_utils", "citecheck.fetch", "citecheck.cli", "citecheck.report", "socket",
                     "requests", "httpx", "urllib.request", "http.client")
FORBIDDEN_CALLS = {"open", "builtins.open", "io.open", "os.open", "print"}


def _load_script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


readme_script = _load_script("update_readme_rules")


# -- documentation -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_rule_doc_has_failing_and_passing_examples(rule) -> None:  # type: ignore[no-untyped-def]
    assert rule.summary, f"{rule.id} ({rule.origin}) has no docstring / description"
    for words in ("Failing example", "Passing example"):
        assert words in rule.doc, f"{rule.id} ({rule.origin}): its doc lacks a {words!r} section"


@pytest.mark.parametrize("rule", CHECKED_RULES, ids=[r.id for r in CHECKED_RULES])
def test_rule_has_failing_and_passing_fixture_cases(rule) -> None:  # type: ignore[no-untyped-def]
    path = CASES_DIR / f"{rule.id}.yml"
    assert path.is_file(), f"{rule.id} ({rule.name}) has no fixture file {path.relative_to(ROOT)}"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data.get("rule") == rule.id, f"{path.name} declares rule {data.get('rule')!r}"
    names = [case["name"] for case in data.get("cases") or []]
    assert any(n.startswith("bad_") for n in names), f"{path.name} has no bad_* case"
    assert any(n.startswith("ok_") for n in names), f"{path.name} has no ok_* case"
    assert all(n.startswith(("bad_", "ok_")) for n in names), f"{path.name}: case names must start bad_ or ok_"
    assert len(set(names)) == len(names), f"{path.name} repeats a case name"


def test_every_fixture_file_belongs_to_a_registered_rule() -> None:
    ids = {r.id for r in RULES}
    orphans = [p.name for p in sorted(CASES_DIR.glob("*.yml")) if p.stem not in ids]
    assert not orphans, f"fixture files for rules that are not registered: {orphans}"


def test_readme_rule_table_matches_citecheck_rules_markdown() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    try:
        block = readme_script.current_block(readme)
    except readme_script.MarkerError as err:
        pytest.fail(f"{err}; add the markers, then run `python scripts/update_readme_rules.py`")
    expected = readme_script.rules_table()
    assert block == expected, ("README.md's rule table is out of date: run `python scripts/update_readme_rules.py`"
                               "\n" + _first_difference(block, expected))
    for rule in RULES:
        assert f"| {rule.id} | `{rule.name}` |" in block, f"{rule.id} has no row in README.md's rule table"


def _first_difference(old: str, new: str) -> str:
    old_rows, new_rows = old.splitlines(), new.splitlines()
    for i, (a, b) in enumerate(zip(old_rows, new_rows)):
        if a != b:
            return f"row {i + 1}:\n  README: {a}\n  now:    {b}"
    return f"README has {len(old_rows)} rows, citecheck rules has {len(new_rows)}"


def test_update_readme_script_rewrites_only_the_block(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# Title\n\nintro\n\n{readme_script.START}\n| stale |\n{readme_script.END}\n\nrest\n",
                      encoding="utf-8")
    assert readme_script.main(["--check"], readme=readme) == 1
    assert readme_script.main([], readme=readme) == 0
    text = readme.read_text(encoding="utf-8")
    assert text.startswith(f"# Title\n\nintro\n\n{readme_script.START}\n| ID | name |") and text.endswith(
        f"{readme_script.END}\n\nrest\n")
    assert readme_script.current_block(text) == readme_script.rules_table()
    assert readme_script.main(["--check"], readme=readme) == 0
    readme.write_text("# No markers\n", encoding="utf-8")
    assert readme_script.main([], readme=readme) == 2
    assert readme.read_text(encoding="utf-8") == "# No markers\n"


# -- purity of rules -----------------------------------------------------------------------------------------------

def impurities(source: str, module_name: str) -> list[str]:
    """Forbidden imports and calls in one rule module's source (resolving relative imports)."""
    package = module_name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Call):
            called = ast.unparse(node.func)
            if called in FORBIDDEN_CALLS:
                found.append(f"line {line}: calls {called}()")
        found += [f"line {line}: imports {name}" for name in names if _forbidden(name)]
    return found


def _forbidden(name: str) -> bool:
    return any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN_MODULES)


@pytest.mark.parametrize("module_name", CHECK_MODULES)
def test_rule_module_imports_nothing_impure(module_name: str) -> None:
    module = importlib.import_module(module_name)
    assert module.__file__ is not None
    problems = impurities(Path(module.__file__).read_text(encoding="utf-8"), module_name)
    for attr, value in vars(module).items():
        origin = value.__name__ if isinstance(value, ModuleType) else getattr(value, "__module__", None)
        if isinstance(origin, str) and _forbidden(origin):
            problems.append(f"global {attr} comes from {origin}")
        if value is open:
            problems.append(f"global {attr} is the builtin open")
    assert not problems, f"{module_name} is not pure: " + "; ".join(problems)


def test_rule_modules_pull_in_nothing_impure_transitively() -> None:
    code = (
        "import importlib, pkgutil, sys\n"
        "import citecheck, citecheck.checks as c\n"
        "before = set(sys.modules)\n"
        "for m in pkgutil.iter_modules(c.__path__, 'citecheck.checks.'): importlib.import_module(m.name)\n"
        "print('\\n'.join(sorted(set(sys.modules) - before)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    loaded = [m for m in proc.stdout.split() if _forbidden(m) and m != "socket"]
    assert not loaded, f"importing the rule modules loads {loaded}"


@pytest.mark.parametrize(("source", "expected"), [
    ("import aiohttp\n", "imports aiohttp"),
    ("from citecheck.fetch import fetch_all\n", "imports citecheck.fetch"),
    ("from citecheck import report\n", "imports citecheck.report"),
    ("from .. import cli\n", "imports citecheck.cli"),
    ("import socket as s\n", "imports socket"),
    ("from sqlite_utils import Database\n", "imports sqlite_utils"),
    ("def f(p):\n    return open(p).read()\n", "calls open()"),
    ("import builtins\nbuiltins.open('x')\n", "calls builtins.open()"),
    ("print('hit')\n", "calls print()"),
])
def test_the_purity_check_catches_violations(source: str, expected: str) -> None:
    found = impurities(source, "citecheck.checks.example")
    assert any(expected in problem for problem in found), found


def test_the_purity_check_accepts_a_pure_rule() -> None:
    pure = ("from __future__ import annotations\nimport re\nfrom urllib.parse import urlsplit\n"
            "from citecheck.models import Hit\nfrom citecheck.checks._page import emit\n")
    assert impurities(pure, "citecheck.checks.example") == []
