"""Province shapes from the map's own data (issue 28): a map whose ``[layout]`` says ``shapes =
true`` is drawn as shapes computed from its points and adjacency (maps/shapes.py).  Checked here
with geometry of the test's own (ray casting, ear clipping, convex clipping, collinear edges), not
the module's: each shape contains its point, no two shapes overlap, the shapes fill the drawing,
and the pairs of shapes that share a border of positive length are exactly the map's neighbours.
The same checks run on random planar maps, and a map whose points cannot carry shapes gets an
error that names the problem."""

from __future__ import annotations

import math
import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from dipsat.maps import GameMap, MapError, build_map, load_map
from dipsat.maps.shapes import ShapeError, province_shapes

Pt = tuple[float, float]
Poly = tuple[Pt, ...]
SVG = "{http://www.w3.org/2000/svg}"


# -- the test's own plane geometry ----------------------------------------------------------------


def _cross(o: Pt, a: Pt, b: Pt) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _area(poly: Poly) -> float:
    return sum(poly[i - 1][0] * poly[i][1] - poly[i][0] * poly[i - 1][1] for i in range(len(poly))) / 2


def _on_edge(p: Pt, a: Pt, b: Pt) -> bool:
    return (abs(_cross(a, b, p)) <= 1e-6 * max(1.0, math.dist(a, b))
            and min(a[0], b[0]) - 1e-9 <= p[0] <= max(a[0], b[0]) + 1e-9
            and min(a[1], b[1]) - 1e-9 <= p[1] <= max(a[1], b[1]) + 1e-9)


