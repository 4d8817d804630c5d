"""The Diplomacy-board record: what a board variant may change, as named hooks with the core's
defaults.

Only the Diplomacy boards fill this record (a variant of another game family is a
:class:`dipsat.protocol.GameRecord`, with none of these hooks).  A board variant is a *value*,
not a subclass: one frozen :class:`Variant` record that its package builds (``variants/<name>/__init__.py``: ``VARIANT = Variant(name=..., ...)``) from its own
functions and classes.  Every field has the core's default, DATC Diplomacy on the standard map,
so a record names only what its variant changes, and all of a variant's hooks are read in one
place: its record.

Hooks are plain functions.  Those that need the variant's board or options take the record as
their first argument (``variant.check_position(variant, pos)``); the others take only what they
use (``variant.render_hints(pos)``).  The grammar, legality and movement
hooks are classes (``notation_class``, ``geography_class``, ``binder_class``,
``movement_rules_class``), which the record names as values.  The phases (their sequence, each
phase's adjudicator, building years, claims) are the variant's calendar (:mod:`dipsat.phases`).

What is derived from the fields (the loaded map, the notation and geography over it, rule
options made by name) is computed on first use and kept on the record; nothing of it is a hook.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, final

from pydantic import BaseModel

from dipsat.maps import GameMap, load_map

from .errors import PositionError
from .models import ARMY, FLEET, OrderBody, Position, Unit, register_order_kind
from .movement import MovementRules
from .notation import Notation
from .orders import Geography, OrderBinder
from .phases import Calendar, Victory, diplomacy_year
from .rules import RuleOptions, preset

if TYPE_CHECKING:
    from .render import RenderHints


# -- the core's hooks (DATC Diplomacy) ------------------------------------------------------------

def check_position(variant: Variant, pos: Position) -> None:
    """Raise :class:`PositionError` for an impossible position: units on the map, on terrain
    their kind may stand on, of the map's powers, of the variant's unit kinds, and no more of
    them in a province than ``max_units_per_province``."""
    m = variant.map
    provinces, powers, kinds = m.provinces, m.powers, variant.unit_kinds
    one_per_province = variant.max_units_per_province is not None
    seen: dict[str, Unit] = {}
    for u in pos.units:
        prov = u.province
        p = provinces.get(prov)
        if p is None:
            raise PositionError(f"{u.label()}: unknown province {prov!r}")
        if not p.passable:
            raise PositionError(f"{u.label()}: {p.name} is impassable")
        kind = u.kind
        if kind not in kinds:
            raise PositionError(f"{u.label()}: a {variant.name} unit is one of {', '.join(variant.unit_kinds)}, not {u.kind!r}")
        if kind == ARMY and p.terrain not in ("land", "coast"):
            raise PositionError(f"{u.label()}: an army cannot stand on {p.name} ({p.terrain})")
        if kind == FLEET and not m.is_fleet_location(u.location):
            raise PositionError(f"{u.label()}: a fleet cannot stand on {u.location!r}" + (
                f" (name a coast: {', '.join(p.coasts)})" if p.coasts else ""))
        if u.power not in powers:
            raise PositionError(f"{u.label()}: unknown power {u.power!r}; powers: {', '.join(m.powers)}")
        if one_per_province:
            other = seen.get(prov)
            if other is not None:
                raise PositionError(f"two units in {p.name}: {other.label()} and {u.label()}")
            seen[prov] = u


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
    # phases: the game's calendar (a new one per game; :mod:`dipsat.phases`) with each phase's
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
