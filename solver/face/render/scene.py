"""What a picture shows, before any drawing: the scene of a result or a position (units, orders
coloured by outcome, dislodged units, retreat options), the outcome colours and sizes, and the
hints a variant adds (:class:`RenderHints`)."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any, Literal, Optional

from dipsat.game.variant import RenderHints
from dipsat.errors import DipsatError
from dipsat.maps import GameMap
from dipsat.models import FLEET, Convoy, Move, Order, Position, Support, Unit
from dipsat.outcomes import Outcome
from dipsat.records import dataclass


Status = Literal["ok", "fail", "rejected"]

COLOURS: dict[Status, str] = {"ok": "#1a9641", "fail": "#d7191c", "rejected": "#8c8c8c"}
RETREAT_OPTION = "#7b3294"
LAND = "#efe6cf"
COASTAL = "#e4d6b0"  # a coastal province, when the board is drawn as shapes
SEA = "#cfe3f3"
IMPASSABLE = "#bdbdbd"

# Colours for powers whose map gives none: a fixed palette, assigned in sorted name order.
PALETTE = ("#2b6cb0", "#c53030", "#2f855a", "#d69e2e", "#6b46c1", "#319795", "#dd6b20",
           "#b83280", "#4a5568", "#718096", "#38a169", "#805ad5")

UNIT_R = 11.0  # radius of a unit token
NODE_R = 15.0  # radius of a land province node
SEA_R = 19.0  # radius of a sea node
LEGEND_H = 104.0  # height of the legend band under the map
TITLE_H = 30.0  # height of the title band over the map


class RenderError(DipsatError):
    """Something cannot be drawn (no converter for PNG, a location without a point)."""


@dataclass(frozen=True)
class Drawn:
    """One order to draw: its kind, the unit, where it goes, and its outcome."""

    kind: Literal["hold", "move", "support", "convoy", "retreat", "build", "disband"]
    unit: int
    status: Status
    title: str
    dest: Optional[str] = None  # location (move, retreat), province (support, convoy)
    target: Optional[int] = None  # supported or convoyed unit
    via: tuple[str, ...] = ()  # provinces a route crosses (written routes and convoy paths)
    convoyed: bool = False
    tag: str = ""  # the order body's kind tag (a variant's move kinds get it as a CSS class)


@dataclass
class Scene:
    """Everything one picture shows, in the map's own terms."""

    map: GameMap
    position: Position
    title: str = ""
    drawn: list[Drawn] = field(default_factory=list)
    dislodged: dict[int, str] = field(default_factory=dict)  # unit -> hover text
    retreat_options: dict[int, tuple[str, ...]] = field(default_factory=dict)
    new_units: list[tuple[Unit, str]] = field(default_factory=list)  # builds: unit, hover text
    hints: RenderHints = field(default_factory=RenderHints)


# -- from results to scenes ------------------------------------------------------------------


OPENING_SEASONS = (None, "spring", "summer", "fall", "autumn")  # before the first change of hands


def shown_owners(game_map: GameMap, pos: Position) -> dict[str, str]:
    """The owner of each supply centre as the picture colours it: the position's, or, for a
    position of the map's first year before its adjustments that gives none (a game's opening,
    a turn file of Spring 1901 without ``[owners]``), each power's home centres, which no
    centre can have left before the first year's adjustments."""
    if pos.owners or pos.year != game_map.start_year or pos.season not in OPENING_SEASONS:
        return dict(pos.owners)
    return {h: name for name, power in sorted(game_map.powers.items()) for h in power.home
            if h in game_map.provinces and game_map.provinces[h].supply_centre}



def outcome_status(o: Outcome) -> Status:
    if o.order_kind == "rejected":
        return "rejected"
    return "ok" if o.succeeded else "fail"


def _hover(o: Outcome) -> str:
    text = f"{o.power}: {o.text} — {o.result.replace('_', ' ')}"
    if o.reason:
        text += f": {o.reason}"
    if o.by:
        text += " (by " + "; ".join(r.text for r in o.by) + ")"
    return text


