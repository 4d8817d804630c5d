"""Where a position's units are, read once per position for the order checks
(:class:`Seats`; :mod:`dipsat.board.orders` asks it of every order)."""

from __future__ import annotations

from operator import attrgetter
from typing import Optional, cast

from dipsat.models import Position
from dipsat.board.geography import Geography
from dipsat.records import dataclass


@dataclass(frozen=True)
class Seats:
    """Where a position's units are: province -> the indices of the units there, and the convoy
    areas holding a fleet (a convoyed move is legal only along them, DATC 6.D.32)."""

    position: Position
    at: dict[str, list[int]]
    fleets: frozenset[str]
    provinces: list[str]  # unit index -> its province
    # unit index -> its power, kind and location (read once: a model's field costs several
    # times a list's item)
    powers: list[str]
    kinds: list[str]
    locations: list[str]

    @classmethod
    def of(cls, pos: Position, geo: Geography) -> Seats:
        units = pos.units
        tables = geo.tables
        province_of, convoy_areas = tables.province.get, tables.convoy_areas
        # (each field's list made by one C-level pass over the units)
        locations: list[str] = list(map(_LOCATION, units))
        found: list[Optional[str]] = list(map(province_of, locations))
        at: dict[str, list[int]] = {}
        fleets: set[str] = set()
        for i, prov in enumerate(found):
            if not prov:  # (a location the board's tables do not hold: the unit's own reading)
                prov = found[i] = units[i].province
            here = at.get(prov)
            if here is None:
                at[prov] = [i]
            else:
                here.append(i)
            if prov in convoy_areas and geo.can_convoy(units[i]):
                fleets.add(prov)
        provinces = cast(list[str], found)  # (every one found now)
        return cls(pos, at, frozenset(fleets), provinces, list(map(_POWER, units)), list(map(_KIND, units)), locations)


_LOCATION, _POWER, _KIND = attrgetter("location"), attrgetter("power"), attrgetter("kind")