def _strictly_inside(p: Pt, poly: Poly) -> bool:
    if any(_on_edge(p, poly[i - 1], poly[i]) for i in range(len(poly))):
        return False
    hit = False
    for i in range(len(poly)):
        (x0, y0), (x1, y1) = poly[i - 1], poly[i]
        if (y0 > p[1]) != (y1 > p[1]) and p[0] < x0 + (p[1] - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def _simple(poly: Poly) -> bool:
    """No two edges that are not neighbours meet."""
    n = len(poly)
    edges = [(poly[i], poly[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue
            (a, b), (c, d) = edges[i], edges[j]
            d1, d2, d3, d4 = _cross(c, d, a), _cross(c, d, b), _cross(a, b, c), _cross(a, b, d)
            if (d1 * d2 < 0 and d3 * d4 < 0) or _on_edge(a, c, d) or _on_edge(b, c, d) or _on_edge(c, a, b) or _on_edge(d, a, b):
                return False
    return True


def _triangles(poly: Poly) -> list[Poly]:
    """Ear clipping of a simple polygon."""
    pts = list(poly if _area(poly) > 0 else poly[::-1])
    out: list[Poly] = []
    while len(pts) > 3:
        for i in range(len(pts)):
            a, b, c = pts[i - 1], pts[i], pts[(i + 1) % len(pts)]
            turn = _cross(a, b, c)
            if abs(turn) < 1e-9:  # b in line with its neighbours: no area to cut
                del pts[i]
                break
            if turn > 0 and not any(_strictly_inside(p, (a, b, c)) or (p not in (a, b, c) and (_on_edge(p, a, c)))
                                    for p in pts):
                out.append((a, b, c))
                del pts[i]
                break
        else:
            raise AssertionError(f"no ear in {pts}")
    out.append(tuple(pts))
    return out


def _clip(subject: list[Pt], clip: Poly) -> list[Pt]:
    """Sutherland-Hodgman: the part of convex ``subject`` inside convex counter-clockwise ``clip``."""
    out = subject
    for i in range(len(clip)):
        a, b = clip[i - 1], clip[i]
        src, out = out, []
        for j in range(len(src)):
            p, q = src[j - 1], src[j]
            cp, cq = _cross(a, b, p), _cross(a, b, q)
            if cq >= 0:
                if cp < 0:
                    out.append((p[0] + (q[0] - p[0]) * cp / (cp - cq), p[1] + (q[1] - p[1]) * cp / (cp - cq)))
                out.append(q)
            elif cp >= 0:
                out.append((p[0] + (q[0] - p[0]) * cp / (cp - cq), p[1] + (q[1] - p[1]) * cp / (cp - cq)))
        if not out:
            return []
    return out


def _box(poly: Poly) -> tuple[float, float, float, float]:
    return min(p[0] for p in poly), min(p[1] for p in poly), max(p[0] for p in poly), max(p[1] for p in poly)


def _overlap_area(a: Poly, b: Poly) -> float:
    ta, tb = _triangles(a), _triangles(b)
    total = 0.0
    for s in ta:
        for t in tb:
            bs, bt = _box(s), _box(t)
            if bs[2] <= bt[0] or bt[2] <= bs[0] or bs[3] <= bt[1] or bt[3] <= bs[1]:
                continue
            part = _clip(list(s), t if _area(t) > 0 else t[::-1])
            if len(part) >= 3:
                total += abs(_area(tuple(part)))
    return total


def _shared_border(a: Poly, b: Poly) -> float:
    """The length of the boundary the two polygons have in common (collinear overlapping edges)."""
    total = 0.0
    for i in range(len(a)):
        p, q = a[i - 1], a[i]
        length = math.dist(p, q)
        ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
        for j in range(len(b)):
            r, s = b[j - 1], b[j]
            if abs(_cross(p, q, r)) > 1e-6 * length or abs(_cross(p, q, s)) > 1e-6 * length:
                continue
            tr, ts = (r[0] - p[0]) * ux + (r[1] - p[1]) * uy, (s[0] - p[0]) * ux + (s[1] - p[1]) * uy
            total += max(0.0, min(length, max(tr, ts)) - max(0.0, min(tr, ts)))
    return total


# -- the checks -------------------------------------------------------------------------------------


def _problems(shapes: dict[str, Poly], points: dict[str, Pt], neighbours: set[frozenset[str]], size: Pt) -> list[str]:
    """Everything wrong with a set of shapes for a map: a shape that is not a simple polygon or
    does not contain its point strictly, two shapes that overlap, a gap or a spill over the frame,
    a border between provinces that are not neighbours, neighbours without a border."""
    out = []
    for pid, poly in sorted(shapes.items()):
        if not _simple(poly):
            out.append(f"{pid}: not a simple polygon")
        elif not _strictly_inside(points[pid], poly):
            out.append(f"{pid}: its point {points[pid]} is not inside its shape")
        if any(not (-1e-9 <= x <= size[0] + 1e-9 and -1e-9 <= y <= size[1] + 1e-9) for x, y in poly):
            out.append(f"{pid}: leaves the drawing")
    total = sum(abs(_area(p)) for p in shapes.values())
    if abs(total - size[0] * size[1]) > 1e-6 * size[0] * size[1]:
        out.append(f"the shapes cover {total:.1f}, the drawing is {size[0] * size[1]:.1f}")
    ids = sorted(shapes)
    borders = set()
    for i, a in enumerate(ids):
        ba = _box(shapes[a])
        for b in ids[i + 1:]:
            bb = _box(shapes[b])
            if ba[2] < bb[0] or bb[2] < ba[0] or ba[3] < bb[1] or bb[3] < ba[1]:
                continue
            if (area := _overlap_area(shapes[a], shapes[b])) > 1e-3:
                out.append(f"{a} and {b} overlap ({area:.3f})")
            if _shared_border(shapes[a], shapes[b]) > 1e-3:
                borders.add(frozenset((a, b)))
    out += [f"{'/'.join(sorted(p))} share a border but are not neighbours" for p in sorted(borders - neighbours, key=sorted)]
    out += [f"{'/'.join(sorted(p))} are neighbours without a border" for p in sorted(neighbours - borders, key=sorted)]
    return out


def _neighbours(m: GameMap) -> set[frozenset[str]]:
    """Pairs of provinces a unit of either kind moves between (a coast counts as its province)."""
    out = set()
    for pid, p in m.provinces.items():
        for loc in (pid, *p.coasts):
            for n in (*(m.army_neighbours(loc) if m.is_army_location(loc) else ()),
                      *(m.fleet_neighbours(loc) if m.is_fleet_location(loc) else ())):
                if m.province_of(n) != pid:
                    out.add(frozenset((pid, m.province_of(n))))
    return out


@pytest.mark.parametrize("name", ["standard", "multiplomacy"])
def test_the_standard_board_shapes_tile_and_border_exactly_the_neighbours(name: str) -> None:
    m = load_map(name)
    assert m.layout is not None and m.layout.shapes and m.shapes is not None
    assert set(m.shapes) == set(m.provinces) and len(m.shapes) == 76  # 75 provinces and Switzerland
    points = {p: m.layout.at[p] for p in m.provinces}
    assert not _problems(m.shapes, points, _neighbours(m), m.layout.size)
    for cid, coast in m.coasts.items():  # each coast is drawn inside its province
        assert _strictly_inside(m.layout.at[cid], m.shapes[coast.province]), cid


def test_the_checks_find_a_border_between_strangers_and_an_overlap() -> None:
    """The checks above can fail: a shape moved over its neighbour, a neighbour pair dropped."""
    m = load_map("standard")
    assert m.shapes is not None and m.layout is not None
    points = {p: m.layout.at[p] for p in m.provinces}
    nbs = _neighbours(m)
    shifted = dict(m.shapes)
    shifted["par"] = tuple((x + 60, y) for x, y in m.shapes["par"])
    found = _problems(shifted, points, nbs, m.layout.size)
    assert any("bur and par overlap" in p for p in found) and any("not inside its shape" in p for p in found)
    assert _problems(m.shapes, points, nbs - {frozenset(("par", "bur"))}, m.layout.size) == [
        "bur/par share a border but are not neighbours"]


def _near_segment(p: Pt, a: Pt, b: Pt) -> bool:
    """Within a pixel of the segment a-b (the module refuses a segment that close to a point)."""
    t = max(0.0, min(1.0, ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / math.dist(a, b) ** 2))
    return math.dist(p, (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)) < 1.0


def _random_planar(seed: int, hollow: bool = False) -> tuple[dict[str, Pt], dict[str, set[str]], Pt]:
    """Random points, joined shortest segment first wherever it crosses no segment already drawn
    (a planar triangulation), then some segments dropped where both ends keep three neighbours:
    inner ones only (the outside stays convex), or (``hollow``) any."""
    rng = random.Random(seed)
    size = (400.0, 300.0)
    n = rng.randint(5, 28)
    pts = {f"p{i}": (round(rng.uniform(15, size[0] - 15), 1), round(rng.uniform(15, size[1] - 15), 1)) for i in range(n)}
    names = sorted(pts)
    pairs = sorted(((math.dist(pts[a], pts[b]), a, b) for i, a in enumerate(names) for b in names[i + 1:]))
    edges: list[tuple[str, str]] = []

    def crosses(a: str, b: str) -> bool:
        for c, d in edges:
            if len({a, b, c, d}) < 4:
                continue
            pa, pb, pc, pd = pts[a], pts[b], pts[c], pts[d]
            if (_cross(pc, pd, pa) * _cross(pc, pd, pb) <= 0) and (_cross(pa, pb, pc) * _cross(pa, pb, pd) <= 0):
                return True
        return any(_near_segment(pts[p], pts[a], pts[b]) for p in names if p not in (a, b))

    for _, a, b in pairs:
        if not crosses(a, b):
            edges.append((a, b))
    adj: dict[str, set[str]] = {p: set() for p in names}
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    def on_hull(a: str, b: str) -> bool:
        sides = {_cross(pts[a], pts[b], pts[p]) > 0 for p in names if p not in (a, b)}
        return len(sides) == 1

    for a, b in rng.sample(edges, len(edges) // 4):
        if len(adj[a]) > 3 and len(adj[b]) > 3 and (hollow or not on_hull(a, b)):
            adj[a].discard(b)
            adj[b].discard(a)
    return pts, adj, size


@pytest.mark.parametrize("seed", range(10))
def test_random_planar_maps_get_shapes_that_tile_and_border_exactly_the_neighbours(seed: int) -> None:
    pts, adj, size = _random_planar(seed)
    try:
        shapes = province_shapes(pts, adj, size)
    except ShapeError as exc:  # a face left without a point that sees it whole: said, not drawn wrong
        assert "has no point that sees all its provinces" in str(exc), str(exc)
        return
    neighbours = {frozenset((a, b)) for a in adj for b in adj[a]}
    assert not _problems(shapes, pts, neighbours, size)


def test_a_hollow_outside_gets_shapes_or_an_error_never_wrong_shapes() -> None:
    """Segments on the outside dropped too: where a border cannot run straight out to the frame,
    the map is refused with the reason; every set of shapes that is made is right."""
    made = refused = 0
    for seed in range(10):
        pts, adj, size = _random_planar(seed, hollow=True)
        try:
            shapes = province_shapes(pts, adj, size)
        except ShapeError as exc:
            refused += 1
            assert re.search("has no point that sees|runs out to the frame across|cross on their way|too hollow|"
                             "outside on both sides", str(exc)), str(exc)
            continue
        made += 1
        assert not _problems(shapes, pts, {frozenset((a, b)) for a in adj for b in adj[a]}, size), seed
    assert made and refused


# -- errors ----------------------------------------------------------------------------------------

SQUARE = {"name": "square", "powers": {"Red": {"home": ["a"], "start": ["A a"]}},
          "provinces": {"a": {"name": "Aland", "terrain": "coast", "army": ["b"], "fleet": ["s"]},
                        "b": {"name": "Bland", "terrain": "land", "army": ["a", "c"]},
                        "c": {"name": "Cland", "terrain": "coast", "army": ["b"], "fleet": ["s"]},
                        "s": {"name": "Sea", "terrain": "sea", "fleet": ["a", "c"]}}}


def _square(at: dict[str, list[float]], shapes: Any = True) -> GameMap:
    return build_map({**SQUARE, "layout": {"size": [100, 100], "shapes": shapes, "at": at}}, "square.toml")


def test_a_small_map_carries_shapes() -> None:
    m = _square({"a": [20, 20], "b": [80, 20], "c": [80, 80], "s": [20, 80]})
    assert m.shapes is not None
    pts = {p: m.layout.at[p] for p in m.provinces} if m.layout else {}
    assert not _problems(m.shapes, pts, _neighbours(m), (100.0, 100.0))


@pytest.mark.parametrize("at,shapes,message", [
    ({"a": [20, 20], "b": [80, 80], "c": [80, 20], "s": [20, 80]}, True,
     "square.toml: [layout] shapes: the points are not a planar drawing of the map: the segments a-b and c-s cross"),
    ({"a": [20, 20], "b": [50, 50], "c": [80, 80], "s": [50, 50.2]}, True, "passes through the point of"),
    ({"a": [20, 20], "b": [80, 20], "c": [80, 80], "s": [20, 80]}, "yes", "[layout] shapes: 'yes' must be true or false"),
])
def test_points_that_cannot_carry_shapes_are_an_error_naming_the_problem(at: dict[str, list[float]], shapes: Any,
                                                                         message: str) -> None:
    with pytest.raises(MapError, match=re.escape(message)):
        m = _square(at, shapes)
        _ = m.shapes


def test_a_coast_drawn_outside_its_province_is_an_error() -> None:
    data = load_map("standard")
    assert data.layout is not None
    import tomllib

    from dipsat.maps import MAP_DIR

    raw = tomllib.loads((MAP_DIR / "standard.toml").read_text(encoding="utf-8"))
    raw["layout"]["at"]["spa/nc"] = list(data.layout.at["gas"])
    with pytest.raises(MapError, match=re.escape("[layout.at] spa/nc: the point of coast 'spa/nc' lies outside the shape of 'spa'")):
        _ = build_map(raw, "standard.toml").shapes


# -- the picture --------------------------------------------------------------------------------------


def test_the_standard_picture_draws_the_shapes_and_other_boards_keep_their_schematic() -> None:
    from dipsat.face.render import render_svg
    from dipsat.game.api import adjudicate

    res = adjudicate({"year": 1901, "season": "spring", "units": {"France": ["A Paris"]}, "orders": {"France": ["A Par - Bur"]}})
    svg = render_svg(res)
    assert svg == render_svg(res)  # deterministic
    root = ET.fromstring(svg)
    shapes = [p for p in root.iter(SVG + "path") if "shape" in (p.get("class") or "").split()]
    assert len(shapes) == 76
    kinds = [(p.get("class") or "").split()[1] for p in shapes]
    assert kinds.count("sea") == 19 and kinds.count("impassable") == 1 and kinds.count("inland") == 14
    assert not [ln for ln in root.iter(SVG + "line") if "adj" in (ln.get("class") or "")]  # no schematic edges
    owned = [p for p in root.iter(SVG + "path") if "owned" in (p.get("class") or "").split()]
    assert len(owned) == 22  # the home centres, tinted at the start of the game
    from dipsat.face.render import render_svg as draw
    from dipsat.game.registry import find_variant

    multinational = find_variant("multinational")
    other = draw(multinational.start_position(multinational))
    assert 'class="shape' not in other and 'class="adj' in other


def test_supply_centre_dots_and_coasts_are_drawn_inside_their_provinces() -> None:
    from dipsat.face.render import render_svg
    from dipsat.game.registry import find_variant

    m = load_map("standard")
    assert m.shapes is not None
    standard = find_variant("standard")
    root = ET.fromstring(render_svg(standard.start_position(standard)))
    by_name = {p.name: pid for pid, p in m.provinces.items()}
    dots = [c for c in root.iter(SVG + "circle") if "sc" in (c.get("class") or "").split() and c.find(SVG + "title") is not None]
    assert len(dots) == 34
    for c in dots:
        pid = by_name[(c.find(SVG + "title").text or "").split(":")[0]]  # type: ignore[union-attr]
        x, y, r = float(c.get("cx", 0)), float(c.get("cy", 0)), float(c.get("r", 0))
        for dx, dy in ((r, 0), (-r, 0), (0, r), (0, -r)):
            assert _strictly_inside((x + dx, y + dy), m.shapes[pid]), f"the centre dot of {pid} leaves its province"
    for g in root.iter(SVG + "g"):
        if "coast" in (g.get("class") or "").split():
            c = g.find(SVG + "circle")
            assert c is not None
            cid = g.get("data-id") or ""
            assert _strictly_inside((float(c.get("cx", 0)), float(c.get("cy", 0))), m.shapes[cid.split("/")[0]]), cid


def test_most_labels_lie_inside_their_own_province() -> None:
    """Labels avoid every collision first (tests/test_pictures.py), then prefer their own province:
    59 of the 76 lie wholly inside it (measured when written); the small ones (Holland, Helgoland,
    Switzerland, ...) cannot hold a label beside a unit.  The first drawing, without the preference: 44."""
    from dipsat.face.render.geometry import text_box
    from dipsat.face.render.svg import LABEL_SIZE, label_places

    m = load_map("standard")
    assert m.shapes is not None and m.layout is not None
    places = label_places(m, m.layout)
    inside_own = 0
    for pid, (x, y, anchor) in places.items():
        b = text_box(m.display(pid), x, y, LABEL_SIZE, anchor)
        inside_own += all(_strictly_inside(c, m.shapes[pid]) for c in ((b[0], b[1]), (b[2], b[1]), (b[2], b[3]), (b[0], b[3])))
    assert inside_own >= 55, inside_own
