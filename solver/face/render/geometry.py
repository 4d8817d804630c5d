"""Where things go on a picture: fitting a layout to the canvas and spreading crowded nodes,
shortening arrows to their tokens, colours per power."""

from __future__ import annotations

import colorsys
import math
from typing import TYPE_CHECKING, Optional

from dipsat.maps import GameMap
from dipsat.maps.shapes import inside

if TYPE_CHECKING:
    pass

from dipsat.face.render.scene import PALETTE

# -- geometry ---------------------------------------------------------------------------------


Point = tuple[float, float]


def fit_and_spread(raw: dict[str, tuple[float, float]], width: float, height: float, margin: float,
                   top: float, min_gap: float, rounds: int = 60,
                   footprint: tuple[float, float] | None = None) -> dict[str, Point]:
    """Scale an automatic layout (e.g. networkx's, in any units) into a drawing of ``width`` x
    ``height`` with a title band ``top``, then push nodes closer than ``min_gap`` apart, pairs in
    id order, so the same layout always gives the same picture.  With ``footprint`` (w, h), each
    node stands for a box that size (a token with its texts above and below): two nodes whose
    boxes meet are pushed apart along the axis that needs the smaller move."""
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
                if footprint is not None:
                    dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                    gx, gy = footprint[0] - abs(dx), footprint[1] - abs(dy)
                    if gx > 0 and gy > 0:
                        if gx <= gy:
                            sx = (1.0 if dx >= 0 else -1.0) * gx / 2
                            pa[0], pb[0] = pa[0] - sx, pb[0] + sx
                        else:
                            sy = (1.0 if dy >= 0 else -1.0) * gy / 2
                            pa[1], pb[1] = pa[1] - sy, pb[1] + sy
                        moved = True
                    continue
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


def shorten(a: Point, b: Point, start: float, end: float) -> tuple[Point, Point]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy)
    if d < start + end + 1:
        return a, b
    ux, uy = dx / d, dy / d
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


H2H_OFFSET = 5.0  # how far each arrow of a head-to-head is moved off the line between the two units


def side_by_side(a: Point, b: Point, offset: float) -> tuple[Point, Point]:
    """The segment a-b moved ``offset`` to its right (in the picture, y pointing down): the two
    moves of a head-to-head, each moved to its own right, are drawn side by side."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / d * offset, dx / d * offset
    return (a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)


def fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def text_colour(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "#fff"


def lighter(hex_colour: str, amount: float = 0.55) -> str:
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


# -- label boxes ------------------------------------------------------------------------------

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def text_width(text: str, size: float) -> float:
    """A generous estimate of the width of ``text`` in a sans-serif font of ``size`` px (capitals
    and wide letters count more), so boxes measured with it hold the drawn text."""
    wide = sum(1 for c in text if c.isupper() or c in "mwMW")
    narrow = sum(1 for c in text if c in "iljtfrI.,:;' ()/-")
    return size * (0.58 * (len(text) - wide - narrow) + 0.78 * wide + 0.36 * narrow)


def text_box(text: str, x: float, y: float, size: float, anchor: str = "middle") -> Box:
    """The box ``text`` covers, drawn at (x, baseline y) with ``text-anchor`` ``anchor``."""
    w = text_width(text, size)
    x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
    return (x0, y - 0.8 * size, x0 + w, y + 0.25 * size)


def circle_box(x: float, y: float, r: float) -> Box:
    return (x - r, y - r, x + r, y + r)


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share (0 when they only touch or are apart)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def outside(box: Box, width: float, height: float) -> float:
    """How much of ``box`` lies off a ``width`` x ``height`` drawing (its area)."""
    inside = overlap(box, (0.0, 0.0, width, height))
    return (box[2] - box[0]) * (box[3] - box[1]) - inside


def place_labels(labels: list[tuple[str, str, Point, float]], obstacles: list[Box], width: float, height: float,
                 size: float, within: Optional[dict[str, tuple[Point, ...]]] = None) -> dict[str, tuple[float, float, str]]:
    """Where each label goes: ``labels`` are (key, text, centre, radius of what it labels), placed
    in the order given at the first of a few places around its centre (under it, over it, right,
    left, further off) whose box meets no obstacle, no label placed before and no edge of the
    drawing (and, given ``within``, a shape per key, lies inside the key's shape); if every place
    meets something, the one that meets least.  Returns key -> (x, baseline y, text-anchor)."""
    placed: list[Box] = []
    out: dict[str, tuple[float, float, str]] = {}
    for key, text, (x, y), r in labels:
        candidates = [(x, y + r + size, "middle"), (x, y - r - 4, "middle"), (x + r + 5, y + size * 0.35, "start"),
                      (x - r - 5, y + size * 0.35, "end"), (x + r * 0.7, y + r + size, "start"),
                      (x - r * 0.7, y + r + size, "end"), (x, y + r + 2 * size, "middle"), (x, y - r - 4 - size, "middle")]
        if within is not None:  # a board of shapes: more places that may lie inside the province
            candidates += [(x + r * 0.7, y - r - 4, "start"), (x - r * 0.7, y - r - 4, "end"),
                           (x + r + 5, y + r + size * 0.5, "start"), (x - r - 5, y + r + size * 0.5, "end"),
                           (x + r + 5, y - r + size * 0.2, "start"), (x - r - 5, y - r + size * 0.2, "end")]
            candidates += [(x + math.cos(a * math.pi / 4) * (r + 24), y + math.sin(a * math.pi / 4) * (r + 14) + size * 0.35,
                            "middle") for a in range(8)]
        best: tuple[float, int] | None = None
        for i, (cx, cy, anchor) in enumerate(candidates):
            box = text_box(text, cx, cy, size, anchor)
            met = [a for a in (overlap(box, o) for o in (*obstacles, *placed)) if a > 0]
            cost = outside(box, width, height) * 10 + sum(met) + (1000 * len(met) if within is not None else 0)
            if within is not None and key in within:  # a corner off its own province: worse than none, better than a collision
                cost += 15 * sum(1 for c in ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))
                                 if not inside(c, within[key]))
            if best is None or cost < best[0]:
                best = (cost, i)
            if cost == 0:
                break
        assert best is not None
        cx, cy, anchor = candidates[best[1]]
        placed.append(text_box(text, cx, cy, size, anchor))
        out[key] = (cx, cy, anchor)
    return out
