"""The continental map format: the bundled demo map and the loader's validation."""

import pytest

from dipsat.maps import MapError
from dipsat.maps.continental import build_continental_map, load_continental_map


def test_demo_map_facts():
    m = load_continental_map("continents_demo")
    assert len(m.continents) >= 4
    assert len(m.countries()) >= 30
    assert m.free_cities() == ["kar", "myr", "ost", "vel"]
    assert sum(1 for a, b in m.graph.edges if m.edge_kind(a, b) == "sea") >= 5
    for name in ("Yug", "Tar", "Dis", "Pie", "Ciu"):
        assert m.lookup(name) == name.lower()
    assert m.lookup("Distonia") == "dis"
    assert m.adjacent("yug", "tar") and m.adjacent("dis", "pie") and m.adjacent("ciu", "pie")
    assert m.edge_kind("pie", "amb") == "sea"
    # capacity = number of border connections, land and sea; free cities hold 6
    assert m.nodes["pie"].capacity == 5 == len(m.neighbours("pie"))
    assert m.nodes["vel"].capacity == 6 and m.nodes["vel"].free_city
    assert "vel" not in m.continents["ast"].countries and "vel" in m.continents["ast"].free_cities


def _raw(**over):
    raw = {"format": "continents", "name": "tiny",
           "continents": {"a": {"name": "A"}},
           "countries": {"x": {"name": "X", "continent": "a"}, "y": {"name": "Y", "continent": "a"}},
           "free_cities": {}, "borders": {"land": ["x-y"], "sea": []}}
    raw.update(over)
    return raw


@pytest.mark.parametrize("over,message", [
    ({"borders": {"land": ["x-y", "x-zz"]}}, r"tiny.toml: borders.land\[1\] 'x-zz': unknown country or free city 'zz'"),
    ({"borders": {"land": ["x-Y"]}}, r"borders.land\[0\] 'x-Y': ids are lower case: write 'y', not 'Y'"),
    ({"countries": {"x": {"name": "X", "continent": "A"}, "y": {"name": "Y", "continent": "a"}}},
     r"countries.x: continent ids are lower case: write 'a', not 'A'"),
    ({"countries": {"X": {"name": "X", "continent": "a"}, "y": {"name": "Y", "continent": "a"}}, "borders": {"land": ["X-y"]}},
     r"ids are lower case"),
    ({"borders": {"land": ["x-y", "y-x"]}}, r"borders.land\[1\] 'y-x': y-x is listed twice"),
    ({"borders": {"land": ["x-y"], "sea": ["x-y"]}}, r"borders.sea\[0\] 'x-y': x-y is both a land border and a sea route"),
    ({"borders": {"land": ["x-x", "x-y"]}}, r"'x-x': a country cannot border itself"),
    ({"borders": {"land": ["x+y"]}}, r"expected \"a-b\""),
    ({"countries": {"x": {"name": "X", "continent": "a"}, "y": {"name": "Y", "continent": "zz"}}}, r"countries.y: unknown continent 'zz'"),
    ({"countries": {"x": {"name": "X", "continent": "a"}, "y": {"name": "Y", "continent": "a"}, "w": {"name": "W", "continent": "a"}}}, r"countries.w: W has no land border or sea route"),
    ({"countries": {"x": {"name": "X", "continent": "a", "capacity": 0}, "y": {"name": "Y", "continent": "a"}}}, r"countries.x: capacity must be"),
    ({"countries": {"x": {"name": "X", "continent": "a", "colour": "red"}, "y": {"name": "Y", "continent": "a"}}}, r"countries.x: unknown key 'colour'"),
    ({"countries": {"x": {"name": "Same", "continent": "a"}, "y": {"name": "Same", "continent": "a"}}}, r"the name 'Same' of 'y' is already used by 'x'"),
    ({"format": "standard"}, r"format must be 'continents'"),
])
def test_bad_maps_are_named(over, message):
    with pytest.raises(MapError, match=message):
        build_continental_map(_raw(**over), "tiny.toml")


def test_capacity_override_and_missing_file(tmp_path):
    m = build_continental_map(_raw(countries={"x": {"name": "X", "continent": "a", "capacity": 3},
                                              "y": {"name": "Y", "continent": "a"}}), "tiny.toml")
    assert m.nodes["x"].capacity == 3 and m.nodes["y"].capacity == 1
    with pytest.raises(MapError, match="no such map file"):
        load_continental_map(tmp_path / "nope.toml")


def test_a_map_may_carry_its_drawing_layout():
    """[layout]: a position per country and free city, used by the picture (scaled), as the
    Diplomacy maps carry theirs; errors name the entry."""
    from dipsat.variants.continents.picture import layout

    cmap = build_continental_map(_raw(layout={"x": [0, 0], "y": [10, 0]}), "tiny.toml")
    assert cmap.layout == {"x": (0.0, 0.0), "y": (10.0, 0.0)}
    at = layout(cmap)
    assert at["x"][0] < at["y"][0]
    for bad, message in (({"x": [0, 0]}, r"layout: no position for y"),
                         ({"x": [0, 0], "Y": [1, 1]}, r"layout.Y: ids are lower case"),
                         ({"x": [0, 0], "y": "here"}, r"layout.y: expected \[x, y\]")):
        with pytest.raises(MapError, match=message):
            build_continental_map(_raw(layout=bad), "tiny.toml")
