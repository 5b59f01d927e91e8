"""A rule declares what its findings mean (`RuleSpec`: VERDICT, GATE, UNREACHED, WRITE, BLOCKS_APPEND,
EVIDENCE, the engine rules' `fault`, STAGE) and the engine stamps it on the finding: nothing outside
the rules keys behaviour on a rule's ID, slug, stage letter or message. This scans every module of
`citecheck/` so that no such table can come back."""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from citecheck.engine.registry import build_registry

PACKAGE = Path(__file__).resolve().parents[2] / "citecheck"
RULE_ID = re.compile(r"[A-Z]\d{3}")
# Modules that may write a rule ID: the rules name themselves (checks/), the engine's own rules are
# defined in engine/meta.py and a walked input's problem names the engine rule that reports it; the
# shipped config presets name rules as a user's .citecheck.yaml does; engine/rule.py defines what an
# ID is (a stage's letter and three digits) and checks it.
MAY_NAME_RULES = ("checks/", "engine/meta.py", "extract/walk.py", "config/__init__.py", "engine/rule.py")
# Sets of IDs built from the registry (what rules declare: `BLOCKS_APPEND`, `UNREACHED`, the page stage's
# rules; the rules a run has active) or the user's own list (harvest's `lenient_rules`).
ID_SETS = {"refuse", "unreached", "page_rules", "present", "lenient_rules"}


def _names_rule(node: ast.AST) -> bool:
    """`x.rule` (a finding's or reason's rule ID) or `spec.id` / `x.spec.id`."""
    if not isinstance(node, ast.Attribute):
        return False
    if node.attr == "rule":
        return True
    owner = node.value
    return node.attr == "id" and ((isinstance(owner, ast.Name) and owner.id == "spec")
                                   or (isinstance(owner, ast.Attribute) and owner.attr == "spec"))


def _is_table(node: ast.AST) -> bool:
    """A literal or a named value other than a rule ID (`module.ID`: a lookup) or a set of IDs from the
    registry; a call (`token.upper()`: what the user wrote) is a lookup too."""
    if _strings(node) or isinstance(node, (ast.Constant, ast.Dict)):
        return True
    if isinstance(node, ast.Attribute):
        return not _names_rule(node) and node.attr not in ("id", "ID") and node.attr not in ID_SETS
    return isinstance(node, ast.Name) and node.id not in ID_SETS


def _strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for e in node.elts for s in _strings(e)]
    return []


def _docstrings(tree: ast.AST) -> set[int]:
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {id(n.body[0].value) for n in ast.walk(tree) if isinstance(n, kinds) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}


def keyed_on_rules(code: str, slugs: frozenset[str], may_name: bool = False) -> Iterator[tuple[int, str]]:
    """(line, what) for each place in `code` that keys behaviour on a rule's ID, slug, stage letter or message."""
    tree = ast.parse(code)
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if (not may_name and isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docstrings and RULE_ID.fullmatch(node.value)):
            yield line, f"rule ID {node.value!r} written out"
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_names_rule(s) for s in sides) and any(_is_table(s) for s in sides if not _names_rule(s)):
                yield line, "a rule ID compared"
            named = [s for s in sides if isinstance(s, ast.Attribute) and s.attr == "name"]
            if named and any(v in slugs for s in sides for v in _strings(s)):
                yield line, "a rule slug compared"
            if named and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) and _strings(node.left):
                yield line, "a slug searched for a substring"
            if (any(isinstance(s, ast.Attribute) and s.attr == "message" for s in sides)
                    and any(_strings(s) for s in sides) and any(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops)):
                yield line, "a message compared"
        elif isinstance(node, ast.Subscript) and _names_rule(node.value) and not may_name:
            yield line, "a rule ID sliced (its stage letter)"
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("startswith", "endswith") and _names_rule(node.func.value)):
            yield line, "a rule ID's prefix tested (its stage letter)"


def test_no_module_outside_the_rules_keys_behaviour_on_rule_ids_slugs_or_messages() -> None:
    slugs = frozenset(r.name for r in build_registry().rules)
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name.startswith("checks/"):
            continue
        may_name = name.startswith(MAY_NAME_RULES)
        found += [f"{name}:{line}: {what}" for line, what in keyed_on_rules(path.read_text(encoding="utf-8"), slugs,
                                                                            may_name)]
    assert not found, "read what the rule declares (RuleSpec, stamped on the Finding) instead:\n" + "\n".join(found)


def test_the_scan_finds_each_kind_of_table() -> None:
    """The scan itself can fail: each pattern that once keyed behaviour on a rule is found."""
    slugs = frozenset({"placeholder-domain", "paywall"})
    planted = '''
"""Docstrings may name U001 as an example."""
CONTRACT_RULES = ("M006", "M009")
def gate(f, reason, spec, refuse, token):
    ok = f.rule in refuse or f.rule == spec.id or f.rule == token.upper()  # declarations and lookups are fine
    if f.rule == "E003" or f.rule in CONTRACT_RULES or spec.id != "E000":
        pass
    stage = {"U": "preflight"}.get(f.rule[:1])
    if f.rule.startswith("R") or f.name == "placeholder-domain" or "paywall" in f.name:
        pass
    return reason.message == "title does not match"
'''
    found = [what for _, what in keyed_on_rules(planted, slugs)]
    assert found.count("rule ID 'E003' written out") == 1 and "rule ID 'U001' written out" not in found
    assert found.count("a rule ID compared") == 3  # == "E003", in CONTRACT_RULES, != "E000"
    for what in ("a rule ID sliced (its stage letter)", "a rule ID's prefix tested (its stage letter)",
                 "a rule slug compared", "a slug searched for a substring", "a message compared"):
        assert what in found, what
