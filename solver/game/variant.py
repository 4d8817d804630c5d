"""The Diplomacy-board record: what a board variant may change, as named hooks with the core's
defaults.

Only the Diplomacy boards fill this record (a variant of another game family is a
:class:`dipsat.game.protocol.GameRecord`, with none of these hooks).  A board variant is a *value*,
not a subclass: one frozen :class:`Variant` record that its package builds (``variants/<name>/__init__.py``: ``VARIANT = Variant(name=..., ...)``) from its own
functions and classes.  Every field has the core's default, DATC Diplomacy on the standard map,
so a record names only what its variant changes, and all of a variant's hooks are read in one
place: its record.

Hooks are plain functions.  Those that need the variant's board or options take the record as
their first argument (``variant.check_position(variant, pos)``); the others take only what they
use (``variant.render_hints(pos)``).  The grammar, legality and movement
hooks are classes (``notation_class``, ``geography_class``, ``binder_class``,
``movement_rules_class``), which the record names as values.  The phases (their sequence, each
phase's adjudicator, building years, claims) are the variant's calendar (below).

What is derived from the fields (the loaded map, the notation and geography over it, rule
options made by name) is computed on first use and kept on the record; nothing of it is a hook.

## The calendar

A variant's calendar is the phases of its game in sequence, and what each phase does.  The game runner (:mod:`dipsat.game.game`) knows nothing of seasons, retreats or winters.  It asks the
variant's calendar (the record's ``calendar`` hook: one per game and set of rules) where the game
opens, has it play the current phase (adjudicate it through the pipeline and move the game on),
and names the phases by it.  A calendar is any object with the shape of :class:`Calendar`.

What each phase other than movement does is part of the declaration: a calendar's
:class:`Phases` names the adjudicator of each phase kind (``placement``, ``retreat``,
``adjustment``), plain functions of the variant record, the rules, the position (or the movement
before a retreat) and the orders.  The core's Diplomacy phases are the defaults
(:func:`diplomacy_retreats`, :func:`diplomacy_adjustments`; no placement phase); the pipeline
(:meth:`dipsat.game.pipeline.Pipeline.retreats` …) asks the calendar for them, inside a game or not.

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

from dataclasses import field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Protocol, final

from pydantic import BaseModel

from dipsat.maps import GameMap, load_map

from dipsat.errors import InputFileError, PositionError
from dipsat.game.request import season_word
from dipsat.outcomes import MovementResult
from dipsat.models import ARMY, FLEET, OrderBody, Position, Unit, register_order_kind
from dipsat.board.movement import MovementRules
from dipsat.board.notation import Notation
from dipsat.board.geography import Geography
from dipsat.board.orders import OrderBinder
from dipsat.records import dataclass
from dipsat.rules import RuleOptions, preset

if TYPE_CHECKING:  # the phases after a movement are imported when one is adjudicated
    from dipsat.game.saved import StartSpec
    from dipsat.board.adjustments import AdjustmentResult
    from dipsat.board.retreats import RetreatResult

Orders = dict[str, list[str]]
Claims = Callable[[Orders, str], tuple[Orders, dict[str, str]]]
# a phase's adjudicator: the variant record, the rules, what the phase starts from, the orders
RetreatPhase = Callable[["Variant", RuleOptions, MovementResult, Orders], "RetreatResult"]
AdjustmentPhase = Callable[["Variant", RuleOptions, Position, Orders], "AdjustmentResult"]
PlacementPhase = Callable[["Variant", RuleOptions, Position, Orders], "AdjustmentResult"]


# -- the calendar: the phases of a game in sequence --------------------------------------------

class PhaseRunner(Protocol):
    """What a calendar asks of the phase pipeline (:class:`dipsat.game.pipeline.Pipeline`)."""

    def placement(self, pos: Position, orders: Orders) -> AdjustmentResult: ...
    def movement(self, pos: Position, orders: Orders) -> MovementResult: ...
    def retreats(self, movement: MovementResult, orders: Orders) -> RetreatResult: ...
    def adjustments(self, pos: Position, orders: Orders) -> AdjustmentResult: ...


class GameState(Protocol):
    """What a calendar reads and moves on of a game (:class:`dipsat.game.game.Game` is one): its
    position, year, season, phase kind and winners; it plays phases through ``pipeline``."""

    position: Position
    year: int
    season: str
    phase: str
    winner: Optional[str]
    winners: tuple[str, ...]

    @property
    def variant(self) -> Variant: ...
    @property
    def pipeline(self) -> PhaseRunner: ...
    @property
    def phase_name(self) -> str: ...
    def centres(self) -> dict[str, int]: ...


def diplomacy_retreats(variant: Variant, rules: RuleOptions, movement: MovementResult, orders: Orders) -> RetreatResult:
    """DATC Diplomacy's retreat phase (:mod:`dipsat.board.retreats`)."""
    from dipsat.board.retreats import adjudicate_retreats

    return adjudicate_retreats(variant.map, variant.notation, rules, movement, orders)


