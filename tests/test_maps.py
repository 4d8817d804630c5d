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


def test_province_fields_of_a_variant_are_validated_by_its_schema():
    from pydantic import BaseModel, ConfigDict

    class Ports(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True)
        port: bool = False
        capacity: int = 0

    raw = _tiny(y={"name": "Y", "terrain": "land", "army": ["x"], "port": True, "capacity": 3})
    with pytest.raises(MapError, match=r"\[provinces.y\]: unknown key\(s\) \['capacity', 'port'\]"):
        build_map(raw, "tiny.toml")  # no schema: the core knows no such fields
    m = build_map(raw, "tiny.toml", Ports)
    assert m.provinces["y"].extra == Ports(port=True, capacity=3)
    assert m.provinces["x"].extra == Ports()
    bad = _tiny(y={"name": "Y", "terrain": "land", "army": ["x"], "capacity": "many"})
    with pytest.raises(MapError, match=r"\[provinces.y\]: capacity: Input should be a valid integer"):
        build_map(bad, "tiny.toml", Ports)


def test_maps_cite_sources_by_name_and_url_never_a_local_path():
    from dipsat.maps import MAP_DIR

    for name in ("standard", "multiplomacy", "multinational"):
        m = load_map(name)
        assert m.sources and all(s.name for s in m.sources), name
    assert load_map("standard").sources[0].url.startswith("https://")
    for f in sorted(MAP_DIR.glob("*")):
        if f.suffix in (".toml", ".md"):
            text = f.read_text(encoding="utf-8")
            assert "/work/" not in text and "../shared" not in text, f"{f.name} cites a local path"
    raw = _tiny()
    raw["sources"] = [{"name": "my notes", "url": "/home/me/notes.txt"}]
    with pytest.raises(MapError, match=r"sources\[1\]: url '/home/me/notes.txt' must be a web address"):
        build_map(raw, "tiny.toml")
    raw["sources"] = [{"name": "copied from ../shared/reference/x.md"}]
    with pytest.raises(MapError, match=r"cites a path on someone's machine"):
        build_map(raw, "tiny.toml")
