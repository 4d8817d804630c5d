"""Every legal order of every unit of a position (a movement phase of a Diplomacy board):
what bots, fuzzers and teachers enumerate, as MILA's ``get_all_possible_orders`` does.

Candidates are written from the board (a move to every place, by convoy where a chain of the
turn's fleets could carry the unit; supports and convoys of what the other units could do, to
where the unit could go); each is then *bound* by the variant's own order
binder under the turn's rules, and only the texts it accepts as legal are listed — the list is
what the adjudicator takes, whatever a variant's notation or geography changes.

    >>> from dipsat import legal_orders
    >>> legal_orders({"units": {"France": ["A Par"]}})["France"]["A Par"]
    ['A Par H', 'A Par - Bre', 'A Par - Bur', 'A Par - Gas', 'A Par - Pic']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from dipsat.errors import DipsatError, InputFileError
from dipsat.models import Position, Unit

if TYPE_CHECKING:
    from dipsat.maps import GameMap

    from dipsat.game.request import TurnRequest
    from dipsat.board.geography import Geography
    from dipsat.game.pipeline import Pipeline
    from dipsat.rules import RuleOptions

LegalOrders = dict[str, dict[str, list[str]]]
"""power -> unit as dipsat writes it (``"A Par"``, ``"F Spa/nc"``) -> its legal order texts."""


def legal_orders(request: "TurnRequest | dict[str, Any]", rules: "str | RuleOptions | None" = None) -> LegalOrders:
    """Every legal order of every unit of ``request``'s position (its ``orders`` are ignored):
    power -> unit as dipsat writes it (``"A Par"``, ``"F Spa/nc"``) -> the order texts, each one
    accepted by the variant's binder under ``rules`` (default: the request's own): the hold,
    every move (``" via convoy"`` where a chain of fleets could carry the army), every support
    of a hold or of a move the supported unit could make, every convoy along a chain of fleets.

    For movement phases of Diplomacy-board variants.  A stack (several units of one power in one
    province, ``"3 A Boh"``) is listed as one unit whose orders move or hold it whole; left out
    are splits (part of a stack ordered apart), merges written as one order, and orders only a
    variant's own grammar writes (a fly-over's route, an allowance, a merge of several powers' units).

        >>> from dipsat import legal_orders
        >>> legal = legal_orders({"units": {"England": ["F Lon", "A Yor"]}})
        >>> "F Lon S A Yor - Wal" in legal["England"]["F Lon"]
        True
    """
    from pydantic import ValidationError

    from dipsat.game.pipeline import Pipeline
    from dipsat.game.registry import find_record
    from dipsat.game.request import TurnRequest, describe_validation
    from dipsat.game.variant import Variant

    if isinstance(request, dict):
        record = find_record(str(request.get("variant") or "standard"))
        if not isinstance(record, Variant):
            raise DipsatError(f"legal orders are listed for the variants of a Diplomacy board; {record.name} is a game "
                              "of another family")
        try:
            request = TurnRequest.model_validate({**request, "orders": {}, "retreat_orders": {}})
        except ValidationError as exc:
            raise InputFileError(describe_validation(exc)) from None
    if request.phase not in (None, "movement"):
        raise DipsatError(f"legal orders are listed for movement phases; this request is a {request.phase} phase")
    pipe = Pipeline.for_request(request, rules)
    position = pipe.prepare(request.model_copy(update={"orders": {}, "retreat_orders": {}})).position
    return legal_orders_of(pipe, position)


def legal_orders_of(pipe: "Pipeline", position: Position) -> LegalOrders:
    """:func:`legal_orders` of a position in a pipeline's variant and rules."""
    binder = pipe.variant.binder(pipe.rules)
    m, geo = binder.map, binder.geo
    units = position.units
    fleets = frozenset(u.province for u in units if geo.can_convoy(u) and geo.convoy_area(u.province))
    label = {i: f"{u.kind} {m.display(u.location)}" for i, u in enumerate(units)}  # as another order names it
    own = {i: (f"{u.count} " if u.count != 1 else "") + label[i] for i, u in enumerate(units)}  # a stack: all of it
    places = sorted(set(m.provinces) | {c for p in m.provinces for c in m.fleet_locations_in(p)}, key=m.display)
    first: dict[int, int] = {}  # unit -> the first unit of its key (a stack's units share one)
    keys: dict[tuple[str, str], int] = {}
    for i, u in enumerate(units):
        first[i] = keys.setdefault((u.power, own[i]), i)
    # 1. holds and moves: to every place of the board (a variant's units may reach far), and by
    #    convoy where a chain of the turn's fleets could carry the unit; the binder decides
    dest: dict[str, str] = {}  # move text -> the province it goes to
    moves: dict[tuple[str, str], list[str]] = {}
    for key, i in keys.items():
        me, u = own[i], units[i]
        texts = [f"{me} H"]
        for x in places:
            if m.province_of(x) != u.province:
                dest[f"{me} - {m.display(x)}"] = m.province_of(x)
                texts.append(f"{me} - {m.display(x)}")
        for d in sorted(_convoy_destinations(m, geo, u, fleets), key=m.display):
            dest[f"{me} - {m.display(d)} via convoy"] = d
            texts.append(f"{me} - {m.display(d)} via convoy")
        moves[key] = texts
    legal = _bound(pipe, position, moves)
    goes = {key: {dest[t] for t in legal[key] if t in dest} for key in keys}  # where each unit could move
    # 2. supports and convoys of what the other units could do, to where the unit could go
    others: dict[tuple[str, str], list[str]] = {}
    for key, i in keys.items():
        me, u = own[i], units[i]
        texts = []
        for j, other in enumerate(units):
            if first[j] != j or j == i:
                continue
            them = goes[(other.power, own[j])]
            if other.province in goes[key]:
                texts.append(f"{me} S {label[j]}")
            texts += [f"{me} S {label[j]} - {m.display(p)}" for p in sorted(goes[key] & them, key=m.display)]
            if geo.can_convoy(u) and geo.convoy_area(u.province) and geo.convoyable(other):
                texts += [f"{me} C {label[j]} - {m.display(d)}" for d in sorted(them, key=m.display)
                          if geo.convoy_chain_possible(other.province, d, fleets, through=u.province)]
        others[key] = texts
    legal_too = _bound(pipe, position, others)
    out: LegalOrders = {}
    for key in keys:
        out.setdefault(key[0], {})[key[1]] = ([t for t in moves[key] if t in legal[key]]
                                              + [t for t in others[key] if t in legal_too[key]])
    return {p: dict(sorted(us.items())) for p, us in sorted(out.items())}


