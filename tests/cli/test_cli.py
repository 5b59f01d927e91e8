"""The CLI contract: version, exit codes, selectors, output, stdin, config, suppression, crashes, bad input."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import netguard
import pytest
from click.testing import CliRunner, Result

import citecheck
from citecheck import __version__
from citecheck.config import build
from citecheck.engine.registry import Registry, build_registry
from citecheck.engine.rule import RuleSpec
from citecheck.models import Hit, Link, Severity
from citecheck.report.gate import exit_code

BAD = "# Memo\n\nRevenue doubled ([source](https://example.com/acme-report)).\n"
CLEAN = "# Memo\n\nThe filing is at [EDGAR](https://www.sec.gov/Archives/edgar/data/320193/).\n"
ONLY_U = ["--select", "U001,E"]  # keep expectations independent of the other rules in the registry


@pytest.fixture
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def cli(*args: str, stdin: str | None = None) -> Result:
    from citecheck.cli import main

    return CliRunner(env={"GITHUB_ACTIONS": None}).invoke(main, list(args), input=stdin)


def audit_json(*args: str, stdin: str | None = None) -> tuple[int, dict[str, Any]]:
    result = cli("audit", "--offline", "--format", "json", *args, stdin=stdin)
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def rules_of(payload: dict[str, Any]) -> list[str]:
    return [f["rule"] for f in payload["findings"]]


def assert_one_line_error(result: Result, *names: str) -> str:
    """Exit 2, exactly one `citecheck: error: …` line on stderr naming the input, nothing on stdout."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("citecheck: error: "), result.stderr
    for name in names:
        assert name in lines[0], lines[0]
    return lines[0]


# -- version and exit codes ------------------------------------------------------------------------------------

def test_version() -> None:
    result = cli("--version")
    assert result.exit_code == 0 and result.stdout.strip() == f"citecheck, version {__version__}"


