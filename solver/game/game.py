"""A game: phases in sequence, from a start position and one order set per phase.

Which phases follow which is the variant's calendar (:mod:`dipsat.game.variant`); for DATC Diplomacy:
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
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional

from pydantic import BaseModel, ConfigDict

from dipsat.game.positions import _power_name, build_owners, build_position
from dipsat.game.request import TurnRequest, load_model, read_data_file, same_phase_label
from dipsat.game.saved import PhaseOrders, SavedGame, StartSpec
from dipsat.errors import DipsatError, InputFileError
from dipsat.limits import DEFAULT_LIMITS, Limits, TurnTimeout, check_request_size, deadline
from dipsat.models import Position
from dipsat.outcomes import TaggedOutcome
from dipsat.game.variant import Calendar
from dipsat.game.pipeline import Pipeline

if TYPE_CHECKING:
    from dipsat.rules import RuleOptions
    from dipsat.game.variant import Variant


# (a saved game's data model is dipsat.game.request's; its names are read from here too)
__all__ = ["Game", "PhaseOrders", "PhaseRecord", "SavedGame", "StartSpec", "load_saved_game", "replay", "to_saved",
           "units_by_power"]


class PhaseRecord(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str  # S1901M, S1901R, F1901M, F1901R, W1901A
    outcomes: tuple[TaggedOutcome, ...]  # read from data by their kind tags
    after: Position
    centres: dict[str, int]  # after this phase
    result: Any = None  # MovementResult / RetreatResult / AdjustmentResult


class Game:
    """A game of any variant: the phases of the variant's calendar (the record's ``calendar`` hook,
    :mod:`dipsat.game.variant`) played in turn through the pipeline.  The runner itself knows no
    season, retreat or winter: the calendar opens the game, plays each phase and names it."""

    def __init__(self, variant: "str | Variant" = "standard", rules: "str | RuleOptions | None" = None, options: Optional[dict[str, Any]] = None,
                 start: Optional[StartSpec] = None):
        from dipsat.game.registry import find_variant

        self.variant = find_variant(variant) if isinstance(variant, str) else variant
        self.rules = self.variant.rules(rules, **(options or {}))
        self.calendar: Calendar = self.variant.calendar(self.variant, self.rules)
        self.pipeline = Pipeline(self.variant, self.rules, self.calendar.phases)  # the phases it declares
        self.history: list[PhaseRecord] = []
        self.winner: Optional[str] = None  # the winner, or "A+B" for a shared victory
        self.winners: tuple[str, ...] = ()  # the winner(s), one per power
        # set by the calendar's opening
        self.position: Position = Position(variant=self.variant.name)
        self.year = 0
        self.season = ""
        self.phase = ""
        self.calendar.open(self, start, self._given(start))

    def _given(self, start: Optional[StartSpec]) -> Optional[Position]:
        """A start's own units and owners as a position (its season checked against the
        calendar's), for the calendar's opening; None when the start gives no units."""
        if start is None or not start.units:
            return None
        req = TurnRequest(variant=self.variant.name, units=start.units, owners=start.owners)
        pos = build_position(self.variant, req, seasons=self.calendar.seasons)
        return pos.updated(owners=build_owners(self.variant, req))

    # ------------------------------------------------------------------------------------------
    @property
    def phase_name(self) -> str:
        return self.calendar.phase_name(self.year, self.season, self.phase)

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
        """Play the current phase with ``orders`` (by power) and move on."""
        if self.winner:
            raise DipsatError(f"the game is over: {self.winner} has won")
        name = self.phase_name
        res = self.calendar.play(self, self._orders(orders))
        self.position = self.position.model_copy(update={"year": self.year, "season": self.season})
        rec = PhaseRecord(name=name, outcomes=res.outcomes, after=self.position, centres=self.centres(), result=res)
        self.history.append(rec)
        return rec


def load_saved_game(path: str | Path, limits: Limits = DEFAULT_LIMITS, data: Any = None) -> SavedGame:
    """A saved game, read within ``limits`` (its size: ``max_file_bytes``; nesting depth), or
    validated from ``data`` when the file was read already."""
    if data is None:
        data = read_data_file(path, limits, max_bytes=limits.max_file_bytes)
    return load_model(path, SavedGame, data)


def units_by_power(pos: Position) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for u in pos.units:
        out.setdefault(u.power, []).append(u.short())
    return dict(sorted(out.items()))


def replay(saved: SavedGame, check: bool = True, on_progress: Optional[Callable[[], None]] = None,
           limits: Limits = DEFAULT_LIMITS, rules: "str | RuleOptions | None" = None, where: str = "phases") -> Game:
    """Play every phase of a saved game; with ``check``, compare each checkpoint.
    ``on_progress`` is called once per phase (progress bars).  Each phase keeps to ``limits``:
    its orders and saved position count against ``max_orders``, its adjudication against the
    wall-clock ``turn_time_limit``.  ``rules`` (a preset or an options value) replaces the
    saved game's preset; ``where`` names the list of phases in errors (a corpus case's ``steps``)."""

    game = Game(saved.variant, saved.rules if rules is None else rules, saved.options, saved.start)
    for n, ph in enumerate(saved.phases, start=1):
        at = f"{where}[{n}]"
        if on_progress is not None:
            on_progress()
        if game.winner:
            raise InputFileError(f"{at}: the game ended in {game.history[-1].name} ({game.winner} won), but more phases follow")
        if ph.phase and not same_phase_label(ph.phase, game.phase_name):
            raise InputFileError(f"{at}: the file says {ph.phase!r}, but the game is at {game.phase_name}")
        check_request_size({"orders": ph.orders, "units": ph.expect_units or {}}, at, limits)
        try:
            with deadline(limits.turn_time_limit):
                rec = game.step(ph.orders)
        except TurnTimeout as exc:
            raise TurnTimeout(f"{at} ({game.phase_name}): {exc}") from None
        if check and ph.expect_units is not None:
            # places and counts (a 2A is not an A): units of one power, kind and place summed
            want = _counted((u.power, u.kind, u.location, u.count) for pw, lst in ph.expect_units.items() for s in lst
                            for u in game.variant.notation.unit_specs(_power_name(game.variant, pw, "expect_units"), s))
            got = _counted((u.power, u.kind, u.location, u.count) for u in rec.after.units)
            if want != got:
                raise InputFileError(f"{at} ({rec.name}): the replay does not reach the saved position: "
                                     f"missing {sorted(set(want) - set(got))}, unexpected {sorted(set(got) - set(want))}")
    return game


def _counted(units: Iterable[tuple[str, str, str, int]]) -> list[tuple[str, str, str, int]]:
    """(power, kind, location, count), the counts of one power's units of one kind in one place summed."""
    total: dict[tuple[str, str, str], int] = {}
    for power, kind, loc, n in units:
        total[power, kind, loc] = total.get((power, kind, loc), 0) + n
    return sorted((p, k, l, n) for (p, k, l), n in total.items())


def to_saved(saved: SavedGame, game: Game) -> SavedGame:
    phases = [ph.model_copy(update={"phase": rec.name, "expect_units": units_by_power(rec.after)})
              for ph, rec in zip(saved.phases, game.history)]
    return saved.model_copy(update={"phases": phases})