def convoyed_units(result: Any) -> set[int]:
    """The units whose move went, or tried to go, by convoy, as the result records it (not as
    the order text says): moved by convoy (``convoyed``), failed on the convoy route
    (``via_convoy`` of the outcome) or stopped for want of a convoy path (``no_path``)."""
    units = set(getattr(result, "convoyed", ()))
    for o in result.outcomes:
        if o.unit is not None and o.order_kind == "move" and (getattr(o, "via_convoy", False) or o.kind == "no_path"):
            units.add(o.unit)
    return units


def convoy_route(game_map: GameMap, pos: Position, orders: tuple[Order, ...], unit: int, dest: str) -> tuple[str, ...]:
    """The provinces of the fleets that convoy ``unit`` to ``dest``, in order from the army to
    the destination: the shortest chain of the fleets ordered to convoy it there (fewest fleets;
    ties by province id, so the same orders always give the same route); () when the ordered
    convoys make no chain."""
    goal = game_map.province_of(dest)
    start = pos.units[unit].province
    fleets = sorted({pos.units[o.body.unit].location for o in orders
                     if isinstance(o.body, Convoy) and o.body.target == unit and o.body.dest == goal})
    came: dict[str, Optional[str]] = {}
    frontier = [f for f in fleets if game_map.can_reach_province(FLEET, f, start)]
    for f in frontier:
        came[f] = None
    while frontier:
        nxt: list[str] = []
        for f in frontier:
            if game_map.can_reach_province(FLEET, f, goal):
                chain = [f]
                while (prev := came[chain[-1]]) is not None:
                    chain.append(prev)
                return tuple(game_map.province_of(x) for x in reversed(chain))
            for g in fleets:
                if g not in came and game_map.can_reach_province(FLEET, f, game_map.province_of(g)):
                    came[g] = f
                    nxt.append(g)
        frontier = nxt
    return ()


def _orders_scene(scene: Scene, result: Any) -> None:
    """Add the orders of a movement turn, each with the outcome of its unit; a move the result
    says went (or tried to go) by convoy is drawn as a convoyed move along its fleets, whatever
    its text says."""
    orders: tuple[Order, ...] = result.orders
    outcomes: tuple[Outcome, ...] = result.outcomes
    convoyed = convoyed_units(result)
    by_unit: dict[int, Outcome] = {}
    for o in outcomes:
        if o.unit is not None and (o.unit not in by_unit or o.order_kind != "rejected"):
            by_unit[o.unit] = o
    rejected = {o.unit: o for o in outcomes if o.unit is not None and o.order_kind == "rejected"}
    for unit, rej in sorted(rejected.items()):  # what a rejected order tried, where it can be read
        dest = _written_dest(scene.map, rej.text)
        if dest is not None and dest != scene.map.province_of(scene.position.units[unit].location):
            scene.drawn.append(Drawn("move", unit, "rejected", _hover(rej), dest=dest, tag="rejected"))
    for order in orders:
        body = order.body
        out = by_unit.get(body.unit)
        if out is None:
            continue
        status = outcome_status(out)
        title = _hover(out)
        if body.unit in rejected and out is not rejected[body.unit]:
            title += "\n" + _hover(rejected[body.unit])
            status = "rejected" if out.order_kind == "hold" else status
        if isinstance(body, Move):
            # a move kind with a ``route`` (a variant's, e.g. a fly-over) is drawn along it
            by_convoy = body.via_convoy or body.unit in convoyed
            route = getattr(body, "route", None) or body.path
            if by_convoy and not route:
                route = convoy_route(scene.map, scene.position, orders, body.unit, body.dest)
            scene.drawn.append(Drawn("move", body.unit, status, title, dest=body.dest, via=tuple(route),
                                     convoyed=by_convoy, tag=body.kind))
        elif isinstance(body, Support):
            scene.drawn.append(Drawn("support", body.unit, status, title, dest=body.dest, target=body.target))
        elif isinstance(body, Convoy):
            scene.drawn.append(Drawn("convoy", body.unit, status, title, dest=body.dest, target=body.target))
        else:  # a hold, or a variant's own order kind that is not a move: drawn at its unit
            scene.drawn.append(Drawn("hold", body.unit, status, title))


