"""Third-party rules: a package that declares a `citecheck.rules` entry point adds its rules.

The registry looks for such packages cheaply (`citecheck.engine.plugins`) before it asks
importlib.metadata; these tests install a plugin the way pip would (a `*.dist-info` folder with an
`entry_points.txt` next to the module on the path) and check that it is found, registered and run.
"""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from citecheck.engine import plugins
from citecheck.engine.registry import build_registry
from citecheck.errors import RegistryError

ROOT = Path(__file__).resolve().parent.parent
RULE = '''"""Links to acme-blog.com are not sources (a third-party rule).

Failing: `[x](https://acme-blog.com/a)`. Passing: `[x](https://www.bls.gov/cpi/)`.
"""
from citecheck.models import Hit

ID = "U901"
NAME = "no-acme-blog"
STAGE = "url"
SEVERITY = "warning"


def check(link, options):
    if "acme-blog.com" in link.url:
        yield Hit("acme-blog.com is not a source", link.location, link.url, evidence="acme-blog.com")
'''


def _install(site: Path, module: str, entry_points: str, source: str = RULE) -> None:
    (site / f"{module}.py").write_text(source, encoding="utf-8")
    dist = site / f"{module.replace('_', '-')}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def test_only_citecheck_own_rules_are_installed_here() -> None:
    from importlib.metadata import entry_points

    assert {ep.value for ep in entry_points(group=plugins.GROUP)} <= {plugins.BUILTIN}
    assert not plugins.may_have_plugins()


def test_a_plugin_package_registers_its_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install(tmp_path, "acme_rules_a", "[console_scripts]\nacme = acme_rules_a:main\n\n"
             "[citecheck.rules]\nacme = acme_rules_a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert plugins.may_have_plugins()
    rule = build_registry().get("U901")
    assert rule is not None and rule.name == "no-acme-blog" and rule.origin == "acme_rules_a"
    assert build_registry().get("U001") is not None  # the built-ins still register, once


def test_a_plugin_rule_runs_in_an_offline_audit(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _install(site, "acme_rules_b", "[citecheck.rules]\nacme = acme_rules_b\n")
    (tmp_path / "memo.md").write_text("# M\n\nSee [x](https://acme-blog.com/a) and [y](https://www.bls.gov/cpi/).\n")
    proc = subprocess.run([sys.executable, "-m", "citecheck", "audit", "--offline", "--format", "json", "memo.md"],
                          cwd=tmp_path, capture_output=True, text=True, check=False,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{site}:{ROOT}",
                               "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert '"rule": "U901"' in proc.stdout and '"line": 3' in proc.stdout, proc.stderr
    assert proc.returncode == 0  # a warning does not fail the default gate


def test_a_plugin_with_a_duplicate_id_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install(tmp_path, "acme_rules_c", "[citecheck.rules]\nacme = acme_rules_c\n", RULE.replace("U901", "U001"))
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RegistryError, match="duplicate rule 'u001'"):
        build_registry()


@pytest.mark.parametrize(("text", "declares"), [
    ("[citecheck.rules]\nbuiltin = citecheck.checks\n", False),
    ("[citecheck.rules]\nbuiltin = citecheck.checks [extra]\n", False),
    ("[console_scripts]\ncitecheck.rules = x:y\n", False),  # the group's name elsewhere is not the group
    ("[citecheck.rules]\n# mine = acme\n", False),
    ("[citecheck.verifiers]\nnli = acme:Nli\n", False),
    ("[ citecheck.rules ]\nmine = acme\n", False),  # a group named " citecheck.rules "
    ("[citecheck.rules]\nbuiltin = citecheck.checks\nmine=acme.rules\n", True),
])
def test_entry_points_files_are_read_as_importlib_metadata_reads_them(tmp_path: Path, text: str, declares: bool) -> None:
    from importlib.metadata import PathDistribution

    dist = tmp_path / "acme-1.0.dist-info"
    dist.mkdir()
    (dist / "entry_points.txt").write_text(text, encoding="utf-8")
    assert plugins._declares_plugin(str(dist)) is declares
    found = {ep.value.partition(" ")[0] for ep in PathDistribution(dist).entry_points if ep.group == plugins.GROUP}
    assert bool(found - {plugins.BUILTIN}) is declares


def test_what_the_cheap_look_cannot_read_goes_to_importlib_metadata(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "plugins.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("acme-1.0.dist-info/entry_points.txt", "[citecheck.rules]\nacme = acme\n")
    monkeypatch.syspath_prepend(str(archive))
    assert plugins.may_have_plugins()
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(archive)])
    assert not plugins.may_have_plugins()
    (tmp_path / "acme-1.0.egg").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    assert plugins.may_have_plugins()
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(tmp_path)])

    class Finder:
        @staticmethod
        def find_distributions(context: object = None) -> list[object]:
            return []
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder()])
    assert plugins.may_have_plugins()
