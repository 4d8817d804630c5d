"""The Supremacy state: every superpower's holdings, the market and the board it is played on.

Money is in millions of dollars ($7 billion = 7000).  Resources, nukes and L-Stars are counts in
the superpower's supply center (at most 12 of each, Supply Centers 2).  Armies are counts per
territory; navies are individuals (a navy carries up to 4 armies, Stage 5 "Board").  Market
positions are steps 1..18 of the value track (Market 3).
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from dipsat.errors import DipsatError

from .board import RESOURCES, Board, Resource, board_named

CAPACITY = 12  # Supply Centers 2: up to 12 nukes, 12 L-Stars, 12 Grain, 12 Oil, 12 Minerals
NAVY_CAPACITY = 4  # Stage 5, Board: each navy may only hold up to 4 armies
MAX_AMOUNT = 10 ** 9  # a bound on money (millions) and counts, far beyond any game: keeps the arithmetic exact in CP-SAT
MARKET_VALUES = (1, 5, 10, 25, 50, 50, 100, 100, 200, 200, 400, 400, 500, 600, 700, 800, 900, 1000)  # Market 3


class StateError(DipsatError):
    """A Supremacy state is impossible or malformed."""


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Navy(_M):
    sea: str
    armies: int = Field(default=0, ge=0, le=NAVY_CAPACITY)


class CompanyCard(_M):
    id: str
    face_up: bool = True
    tapped: bool = False


class Loan(_M):
    principal: int = Field(gt=0, le=MAX_AMOUNT)  # millions
    original: int = Field(gt=0, le=MAX_AMOUNT)
    collateral: Optional[list[str]] = Field(default=None, description="the companies the loan tapped (option "
                                            "tapping = 'loan_collateral'); untapped when it is repaid")

    @property
    def defaulted(self) -> bool:
        """Bank Loans: until paid back down to at least its original value."""
        return self.principal > self.original


class Holdings(_M):
    money: int = Field(default=0, ge=0, le=MAX_AMOUNT)
    grain: int = Field(default=0, ge=0, le=CAPACITY)
    oil: int = Field(default=0, ge=0, le=CAPACITY)
    mineral: int = Field(default=0, ge=0, le=CAPACITY)
    nukes: int = Field(default=0, ge=0, le=CAPACITY)
    lstars: int = Field(default=0, ge=0, le=CAPACITY)
    armies: dict[str, Annotated[int, Field(ge=0, le=MAX_AMOUNT)]] = Field(default_factory=dict)
    navies: list[Navy] = Field(default_factory=list)
    companies: list[CompanyCard] = Field(default_factory=list)
    loan: Optional[Loan] = None
    chits: int = Field(default=5, ge=0)

    @field_validator("companies", mode="before")
    @classmethod
    def _ids(cls, v: object) -> object:
        return [{"id": c} if isinstance(c, str) else c for c in v] if isinstance(v, list) else v

    def resource(self, r: Resource) -> int:
        return int(getattr(self, r))

    def forces(self) -> int:
        return sum(self.armies.values()) + len(self.navies) + sum(n.armies for n in self.navies)


class Blockade(_M):
    """Blockades and Sieges: a player-controlled foreign territory cut off by the players (``by``)
    who control every light-blue sea it has port access to."""

    zone: str
    by: list[str]


class Siege(_M):
    """Blockades and Sieges: a superpower's home territories cut off by the players (``by``) who
    control every light-blue sea they have port access to."""

    power: str
    by: list[str]


class CapturedCenter(_M):
    """Supply Centers 3-5: the supply center of a player removed from the game (controlling none of
    its home territories); who controls it (decided in Stage 2, option ``captured_supply_center``)
    and whether it is frozen ('until the next turn': ``frozen_until`` is that turn's number)."""

    controller: Optional[str] = None
    frozen_until: Optional[int] = None

    def frozen(self, turn: int) -> bool:
        return self.frozen_until is not None and turn < self.frozen_until


class State(_M):
    board: Optional[str] = Field(default=None, description="the bundled schematic world (default, or 'world'), or "
                                 "a board file's path: beside the request file, or in a folder allowed with --allow-files")
    turn: int = 1
    powers: dict[str, Holdings] = Field(default_factory=dict)
    market: dict[Resource, int] = Field(default_factory=lambda: {r: 9 for r in RESOURCES})
    blockades: list[Blockade] = Field(default_factory=list)
    sieges: list[Siege] = Field(default_factory=list)
    captured: dict[str, CapturedCenter] = Field(default_factory=dict, description="removed superpower -> its "
                                                "captured supply center")
    deck: list[str] = Field(default_factory=list, description="the companies in the resource deck (Setting Up 4: "
                            "'All remaining companies are shuffled into the resource deck'), in id order: nothing "
                            "the seed defines draws from it, so its order is drawn when something does")
    landings: dict[str, list[str]] = Field(default_factory=dict, description="power -> enemy territories where "
                                           "its armies landed by an airlift or amphibious assault this Stage 4")

    @field_validator("market")
    @classmethod
    def _steps(cls, v: dict[str, int]) -> dict[str, int]:
        for r, s in v.items():
            if not 1 <= s <= len(MARKET_VALUES):
                raise ValueError(f"market position of {r} is {s}; the track has steps 1..{len(MARKET_VALUES)}")
        missing = [r for r in RESOURCES if r not in v]
        if missing:  # Market 1: 'Every resource (Grain, Oil, and Mineral) has a current market value'
            raise ValueError(f"the market gives no position for {', '.join(missing)} (every resource has one)")
        return v

    def get_board(self) -> Board:
        return board_named(self.board)

    def value(self, r: Resource) -> int:
        return MARKET_VALUES[self.market[r] - 1]

    def holdings(self, power: str) -> Holdings:
        try:
            return self.powers[power]
        except KeyError:
            raise StateError(f"no superpower {power!r} in the state; powers: {', '.join(sorted(self.powers))}") from None

    # ---- control (option ``control = "forces"``) --------------------------------------------
    def occupants(self, zone: str) -> list[str]:
        out = []
        for p, h in sorted(self.powers.items()):
            if h.armies.get(zone, 0) > 0 or any(n.sea == zone for n in h.navies):
                out.append(p)
        return out

    def controller(self, zone: str) -> Optional[str]:
        occ = self.occupants(zone)
        if len(occ) == 1:
            return occ[0]
        if not occ:
            t = self.get_board().territories.get(zone)
            if t is not None and t.home and t.home in self.powers:
                return t.home
        return None

    def controlled(self, power: str) -> list[str]:
        b = self.get_board()
        return [z for z in [*sorted(b.territories), *sorted(b.seas)] if self.controller(z) == power]

    def check(self) -> "State":
        b = self.get_board()
        for p, h in self.powers.items():
            if p not in b.superpowers:
                raise StateError(f"unknown superpower {p!r}; superpowers: {', '.join(b.superpowers)}")
            for z, n in h.armies.items():
                if z not in b.territories:
                    raise StateError(f"{p}: armies in {z!r}, which is not a territory")
                if n < 0:
                    raise StateError(f"{p}: {n} armies in {z}")
            for nv in h.navies:
                if nv.sea not in b.seas:
                    raise StateError(f"{p}: a navy in {nv.sea!r}, which is not a sea")
            for c in h.companies:
                b.company(c.id)
        for bl in self.blockades:
            if bl.zone not in b.territories:
                raise StateError(f"blockade of {bl.zone!r}, which is not a territory")
            self._players(bl.by, f"blockade of {bl.zone}")
        for sg in self.sieges:
            self._players([sg.power, *sg.by], f"siege of {sg.power}")
        held = {c.id for h in self.powers.values() for c in h.companies}
        for cid in self.deck:
            b.company(cid)
            if cid in held:
                raise StateError(f"company {cid} is both in the resource deck and held by a player")
        for p, zones in self.landings.items():
            self._players([p], "landings")
            for z in zones:
                if z not in b.territories:
                    raise StateError(f"landings of {p}: {z!r} is not a territory")
        for removed, cc in self.captured.items():
            self._players([removed, *([cc.controller] if cc.controller else [])], f"captured supply center of {removed}")
        for z in [*b.territories, *b.seas]:
            occ = self.occupants(z)
            if len(occ) > 1:
                raise StateError(f"forces of {' and '.join(occ)} share {b.zone_name(z)}")
        return self

    def _players(self, powers: list[str], where: str) -> None:
        for p in powers:
            if p not in self.powers:
                raise StateError(f"{where}: {p!r} is not a player; players: {', '.join(sorted(self.powers))}")

    def blockade_of(self, zone: str) -> Optional[Blockade]:
        return next((x for x in self.blockades if x.zone == zone), None)

    def siege_of(self, power: str) -> Optional[Siege]:
        return next((x for x in self.sieges if x.power == power), None)

    def digest(self) -> str:
        """A stable digest of the state (the default random seed is derived from it)."""
        return hashlib.sha256(json.dumps(self.model_dump(mode="json"), sort_keys=True).encode()).hexdigest()[:16]

    def clean(self) -> "State":
        """The same state with empty army entries dropped (canonical form)."""
        s = self.model_copy(deep=True)
        for h in s.powers.values():
            h.armies = {z: n for z, n in sorted(h.armies.items()) if n}
        return s


def parse_state(data: object, where: str = "state") -> State:
    try:
        return State.model_validate(data).check()
    except ValidationError as exc:
        e = exc.errors()[0]
        loc = ".".join(str(x) for x in e["loc"])
        raise StateError(f"{where}: {loc}: {e['msg']} (got {e.get('input')!r})") from None


Kind = Literal["army", "navy"]