def _dislodged(scene: Scene, result: Any) -> None:
    pos = result.position
    for u in result.dislodged:
        by = result.dislodged_by.get(u)
        scene.dislodged[u] = f"{pos.units[u].label()} is dislodged" + (
            f" by {pos.units[by].label()}" if by is not None else "")


def _written_dest(game_map: GameMap, text: str) -> Optional[str]:
    """The province an order names after its last dash ('A Par - Bur'), if it is one."""
    for dash in ("–", "—"):
        text = text.replace(dash, "-")
    if "-" not in text:
        return None
    tail = text.rsplit("-", 1)[1].strip()
    for word in (" via", " by"):
        tail = tail.split(word)[0]
    name = tail.split("(")[0].split("/")[0].strip()
    return game_map.lookup_province(name) if name else None


def _retreat_dest(game_map: GameMap, text: str, options: tuple[str, ...]) -> Optional[str]:
    """The location a retreat order names, read from its last '-' part."""
    pid = _written_dest(game_map, text)
    if pid is None:
        return None
    for loc in options:
        if game_map.province_of(loc) == pid:
            return loc
    return pid


def scene_of(result: Any, game_map: GameMap, title: str = "") -> Scene:
    """A scene for a position, a movement, retreat or adjustment result."""
    if isinstance(result, Position):
        return Scene(game_map, result, title)
    parts = getattr(result, "parts", None)
    if parts:  # a phase of several parts played in turn (a postal year's retreats and season): its last
        return scene_of(parts[-1], game_map, title)
    movement = getattr(result, "movement", None)
    if movement is not None:  # a retreat phase: the movement, then the retreats
        scene = scene_of(movement, game_map, title)
        scene.drawn = [d for d in scene.drawn if d.kind != "hold" or d.status != "ok"]
        for opt in result.options:
            scene.retreat_options[opt.unit] = tuple(opt.open)
        options = {opt.unit: tuple(opt.open) for opt in result.options}
        for o in result.outcomes:
            if o.unit is None:
                continue
            dest = _retreat_dest(game_map, o.text, options.get(o.unit, ()))
            if o.result == "disbanded" or dest is None:
                scene.drawn.append(Drawn("disband", o.unit, outcome_status(o), _hover(o)))
            else:
                scene.drawn.append(Drawn("retreat", o.unit, outcome_status(o), _hover(o), dest=dest))
        return scene
    scene = Scene(game_map, result.position, title)
    orders = getattr(result, "orders", ())
    if orders:
        _orders_scene(scene, result)
        _dislodged(scene, result)
        return scene
    # an adjustment phase: units built (in the position after) and removed
    before = {(u.power, u.kind, u.location) for u in result.position.units}
    after = {(u.power, u.kind, u.location) for u in result.after.units}
    texts: dict[str, list[str]] = {o.power: [] for o in result.outcomes}
    for o in result.outcomes:
        texts[o.power].append(_hover(o))
    for u in result.after.units:
        if (u.power, u.kind, u.location) not in before:
            scene.new_units.append((u, "\n".join(t for t in texts.get(u.power, []) if "build" in t.lower()) or f"{u.label()} built"))
    for i, u in enumerate(result.position.units):
        if (u.power, u.kind, u.location) not in after:
            hit = next((o for o in result.outcomes if o.unit == i), None)
            scene.drawn.append(Drawn("disband", i, "ok", _hover(hit) if hit else f"{u.label()} removed"))
    return scene
