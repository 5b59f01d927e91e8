"""Exception tree. Every expected error is one line on stderr and exit 2.

    CitecheckError
    ├── UsageError           bad option combination, unknown rule id/format
    ├── InputError           a file that cannot be read or parsed (missing, binary, bad UTF-8, too big)
    │   ├── CorpusError      a corpus that is not valid JSON / not an array of objects
    │   └── OutlineError     a harvest outline that is malformed
    ├── ConfigError          bad `.citecheck.yaml` / `[tool.citecheck]` / front matter
    ├── CacheError           the cache path holds something citecheck did not create (a directory,
    │                        another application's SQLite database, a file that is not SQLite)
    ├── PackError            a malformed YAML rule pack
    ├── RegistryError        duplicate rule ids/slugs, a rule whose id letter mismatches its stage
    ├── LeakError            write's rendered memo would link outside the corpus: nothing is written (exit 1)
    ├── ProviderError        a search provider or LLM endpoint failed (outage, auth, bad JSON)
    │   └── MissingKeyError  the provider's API key environment variable is not set
    └── NetworkUnavailableError  no host the run tried answered: nothing is judged or written
"""
from __future__ import annotations


class CitecheckError(Exception):
    """Base of every error citecheck expects; the CLI prints `str(err)` and exits 2."""

    exit_code = 2

    def __str__(self) -> str:
        # Always one line: parser messages (YAML, JSON) may carry newlines and carets.
        return " ".join(super().__str__().split())


class UsageError(CitecheckError):
    pass


class LeakError(CitecheckError):
    """The gate's last check failed: the memo would render a link outside the corpus. The draft
    broke the contract (exit 1, like any other breach), and no memo is written."""

    exit_code = 1


class InputError(CitecheckError):
    pass


class CacheError(CitecheckError):
    """Not InputError: a run goes on without a cache it cannot create, but stops before touching a
    file it does not own."""


class CorpusError(InputError):
    pass


class OutlineError(InputError):
    pass


class ConfigError(CitecheckError):
    pass


class PackError(CitecheckError):
    pass


class RegistryError(CitecheckError):
    pass


class ProviderError(CitecheckError):
    pass


class MissingKeyError(ProviderError):
    pass


class NetworkUnavailableError(CitecheckError):
    pass


def where(path: str, line: int | None = None) -> str:
    """`path:line` for messages, or just `path`."""
    return f"{path}:{line}" if line else path
