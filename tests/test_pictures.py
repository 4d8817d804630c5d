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


def _centre_fills(svg: str) -> dict[str, str]:
    """Each supply centre dot's fill, by the province name its hover title starts with."""
    root = ET.fromstring(svg)
    return {(c.find(SVG + "title").text or "").split(":")[0]: c.get("fill", "") for c in root.iter(SVG + "circle")
            if "sc" in _classes(c) and c.find(SVG + "title") is not None}


def test_owners_are_coloured_at_the_start_of_a_game() -> None:
    """A turn of Spring 1901 without [owners], and a game's opening position: the home centres in
    their powers' colours, neutral centres white; a later year without owners: no colours guessed."""
    from dipsat.face.render.geometry import power_colours
    from dipsat.game.api import load_request
    from dipsat.variants import find_variant

    from conftest import ROOT

    standard = find_variant("standard")
    colours = power_colours(standard.map, standard.map.drawing().colours, [])
    res = adjudicate(load_request(ROOT / "examples/spring1901.toml"))
    assert not res.position.owners and res.position.year == 1901
    opening = standard.start_position(standard)
    assert not opening.owners
    for svg in (render_svg(res), render_svg(opening)):
        fills = _centre_fills(svg)
        assert fills["Paris"] == colours["France"] and fills["Moscow"] == colours["Russia"]
        assert fills["Belgium"] == "#ffffff" and fills["Norway"] == "#ffffff"
        assert len([f for f in fills.values() if f != "#ffffff"]) == 22  # the 22 home centres
    later = adjudicate({"year": 1905, "units": {"France": ["A Paris"]}, "orders": {"France": ["A Par H"]}})
    assert set(_centre_fills(render_svg(later)).values()) == {"#ffffff"}
    owned = adjudicate({"year": 1901, "units": {"France": ["A Paris"]}, "orders": {"France": ["A Par H"]},
                        "owners": {"Germany": ["Paris"]}})
    assert _centre_fills(render_svg(owned))["Paris"] == colours["Germany"]  # given owners win


# -- labels: no label meets another label, a dot or a unit, or the edge of the map -----------------


def _label_problems(svg: str, cropped: bool = False) -> list[str]:
    """Read back from the SVG: the box of every province label (its text measured by
    geometry.text_width), of every coast dot, supply-centre dot and unit token; name every label
    box that meets another box or (uncropped) leaves the map's drawing, and every text of the
    legend that meets another or runs off the picture."""
    from dipsat.face.render.geometry import circle_box, overlap, text_box

    root = ET.fromstring(svg)
    map_part = next(s for s in root.iter(SVG + "svg") if s.get("class") == "map")
    vx, vy, vw, vh = (float(v) for v in (map_part.get("viewBox") or "").split())
    labels = []
    for t in map_part.iter(SVG + "text"):
        if _classes(t) & {"lbl", "sealbl"}:
            box = text_box(t.text or "", float(t.get("x", 0)), float(t.get("y", 0)), 11.0, t.get("text-anchor", "middle"))
            labels.append((t.text or "", box))
    things = []
    for g in map_part.iter(SVG + "g"):
        if "coast" in _classes(g):
            c = g.find(SVG + "circle")
            things.append((f"coast dot {g.get('data-id')}", circle_box(float(c.get("cx")), float(c.get("cy")), float(c.get("r")))))
        if "unit-token" in _classes(g):
            for shape in g:  # the token, and a ring around it (a unit built)
                if shape.tag == SVG + "circle":
                    box = circle_box(float(shape.get("cx", 0)), float(shape.get("cy", 0)), float(shape.get("r", 0)))
                elif shape.tag == SVG + "polygon":
                    pts = _points(shape.get("points", ""))
                    box = (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))
                else:
                    continue
                things.append((f"unit {g.get('data-unit')}", box))
    for c in map_part.iter(SVG + "circle"):
        if "sc" in _classes(c):
            things.append(("centre dot", circle_box(float(c.get("cx")), float(c.get("cy")), float(c.get("r")))))
    problems = []
    for i, (text, box) in enumerate(labels):
        if not cropped and (box[0] < vx or box[1] < vy or box[2] > vx + vw or box[3] > vy + vh):
            problems.append(f"label {text!r} is clipped by the edge of the map")
        for other, obox in labels[i + 1:]:
            if overlap(box, obox) > 0:
                problems.append(f"labels {text!r} and {other!r} overlap")
        for what, obox in things:
            if overlap(box, obox) > 0:
                problems.append(f"label {text!r} meets {what}")
    width = float(root.get("width", 0))  # the legend's texts: apart, and inside the picture
    legend = [(t.text or "", text_box(t.text or "", float(t.get("x", 0)), float(t.get("y", 0)), 12.0,
                                      t.get("text-anchor", "start")))
              for g in root.iter(SVG + "g") if g.get("class") == "legend-box" for t in g.iter(SVG + "text")]
    for i, (text, box) in enumerate(legend):
        if box[2] > width:
            problems.append(f"legend {text!r} runs off the picture")
        problems += [f"legend {text!r} meets {other!r}" for other, obox in legend[i + 1:] if overlap(box, obox) > 0]
    return problems


