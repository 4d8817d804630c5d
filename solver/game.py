"""A game: phases in sequence, from a start position and one order set per phase.

Spring movement -> Spring retreats (only when units were dislodged) -> Fall movement -> Fall
retreats (likewise) -> supply centres change hands (a centre belongs to the power with a unit
in it) -> Winter adjustments (only when some power must build or disband) -> next year.  After
the Fall, a power that owns the variant's victory number of centres wins and the game ends.

A *saved game* (TOML or JSON) holds the variant, the rules, an optional start and the order
sets of the phases in turn; it may also hold the position expected after each phase, which a
replay checks (``dipsat play FILE``; ``--save OUT`` writes a saved game with those
checkpoints).  The same file replays to the same positions every time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

from pydantic import BaseModel, ConfigDict, Field

from .api import _power_name, build_position, load_model, read_data_file
from .errors import DipsatError, InputFileError
from .limits import DEFAULT_LIMITS, Limits, TurnTimeout, check_request_size, deadline
from .models import MovementResult, Outcome, Position
from .pipeline import Pipeline


class StartSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    year: Optional[int] = Field(default=None, ge=1, le=9999)
    season: str = "spring"
    units: dict[str, list[str]] = Field(default_factory=dict)
    owners: dict[str, list[str]] = Field(default_factory=dict)


class PhaseOrders(BaseModel):
    model_config = ConfigDict(extra="forbid")

    phase: Optional[str] = None  # e.g. "S1901M"; checked when given
    orders: dict[str, list[str]] = Field(default_factory=dict)
    expect_units: Optional[dict[str, list[str]]] = None  # position after the phase (checkpoint)


class SavedGame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    variant: str = "standard"
    rules: Optional[str] = None
    options: dict[str, Any] = Field(default_factory=dict)
    start: Optional[StartSpec] = None
    phases: list[PhaseOrders] = Field(default_factory=list)


class PhaseRecord(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str  # S1901M, S1901R, F1901M, F1901R, W1901A
    outcomes: tuple[Outcome, ...]
    after: Position
    centres: dict[str, int]  # after this phase
    result: Any = None  # MovementResult / RetreatResult / AdjustmentResult


SEASON_CODE = {"spring": "S", "fall": "F", "winter": "W", "year": "Y"}
PHASE_CODE = {"movement": "M", "retreat": "R", "adjustment": "A", "placement": "P"}


class Game:
    def __init__(self, variant: str = "standard", rules: Optional[str] = None, options: Optional[dict] = None,
                 start: Optional[StartSpec] = None):
        from dipsat.variants import find_variant

        self.variant = find_variant(variant)
        self.rules = self.variant.rules(rules, **(options or {}))
        self.pipeline = Pipeline(self.variant, self.rules)
        m = self.variant.map
        first = self.variant.movement_seasons[0]
        if start is None or not start.units:
            pos = self.variant.start_position()
            owners = {h: p for p, pw in m.powers.items() for h in pw.home}
            year = start.year if start and start.year else m.start_year
            season = start.season if start and start.season != "spring" else first
        else:
            from .api import TurnRequest, build_owners

            req = TurnRequest(variant=self.variant.name, units=start.units, owners=start.owners)
            pos = build_position(self.variant, req)
            owners = build_owners(self.variant, req)
            year = start.year or m.start_year
            season = start.season
        seasons = (*self.variant.movement_seasons, "winter")
        if season not in seasons:
            raise InputFileError(f"start.season: {season!r} is not one of {', '.join(seasons)}")
        self.year = year
        self.season = season
        self.phase = "adjustment" if season == "winter" else "movement"
        if self.variant.has_placement and (start is None or not start.units):
            self.phase = "placement"
        self.position = pos.model_copy(update={"owners": owners, "year": year, "season": season})
        self.history: list[PhaseRecord] = []
        self.winner: Optional[str] = None  # the winner, or "A+B" for a shared victory
        self.winners: tuple[str, ...] = ()  # the winner(s), one per power
        self.year_end_leaders: list[set[str]] = []
        self.claims: dict[str, str] = {}  # power -> the power it claims a shared victory with (this year)
        self._pending: Optional[MovementResult] = None

    # ------------------------------------------------------------------------------------------
    @property
    def phase_name(self) -> str:
        return f"{SEASON_CODE[self.season]}{self.year}{PHASE_CODE[self.phase]}"

    def centres(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for _, p in sorted(self.position.owners.items()):
            out[p] = out.get(p, 0) + 1
        return dict(sorted(out.items()))

    def _orders(self, orders: dict[str, list[str]]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for power, texts in orders.items():
            out.setdefault(_power_name(self.variant, power, f"orders of {self.phase_name}"), []).extend(texts)
        return out

    def step(self, orders: dict[str, list[str]]) -> PhaseRecord:
        """Adjudicate the current phase with ``orders`` and advance."""
        if self.winner:
            raise DipsatError(f"the game is over: {self.winner} has won")
        name = self.phase_name
        orders = self._orders(orders)
        v = self.variant
        orders, claims = v.take_claims(orders, name)
        self.claims.update(claims)
        pipe = self.pipeline
        if self.phase == "placement":
            res = pipe.placement(self.position, orders)
            self.position = res.after.model_copy(update={"owners": self.position.owners})
            self.year += 1
            self.phase = "movement"
        elif self.phase == "movement":
            res = pipe.movement(self.position, orders)
            after = res.after.model_copy(update={"owners": self.position.owners})
            self._pending = res if res.dislodged else None
            self.position = after
            if res.dislodged:
                self.phase = "retreat"
            else:
                self._end_of_season()
        elif self.phase == "retreat":
            assert self._pending is not None
            res = pipe.retreats(self._pending, orders)
            self.position = res.after.model_copy(update={"owners": self.position.owners})
            self._pending = None
            self._end_of_season()
        else:
            res = pipe.adjustments(self.position, orders)
            self.position = res.after
            self.season, self.year, self.phase = v.movement_seasons[0], self.year + 1, "movement"
        self.position = self.position.model_copy(update={"year": self.year, "season": self.season})
        rec = PhaseRecord(name=name, outcomes=res.outcomes, after=self.position, centres=self.centres(), result=res)
        self.history.append(rec)
        return rec

    def _end_of_season(self) -> None:
        seasons = self.variant.movement_seasons
        if self.season != seasons[-1]:
            self.season, self.phase = seasons[seasons.index(self.season) + 1], "movement"
            return
        if not self.variant.is_building_year(self.year):
            self.season, self.year, self.phase = seasons[0], self.year + 1, "movement"
            return
        # end of a building year: centres change hands, victory, then adjustments if needed
        owners = dict(self.position.owners)
        for u in self.position.units:
            if self.variant.map.provinces[u.province].supply_centre:
                owners[u.province] = u.power
        self.position = self.position.model_copy(update={"owners": owners})
        # victory: the variant's number of centres at the end of N consecutive years
        target = self.variant.victory_centres
        self.year_end_leaders.append({p for p, n in self.centres().items() if n >= target})
        need = self.variant.victory_years
        if len(self.year_end_leaders) >= need:
            lasting = set.intersection(*self.year_end_leaders[-need:])
            if lasting:
                self.winner = sorted(lasting, key=lambda p: (-self.centres()[p], p))[0]
                self.winners = (self.winner,)
        shared = self.variant.shared_victory_centres
        if shared and not self.winner:
            counts = self.centres()
            for a, b in sorted(self.claims.items()):
                if self.claims.get(b) == a and a < b and counts.get(a, 0) + counts.get(b, 0) >= shared:
                    self.winner = f"{a}+{b}"
                    self.winners = (a, b)
                    break
        self.claims = {}
        if self.needs_adjustment():
            self.season, self.phase = "winter", "adjustment"
        else:
            self.season, self.year, self.phase = seasons[0], self.year + 1, "movement"

    def needs_adjustment(self) -> bool:
        counts = self.centres()
        units: dict[str, int] = {}
        for u in self.position.units:
            units[u.power] = units.get(u.power, 0) + u.count
        for power in set(counts) | set(units):
            delta = counts.get(power, 0) - units.get(power, 0)
            if delta < 0:
                return True
            if delta > 0 and self.variant.build_sites(self.position, power):
                return True
        return False


def load_saved_game(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> SavedGame:
    """A saved game, read within ``limits`` (its size: ``max_file_bytes``; nesting depth)."""
    return load_model(path, SavedGame, read_data_file(path, limits, max_bytes=limits.max_file_bytes))


def units_by_power(pos: Position) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for u in pos.units:
        out.setdefault(u.power, []).append(u.short())
    return dict(sorted(out.items()))


def replay(saved: SavedGame, check: bool = True, on_progress: Optional[Callable[[], None]] = None,
           limits: Limits = DEFAULT_LIMITS) -> Game:
    """Play every phase of a saved game; with ``check``, compare each checkpoint.
    ``on_progress`` is called once per phase (progress bars).  Each phase keeps to ``limits``:
    its orders and saved position count against ``max_orders``, its adjudication against the
    wall-clock ``turn_time_limit``."""
    from .orders import parse_unit_spec

    game = Game(saved.variant, saved.rules, saved.options, saved.start)
    for i, ph in enumerate(saved.phases, start=1):
        if on_progress is not None:
            on_progress()
        if game.winner:
            raise InputFileError(f"phases[{i}]: the game ended in {game.history[-1].name} ({game.winner} won), but more phases follow")
        if ph.phase and ph.phase.upper() != game.phase_name:
            raise InputFileError(f"phases[{i}]: the file says {ph.phase!r}, but the game is at {game.phase_name}")
        check_request_size({"orders": ph.orders, "units": ph.expect_units or {}}, f"phases[{i}]", limits)
        try:
            with deadline(limits.turn_time_limit):
                rec = game.step(ph.orders)
        except TurnTimeout as exc:
            raise TurnTimeout(f"phases[{i}] ({game.phase_name}): {exc}") from None
        if check and ph.expect_units is not None:
            want = sorted((pw, parse_unit_spec(game.variant.notation, _power_name(game.variant, pw, "expect_units"), s).location)
                          for pw, lst in ph.expect_units.items() for s in lst)
            got = sorted((u.power, u.location) for u in rec.after.units)
            if want != got:
                raise InputFileError(f"phases[{i}] ({rec.name}): the replay does not reach the saved position: "
                                     f"missing {sorted(set(want) - set(got))}, unexpected {sorted(set(got) - set(want))}")
    return game


def to_saved(saved: SavedGame, game: Game) -> SavedGame:
    phases = [ph.model_copy(update={"phase": rec.name, "expect_units": units_by_power(rec.after)})
              for ph, rec in zip(saved.phases, game.history)]
    return saved.model_copy(update={"phases": phases})
