"""Pictures of a turn: an SVG map of the position, every order drawn and coloured by outcome.

The drawing is a schematic of the map's graph, not map artwork: each province is a node at the
point its map file gives in ``[layout]`` (or an automatic networkx layout for maps without one),
land and sea told apart by colour and shape, adjacency drawn as faint lines, supply centres as
small dots coloured by owner.  On top of it:

* units as tokens in their power's colour with the unit kind's letter and, for stacks, the count;
* moves as arrows (a convoyed move as a long-dashed arrow), supports as dashed lines ending on the
  supported move (or ringing the supported unit), convoys as dotted lines from the army through
  the convoying fleet to the destination, holds as rings around the unit;
* green for an order that succeeded, red for one that failed, grey for one that could not be used
  (invalid or illegal: the unit held); every order carries an SVG ``<title>`` with its text, its
  result and the reason, culprit included, which a browser shows on hover;
* dislodged units crossed in red, retreat options as purple dashed arrows, retreats, builds and
  disbands of the later phases.

The module knows no variant.  What a variant wants drawn beyond that (province badges such as
capacities, extra notes in the legend, other unit labels) it supplies through
the ``render_hints`` hook of its record, which returns a :class:`RenderHints`.

Entry points: :func:`render_svg` (a result or a position), :func:`render_request` (a request
file, adjudicated first), :func:`svg_to_png` (needs a converter: cairosvg, rsvg-convert or a
headless Chromium).
"""

from __future__ import annotations

import colorsys
import math
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Optional
from xml.sax.saxutils import escape

from dipsat.maps import GameMap, Layout

from .errors import DipsatError
from .models import FLEET, Convoy, Move, Order, Outcome, Position, Support, Unit

if TYPE_CHECKING:
    from .variant import Variant

Status = Literal["ok", "fail", "rejected"]

COLOURS: dict[Status, str] = {"ok": "#1a9641", "fail": "#d7191c", "rejected": "#8c8c8c"}
RETREAT_OPTION = "#7b3294"
LAND = "#efe6cf"
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
class RenderHints:
    """What a variant adds to the picture; every field is optional.

    ``badges``: province id -> a short text drawn beside the province (e.g. a capacity);
    ``province_classes``: province id -> an extra CSS class for its node (styled by ``css``);
    ``css``: extra style rules; ``notes``: lines for the legend; ``unit_labels``: unit index ->
    the text inside the unit's token (default: count and kind letter)."""

    badges: dict[str, str] = field(default_factory=dict)
    province_classes: dict[str, str] = field(default_factory=dict)
    css: str = ""
    notes: tuple[str, ...] = ()
    unit_labels: dict[int, str] = field(default_factory=dict)


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


def _status(o: Outcome) -> Status:
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


def _orders_scene(scene: Scene, orders: tuple[Order, ...], outcomes: tuple[Outcome, ...]) -> None:
    """Add the orders of a movement turn, each with the outcome of its unit."""
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
        status = _status(out)
        title = _hover(out)
        if body.unit in rejected and out is not rejected[body.unit]:
            title += "\n" + _hover(rejected[body.unit])
            status = "rejected" if out.order_kind == "hold" else status
        if isinstance(body, Move):
            # a move kind with a ``route`` (a variant's, e.g. a fly-over) is drawn along it
            route = getattr(body, "route", None) or body.path
            scene.drawn.append(Drawn("move", body.unit, status, title, dest=body.dest, via=tuple(route),
                                     convoyed=body.via_convoy, tag=body.kind))
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
                scene.drawn.append(Drawn("disband", o.unit, _status(o), _hover(o)))
            else:
                scene.drawn.append(Drawn("retreat", o.unit, _status(o), _hover(o), dest=dest))
        return scene
    scene = Scene(game_map, result.position, title)
    orders = getattr(result, "orders", ())
    if orders:
        _orders_scene(scene, orders, result.outcomes)
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


# -- geometry ---------------------------------------------------------------------------------


Point = tuple[float, float]


