"""The built-in rules' generated index (citecheck/checks/_index.py) says what the modules declare,
and the registry built from it imports a rule's module only when the rule is prepared or run."""
from __future__ import annotations

import importlib
import pickle
import pkgutil
import subprocess
import sys
from pathlib import Path

import citecheck.checks
from citecheck.checks._index import RULES
from citecheck.engine.registry import build_registry
from citecheck.engine.rule import ModuleAttr, declarations, loaded, spec_from_module

ROOT = Path(__file__).resolve().parent.parent


def test_the_index_is_up_to_date() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "update_rule_index.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_index_holds_every_rule_module_and_what_it_declares() -> None:
    modules = [importlib.import_module(m.name) for m in pkgutil.iter_modules(citecheck.checks.__path__, "citecheck.checks.")]
    rule_modules = {m.__name__: m for m in modules if hasattr(m, "ID")}
    assert set(RULES) == set(rule_modules) and len(RULES) > 30
    for name, module in rule_modules.items():
        assert RULES[name] == declarations(module), name


def test_the_registry_s_specs_are_those_the_modules_give() -> None:
    specs = {spec.origin: spec for spec in build_registry().rules if spec.origin in RULES}
    assert set(specs) == set(RULES)
    for name, spec in specs.items():
        real = spec_from_module(importlib.import_module(name))
        assert isinstance(spec.check, ModuleAttr) and loaded(spec.check) is real.check, name
        assert (spec.prepare is None) == (real.prepare is None), name
        assert spec.prepare is None or loaded(spec.prepare) is real.prepare, name
        fields = ("id", "name", "stage", "severity", "doc", "defaults", "options_doc", "pack", "plugins", "shardable")
        assert [getattr(spec, f) for f in fields] == [getattr(real, f) for f in fields], name


def test_a_module_attr_imports_on_first_call_and_pickles_as_its_name() -> None:
    code = ("import pickle, sys\n"
            "from citecheck.engine.rule import ModuleAttr\n"
            "attr = ModuleAttr('citecheck.checks.redirect', 'check')\n"
            "assert 'citecheck.checks.redirect' not in sys.modules\n"
            "copy = pickle.loads(pickle.dumps(attr))\n"
            "assert 'citecheck.checks.redirect' not in sys.modules\n"
            "import citecheck.checks.redirect as m\n"
            "assert copy.load() is m.check and attr.__module__ == m.check.__module__\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    attr = ModuleAttr("json", "dumps")
    assert attr({"a": [1]}, sort_keys=True) == '{"a": [1]}'  # calls through, arguments as given
    assert pickle.loads(pickle.dumps(attr)).load() is attr.load() is importlib.import_module("json").dumps