def diplomacy_adjustments(variant: Variant, rules: RuleOptions, pos: Position, orders: Orders) -> AdjustmentResult:
    """DATC Diplomacy's adjustment phase (:mod:`dipsat.board.adjustments`); with stacks (any number
    of units to a province) builds go on home provinces no other power holds."""
    from dipsat.board.adjustments import adjudicate_adjustments

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
    """The phase sequence of a variant's game (see the module's docstring).  A calendar may also
    say by ``carries() -> bool`` whether the game's current phase needs what no position records
    (:meth:`DiplomacyYear.carries`); one that does not is taken to (:mod:`dipsat.game.recorded`)."""

    @property
    def phases(self) -> Phases:
        """The adjudicators of the phase kinds other than movement."""
        ...

    @property
    def seasons(self) -> tuple[str, ...]:
        """Every season a position of this game may be in (positions and game starts are checked
        against them)."""
        ...

    def open(self, game: GameState, start: Optional[StartSpec], given: Optional[Position] = None) -> None:
        """Set the game's first position, year, season and phase kind.  ``given``: the start's own
        units and owners as a position (built by the game's runner, checked against
        :attr:`seasons`), when the start gives units."""
        ...

    def phase_name(self, year: int, season: str, phase: str) -> str:
        """The short name of a phase (``S1901M``)."""
        ...

    def play(self, game: GameState, orders: Orders) -> Any:
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

    variant: Variant
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

    def carries(self) -> bool:
        """Does the game's current phase need what no position records: units dislodged in the
        phase before, still to retreat?  (A saved game's checkpoints are observed from a
        recorded position only where it does not: :mod:`dipsat.game.recorded`.)"""
        return self._pending is not None

    def phase_name(self, year: int, season: str, phase: str) -> str:
        return f"{SEASON_CODES.get(season, season[:1].upper())}{year}{PHASE_CODES.get(phase, phase[:1].upper())}"

    # -- opening --------------------------------------------------------------------------------
    def open(self, game: GameState, start: Optional[StartSpec], given: Optional[Position] = None) -> None:
        v = self.variant
        m = v.map
        first = self.movement_seasons[0]
        if start is None or not start.units:
            pos = v.start_position(v)
            owners = {h: p for p, pw in m.powers.items() for h in pw.home}
            year = start.year if start and start.year else m.start_year
            written = season_word(start.season, self.seasons) if start else "spring"
            season = written if written != "spring" else first
        else:
            if given is None:
                raise InputFileError("start: the game's runner gives the position of a start with units")
            pos, owners = given, dict(given.owners)
            year = start.year or m.start_year
            season = season_word(start.season, self.seasons)
        if season not in self.seasons:
            raise InputFileError(f"start.season: {season!r} is not one of {', '.join(self.seasons)}")
        game.year, game.season = year, season
        game.phase = "adjustment" if season == self.adjustment_season else "movement"
        if self.phases.placement is not None and (start is None or not start.units):
            game.phase = "placement"
        game.position = pos.model_copy(update={"owners": owners, "year": year, "season": season})

    # -- one phase ------------------------------------------------------------------------------
    def play(self, game: GameState, orders: Orders) -> Any:
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

    def _end_of_season(self, game: GameState) -> None:
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

    def _victory(self, game: GameState) -> None:
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


def diplomacy_year(variant: Variant, rules: RuleOptions) -> DiplomacyYear:
    """The record's default calendar: DATC Diplomacy's year, with the variant's victory rule."""
    return DiplomacyYear(variant, victory=variant.victory)


# -- the core's hooks (DATC Diplomacy) ------------------------------------------------------------

def check_position(variant: Variant, pos: Position) -> None:
    """Raise :class:`PositionError` for an impossible position: units on the map, on terrain
    their kind may stand on, of the map's powers, of the variant's unit kinds, and no more of
    them in a province than ``max_units_per_province``."""
    checked = variant.units_checked  # (power, kind, location) -> province, of units that passed
    one_per_province = variant.max_units_per_province is not None
    seen: dict[str, Unit] = {}
    for u in pos.units:
        prov = checked.get((u.power, u.kind, u.location))
        if prov is None:
            prov = _check_unit(variant, u)
            if len(checked) > 50_000:
                checked.clear()
            checked[(u.power, u.kind, u.location)] = prov
        if one_per_province:
            other = seen.get(prov)
            if other is not None:
                raise PositionError(f"two units in {variant.map.provinces[prov].name}: {other.label()} and {u.label()}")
            seen[prov] = u


