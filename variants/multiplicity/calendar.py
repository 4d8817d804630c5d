"""Multiplicity Plus's years (rule 12): the normal year, or the three-season postal year.

Rule 12: "For postal play it may be easier if Multiplicity Plus is played to a 3 season year:
Spring; Spring retreats and Autumn; Autumn retreats and adjustments."  A postal year is three
phases, each one order sheet per power:

1. ``S1901M`` — Spring: the spring movement.
2. ``F1901M`` — Spring retreats and Autumn: the spring's retreats (when units were dislodged),
   then the autumn movement from the position they leave.
3. ``W1901A`` — Autumn retreats and adjustments: the autumn's retreats, then supply centres
   change hands and the victory rule is checked, then the adjustments from the position and
   centres the retreats leave.  Played only when units were dislodged in the autumn or some
   power must build or disband (as the normal year's retreat and adjustment phases are).

The seed names the phases but not their codes, and says nothing of how one sheet holds two
kinds of order; the readings (listed by ``dipsat rules multiplicity``):

* The codes are the judges' for the movement or adjustment a phase ends with (``F1901M``,
  ``W1901A``); the retreats inside a phase are the season's before it.
* An order of a combined phase is a retreat order when the unit it names stands where one of
  its power's units was dislodged (``A(Bur)-Pic``, ``A(Bur) disband``); every other order is for
  the phase's second part (a movement order, or a build, removal or waiver).  Each part is
  adjudicated in turn, the second on the position the first leaves, so a unit that retreated
  is ordered from where it retreated to, and an order for a unit that is not there (its
  retreat failed) is rejected like any order for a unit that does not exist.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Optional

from dipsat.errors import OrderError
from dipsat.models import Position
from dipsat.outcomes import MovementResult, Outcome
from dipsat.board.notation import too_long
from dipsat.game.variant import DiplomacyYear, GameState, Orders
from dipsat.records import dataclass

if TYPE_CHECKING:
    from dipsat.rules import RuleOptions

_KEYWORD = re.compile(r"^\s*(build|remove|disband|waive|place)\b\s*(.*)$", re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True)
class CombinedPhase:
    """A phase of several parts adjudicated in turn (a postal year's retreats with the season
    after them): each part's result, the outcomes of all of them, the position before the first
    and after the last."""

    parts: tuple[Any, ...]

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        return tuple(o for part in self.parts for o in part.outcomes)

    @property
    def position(self) -> Position:
        first: Position = self.parts[0].position
        return first

    @property
    def after(self) -> Position:
        last: Position = self.parts[-1].after
        return last

    @property
    def rules(self) -> "RuleOptions":
        rules: RuleOptions = self.parts[-1].rules
        return rules

    @property
    def variant(self) -> Any:
        """The variant record its parts were adjudicated by (pictures take it from here)."""
        return self.parts[-1].variant


def split_retreat_orders(game: GameState, movement: MovementResult, orders: Orders) -> tuple[Orders, Orders]:
    """A combined phase's sheets as (retreat orders, orders of the part after): an order is a
    retreat order when the unit it names stands where one of its power's units was dislodged."""
    pos = movement.position
    dislodged = {(pos.units[u].power, pos.units[u].province) for u in movement.dislodged}
    notation = game.variant.notation
    retreats: Orders = {}
    rest: Orders = {}
    for power, texts in orders.items():
        for text in texts:
            prov = _province_named(notation, power, text)
            (retreats if (power, prov) in dislodged else rest).setdefault(power, []).append(text)
    return retreats, rest


def _province_named(notation: Any, power: str, text: str) -> Optional[str]:
    """The province of the unit an order names, if it can be read (builds and waivers: None)."""
    m = _KEYWORD.match(text) if too_long(text) is None else None
    if m:
        if m.group(1).lower() in ("build", "waive", "place"):
            return None
        text = m.group(2)
    try:
        prov: str = notation.parse(text, power).unit.loc.province
    except OrderError:
        return None
    return prov


@dataclass
class PostalYear(DiplomacyYear):
    """Rule 12's three-season year (see the module): Spring; Spring retreats and Autumn; Autumn
    retreats and adjustments."""

    def play(self, game: GameState, orders: Orders) -> Any:
        if game.phase == "placement":
            return super().play(game, orders)
        pipe = game.pipeline
        owners = game.position.owners
        parts: list[Any] = []
        rest = orders
        if self._pending is not None:  # the season before left units to retreat: they go first
            retreat_orders, rest = split_retreat_orders(game, self._pending, orders)
            rr = pipe.retreats(self._pending, retreat_orders)
            parts.append(rr)
            game.position = rr.after.model_copy(update={"owners": owners})
            self._pending = None
            if game.phase == "adjustment":  # the autumn's retreats: then the year ends
                self._change_centres(game)
        if game.phase == "adjustment":
            adj = pipe.adjustments(game.position, rest)
            parts.append(adj)
            game.position = adj.after
            game.season, game.year, game.phase = self.movement_seasons[0], game.year + 1, "movement"
        else:
            res = pipe.movement(game.position, rest)
            parts.append(res)
            game.position = res.after.model_copy(update={"owners": owners})
            self._pending = res if res.dislodged else None
            if game.season == self.movement_seasons[0]:
                game.season = self.movement_seasons[-1]
            elif res.dislodged:  # the autumn's retreats come with the adjustments
                game.season, game.phase = self.adjustment_season, "adjustment"
            else:
                self._change_centres(game)
                if self.needs_adjustment(game.position, game.centres()):
                    game.season, game.phase = self.adjustment_season, "adjustment"
                else:
                    game.season, game.year = self.movement_seasons[0], game.year + 1
        return parts[0] if len(parts) == 1 else CombinedPhase(tuple(parts))

    def _change_centres(self, game: GameState) -> None:
        """The end of the autumn: centres change hands, then the victory rule."""
        owners = dict(game.position.owners)
        for u in game.position.units:
            if self.variant.map.provinces[u.province].supply_centre:
                owners[u.province] = u.power
        game.position = game.position.model_copy(update={"owners": owners})
        self._victory(game)
        self.claimed = {}