def fit_and_spread(raw: dict[str, tuple[float, float]], width: float, height: float, margin: float,
                   top: float, min_gap: float, rounds: int = 60) -> dict[str, Point]:
    """Scale an automatic layout (e.g. networkx's, in any units) into a drawing of ``width`` x
    ``height`` with a title band ``top``, then push nodes closer than ``min_gap`` apart, pairs in
    id order, so the same layout always gives the same picture."""
    xs = [float(p[0]) for p in raw.values()]
    ys = [float(p[1]) for p in raw.values()]
    sx = (width - 2 * margin) / ((max(xs) - min(xs)) or 1.0)
    sy = (height - 2 * margin - top) / ((max(ys) - min(ys)) or 1.0)
    pts = {n: [margin + (float(p[0]) - min(xs)) * sx, top + margin + (float(p[1]) - min(ys)) * sy] for n, p in raw.items()}
    order = sorted(pts)
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(order):
            for b in order[i + 1:]:
                pa, pb = pts[a], pts[b]
                d = math.dist(pa, pb)
                if d < min_gap:
                    ux, uy = ((pb[0] - pa[0]) / d, (pb[1] - pa[1]) / d) if d > 1e-6 else (1.0, 0.0)
                    push = (min_gap - d) / 2
                    pa[0], pa[1] = pa[0] - ux * push, pa[1] - uy * push
                    pb[0], pb[1] = pb[0] + ux * push, pb[1] + uy * push
                    moved = True
        for q in pts.values():
            q[0] = min(max(q[0], margin / 2), width - margin / 2)
            q[1] = min(max(q[1], top + margin / 2), height - margin / 2)
        if not moved:
            break
    return {n: (q[0], q[1]) for n, q in pts.items()}


def _shorten(a: Point, b: Point, start: float, end: float) -> tuple[Point, Point]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy)
    if d < start + end + 1:
        return a, b
    ux, uy = dx / d, dy / d
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _text_colour(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "#fff"


def _lighter(hex_colour: str, amount: float = 0.55) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    h, l, s = colorsys.rgb_to_hls(r, g, b)
    r, g, b = colorsys.hls_to_rgb(h, l + (1 - l) * amount, s)
    return "#" + "".join(f"{round(c * 255):02x}" for c in (r, g, b))


def power_colours(game_map: GameMap, layout_colours: dict[str, str], extra: list[str]) -> dict[str, str]:
    names = sorted(set(game_map.powers) | set(extra))
    out: dict[str, str] = {}
    free = [c for c in PALETTE if c not in layout_colours.values()]
    for name in names:
        out[name] = layout_colours.get(name) or free[len(out) % len(free)]
    return out


# -- drawing ----------------------------------------------------------------------------------


CSS = """
.prov{stroke:#8a7f68;stroke-width:1}
.sea{fill:%(sea)s;stroke:#7fa7c9;stroke-width:1}
.land{fill:%(land)s}
.impassable{fill:%(imp)s}
.adj{stroke:#b9ad92;stroke-width:1;opacity:.55}
.adj.fleet{stroke:#8fb3d1}
.lbl{font:11px sans-serif;fill:#333;text-anchor:middle;pointer-events:none}
.sealbl{font:italic 11px sans-serif;fill:#2c5d87;text-anchor:middle;pointer-events:none}
.sc{stroke:#444;stroke-width:1}
.unit{stroke:#222;stroke-width:1.2}
.ulbl{font:bold 10px sans-serif;text-anchor:middle;dominant-baseline:central;pointer-events:none}
.order{fill:none;stroke-width:2.6}
.order.support{stroke-dasharray:6 4;stroke-width:2}
.order.convoy{stroke-dasharray:2 4;stroke-width:2.2}
.order.convoyed{stroke-dasharray:12 5}
.order.retreat-option{stroke-dasharray:4 3;stroke-width:1.6}
.badge{font:bold 10px sans-serif;fill:#5a3e00;text-anchor:start}
.title{font:bold 15px sans-serif;fill:#222}
.legend{font:12px sans-serif;fill:#222}
g.o:hover .order{stroke-width:4}
"""


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)


