"""Which packages other than citecheck declare rules: a cheap look before the entry-point scan.

Rules register through the `citecheck.rules` entry point group; citecheck's own (`builtin =
citecheck.checks`) are always registered. Asking `importlib.metadata` for the group costs an
offline audit ~25 ms (its import pulls in `email`, `zipfile` and `csv`, then it reads every installed
distribution's metadata), a tenth of the run. Almost every environment has no third-party rule
package, and that is cheap to see: read the `entry_points.txt` of each `*.dist-info` and
`*.egg-info` folder on `sys.path` (the folders `importlib.metadata`'s path finder reads) and look
for a `[citecheck.rules]` entry naming anything but `citecheck.checks`. When one is there, or
anything this look cannot see through is (a zip or egg on the path, another metadata finder on
`sys.meta_path`), the registry asks `importlib.metadata` as before.
"""
from __future__ import annotations

import os
import sys
from importlib.machinery import PathFinder

GROUP = "citecheck.rules"
BUILTIN = "citecheck.checks"


def may_have_plugins() -> bool:
    """False only when no distribution on `sys.path` declares a `citecheck.rules` entry point
    other than citecheck's own; True when one might (then `importlib.metadata` decides)."""
    if any(finder is not PathFinder and hasattr(finder, "find_distributions") for finder in sys.meta_path):
        return True
    for entry in sys.path:
        try:
            with os.scandir(entry or ".") as children:
                names = [child.name for child in children]
        except NotADirectoryError:  # a zip (or any file) on the path: importlib.metadata can read it, we do not
            return os.path.exists(entry)
        except OSError:  # missing or unreadable: importlib.metadata skips it too
            continue
        for name in names:
            lowered = name.lower()
            if lowered.endswith(".egg"):
                return True
            if lowered.endswith((".dist-info", ".egg-info")) and _declares_plugin(os.path.join(entry or ".", name)):
                return True
    return False


def _declares_plugin(folder: str) -> bool:
    try:
        with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as file:
            text = file.read()
    except (FileNotFoundError, NotADirectoryError):
        return False
    except (OSError, UnicodeDecodeError):  # unreadable here: let importlib.metadata judge it
        return True
    if GROUP not in text:
        return False
    section = ""
    for line in text.splitlines():  # read as importlib.metadata's `Sectioned` reads it
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
        elif section == GROUP and line and not line.startswith("#"):
            value = line.partition("=")[2].partition("[")[0].strip()  # `module [extra]`: the module
            if value != BUILTIN:
                return True
    return False
