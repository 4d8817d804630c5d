"""A round set up and ordered by clicking the map (``dipsat serve``'s page).

The picture names each country and free city by ``data-node`` (its places and its unit tokens,
a token also by ``data-player`` and ``data-count``).  A click places or removes one unit of a
player in a country (the seed: one player per country, at most its capacity); an order drawn by
clicking is written in the seed's notation and added at the end of the player's list (the list's
order is its priority: "earlier orders have priority over later orders in each player's list"):

* the player's country, then another: ``A n Yug-Tar`` (attack or move with n units, the count
  chosen on the page, all of them first); the country again: ``H Yug``;
* support: the supporting country, the ally's country, then the country it attacks:
  ``SA Dis-Pie n Ciu``; the ally's country again: ``SD Dis n Ciu`` (defence).
"""

from __future__ import annotations

from typing import Any, Optional

from dipsat.errors import DipsatError

from .board import Board, parse_units
from .notation import Order
from .requests import DEFAULT_MAP, get_map

WHERE = "the page's position"

# what the page needs to know to draw orders and place units by clicking this family's picture
CLICKS: dict[str, Any] = {
    "place": "node",  # the data attribute naming a place (its shape and its unit token)
    "owner": "player",  # a unit token's player
    "count": "count",  # a unit token's number of units
    "kinds": [],  # one kind of unit
    "orders": ["move", "support"],  # move / hold; support of an attack or of a defence
    "players": ["A", "B", "C", "D", "E", "F"],  # names offered when the position has none yet
}


def blank() -> dict[str, Any]:
    """An empty round on the bundled map."""
    return {"variant": "continents", "units": {}, "orders": {}}


def _round(data: dict[str, Any]) -> tuple[Any, Board]:
    if "phases" in data or isinstance(data.get("data"), dict):
        raise DipsatError("a continents game (its draw and placement phases) is not edited by clicking: "
                          "edit its file, or set up a round (units and orders)")
    cmap = get_map(str(data.get("map") or DEFAULT_MAP), WHERE)
    units = data.get("units") or {}
    if not isinstance(units, dict):
        raise DipsatError(f"{WHERE}: units: expected a table of players")
    return cmap, parse_units(cmap, units, "units")


def _node(cmap: Any, place: str) -> str:
    node = cmap.lookup(place)
    if node is None:
        raise DipsatError(f"the click: {place!r} is not a country or free city of the {cmap.title} map")
    return str(node)


def edit_units(data: dict[str, Any], power: str, place: str, kind: Optional[str], delta: int) -> dict[str, Any]:
    """One unit of ``power`` more (``delta`` 1) or less (-1) in ``place``."""
    cmap, board = _round(data)
    node = _node(cmap, place)
    holdings = dict(board.holdings)
    owner, n = holdings.get(node, (power, 0))
    name = cmap.nodes[node].name
    if delta > 0:
        if owner != power:
            raise DipsatError(f"{name} is held by {owner}: one player per country (remove its units first)")
        if n + 1 > cmap.nodes[node].capacity:
            raise DipsatError(f"{name} holds at most {cmap.nodes[node].capacity} units")
        holdings[node] = (power, n + 1)
    else:
        if n == 0:
            raise DipsatError(f"the click: nobody has a unit in {name}")
        if n == 1:
            del holdings[node]
        else:
            holdings[node] = (owner, n - 1)
    players = tuple(p for p in (data.get("units") or {}) if isinstance(p, str))
    return data | {"units": Board(holdings=holdings).as_units(cmap, players)}


def click_order(data: dict[str, Any], action: str, origin: str, target: str, count: Optional[int],
                ally: Optional[str]) -> dict[str, Any]:
    """The order drawn by clicking (see the module's docstring), added to its player's list."""
    cmap, board = _round(data)
    o = _node(cmap, origin)
    player = board.owner(o)
    if player is None:
        raise DipsatError(f"the click: nobody has a unit in {cmap.nodes[o].name} to order")
    t = _node(cmap, target)
    n = count if isinstance(count, int) and count > 0 else board.count(o)
    if action == "move":
        order = Order("hold", o) if t == o else Order("move", o, t, n)
    elif action == "support":
        if not ally:
            raise DipsatError("a support names the ally's country it supports")
        a = _node(cmap, ally)
        order = Order("support_defence", o, a, n) if t == a else Order("support_attack", o, t, n, a)
    else:
        raise DipsatError(f"the click: orders drawn here are moves and supports, not {action!r}")
    text = order.format(cmap)
    orders = {p: list(v) for p, v in (data.get("orders") or {}).items()}
    mine = orders.setdefault(player, [])
    if text not in mine:
        mine.append(text)
    return data | {"orders": orders}
