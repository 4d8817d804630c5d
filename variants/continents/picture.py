"""SVG pictures of the continents game: countries and free cities as nodes laid out by networkx
(seeded, so the same map always gives the same picture), land borders and sea routes, each
node's capacity, units per player coloured by player, and the orders of a round as arrows
coloured by outcome with the explanation in an SVG ``<title>`` (shown on hover).

Reached through the generic hook ``render_file`` of the variant record (:mod:`dipsat.game.variant`); the core's
``dipsat render`` knows nothing of this game.
"""

from __future__ import annotations

import math
from functools import lru_cache
from html import escape
from typing import Any, Optional

import networkx as nx

from dipsat.errors import DipsatError, InputFileError
from dipsat.maps.continental import ContinentalMap
from dipsat.face.render import fit_and_spread

from .board import Board
from .notation import Order, parse_order
from .round import OrderOutcome

Point = tuple[float, float]
WIDTH, HEIGHT, MARGIN, TOP = 960.0, 720.0, 60.0, 50.0
MIN_GAP = 64.0  # the closest two node centres may be in the drawing
# the box a node's token and texts take (its name above; capacity and holder after below)
FOOTPRINT = (72.0, 84.0)
LAYOUT_SEED = 4  # the networkx layout's seed: fixed, so every run draws the same picture
PLAYER_COLOURS = ("#c0392b", "#2471a3", "#d68910", "#1e8449", "#7d3c98", "#148f77", "#a04000", "#566573")
CONTINENT_COLOURS = ("#f3e9d2", "#dcefd9", "#e3e4f6", "#f6e0e6", "#e0f0f3", "#f1f1d4", "#eadfd3", "#e6e6e6")
OK, FAIL, REJECTED = "#1e8449", "#c0392b", "#8c8c8c"

