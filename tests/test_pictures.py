"""Pictures a player reads at a glance (issue 28): convoys drawn from the result, head-to-head
arrows side by side."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

from dipsat.face.render import render_svg
from dipsat.face.render.geometry import H2H_OFFSET
from dipsat.game.api import adjudicate
from dipsat.maps import load_map

SVG = "{http://www.w3.org/2000/svg}"
Pt = tuple[float, float]


def _classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def _points(d: str) -> list[Pt]:
    return [(float(x), float(y)) for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", d)]


def _orders(svg: str) -> dict[str, ET.Element]:
    """Each drawn order's group, by the order text of its hover title ('France: A Par - Bur')."""
    root = ET.fromstring(svg)
    map_part = next(s for s in root.iter(SVG + "svg") if s.get("class") == "map")  # not the legend
    return {(g.find(SVG + "title").text or "").split(" — ")[0]: g for g in map_part.iter(SVG + "g") if "o" in _classes(g)}


def _near(p: Pt, q: Pt, within: float = 1.0) -> bool:
    return math.dist(p, q) <= within


CONVOYS = {"units": {"England": ["A London", "F North Sea"], "France": ["A Brest", "F English Channel", "A Paris"]},
           "orders": {"England": ["A Lon - Bel", "F Nth C A Lon - Bel"],
                      "France": ["A Bre - Pic", "F Eng C A Bre - Pic", "A Par - Bur"]}}


def test_a_convoyed_move_is_drawn_as_one_without_via_convoy_in_its_text() -> None:
    """London-Belgium needs the fleet; Brest-Picardy borders but its own fleet convoys it (DATC
    4.A.3, 2000 rules): the result records both as convoyed, neither text says 'via convoy'."""
    res = adjudicate(CONVOYS)
    units = res.position.units
    assert sorted(units[u].location for u in res.convoyed) == ["bre", "lon"]
    assert not any("via" in o.text for o in res.orders)
    layout = load_map("standard").drawing()
    drawn = _orders(render_svg(res))
    for move, fleet, frm, to in [("England: A Lon - Bel", "England: F Nth C A Lon - Bel", "lon", "bel"),
                                 ("France: A Bre - Pic", "France: F Eng C A Bre - Pic", "bre", "pic")]:
        path = drawn[move].find(SVG + "path")
        assert path is not None and "convoyed" in _classes(path), f"{move} is not drawn as a convoyed move"
        pts = _points(path.get("d", ""))
        # along its route: from the army, through the convoying fleet, to the destination
        assert len(pts) == 3 and _near(pts[1], layout.point(fleet.split()[2].lower()))
        assert math.dist(pts[0], layout.point(frm)) < 20 and math.dist(pts[-1], layout.point(to)) < 20
        ring = drawn[fleet].find(SVG + "circle")  # the convoy rings its fleet on the route
        assert ring is not None and "convoy" in _classes(ring)
    plain = drawn["France: A Par - Bur"].find(SVG + "path")
    assert plain is not None and "convoyed" not in _classes(plain)


def test_a_convoy_that_fails_is_still_drawn_as_a_convoyed_move() -> None:
    """The convoying fleet dislodged: no convoy path; the army tried to go by convoy."""
    req = {"units": {"England": ["A London", "F North Sea"], "Germany": ["F Skagerrak", "F Helgoland Bight"]},
           "orders": {"England": ["A Lon - Bel", "F Nth C A Lon - Bel"],
                      "Germany": ["F Ska - Nth", "F Hel S F Ska - Nth"]}}
    res = adjudicate(req)
    outcome = next(o for o in res.outcomes if o.text == "A Lon - Bel")
    assert outcome.kind == "no_path" and not res.convoyed
    path = _orders(render_svg(res))["England: A Lon - Bel"].find(SVG + "path")
    assert path is not None and "convoyed" in _classes(path) and "fail" in (path.get("marker-end") or "")


def _distance_to_line(p: Pt, a: Pt, b: Pt) -> float:
    return abs((b[0] - a[0]) * (a[1] - p[1]) - (a[0] - p[0]) * (b[1] - a[1])) / math.dist(a, b)


def test_head_to_head_arrows_are_drawn_side_by_side() -> None:
    res = adjudicate({"units": {"France": ["A Paris", "A Marseilles"], "Germany": ["A Burgundy", "A Munich"]},
                      "orders": {"France": ["A Par - Bur", "A Mar - Gas"], "Germany": ["A Bur - Par", "A Mun - Ruh"]}})
    drawn = _orders(render_svg(res))
    there = _points(drawn["France: A Par - Bur"].find(SVG + "path").get("d", ""))
    back = _points(drawn["Germany: A Bur - Par"].find(SVG + "path").get("d", ""))
    layout = load_map("standard").drawing()
    par, bur = layout.point("par"), layout.point("bur")
    # each arrow runs parallel to the line between the units, H2H_OFFSET to its own right
    for pts in (there, back):
        for p in pts:
            assert abs(_distance_to_line(p, par, bur) - H2H_OFFSET) < 0.15
    for p in back:
        assert abs(_distance_to_line(p, *there) - 2 * H2H_OFFSET) < 0.3  # apart, not on top of each other
    # a move with no move back is drawn on the line between its two provinces
    alone = _points(drawn["France: A Mar - Gas"].find(SVG + "path").get("d", ""))
    for p in alone:
        assert _distance_to_line(p, layout.point("mar"), layout.point("gas")) < 0.15
