"""The CLI's cache of parsed rule packs: same packs as a fresh parse, never an answer for other text."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from citecheck.cache import packs as packcache
from citecheck.cache.packs import PackCache
from citecheck.engine import packs
from citecheck.engine.packs import load_packs
from citecheck.errors import PackError

USER_PACK = "pack: placeholder\nkind: data\ndata:\n  domains: [acme-invented.example]\n"


def _no_parse(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record (and still perform) every real parse."""
    parsed: list[str] = []
    real = packs._parse

    def parse(file: Path, text: str) -> object:
        parsed.append(file.name)
        return real(file, text)
    monkeypatch.setattr(packs, "_parse", parse)
    return parsed


def test_a_second_run_parses_nothing_and_gets_the_same_packs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user = tmp_path / "rules"
    user.mkdir()
    (user / "mine.yaml").write_text(USER_PACK)
    fresh = load_packs([user])
    parsed = _no_parse(monkeypatch)
    first = load_packs([user], PackCache(tmp_path / "packs.json"))
    assert len(parsed) == len(first.files) and (tmp_path / "packs.json").is_file()
    parsed.clear()
    second = load_packs([user], PackCache(tmp_path / "packs.json"))
    assert parsed == []
    assert first == fresh and second == fresh
    assert "acme-invented.example" in second.data["placeholder"]["domains"]


def test_an_edited_pack_is_parsed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user = tmp_path / "rules"
    user.mkdir()
    pack = user / "mine.yaml"
    pack.write_text(USER_PACK)
    load_packs([user], PackCache(tmp_path / "packs.json"))
    stat = pack.stat()
    pack.write_text(USER_PACK.replace("acme-invented", "acme-imagined"))
    os.utime(pack, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same mtime: only the text differs
    parsed = _no_parse(monkeypatch)
    got = load_packs([user], PackCache(tmp_path / "packs.json"))
    assert parsed == ["mine.yaml"]
    domains = got.data["placeholder"]["domains"]
    assert "acme-imagined.example" in domains and "acme-invented.example" not in domains


def test_a_malformed_pack_is_an_error_on_every_run(tmp_path: Path) -> None:
    user = tmp_path / "rules"
    user.mkdir()
    (user / "bad.yaml").write_text("pack: placeholder\ndata: [unclosed\n")
    for _ in range(2):
        with pytest.raises(PackError, match=r"bad\.yaml:3: malformed pack"):
            load_packs([user], PackCache(tmp_path / "packs.json"))
    assert not (tmp_path / "packs.json").exists()  # a run that fails stores nothing


def test_only_what_json_keeps_exactly_is_stored(tmp_path: Path) -> None:
    cache = PackCache(tmp_path / "packs.json")
    dated = "pack: x\nwhen: 2024-05-01\n"
    keys = "pack: x\ndata: {1: one}\n"
    plain = "pack: x\ndata: {a: [1, 2.5, true, null, 'é', \"\\U0001F600\"]}\n"
    docs = {text: cache.parse(text, lambda t: packs._parse(Path("p.yaml"), t)) for text in (dated, keys, plain)}
    cache.save()
    stored = PackCache(tmp_path / "packs.json").docs
    assert set(stored) == {plain} and stored[plain] == docs[plain]
    assert type(docs[dated]["when"]).__name__ == "date" and docs[keys]["data"] == {1: "one"}
    assert packcache._json_exact(docs[plain]) and not packcache._json_exact(float("nan"))


@pytest.mark.parametrize("content", ["{not json", '{"format": 1, "docs": {}}', "[]", '{"format": 2, "parser": "x", "docs": 3}'])
def test_a_corrupt_or_foreign_cache_is_a_miss_and_is_rewritten(tmp_path: Path, content: str) -> None:
    path = tmp_path / "packs.json"
    path.write_text(content)
    assert PackCache(path).docs == {}
    assert load_packs(cache=PackCache(path)) == load_packs()
    assert PackCache(path).docs


def test_another_parser_empties_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "packs.json"
    load_packs(cache=PackCache(path))
    assert PackCache(path).docs
    monkeypatch.setattr(packcache, "_parser_identity", lambda: "another PyYAML")
    assert PackCache(path).docs == {}


def test_an_unwritable_cache_is_not_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    cache = PackCache(blocker / "citecheck" / "packs.json")  # its directory cannot be made
    assert load_packs(cache=cache) == load_packs()


def test_the_cache_keeps_the_most_recent_packs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packcache, "KEEP", 3)
    path = tmp_path / "packs.json"
    texts = [f"pack: p{i}\nkind: data\ndata: {{n: {i}}}\n" for i in range(5)]
    for text in texts:
        cache = PackCache(path)
        assert cache.parse(text, lambda t: packs._parse(Path("p.yaml"), t))["pack"] == text.split()[1]
        cache.save()
    assert list(PackCache(path).docs) == [texts[4], texts[3], texts[2]]
    cache = PackCache(path)
    cache.parse(texts[2], lambda t: pytest.fail("a kept pack is not parsed again"))
    cache.save()  # nothing new: the file is left as it was
    assert list(PackCache(path).docs) == [texts[4], texts[3], texts[2]]


def test_no_home_directory_means_no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("HOME", raising=False)

    def no_home(cls: type) -> Path:
        raise RuntimeError("Could not determine home directory.")
    monkeypatch.setattr(Path, "home", classmethod(no_home))
    assert PackCache.default() is None
    assert load_packs(cache=PackCache.default()) == load_packs()