CSS = """
.edge{stroke:#9d927b;stroke-width:1.6}
.edge.sea{stroke:#5b8fc7;stroke-dasharray:7 5;stroke-width:1.6}
.country{stroke:#6b6250;stroke-width:1.2}
.freecity{stroke:#6b6250;stroke-width:1.6}
.lbl{font:bold 11px sans-serif;fill:#333;text-anchor:middle;pointer-events:none}
.cap,.count{font:9px sans-serif;fill:#6b6250;text-anchor:middle;pointer-events:none}
.after{font:9px sans-serif;fill:#333;text-anchor:middle;pointer-events:none}
.contlbl{font:italic bold 13px sans-serif;fill:#7a6f57;text-anchor:middle;pointer-events:none}
.ulbl{font:bold 11px sans-serif;text-anchor:middle;dominant-baseline:central;pointer-events:none}
.order{fill:none;stroke-width:2.6}
.order.support{stroke-dasharray:6 4;stroke-width:2}
.title{font:bold 15px sans-serif;fill:#222}
.legend{font:12px sans-serif;fill:#222}
g.o:hover .order{stroke-width:4}
"""


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _text_colour(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "#fff"


@lru_cache(maxsize=8)
def _layout_of(cmap_key: tuple[tuple[tuple[str, Optional[str]], ...], tuple[tuple[str, str], ...]]) -> dict[str, Point]:
    """Two levels of networkx spring layout, each with a fixed seed: continents (and free cities
    outside every continent) placed against each other, then the nodes of each continent around
    its place; then nodes closer than a token's width pushed apart."""
    nodes, edges = cmap_key
    group = {n: (c if c is not None else "@" + n) for n, c in nodes}
    members: dict[str, list[str]] = {}
    for n, _ in nodes:
        members.setdefault(group[n], []).append(n)
    top = nx.Graph()
    top.add_nodes_from(sorted(members))
    inner = nx.Graph()
    inner.add_nodes_from(n for n, _ in nodes)
    for a, b in edges:
        if group[a] != group[b]:
            top.add_edge(min(group[a], group[b]), max(group[a], group[b]))
        else:
            inner.add_edge(a, b)
    centre = nx.spring_layout(top, seed=LAYOUT_SEED, k=1.2) if len(top) > 1 else {g: (0.0, 0.0) for g in top}
    at: dict[str, list[float]] = {}
    for g, ns in sorted(members.items()):
        radius = 0.12 * math.sqrt(len(ns)) if len(ns) > 1 else 0.0
        # the continent's own graph built in id order (a networkx subgraph view iterates its
        # nodes in set order, which changes with the hash seed, and so would the layout)
        sub = nx.Graph()
        sub.add_nodes_from(sorted(ns))
        sub.add_edges_from(sorted((a, b) for a, b in inner.edges(sorted(ns)) if a in sub and b in sub))
        local = nx.spring_layout(sub, seed=LAYOUT_SEED) if len(ns) > 1 else {ns[0]: (0.0, 0.0)}
        cx, cy = (float(v) for v in centre[g])
        for n in sorted(ns):
            at[n] = [cx + radius * float(local[n][0]), cy + radius * float(local[n][1])]
    return fit_and_spread({n: (p[0], p[1]) for n, p in at.items()}, WIDTH, HEIGHT, MARGIN, TOP, MIN_GAP, rounds=200,
                          footprint=FOOTPRINT)


def layout(cmap: ContinentalMap) -> dict[str, Point]:
    """Node id -> point in the drawing: networkx's spring layout with a fixed seed over the map's
    graph (nodes in id order), scaled to the picture."""
    if cmap.layout:  # the map's own layout (its [layout] table), scaled to the picture
        return fit_and_spread(dict(cmap.layout), WIDTH, HEIGHT, MARGIN, TOP, MIN_GAP, rounds=200, footprint=FOOTPRINT)
    key = (tuple((n, v.continent) for n, v in sorted(cmap.nodes.items())),
           tuple(sorted((min(a, b), max(a, b)) for a, b in cmap.graph.edges)))
    return _layout_of(key)


def player_colours(players: list[str]) -> dict[str, str]:
    return {p: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, p in enumerate(sorted(players))}


def _radius(cmap: ContinentalMap, node: str) -> float:
    return 20.0 if not cmap.nodes[node].free_city else 17.0


def _shorten(a: Point, b: Point, start: float, end: float) -> tuple[Point, Point]:
    d = math.dist(a, b) or 1.0
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


def _status(o: OrderOutcome) -> tuple[str, str]:
    if o.rejected or o.result in ("refused", "unused", "invalid"):
        return "rejected", REJECTED
    if o.succeeded or o.result == "placed":
        return "ok", OK
    return "fail", FAIL


def draw(cmap: ContinentalMap, before: Board, outcomes: list[OrderOutcome], title: str,
         after: Optional[Board] = None, players: tuple[str, ...] = (), notes: tuple[str, ...] = ()) -> str:
    """The picture of one phase: ``before`` with its units, the orders (``outcomes``) drawn
    by outcome, and the counts after the phase written under each node whose holding changed."""
    at = layout(cmap)
    names = sorted(set(players) | set(before.players()) | set(after.players() if after else [])
                   | {o.player for o in outcomes})
    colours = player_colours(names)
    conts = sorted(cmap.continents)
    cont_fill = {c: CONTINENT_COLOURS[i % len(CONTINENT_COLOURS)] for i, c in enumerate(conts)}
    legend_h = 24.0 * (2 + math.ceil((len(names) + len(conts)) / 4) + len(notes))
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(WIDTH)}" height="{_f(HEIGHT + legend_h)}" '
        f'viewBox="0 0 {_f(WIDTH)} {_f(HEIGHT + legend_h)}" font-family="sans-serif">',
        f"<style>{CSS}</style>",
        '<defs>' + "".join(
            f'<marker id="ah-{k}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
            f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>'
            for k, c in (("ok", OK), ("fail", FAIL), ("rejected", REJECTED))) + "</defs>",
        f'<rect width="100%" height="100%" fill="#fbfaf6"/>',
        f'<text class="title" x="16" y="26">{escape(title)}</text>',
    ]
    # continent names at the centre of their countries
    out.append('<g class="continents">')
    for c in conts:
        pts = [at[n] for n in cmap.continents[c].countries]
        cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
        out.append(f'<text class="contlbl" x="{_f(cx)}" y="{_f(cy)}" opacity=".55">{escape(cmap.continents[c].name)}</text>')
    out.append("</g>")
    out.append('<g class="adjacency">')
    for a, b in sorted((min(e), max(e)) for e in cmap.graph.edges):
        edge = cmap.edge_kind(a, b)
        (x1, y1), (x2, y2) = at[a], at[b]
        out.append(f'<line class="edge {edge}" x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}">'
                   f'<title>{escape(cmap.nodes[a].name)} – {escape(cmap.nodes[b].name)}: '
                   f'{"land border" if edge == "land" else "sea route"}</title></line>')
    out.append("</g>")
    out.append('<g class="provinces">')
    for n, node in cmap.nodes.items():
        x, y = at[n]
        r = _radius(cmap, n)
        fill = cont_fill[node.continent] if node.continent else "#ffffff"
        what = "free city" if node.free_city else "country"
        where = f" of {cmap.continents[node.continent].name}" if node.continent else ""
        held = before.holdings.get(n)
        tip = (f"{node.name} ({node.short}): {what}{where}, capacity {node.capacity}"
               + (f"; {held[1]} unit{'s' if held[1] != 1 else ''} of {held[0]}" if held else "; empty"))
        if after is not None and after.holdings.get(n) != held:
            h2 = after.holdings.get(n)
            tip += f"; after: {f'{h2[1]} of {h2[0]}' if h2 else 'empty'}"
        out.append(f'<g class="province" data-node="{n}"><title>{escape(tip)}</title>')
        if node.free_city:  # a free city is a square, a country a circle
            out.append(f'<rect class="freecity" x="{_f(x - r)}" y="{_f(y - r)}" width="{_f(2 * r)}" height="{_f(2 * r)}" '
                       f'rx="3" fill="{fill}"/>')
        else:
            out.append(f'<circle class="country" cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="{fill}"/>')
        out.append(f'<text class="lbl" x="{_f(x)}" y="{_f(y - r - 5)}">{escape(node.short)}</text>')
        out.append(f'<text class="cap" x="{_f(x)}" y="{_f(y + r + 10)}">cap {node.capacity}'
                   f'{" · free city" if node.free_city else ""}</text>')
        if after is not None and after.holdings.get(n) != held:
            h2 = after.holdings.get(n)
            out.append(f'<text class="after" x="{_f(x)}" y="{_f(y + r + 21)}" '
                       f'fill="{colours[h2[0]] if h2 else "#333"}">→ {f"{h2[1]} {h2[0]}" if h2 else "empty"}</text>')
        out.append("</g>")
    out.append("</g>")
    out.append('<g class="orders">')
    rejected_y = HEIGHT - 12.0
    for o in outcomes:
        status, colour = _status(o)
        tip = f"{o.player}: {o.text} — {o.result}: {o.reason}"
        order: Optional[Order]
        try:
            order = parse_order(cmap, o.text)
        except DipsatError:
            order = None
        placement = order is None and cmap.lookup(o.text) is not None
        kind = "hold" if placement else (order.kind.replace("_", "-") if order else "unread")
        kind = "move" if kind == "move" else ("support" if kind.startswith("support") else kind)
        out.append(f'<g class="o {kind} {status}" data-player="{escape(o.player)}"><title>{escape(tip)}</title>')
        if placement:
            node_id = cmap.lookup(o.text)
            assert node_id is not None
            x, y = at[node_id]
            out.append(f'<circle class="order" cx="{_f(x)}" cy="{_f(y)}" r="{_f(_radius(cmap, node_id) + 6)}" stroke="{colour}"/>')
        elif order is None:  # an order that could not be read: listed at the foot of the map
            out.append(f'<text class="legend" x="16" y="{_f(rejected_y)}" fill="{colour}">{escape(tip)}</text>')
            rejected_y -= 16.0
        elif order.kind == "hold":
            x, y = at[order.origin]
            out.append(f'<circle class="order" cx="{_f(x)}" cy="{_f(y)}" r="{_f(_radius(cmap, order.origin) + 6)}" stroke="{colour}"/>')
        else:
            a = at[order.origin]
            if order.kind == "support_attack":  # to the middle of the supported attack
                b = ((at[order.ally][0] + at[order.target][0]) / 2, (at[order.ally][1] + at[order.target][1]) / 2)
                end = 4.0
            else:
                b = at[order.target]
                end = _radius(cmap, order.target) + 3
            (x1, y1), (x2, y2) = _shorten(a, b, _radius(cmap, order.origin) + 2, end)
            # bend the arrow a little so that opposite moves do not overlap
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            d = math.dist((x1, y1), (x2, y2)) or 1.0
            cx, cy = mx - (y2 - y1) / d * 14, my + (x2 - x1) / d * 14
            cls = "order" + (" support" if order.kind != "move" else "")
            out.append(f'<path class="{cls}" d="M{_f(x1)},{_f(y1)} Q{_f(cx)},{_f(cy)} {_f(x2)},{_f(y2)}" '
                       f'stroke="{colour}" marker-end="url(#ah-{status})"/>')
            out.append(f'<text class="count" x="{_f(cx)}" y="{_f(cy)}" fill="{colour}">{order.count}</text>')
        out.append("</g>")
    out.append("</g>")
    out.append('<g class="units">')
    for n, (p, count) in sorted(before.holdings.items()):
        x, y = at[n]
        col = colours[p]
        out.append(f'<g class="unit-token" data-player="{escape(p)}" data-node="{n}" data-count="{count}"><title>{escape(f"{p}: {count} in {cmap.nodes[n].name}")}</title>'
                   f'<circle cx="{_f(x)}" cy="{_f(y)}" r="11" fill="{col}" stroke="#222"/>'
                   f'<text class="ulbl" x="{_f(x)}" y="{_f(y)}" fill="{_text_colour(col)}">{count}</text></g>')
    out.append("</g>")
    # legend: players, continents, outcomes, edge kinds, notes
    y = HEIGHT + 18
    x = 16.0
    items = [(f"{p} ({before.total(p)} unit{'s' if before.total(p) != 1 else ''})", colours[p], "circle") for p in names]
    items += [(cmap.continents[c].name, cont_fill[c], "rect") for c in conts]
    out.append('<g class="legend-box">')
    for i, (label, col, shape) in enumerate(items):
        if i and i % 4 == 0:
            y += 22
            x = 16.0
        if shape == "circle":
            out.append(f'<circle cx="{_f(x + 7)}" cy="{_f(y - 4)}" r="7" fill="{col}" stroke="#222"/>')
        else:
            out.append(f'<rect x="{_f(x)}" y="{_f(y - 11)}" width="14" height="14" fill="{col}" stroke="#6b6250"/>')
        out.append(f'<text class="legend" x="{_f(x + 20)}" y="{_f(y)}">{escape(label)}</text>')
        x += 230
    y += 24
    out.append(f'<text class="legend" x="16" y="{_f(y)}"><tspan fill="{OK}">━ succeeded</tspan>  '
               f'<tspan fill="{FAIL}">━ failed</tspan>  <tspan fill="{REJECTED}">━ rejected</tspan>  '
               '╌ support  ○ circle: country  □ square: free city  — land border  '
               '<tspan fill="#5b8fc7">╌ sea route</tspan>  (hover for details)</text>')
    for note in notes:
        y += 20
        out.append(f'<text class="legend" x="16" y="{_f(y)}">{escape(note)}</text>')
    out.append("</g></svg>")
    return "\n".join(out)


