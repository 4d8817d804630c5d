"""Drawing a scene as SVG: the map's base layer (provinces, adjacency, centres), unit tokens,
orders as arrows and rings, the legend, cropping to the orders' area."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional
from xml.sax.saxutils import escape

from dipsat.maps import GameMap, Layout
from dipsat.maps.shapes import inside, signed_area
from dipsat.models import FLEET, Unit

if TYPE_CHECKING:
    pass

from dipsat.face.render.geometry import (H2H_OFFSET, Box, Point, circle_box, fmt, lighter, place_labels, power_colours, shorten,
                                         side_by_side, text_colour)
from dipsat.game.variant import RenderHints
from dipsat.face.render.scene import (
    COLOURS,
    COASTAL,
    IMPASSABLE,
    LAND,
    LEGEND_H,
    NODE_R,
    RETREAT_OPTION,
    SEA,
    SEA_R,
    TITLE_H,
    UNIT_R,
    Drawn,
    RenderError,
    Scene,
    shown_owners,
)

# -- drawing ----------------------------------------------------------------------------------


CSS = """
.prov{stroke:#8a7f68;stroke-width:1}
.sea{fill:%(sea)s;stroke:#7fa7c9;stroke-width:1}
.land{fill:%(land)s}
.impassable{fill:%(imp)s}
.adj{stroke:#b9ad92;stroke-width:1;opacity:.55}
.shape{stroke:#a89a78;stroke-width:1;stroke-linejoin:round}
.shape.sea{fill:%(sea)s;stroke:#9dbcd6}
.shape.coastal{fill:%(coastal)s}
.shape.inland{fill:%(land)s}
.shape.impassable{fill:%(imp)s}
.owned{stroke:#a89a78;stroke-width:1;pointer-events:none}
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


def shape_path(poly: tuple[Point, ...]) -> str:
    return "M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y in poly) + " Z"


def _shapes_layer(m: GameMap, layout: Layout, shapes: dict[str, tuple[Point, ...]], classes: dict[str, str],
                  part: str) -> str:
    """The board as province shapes (a map whose layout carries them): seas, coastal and inland
    provinces filled apart, the impassable grey (``part`` "board"); labels beside the points and
    coasts as dots ("labels"), drawn over the owners' tints."""
    if part == "board":
        out = ['<g class="shapes">']
        for pid in sorted(m.provinces):
            p = m.provinces[pid]
            kind = "sea" if p.is_sea else "impassable" if not p.passable else "coastal" if p.terrain == "coast" else "inland"
            out.append(f'<g class="province" data-id="{pid}"><title>{escape(p.name)}</title>'
                       f'<path class="shape {kind} {classes.get(pid, "")}" d="{shape_path(shapes[pid])}"/></g>')
        out.append("</g>")
        return "".join(out)
    out = ['<g class="labels">']
    places = label_places(m, layout)
    for pid in sorted(m.provinces):
        p = m.provinces[pid]
        lx, ly, anchor = places[pid]
        at = _label_at(lx, ly, anchor)
        out.append(f'<text class="{"sealbl" if p.is_sea else "lbl"}" {at}>{escape(m.display(pid))}</text>')
        out.extend(_coast_dots(m, layout, pid))
    out.append("</g>")
    return "".join(out)


def _label_at(x: float, y: float, anchor: str) -> str:
    """A label's position attributes (the anchor only when it is not the middle)."""
    return f'x="{fmt(x)}" y="{fmt(y)}"' + (f' text-anchor="{anchor}"' if anchor != "middle" else "")


def _coast_dots(m: GameMap, layout: Layout, pid: str) -> list[str]:
    """The clickable dots of a province's coasts that the layout places."""
    p = m.provinces[pid]
    return [f'<g class="coast" data-id="{cid}"><title>{escape(p.name)} ({escape(m.coasts[cid].name)})</title>'
            f'<circle cx="{fmt(layout.at[cid][0])}" cy="{fmt(layout.at[cid][1])}" r="4" fill="{SEA}" stroke="#7fa7c9"/></g>'
            for cid in p.coasts if cid in layout.at]


def base_layer(m: GameMap, layout: Layout, hints: Optional[RenderHints] = None, part: str = "board") -> str:
    """The board without any position: province shapes when the map carries them (``part``
    "board"; their labels and coasts are ``part`` "labels", drawn after the owners' tints),
    otherwise a schematic of adjacency lines, province nodes, labels and coasts ("board"; no
    "labels" part)."""
    classes = hints.province_classes if hints else {}
    shapes = m.shapes if layout is m.layout else None
    if shapes is not None:
        return _shapes_layer(m, layout, shapes, classes, part)
    if part != "board":
        return ""
    out = ['<g class="adjacency">']
    seen: set[tuple[str, str]] = set()
    army_pairs = {(min(a, b), max(a, b)) for a, b in m.army_graph.edges}
    for a, b in sorted(army_pairs):
        seen.add((a, b))
        (x1, y1), (x2, y2) = layout.point(a), layout.point(b)
        out.append(f'<line class="adj" x1="{fmt(x1)}" y1="{fmt(y1)}" x2="{fmt(x2)}" y2="{fmt(y2)}"/>')
    fleet_pairs = {(min(m.province_of(x), m.province_of(y)), max(m.province_of(x), m.province_of(y)))
                   for x, y in m.fleet_graph.edges}
    for a, b in sorted(fleet_pairs):
        if a == b or (a, b) in seen:
            continue
        (x1, y1), (x2, y2) = layout.point(a), layout.point(b)
        out.append(f'<line class="adj fleet" x1="{fmt(x1)}" y1="{fmt(y1)}" x2="{fmt(x2)}" y2="{fmt(y2)}"/>')
    out.append('</g><g class="provinces">')
    places = label_places(m, layout)
    for pid in sorted(m.provinces):
        p = m.provinces[pid]
        x, y = layout.point(pid)
        extra = classes.get(pid, "")
        name = escape(p.name)
        lx, ly, anchor = places[pid]
        at = _label_at(lx, ly, anchor)
        if p.is_sea:
            out.append(f'<g class="province" data-id="{pid}"><title>{name}</title>'
                       f'<circle class="sea {extra}" cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(SEA_R)}"/></g>')
            out.append(f'<text class="sealbl" {at}>{escape(m.display(pid))}</text>')
        else:
            cls = "land" if p.passable else "impassable"
            out.append(f'<g class="province" data-id="{pid}"><title>{name}</title>'
                       f'<rect class="prov {cls} {extra}" x="{fmt(x - NODE_R)}" y="{fmt(y - NODE_R)}" width="{fmt(2 * NODE_R)}" '
                       f'height="{fmt(2 * NODE_R)}" rx="6"/></g>')
            out.append(f'<text class="lbl" {at}>{escape(m.display(pid))}</text>')
        out.extend(_coast_dots(m, layout, pid))
    out.append("</g>")
    return "".join(out)


LABEL_SIZE = 11.0  # px of the province labels (.lbl, .sealbl)
SC_R = 4.5  # radius of a supply centre dot, drawn at a land node's top right corner
COAST_R = 4.0  # radius of a coast dot
_PLACES: dict[tuple[object, ...], dict[str, tuple[float, float, str]]] = {}


def centre_dot(m: GameMap, layout: Layout, pid: str) -> Point:
    """Where a province's supply-centre dot goes: at its node's top right corner or, on a board
    of shapes, the first corner (top right, top left, bottom right, bottom left) where the dot
    lies inside the province's shape."""
    x, y = layout.point(pid)
    d = NODE_R - 3
    spots = [(x + d, y - d), (x - d, y - d), (x + d, y + d), (x - d, y + d)]
    shapes = m.shapes if layout is m.layout else None
    if shapes is not None:
        for cx, cy in spots:
            if all(inside((cx + dx, cy + dy), shapes[pid]) for dx, dy in ((SC_R, SC_R), (-SC_R, SC_R), (SC_R, -SC_R), (-SC_R, -SC_R))):
                return (cx, cy)
    return spots[0]


def label_places(m: GameMap, layout: Layout) -> dict[str, tuple[float, float, str]]:
    """Where each province's label goes (x, baseline y, text-anchor): beside its node where it
    meets no node, supply centre, coast (as big as a fleet standing there, ringed), other label or the
    edge of the drawing (:func:`place_labels`).  It depends on the map and layout only, so the
    board drawn once for a page of pictures is the same; computed once per layout."""
    key = (m.name, layout.size, layout.shapes, tuple(sorted(layout.at.items())))
    hit = _PLACES.get(key)
    if hit is not None:
        return hit
    obstacles: list[Box] = []
    labels: list[tuple[str, str, Point, float]] = []
    stack_half = UNIT_R * 1.7 / 2 + UNIT_R  # two tokens side by side on a node
    for pid in sorted(m.provinces):
        p = m.provinces[pid]
        x, y = layout.point(pid)
        r = SEA_R if p.is_sea else NODE_R
        obstacles.append((x - max(r, stack_half), y - r, x + max(r, stack_half), y + r))
        if p.supply_centre:
            obstacles.append(circle_box(*centre_dot(m, layout, pid), SC_R))
        for cid in p.coasts:
            if cid in layout.at:
                obstacles.append(circle_box(*layout.at[cid], UNIT_R + 4))  # a fleet and its ring
        labels.append((pid, m.display(pid), (x, y), r))
    shapes = m.shapes if layout is m.layout else None
    if shapes is not None:  # the smallest provinces choose first: they have the fewest places inside
        labels.sort(key=lambda lb: (abs(signed_area(shapes[lb[0]])), lb[0]))
    places = place_labels(labels, obstacles, layout.size[0], layout.size[1], LABEL_SIZE, within=shapes)
    _PLACES[key] = places
    return places


def shared_defs(maps: list[GameMap]) -> str:
    """One hidden SVG with the style, the arrow heads and the board of each map, for pages that
    show many pictures drawn with ``shared=True`` (they refer to these instead of repeating them)."""
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" aria-hidden="true">',
           "<style>" + CSS % {"sea": SEA, "land": LAND, "imp": IMPASSABLE, "coastal": COASTAL} + "</style>", _marker_defs(), "<defs>"]
    for m in sorted({m.name: m for m in maps}.values(), key=lambda m: m.name):
        out.append(f'<g id="{base_id(m)}">{base_layer(m, m.drawing())}</g>')
        labels = base_layer(m, m.drawing(), part="labels")
        if labels:
            out.append(f'<g id="{base_id(m)}-labels">{labels}</g>')
    out.append("</defs></svg>")
    return "".join(out)


def legend_svg(powers: dict[str, str], width: float = 900.0) -> str:
    """The legend alone (for pages that show many pictures without one): ``powers`` maps each
    power to its colour."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="dipsat-legend" width="{fmt(width)}" height="{fmt(LEGEND_H)}" '
            f'viewBox="0 0 {fmt(width)} {fmt(LEGEND_H)}">' + _legend((), powers, sorted(powers), width, 0.0) + "</svg>")


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
    # kept on the drawing where it fits (no blank band beyond the map's edge)
    cx = min(max(cx, bw / 2), width - bw / 2) if bw <= width else width / 2
    cy = min(max(cy, bh / 2), height - bh / 2) if bh <= height else height / 2
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
    owners = shown_owners(m, pos)
    powers = sorted({u.power for u in pos.units} | set(owners.values()) | {u.power for u, _ in scene.new_units})
    colours = power_colours(m, colours or {}, powers)
    try:
        (vx, vy, vw, vh), width, height = _view(scene, layout, crop)
    except KeyError as exc:
        raise RenderError(f"the layout of map {m.name!r} has no point for {exc.args[0]!r}") from None
    top = TITLE_H
    legend_h = 0.0 if shared else LEGEND_H
    total_h = top + height + legend_h
    svg = _Svg()
    svg.add(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {fmt(width)} {fmt(total_h)}" '
            f'width="{fmt(width)}" height="{fmt(total_h)}" font-family="sans-serif" class="dipsat-map">')
    if not shared:
        svg.add("<style>" + CSS % {"sea": SEA, "land": LAND, "imp": IMPASSABLE, "coastal": COASTAL} + hints.css + "</style>")
        svg.add(_marker_defs())
    elif hints.css:
        svg.add("<style>" + hints.css + "</style>")
    svg.add(f'<rect x="0" y="0" width="{fmt(width)}" height="{fmt(total_h)}" fill="#fbfaf6"/>')
    svg.add(f'<text class="title" x="12" y="21">{escape(scene.title or m.title)}</text>')
    if layout.automatic:
        svg.add(f'<text class="legend" x="{fmt(width - 12)}" y="21" text-anchor="end">automatic layout (the map file has no [layout])</text>')
    svg.add(f'<svg class="map" x="0" y="{fmt(top)}" width="{fmt(width)}" height="{fmt(height)}" '
            f'viewBox="{fmt(vx)} {fmt(vy)} {fmt(vw)} {fmt(vh)}" preserveAspectRatio="xMidYMid meet">')

    def pt(location: str) -> Point:
        try:
            return layout.point(location)
        except KeyError:
            raise RenderError(f"the layout of map {m.name!r} has no point for {location!r}") from None

    if shared:
        svg.add(f'<use href="#{base_id(m)}"/>')
    else:
        svg.add(base_layer(m, layout, hints))
    shapes = m.shapes if layout is m.layout else None
    if shapes is not None:  # supply centres tinted in their owner's colour
        svg.add('<g class="owners">')
        for pid in sorted(owners):
            if pid in shapes and owners[pid] in colours:
                svg.add(f'<path class="owned" d="{shape_path(shapes[pid])}" fill="{lighter(colours[owners[pid]])}"/>')
        svg.add("</g>")
        svg.add(f'<use href="#{base_id(m)}-labels"/>' if shared else base_layer(m, layout, hints, "labels"))
    svg.add('<g class="centres">')
    for pid in sorted(m.provinces):
        p = m.provinces[pid]
        x, y = pt(pid)
        if p.supply_centre:
            owner = owners.get(pid)
            fill = colours.get(owner, "#ffffff") if owner else "#ffffff"
            tip = f"supply centre of {owner}" if owner else "supply centre"
            dx, dy = centre_dot(m, layout, pid)
            svg.add(f'<circle class="sc" cx="{fmt(dx)}" cy="{fmt(dy)}" r="{fmt(SC_R)}" fill="{fill}">'
                    f'<title>{escape(p.name)}: {tip}</title></circle>')
        badge = hints.badges.get(pid)
        if badge:
            svg.add(f'<text class="badge" x="{fmt(x + NODE_R + 2)}" y="{fmt(y + 4)}">{escape(badge)}</text>')
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
    ends = {(pos.units[d.unit].province, m.province_of(d.dest)) for d in move_of.values() if d.dest and not d.via}

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
            if d.kind == "move" and not d.via and (m.province_of(d.dest), pos.units[d.unit].province) in ends:
                pts = list(side_by_side(pts[0], pts[1], H2H_OFFSET))  # a head-to-head: the two arrows side by side
            s, e = shorten(pts[0], pts[1], UNIT_R + 1, 0)
            pts[0] = s
            s2, e2 = shorten(pts[-2], pts[-1], 0, UNIT_R + 2)
            pts[-1] = e2
            cls = "order move" + (" convoyed" if d.convoyed else "")
            if len(pts) == 2:
                path = f"M{fmt(pts[0][0])},{fmt(pts[0][1])} L{fmt(pts[1][0])},{fmt(pts[1][1])}"
            else:
                path = "M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y in pts)
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
            s, e = shorten(a, goal, UNIT_R + 1, UNIT_R + 4 if d.dest is None else 2)
            mid = ((s[0] + e[0]) / 2 + (e[1] - s[1]) * 0.12, (s[1] + e[1]) / 2 - (e[0] - s[0]) * 0.12)
            svg.add(f'<path class="order support" d="M{fmt(s[0])},{fmt(s[1])} Q{fmt(mid[0])},{fmt(mid[1])} {fmt(e[0])},{fmt(e[1])}" '
                    f'stroke="{colour}" marker-end="url(#dot-{mk})"/>')
            if d.dest is None:
                svg.add(f'<circle class="order support" cx="{fmt(t[0])}" cy="{fmt(t[1])}" r="{fmt(UNIT_R + 4)}" stroke="{colour}"/>')
        elif d.kind == "convoy" and _on_route(d, move_of, pos.units[d.unit].province):
            # the convoyed move is drawn through this fleet: the convoy rings the fleet
            svg.add(f'<circle class="order convoy" cx="{fmt(a[0])}" cy="{fmt(a[1])}" r="{fmt(UNIT_R + 4)}" stroke="{colour}"/>')
        elif d.kind == "convoy" and d.target is not None and d.target in upt and d.dest is not None:
            t = upt[d.target]
            end = pt(d.dest)
            s1, e1 = shorten(t, a, UNIT_R + 1, UNIT_R + 1)
            s2, e2 = shorten(a, end, UNIT_R + 1, UNIT_R + 3)
            svg.add(f'<path class="order convoy" d="M{fmt(s1[0])},{fmt(s1[1])} L{fmt(e1[0])},{fmt(e1[1])} M{fmt(s2[0])},{fmt(s2[1])} '
                    f'L{fmt(e2[0])},{fmt(e2[1])}" stroke="{colour}" marker-end="url(#ah-{mk})"/>')
        elif d.kind == "hold":
            svg.add(f'<circle class="order hold" cx="{fmt(a[0])}" cy="{fmt(a[1])}" r="{fmt(UNIT_R + 4)}" stroke="{colour}"/>')
        elif d.kind == "disband":
            r = UNIT_R + 3
            svg.add(f'<path class="order disband" d="M{fmt(a[0] - r)},{fmt(a[1] - r)} L{fmt(a[0] + r)},{fmt(a[1] + r)} '
                    f'M{fmt(a[0] + r)},{fmt(a[1] - r)} L{fmt(a[0] - r)},{fmt(a[1] + r)}" stroke="{colour}"/>')
        svg.add("</g>")
    for ui, opts in sorted(scene.retreat_options.items()):
        a = upt[ui]
        svg.add(f'<g class="o retreat-options"><title>{escape(pos.units[ui].label())} may retreat to '
                f'{escape(", ".join(m.display(x) for x in opts) or "nowhere (disbanded)")}</title>')
        for loc in opts:
            s, e = shorten(a, pt(loc), UNIT_R + 1, UNIT_R + 2)
            svg.add(f'<path class="order retreat-option" d="M{fmt(s[0])},{fmt(s[1])} L{fmt(e[0])},{fmt(e[1])}" '
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


def _on_route(d: Drawn, move_of: dict[int, Drawn], province: str) -> bool:
    """Whether the convoy ``d`` (of the fleet in ``province``) lies on the route its army's
    move is drawn along."""
    move = move_of.get(d.target) if d.target is not None else None
    return move is not None and move.convoyed and province in move.via


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
        out.append(f'<polygon class="unit" points="{" ".join(f"{fmt(a)},{fmt(b)}" for a, b in pts)}" fill="{colour}"/>')
    else:
        out.append(f'<circle class="unit" cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(UNIT_R)}" fill="{colour}"/>')
    out.append(f'<text class="ulbl" x="{fmt(x)}" y="{fmt(y + (1.5 if u.kind == FLEET else 0))}" fill="{text_colour(colour)}">{escape(text)}</text>')
    if dislodged:
        r = UNIT_R + 2
        out.append(f'<path d="M{fmt(x - r)},{fmt(y - r)} L{fmt(x + r)},{fmt(y + r)} M{fmt(x + r)},{fmt(y - r)} L{fmt(x - r)},{fmt(y + r)}" '
                   f'stroke="{COLOURS["fail"]}" stroke-width="3"/>')
    if built:
        out.append(f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(UNIT_R + 4)}" fill="none" stroke="{COLOURS["ok"]}" '
                   f'stroke-width="2.5" stroke-dasharray="3 2"/>')
    out.append("</g>")
    return "".join(out)


def _legend(notes: tuple[str, ...], colours: dict[str, str], powers: list[str], width: float, y0: float) -> str:
    out = [f'<g class="legend-box" transform="translate(0,{fmt(y0)})">',
           f'<rect x="0" y="0" width="{fmt(width)}" height="{fmt(LEGEND_H)}" fill="#f1eee4" stroke="#d8d2c0"/>']
    x = 14.0
    row1 = 24.0

    def sample(x: float, y: float, cls: str, colour: str, marker: str, label: str) -> float:
        out.append(f'<path class="order {cls}" d="M{fmt(x)},{fmt(y)} L{fmt(x + 34)},{fmt(y)}" stroke="{colour}" marker-end="url(#{marker})"/>')
        out.append(f'<text class="legend" x="{fmt(x + 42)}" y="{fmt(y + 4)}">{escape(label)}</text>')
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
    out.append(f'<circle class="order hold" cx="{fmt(x + 12)}" cy="{fmt(row2)}" r="9" stroke="#555"/>')
    out.append(f'<text class="legend" x="{fmt(x + 30)}" y="{fmt(row2 + 4)}">hold</text>')
    x += 74
    out.append(f'<path d="M{fmt(x)},{fmt(row2 - 8)} l16,16 m0,-16 l-16,16" stroke="{COLOURS["fail"]}" stroke-width="3"/>')
    out.append(f'<text class="legend" x="{fmt(x + 24)}" y="{fmt(row2 + 4)}">dislodged / disbanded</text>')
    x += 190
    out.append(f'<circle class="sc" cx="{fmt(x + 5)}" cy="{fmt(row2)}" r="4.5" fill="#fff"/>')
    out.append(f'<text class="legend" x="{fmt(x + 16)}" y="{fmt(row2 + 4)}">supply centre (owner\'s colour)</text>')
    x += 240
    out.append(f'<text class="legend" x="{fmt(x)}" y="{fmt(row2 + 4)}">hover an order or unit for its outcome and reason</text>')
    row3 = 80.0
    x = 14.0
    for p in powers:
        c = colours[p]
        out.append(f'<rect x="{fmt(x)}" y="{fmt(row3 - 9)}" width="14" height="14" rx="3" fill="{c}" stroke="#222"/>')
        out.append(f'<text class="legend" x="{fmt(x + 19)}" y="{fmt(row3 + 2)}">{escape(p)}</text>')
        x += 32 + 7 * len(p)
    for note in notes:
        out.append(f'<text class="legend" x="{fmt(x + 10)}" y="{fmt(row3 + 2)}">{escape(note)}</text>')
        x += 20 + 6.6 * len(note)
    out.append("</g>")
    return "".join(out)
