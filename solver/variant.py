"""The variant record: what a variant may change, as named hooks with standard defaults."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Optional

from pydantic import BaseModel

from dipsat.maps import GameMap, load_map

from .errors import PositionError
from .family import Family
from .models import Position, Unit, ARMY, FLEET
from .movement import MovementRules
from .notation import Notation
from .orders import Geography, OrderBinder
from .rules import RuleOptions, preset

if TYPE_CHECKING:
    from .phases import Calendar
    from .render import RenderHints


class Variant:
    name: ClassVar[str] = "base"
    aliases: ClassVar[tuple[str, ...]] = ()
    map_name: ClassVar[str] = "standard"
    map_changes: ClassVar[tuple[dict[str, Any], ...]] = ()
    # the variant's own per-province map fields (a pydantic model), validated by the map loader
    map_schema: ClassVar[Optional[type[BaseModel]]] = None
    default_rules: ClassVar[str] = "datc"
    description: ClassVar[str] = ""
    max_units_per_province: ClassVar[Optional[int]] = 1
    victory_centres: ClassVar[int] = 18
    victory_years: ClassVar[int] = 1  # consecutive year ends with victory_centres needed
    shared_victory_centres: ClassVar[Optional[int]] = None  # two powers claiming together win with this many

    # the kinds of unit (letters) this variant's positions may hold
    unit_kinds: ClassVar[tuple[str, ...]] = (ARMY, FLEET)

    def calendar(self, rules: RuleOptions) -> "Calendar":
        """The phases of this variant's game (a new calendar per game; :mod:`dipsat.phases`):
        by default DATC Diplomacy's year (spring and fall movement, retreats when due, winter
        adjustments in every year) with this variant's victory rule.  A variant declares its own
        seasons, placement phase, building years and claims of a shared victory here, or a
        calendar of its own."""
        from .phases import DiplomacyYear, Victory

        return DiplomacyYear(self, victory=Victory(self.victory_centres, self.victory_years, self.shared_victory_centres))

    def adjudicate_adjustments(self, rules: RuleOptions, pos: Position, orders: dict[str, list[str]]):
        from .adjustments import adjudicate_adjustments

        return adjudicate_adjustments(self.map, self.notation, pos, orders, pos.owners, rules.civil_disorder,
                                      shared_provinces=self.max_units_per_province is None)

    def family(self) -> Optional[Family]:
        """The one seam for a variant of another game family: it answers the commands itself
        (:class:`dipsat.family.Family`: adjudicate, batch, corpus, play, explore, why, compare,
        rules, and subcommands of its own).  None: the core's Diplomacy pipeline."""
        return None

    def adjudicate_placement(self, pos: Position, orders: dict[str, list[str]]):
        raise NotImplementedError(f"{self.name} has no placement phase")
    rule_overrides: ClassVar[dict[str, Any]] = {}  # the variant's own rule choices over its base preset
    # the variant's rule options: the core's DATC options, extended by the variant's own fields
    options_model: ClassVar[type[RuleOptions]] = RuleOptions
    movement_rules_class: ClassVar[type[MovementRules]] = MovementRules
    binder_class: ClassVar[type[OrderBinder]] = OrderBinder
    geography_class: ClassVar[type[Geography]] = Geography
    notation_class: ClassVar[type[Notation]] = Notation

    _instances: ClassVar[dict[type, "Variant"]] = {}

    @classmethod
    def instance(cls) -> "Variant":
        inst = Variant._instances.get(cls)
        if inst is None:
            inst = Variant._instances[cls] = cls()
        return inst

    @cached_property
    def map(self) -> GameMap:
        return load_map(self.map_name, self.map_changes, self.map_schema)

    @cached_property
    def notation(self) -> Notation:
        return self.notation_class(self.map)

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

    @cached_property
    def geography(self) -> Geography:
        return self.geography_class(self.map)

    def binder(self, rules: RuleOptions) -> OrderBinder:
        return self.binder_class(self.map, rules, self.geography, self.notation)

    def movement_rules(self, rules: RuleOptions) -> MovementRules:
        return self.movement_rules_class(self.map, rules, self.geography)

    def adjudicate_retreats(self, rules: RuleOptions, movement, orders: dict[str, list[str]]):
        from .retreats import adjudicate_retreats

        return adjudicate_retreats(self.map, self.notation, rules, movement, orders)

    def render_hints(self, pos: Position) -> "RenderHints":
        """What the variant adds to a picture of ``pos`` (badges, notes, unit labels); see
        :mod:`dipsat.render`.  Default: nothing beyond the core's drawing."""
        from .render import RenderHints

        return RenderHints()

    def render_file(self, data: Any, where: str, phase: Optional[str] = None, title: Optional[str] = None) -> Optional[str]:
        """The SVG picture of a file of this variant (a request, corpus case or saved game, as
        read; ``phase`` picks a saved game's phase) when the variant draws its own kind of board;
        ``None``: the core's drawing of Diplomacy positions (:mod:`dipsat.render`)."""
        return None

    def check_position(self, pos: Position) -> None:
        """Raise :class:`PositionError` for an impossible position."""
        m = self.map
        seen: dict[str, Unit] = {}
        for u in pos.units:
            if u.province not in m.provinces:
                raise PositionError(f"{u.label()}: unknown province {u.province!r}")
            p = m.provinces[u.province]
            if not p.passable:
                raise PositionError(f"{u.label()}: {p.name} is impassable")
            if u.kind not in self.unit_kinds:
                raise PositionError(f"{u.label()}: a {self.name} unit is one of {', '.join(self.unit_kinds)}, not {u.kind!r}")
            if u.kind == ARMY and p.terrain not in ("land", "coast"):
                raise PositionError(f"{u.label()}: an army cannot stand on {p.name} ({p.terrain})")
            if u.kind == FLEET and not m.is_fleet_location(u.location):
                raise PositionError(f"{u.label()}: a fleet cannot stand on {u.location!r}" + (
                    f" (name a coast: {', '.join(p.coasts)})" if p.coasts else ""))
            if u.power not in m.powers:
                raise PositionError(f"{u.label()}: unknown power {u.power!r}; powers: {', '.join(m.powers)}")
            if self.max_units_per_province is not None:
                other = seen.get(u.province)
                if other is not None:
                    raise PositionError(f"two units in {p.name}: {other.label()} and {u.label()}")
                seen[u.province] = u

    def build_sites(self, pos: Position, power: str) -> list[str]:
        """Where ``power`` could build now: its owned home centres not held by another unit (with
        stacks: by another power's unit).  The game opens an adjustment phase for a power with
        builds due only when this is not empty."""
        stacks = self.max_units_per_province is None
        occupied = {u.province for u in pos.units if not stacks or u.power != power}
        home = self.map.powers[power].home if power in self.map.powers else ()
        return [h for h in home if pos.owners.get(h) == power and h not in occupied]

    def default_owners(self) -> dict[str, str]:
        """Centre ownership for a position given without ``[owners]``: none by default."""
        return {}

    def start_position(self) -> Position:
        units = [Unit(power=p.name, kind=k, location=loc)
                 for p in self.map.powers.values() for k, loc in p.start]
        return Position(variant=self.name, year=self.map.start_year, season="spring", units=tuple(units)).canonical()

    # Readings of the seed text that are fixed rather than options, each with the sentence it
    # rests on (printed by ``dipsat rules NAME``).
    readings: ClassVar[tuple[str, ...]] = ()

    def rules_text(self) -> Optional[str]:
        """The variant's rule options as text (``dipsat rules NAME``) when it words them its own
        way; None: the core's listing of the options model.  (A variant of another game family
        describes its rules through its :meth:`family`.)"""
        return None

    def reading_options(self) -> type[BaseModel]:
        """The model of the variant's rule options as ``dipsat coverage`` and ``readings``
        enumerate them: :attr:`options_model`, or the variant's own model (another game family)."""
        return self.options_model
