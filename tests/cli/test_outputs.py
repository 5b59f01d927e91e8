"""Outputs never destroy inputs or follow a planted link (issue 26, item 8): an output path that is an
input (or another output) is refused; a symlink is followed only as the kernel's protected_symlinks rule
allows; no directory is created for a dangling link's target; an existing file keeps owner and mode."""
from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from citecheck._util.atomic import atomic_write, refuse_same_file, resolve_output
from citecheck.cli import main
from citecheck.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "fixtures" / "memos" / "corpus.json"
OTHER = 4242  # a uid that is not ours
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="planting another user's link needs root (lchown)")


@pytest.fixture
def sticky(tmp_path: Path) -> Iterator[Path]:
    """A /tmp-like directory: world-writable, sticky, owned by root."""
    folder = tmp_path / "shared-tmp"
    folder.mkdir()
    os.chmod(folder, 0o1777)
    yield folder


def _secret(tmp_path: Path) -> Path:
    secret = tmp_path / "root-only"
    secret.mkdir(exist_ok=True)
    target = secret / "shadow"
    target.write_text("root:secret\n")
    os.chmod(target, 0o600)
    return target


@as_root
def test_a_link_another_user_planted_in_a_sticky_dir_is_not_followed(tmp_path: Path, sticky: Path) -> None:
    """Issue 26, failure 8: as root, `-o` followed a symlink another user planted in /tmp: a root-only file
    was replaced and its owner changed."""
    target = _secret(tmp_path)
    link = sticky / "report.sarif"
    link.symlink_to(target)
    os.lchown(link, OTHER, OTHER)
    with pytest.raises(InputError, match="protected_symlinks"):
        atomic_write(link, "pwned")
    assert target.read_text() == "root:secret\n" and os.stat(target).st_uid == 0
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600 and sorted(os.listdir(sticky)) == ["report.sarif"]


@as_root
def test_a_planted_link_to_a_directory_is_not_followed_either(tmp_path: Path, sticky: Path) -> None:
    target = _secret(tmp_path)
    link = sticky / "out"
    link.symlink_to(target.parent)
    os.lchown(link, OTHER, OTHER)
    with pytest.raises(InputError, match="protected_symlinks"):
        atomic_write(link / "shadow", "pwned")
    assert target.read_text() == "root:secret\n"


@as_root
@pytest.mark.parametrize("link_owner, dir_owner", [(0, 0), (OTHER, OTHER)])
def test_links_the_kernel_would_follow_are_followed(tmp_path: Path, sticky: Path, link_owner: int,
                                                    dir_owner: int) -> None:
    """The link's owner is the user (root), or the sticky directory's owner."""
    os.chown(sticky, dir_owner, dir_owner)
    real = tmp_path / "real.json"
    real.write_text("old")
    link = sticky / "latest.json"
    link.symlink_to(real)
    os.lchown(link, link_owner, link_owner)
    atomic_write(link, "new")
    assert real.read_text() == "new" and link.is_symlink()


@as_root
def test_a_link_in_a_directory_that_is_not_sticky_is_followed(tmp_path: Path) -> None:
    folder = tmp_path / "team"
    folder.mkdir()
    os.chmod(folder, 0o777)  # world-writable but not sticky: the kernel follows any link here
    real = tmp_path / "real.json"
    link = folder / "latest.json"
    link.symlink_to(real)
    os.lchown(link, OTHER, OTHER)
    atomic_write(link, "new")
    assert real.read_text() == "new"


def test_a_dangling_link_never_creates_directories(tmp_path: Path) -> None:
    link = tmp_path / "report.json"
    link.symlink_to(tmp_path / "made" / "by" / "citecheck" / "report.json")
    with pytest.raises(InputError, match="no directory is created"):
        atomic_write(link, "x")
    assert not (tmp_path / "made").exists()
    nested = tmp_path / "out"
    nested.symlink_to(tmp_path / "gone")
    with pytest.raises(InputError, match="no directory is created"):
        atomic_write(nested / "sub" / "r.json", "x")
    assert not (tmp_path / "gone").exists()


def test_a_plain_new_path_still_gets_its_directories(tmp_path: Path) -> None:
    atomic_write(tmp_path / "reports" / "2026" / "r.json", "x")
    assert (tmp_path / "reports" / "2026" / "r.json").read_text() == "x"


