"""SVG pictures: every bundled example and every corpus case renders to a valid SVG that shows
each unit and each order, arrows point from the unit to where the order goes, and any map
(even one without a layout) can be drawn."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Optional

import pytest

from dipsat.game.api import TurnRequest, adjudicate
from dipsat.io.corpus import case_files, load_case, play_case
from dipsat.game.game import SavedGame, replay
from dipsat.game.api import load_model, read_data_file
from dipsat.maps import MapError, build_map, load_map
from dipsat.models import ARMY, Move, Position, Unit
from dipsat.face.render import Scene, render_scene, render_svg
from dipsat.variants import find_variant, variant_names


def own_svg(data, where, phase=None):
    """The picture a game of another family draws of a file (None for a Diplomacy board, whose
    pictures are of adjudicated results): through the game protocol."""
    from dipsat.game.board_game import BoardGame
    from dipsat.limits import DEFAULT_LIMITS
    from dipsat.game.families import find_game, variant_of

    game = find_game(variant_of(data))
    if isinstance(game, BoardGame):
        return None
    return game.draw(game.read(data, where, DEFAULT_LIMITS), None, phase=phase)

from conftest import CORPORA, ROOT

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))
CASES = case_files([CORPORA])


def _classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def check_svg(svg: str, result: Any) -> ET.Element:
    """Well-formed, the expected layers, one token per unit, one titled group per order."""
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    groups = {g.get("class") for g in root.iter(SVG + "g")}
    # a schematic of nodes and edges, or (a map that carries them) province shapes and their labels
    assert {"orders", "units"} <= groups and ({"adjacency", "provinces"} <= groups or {"shapes", "labels"} <= groups)
    pos: Position = result if isinstance(result, Position) else result.position
    tokens = [g for g in root.iter(SVG + "g") if "unit-token" in _classes(g)]
    assert len([t for t in tokens if "built" not in _classes(t)]) == len(pos.units)
    variant = find_variant(pos.variant)
    assert len([g for g in root.iter(SVG + "g") if g.get("class") == "province"]) == len(variant.map.provinces)
    order_groups = [g for g in root.iter(SVG + "g") if "o" in _classes(g)]
    for g in order_groups:
        title = g.find(SVG + "title")
        assert title is not None and title.text, "every drawn order has a hover title"
    for o in getattr(result, "orders", ()):
        assert any(o.text in (g.find(SVG + "title").text or "") for g in order_groups), f"order {o.text!r} is not drawn"
    return root


def check_own_svg(svg: str, units: Optional[dict[str, list[str]]], orders: list[str], capacities: bool = True) -> ET.Element:
    """A board the variant draws itself: well-formed, the layers, one node per map node, one
    token per holding given, every order drawn in a group with a hover title naming it."""
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    groups = {g.get("class") for g in root.iter(SVG + "g")}
    assert {"adjacency", "provinces", "orders", "units"} <= groups
    provinces = [g for g in root.iter(SVG + "g") if g.get("class") == "province"]
    assert provinces and all(g.find(SVG + "title").text for g in provinces)
    if capacities:
        assert all((g.find(SVG + "title").text or "").count("capacity") == 1 for g in provinces)
    if units is not None:
        tokens = [g for g in root.iter(SVG + "g") if "unit-token" in _classes(g)]
        assert len(tokens) == sum(len(v) for v in units.values())
    titles = [g.find(SVG + "title").text or "" for g in root.iter(SVG + "g") if "o" in _classes(g)]
    assert all(titles), "every drawn order has a hover title"
    for o in orders:
        assert any(f": {o} — " in t for t in titles), f"order {o!r} is not drawn"
    return root


def _request(case: Any) -> TurnRequest:
    exp = case.expect[0]
    return TurnRequest(variant=case.variant, rules=exp.rules[0], options=dict(exp.options), phase=case.phase,
                       units=case.units, orders=case.orders, owners=case.owners, retreat_orders=case.retreat_orders)


def test_every_corpus_case_renders() -> None:
    """One test over all cases (each adjudicated once), so the suite stays fast."""
    drawn = own_drawn = 0
    for f in CASES:
        case = load_case(f)
        if case.variant not in variant_names():
            continue
        svg = own_svg(read_data_file(f), str(f))
        if svg is not None:  # a game of another family: its own picture
            try:
                if case.data:  # a case of the variant's own data (a state, actions): no units on a map
                    check_own_svg(svg, None, [], capacities=False)
                else:
                    check_own_svg(svg, case.units, [o for os in case.orders.values() for o in os])
            except AssertionError as exc:
                raise AssertionError(f"{f}: {exc}") from None
            own_drawn += 1
            continue
        if case.phase == "game":  # several phases: each phase of the game its steps play is drawn
            exp = case.expect[0]
            results = [rec.result for rec in play_case(case, exp.rules[0], exp.options).game.history]
        else:
            results = [adjudicate(_request(case))]
        for res in results:
            try:
                check_svg(render_svg(res), res)
            except AssertionError as exc:
                raise AssertionError(f"{f}: {exc}") from None
        drawn += 1
    assert drawn >= 200
    assert own_drawn >= len([f for f in CASES if {"continents", "supremacy"} & set(f.relative_to(CORPORA).parts)])


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_renders(path: Path) -> None:
    from dipsat.game.api import load_request, read_data_file

    data = read_data_file(path)
    own = own_svg(data, str(path))
    if own is not None and "turns" in data:  # Supremacy's game: after set-up and after each turn
        for label in ["setup"] + [f"turn {i}" for i in range(1, len(data["turns"]) + 1)]:
            svg = own_svg(data, str(path), phase=label)
            assert svg is not None
            check_own_svg(svg, None, [], capacities=False)
        assert own == svg, "the last turn is drawn by default"
        return
    if own is not None:  # a variant that draws its own board: every phase of its game
        phases = [str(p.get("phase", "")) for p in data.get("phases", [])]
        for i, name in enumerate(phases):
            label = name if name in ("draw", "placement") else f"round {i - 1}"
            svg = own_svg(data, str(path), phase=label)
            assert svg is not None
            check_own_svg(svg, None, [o for os in data["phases"][i].get("orders", {}).values() for o in os])
        assert own == svg, "the last phase is drawn by default"
        return
    if "phases" in data:  # a saved game: every phase
        game = replay(load_model(path, SavedGame, data))
        assert game.history
        for rec in game.history:
            check_svg(render_svg(rec.result if rec.result is not None else rec.after), rec.result or rec.after)
    else:
        res = adjudicate(load_request(path))
        check_svg(render_svg(res), res)


def _path_points(d: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", d)]


def test_move_arrows_point_from_the_unit_to_the_destination() -> None:
    res = adjudicate({"units": {"France": ["A Paris", "F Brest"], "Germany": ["A Munich"]},
                      "orders": {"France": ["A Paris - Burgundy", "F Brest - English Channel"],
                                 "Germany": ["A Munich - Burgundy"]}})
    root = ET.fromstring(render_svg(res))
    layout = load_map("standard").drawing()
    moves = {g.find(SVG + "title").text.split(" — ")[0]: g for g in root.iter(SVG + "g")
             if {"o", "move"} <= _classes(g)}
    assert set(moves) == {"France: A Paris - Burgundy", "France: F Brest - English Channel", "Germany: A Munich - Burgundy"}
    for text, frm, to in [("France: A Paris - Burgundy", "par", "bur"), ("France: F Brest - English Channel", "bre", "eng"),
                          ("Germany: A Munich - Burgundy", "mun", "bur")]:
        pts = _path_points(moves[text].find(SVG + "path").get("d"))
        start, end = pts[0], pts[-1]
        assert math.dist(start, layout.point(frm)) < math.dist(start, layout.point(to))
        assert math.dist(end, layout.point(to)) < 20
    # the standoff: both moves into Burgundy failed, drawn in the failure colour; Brest moved
    assert "fail" in _classes(moves["France: A Paris - Burgundy"])
    assert "ok" in _classes(moves["France: F Brest - English Channel"])
    assert "bounced" in moves["Germany: A Munich - Burgundy"].find(SVG + "title").text


def test_supports_convoys_holds_and_dislodged_units_are_drawn() -> None:
    res = adjudicate({"units": {"England": ["F North Sea", "A Yorkshire", "F London"], "France": ["F English Channel"]},
                      "orders": {"England": ["F North Sea Convoys A Yorkshire - Belgium", "A Yorkshire - Belgium",
                                             "F London Supports F North Sea"],
                                 "France": ["F English Channel - North Sea"]}})
    root = check_svg(render_svg(res), res)
    kinds = sorted(c for g in root.iter(SVG + "g") if "o" in _classes(g) for c in _classes(g) if c in
                   ("move", "support", "convoy", "hold"))
    assert kinds == ["convoy", "move", "move", "support"]
    map_part = next(s for s in root.iter(SVG + "svg") if s.get("class") == "map")  # not the legend's sample
    convoyed = [p for p in map_part.iter(SVG + "path") if "convoyed" in _classes(p)]
    assert len(convoyed) == 1  # Yorkshire-Belgium, though its text does not say 'via convoy'


def test_dislodged_unit_is_marked_with_the_culprit() -> None:
    res = adjudicate({"units": {"France": ["A Paris", "A Marseilles"], "Germany": ["A Burgundy"]},
                      "orders": {"France": ["A Paris - Burgundy", "A Marseilles Supports A Paris - Burgundy"]}})
    root = ET.fromstring(render_svg(res))
    dislodged = [g for g in root.iter(SVG + "g") if "dislodged" in _classes(g)]
    assert len(dislodged) == 1
    assert dislodged[0].find(SVG + "title").text == "Germany: A Bur is dislodged by France: A Par"


def test_retreat_phase_shows_options_and_retreats() -> None:
    res = adjudicate(TurnRequest.model_validate(
        {"phase": "retreat", "units": {"France": ["A Paris", "A Marseilles"], "Germany": ["A Burgundy"]},
         "orders": {"France": ["A Paris - Burgundy", "A Marseilles Supports A Paris - Burgundy"]},
         "retreat_orders": {"Germany": ["A Burgundy - Ruhr"]}}))
    root = check_svg(render_svg(res), res)
    options = [g for g in root.iter(SVG + "g") if "retreat-options" in _classes(g)]
    assert len(options) == 1 and "Ruhr" in options[0].find(SVG + "title").text or "Ruh" in options[0].find(SVG + "title").text
    retreats = [g for g in root.iter(SVG + "g") if {"o", "retreat"} <= _classes(g)]
    assert len(retreats) == 1 and "ok" in _classes(retreats[0])


def test_variant_pictures_show_stack_counts_and_power_kinds() -> None:
    res = adjudicate({"variant": "multiplomacy", "units": {"England": ["3 F Nth", "F Lon"]},
                      "orders": {"England": ["3 F Nth sup F Lon", "F Lon stands"]}})
    labels = [t.text for t in ET.fromstring(render_svg(res)).iter(SVG + "text") if "ulbl" in _classes(t)]
    assert sorted(labels) == ["3F", "F"]
    res = adjudicate({"variant": "multinational", "units": {"EX": ["M Ida", "E Mon"]},
                      "orders": {"EX": ["M Ida – Ore", "E Mon S M Ida – Ore"]}})
    root = ET.fromstring(render_svg(res))
    labels = [t.text for t in root.iter(SVG + "text") if "ulbl" in _classes(t)]
    assert sorted(labels) == ["E", "M"]
    legend = [t.text for t in root.iter(SVG + "text") if "legend" in _classes(t)]
    assert "M Military" in legend  # the variant's render hook adds its power kinds to the legend


def test_flyover_route_is_drawn_through_its_provinces() -> None:
    res = adjudicate(_request(load_case(CORPORA / "multinational/mn_rule_flyover_allowance.toml")))
    move = next(o for o in res.orders if isinstance(o.body, Move) and getattr(o.body, "route", ()))
    root = ET.fromstring(render_svg(res))
    path = next(g for g in root.iter(SVG + "g") if {"o", "move"} <= _classes(g)).find(SVG + "path")
    assert len(_path_points(path.get("d"))) == len(getattr(move.body, "route")) + 2


def test_positions_and_results_show_in_notebooks() -> None:
    standard = find_variant("standard")
    pos = standard.start_position(standard)
    assert pos._repr_svg_().startswith("<svg")
    res = adjudicate({"units": {"France": ["A Paris"]}, "orders": {"France": ["A Paris - Burgundy"]}})
    assert res._repr_svg_() == render_svg(res)
    html = res._repr_html_()
    assert "<svg" in html and "A Paris - Burgundy" in html and "moved" in html


def test_rendering_is_deterministic() -> None:
    req = {"units": {"France": ["A Paris", "A Marseilles"], "Germany": ["A Munich"]},
           "orders": {"France": ["A Paris - Burgundy", "A Marseilles Supports A Paris - Burgundy"], "Germany": ["A Munich - Burgundy"]}}
    assert render_svg(adjudicate(req)) == render_svg(adjudicate(req))


# -- maps without a layout, and layout errors ---------------------------------------------------

TINY = {"name": "tiny", "powers": {"Red": {"home": ["a"], "start": ["A a"]}, "Blue": {"home": ["c"], "start": ["F s"]}},
        "provinces": {"a": {"name": "Aland", "terrain": "coast", "army": ["b"], "fleet": ["s"]},
                      "b": {"name": "Bland", "terrain": "land", "army": ["a", "c"], "supply_centre": True},
                      "c": {"name": "Cland", "terrain": "coast", "army": ["b"], "fleet": ["s"], "supply_centre": True},
                      "s": {"name": "Sea", "terrain": "sea", "fleet": ["a", "c"]}}}


def test_a_map_without_layout_gets_an_automatic_one() -> None:
    m = build_map(TINY)
    assert m.layout is None
    layout = m.drawing()
    assert layout.automatic and set(layout.at) == {"a", "b", "c", "s"}
    assert layout == m.drawing()  # deterministic
    pos = Position(units=(Unit(power="Red", kind=ARMY, location="a"),))
    svg = render_scene(Scene(m, pos, "tiny"))
    root = ET.fromstring(svg)
    assert "automatic layout" in svg
    assert len([g for g in root.iter(SVG + "g") if "unit-token" in _classes(g)]) == 1


@pytest.mark.parametrize("layout,message", [
    ({"size": [100, 100], "at": {"a": [1, 1], "b": [2, 2], "c": [3, 3]}}, "no point for province(s) s"),
    ({"size": [100, 100], "at": {"a": [1, 1], "b": [2, 2], "c": [3, 3], "s": [4, 4], "zz": [5, 5]}}, "'zz' is not a province"),
    ({"size": [100, 100], "at": {"a": [1, 1], "b": [2, 2], "c": [3, 3], "s": [400, 4]}}, "lies outside the drawing"),
    ({"size": [100, 100], "at": {"a": "x", "b": [2, 2], "c": [3, 3], "s": [4, 4]}}, "'x' must be two numbers"),
    ({"size": [100, 100], "at": {"a": [1, 1], "b": [2, 2], "c": [3, 3], "s": [4, 4]}, "colours": {"Red": "red"}},
     "must be a colour written #rrggbb"),
])
def test_layout_errors_name_the_entry(layout: dict[str, Any], message: str) -> None:
    with pytest.raises(MapError, match=re.escape(message)):
        build_map({**TINY, "layout": layout})


def test_bundled_maps_have_layouts_with_every_province() -> None:
    for name in ("standard", "multiplomacy", "multinational"):
        m = load_map(name)
        assert m.layout is not None and not m.layout.automatic
        assert set(m.provinces) <= set(m.layout.at)


def test_cli_render_writes_svg_and_explains_missing_png_converter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from dipsat.face.cli import main
    from dipsat.face.render import png

    out = tmp_path / "pandin.svg"
    assert main(["render", str(ROOT / "examples/pandin.toml"), "-o", str(out)]) == 0
    ET.fromstring(out.read_text())
    monkeypatch.setattr(png, "png_converters", lambda: [])
    assert main(["render", str(ROOT / "examples/pandin.toml"), "-o", str(out), "--png"]) == 2
    assert "--png needs a converter" in capsys.readouterr().err
    assert main(["render", str(ROOT / "examples/game.toml"), "--phase", "X1999M"]) == 2
    assert "no phase 'X1999M'" in capsys.readouterr().err


# -- a variant that draws its own board (the continents game) ------------------------------------

def test_continents_picture_shows_capacities_counts_and_outcomes(tmp_path: Path) -> None:
    from dipsat.face.cli import main

    case = CORPORA / "continents/rule_05_crowding_partial.toml"
    out = tmp_path / "c.svg"
    assert main(["render", str(case), "-o", str(out)]) == 0
    svg = out.read_text()
    root = ET.fromstring(svg)
    nodes = {g.get("data-node"): g.find(SVG + "title").text for g in root.iter(SVG + "g") if g.get("class") == "province"}
    assert "capacity 4" in nodes["tar"] and "3 units of A" in nodes["tar"] and "after: 4 of A" in nodes["tar"]
    assert any("free city" in t for t in nodes.values())
    labels = sorted(t.text or "" for t in root.iter(SVG + "text") if "ulbl" in _classes(t))
    assert labels == ["3", "3"]  # unit counts, one token per holding
    order = next(g for g in root.iter(SVG + "g") if {"o", "move"} <= _classes(g))
    assert "ok" in _classes(order) and "— partial: " in order.find(SVG + "title").text and "room for 1" in order.find(SVG + "title").text
    assert svg == own_svg(read_data_file(case), str(case)) + "\n"  # deterministic


def test_continents_failed_order_is_drawn_in_the_failure_colour() -> None:
    data = {"variant": "continents", "units": {"A": ["3 Yug"], "B": ["4 Tar"]}, "orders": {"A": ["A 3 Yug-Tar"]}}
    root = ET.fromstring(own_svg(data, "<test>") or "")
    order = next(g for g in root.iter(SVG + "g") if {"o", "move"} <= _classes(g))
    assert "fail" in _classes(order) and order.find(SVG + "title").text.startswith("A: A 3 Yug-Tar — lost")
    tokens = {g.get("data-player"): g.find(SVG + "circle").get("fill") for g in root.iter(SVG + "g") if "unit-token" in _classes(g)}
    assert tokens["A"] != tokens["B"]  # players coloured apart


def test_supremacy_picture_shows_forces_ports_and_the_assault() -> None:
    case = CORPORA / "supremacy/assault_basic.toml"
    root = ET.fromstring(own_svg(read_data_file(case), str(case)) or "")
    tokens = sorted((g.get("data-power"), g.find(SVG + "title").text) for g in root.iter(SVG + "g") if "unit-token" in _classes(g))
    assert tokens == [("CSA", "CSA: 1A in Mexico (A army, N navy, +n armies aboard)"),
                      ("USA", "USA: 3A in American West (A army, N navy, +n armies aboard)")]
    assert any("port" in _classes(line) for line in root.iter(SVG + "line"))
    arrow = next(g for g in root.iter(SVG + "g") if {"o", "move"} <= _classes(g))
    assert arrow.find(SVG + "title").text == "USA: assault on mexico with 3 army us_west"


def test_pictures_do_not_depend_on_the_hash_seed(tmp_path):
    """Layouts drawn from sets (e.g. a networkx subgraph view) change with PYTHONHASHSEED; the
    same file must give the same picture in every process."""
    import os
    import subprocess
    import sys

    from conftest import ROOT

    for example in ("examples/continents_game.toml", "examples/supremacy_game.toml", "examples/spring1901.toml"):
        outs = []
        for seed in ("1", "2"):
            out = tmp_path / f"{Path(example).stem}-{seed}.svg"
            # the time limit is not what this tests: a loaded machine must not make it fail
            done = subprocess.run([sys.executable, "-m", "dipsat.face.cli", "render", example, "-o", str(out),
                                   "--time-limit", "600"], cwd=ROOT, capture_output=True, text=True,
                                  env={**os.environ, "PYTHONHASHSEED": seed})
            assert done.returncode == 0, (example, seed, done.stderr)
            outs.append(out.read_bytes())
        assert outs[0] == outs[1], example
