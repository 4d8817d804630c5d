"""Province shapes computed from a map's own data: the province points of its ``[layout]`` and
its adjacency (army and fleet, coasts merged into their province).

When a map says ``shapes = true`` in ``[layout]``, its points must be a *planar straight-line
drawing* of the province graph: the segment between two neighbours' points meets no other such
segment except at a shared end, and passes through no other point.  Each province's shape is
then the *barycentric dual* of that drawing:

* every face of the drawing (a cycle of provinces meeting around a corner) gets a corner point:
  the centroid of the part of the face from which all of its provinces are seen (its kernel);
* a province's shape runs, in angular order around its point, through the midpoint of each
  segment to a neighbour and the corner of each face between two consecutive neighbours;
* the outer face is closed by the frame of the drawing: from the midpoint of each segment on
  the outside of the drawing a border runs straight out to the frame, and the provinces on the
  outside fill the frame between those borders.

So each shape contains its point, the shapes tile the drawing without overlapping, and two
shapes share a border of positive length exactly when their provinces are neighbours (through
the corner of a face of four or more, provinces that are not neighbours meet at a point only).
Nothing here is drawn from anyone's artwork: the shapes follow from the points and the
adjacency alone, so a map moves a border by moving a point.
"""

from __future__ import annotations

import math
from typing import Iterable

Point = tuple[float, float]
Polygon = tuple[Point, ...]

EPS = 1e-9


class ShapeError(ValueError):
    """The points of a map cannot carry shapes (two segments cross, a face has no kernel...)."""


# -- plane geometry ----------------------------------------------------------------------------


def cross(o: Point, a: Point, b: Point) -> float:
    """The z of (a - o) x (b - o): > 0 when o, a, b turn one way, < 0 the other, 0 in line."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def signed_area(poly: Iterable[Point]) -> float:
    pts = list(poly)
    return sum(pts[i - 1][0] * pts[i][1] - pts[i][0] * pts[i - 1][1] for i in range(len(pts))) / 2


def centroid(poly: Iterable[Point]) -> Point:
    """The centroid of a polygon's area (its vertices' mean if it has none)."""
    pts = list(poly)
    a = signed_area(pts)
    if abs(a) < EPS:
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
    cx = cy = 0.0
    for i in range(len(pts)):
        (x0, y0), (x1, y1) = pts[i - 1], pts[i]
        f = x0 * y1 - x1 * y0
        cx += (x0 + x1) * f
        cy += (y0 + y1) * f
    return (cx / (6 * a), cy / (6 * a))


def on_segment(p: Point, a: Point, b: Point, tol: float = 1e-7) -> bool:
    """Whether ``p`` lies on the closed segment a-b."""
    if abs(cross(a, b, p)) > tol * max(1.0, math.dist(a, b)):
        return False
    return min(a[0], b[0]) - tol <= p[0] <= max(a[0], b[0]) + tol and min(a[1], b[1]) - tol <= p[1] <= max(a[1], b[1]) + tol


def segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether the closed segments a-b and c-d have a point in common."""
    d1, d2, d3, d4 = cross(c, d, a), cross(c, d, b), cross(a, b, c), cross(a, b, d)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return on_segment(a, c, d) or on_segment(b, c, d) or on_segment(c, a, b) or on_segment(d, a, b)


def inside(p: Point, poly: Polygon) -> bool:
    """Whether ``p`` lies strictly inside ``poly`` (a point on its boundary is not)."""
    n = len(poly)
    if any(on_segment(p, poly[i - 1], poly[i]) for i in range(n)):
        return False
    hit = False
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i - 1], poly[i]
        if (y0 > p[1]) != (y1 > p[1]) and p[0] < x0 + (p[1] - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def _clip(poly: list[Point], a: Point, b: Point) -> list[Point]:
    """The part of convex ``poly`` on the left of the line a->b (cross(a, b, p) >= 0)."""
    out: list[Point] = []
    for i in range(len(poly)):
        p, q = poly[i - 1], poly[i]
        cp, cq = cross(a, b, p), cross(a, b, q)
        if cq >= 0:
            if cp < 0:
                out.append(_cut(p, q, cp, cq))
            out.append(q)
        elif cp >= 0:
            out.append(_cut(p, q, cp, cq))
    return out


def _cut(p: Point, q: Point, cp: float, cq: float) -> Point:
    t = cp / (cp - cq)
    return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)


