"""Rule preparation: the engine calls a rule's `prepare(options)` once, when the configuration is
resolved, and hands the result to every `check`; no rule keeps an identity-keyed or module cache."""
from __future__ import annotations

import ast
import pickle
import sys
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from citecheck.checks import _literals
from citecheck.config import build
from citecheck.engine.registry import Registry, build_registry
from citecheck.engine.rule import spec_from_module
from citecheck.engine.run import Engine
from citecheck.engine.select import ActiveRule, resolve
from citecheck.errors import ConfigError
from citecheck.models import Hit, Link, LinkKind, Location, Outcome, Page

CHECKS = Path(__file__).resolve().parents[2] / "citecheck" / "checks"
PAGES = {
    "https://a.org/2024/grid-report": Page(url="https://a.org/2024/grid-report", final_url="https://a.org/2024/grid-report",
                                           outcome=Outcome.OK, status=200, title="Page not found",
                                           text_sample="Sorry, the page you requested could not be found."),
    "https://b.org/news/storm-damage-survey": Page(url="https://b.org/news/storm-damage-survey",
                                                   final_url="https://b.org/news/storm-damage-survey",
                                                   outcome=Outcome.OK, status=200, title="Just a moment...",
                                                   html_sample="<html><div id='cf-challenge'>challenge-platform</div>"),
    "https://c.org/report": Page(url="https://c.org/report", final_url="https://c.org/report", outcome=Outcome.OK,
                                 status=404, title="Not Found", text_sample="Not found"),
}
LINKS = [Link(url, Location("m.md", n + 1, 1), LinkKind.INLINE, "grid storm damage report") for n, url in
         enumerate(PAGES)]


def _counting_rule(calls: list[str]) -> types.ModuleType:
    module = types.ModuleType("counting_rule")
    module.ID, module.NAME, module.STAGE = "H990", "counting", "page"  # type: ignore[attr-defined]
    module.VERDICT = "advisory"  # type: ignore[attr-defined]

    def prepare(options: Mapping[str, Any]) -> tuple[str, ...]:
        calls.append("prepare")
        return tuple(options.get("words", ("x",)))

    def check(fetched: Any, options: Mapping[str, Any], prepared: tuple[str, ...] | None = None) -> Iterator[Hit]:
        calls.append("check")
        assert prepared == ("x",)
        yield Hit("seen", fetched.link.location, fetched.link.url)

    module.prepare, module.check = prepare, check  # type: ignore[attr-defined]
    return module


def test_prepare_runs_once_per_configuration_and_check_gets_its_result() -> None:
    calls: list[str] = []
    spec = spec_from_module(_counting_rule(calls))
    base = build_registry()
    registry = Registry(tuple(sorted((*base.rules, spec), key=lambda r: r.id)), base.packs)
    engine = Engine(resolve(registry, build({"select": ["H990"]})))
    assert calls == ["prepare"]
    for _ in range(3):
        found = engine.check_pages(LINKS, PAGES, "m.md")
        assert [f.rule for f in found] == ["H990"] * len(LINKS)
    assert calls == ["prepare"] + ["check"] * 3 * len(LINKS)


def test_a_prepare_that_raises_names_the_rule() -> None:
    module = _counting_rule([])
    module.prepare = lambda options: 1 / 0  # type: ignore[attr-defined]
    spec = spec_from_module(module)
    with pytest.raises(ConfigError, match=r"rule H990 \(counting\): cannot prepare its options: ZeroDivisionError"):
        ActiveRule(spec, spec.severity, {})


def test_no_pack_is_compiled_while_pages_are_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    config = build({})
    engine = Engine(resolve(build_registry(), config))
    built: list[int] = []
    original = _literals.Literals.__init__

    def counted(self: _literals.Literals, literals: Any) -> None:
        built.append(1)
        original(self, literals)

    monkeypatch.setattr(_literals.Literals, "__init__", counted)
    found = engine.check_pages(LINKS, PAGES, "m.md")
    assert {f.rule for f in found} >= {"H001", "H003", "H006"}
    assert built == [], "a page rule compiled its pack per call: give its check the prepared value"


def test_resolved_rules_pickle_with_what_they_prepared() -> None:
    """A worker process gets the active rules as they are: prepared values must travel."""
    active = resolve(build_registry(), build({}))
    copy = pickle.loads(pickle.dumps(active))
    assert [r.spec.id for r in copy] == [r.spec.id for r in active]
    assert Engine(copy).check_pages(LINKS, PAGES, "m.md") == Engine(active).check_pages(LINKS, PAGES, "m.md")
    url_links = [Link(u, Location("m.md", 1, 1), LinkKind.INLINE, "") for u in
                 ("https://example.com/{id}", "https://acme.corp/x", "https://www.sec.gov/Archives/")]
    assert Engine(copy).check_links(url_links, "m.md") == Engine(active).check_links(url_links, "m.md")


