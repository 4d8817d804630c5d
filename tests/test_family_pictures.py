"""The other families' boards (issue 28: "continents' automatic layout overlaps labels"): on
every picture of the bundled continents game (each phase) and of the continents corpus, no
country's name, capacity line or holder-after line meets another's.  The automatic layout
spreads the nodes by the box a token and its texts take (geometry.fit_and_spread's footprint).
An order's count, written at its arrow's bend, is not checked: an arrow crosses what lies
between its ends."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import ROOT
from dipsat.face.render.geometry import overlap, text_box
from dipsat.game.api import read_data_file
from dipsat.variants.continents.picture import render_file

SVG = "{http://www.w3.org/2000/svg}"
SIZES = {"lbl": 11.0, "cap": 9.0, "after": 9.0}  # the classes' font sizes (picture.py's style)


def _meeting_texts(svg: str) -> list[str]:
    boxes = []
    for t in ET.fromstring(svg).iter(SVG + "text"):
        kind = t.get("class", "")
        if kind in SIZES:
            words = "".join(t.itertext())
            boxes.append((f"{kind} {words!r}", text_box(words, float(t.get("x", 0)), float(t.get("y", 0)), SIZES[kind],
                                                        t.get("text-anchor", "middle"))))
    return [f"{a} meets {b}" for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1:] if overlap(ba, bb) > 0]


def _game_phases() -> list[str]:
    from dipsat.variants.continents.game import load_game, replay

    path = ROOT / "examples" / "continents_game.toml"
    return [r.name for r in replay(load_game(read_data_file(path), str(path)), str(path)).history]


def test_the_game_example_has_rounds_to_draw() -> None:
    assert len(_game_phases()) >= 4


@pytest.mark.parametrize("phase", _game_phases())
def test_no_texts_meet_on_the_continents_game(phase: str) -> None:
    path = ROOT / "examples" / "continents_game.toml"
    svg = render_file(read_data_file(path), str(path), phase=phase)
    assert svg.count('class="lbl"') >= 20
    assert not _meeting_texts(svg)


def test_no_texts_meet_on_the_continents_corpus() -> None:
    cases = sorted((ROOT / "tests" / "corpora" / "continents").glob("*.toml"))
    problems = []
    for path in cases:
        svg = render_file(read_data_file(path), str(path))
        problems += [f"{Path(path).name}: {p}" for p in _meeting_texts(svg)]
    assert len(cases) >= 20
    assert not problems, "\n".join(problems[:20])


def test_the_check_finds_texts_that_meet() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg"><text class="lbl" x="10" y="10">Abc</text>'
           '<text class="cap" x="12" y="12">cap 4</text></svg>')
    assert _meeting_texts(svg)


def test_no_zone_name_meets_another_or_a_zone_on_the_supremacy_board(tmp_path) -> None:
    """Supremacy's board (its own automatic layout, spread by geometry.fit_and_spread's footprint):
    no zone's name meets another's or any zone's token (before: 'Indian Ocean' on 'West Pacific
    Ocean', 'Northern Russia' on 'Western Europe', and eight names over zones)."""
    from dipsat.face.cli import main
    from dipsat.face.render.geometry import circle_box

    out = tmp_path / "board.svg"
    assert main(["render", str(ROOT / "examples" / "supremacy_game.toml"), "-o", str(out), "--time-limit", "300"]) == 0
    root = ET.parse(out).getroot()
    names = [("".join(t.itertext()), text_box("".join(t.itertext()), float(t.get("x", 0)), float(t.get("y", 0)), 11.0, "middle"))
             for t in root.iter(SVG + "text") if t.get("class") == "lbl"]
    zones = [circle_box(float(c.get("cx", 0)), float(c.get("cy", 0)), float(c.get("r", 0)))
             for c in root.iter(SVG + "circle") if float(c.get("r", 0)) >= 12]
    zones += [(float(r.get("x", 0)), float(r.get("y", 0)), float(r.get("x", 0)) + float(r.get("width", 0)),
               float(r.get("y", 0)) + float(r.get("height", 0)))
              for r in root.iter(SVG + "rect") if r.get("width", "").replace(".", "").isdigit() and 20 <= float(r.get("width", 0)) <= 40]
    assert len(names) >= 30 and len(zones) >= 30
    meets = [f"{a} meets {b}" for i, (a, ba) in enumerate(names) for b, bb in names[i + 1:] if overlap(ba, bb) > 0]
    meets += [f"{a} lies on a zone" for a, ba in names for zb in zones if overlap(ba, zb) > 0]
    assert not meets, meets
