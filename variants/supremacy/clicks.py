"""A Supremacy battle drill set up and ordered by clicking the map (``dipsat serve``'s page).

Of Supremacy's cases, the battle drill (``kind = "drill"``: one assault, its forces and dice) is
the one a click maps onto: the map holds each superpower's armies and navies, and the assault
is an arrow from forces to a target.  So the page, on a drill:

* places or removes one army (a territory) or one navy (a sea) of a superpower a click, in the
  drill's ``state`` (``armies = { us_west = 3 }``, ``navies = [{ sea = "caribbean" }]``);
* draws the assault: the attacking forces' zone (how many, chosen on the page), then the target:
  ``drill = { attacker, target, forces = ["3 army us_west"] }``; forces from another zone
  against the same target join the assault; a click on the forces' own zone takes them out.

The rest of a drill (dice, L-Stars, occupation, reinforcements, nuclear strikes) and the other
kinds of case (set-up, stages, bids, a game) are written in the position (paste it): a turn of
Supremacy is eight stages of actions and dice rolls, which no click on a map says.
"""

from __future__ import annotations

from typing import Any, Optional

from dipsat.errors import DipsatError

from .board import Board, load_board

# what the page needs to know to draw orders and place units by clicking this family's picture
CLICKS: dict[str, Any] = {
    "place": "zone",  # the data attribute naming a zone (its shape and its unit tokens)
    "owner": "power",  # a unit token's superpower
    "count": "armies",  # a unit token's armies in the zone (a navy's zone: its navies)
    "kinds": ["army", "navy"],
    "orders": ["move"],  # the assault: forces, then the target
}


def blank() -> dict[str, Any]:
    """An empty battle drill: no forces yet, the first superpower attacking its first home, with no
    dice given (they are rolled from a seed derived from the drill: the same drill, the same rolls),
    the one set of resources an assault costs (Conventional Assault: 1 Grain, 1 Oil, 1 Mineral)."""
    board = load_board()
    power = next(iter(board.superpowers))
    return {"variant": "supremacy", "data": {"kind": "drill", "drill": {
        "attacker": power, "target": board.homes(power)[0], "forces": []},
        "state": {"powers": {power: {"grain": 1, "oil": 1, "mineral": 1}}}}}


def _drill(data: dict[str, Any]) -> tuple[Board, dict[str, Any]]:
    inner = data.get("data")
    if not isinstance(inner, dict) or inner.get("kind") not in ("drill", "odds"):
        kind = inner.get("kind") if isinstance(inner, dict) else None
        raise DipsatError(f"Supremacy: clicks set up a battle drill (kind 'drill'); this position is "
                          f"{'of kind ' + repr(kind) if kind else 'not a case'}: edit it as text (paste it)")
    if inner.get("board"):
        raise DipsatError("Supremacy: a drill on a board of its own is edited as text (paste it)")
    return load_board(), {**inner}


def _zone(board: Board, place: str) -> str:
    try:
        return board.lookup(place)
    except DipsatError:
        raise DipsatError(f"the click: {place!r} is not a zone of the Supremacy map") from None


def _powers(inner: dict[str, Any]) -> dict[str, Any]:
    state = dict(inner.get("state") or {})
    powers = {p: dict(h) for p, h in (state.get("powers") or {}).items()}
    inner["state"] = state | {"powers": powers}
    return powers


def edit_units(data: dict[str, Any], power: str, place: str, kind: Optional[str], delta: int) -> dict[str, Any]:
    """One army or navy of ``power`` more (``delta`` 1) or less (-1) in ``place``."""
    board, inner = _drill(data)
    zone = _zone(board, place)
    power = board.lookup_power(power)
    powers = _powers(inner)
    h = powers.setdefault(power, {})
    armies = dict(h.get("armies") or {})
    navies = [dict(n) for n in h.get("navies") or []]
    at_sea = [i for i, n in enumerate(navies) if n.get("sea") == zone]
    kind = kind or ("navy" if board.is_sea(zone) else "army")
    name = board.zone_name(zone)
    if kind == "navy":
        if not board.is_sea(zone):
            raise DipsatError(f"a navy stands at sea; {name} is a territory")
        if delta > 0:
            navies.append({"sea": zone})
        elif not at_sea:
            raise DipsatError(f"the click: {power} has no navy in {name}")
        else:
            del navies[min(at_sea, key=lambda i: (navies[i].get("armies", 0), -i))]  # an empty navy first
    elif kind == "army":
        if board.is_sea(zone):
            raise DipsatError(f"an army stands in a territory; {name} is a sea (armies at sea are aboard a navy)")
        n = int(armies.get(zone, 0)) + delta
        if n < 0:
            raise DipsatError(f"the click: {power} has no army in {name}")
        armies[zone] = n
    else:
        raise DipsatError(f"the click: a Supremacy unit is an army or a navy, not {kind!r}")
    h["armies"] = {z: n for z, n in sorted(armies.items()) if n}
    h["navies"] = navies
    for key in ("armies", "navies"):
        if not h[key]:
            del h[key]
    return data | {"data": inner}


def click_order(data: dict[str, Any], action: str, origin: str, target: str, count: Optional[int],
                ally: Optional[str]) -> dict[str, Any]:
    """The assault drawn by clicking (see the module's docstring)."""
    if action != "move":
        raise DipsatError(f"the click: a Supremacy drill is an assault (forces, then a target), not {action!r}")
    board, inner = _drill(data)
    o, t = _zone(board, origin), _zone(board, target)
    powers = _powers(inner)
    held = [(p, int((h.get("armies") or {}).get(o, 0)), sum(1 for n in h.get("navies") or [] if n.get("sea") == o))
            for p, h in sorted(powers.items())]
    power, armies, navies = next(((p, a, n) for p, a, n in held if a or n), ("", 0, 0))
    if not power:
        raise DipsatError(f"the click: no forces in {board.zone_name(o)} to attack with")
    drill = dict(inner.get("drill") or {})
    if o == t:  # the forces' own zone: they are taken out of the assault
        if drill.get("attacker") != power:
            raise DipsatError(f"the click: an assault goes from the forces' zone to another zone ({power} has none to "
                              "take forces out of)")
        t = str(drill.get("target") or t)
    same = drill.get("attacker") == power and drill.get("target") == t
    forces = [f for f in drill.get("forces") or [] if same and isinstance(f, str) and not f.strip().endswith(f" {o}")]
    if o != t and o != _zone(board, target):
        kind, have = ("army", armies) if armies else ("navy", navies)
        n = min(count, have) if isinstance(count, int) and count > 0 else have
        forces.append(f"{n} {kind} {o}")
    gone = ("attacker", "target", "forces") + (() if same else ("occupy", "reinforcements"))  # another assault's
    keep = {k: v for k, v in drill.items() if k not in gone}
    inner["drill"] = keep | {"attacker": power, "target": t, "forces": forces}
    return data | {"data": inner}
