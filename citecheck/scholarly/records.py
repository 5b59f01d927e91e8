"""What a registry says about an identifier (`Lookup`) and the work it records (`Record`): facts,
never verdicts (the reference rules judge them against the memo's claim)."""
from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Author:
    """One creator as the registry records it: `family` when the registry separates it, else `literal`."""

    family: str = ""
    given: str = ""
    literal: str = ""

    @property
    def surname(self) -> str:
        """The family name, or the last word of a literal name ('Smith' of 'Smith J' stays 'Smith')."""
        if self.family:
            return self.family
        words = self.literal.split(",")[0].split() if "," in self.literal else self.literal.split()
        if len(words) >= 2 and words[-1].isupper() and len(words[-1]) <= 3:  # PubMed: 'Smith JA'
            return " ".join(words[:-1])
        return words[-1] if words else ""

    @property
    def display(self) -> str:
        if self.family:
            return f"{self.family}, {self.given}".rstrip(", ") if self.given else self.family
        return self.literal


@dataclass(frozen=True)
class Record:
    """A registered work: title(s), authors, years, venue, retraction facts, and where it came from."""

    registry: str  # crossref | datacite | csl | arxiv | pubmed
    title: str = ""
    titles: tuple[str, ...] = ()  # every title the registry gives (subtitles, alternative titles)
    authors: tuple[Author, ...] = ()
    year: int | None = None  # the year of publication the registry gives first
    years: tuple[int, ...] = ()  # every year it gives (print, online, issued, created, versions)
    venue: str = ""
    retracted: bool = False
    retraction: str = ""  # the notice's DOI or the registry's words
    abstract: str = ""
    doi: str = ""
    url: str = ""

    def cite(self, limit: int = 3) -> str:
        """'Family, Family & Family (Year). Title.' for fixes and reports."""
        names = [a.surname for a in self.authors[:limit]]
        who = ", ".join(names[:-1]) + f" & {names[-1]}" if len(names) > 1 else "".join(names)
        if len(self.authors) > limit:
            who = f"{names[0]} et al."
        year = f" ({self.year})" if self.year else ""
        return f"{who}{year}. {self.title}.".strip(". ") + "."

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Record:
        values = dict(data)
        values["authors"] = tuple(Author(**a) for a in values.get("authors", ()))
        values["titles"] = tuple(values.get("titles", ()))
        values["years"] = tuple(values.get("years", ()))
        return cls(**{k: v for k, v in values.items() if k in cls.__dataclass_fields__})


class Status(str, enum.Enum):
    """What the registry answered about an identifier."""

    FOUND = "found"  #: registered, with a record (or without one: `Lookup.record` is None)
    ABSENT = "absent"  #: the registry said authoritatively that the identifier does not exist
    UNVERIFIABLE = "unverifiable"  #: the registry could not answer (429, 5xx, timeout, refused)
    UNINDEXED = "unindexed"  #: searched for, no registry asked knows the work (never "does not exist")


@dataclass(frozen=True)
class Lookup:
    """One identifier's registry answer: `reason` says who answered what (for evidence)."""

    status: Status
    record: Record | None = None
    reason: str = ""
    registry: str = ""
    from_cache: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status.value, "record": self.record.to_dict() if self.record else None,
                "reason": self.reason, "registry": self.registry}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], from_cache: bool = False) -> Lookup:
        record = data.get("record")
        return cls(Status(data["status"]), Record.from_dict(record) if record else None, data.get("reason", ""),
                   data.get("registry", ""), from_cache)


@dataclass(frozen=True)
class Claim:
    """What the memo says about the work: only the fields it states are compared."""

    title: str = ""
    authors: tuple[str, ...] = ()  # as written: 'Smith, J.', 'J. Smith', 'Smith'
    et_al: bool = False
    year: int | None = None
    source: str = field(default="", compare=False)  # the text the claim was read from
    venue: str = field(default="", compare=False)  # the journal or proceedings named (shown, not compared)

    @property
    def empty(self) -> bool:
        return not (self.title or self.authors or self.year)
