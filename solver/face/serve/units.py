"""Units placed and removed by clicking the map: a state's position with one unit more or less.

A click names a power, a place (a province, a coast, or a family's own place id as its picture
draws it), and the kind of unit; the answer is the state with the position changed, written in
the state's own terms, so that it reads, exports and shares as if typed.

* A Diplomacy board: a unit is added as ``KIND PLACE`` (the page's words).  On a board that
  stacks units (no limit of units per province), units of one power and kind in one place
  make one stack: a unit added where its power's units of that kind stand makes the stack one
  larger (``A Bre`` -> ``2 A Bre``), a unit removed from a stack makes it one smaller; that
  power's units in that province are written anew (``2 A Bre``, ``F Bre``), its others are
  left as written.
* Another family: its game object's ``edit_units(data, power, place, kind, delta)`` when it has
  one (the family knows how its position is written); a family without it says so.  Its orders
  drawn by clicking are its ``click_order(data, action, origin, target, count, ally)``'s (a
  board's the page writes itself, in the board's notation); what the page needs to know of its
  picture and its orders is its ``clicks`` (:func:`dipsat.face.serve.sandbox.variants`).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from dipsat.errors import DipsatError, OrderError
from dipsat.limits import DEFAULT_LIMITS, Limits
from dipsat.game.families import find_game, variant_of

from dipsat.face.serve.sandbox import PAGE_ONLY, WHERE, is_board

Editor = Callable[[dict[str, Any], str, str, Optional[str], int], dict[str, Any]]


def edit_units(state: Any, power: str, place: str, kind: Optional[str] = None, delta: int = 1,
               limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """The state with ``delta`` (+1: one unit placed, -1: one removed) of ``power``'s units of
    ``kind`` at ``place``."""
    if not isinstance(state, dict):
        raise DipsatError(f"{WHERE}: expected a table of fields, got {type(state).__name__}")
    if not isinstance(power, str) or not power.strip():
        raise DipsatError("the click: name the power whose unit it places or removes")
    if not isinstance(place, str) or not place.strip():
        raise DipsatError("the click: name the place")
    if delta not in (1, -1):
        raise DipsatError(f"the click: a unit is placed (+1) or removed (-1), not {delta!r}")
    data = {k: v for k, v in state.items() if k not in PAGE_ONLY}
    game = find_game(variant_of(data))
    if is_board(game):
        out = _edit_board(game, data, power.strip(), place.strip().lower(), kind, delta)
    else:
        edit: Optional[Editor] = getattr(game, "edit_units", None)
        if edit is None:
            raise DipsatError(f"{game.name}: its units are not placed by clicking the map; "
                              "write them in the position (paste it) or load a case")
        out = edit(data, power.strip(), place.strip(), kind, delta)
    return out | {k: state[k] for k in PAGE_ONLY if k in state}


def click_order(state: Any, action: str, origin: str, target: str, count: Optional[int] = None,
                ally: Optional[str] = None, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """The state with the order drawn by clicking (``action`` from ``origin`` to ``target``, with
    ``count`` units, for the ``ally``'s country) added, in the family's own notation."""
    if not isinstance(state, dict):
        raise DipsatError(f"{WHERE}: expected a table of fields, got {type(state).__name__}")
    data = {k: v for k, v in state.items() if k not in PAGE_ONLY}
    game = find_game(variant_of(data))
    draw = getattr(game, "click_order", None)
    if draw is None:
        raise DipsatError(f"{game.name}: its orders are not drawn by clicking here; type them")
    out: dict[str, Any] = draw(data, action, origin, target, count, ally)
    return out | {k: state[k] for k in PAGE_ONLY if k in state}


def _edit_board(game: Any, data: dict[str, Any], power: str, place: str, kind: Optional[str],
                delta: int) -> dict[str, Any]:
    from dipsat.models import Unit

    variant = game.variant
    m = variant.map
    province = place.split("/")[0]
    if province not in m.provinces or (place != province and place not in m.coasts):
        raise DipsatError(f"the click: {place!r} is not a place of {variant.name}'s map")
    units = data.get("units")
    table: dict[str, list[str]] = {p: list(s) for p, s in units.items()} if isinstance(units, dict) else {}
    specs = [s for s in table.get(power, []) if isinstance(s, str)]
    notation = variant.notation

    def read(spec: str) -> list[Unit]:
        try:
            return list(notation.unit_specs(power, spec))
        except (OrderError, DipsatError):
            return []

    stacks = variant.max_units_per_province is None
    if delta > 0:
        if not kind:
            raise DipsatError("the click: name the kind of unit to place")
        spec = f"{kind} {m.display(place) if place in m.coasts else m.provinces[province].name}"
        new = read(spec)
        if not new:
            try:
                notation.unit_specs(power, spec)
            except (OrderError, DipsatError) as exc:
                raise DipsatError(f"a unit cannot be placed there: {exc}") from None
            raise DipsatError(f"a unit cannot be placed there: {spec}")
        if not stacks:
            table[power] = specs + [spec]
            return data | {"units": table}
    here = [s for s in specs if any(u.province == province for u in read(s))]
    if not here and delta < 0:
        raise DipsatError(f"the click: {power} has no unit in {m.provinces[province].name}")
    if not stacks:  # one unit a province: the unit there goes (of the kind clicked, when it says)
        gone = next((s for s in here if not kind or any(u.kind == kind for u in read(s))), here[0])
        specs.remove(gone)
        table[power] = specs
        return _tidy(data, table)
    counts: dict[tuple[str, str], int] = {}
    for s in here:
        for u in read(s):
            counts[(u.kind, u.location)] = counts.get((u.kind, u.location), 0) + u.count
    if delta > 0:
        u = new[0]
        counts[(u.kind, u.location)] = counts.get((u.kind, u.location), 0) + 1
    else:
        key = next((k for k in sorted(counts) if not kind or k[0] == kind), None)
        if key is None:
            raise DipsatError(f"the click: {power} has no {kind} in {m.provinces[province].name}")
        counts[key] -= 1
    at = sum(1 for s in specs[:specs.index(here[0])] if s not in here) if here else len(specs)
    rest = [s for s in specs if s not in here]  # the province's units written anew where they were
    rest[at:at] = [Unit(power=power, kind=k, location=loc, count=n).short() for (k, loc), n in sorted(counts.items()) if n > 0]
    table[power] = rest
    return _tidy(data, table)


def _tidy(data: dict[str, Any], table: dict[str, list[str]]) -> dict[str, Any]:
    return data | {"units": {p: s for p, s in table.items() if s}}
