"""A variant's calendar: the phases of its game in sequence, and what each phase does.

The game runner (:mod:`dipsat.game`) knows nothing of seasons, retreats or winters.  It asks the
variant's calendar (the record's ``calendar`` hook: one per game and set of rules) where the game
opens, has it play the current phase (adjudicate it through the pipeline and move the game on),
and names the phases by it.  A calendar is any object with the shape of :class:`Calendar`.

What each phase other than movement does is part of the declaration: a calendar's
:class:`Phases` names the adjudicator of each phase kind (``placement``, ``retreat``,
``adjustment``), plain functions of the variant record, the rules, the position (or the movement
before a retreat) and the orders.  The core's Diplomacy phases are the defaults
(:func:`diplomacy_retreats`, :func:`diplomacy_adjustments`; no placement phase); the pipeline
(:meth:`dipsat.pipeline.Pipeline.retreats` …) asks the calendar for them, inside a game or not.

:class:`DiplomacyYear` is the core's default declaration, DATC Diplomacy's year, with the parts a
variant sets: its movement seasons (``("spring", "fall")``; one ``("year",)``; three for a postal
year), its phases' adjudicators (a placement phase before the first movement when it declares
one), which years are building years, the claims of a shared victory taken out of the orders,
and the victory rule.  Its sequence: movement → a retreat phase only when units were dislodged →
the next movement season; after the last one, in a building year, centres change hands, the
victory rule is checked, and an adjustment phase follows when some power must build or disband.
:func:`diplomacy_year` is the record's default ``calendar`` hook.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol

from .errors import InputFileError
from .models import Position
from .outcomes import MovementResult
from .rules import RuleOptions

if TYPE_CHECKING:
    from .adjustments import AdjustmentResult
    from .game import Game, StartSpec
    from .retreats import RetreatResult
    from .variant import Variant

Orders = dict[str, list[str]]
Claims = Callable[[Orders, str], tuple[Orders, dict[str, str]]]
# a phase's adjudicator: the variant record, the rules, what the phase starts from, the orders
RetreatPhase = Callable[["Variant", RuleOptions, MovementResult, Orders], "RetreatResult"]
AdjustmentPhase = Callable[["Variant", RuleOptions, Position, Orders], "AdjustmentResult"]
PlacementPhase = Callable[["Variant", RuleOptions, Position, Orders], "AdjustmentResult"]


def diplomacy_retreats(variant: "Variant", rules: RuleOptions, movement: MovementResult, orders: Orders) -> "RetreatResult":
    """DATC Diplomacy's retreat phase (:mod:`dipsat.retreats`)."""
    from .retreats import adjudicate_retreats

    return adjudicate_retreats(variant.map, variant.notation, rules, movement, orders)


def diplomacy_adjustments(variant: "Variant", rules: RuleOptions, pos: Position, orders: Orders) -> "AdjustmentResult":
    """DATC Diplomacy's adjustment phase (:mod:`dipsat.adjustments`); with stacks (any number
    of units to a province) builds go on home provinces no other power holds."""
    from .adjustments import adjudicate_adjustments

    return adjudicate_adjustments(variant.map, variant.notation, pos, orders, pos.owners, rules.civil_disorder,
                                  shared_provinces=variant.max_units_per_province is None, rules=rules)


@dataclass(frozen=True)
class Phases:
    """The adjudicator of each phase kind besides movement (which is the pipeline's own):
    ``placement`` (None: the game has no placement phase), ``retreat``, ``adjustment``."""

    retreat: RetreatPhase = diplomacy_retreats
    adjustment: AdjustmentPhase = diplomacy_adjustments
    placement: Optional[PlacementPhase] = None


class Calendar(Protocol):
    """The phase sequence of a variant's game (see the module's docstring)."""

    @property
    def phases(self) -> Phases:
        """The adjudicators of the phase kinds other than movement."""
        ...

    @property
    def seasons(self) -> tuple[str, ...]:
        """Every season a position of this game may be in (positions and game starts are checked
        against them)."""
        ...

    def open(self, game: "Game", start: Optional["StartSpec"]) -> None:
        """Set the game's first position, year, season and phase kind."""
        ...

    def phase_name(self, year: int, season: str, phase: str) -> str:
        """The short name of a phase (``S1901M``)."""
        ...

    def play(self, game: "Game", orders: Orders) -> Any:
        """Adjudicate the game's current phase with ``orders`` (by power) and move the game on
        (its position, year, season, phase kind, and winners when the game ends); the phase's
        result."""
        ...


def no_claims(orders: Orders, phase: str) -> tuple[Orders, dict[str, str]]:
    """Variants without shared victories take no claims out of the orders."""
    return orders, {}


def every_year(year: int) -> bool:
    return True


@dataclass(frozen=True)
class Victory:
    """The victory rule: ``centres`` at the end of ``years`` consecutive building years; two
    powers claiming each other in the same year win together with ``shared`` centres."""

    centres: int = 18
    years: int = 1
    shared: Optional[int] = None


SEASON_CODES = {"spring": "S", "summer": "U", "fall": "F", "autumn": "F", "winter": "W", "year": "Y"}
PHASE_CODES = {"movement": "M", "retreat": "R", "adjustment": "A", "placement": "P"}