def _example_pictures() -> list[tuple[str, str]]:
    """Every picture of a bundled example drawn on a Diplomacy board: each phase of a saved game,
    the result of a turn file."""
    from dipsat.game.api import load_model, load_request, read_data_file
    from dipsat.game.board_game import BoardGame
    from dipsat.game.families import find_game, variant_of
    from dipsat.game.game import SavedGame, replay

    from conftest import ROOT

    out = []
    for path in sorted((ROOT / "examples").glob("*.toml")):
        data = read_data_file(path)
        if not isinstance(find_game(variant_of(data)), BoardGame):
            continue  # a game of another family draws its own board
        if "phases" in data:
            for rec in replay(load_model(path, SavedGame, data)).history:
                drawn = rec.result if rec.result is not None else rec.after
                out.append((f"{path.name} {drawn.position.year if hasattr(drawn, 'position') else ''}", render_svg(drawn)))
        else:
            res = adjudicate(load_request(path))
            out += [(path.name, render_svg(res)), (path.name + " cropped", render_svg(res, crop=True))]
    return out


def test_no_label_is_clipped_or_collides_on_any_bundled_example() -> None:
    pictures = _example_pictures()
    assert len({name.split()[0] for name, _ in pictures}) >= 8
    problems = [f"{name}: {p}" for name, svg in pictures for p in _label_problems(svg, "cropped" in name)]
    assert not problems, "\n".join(problems)


def test_the_readme_picture_is_the_current_drawing_of_its_turn() -> None:
    """docs/images/fall1901.svg, shown in the README, is what `dipsat render examples/fall1901.toml`
    draws now (regenerate it with that command and -o docs/images/fall1901.svg), and the turn has
    what the README says it shows: a convoy, a head-to-head, a dislodgement."""
    from dipsat.game.api import load_request

    from conftest import ROOT

    assert "](docs/images/fall1901.svg)" in (ROOT / "README.md").read_text(encoding="utf-8")
    res = adjudicate(load_request(ROOT / "examples/fall1901.toml"))
    units = res.position.units
    assert [units[u].label() for u in res.convoyed] == ["England: A Yor"]
    assert not any("via" in o.text for o in res.orders)
    assert [units[u].label() for u in res.dislodged] == ["France: A Bur"]
    assert any(ob.why == "head_to_head" for o in res.outcomes for ob in getattr(o, "obstacles", ())) or any(
        "head-to-head" in o.reason for o in res.outcomes)
    drawn = (ROOT / "docs/images/fall1901.svg").read_text(encoding="utf-8")
    assert drawn.rstrip("\n") == render_svg(res), "docs/images/fall1901.svg is out of date: dipsat render examples/fall1901.toml -o docs/images/fall1901.svg"
    assert "order move convoyed" in drawn and "unit-token dislodged" in drawn