def render_file(data: Any, where: str, phase: Optional[str] = None, title: Optional[str] = None) -> str:
    """The picture of a continents file: a round request, a corpus case, or a saved game (one
    of its phases: ``draw``, ``placement``, ``round N``; the last by default)."""
    from .game import load_game, replay
    from .requests import get_map, read_request, run_request

    from .requests import case_data, is_game_case

    if is_game_case(data):  # a corpus case of kind 'game': its game under the first expectation that plays
        exps = [e for e in data.get("expect", []) if isinstance(e, dict)]
        plays = [e for e in exps if "error" not in (e.get("facts") or {})] or exps
        if title is None and "id" in data:
            title = f"{data['id']} {data.get('title', '')}".strip()
        data = {**{k: v for k, v in case_data(data).items() if k != "kind"},
                "options": dict((plays[0].get("options") or {}) if plays else {})}
    if isinstance(data, dict) and "phases" in data:
        game = replay(load_game(data, where), where)
        if not game.history:
            raise InputFileError(f"{where}: the game has no phases to draw")
        names = [r.name for r in game.history]
        want = " ".join((phase or names[-1]).lower().split())
        if want not in names:
            raise InputFileError(f"{where}: no phase {phase!r}; its phases: {', '.join(names)}")
        i = names.index(want)
        rec = game.history[i]
        before = rec.round.before if rec.round is not None else (game.history[i - 1].after if i else Board(holdings={}))
        drawn = ", ".join(f"{p} {game.cmap.continents[c].name}" for p, c in sorted(game.continent.items()))
        notes = (f"continents drawn: {drawn}",) + tuple(rec.lines)
        if rec.round is not None and rec.round.winners:
            notes += (f"victory: {', '.join(rec.round.winners)}",)
        return draw(game.cmap, before, list(rec.outcomes), title or f"{game.cmap.title} — {rec.name}",
                    after=rec.after, players=tuple(game.players), notes=notes)
    if phase:
        raise InputFileError("--phase is for saved games; this file is one round")
    req = read_request(data, where)
    res = run_request(req, where)
    if title is None and isinstance(data, dict) and "expect" in data and "id" in data:
        title = f"{data['id']} {data.get('title', '')}".strip()
    notes = tuple(c.reason for c in res.created)
    if res.winners:
        notes += (f"victory: {', '.join(res.winners)}",)
    return draw(get_map(req.map, where), res.before, list(res.outcomes), title or res.map_title, after=res.after,
                notes=notes)