def kernel(poly: Polygon) -> list[Point]:
    """The kernel of a simple polygon given counter-clockwise in the sense of :func:`cross`
    (positive signed area): the points that see every vertex; [] when it has none."""
    bound = [(min(p[0] for p in poly), min(p[1] for p in poly)), (max(p[0] for p in poly), min(p[1] for p in poly)),
             (max(p[0] for p in poly), max(p[1] for p in poly)), (min(p[0] for p in poly), max(p[1] for p in poly))]
    if signed_area(bound) < 0:
        bound.reverse()
    out: list[Point] = bound
    for i in range(len(poly)):
        out = _clip(out, poly[i - 1], poly[i])
        if not out:
            return []
    return out if abs(signed_area(out)) > EPS else []


# -- the drawing and its faces ---------------------------------------------------------------


def check_drawing(points: dict[str, Point], edges: Iterable[tuple[str, str]]) -> list[str]:
    """What keeps the points from being a planar straight-line drawing of the graph: two
    segments that cross, a segment through another province's point.  [] when none."""
    segs = sorted({(min(a, b), max(a, b)) for a, b in edges if a != b})
    problems: list[str] = []
    for i, (a, b) in enumerate(segs):
        pa, pb = points[a], points[b]
        for c, d in segs[i + 1:]:
            if len({a, b, c, d}) < 4:
                continue
            pc, pd = points[c], points[d]
            if max(pa[0], pb[0]) < min(pc[0], pd[0]) or max(pc[0], pd[0]) < min(pa[0], pb[0]):
                continue
            if segments_meet(pa, pb, pc, pd):
                problems.append(f"the segments {a}-{b} and {c}-{d} cross")
        x0, x1, y0, y1 = min(pa[0], pb[0]) - 1, max(pa[0], pb[0]) + 1, min(pa[1], pb[1]) - 1, max(pa[1], pb[1]) + 1
        for p in sorted(points):
            if p not in (a, b) and x0 <= points[p][0] <= x1 and y0 <= points[p][1] <= y1 and on_segment(points[p], pa, pb, tol=0.5):
                problems.append(f"the segment {a}-{b} passes through the point of {p}")
    return problems


def rotation(points: dict[str, Point], adj: dict[str, set[str]]) -> dict[str, list[str]]:
    """Each point's neighbours in order of angle (ascending atan2 of the picture's x, y)."""
    out = {}
    for v, nbs in adj.items():
        x, y = points[v]
        out[v] = sorted(nbs, key=lambda w: (math.atan2(points[w][1] - y, points[w][0] - x), w))
    return out


def faces(points: dict[str, Point], adj: dict[str, set[str]]) -> tuple[list[list[str]], dict[tuple[str, str], int], int]:
    """The faces of a planar straight-line drawing: each as its cycle of points, the face of each
    directed edge (u, v) (the one on a fixed side of it), and which face is the outer one."""
    rot = rotation(points, adj)
    pos = {v: {w: i for i, w in enumerate(ws)} for v, ws in rot.items()}
    face_of: dict[tuple[str, str], int] = {}
    cycles: list[list[str]] = []
    for u in sorted(rot):
        for v in rot[u]:
            if (u, v) in face_of:
                continue
            cycle: list[str] = []
            a, b = u, v
            while (a, b) not in face_of:
                face_of[(a, b)] = len(cycles)
                cycle.append(a)
                ws = rot[b]
                a, b = b, ws[(pos[b][a] + 1) % len(ws)]
            cycles.append(cycle)
    areas = [signed_area(points[v] for v in c) for c in cycles]
    outer = [i for i, a in enumerate(areas) if a >= 0]
    if len(outer) != 1:
        raise ShapeError(f"the drawing has {len(outer)} outer faces, not one (is the graph connected and planar?)")
    return cycles, face_of, outer[0]