def _check_unit(variant: Variant, u: Unit) -> str:
    """The province of a unit that may stand where it is (on the map, on terrain its kind may
    stand on, of the map's powers and the variant's kinds); a :class:`PositionError` otherwise."""
    m = variant.map
    prov = u.province
    p = m.provinces.get(prov)
    if p is None:
        raise PositionError(f"{u.label()}: unknown province {prov!r}")
    if not p.passable:
        raise PositionError(f"{u.label()}: {p.name} is impassable")
    kind = u.kind
    if kind not in variant.unit_kinds:
        raise PositionError(f"{u.label()}: a {variant.name} unit is one of {', '.join(variant.unit_kinds)}, not {u.kind!r}")
    if kind == ARMY and p.terrain not in ("land", "coast"):
        raise PositionError(f"{u.label()}: an army cannot stand on {p.name} ({p.terrain})")
    if kind == FLEET and not m.is_fleet_location(u.location):
        raise PositionError(f"{u.label()}: a fleet cannot stand on {u.location!r}" + (
            f" (name a coast: {', '.join(p.coasts)})" if p.coasts else ""))
    if u.power not in m.powers:
        raise PositionError(f"{u.label()}: unknown power {u.power!r}; powers: {', '.join(m.powers)}")
    return prov


def start_position(variant: Variant) -> Position:
    """The map's starting units, spring of its first year."""
    units = [Unit(power=p.name, kind=k, location=loc)
             for p in variant.map.powers.values() for k, loc in p.start]
    return Position(variant=variant.name, year=variant.map.start_year, season="spring", units=tuple(units)).canonical()


def empty_start(variant: Variant) -> Position:
    """A game whose players place their own units opens on an empty board."""
    return Position(variant=variant.name, year=variant.map.start_year, season="spring", units=())


def no_owners(variant: Variant) -> dict[str, str]:
    """Centre ownership for a position given without ``[owners]``: none."""
    return {}


def home_owners(variant: Variant) -> dict[str, str]:
    """Centre ownership for a position given without ``[owners]``: each power its home centres."""
    return {h: p for p, pw in sorted(variant.map.powers.items()) for h in pw.home}


def build_sites(variant: Variant, pos: Position, power: str) -> list[str]:
    """Where ``power`` could build now: its owned home centres not held by another unit (with
    stacks: by another power's unit).  The game opens an adjustment phase for a power with
    builds due only when this is not empty."""
    stacks = variant.max_units_per_province is None
    occupied = {u.province for u in pos.units if not stacks or u.power != power}
    home = variant.map.powers[power].home if power in variant.map.powers else ()
    return [h for h in home if pos.owners.get(h) == power and h not in occupied]


def no_rules_text(variant: Variant) -> Optional[str]:
    """The core's listing of the options model describes the rules."""
    return None


@dataclass(frozen=True)
class RenderHints:
    """What a variant adds to the picture; every field is optional.

    ``badges``: province id -> a short text drawn beside the province (e.g. a capacity);
    ``province_classes``: province id -> an extra CSS class for its node (styled by ``css``);
    ``css``: extra style rules; ``notes``: lines for the legend; ``unit_labels``: unit index ->
    the text inside the unit's token (default: count and kind letter)."""

    badges: dict[str, str] = field(default_factory=dict)
    province_classes: dict[str, str] = field(default_factory=dict)
    css: str = ""
    notes: tuple[str, ...] = ()
    unit_labels: dict[int, str] = field(default_factory=dict)


def no_hints(pos: Position) -> Optional[RenderHints]:
    """Nothing drawn beyond the core's picture."""
    return None


# -- the record -----------------------------------------------------------------------------------

