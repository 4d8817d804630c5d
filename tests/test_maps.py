import pytest

from dipsat.maps import MapError, build_map, load_map


def test_standard_map_facts():
    m = load_map("standard")
    assert len(m.supply_centres()) == 34
    assert len([p for p in m.provinces.values() if p.is_sea]) == 19
    assert sorted(m.fleet_neighbours("spa/nc")) == ["gas", "mao", "por"]
    assert "smy" in m.army_neighbours("ank") and not m.can_reach_province("F", "ank", "smy")
    assert m.lookup_province("Mid-Atlantic Ocean") == "mao"
    assert m.lookup_province("St. Petersburg") == "stp"
    assert m.powers["Russia"].start[-1] == ("F", "stp/sc")
    assert not m.passable("swi")


def _tiny(**over):
    raw = {"name": "tiny", "powers": {"A": {"home": ["x"], "start": ["A x"]}},
           "provinces": {"x": {"name": "X", "terrain": "land", "army": ["y"]},
                         "y": {"name": "Y", "terrain": "land", "army": ["x"]}}}
    raw["provinces"].update(over)
    return raw


def test_asymmetric_adjacency_is_named():
    raw = _tiny(y={"name": "Y", "terrain": "land", "army": []})
    with pytest.raises(MapError, match=r"x->y is not symmetric"):
        build_map(raw, "tiny.toml")


def test_unknown_province_is_named():
    raw = _tiny(y={"name": "Y", "terrain": "land", "army": ["x", "zz"]})
    with pytest.raises(MapError, match=r"unknown province 'zz'"):
        build_map(raw, "tiny.toml")


def test_dangling_coast_is_named():
    raw = _tiny(s={"name": "S", "terrain": "sea", "fleet": ["q/nc"]})
    with pytest.raises(MapError, match=r"dangling coast 'q/nc'"):
        build_map(raw, "tiny.toml")


def test_bad_terrain():
    raw = _tiny(y={"name": "Y", "terrain": "swamp"})
    with pytest.raises(MapError, match=r"terrain 'swamp'"):
        build_map(raw, "tiny.toml")


def test_a_map_written_as_a_change_to_another():
    m = load_map("multiplomacy")
    assert len(m.supply_centres()) == 57 and m.passable("swi")
    assert m.powers["Austria"].home == ("alb", "bud", "gal", "tri", "tyr", "vie")
    assert "boh" not in {h for p in m.powers.values() for h in p.home}
    assert m.army_neighbours("ber") == load_map("standard").army_neighbours("ber")  # the rest is the standard board


def test_bad_base_is_named(tmp_path):
    f = tmp_path / "x.toml"
    f.write_text('base = "nosuchmap"\nname = "x"\n')
    with pytest.raises(MapError, match="base map 'nosuchmap' not found"):
        load_map(f)
