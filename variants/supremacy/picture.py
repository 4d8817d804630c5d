"""SVG pictures of the Supremacy board: territories (circles tinted by their home superpower),
seas (light-blue and deep, as rounded squares), land adjacency, sea adjacency and ports, and the
forces of each superpower (armies and navies, with the armies they carry) in its colour.  Laid out
by networkx with a fixed seed, so the same board always gives the same picture.  An assault of a
drill case is drawn as an arrow from the attacking forces to the target (its dice decide the
outcome: the corpus facts and ``dipsat odds`` give it, not the picture).

Reached through the generic hook ``render_file`` of the variant record (:mod:`dipsat.game.variant`).
"""

from __future__ import annotations

import math
from functools import lru_cache
from html import escape
from typing import Any, Optional

import networkx as nx

from dipsat.errors import DipsatError, InputFileError
from dipsat.io.files import FileAccess, current_access
from dipsat.face.render import fit_and_spread

from .board import Board, board_named
from .state import State, parse_state

Point = tuple[float, float]
WIDTH, HEIGHT, MARGIN, TOP = 1000.0, 760.0, 50.0, 40.0
LAYOUT_SEED = 2
MIN_GAP = 58.0
# the box a zone and its name above take, kept clear of every other (names up to ~18 characters)
FOOTPRINT = (100.0, 52.0)
COLOURS = ("#c0392b", "#2471a3", "#d68910", "#1e8449", "#7d3c98", "#148f77", "#a04000", "#566573")
CSS = """
.adj{stroke:#a99e86;stroke-width:1.4}
.adj.sea{stroke:#7fa7c9;stroke-dasharray:6 4}
.adj.port{stroke:#2c5d87;stroke-width:2.4}
.lbl{font:10px sans-serif;fill:#333;text-anchor:middle;pointer-events:none}
.ulbl{font:bold 10px sans-serif;text-anchor:middle;dominant-baseline:central;pointer-events:none}
.title{font:bold 15px sans-serif;fill:#222}
.legend{font:12px sans-serif;fill:#222}
.order{fill:none;stroke:#333;stroke-width:2.6}
.blockade{fill:none;stroke:#b03a2e;stroke-width:3;stroke-dasharray:5 3}
.siege{fill:none;stroke:#6c3483;stroke-width:3;stroke-dasharray:2 3}
"""


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


@lru_cache(maxsize=4)
def _board_layout(board_file: Optional[str], access: FileAccess) -> dict[str, Point]:
    return layout(board_named(board_file))  # the file named under ``access``


def layout(board: Board) -> dict[str, Point]:
    """Zone id -> point: networkx's spring layout (fixed seed, zones in id order), scaled to the
    picture, with zones closer than a token pushed apart."""
    g = nx.Graph()
    g.add_nodes_from(sorted([*board.territories, *board.seas]))
    for tid, t in sorted(board.territories.items()):
        g.add_edges_from((tid, o) for o in t.adjacent)
        g.add_edges_from((tid, s) for s in t.ports)
        g.add_edges_from((tid, s) for s in t.coasts)
    for sid, s in sorted(board.seas.items()):
        g.add_edges_from((sid, o) for o in s.adjacent)
    raw = nx.spring_layout(g, seed=LAYOUT_SEED, iterations=200)
    return fit_and_spread({n: (float(p[0]), float(p[1])) for n, p in raw.items()}, WIDTH, HEIGHT, MARGIN, TOP, MIN_GAP, rounds=200,
                          footprint=FOOTPRINT)


def _light(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (255 - c) * 0.7):02x}" for c in (r, g, b))