@final
@dataclass(frozen=True, eq=False)
class Variant:
    """A variant as a record of narrow hooks (see the module's docstring and ARCHITECTURE.md).

    Records compare by identity: a variant is the one record its package builds.  The class is
    final: a variant changes the record's fields, never subclasses it (a test and mypy check)."""

    # identity
    name: str
    aliases: tuple[str, ...] = ()
    description: str = ""
    # board: a map file, changes over it, and the schema of the variant's own province fields
    map_name: str = "standard"
    map_changes: tuple[Mapping[str, Any], ...] = ()
    map_schema: Optional[type[BaseModel]] = None
    # units: kinds (letters), how many may share a province (None: any number), what a position
    # may hold, where a game starts, who owns what without [owners], where a power may build
    unit_kinds: tuple[str, ...] = (ARMY, FLEET)
    max_units_per_province: Optional[int] = 1
    check_position: Callable[[Variant, Position], None] = check_position
    start_position: Callable[[Variant], Position] = start_position
    default_owners: Callable[[Variant], dict[str, str]] = no_owners
    build_sites: Callable[[Variant, Position, str], list[str]] = build_sites
    # rules: the options model (the core's DATC options and the variant's own), its base preset
    # and its own choices over it; readings of the text that are fixed (each with the sentence it
    # rests on, printed by ``dipsat rules NAME``); the rules in the variant's own words
    options_model: type[RuleOptions] = RuleOptions
    default_rules: str = "datc"
    rule_overrides: Mapping[str, Any] = field(default_factory=dict)
    readings: tuple[str, ...] = ()
    rules_text: Callable[[Variant], Optional[str]] = no_rules_text
    # the variant's own order kinds (OrderBody subclasses), registered into the order union when
    # the record is made (a tag another kind has is an error)
    order_kinds: tuple[type[OrderBody], ...] = ()
    # grammar, legality and movement: classes the core instantiates over the map and rules
    notation_class: type[Notation] = Notation
    geography_class: type[Geography] = Geography
    binder_class: type[OrderBinder] = OrderBinder
    movement_rules_class: type[MovementRules[Any]] = MovementRules
    # phases: the game's calendar (a new one per game; :mod:`dipsat.game.variant`) with each phase's
    # adjudicator, and the victory rule the default calendar checks
    calendar: Callable[[Variant, RuleOptions], Calendar] = diplomacy_year
    victory: Victory = Victory()
    # pictures: what the core's picture of the board adds for the variant
    render_hints: Callable[[Position], Optional[RenderHints]] = no_hints

    def __post_init__(self) -> None:
        # the record is a value: its tables are read-only views of copies of what it was given
        object.__setattr__(self, "rule_overrides", MappingProxyType(dict(self.rule_overrides)))
        object.__setattr__(self, "map_changes", tuple(MappingProxyType(dict(c)) for c in self.map_changes))
        for kind in self.order_kinds:
            register_order_kind(kind)

    # -- derived, computed on first use -----------------------------------------------------------
    @cached_property
    def map(self) -> GameMap:
        return load_map(self.map_name, tuple(dict(c) for c in self.map_changes), self.map_schema)

    @cached_property
    def units_checked(self) -> dict[tuple[str, str, str], str]:
        """(power, kind, location) -> province of the units :func:`check_position` found able to
        stand where they are (a pure memo: the map and the kinds do not change; bounded)."""
        return {}

    @cached_property
    def notation(self) -> Notation:
        return self.notation_class(self.map)

    @cached_property
    def geography(self) -> Geography:
        return self.geography_class(self.map)

    def binder(self, rules: RuleOptions) -> OrderBinder:
        return self.binder_class(self.map, rules, self.geography, self.notation)

    def movement_rules(self, rules: RuleOptions) -> MovementRules[Any]:
        return self.movement_rules_class(self.map, rules, self.geography)

    def rules(self, name: str | RuleOptions | None = None, **overrides: Any) -> RuleOptions:
        """The variant's options (its :attr:`options_model`) from a core preset by name;
        ``None`` or the variant's own name gives the variant's rules (its base preset with its
        own choices on top).  Options are frozen values, so those asked for by name (and
        hashable overrides) are made once per variant and shared."""
        key: Optional[tuple[Any, ...]] = None
        if not isinstance(name, RuleOptions):
            key = (name, *sorted(overrides.items()))
            try:
                hit = self._rules_made.get(key)
            except TypeError:  # an unhashable override value (a list of draws): made each time
                key = None
            else:
                if hit is not None:
                    return hit
        made = self._make_rules(name, **overrides)
        if key is not None:
            if len(self._rules_made) > 256:
                self._rules_made.clear()
            self._rules_made[key] = made
        return made

    @cached_property
    def _rules_made(self) -> dict[tuple[Any, ...], RuleOptions]:
        return {}

    def _make_rules(self, name: str | RuleOptions | None = None, **overrides: Any) -> RuleOptions:
        model = self.options_model
        if name is None or (isinstance(name, str) and name.lower() == self.name):
            base = model.from_preset(preset(self.default_rules), **self.rule_overrides)
            if self.rule_overrides or self.default_rules != "datc":
                base = base.with_(name=self.name)
            return base.with_(**overrides) if overrides else base
        if isinstance(name, model) and not overrides:
            return name
        return model.from_preset(name if isinstance(name, RuleOptions) else preset(name), **overrides)
