"""The page stage's spool: pickled values in files of a private temporary directory, on their way
to the page workers (`citecheck.pagestage`). Its modules are imported when a spool is used: an
offline audit's in-process page stage never makes one."""
from __future__ import annotations

import os
from typing import Any


class Spool:
    """Batches on their way to the workers, in files of a private temporary directory: bodies
    waiting for a busy worker (a loaded machine, a slow parse) sit in the page cache, not in the
    parent's memory; so does the run's `Judges` the workers start from. A batch that cannot be
    written travels inline instead. The directory's name is drawn at once (the workers are told
    it, to remove it should the parent die) but it is made only with the first file, so a run
    killed before any leaves nothing behind."""

    def __init__(self) -> None:
        import secrets
        import tempfile

        self.folder = os.path.join(tempfile.gettempdir(), f"citecheck-pages-{secrets.token_hex(8)}")
        self.count = 0

    def put(self, items: Any) -> Any:
        """`items` written to a new file of the spool: its path, or `items` itself when it cannot be."""
        import pickle

        path = os.path.join(self.folder, str(self.count))
        self.count += 1
        try:
            if self.count == 1:
                os.mkdir(self.folder, 0o700)  # as tempfile.mkdtemp: private, and never an existing one
            with open(path, "wb") as out:
                pickle.dump(items, out, protocol=pickle.HIGHEST_PROTOCOL)
        except OSError:
            return items
        return path

    @staticmethod
    def take(path: str) -> Any:
        """In a worker: the batch at `path`, which is removed (our own file, written by the parent)."""
        import pickle

        with open(path, "rb") as spooled:
            items = pickle.load(spooled)
        os.unlink(path)
        return items

    def close(self) -> None:
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)
