"""A saved game's recorded history: where the observation of each of its checkpoints starts.

A checkpoint (a phase's ``expect_units``) records the units after its phase.  To observe one
checkpoint on its own, its phase is played again from the *recorded* position before it — the
checkpoint before, not the position dipsat's own replay of the earlier phases reaches — so that
one anomalous record costs only its own observation (``dipsat fingerprint``:
:mod:`dipsat.research.fingerprint_inputs`).

A phase can start from a recorded position when the game carries nothing else into it that no
position records (a retreat phase needs the units its movement dislodged: the calendar's
``carries``), and a game opened there by the variant's calendar is at the same phase.  A phase
that cannot is observed together with the phases before it, back to the nearest one that can
(a movement and its retreats); where checkpoints are missing, back to the last one recorded;
at worst from the game's own start.

:func:`recorded_stretches` finds those starts by playing the game once under its own rules, each
phase from the recorded position before it: a phase's result whose checkpoint is readable is
seated on that checkpoint's units before the calendar does its bookkeeping (centres change
hands, the victory rule, whether adjustments are due), so the centre owners the run keeps are
those the recorded positions give under the variant's own calendar (:class:`Seated`).  Its one
use of dipsat's own adjudication is the sequence of phases where no label gives it and which
phases carry something over.  A phase of several parts (a calendar's combined phase), or one
that carries something over, is seated after it is played (its owners then come from the parts'
own results).  Where the run leaves the recorded sequence of phases (a phase label it does not
reach), or a phase cannot be played, the later checkpoints are observed from the last start
before it.  A start remembers nothing of the years before it (a victory rule over several years
counts from there).
"""

from __future__ import annotations

from typing import Any, Optional, TypeVar, Union

from pydantic import BaseModel

from dipsat.errors import DipsatError
from dipsat.game.game import Game, units_by_power
from dipsat.game.pipeline import Pipeline
from dipsat.game.positions import build_position
from dipsat.game.request import TurnRequest, same_phase_label
from dipsat.game.saved import SavedGame, StartSpec
from dipsat.limits import DEFAULT_LIMITS, Limits, deadline
from dipsat.models import Position, Unit
from dipsat.records import dataclass

__all__ = ["BadCheckpoint", "Seated", "Stretch", "recorded_stretches"]


@dataclass(frozen=True)
class Stretch:
    """The phases ``first`` to ``last`` (indices into the saved game's phases) played from
    ``start`` to observe the checkpoint of ``last``: ``start`` is the recorded position before
    ``first`` (its date, the checkpoint's units, the owners the recorded run keeps), or the
    saved game's own start when ``first`` is 0."""

    first: int
    last: int
    start: Optional[StartSpec]
    names: tuple[str, ...]  # each phase's name: its label, else the recorded run's ("" past where it stopped)


@dataclass(frozen=True)
class BadCheckpoint:
    """A checkpoint that cannot be read (a unit not on the board, an unknown power)."""

    index: int
    name: str
    message: str


_R = TypeVar("_R")


class Seated(Pipeline):
    """The pipeline of a recorded run: while ``seat`` holds units, a phase's result has them as
    its units after (the rest of the result is the pipeline's own)."""

    seat: Optional[tuple[Unit, ...]] = None

    def _seated(self, res: _R) -> _R:
        after = getattr(res, "after", None)
        if self.seat is None or not isinstance(res, BaseModel) or not isinstance(after, Position):
            return res  # (a result of another shape keeps its own position after)
        return res.model_copy(update={"after": after.updated(units=self.seat)})

    def movement(self, position: Position, orders: dict[str, list[str]], mode: Any = "direct",
                 time_limit: float | None = None, explain: bool = True) -> Any:
        return self._seated(super().movement(position, orders, mode, time_limit, explain))

    def retreats(self, movement: Any, orders: dict[str, list[str]]) -> Any:
        return self._seated(super().retreats(movement, orders))

    def adjustments(self, position: Position, orders: dict[str, list[str]]) -> Any:
        return self._seated(super().adjustments(position, orders))

    def placement(self, position: Position, orders: dict[str, list[str]]) -> Any:
        return self._seated(super().placement(position, orders))


