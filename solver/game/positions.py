"""A turn request's position in a variant's terms: the powers its names mean, its units checked
against the board, the centres each power owns, and the rule options it asks for."""

from __future__ import annotations

from typing import Optional, Sequence

from dipsat.board.notation import Notation
from dipsat.errors import OrderError, PositionError
from dipsat.game.request import SEASON_NAMES, TurnRequest, season_word
from dipsat.game.variant import Variant
from dipsat.models import Position, Unit, canonical_units
from dipsat.rules import RuleOptions


def power_name(variant: Variant, name: str, where: str) -> str:
    """The power a name or adjective means on the variant's map ("france", "French" -> France);
    a :class:`PositionError` naming ``where`` otherwise.  Public for variants' own phases."""
    if name in variant.map.powers:  # the power's own name, as written on the map
        return name
    for p in variant.map.powers:
        if p.lower() == name.strip().lower() or variant.map.powers[p].adjective.lower() == name.strip().lower():
            return p
    raise PositionError(f"{where}: unknown power {name!r}; powers of the {variant.name} map: {', '.join(variant.map.powers)}")


_power_name = power_name  # the name the core's modules use


def build_position(variant: Variant, req: TurnRequest, seasons: Optional[tuple[str, ...]] = None) -> Position:
    """The request's position, checked; ``seasons``: those the variant's calendar has (by
    default, under the variant's own rules)."""
    units: list[Unit] = []
    notation = variant.notation
    unit_specs = notation.unit_specs
    # the core's reading of a unit (one record a spec) from its memo, without the calls
    memo = notation.unit_memo if type(notation).unit_specs is Notation.unit_specs else None
    powers = variant.map.powers
    for power, specs in sorted(req.units.items()):
        pname = power if power in powers else _power_name(variant, power, "units")
        for spec in specs:
            if memo is not None:
                unit = memo.get((pname, spec))
                if unit is not None:
                    units.append(unit)
                    continue
            try:
                units.extend(unit_specs(pname, spec))
            except OrderError as exc:
                raise PositionError(f"units.{power}: bad unit {spec!r}: {exc.reason}") from None
    season = req.season
    if season is not None:
        if seasons is None:
            seasons = variant.calendar(variant, variant.rules()).seasons
        season = season_word(season, seasons)
        if season not in seasons:
            raise PositionError(f"season: {req.season!r} is not one of {', '.join(seasons)} (the {variant.name} variant's seasons)")
    # Checked before units are merged into stacks: two identical units are two units.
    # (built from the validated request and engine-made units: no second validation pass)
    variant.check_position(variant, Position.build(variant=variant.name, year=req.year, season=season, units=tuple(units)))
    pos = Position.build(variant=variant.name, year=req.year, season=season, units=canonical_units(units),
                         owners=build_owners(variant, req))
    if len(pos.units) != len(units):  # units were merged into stacks: check the stacks too
        variant.check_position(variant, pos)
    if not pos.units and not (req.phase == "adjustment" and req.owners) and req.phase != "placement":
        raise PositionError("units: the position is empty (no units given); nothing to adjudicate")
    return pos


def build_owners(variant: Variant, req: TurnRequest) -> dict[str, str]:
    """The centres each power owns, from ``[owners]``; without it, the variant's default."""
    if not req.owners:
        return variant.default_owners(variant)
    owners: dict[str, str] = {}
    for power, provs in sorted(req.owners.items()):
        pname = _power_name(variant, power, "owners")
        for text in provs:
            pid = variant.map.lookup_province(text)
            if pid is None or not variant.map.provinces[pid].supply_centre:
                raise PositionError(f"owners.{power}: {text!r} is not a supply centre of the {variant.name} map")
            if pid in owners and owners[pid] != pname:
                raise PositionError(f"owners: {variant.map.provinces[pid].name} is owned by both {owners[pid]} and {pname}")
            owners[pid] = pname
    return owners


def resolve_rules(variant: Variant, req: TurnRequest, rules: str | RuleOptions | None = None) -> RuleOptions:
    if isinstance(rules, RuleOptions):
        return variant.rules(rules)  # as the variant's options model
    return variant.rules(rules or req.rules, **req.options)