@as_root
def test_an_existing_file_keeps_its_owner_and_mode(tmp_path: Path) -> None:
    target = tmp_path / "team-report.json"
    target.write_text("old")
    os.chown(target, OTHER, OTHER + 1)
    os.chmod(target, 0o640)
    atomic_write(target, "new")
    st = os.stat(target)
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (OTHER, OTHER + 1, 0o640)
    assert target.read_text() == "new" and sorted(os.listdir(tmp_path)) == ["team-report.json"]


def test_an_owner_that_cannot_be_given_back_is_kept_by_writing_in_place(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Not root: a file another user owns (group-writable) is written in place, never re-owned."""
    target = tmp_path / "theirs.json"
    target.write_text("old")
    inode = os.stat(target).st_ino
    real_stat = os.lstat

    def owned_by_other(path: object, *args: object, **kwargs: object) -> os.stat_result:
        st = real_stat(path, *args, **kwargs)  # type: ignore[arg-type]
        if os.fspath(path) == str(target):  # type: ignore[arg-type]
            fields = list(st)
            fields[4] = OTHER
            return os.stat_result(fields)
        return st

    def refuse(*args: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr("citecheck._util.atomic.os.lstat", owned_by_other)
    monkeypatch.setattr("citecheck._util.atomic.os.fchown", refuse)
    atomic_write(target, "new")
    assert target.read_text() == "new" and os.stat(target).st_ino == inode
    assert sorted(os.listdir(tmp_path)) == ["theirs.json"]


def test_resolve_output_follows_relative_links_and_dotdot_as_the_kernel_does(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "link").symlink_to("a/b")
    assert resolve_output(tmp_path / "link" / ".." / "x.json") == (tmp_path / "a" / "x.json", True)
    assert resolve_output(tmp_path / "new" / "x.json") == (tmp_path / "new" / "x.json", False)


def test_refuse_same_file_sees_links_and_hard_links(tmp_path: Path) -> None:
    memo = tmp_path / "memo.md"
    memo.write_text("x")
    (tmp_path / "alias.md").symlink_to(memo)
    os.link(memo, tmp_path / "hard.md")
    for same in (memo, tmp_path / "alias.md", tmp_path / "hard.md", tmp_path / "." / "memo.md"):
        with pytest.raises(InputError, match="refusing to overwrite"):
            refuse_same_file([("-o", str(same))], [str(memo)])
    with pytest.raises(InputError, match="--report"):
        refuse_same_file([("-o", str(tmp_path / "r.json")), ("--report", str(tmp_path / "r.json"))], [str(memo)])
    refuse_same_file([("-o", str(tmp_path / "out.md")), ("--report", "/dev/stdout")], [str(memo), "-", None])


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stderr


def test_write_output_that_is_the_corpus_is_refused(tmp_path: Path) -> None:
    """Issue 26, failure 8: `write -o corpus.json` overwrote the corpus."""
    corpus = tmp_path / "corpus.json"
    corpus.write_bytes(CORPUS.read_bytes())
    draft = tmp_path / "draft.md"
    draft.write_text("# Memo\n\nTrucking [src-001].\n")
    for option in ("-o", "--report"):
        other = ["-o", str(tmp_path / "memo.md")] if option == "--report" else []
        code, err = _invoke("write", str(draft), "--corpus", str(corpus), *other, option, str(corpus))
        assert code == 2 and "refusing to overwrite" in err and len(err.strip().splitlines()) == 1, err
        assert corpus.read_bytes() == CORPUS.read_bytes()
    code, err = _invoke("write", str(draft), "--corpus", str(corpus), "-o", str(draft))
    assert code == 2 and draft.read_text() == "# Memo\n\nTrucking [src-001].\n"


def test_audit_output_that_is_an_audited_file_is_refused(tmp_path: Path) -> None:
    """Issue 26, failure 8: `audit memo.md -o memo.md` replaced the memo with its report."""
    memo = tmp_path / "memo.md"
    memo.write_text("# Memo\n\nSee https://example.com/x.\n")
    for target in (memo, tmp_path):
        code, err = _invoke("audit", "--offline", str(target), "-o", str(memo), "--format", "json")
        assert code == 2 and "refusing to overwrite" in err, err
    corpus = tmp_path / "corpus.json"
    corpus.write_bytes(CORPUS.read_bytes())
    code, err = _invoke("audit", "--offline", str(memo), "--corpus", str(corpus), "-o", str(corpus))
    assert code == 2 and corpus.read_bytes() == CORPUS.read_bytes()
    assert memo.read_text() == "# Memo\n\nSee https://example.com/x.\n"
    code, _ = _invoke("audit", "--offline", str(memo), "-o", str(tmp_path / "report.json"), "--format", "json")
    assert code == 1 and json.loads((tmp_path / "report.json").read_text())["findings"]


def test_harvest_resolve_prompt_curate_and_baseline_refuse_an_input_as_output(tmp_path: Path) -> None:
    urls = tmp_path / "urls.md"
    urls.write_text("- https://www.sec.gov/x\n")
    memo = tmp_path / "memo.md"
    memo.write_text("# Memo\n\nSee https://example.com/x.\n")
    corpus = tmp_path / "corpus.json"
    corpus.write_bytes(CORPUS.read_bytes())
    outline = ROOT / "examples" / "pipeline" / "outline.yaml"
    cases = [
        ["harvest", "--urls", str(urls), "-o", str(tmp_path / "c.json"), "--rejects", str(urls)],
        ["harvest", "--urls", str(urls), "-o", str(urls)],
        ["resolve", str(memo), "--corpus", str(corpus), "--provider", "directory", "-o", str(memo)],
        ["prompt", str(outline), "--section", "market", "--corpus", str(corpus), "-o", str(corpus)],
        ["curate", str(memo), "-o", str(memo)],
        ["baseline", str(memo), "--offline", "-o", str(memo)],
    ]
    for args in cases:
        code, err = _invoke(*args)
        assert code == 2 and "refusing to overwrite" in err, (args, err)
    assert memo.read_text() == "# Memo\n\nSee https://example.com/x.\n" and corpus.read_bytes() == CORPUS.read_bytes()
    assert urls.read_text() == "- https://www.sec.gov/x\n"


@as_root
def test_audit_report_into_a_planted_link_is_one_line_and_exit_2(tmp_path: Path, sticky: Path) -> None:
    target = _secret(tmp_path)
    link = sticky / "citecheck.sarif"
    link.symlink_to(target)
    os.lchown(link, OTHER, OTHER)
    memo = tmp_path / "memo.md"
    memo.write_text("# Memo\n\nSee https://example.com/x.\n")
    code, err = _invoke("audit", "--offline", str(memo), "--format", "sarif", "-o", str(link))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "protected_symlinks" in err, err
    assert target.read_text() == "root:secret\n" and os.stat(target).st_uid == 0


@as_root
def test_the_id_registry_never_follows_a_planted_link(tmp_path: Path, sticky: Path) -> None:
    """Issue 26, failure 8: harvest's `.ids` followed a symlink another user planted in a sticky dir."""
    from citecheck.harvest.ids import read_registry, write_registry

    target = _secret(tmp_path)
    corpus = sticky / "corpus.json"
    link = sticky / "corpus.json.ids"
    link.symlink_to(target)
    os.lchown(link, OTHER, OTHER)
    with pytest.raises(InputError, match="protected_symlinks"):
        write_registry(corpus, read_registry(tmp_path / "none.json"))
    assert target.read_text() == "root:secret\n" and os.stat(target).st_uid == 0


def test_mcp_rejects_that_name_the_corpus_or_the_outline_are_refused(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.json"
    corpus.write_bytes(CORPUS.read_bytes())
    outline = tmp_path / "outline.yaml"
    outline.write_bytes((ROOT / "examples" / "pipeline" / "outline.yaml").read_bytes())
    for args in (["--rejects", str(corpus)], ["--rejects", f"{corpus}.ids"], ["--outline", str(outline), "--rejects",
                                                                           str(outline)]):
        code, err = _invoke("mcp", "--corpus", str(corpus), *args)
        assert code == 2 and "refusing to overwrite" in err, (args, err)
    assert corpus.read_bytes() == CORPUS.read_bytes()