@dataclass
class DiplomacyYear:
    """DATC Diplomacy's year as a calendar, with the parts a variant sets (see the module)."""

    variant: "Variant"
    movement_seasons: tuple[str, ...] = ("spring", "fall")
    # each phase kind's adjudicator; with a placement adjudicator, a placement phase opens a
    # game that starts without units given
    phases: Phases = Phases()
    building_year: Callable[[int], bool] = every_year
    claims: Claims = no_claims
    victory: Victory = Victory()
    adjustment_season: str = "winter"
    # the game's memory between phases
    _pending: Optional[MovementResult] = field(default=None, repr=False)
    year_end_leaders: list[set[str]] = field(default_factory=list)
    claimed: dict[str, str] = field(default_factory=dict)  # power -> the partner it claims with

    @property
    def seasons(self) -> tuple[str, ...]:
        return (*self.movement_seasons, self.adjustment_season)

    def phase_name(self, year: int, season: str, phase: str) -> str:
        return f"{SEASON_CODES.get(season, season[:1].upper())}{year}{PHASE_CODES.get(phase, phase[:1].upper())}"

    # -- opening --------------------------------------------------------------------------------
    def open(self, game: "Game", start: Optional["StartSpec"]) -> None:
        v = self.variant
        m = v.map
        first = self.movement_seasons[0]
        if start is None or not start.units:
            pos = v.start_position(v)
            owners = {h: p for p, pw in m.powers.items() for h in pw.home}
            year = start.year if start and start.year else m.start_year
            season = start.season if start and start.season != "spring" else first
        else:
            from .api import TurnRequest, build_owners, build_position

            req = TurnRequest(variant=v.name, units=start.units, owners=start.owners)
            pos = build_position(v, req, seasons=self.seasons)
            owners = build_owners(v, req)
            year = start.year or m.start_year
            season = start.season
        if season not in self.seasons:
            raise InputFileError(f"start.season: {season!r} is not one of {', '.join(self.seasons)}")
        game.year, game.season = year, season
        game.phase = "adjustment" if season == self.adjustment_season else "movement"
        if self.phases.placement is not None and (start is None or not start.units):
            game.phase = "placement"
        game.position = pos.model_copy(update={"owners": owners, "year": year, "season": season})

    # -- one phase ------------------------------------------------------------------------------
    def play(self, game: "Game", orders: Orders) -> Any:
        orders, claims = self.claims(orders, game.phase_name)
        self.claimed.update(claims)
        pipe = game.pipeline
        res: Any  # the phase's result: a movement, retreat or adjustment result
        if game.phase == "placement":
            res = pipe.placement(game.position, orders)
            game.position = res.after.model_copy(update={"owners": game.position.owners})
            game.year += 1
            game.phase = "movement"
        elif game.phase == "movement":
            moved = res = pipe.movement(game.position, orders)
            game.position = res.after.model_copy(update={"owners": game.position.owners})
            self._pending = moved if moved.dislodged else None
            if moved.dislodged:
                game.phase = "retreat"
            else:
                self._end_of_season(game)
        elif game.phase == "retreat":
            if self._pending is None:
                raise InputFileError(f"{game.phase_name}: a retreat phase without the movement before it")
            res = pipe.retreats(self._pending, orders)
            game.position = res.after.model_copy(update={"owners": game.position.owners})
            self._pending = None
            self._end_of_season(game)
        else:
            res = pipe.adjustments(game.position, orders)
            game.position = res.after
            game.season, game.year, game.phase = self.movement_seasons[0], game.year + 1, "movement"
        return res

    def _end_of_season(self, game: "Game") -> None:
        seasons = self.movement_seasons
        if game.season != seasons[-1]:
            game.season, game.phase = seasons[seasons.index(game.season) + 1], "movement"
            return
        if not self.building_year(game.year):
            game.season, game.year, game.phase = seasons[0], game.year + 1, "movement"
            return
        # the end of a building year: centres change hands, the victory rule, adjustments if due
        owners = dict(game.position.owners)
        for u in game.position.units:
            if self.variant.map.provinces[u.province].supply_centre:
                owners[u.province] = u.power
        game.position = game.position.model_copy(update={"owners": owners})
        self._victory(game)
        self.claimed = {}
        if self.needs_adjustment(game.position, game.centres()):
            game.season, game.phase = self.adjustment_season, "adjustment"
        else:
            game.season, game.year, game.phase = seasons[0], game.year + 1, "movement"

    def _victory(self, game: "Game") -> None:
        counts = game.centres()
        self.year_end_leaders.append({p for p, n in counts.items() if n >= self.victory.centres})
        need = self.victory.years
        if len(self.year_end_leaders) >= need:
            lasting = set.intersection(*self.year_end_leaders[-need:])
            if lasting:
                winner = sorted(lasting, key=lambda p: (-counts[p], p))[0]
                game.winner, game.winners = winner, (winner,)
        if self.victory.shared and not game.winner:
            for a, b in sorted(self.claimed.items()):
                if self.claimed.get(b) == a and a < b and counts.get(a, 0) + counts.get(b, 0) >= self.victory.shared:
                    game.winner, game.winners = f"{a}+{b}", (a, b)
                    break

    def needs_adjustment(self, pos: Position, counts: dict[str, int]) -> bool:
        """Some power has more pieces than centres, or fewer and somewhere to build."""
        units: dict[str, int] = {}
        for u in pos.units:
            units[u.power] = units.get(u.power, 0) + u.count
        for power in set(counts) | set(units):
            delta = counts.get(power, 0) - units.get(power, 0)
            if delta < 0:
                return True
            if delta > 0 and self.variant.build_sites(self.variant, pos, power):
                return True
        return False


def diplomacy_year(variant: "Variant", rules: RuleOptions) -> DiplomacyYear:
    """The record's default calendar: DATC Diplomacy's year, with the variant's victory rule."""
    return DiplomacyYear(variant, victory=variant.victory)
