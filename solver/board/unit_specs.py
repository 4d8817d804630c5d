"""A position's units as written (``"F Spain(nc)"``, ``"A Par"``, ``"2 F Nth"``), read by the
map's notation (:mod:`dipsat.board.notation`) into :class:`~dipsat.models.Unit` records."""

from __future__ import annotations

from typing import Optional, Protocol

from dipsat.maps import GameMap

from dipsat.board.parsed import ParsedOrder
from dipsat.errors import AmbiguousOrder, InvalidOrder
from dipsat.models import Unit


class Notation(Protocol):
    """What reading a unit asks of the map's notation (:class:`dipsat.board.notation.Notation`)."""

    map: GameMap
    unit_memo: dict[tuple[str, str], Unit]

    def parse(self, text: str, power: Optional[str] = None) -> ParsedOrder: ...


def parse_unit_spec(notation: Notation, power: str, text: str) -> Unit:
    """``"F Spain(nc)"`` / ``"A Par"`` / ``"2 F Nth"`` -> Unit (for positions)."""
    memo = notation.unit_memo
    key = (power, text)
    hit = memo.get(key)
    if hit is None:
        hit = _parse_unit_spec(notation, power, text)
        if len(memo) > 50_000:
            memo.clear()
        memo[key] = hit
    return hit


def _parse_unit_spec(notation: Notation, power: str, text: str) -> Unit:
    raw = text.strip()
    count = 1
    parts = raw.split(None, 1)
    if parts and parts[0].isdigit():
        count = int(parts[0])
        raw = parts[1] if len(parts) > 1 else ""
    p = notation.parse(raw)
    if p.action != "hold" or p.unit.kind is None:
        raise InvalidOrder(text, "a unit is written as a kind and a place, e.g. 'F Spain(nc)' or 'A Par'")
    m = notation.map
    prov = p.unit.loc.province
    pdata = m.provinces[prov]
    if p.unit.kind not in ("A", "F"):  # other kinds of unit: the variant checks where they may stand
        return Unit(power=power, kind=p.unit.kind, location=prov, count=count)
    if p.unit.kind == "A":
        if pdata.terrain not in ("land", "coast"):
            raise InvalidOrder(text, f"an army cannot stand on {pdata.name} ({pdata.terrain})")
        loc = prov
    else:
        if pdata.coasts:
            if not p.unit.loc.coast:
                raise AmbiguousOrder(text, f"a fleet in {pdata.name} must name its coast: {' or '.join(m.display(c) for c in pdata.coasts)}")
            loc = p.unit.loc.location()
            if loc not in pdata.coasts:
                raise InvalidOrder(text, f"{pdata.name} has no coast {p.unit.loc.coast!r}")
        else:
            loc = prov
            if not m.is_fleet_location(loc):
                raise InvalidOrder(text, f"a fleet cannot stand on {pdata.name} ({pdata.terrain})")
    return Unit(power=power, kind=p.unit.kind, location=loc, count=count)