def draw(state: State, title: str, arrows: tuple[tuple[list[str], str, str], ...] = (), notes: tuple[str, ...] = ()) -> str:
    """The board with ``state``'s forces; ``arrows``: (from zones, to zone, hover text)."""
    board = state.get_board()
    notes = (*notes, *standing_notes(state))
    at = _board_layout(state.board, current_access())
    powers = sorted(set(board.superpowers) | set(state.powers))
    colour = {p: COLOURS[i % len(COLOURS)] for i, p in enumerate(powers)}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(WIDTH)}" height="{_f(HEIGHT + 80 + 18 * len(notes))}" '
           f'viewBox="0 0 {_f(WIDTH)} {_f(HEIGHT + 80 + 18 * len(notes))}" font-family="sans-serif">',
           f"<style>{CSS}</style>",
           '<defs><marker id="ah" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
           'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>',
           '<rect width="100%" height="100%" fill="#fbfaf6"/>',
           f'<text class="title" x="16" y="26">{escape(title)}</text>', '<g class="adjacency">']
    edges: dict[tuple[str, str], str] = {}
    for tid, t in board.territories.items():
        for o in t.adjacent:
            edges[(min(tid, o), max(tid, o))] = "land"
        for s in t.coasts:
            edges.setdefault((min(tid, s), max(tid, s)), "sea")
        for s in t.ports:
            edges[(min(tid, s), max(tid, s))] = "port"
    for sid, sea in board.seas.items():
        for o in sea.adjacent:
            edges[(min(sid, o), max(sid, o))] = "sea"
    for (a, b), kind in sorted(edges.items()):
        (x1, y1), (x2, y2) = at[a], at[b]
        cls = "adj" if kind == "land" else f"adj {kind}"
        out.append(f'<line class="{cls}" x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}">'
                   f'<title>{escape(board.zone_name(a))} – {escape(board.zone_name(b))}: {kind}</title></line>')
    out.append('</g><g class="provinces">')
    for zone in sorted([*board.territories, *board.seas]):
        x, y = at[zone]
        if zone in board.seas:
            sea = board.seas[zone]
            what = "light-blue sea" if sea.light_blue else "deep sea"
            ports = ", ".join(board.zone_name(t) for t in board.port_territories(zone))
            tip = f"{sea.name}: {what}" + (f"; ports: {ports}" if ports else "")
            shape = (f'<rect x="{_f(x - 16)}" y="{_f(y - 16)}" width="32" height="32" rx="10" '
                     f'fill="{"#cfe3f3" if sea.light_blue else "#9fc1de"}" stroke="#5b8fc7"/>')
        else:
            t = board.territories[zone]
            tip = f"{t.name}: territory" + (f", home of {t.home}" if t.home else "") + (
                f"; ports into {', '.join(board.zone_name(s) for s in t.ports)}" if t.ports else "")
            fill = _light(colour[t.home]) if t.home in colour else "#efe9da"
            shape = f'<circle cx="{_f(x)}" cy="{_f(y)}" r="17" fill="{fill}" stroke="#6b6250"/>'
        ctrl = state.controller(zone)
        tip += f"; controlled by {ctrl}" if ctrl else ""
        out.append(f'<g class="province" data-zone="{zone}"><title>{escape(tip)}</title>{shape}'
                   f'<text class="lbl" x="{_f(x)}" y="{_f(y - 21)}">{escape(board.zone_name(zone))}</text></g>')
    out.append('</g><g class="standing">')
    for bl in state.blockades:
        if bl.zone in at:
            x, y = at[bl.zone]
            out.append(f'<circle class="blockade" data-zone="{bl.zone}" cx="{_f(x)}" cy="{_f(y)}" r="23">'
                       f'<title>{escape(board.zone_name(bl.zone))}: blockaded by {escape(", ".join(bl.by))}</title></circle>')
    for sg in state.sieges:
        for home in board.homes(sg.power):
            if home in at:
                x, y = at[home]
                out.append(f'<circle class="siege" data-zone="{home}" cx="{_f(x)}" cy="{_f(y)}" r="26">'
                           f'<title>{escape(sg.power)} besieged by {escape(", ".join(sg.by))}</title></circle>')
    out.append('</g><g class="orders">')
    for frm, to, text in arrows:
        for z in frm:
            if z not in at or to not in at:
                continue
            (x1, y1), (x2, y2) = at[z], at[to]
            d = math.dist((x1, y1), (x2, y2)) or 1.0
            ux, uy = (x2 - x1) / d, (y2 - y1) / d
            out.append(f'<g class="o move"><title>{escape(text)}</title><path class="order" '
                       f'd="M{_f(x1 + ux * 19)},{_f(y1 + uy * 19)} L{_f(x2 - ux * 21)},{_f(y2 - uy * 21)}" marker-end="url(#ah)"/></g>')
    out.append('</g><g class="units">')
    for p, h in sorted(state.powers.items()):
        per_zone: dict[str, list[str]] = {}
        for z, n in sorted(h.armies.items()):
            if n:
                per_zone.setdefault(z, []).append(f"{n}A")
        for nv in h.navies:
            per_zone.setdefault(nv.sea, []).append("N" + (f"+{nv.armies}" if nv.armies else ""))
        for z, parts in sorted(per_zone.items()):
            if z not in at:
                continue
            count = h.armies.get(z, 0) or sum(1 for nv in h.navies if nv.sea == z)  # the page's count of forces
            x, y = at[z]
            off = 8.0 * (powers.index(p) % 3) - 8.0
            label = " ".join(parts)
            tip = f"{p}: {label} in {board.zone_name(z)} (A army, N navy, +n armies aboard)"
            w = 8 + 6.2 * len(label)
            out.append(f'<g class="unit-token" data-power="{escape(p)}" data-zone="{z}" data-armies="{count}"><title>{escape(tip)}</title>'
                       f'<rect x="{_f(x - w / 2)}" y="{_f(y - 7 + off)}" width="{_f(w)}" height="14" rx="4" fill="{colour[p]}" stroke="#222"/>'
                       f'<text class="ulbl" x="{_f(x)}" y="{_f(y + off)}" fill="#fff">{escape(label)}</text></g>')
    out.append("</g>")
    y = HEIGHT + 22
    items = "   ".join(f'<tspan fill="{colour[p]}">■ {escape(p)}</tspan>' for p in powers)
    out.append(f'<text class="legend" x="16" y="{_f(y)}">{items}</text>')
    out.append(f'<text class="legend" x="16" y="{_f(y + 20)}">○ territory (tinted by home)  ▢ sea (pale: light-blue)  '
               '— land  ╌ sea  ━ port   tokens: nA armies, N navy (+n armies aboard)</text>')
    for i, note in enumerate(notes):
        out.append(f'<text class="legend" x="16" y="{_f(y + 40 + 18 * i)}">{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def standing_notes(state: State) -> list[str]:
    """Legend lines for what the state carries besides forces: blockades, sieges, captured centers."""
    board = state.get_board()
    out = [f"blockade of {board.zone_name(b.zone)} by {', '.join(b.by)} (dashed red ring)" for b in state.blockades]
    out += [f"siege of {s.power} by {', '.join(s.by)} (dotted purple rings on its home territories)" for s in state.sieges]
    for removed, cc in sorted(state.captured.items()):
        frozen = f", frozen until turn {cc.frozen_until}" if cc.frozen(state.turn) else ""
        out.append(f"{removed}'s supply center captured: controlled by {cc.controller or 'nobody'}{frozen}")
    out += [f"{p}'s armies landed by air or sea in {', '.join(board.zone_name(z) for z in zones)} (not to be withdrawn "
            "this Stage 4)" for p, zones in sorted(state.landings.items()) if zones]
    return out


def _force_zones(forces: list[str]) -> list[str]:
    return [f.split()[-1] for f in forces if f.split()]


def render_file(data: Any, where: str, phase: Optional[str] = None, title: Optional[str] = None) -> str:
    """A corpus case (its state, or the state its set-up makes) or a game file (the state after
    set-up, ``--phase setup``, or after a turn, ``--phase "turn N"``; default the last)."""
    if not isinstance(data, dict):
        raise InputFileError(f"{where}: expected a table of fields")
    if "turns" in data or "setup" in data and "data" not in data:
        from .inputs import file_options
        from .game import load_game, play_game
        from .options import make_options

        game = load_game(data, where)
        log = play_game(game, make_options(file_options({"options": game.options})), where)
        names = ["setup"] + [f"turn {t.number}" for t in log.turns]
        want = " ".join((phase or names[-1]).lower().split())
        if want not in names:
            raise InputFileError(f"{where}: no phase {phase!r}; its phases: {', '.join(names)}")
        i = names.index(want)
        state = log.setup if i == 0 else (log.turns[i - 1].state or log.state)
        return draw(state, title or f"Supremacy — after {want}")
    if phase:
        raise InputFileError("--phase is for game files; this file is one case")
    case = data.get("data", data)
    if not isinstance(case, dict):
        raise InputFileError(f"{where}: data: expected a table")
    if title is None and "id" in data:
        title = f"{data['id']} {data.get('title', '')}".strip()
    notes: tuple[str, ...] = ()
    if "state" in case:
        state = parse_state(case["state"], f"{where}: data.state")
    elif case.get("kind") == "setup":
        from .cases import run_data
        from .inputs import file_options
        from .options import make_options

        try:
            state = parse_state(run_data(case, make_options(file_options(data, None)))["state"], where)
            notes = ("the state after set-up",)
        except DipsatError as exc:  # a case about a set-up the rules refuse: the board, and why
            state = State()
            notes = (f"set-up refused: {exc}",)
    else:
        state = State()
        notes = ("no board state in this case: the board only",)
    arrows: list[tuple[list[str], str, str]] = []
    drill = case.get("drill")
    if isinstance(drill, dict) and isinstance(drill.get("target"), str):
        forces = [str(f) for f in drill.get("forces", [])]
        arrows.append((_force_zones(forces), drill["target"],
                       f"{drill.get('attacker', '?')}: assault on {drill['target']} with {', '.join(forces) or 'no forces'}"))
    return draw(state, title or "Supremacy", tuple(arrows), notes)