def test_python_m_version(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "citecheck", "--version"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"citecheck, version {__version__}"


@pytest.mark.parametrize(("memo", "code"), [(CLEAN, 0), (BAD, 1), (None, 2)], ids=["clean", "findings", "missing"])
def test_exit_codes(cwd: Path, memo: str | None, code: int) -> None:
    if memo is not None:
        write(cwd / "memo.md", memo)
    assert cli("audit", "memo.md", "--offline", *ONLY_U).exit_code == code


@pytest.mark.parametrize(("severity", "fail_on", "code"), [
    ("warning", None, 0), ("warning", "warning", 1), ("warning", "info", 1), ("warning", "error", 0),
    ("info", "warning", 0), ("info", "info", 1), ("error", None, 1),
])
def test_fail_on(cwd: Path, severity: str, fail_on: str | None, code: int) -> None:
    write(cwd / "memo.md", BAD)
    write(cwd / ".citecheck.yaml", f"rules:\n  U001: {severity}\n")
    extra = ["--fail-on", fail_on] if fail_on else []  # explicit: a discovered config may not lower a severity
    assert cli("audit", "memo.md", "--offline", "--config", ".citecheck.yaml", *ONLY_U, *extra).exit_code == code


# -- selectors --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("token", ["U001", "u001", "placeholder-domain", "U", "U00"])
def test_ignore_by_id_slug_stage_or_prefix(cwd: Path, token: str) -> None:
    write(cwd / "memo.md", BAD)
    _, payload = audit_json("memo.md", "--ignore", token)
    assert "U001" not in rules_of(payload)


@pytest.mark.parametrize("token", ["U001", "placeholder-domain", "U", "U001,E"])
def test_select_by_id_slug_or_stage(cwd: Path, token: str) -> None:
    write(cwd / "memo.md", BAD)
    code, payload = audit_json("memo.md", "--select", token)
    assert code == 1 and "U001" in rules_of(payload)
    allowed = ("U", "E") if token in ("U", "U001,E") else ("U001", "E000")
    assert all(rule.startswith(allowed) for rule in rules_of(payload))


def test_select_other_stage_skips_u001(cwd: Path) -> None:
    write(cwd / "memo.md", BAD)
    code, payload = audit_json("memo.md", "--select", "E")
    assert code == 0 and payload["findings"] == []


@pytest.mark.parametrize(("option", "token"), [("--select", "Z999"), ("--ignore", "no-such-rule"), ("--select", "U9")])
def test_unknown_selector_is_a_one_line_usage_error(cwd: Path, option: str, token: str) -> None:
    write(cwd / "memo.md", BAD)
    assert_one_line_error(cli("audit", "memo.md", "--offline", option, token, "-o", "out.json"), token)
    assert not (cwd / "out.json").exists()


# -- output and stdin --------------------------------------------------------------------------------------------

def test_output_file_holds_exactly_the_report(cwd: Path) -> None:
    write(cwd / "memo.md", BAD)
    to_stdout = cli("audit", "memo.md", "--offline", "--format", "json", *ONLY_U)
    to_file = cli("audit", "memo.md", "--offline", "--format", "json", *ONLY_U, "-o", "reports/out.json")
    assert to_file.exit_code == to_stdout.exit_code == 1
    assert to_file.stdout == ""
    written = json.loads((cwd / "reports" / "out.json").read_text(encoding="utf-8"))
    printed = json.loads(to_stdout.stdout)
    for payload in (written, printed):
        payload["summary"]["duration_s"] = 0
    assert written == printed and written["findings"]
    assert os.listdir(cwd / "reports") == ["out.json"]  # no temp file left beside it


def test_failed_run_leaves_an_existing_output_untouched(cwd: Path) -> None:
    write(cwd / "out.json", "previous report\n")
    assert_one_line_error(cli("audit", "missing.md", "--offline", "-o", "out.json"), "missing.md")
    assert (cwd / "out.json").read_text(encoding="utf-8") == "previous report\n"
    assert os.listdir(cwd) == ["out.json"]


def test_interrupted_write_leaves_no_partial_file(cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(cwd / "memo.md", BAD)
    write(cwd / "out.json", "previous report\n")

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("citecheck._util.atomic.os.replace", refuse)
    assert_one_line_error(cli("audit", "memo.md", "--offline", *ONLY_U, "-o", "out.json"), "out.json")
    assert (cwd / "out.json").read_text(encoding="utf-8") == "previous report\n"
    assert sorted(os.listdir(cwd)) == ["memo.md", "out.json"]


def test_unwritable_output_path_is_a_one_line_error(cwd: Path) -> None:
    write(cwd / "memo.md", BAD)
    write(cwd / "afile", "x")
    assert_one_line_error(cli("audit", "memo.md", "--offline", *ONLY_U, "-o", "afile/out.json"), "afile/out.json")


def test_dash_reads_stdin(cwd: Path) -> None:
    code, payload = audit_json("-", *ONLY_U, stdin=BAD)
    assert code == 1
    assert [(f["rule"], f["path"], f["line"]) for f in payload["findings"]] == [("U001", "<stdin>", 3)]
    assert audit_json("-", *ONLY_U, stdin=CLEAN)[0] == 0


# -- bad input: one line naming the file, exit 2, no traceback, nothing written -----------------------------------

def _missing(d: Path) -> list[str]:
    return ["nope.md"]


def _empty_dir(d: Path) -> list[str]:
    write(d / "emptydir" / "notes.py", "print('no memo here')\n")
    return ["emptydir"]


def _binary(d: Path) -> list[str]:
    write(d / "image.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    return ["image.md"]


def _bad_utf8(d: Path) -> list[str]:
    write(d / "latin1.md", "# Caf\xe9\n".encode("latin-1"))
    return ["latin1.md"]


def _config_unknown_key(d: Path) -> list[str]:
    write(d / ".citecheck.yaml", "fail-on: error\nbogus-key: 1\n")
    write(d / "memo.md", BAD)
    return ["memo.md", ".citecheck.yaml:2", "bogus-key"]


def _config_bad_value(d: Path) -> list[str]:
    write(d / ".citecheck.yaml", "fail-on: sometimes\n")
    write(d / "memo.md", BAD)
    return ["memo.md", ".citecheck.yaml:1", "sometimes"]


def _config_bad_severity(d: Path) -> list[str]:
    write(d / ".citecheck.yaml", "rules:\n  U001:\n    severity: loud\n")
    write(d / "memo.md", BAD)
    return ["memo.md", ".citecheck.yaml", "loud"]


def _config_not_yaml(d: Path) -> list[str]:
    write(d / ".citecheck.yaml", "rules: [unclosed\n")
    write(d / "memo.md", BAD)
    return ["memo.md", ".citecheck.yaml"]


def _front_matter(d: Path) -> list[str]:
    write(d / "fm.md", "---\ntitle: [unclosed\n---\n# Memo\n")
    return ["fm.md:"]


def _corpus_input(d: Path) -> list[str]:
    write(d / "sourced_corpus.json", '[{"id": "src-001", "url": }]\n')
    return ["sourced_corpus.json:1"]


def _corpus_option(d: Path) -> list[str]:
    write(d / "memo.md", BAD)
    write(d / "corpus.json", '{"not": "a corpus"}')
    return ["memo.md", "--corpus", "corpus.json"]


def _too_big(d: Path) -> list[str]:
    write(d / ".citecheck.yaml", "max-file-size: 64\n")
    write(d / "big.md", BAD * 3)
    return ["big.md"]


BAD_INPUTS: dict[str, Callable[[Path], list[str]]] = {
    "missing-file": _missing, "dir-without-memos": _empty_dir, "binary-file": _binary, "invalid-utf8": _bad_utf8,
    "config-unknown-key": _config_unknown_key, "config-bad-value": _config_bad_value,
    "config-bad-severity": _config_bad_severity, "config-invalid-yaml": _config_not_yaml,
    "malformed-front-matter": _front_matter, "invalid-corpus-input": _corpus_input,
    "invalid-corpus-option": _corpus_option, "above-size-cap": _too_big,
}


@pytest.mark.parametrize("case", list(BAD_INPUTS), ids=list(BAD_INPUTS))
def test_bad_input_is_one_line_exit_2_and_writes_nothing(cwd: Path, case: str) -> None:
    args = BAD_INPUTS[case](cwd)
    named = [a for a in args if not a.startswith("-") and a != "memo.md"] or args
    for fmt in ("text", "json"):
        result = cli("audit", *args, "--offline", "--format", fmt, "-o", "out.json")
        line = assert_one_line_error(result)
        assert any(name in line for name in named), line
        assert not (cwd / "out.json").exists()
        assert not [p for p in os.listdir(cwd) if p.startswith(".out.json")]


# -- configuration -----------------------------------------------------------------------------------------------

def test_config_is_found_upward_from_the_working_directory(cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(cwd / ".citecheck.yaml", "rules:\n  U001: off\n")
    deep = cwd / "a" / "b"
    write(deep / "memo.md", BAD)
    monkeypatch.chdir(deep)
    found = cli("audit", "memo.md", "--offline", *ONLY_U)  # found, and not allowed to turn U001 off
    assert found.exit_code == 1 and f"{cwd / '.citecheck.yaml'}: rules.U001.enabled ignored" in found.stderr
    (cwd / ".citecheck.yaml").unlink()
    result = cli("audit", "memo.md", "--offline", *ONLY_U)
    assert result.exit_code == 1 and "ignored" not in result.stderr


def test_nearest_config_wins(cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(cwd / ".citecheck.yaml", "rules:\n  U001: off\n")
    write(cwd / "a" / ".citecheck.yaml", "fail-on: error\n")
    write(cwd / "a" / "memo.md", BAD)
    monkeypatch.chdir(cwd / "a")
    assert cli("audit", "memo.md", "--offline", *ONLY_U).exit_code == 1


def test_tool_citecheck_in_pyproject(cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(cwd / "pyproject.toml", '[project]\nname = "memos"\n\n[tool.citecheck]\nignore = ["placeholder-domain"]\n')
    write(cwd / "docs" / "memo.md", BAD)
    monkeypatch.chdir(cwd / "docs")
    _, payload = audit_json("memo.md")  # found; a discovered table may not ignore a rule
    assert "U001" in rules_of(payload)
    _, payload = audit_json("memo.md", "--config", "../pyproject.toml")
    assert "U001" not in rules_of(payload)
    write(cwd / "pyproject.toml", '[tool.citecheck]\nfail-on = "never"\n')
    assert_one_line_error(cli("audit", "memo.md", "--offline"), "pyproject.toml", "never")


def test_explicit_config_option(cwd: Path) -> None:
    write(cwd / "memo.md", BAD)
    write(cwd / "conf" / "ci.yaml", "ignore: [U001]\n")
    assert cli("audit", "memo.md", "--offline", "--config", "conf/ci.yaml", *ONLY_U).exit_code == 0
    assert_one_line_error(cli("audit", "memo.md", "--offline", "--config", "conf/none.yaml"), "conf/none.yaml")


def test_extends_strict_fails_on_warnings(cwd: Path) -> None:
    write(cwd / "memo.md", "https://example.com/x\n")
    write(cwd / ".citecheck.yaml", "rules: {U001: {severity: warning}}\n")
    code, payload = audit_json("memo.md", "--config", ".citecheck.yaml", *ONLY_U)
    assert code == 0 and rules_of(payload) == ["U001"]
    write(cwd / ".citecheck.yaml", "extends: strict\nrules: {U001: {severity: warning}}\n")
    result = cli("audit", "memo.md", "--offline", "--config", ".citecheck.yaml", *ONLY_U)
    assert result.exit_code == 1, result.output
    write(cwd / ".citecheck.yaml", "extends: lenient\n")
    assert_one_line_error(cli("audit", "memo.md", "--offline"), ".citecheck.yaml", "lenient")


# -- inline suppression ------------------------------------------------------------------------------------------

def _suppress(cwd: Path, directive: str, *extra: str) -> tuple[int, dict[str, Any]]:
    write(cwd / "memo.md", f"# Memo\n\n{directive}\nSee https://example.com/x.\n\nAnd https://example.org/y.\n")
    return audit_json("memo.md", *ONLY_U, *extra)


def test_disable_next_line_with_reason(cwd: Path) -> None:
    _, payload = _suppress(cwd, '<!-- citecheck: disable=U001 reason="quoted from the report" -->')
    assert [(f["rule"], f["line"]) for f in payload["findings"]] == [("U001", 6)]
    assert payload["summary"]["suppressed"] == 1
    _, payload = _suppress(cwd, '<!-- citecheck: disable=placeholder-domain reason="by slug" -->')
    assert [(f["rule"], f["line"]) for f in payload["findings"]] == [("U001", 6)]


def test_disable_file(cwd: Path) -> None:
    code, payload = _suppress(cwd, '<!-- citecheck: disable-file=U001 reason="a page about placeholders" -->')
    assert code == 0 and payload["findings"] == [] and payload["summary"]["suppressed"] == 2


def test_unknown_rule_in_directive_is_e001(cwd: Path) -> None:
    code, payload = _suppress(cwd, '<!-- citecheck: disable=U999 reason="typo" -->')
    assert code == 1
    assert sorted((f["rule"], f["line"]) for f in payload["findings"]) == [("E001", 3), ("U001", 4), ("U001", 6)]
    assert "U999" in next(f["message"] for f in payload["findings"] if f["rule"] == "E001")


def test_missing_reason_is_an_e002_error_and_does_not_suppress(cwd: Path) -> None:
    code, payload = _suppress(cwd, "<!-- citecheck: disable=U001 -->")
    assert code == 1 and payload["summary"]["suppressed"] == 0
    assert [(f["rule"], f["severity"], f["line"]) for f in payload["findings"]] == [
        ("E002", "error", 3), ("U001", "error", 4), ("U001", "error", 6)]
    assert "does not suppress" in payload["findings"][0]["message"]
    code, payload = _suppress(cwd, "<!-- citecheck: disable=U001 -->", "--ignore", "U001")
    assert code == 1 and rules_of(payload) == ["E002"]  # the directive is still wrong with the rule off


def test_expired_until_is_e002_and_stops_suppressing(cwd: Path) -> None:
    code, payload = _suppress(cwd, '<!-- citecheck: disable=U001 reason="temporary" until=2020-01-01 -->')
    assert code == 1
    assert sorted((f["rule"], f["line"]) for f in payload["findings"]) == [("E002", 3), ("U001", 4), ("U001", 6)]
    assert "2020-01-01" in next(f["message"] for f in payload["findings"] if f["rule"] == "E002")
    code, payload = _suppress(cwd, '<!-- citecheck: disable=U001 reason="temporary" until=2999-01-01 -->')
    assert [(f["rule"], f["line"]) for f in payload["findings"]] == [("U001", 6)]


# -- a crashing rule -----------------------------------------------------------------------------------------------

def _explode(link: Link, options: Any) -> Iterator[Hit]:
    raise KeyError("no front matter")
    yield  # pragma: no cover - makes this a generator like a real check


CRASHING = RuleSpec("U900", "always-crashes", "url", Severity.ERROR,
                    "Crashes on every link.\n\nFailing example: any.\nPassing example: none.", _explode,
                    origin="tests.test_cli")


def _registry_with_crash() -> Registry:
    base = build_registry()
    return Registry(tuple(sorted((*base.rules, CRASHING), key=lambda r: r.id)), base.packs)


def test_crashing_rule_becomes_e000_through_the_api(tmp_path: Path) -> None:
    memo = write(tmp_path / "memo.md", BAD)
    report = citecheck.audit([str(memo)], build({"select": ["U001", "U900", "E"]}), registry=_registry_with_crash())
    assert report.crashed
    crash = [f for f in report.findings if f.rule == "E000"]
    assert len(crash) == 1 and "U900" in crash[0].message and "KeyError" in crash[0].message
    assert crash[0].path == str(memo)
    assert "U001" in [f.rule for f in report.findings]  # the other rules still ran
    assert exit_code(report.findings, "error", report.crashed) == 2


def test_crashing_rule_exits_2_through_the_cli(cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(cwd / "memo.md", CLEAN)
    monkeypatch.setattr("citecheck._api.build_registry", lambda *a, **k: _registry_with_crash())
    result = cli("audit", "memo.md", "--offline", "--format", "json", "--select", "U900", "--ignore", "E")
    assert result.exit_code == 2 and "Traceback" not in result.output
    findings = json.loads(result.stdout)["findings"]
    assert [(f["rule"], f["path"]) for f in findings] == [("E000", "memo.md")]
    assert "always-crashes" in findings[0]["message"]


# -- offline means no socket -------------------------------------------------------------------------------------

def test_the_socket_guard_itself_trips(monkeypatch: pytest.MonkeyPatch) -> None:
    netguard.forbid_inet_sockets(monkeypatch)
    with pytest.raises(netguard.NetworkGuardError):
        socket.socket(socket.AF_INET, socket.SOCK_STREAM)


def test_offline_audit_opens_no_internet_socket(cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    more = "Also https://www.nature.com/articles/s41586-023-06291-2 and www.bbc.co.uk/news.\n"
    write(cwd / "memo.md", BAD + CLEAN + more)
    write(cwd / "sourced_corpus.json", json.dumps([{"id": "src-001", "url": "https://www.sec.gov/x"}]))
    netguard.forbid_inet_sockets(monkeypatch)
    for fmt in ("text", "json", "sarif", "github", "junit"):
        result = cli("audit", "memo.md", "sourced_corpus.json", "--offline", "--format", fmt)
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert result.exit_code in (0, 1), result.output
        if fmt != "text":  # machine formats: the payload on stdout, nothing else anywhere
            assert result.stderr == "" and result.stdout.startswith(("{", "<?xml", "::"))


def test_help_lists_each_command_once() -> None:
    from citecheck.cli import SUBCOMMANDS, main

    out = CliRunner().invoke(main, ["--help"]).stdout
    commands = [line.split()[0] for line in out.split("Commands:", 1)[1].splitlines() if line.strip()]
    for name in SUBCOMMANDS:
        assert commands.count(name) == 1, name


def test_user_options_of_a_page_rule_are_still_checked_offline(cwd: Path) -> None:
    """An offline run judges no page, yet a bad option the user wrote for a page rule still stops it
    (exit 2, one line naming the rule): a pre-commit hook must not hide it."""
    write(cwd / ".citecheck.yaml", "rules:\n  H003: {options: {extra_titles: ['(gone']}}\n")
    write(cwd / "m.md", "# memo\n")
    from citecheck.cli import main

    # explicit: a discovered config's rule options are ignored (it may not set them)
    result = CliRunner().invoke(main, ["audit", "--offline", "m.md", "--config", ".citecheck.yaml"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "rule H003 (soft-404): cannot prepare its options" in result.stderr