def _convoy_destinations(m: "GameMap", geo: "Geography", u: Unit, fleets: frozenset[str]) -> set[str]:
    """The provinces a chain of the turn's fleets could carry the unit to."""
    if not geo.convoyable(u) or not fleets:
        return set()
    return {p for p in m.provinces if p != u.province and geo.convoy_chain_possible(u.province, p, fleets)}


def _bound(pipe: "Pipeline", position: Position, candidates: dict[tuple[str, str], list[str]]) -> dict[tuple[str, str], set[str]]:
    """The candidates the binder accepts, bound in rounds of one candidate per unit (so a
    stack's orders are not allotted to each other, and no unit has two orders)."""
    legal: dict[tuple[str, str], set[str]] = {k: set() for k in candidates}
    rounds = max((len(v) for v in candidates.values()), default=0)
    for r in range(rounds):
        orders: dict[str, list[str]] = {}
        asked: dict[tuple[str, str], tuple[str, str]] = {}  # (power, text) -> key
        for key, texts in candidates.items():
            if r < len(texts):
                orders.setdefault(key[0], []).append(texts[r])
                asked[(key[0], texts[r])] = key
        bound = pipe.bind(position, orders)
        refused = {(x.power, x.text) for x in bound.rejected if not x.duplicate}
        for (power, text), key in asked.items():
            if (power, text) not in refused:
                legal[key].add(text)
    return legal