def carries(game: Game) -> bool:
    """Does the game carry into its current phase what no position records?  A calendar says so
    by its ``carries()`` (the core's year: units dislodged, still to retreat); one that does not
    say is taken to carry (its checkpoints are then observed from the game's start)."""
    said = getattr(game.calendar, "carries", None)
    return True if said is None else bool(said())


def _units(game: Game, specs: dict[str, list[str]], where: str) -> tuple[Unit, ...]:
    """A checkpoint's units, read as a position of the game's variant (errors name ``where``)."""
    try:
        req = TurnRequest(variant=game.variant.name, phase="placement", units=specs)
        return build_position(game.variant, req, seasons=game.calendar.seasons).units
    except DipsatError as exc:
        text = str(exc)
        raise DipsatError(f"{where}.{text[len('units.'):]}" if text.startswith("units.") else f"{where}: {text}") from None


def _start_here(game: Game) -> Optional[StartSpec]:
    """The game's position as a start, when a game opened from it is at the same phase and
    carries nothing over; else None."""
    owners: dict[str, list[str]] = {}
    for prov, power in sorted(game.position.owners.items()):
        owners.setdefault(power, []).append(prov)
    units = units_by_power(game.position)
    if not units:
        return None
    start = StartSpec(year=game.year, season=game.season, units=units, owners=owners)
    try:
        fresh = Game(game.variant, game.rules, None, start)
    except DipsatError:
        return None
    if fresh.phase_name != game.phase_name or fresh.phase != game.phase or carries(fresh):
        return None
    return start


def recorded_stretches(saved: SavedGame, limits: Limits = DEFAULT_LIMITS) -> list[Union[Stretch, BadCheckpoint]]:
    """For each checkpoint of ``saved``, in order, the stretch of phases that observes it (or why
    it cannot be read).  A :class:`DipsatError` when the game itself cannot be opened (an
    unknown variant, a bad start)."""
    game = Game(saved.variant, saved.rules, saved.options, saved.start)
    pipe = Seated(game.variant, game.rules, game.calendar.phases)
    game.pipeline = pipe
    phases = saved.phases
    names = [ph.phase or "" for ph in phases]
    seats: dict[int, tuple[Unit, ...]] = {}
    bad: dict[int, str] = {}
    for k, ph in enumerate(phases):
        if ph.expect_units is not None:
            try:
                seats[k] = _units(game, ph.expect_units, f"phases[{k + 1}].expect_units")
            except DipsatError as exc:
                bad[k] = str(exc)
    starts: dict[int, Optional[StartSpec]] = {0: saved.start}
    for k, ph in enumerate(phases):
        if game.winner or (ph.phase and not same_phase_label(ph.phase, game.phase_name)):
            break  # the run left the recorded sequence: later checkpoints from the last start before
        names[k] = names[k] or game.phase_name
        carrying = carries(game)
        if k > 0 and k - 1 in seats and not carrying:
            start = _start_here(game)
            if start is not None:
                starts[k] = start
        pipe.seat = None if carrying else seats.get(k)
        try:
            with deadline(limits.turn_time_limit):
                game.step(ph.orders)
        except DipsatError:
            break
        if k in seats and pipe.seat is None:  # seated after the phase
            game.position = game.position.updated(units=seats[k])
    out: list[Union[Stretch, BadCheckpoint]] = []
    for j, ph in enumerate(phases):
        if ph.expect_units is None:
            continue
        if j in bad:
            out.append(BadCheckpoint(j, names[j], bad[j]))
            continue
        first = max(i for i in starts if i <= j)
        out.append(Stretch(first, j, starts[first], tuple(names[first:j + 1])))
    return out