def test_direct_calls_without_the_engine_prepare_for_themselves() -> None:
    from citecheck.checks import placeholder_domain, soft_404
    from citecheck.engine.run import Fetched

    registry = build_registry()
    options = {**soft_404.DEFAULTS, "pack": registry.packs.data["soft404"]}
    fetched = Fetched(LINKS[0], PAGES[LINKS[0].url])
    assert list(soft_404.check(fetched, options)) == list(soft_404.check(fetched, options, soft_404.prepare(options)))
    link = Link("https://www.example.com/a", Location("m.md", 1, 1), LinkKind.INLINE, "")
    assert list(placeholder_domain.check(link, {"pack": registry.packs.data["placeholder"]}))


def _empty_container(node: ast.expr | None) -> bool:
    if isinstance(node, ast.Dict):
        return not node.keys
    if isinstance(node, (ast.List, ast.Set)):
        return not node.elts
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in {
        "dict", "list", "set", "OrderedDict", "defaultdict"} and not node.args


def _modules() -> list[Path]:
    return sorted(CHECKS.glob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_no_rule_keys_state_on_object_identity(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "id"]
    assert not calls, f"{path.name}:{calls[0].lineno}: id() as a cache key (prepare the value instead)"
    # a cache starts empty: `_CACHE: dict[...] = {}`, `_SEEN = set()` (constants are born full)
    mutable_globals = [t.id for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
                       for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)
                       and _empty_container(n.value) and t.id not in ("DEFAULTS", "OPTIONS", "PLUGINS")]
    assert not mutable_globals, f"{path.name}: module-level mutable state {mutable_globals}"


def test_no_module_imports_private_cpython_internals() -> None:
    root = CHECKS.parent
    stdlib = set(sys.stdlib_module_names)
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] in stdlib and any(p.startswith("_") and not p.startswith("__") for p in parts[1:]):
                    raise AssertionError(f"{path.relative_to(root)}:{node.lineno}: imports {name}")
                assert parts[0] not in {"sre_parse", "sre_compile", "sre_constants"}, f"{path}: {name}"


def test_bad_option_data_is_one_line_naming_the_rule_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from citecheck.cli import main

    with pytest.raises(ConfigError, match=r"rule H003 \(soft-404\): cannot prepare its options: error: missing \)"):
        resolve(build_registry(), build({"rules": {"H003": {"options": {"extra_titles": ["(gone"]}}}}))
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".citecheck.yaml").write_text("rules:\n  U001: {options: {allow: 5}}\n", encoding="utf-8")
    (tmp_path / "m.md").write_text("# memo\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["audit", "--offline", "m.md", "--config", ".citecheck.yaml"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "rule U001 (placeholder-domain): cannot prepare its options: TypeError" in result.stderr


def test_a_deferred_rule_prepares_once_and_checks_as_the_eager_one() -> None:
    """A page rule resolved with `defer=("page",)` (an offline run's rules) prepares on its first check,
    once, and finds what the same rule resolved eagerly finds."""
    from citecheck.engine.run import Fetched

    registry = build_registry()
    calls: list[str] = []
    for spec in registry.rules:
        if spec.prepare is not None:
            original = spec.prepare
            object.__setattr__(spec, "prepare", lambda options, o=original, i=spec.id: (calls.append(i), o(options))[1])
    config = build({})
    deferred = {r.spec.id: r for r in resolve(registry, config, defer=("page",))}
    eager = {r.spec.id: r for r in resolve(registry, config)}
    assert deferred["H004"].deferred and not eager["H004"].deferred
    url = "https://news.site-a.org/2024/05/grid-reliability-report"
    teaser = Page(url=url, final_url=url, outcome=Outcome.OK, status=200, title="Grid report",
                  text_sample="Subscribe to continue reading. This article is for subscribers only.")
    subject = Fetched(Link(url, Location("memo.md", 3, 7)), teaser)
    calls.clear()
    got = list(deferred["H004"].check(subject, deferred["H004"].options))
    assert calls == ["H004"] and got == list(eager["H004"].check(subject, eager["H004"].options)) and got
    list(deferred["H004"].check(subject, deferred["H004"].options))
    assert calls == ["H004"]  # prepared once
