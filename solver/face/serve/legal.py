"""Completion for the order boxes: for each unit of a board's position, the orders a player
would most likely write (hold, a move to each place it borders, supports of the units it could
support, and a fleet's convoys of the armies on the coasts of its sea), in the variant's own
words.  A list to choose from, not a judgement: dipsat adjudicates whatever is written, and says
why an order is illegal.

Where dipsat has its public legal-orders API (``dipsat.io.legal.legal_orders``, issue 28: every order the
binder accepts, convoy routes included, every phase), the lists are its own; until then, this
module's small adapter over the map (a unit's neighbours) gives the common ones.
"""

from __future__ import annotations

from typing import Any

from dipsat.limits import DEFAULT_LIMITS, Limits

from dipsat.face.serve.sandbox import is_board, read_state

MOST = 400  # orders listed per unit at most (a stacked board's supports grow fast)


def legal_orders(state: Any, limits: Limits = DEFAULT_LIMITS) -> dict[str, dict[str, list[str]]]:
    """``{power: {unit: [order, ...]}}`` for a board's movement phase (other phases and
    families: no list)."""
    game, req, _ = read_state(state, limits)
    if not is_board(game):
        return {}
    from importlib import import_module

    try:  # issue 28's module, where this dipsat has it
        public = getattr(import_module("dipsat.io.legal"), "legal_orders", None)
    except ImportError:
        public = None
    if public is not None:
        found: dict[str, dict[str, list[str]]] = public(req)
        return found
    if req.phase != "movement":
        return {}
    from dipsat.game.positions import build_position

    variant = game.variant  # type: ignore[attr-defined]
    m = variant.map
    pos = build_position(variant, req)
    units = list(pos.units)
    out: dict[str, dict[str, list[str]]] = {}

    def here(u: Any) -> str:
        return f"{u.kind} {m.display(u.location)}"

    for u in units:
        me = here(u)
        orders = [f"{me} Hold"]
        near = sorted(m.neighbours(u.kind, u.location))
        orders += [f"{me} - {m.display(n)}" for n in near]
        reach = {m.province_of(n) for n in near}
        for v in units:
            if v is u:
                continue
            if v.province in reach:
                orders.append(f"{me} Supports {here(v)}")
            for n in sorted(m.neighbours(v.kind, v.location)):
                if m.province_of(n) in reach and m.province_of(n) != u.province:
                    orders.append(f"{me} Supports {here(v)} - {m.display(m.province_of(n))}")
        if u.kind == "F" and m.provinces[u.province].is_sea:
            coasts = sorted({m.province_of(n) for n in near if not m.provinces[m.province_of(n)].is_sea})
            for v in units:
                if v.kind == "A" and v.province in coasts:
                    orders += [f"{me} Convoys {here(v)} - {m.display(c)}" for c in coasts if c != v.province]
        out.setdefault(u.power, {})[u.label()] = list(dict.fromkeys(orders))[:MOST]
    return out
