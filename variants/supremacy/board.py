"""The Supremacy board as data: superpowers, territories, seas, ports and the company deck.

A board file is TOML (schema in ``world.toml``'s header).  :func:`load_board` validates it:
unknown ids, asymmetric adjacency, ports into dark-blue seas and companies in unknown zones are
errors naming the entry.  The board knows nothing of rules or state.
"""

from __future__ import annotations

import tomllib
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dipsat.errors import DipsatError
from dipsat.io.files import FileAccess, current_access, read_named

Resource = Literal["grain", "oil", "mineral"]
RESOURCES: tuple[Resource, ...] = ("grain", "oil", "mineral")
DEFAULT_BOARD = Path(__file__).with_name("world.toml")
BUNDLED_BOARDS = {"world": DEFAULT_BOARD}


class BoardError(DipsatError):
    """A board file is broken."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Superpower(_Strict):
    name: str


class Sea(_Strict):
    name: str
    light_blue: bool
    adjacent: tuple[str, ...] = ()


class Territory(_Strict):
    name: str
    home: str = ""
    adjacent: tuple[str, ...] = ()
    ports: tuple[str, ...] = ()
    coasts: tuple[str, ...] = ()


class Company(_Strict):
    id: str
    zone: str
    resource: Resource
    superpower: str = ""


class Board(_Strict):
    title: str = ""
    superpowers: dict[str, Superpower]
    seas: dict[str, Sea] = Field(default_factory=dict)  # a board without seas needs no [seas]
    territories: dict[str, Territory]
    companies: tuple[Company, ...] = Field(default=())

    # ---- queries -------------------------------------------------------------------------
    def zone_name(self, zone: str) -> str:
        if zone in self.territories:
            return self.territories[zone].name
        if zone in self.seas:
            return self.seas[zone].name
        return zone

    def is_sea(self, zone: str) -> bool:
        return zone in self.seas

    def homes(self, power: str) -> list[str]:
        return sorted(t for t, d in self.territories.items() if d.home == power)

    def company(self, cid: str) -> Company:
        for c in self.companies:
            if c.id == cid:
                return c
        raise BoardError(f"unknown company {cid!r}")

    def port_territories(self, sea: str) -> list[str]:
        return sorted(t for t, d in self.territories.items() if sea in d.ports)

    def lookup(self, text: str) -> str:
        """A zone id from its id or name (case-insensitive); an error quoting the text otherwise."""
        key = text.strip().lower()
        names = [(zid, t.name) for zid, t in self.territories.items()] + [(zid, s.name) for zid, s in self.seas.items()]
        for zid, name in names:
            if key in (zid.lower(), name.lower()):
                return zid
        raise BoardError(f"unknown zone {text!r}")

    def lookup_power(self, text: str) -> str:
        key = text.strip().lower()
        for pid, p in self.superpowers.items():
            if key in (pid.lower(), p.name.lower()):
                return pid
        raise BoardError(f"unknown superpower {text!r}; superpowers: {', '.join(self.superpowers)}")

    # ---- validation ----------------------------------------------------------------------
    def check(self) -> "Board":
        problems: list[str] = []
        for sid, s in self.seas.items():
            for o in s.adjacent:
                if o not in self.seas:
                    problems.append(f"sea {sid}: unknown adjacent sea {o!r}")
                elif sid not in self.seas[o].adjacent:
                    problems.append(f"sea {sid}: adjacent to {o} but {o} does not list {sid}")
        for tid, t in self.territories.items():
            if tid in self.seas:
                problems.append(f"territory {tid}: also a sea id")
            if t.home and t.home not in self.superpowers:
                problems.append(f"territory {tid}: unknown superpower {t.home!r}")
            for o in t.adjacent:
                if o not in self.territories:
                    problems.append(f"territory {tid}: unknown adjacent territory {o!r}")
                elif tid not in self.territories[o].adjacent:
                    problems.append(f"territory {tid}: adjacent to {o} but {o} does not list {tid}")
            for sea in (*t.ports, *t.coasts):
                if sea not in self.seas:
                    problems.append(f"territory {tid}: unknown sea {sea!r}")
            for sea in t.ports:
                if sea in self.seas and not self.seas[sea].light_blue:
                    problems.append(f"territory {tid}: port into {sea!r}, which is not a light-blue sea")
        seen: set[str] = set()
        for c in self.companies:
            if c.id in seen:
                problems.append(f"company {c.id}: duplicate id")
            seen.add(c.id)
            if c.zone not in self.territories and c.zone not in self.seas:
                problems.append(f"company {c.id}: unknown zone {c.zone!r}")
            if c.superpower and c.superpower not in self.superpowers:
                problems.append(f"company {c.id}: unknown superpower {c.superpower!r}")
        for p in self.superpowers:
            if not self.homes(p):
                problems.append(f"superpower {p}: no home territory")
        if problems:
            raise BoardError("board: " + "; ".join(problems))
        return self


@cache
def load_board(path: str | None = None) -> Board:
    """The board in the file ``path`` (default: the bundled schematic world), validated.  The
    path is taken as given: a board a request names goes through :func:`board_named`."""
    p = Path(path) if path else DEFAULT_BOARD
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardError(f"{p}: cannot read: {exc.strerror}") from None
    return parse_board(text, str(p))


def board_named(name: str | None) -> Board:
    """The board a request names (a state's or a set-up's ``board``): the bundled world when
    none or ``"world"``, else a file by the rules of :mod:`dipsat.io.files` (next to the request
    file, or in a folder allowed with ``--allow-files``; regular, within the size limit)."""
    if name is None:
        return load_board()
    return _board_named(name, current_access())


@lru_cache(maxsize=32)
def _board_named(name: str, access: FileAccess) -> Board:
    found = read_named(name, "board", BUNDLED_BOARDS)
    return load_board() if found.path == DEFAULT_BOARD else parse_board(found.text, f"board {name!r}")


def parse_board(text: str, where: str) -> Board:
    """The board a TOML text describes, validated; errors start with ``where``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(f"{where}: not valid TOML: {exc}") from None
    try:
        return Board.model_validate(data).check()
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(x) for x in first["loc"])
        raise BoardError(f"{where}: {loc}: {first['msg']}") from None