# -- the shapes --------------------------------------------------------------------------------


def _frame_position(p: Point, size: Point) -> float:
    """Where ``p`` (on the frame) lies along the frame, measured clockwise in the picture from
    the top left corner."""
    w, h = size
    x, y = p
    if y <= EPS:
        return x
    if x >= w - EPS:
        return w + y
    if y >= h - EPS:
        return w + h + (w - x)
    return 2 * w + h + (h - y)


def _to_frame(start: Point, direction: Point, size: Point) -> Point:
    """Where the ray from ``start`` (inside the frame) along ``direction`` leaves the frame."""
    dx, dy = direction
    ts = []
    if dx > EPS:
        ts.append((size[0] - start[0]) / dx)
    if dx < -EPS:
        ts.append(-start[0] / dx)
    if dy > EPS:
        ts.append((size[1] - start[1]) / dy)
    if dy < -EPS:
        ts.append(-start[1] / dy)
    t = min(ts)
    return (min(max(start[0] + dx * t, 0.0), size[0]), min(max(start[1] + dy * t, 0.0), size[1]))


def _frame_path(a: Point, b: Point, size: Point) -> list[Point]:
    """The frame from ``a`` to ``b`` clockwise in the picture, corners included."""
    w, h = size
    corners = [((w, 0.0), w), ((w, h), w + h), ((0.0, h), 2 * w + h), ((0.0, 0.0), 2 * w + 2 * h)]
    total = 2 * (w + h)
    ta, tb = _frame_position(a, size), _frame_position(b, size)
    span = (tb - ta) % total
    out = [a]
    for corner, t in sorted(corners, key=lambda c: (c[1] - ta) % total):
        if EPS < (t - ta) % total < span - EPS:
            out.append(corner)
    out.append(b)
    return out


def province_edges(pairs: Iterable[tuple[str, str]]) -> dict[str, set[str]]:
    """Adjacency of provinces from location pairs ('spa/nc' counts as 'spa'), without loops."""
    adj: dict[str, set[str]] = {}
    for a, b in pairs:
        pa, pb = a.split("/", 1)[0], b.split("/", 1)[0]
        if pa != pb:
            adj.setdefault(pa, set()).add(pb)
            adj.setdefault(pb, set()).add(pa)
    return adj


def province_shapes(points: dict[str, Point], adj: dict[str, set[str]], size: Point) -> dict[str, Polygon]:
    """Each province's shape (see the module's text); raises :class:`ShapeError` naming what
    keeps the points from carrying shapes."""
    lonely = sorted(v for v in points if not adj.get(v))
    if lonely:
        raise ShapeError(f"province(s) {', '.join(lonely)} have no neighbour to share a border with")
    problems = check_drawing(points, ((a, b) for a, nbs in adj.items() for b in nbs))
    if problems:
        raise ShapeError("the points are not a planar drawing of the map: " + "; ".join(problems[:5])
                         + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""))
    cycles, face_of, outer = faces(points, adj)
    if len(points) - sum(len(n) for n in adj.values()) // 2 + len(cycles) != 2:
        raise ShapeError("the province graph is not connected: every province must be reachable from every other")
    reach = {v: _median([math.dist(points[v], points[w]) for w in adj[v]]) for v in points}
    corners: dict[int, Point] = {}
    for i, cycle in enumerate(cycles):
        if i == outer:
            continue
        poly = tuple(points[v] for v in cycle)
        k = kernel(poly if signed_area(poly) > 0 else poly[::-1])
        if not k:
            raise ShapeError(f"the face {'-'.join(cycle)} has no point that sees all its provinces: move one of them")
        weights = [1 / reach[v] for v in cycle]
        pull = (sum(w * points[v][0] for w, v in zip(weights, cycle)) / sum(weights),
                sum(w * points[v][1] for w, v in zip(weights, cycle)) / sum(weights))
        corners[i] = pull if len(cycle) == 3 or inside(pull, tuple(k)) else centroid(k)
    rot = rotation(points, adj)
    mid = {(a, b): _between(points[a], points[b], reach[a], reach[b]) for a in adj for b in adj[a]}
    # where the border of each outer segment meets the frame: straight out from its midpoint
    out_at: dict[tuple[str, str], Point] = {}
    for (a, b), f in face_of.items():
        if f == outer:
            (xa, ya), (xb, yb) = points[a], points[b]
            if face_of[(b, a)] == outer:
                raise ShapeError(f"the segment {a}-{b} has the outside on both sides: every province needs "
                                 "two ways round (a map of one chain of provinces cannot carry shapes)")
            inner = corners[face_of[(b, a)]]
            m = mid[(a, b)]
            nx, ny = -(yb - ya), xb - xa
            if nx * (m[0] - inner[0]) + ny * (m[1] - inner[1]) < 0:
                nx, ny = -nx, -ny
            out_at[(a, b)] = out_at[(b, a)] = _to_frame(m, (nx, ny), size)
    _check_outside(points, adj, mid, out_at)
    shapes: dict[str, Polygon] = {}
    for v in sorted(points):
        ws = rot[v]
        ring: list[Point] = []
        for i, w in enumerate(ws):
            nxt = ws[(i + 1) % len(ws)]
            ring.append(mid[(v, w)])
            f = face_of[(v, nxt)]
            if f != outer:
                ring.append(corners[f])
            else:
                ring += _frame_path(out_at[(v, w)], out_at[(v, nxt)], size)
        shapes[v] = _tidy(ring)
    covered = sum(signed_area(p) for p in shapes.values())
    if abs(covered - size[0] * size[1]) > 1e-6 * size[0] * size[1]:
        raise ShapeError("the shapes do not fill the drawing once: the outside of the drawing is too hollow for "
                         "borders straight out to the frame")
    return shapes