def _marker_defs() -> str:
    out = ["<defs>"]
    for name, colour in [*COLOURS.items(), ("retreat", RETREAT_OPTION)]:
        out.append(f'<marker id="ah-{name}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" '
                   f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>')
        out.append(f'<marker id="dot-{name}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" markerHeight="4">'
                   f'<circle cx="5" cy="5" r="4" fill="{colour}"/></marker>')
    out.append("</defs>")
    return "".join(out)


def base_id(m: GameMap) -> str:
    return "dipsat-base-" + "".join(c if c.isalnum() else "-" for c in m.name)


def base_layer(m: GameMap, layout: Layout, hints: Optional[RenderHints] = None) -> str:
    """The board without any position: adjacency lines, province nodes and labels, coasts."""
    classes = hints.province_classes if hints else {}
    out = ['<g class="adjacency">']
    seen: set[tuple[str, str]] = set()
    army_pairs = {(min(a, b), max(a, b)) for a, b in m.army_graph.edges}
    for a, b in sorted(army_pairs):
        seen.add((a, b))
        (x1, y1), (x2, y2) = layout.point(a), layout.point(b)
        out.append(f'<line class="adj" x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}"/>')
    fleet_pairs = {(min(m.province_of(x), m.province_of(y)), max(m.province_of(x), m.province_of(y)))
                   for x, y in m.fleet_graph.edges}
    for a, b in sorted(fleet_pairs):
        if a == b or (a, b) in seen:
            continue
        (x1, y1), (x2, y2) = layout.point(a), layout.point(b)
        out.append(f'<line class="adj fleet" x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}"/>')
    out.append('</g><g class="provinces">')
    for pid in sorted(m.provinces):
        p = m.provinces[pid]
        x, y = layout.point(pid)
        extra = classes.get(pid, "")
        name = escape(p.name)
        if p.is_sea:
            out.append(f'<g class="province" data-id="{pid}"><title>{name}</title>'
                       f'<circle class="sea {extra}" cx="{_f(x)}" cy="{_f(y)}" r="{_f(SEA_R)}"/></g>')
            out.append(f'<text class="sealbl" x="{_f(x)}" y="{_f(y + SEA_R + 11)}">{escape(m.display(pid))}</text>')
        else:
            cls = "land" if p.passable else "impassable"
            out.append(f'<g class="province" data-id="{pid}"><title>{name}</title>'
                       f'<rect class="prov {cls} {extra}" x="{_f(x - NODE_R)}" y="{_f(y - NODE_R)}" width="{_f(2 * NODE_R)}" '
                       f'height="{_f(2 * NODE_R)}" rx="6"/></g>')
            out.append(f'<text class="lbl" x="{_f(x)}" y="{_f(y + NODE_R + 11)}">{escape(m.display(pid))}</text>')
        for cid in p.coasts:
            if cid in layout.at:
                cx, cy = layout.at[cid]
                out.append(f'<g class="coast" data-id="{cid}"><title>{escape(p.name)} ({escape(m.coasts[cid].name)})</title>'
                           f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="4" fill="{SEA}" stroke="#7fa7c9"/></g>')
    out.append("</g>")
    return "".join(out)


def shared_defs(maps: list[GameMap]) -> str:
    """One hidden SVG with the style, the arrow heads and the board of each map, for pages that
    show many pictures drawn with ``shared=True`` (they refer to these instead of repeating them)."""
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" aria-hidden="true">',
           "<style>" + CSS % {"sea": SEA, "land": LAND, "imp": IMPASSABLE} + "</style>", _marker_defs(), "<defs>"]
    for m in sorted({m.name: m for m in maps}.values(), key=lambda m: m.name):
        out.append(f'<g id="{base_id(m)}">{base_layer(m, m.drawing())}</g>')
    out.append("</defs></svg>")
    return "".join(out)


def legend_svg(powers: dict[str, str], width: float = 900.0) -> str:
    """The legend alone (for pages that show many pictures without one): ``powers`` maps each
    power to its colour."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="dipsat-legend" width="{_f(width)}" height="{_f(LEGEND_H)}" '
            f'viewBox="0 0 {_f(width)} {_f(LEGEND_H)}">' + _legend((), powers, sorted(powers), width, 0.0) + "</svg>")


def _focus(scene: Scene, layout: Layout) -> list[Point]:
    """The points a picture is about: units, and where their orders and options lead."""
    pts = [layout.point(u.location) for u in scene.position.units]
    for d in scene.drawn:
        pts += [layout.point(x) for x in (*d.via, *((d.dest,) if d.dest else ()))]
    for opts in scene.retreat_options.values():
        pts += [layout.point(x) for x in opts]
    pts += [layout.point(u.location) for u, _ in scene.new_units]
    return pts


def _view(scene: Scene, layout: Layout, crop: bool) -> tuple[tuple[float, float, float, float], float, float]:
    """The part of the map to show (x, y, w, h) and the size it is drawn at."""
    width, height = layout.size
    pts = _focus(scene, layout) if crop else []
    if not pts:
        return (0.0, 0.0, width, height), width, height
    pad = 75.0
    x0, x1 = min(p[0] for p in pts) - pad, max(p[0] for p in pts) + pad
    y0, y1 = min(p[1] for p in pts) - pad, max(p[1] for p in pts) + pad
    out_w = CROP_WIDTH
    bw, bh = max(x1 - x0, out_w / 1.5), max(y1 - y0, 300.0)  # at most 1.5 times the full map's scale
    if bh / bw > 0.8:
        bw = bh / 0.8
    if bh / bw < 0.36:
        bh = bw * 0.36
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return (cx - bw / 2, cy - bh / 2, bw, bh), out_w, out_w * bh / bw


CROP_WIDTH = 900.0


def render_scene(scene: Scene, colours: Optional[dict[str, str]] = None, crop: bool = False,
                 shared: bool = False) -> str:
    """The SVG text of a scene; ``crop`` shows only the part of the map the orders are about;
    ``shared`` leaves out the style, the arrow heads, the board and the legend, which the page
    then holds once (:func:`shared_defs`, :func:`legend_svg`)."""
    m = scene.map
    layout: Layout = m.drawing()
    pos = scene.position
    hints = scene.hints
    powers = sorted({u.power for u in pos.units} | set(pos.owners.values()) | {u.power for u, _ in scene.new_units})
    colours = power_colours(m, colours or {}, powers)
    try:
        (vx, vy, vw, vh), width, height = _view(scene, layout, crop)
    except KeyError as exc:
        raise RenderError(f"the layout of map {m.name!r} has no point for {exc.args[0]!r}") from None
    top = TITLE_H
    legend_h = 0.0 if shared else LEGEND_H
    total_h = top + height + legend_h
    svg = _Svg()
    svg.add(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} {_f(total_h)}" '
            f'width="{_f(width)}" height="{_f(total_h)}" font-family="sans-serif" class="dipsat-map">')
    if not shared:
        svg.add("<style>" + CSS % {"sea": SEA, "land": LAND, "imp": IMPASSABLE} + hints.css + "</style>")
        svg.add(_marker_defs())
    elif hints.css:
        svg.add("<style>" + hints.css + "</style>")
    svg.add(f'<rect x="0" y="0" width="{_f(width)}" height="{_f(total_h)}" fill="#fbfaf6"/>')
    svg.add(f'<text class="title" x="12" y="21">{escape(scene.title or m.title)}</text>')
    if layout.automatic:
        svg.add(f'<text class="legend" x="{_f(width - 12)}" y="21" text-anchor="end">automatic layout (the map file has no [layout])</text>')
    svg.add(f'<svg class="map" x="0" y="{_f(top)}" width="{_f(width)}" height="{_f(height)}" '
            f'viewBox="{_f(vx)} {_f(vy)} {_f(vw)} {_f(vh)}" preserveAspectRatio="xMidYMid meet">')

    def pt(location: str) -> Point:
        try:
            return layout.point(location)
        except KeyError:
            raise RenderError(f"the layout of map {m.name!r} has no point for {location!r}") from None

    if shared:
        svg.add(f'<use href="#{base_id(m)}"/>')
    else:
        svg.add(base_layer(m, layout, hints))
    svg.add('<g class="centres">')
    for pid in sorted(m.provinces):
        p = m.provinces[pid]
        x, y = pt(pid)
        if p.supply_centre:
            owner = pos.owners.get(pid)
            fill = colours.get(owner, "#ffffff") if owner else "#ffffff"
            tip = f"supply centre of {owner}" if owner else "supply centre"
            svg.add(f'<circle class="sc" cx="{_f(x + NODE_R - 3)}" cy="{_f(y - NODE_R + 3)}" r="4.5" fill="{fill}">'
                    f'<title>{escape(p.name)}: {tip}</title></circle>')
        badge = hints.badges.get(pid)
        if badge:
            svg.add(f'<text class="badge" x="{_f(x + NODE_R + 2)}" y="{_f(y + 4)}">{escape(badge)}</text>')
    svg.add("</g>")

    # where each unit token stands (several tokens in one place are spread out)
    at_loc: dict[str, list[int]] = {}
    for i, u in enumerate(pos.units):
        at_loc.setdefault(u.location, []).append(i)
    upt: dict[int, Point] = {}
    for loc, idxs in at_loc.items():
        x, y = pt(loc)
        n = len(idxs)
        for k, i in enumerate(idxs):
            upt[i] = (x + (k - (n - 1) / 2) * (UNIT_R * 1.7), y)

    def dest_point(loc: str) -> Point:
        return pt(loc)

    move_of: dict[int, Drawn] = {d.unit: d for d in scene.drawn if d.kind == "move"}

    # orders (under the units)
    svg.add('<g class="orders">')
    for d in scene.drawn:
        colour = COLOURS[d.status]
        mk = d.status
        a = upt.get(d.unit)
        if a is None:
            continue
        tag = f" k-{d.tag}" if d.tag and d.tag != d.kind else ""
        svg.add(f'<g class="o {d.kind} {d.status}{tag}"><title>{escape(d.title)}</title>')
        if d.kind in ("move", "retreat") and d.dest is not None:
            pts = [a] + [pt(v) for v in d.via] + [dest_point(d.dest)]
            s, e = _shorten(pts[0], pts[1], UNIT_R + 1, 0)
            pts[0] = s
            s2, e2 = _shorten(pts[-2], pts[-1], 0, UNIT_R + 2)
            pts[-1] = e2
            cls = "order move" + (" convoyed" if d.convoyed else "")
            if len(pts) == 2:
                path = f"M{_f(pts[0][0])},{_f(pts[0][1])} L{_f(pts[1][0])},{_f(pts[1][1])}"
            else:
                path = "M" + " L".join(f"{_f(x)},{_f(y)}" for x, y in pts)
            svg.add(f'<path class="{cls}" d="{path}" stroke="{colour}" marker-end="url(#ah-{mk})"/>')
        elif d.kind == "support" and d.target is not None and d.target in upt:
            t = upt[d.target]
            tm = move_of.get(d.target)
            if d.dest is not None and tm is not None and tm.dest is not None:
                end = dest_point(tm.dest)
                goal = ((t[0] + end[0]) / 2, (t[1] + end[1]) / 2)
            elif d.dest is not None:  # support of a move that was not ordered: to its destination
                end = pt(d.dest)
                goal = ((t[0] + end[0]) / 2, (t[1] + end[1]) / 2)
            else:
                goal = t
            s, e = _shorten(a, goal, UNIT_R + 1, UNIT_R + 4 if d.dest is None else 2)
            mid = ((s[0] + e[0]) / 2 + (e[1] - s[1]) * 0.12, (s[1] + e[1]) / 2 - (e[0] - s[0]) * 0.12)
            svg.add(f'<path class="order support" d="M{_f(s[0])},{_f(s[1])} Q{_f(mid[0])},{_f(mid[1])} {_f(e[0])},{_f(e[1])}" '
                    f'stroke="{colour}" marker-end="url(#dot-{mk})"/>')
            if d.dest is None:
                svg.add(f'<circle class="order support" cx="{_f(t[0])}" cy="{_f(t[1])}" r="{_f(UNIT_R + 4)}" stroke="{colour}"/>')
        elif d.kind == "convoy" and d.target is not None and d.target in upt and d.dest is not None:
            t = upt[d.target]
            end = pt(d.dest)
            s1, e1 = _shorten(t, a, UNIT_R + 1, UNIT_R + 1)
            s2, e2 = _shorten(a, end, UNIT_R + 1, UNIT_R + 3)
            svg.add(f'<path class="order convoy" d="M{_f(s1[0])},{_f(s1[1])} L{_f(e1[0])},{_f(e1[1])} M{_f(s2[0])},{_f(s2[1])} '
                    f'L{_f(e2[0])},{_f(e2[1])}" stroke="{colour}" marker-end="url(#ah-{mk})"/>')
        elif d.kind == "hold":
            svg.add(f'<circle class="order hold" cx="{_f(a[0])}" cy="{_f(a[1])}" r="{_f(UNIT_R + 4)}" stroke="{colour}"/>')
        elif d.kind == "disband":
            r = UNIT_R + 3
            svg.add(f'<path class="order disband" d="M{_f(a[0] - r)},{_f(a[1] - r)} L{_f(a[0] + r)},{_f(a[1] + r)} '
                    f'M{_f(a[0] + r)},{_f(a[1] - r)} L{_f(a[0] - r)},{_f(a[1] + r)}" stroke="{colour}"/>')
        svg.add("</g>")
    for ui, opts in sorted(scene.retreat_options.items()):
        a = upt[ui]
        svg.add(f'<g class="o retreat-options"><title>{escape(pos.units[ui].label())} may retreat to '
                f'{escape(", ".join(m.display(x) for x in opts) or "nowhere (disbanded)")}</title>')
        for loc in opts:
            s, e = _shorten(a, pt(loc), UNIT_R + 1, UNIT_R + 2)
            svg.add(f'<path class="order retreat-option" d="M{_f(s[0])},{_f(s[1])} L{_f(e[0])},{_f(e[1])}" '
                    f'stroke="{RETREAT_OPTION}" marker-end="url(#ah-retreat)"/>')
        svg.add("</g>")
    svg.add("</g>")

    # units
    svg.add('<g class="units">')
    for i, u in enumerate(pos.units):
        x, y = upt[i]
        svg.add(_unit_token(u, x, y, colours[u.power], hints.unit_labels.get(i), dislodged=scene.dislodged.get(i)))
    for u, tip in scene.new_units:
        x, y = pt(u.location)
        svg.add(_unit_token(u, x, y, colours[u.power], None, built=tip))
    svg.add("</g>")
    svg.add("</svg>")
    if not shared:
        svg.add(_legend(hints.notes, colours, powers, width, top + height))
    svg.add("</svg>")
    return "".join(svg.parts)


def _unit_token(u: Unit, x: float, y: float, colour: str, label: Optional[str], *,
                dislodged: Optional[str] = None, built: Optional[str] = None) -> str:
    text = label if label is not None else (f"{u.count}{u.kind}" if u.count != 1 else u.kind)
    tip = dislodged or built or u.label()
    out = [f'<g class="unit-token{" dislodged" if dislodged else ""}{" built" if built else ""}" data-unit="{escape(u.label())}">'
           f"<title>{escape(tip)}</title>"]
    if u.kind == FLEET:  # fleets: a boat-like hexagon; everything else a disc
        r = UNIT_R
        pts = [(x - r, y - r * .35), (x - r * .55, y + r * .75), (x + r * .55, y + r * .75), (x + r, y - r * .35),
               (x + r * .45, y - r * .35), (x + r * .2, y - r * .9), (x - r * .2, y - r * .9), (x - r * .45, y - r * .35)]
        out.append(f'<polygon class="unit" points="{" ".join(f"{_f(a)},{_f(b)}" for a, b in pts)}" fill="{colour}"/>')
    else:
        out.append(f'<circle class="unit" cx="{_f(x)}" cy="{_f(y)}" r="{_f(UNIT_R)}" fill="{colour}"/>')
    out.append(f'<text class="ulbl" x="{_f(x)}" y="{_f(y + (1.5 if u.kind == FLEET else 0))}" fill="{_text_colour(colour)}">{escape(text)}</text>')
    if dislodged:
        r = UNIT_R + 2
        out.append(f'<path d="M{_f(x - r)},{_f(y - r)} L{_f(x + r)},{_f(y + r)} M{_f(x + r)},{_f(y - r)} L{_f(x - r)},{_f(y + r)}" '
                   f'stroke="{COLOURS["fail"]}" stroke-width="3"/>')
    if built:
        out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(UNIT_R + 4)}" fill="none" stroke="{COLOURS["ok"]}" '
                   f'stroke-width="2.5" stroke-dasharray="3 2"/>')
    out.append("</g>")
    return "".join(out)


def _legend(notes: tuple[str, ...], colours: dict[str, str], powers: list[str], width: float, y0: float) -> str:
    out = [f'<g class="legend-box" transform="translate(0,{_f(y0)})">',
           f'<rect x="0" y="0" width="{_f(width)}" height="{_f(LEGEND_H)}" fill="#f1eee4" stroke="#d8d2c0"/>']
    x = 14.0
    row1 = 24.0

    def sample(x: float, y: float, cls: str, colour: str, marker: str, label: str) -> float:
        out.append(f'<path class="order {cls}" d="M{_f(x)},{_f(y)} L{_f(x + 34)},{_f(y)}" stroke="{colour}" marker-end="url(#{marker})"/>')
        out.append(f'<text class="legend" x="{_f(x + 42)}" y="{_f(y + 4)}">{escape(label)}</text>')
        return x + 50 + 6.6 * len(label)

    x = sample(x, row1, "move", COLOURS["ok"], "ah-ok", "succeeded")
    x = sample(x, row1, "move", COLOURS["fail"], "ah-fail", "failed")
    x = sample(x, row1, "move", COLOURS["rejected"], "ah-rejected", "not allowed (holds)")
    x = sample(x, row1, "support", "#555", "dot-rejected", "support")
    x = sample(x, row1, "convoy", "#555", "ah-rejected", "convoy")
    x = sample(x, row1, "move convoyed", "#555", "ah-rejected", "convoyed move")
    x = sample(x, row1, "retreat-option", RETREAT_OPTION, "ah-retreat", "retreat option")
    row2 = 50.0
    x = 14.0
    out.append(f'<circle class="order hold" cx="{_f(x + 12)}" cy="{_f(row2)}" r="9" stroke="#555"/>')
    out.append(f'<text class="legend" x="{_f(x + 30)}" y="{_f(row2 + 4)}">hold</text>')
    x += 74
    out.append(f'<path d="M{_f(x)},{_f(row2 - 8)} l16,16 m0,-16 l-16,16" stroke="{COLOURS["fail"]}" stroke-width="3"/>')
    out.append(f'<text class="legend" x="{_f(x + 24)}" y="{_f(row2 + 4)}">dislodged / disbanded</text>')
    x += 190
    out.append(f'<circle class="sc" cx="{_f(x + 5)}" cy="{_f(row2)}" r="4.5" fill="#fff"/>')
    out.append(f'<text class="legend" x="{_f(x + 16)}" y="{_f(row2 + 4)}">supply centre (owner\'s colour)</text>')
    x += 240
    out.append(f'<text class="legend" x="{_f(x)}" y="{_f(row2 + 4)}">hover an order or unit for its outcome and reason</text>')
    row3 = 80.0
    x = 14.0
    for p in powers:
        c = colours[p]
        out.append(f'<rect x="{_f(x)}" y="{_f(row3 - 9)}" width="14" height="14" rx="3" fill="{c}" stroke="#222"/>')
        out.append(f'<text class="legend" x="{_f(x + 19)}" y="{_f(row3 + 2)}">{escape(p)}</text>')
        x += 32 + 7 * len(p)
    for note in notes:
        out.append(f'<text class="legend" x="{_f(x + 10)}" y="{_f(row3 + 2)}">{escape(note)}</text>')
        x += 20 + 6.6 * len(note)
    out.append("</g>")
    return "".join(out)


# -- entry points -----------------------------------------------------------------------------


def variant_of(obj: Any) -> "Variant":
    """The variant record a picture of ``obj`` is drawn by: the one a phase result was
    adjudicated by (``result.variant``); only a bare position, which names its variant and
    nothing more, is looked up by that name."""
    if not isinstance(obj, Position):
        recorded: Optional[Variant] = getattr(obj, "variant", None)
        if recorded is not None:
            return recorded
    from dipsat.variants import find_variant

    pos = obj if isinstance(obj, Position) else obj.position
    return find_variant(pos.variant)


def default_title(obj: Any, variant: Optional["Variant"] = None) -> str:
    pos: Position = obj if isinstance(obj, Position) else obj.position
    variant = variant or variant_of(obj)
    date = " ".join(str(x) for x in ((pos.season or "").capitalize(), pos.year) if x)
    phase = ("retreats" if hasattr(obj, "movement") else "movement" if getattr(obj, "orders", ())
             else "" if isinstance(obj, Position) else "adjustments")
    return " — ".join(x for x in (variant.map.title, date, phase) if x)


def render_svg(obj: Any, title: Optional[str] = None, crop: bool = False, shared: bool = False,
               variant: Optional["Variant"] = None) -> str:
    """An SVG picture of a position or of a movement, retreat or adjustment result; ``crop``
    shows only the part of the map its units and orders are in.  The variant is the one the
    result records (``variant`` given: that one, e.g. for a position of a game in play)."""
    variant = variant or variant_of(obj)
    scene = scene_of(obj, variant.map, title if title is not None else default_title(obj, variant))
    scene.hints = variant.render_hints(scene.position) or RenderHints()
    return render_scene(scene, variant.map.drawing().colours, crop=crop, shared=shared)


def outcome_table(obj: Any) -> str:
    """An HTML table of the orders and outcomes of a result (empty for a position)."""
    rows: list[tuple[str, Outcome]] = []
    movement = getattr(obj, "movement", None)
    if movement is not None:
        rows += [("movement", o) for o in movement.outcomes]
        rows += [("retreat", o) for o in obj.outcomes]
    elif not isinstance(obj, Position):
        rows += [("", o) for o in obj.outcomes]
    if not rows:
        return ""
    out = ['<table class="dipsat-outcomes"><thead><tr><th>power</th><th>order</th><th>result</th><th>why</th></tr></thead><tbody>']
    for phase, o in rows:
        colour = COLOURS[_status(o)]
        out.append(f'<tr><td>{escape(o.power)}</td><td>{escape(o.text)}{" <i>(" + phase + ")</i>" if phase == "retreat" else ""}</td>'
                   f'<td style="color:{colour};font-weight:bold">{escape(o.result.replace("_", " "))}</td>'
                   f"<td>{escape(o.reason)}</td></tr>")
    out.append("</tbody></table>")
    return "".join(out)


def render_html(obj: Any, title: Optional[str] = None) -> str:
    """The map and, for a result, the table of its orders and outcomes (for notebooks)."""
    return f'<div class="dipsat">{render_svg(obj, title)}{outcome_table(obj)}</div>'


def render_request(path: str | Path, title: Optional[str] = None, **overrides: Any) -> str:
    """Read a request (or corpus case) file, adjudicate it and draw the result."""
    from .api import adjudicate, load_request

    req = load_request(path)
    for k, v in overrides.items():
        setattr(req, k, v)
    return render_svg(adjudicate(req), title)


def png_converters() -> list[str]:
    """The SVG-to-PNG converters found on this machine, best first."""
    found: list[str] = []
    try:
        import cairosvg  # noqa: F401

        found.append("cairosvg")
    except ImportError:
        pass
    if shutil.which("rsvg-convert"):
        found.append("rsvg-convert")
    if find_browser():
        found.append("chromium")
    return found


def find_browser() -> Optional[str]:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        hit = shutil.which(name)
        if hit:
            return hit
    return None


def svg_size(svg: str) -> tuple[int, int]:
    import re

    mw = re.search(r'width="([\d.]+)"', svg)
    mh = re.search(r'height="([\d.]+)"', svg)
    if not (mw and mh):
        raise RenderError("the SVG has no width and height")
    return math.ceil(float(mw.group(1))), math.ceil(float(mh.group(1)))


def screenshot(html_or_svg_file: Path, out_png: Path, size: tuple[int, int], timeout: float = 60.0) -> None:
    """A PNG screenshot of a local HTML or SVG file in headless Chromium."""
    browser = find_browser()
    if browser is None:
        raise RenderError("no headless browser found (install Debian's 'chromium' package)")
    with tempfile.TemporaryDirectory(prefix="dipsat-chromium-") as profile:
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}",
               f"--screenshot={out_png}", html_or_svg_file.resolve().as_uri()]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RenderError(f"{browser} took more than {timeout:g} s for the screenshot") from None
    if proc.returncode != 0 or not out_png.exists():
        raise RenderError(f"{browser} could not take the screenshot: {proc.stderr.strip()[-300:]}")


def svg_to_png(svg: str, out_png: Path) -> str:
    """Write ``svg`` as a PNG; returns the converter used."""
    converters = png_converters()
    if not converters:
        raise RenderError("--png needs a converter: pip install cairosvg, or install rsvg-convert "
                          "(librsvg2-bin) or chromium")
    tool = converters[0]
    if tool == "cairosvg":
        import cairosvg

        cairosvg.svg2png(bytestring=svg.encode(), write_to=str(out_png))
    elif tool == "rsvg-convert":
        proc = subprocess.run(["rsvg-convert", "-f", "png", "-o", str(out_png)], input=svg.encode(), capture_output=True)
        if proc.returncode != 0:
            raise RenderError(f"rsvg-convert failed: {proc.stderr.decode(errors='replace').strip()[-300:]}")
    else:
        with tempfile.TemporaryDirectory(prefix="dipsat-svg-") as tmp:
            page = Path(tmp) / "map.html"
            page.write_text('<!doctype html><html><body style="margin:0">' + svg + "</body></html>", encoding="utf-8")
            screenshot(page, out_png, svg_size(svg))
    return tool
