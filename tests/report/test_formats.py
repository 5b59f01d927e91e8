"""Output formats are listed once, in the reporter registry (`citecheck.report.FORMATS`): the CLI's
choices, the golden files and the result cache are derived from it."""
from __future__ import annotations

import importlib
from pathlib import Path

import click

from citecheck.cli.audit import command as audit
from citecheck.cli.write import command as write
from citecheck.report import CHOICES, FORMATS
from citecheck.report.base import Reporter

ROOT = Path(__file__).resolve().parents[2]


def test_every_format_names_a_reporter() -> None:
    for name, spec in FORMATS.items():
        module, cls = spec.reporter.split(":")
        assert issubclass(getattr(importlib.import_module(module), cls), Reporter), name


def test_the_cli_offers_the_registered_formats() -> None:
    for command in (audit, write):
        option = next(p for p in command.params if p.name == "fmt")
        assert isinstance(option.type, click.Choice) and tuple(option.type.choices) == CHOICES == (*FORMATS, "auto")


def test_every_golden_format_has_its_golden_files() -> None:
    for name, spec in FORMATS.items():
        assert (ROOT / "tests" / "golden" / f"golden_memo.{name}").is_file() is spec.golden, name