def _check_outside(points: dict[str, Point], adj: dict[str, set[str]], mid: dict[tuple[str, str], Point],
                   out_at: dict[tuple[str, str], Point]) -> None:
    """Each border from an outer segment straight out to the frame must cross no segment of the
    drawing and no other such border (else the outside is too hollow there)."""
    segs = sorted({(min(a, b), max(a, b)) for a in adj for b in adj[a]})
    rays = sorted({(min(a, b), max(a, b)) for a, b in out_at})
    for i, (a, b) in enumerate(rays):
        m, g = mid[(a, b)], out_at[(a, b)]
        for c, d in segs:
            if (c, d) != (a, b) and segments_meet(m, g, points[c], points[d]):
                raise ShapeError(f"the border of the outer segment {a}-{b} runs out to the frame across the segment "
                                 f"{c}-{d}: move {a} or {b} towards the outside")
        for c, d in rays[i + 1:]:
            m2, g2 = mid[(c, d)], out_at[(c, d)]
            if segments_meet(m, g, m2, g2) and not (math.dist(g, g2) < 1e-6 and not segments_meet(m, g, m2, m2)):
                raise ShapeError(f"the borders of the outer segments {a}-{b} and {c}-{d} cross on their way to the frame: "
                                 f"move their provinces towards the outside")


def _median(values: list[float]) -> float:
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def _between(a: Point, b: Point, ra: float, rb: float) -> Point:
    """Where the border between provinces at ``a`` and ``b`` crosses the segment between them:
    each province's share of the segment is in proportion to its reach (the median distance to
    its neighbours), so a wide sea keeps more of the way to a small coastal province."""
    t = ra / (ra + rb)
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _tidy(ring: list[Point]) -> Polygon:
    """The ring without repeated points or points in line with their neighbours, rounded to a
    tenth (as the SVG writes them), counter-clockwise in the sense of :func:`cross`."""
    pts = [(round(x, 1), round(y, 1)) for x, y in ring]
    changed = True
    while changed and len(pts) > 3:
        changed = False
        for i in range(len(pts)):
            a, b, c = pts[i - 2], pts[i - 1], pts[i]
            if a == b or abs(cross(a, b, c)) < 1e-6 and (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1]) >= 0:
                del pts[i - 1]
                changed = True
                break
    if signed_area(pts) < 0:
        pts.reverse()
    return tuple(pts)
