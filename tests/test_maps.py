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


def test_every_map_has_a_fresh_snapshot_read_in_its_place(monkeypatch, tmp_path):
    """load_map reads a map of maps/ from its JSON snapshot (much faster than TOML at start-up)
    when the snapshot was made from the map's very text; otherwise from the TOML."""
    import json
    import tomllib

    import dipsat.maps as maps
    from dipsat.maps.snapshot import snapshot_maps, snapshot_text

    paths = snapshot_maps()
    assert {p.stem for p in paths} >= {"standard", "multiplomacy", "multinational"}
    from_snapshots = {}
    for path in paths:
        snap = maps.SNAPSHOT_DIR / f"{path.stem}.json"
        assert snap.exists() and snap.read_text(encoding="utf-8") == snapshot_text(path), (
            f"maps/snapshots/{path.stem}.json is stale or missing: run python -m dipsat.maps.snapshot")
        from_snapshots[path.stem] = load_map(path.stem)
    (tmp_path / "none").mkdir()
    monkeypatch.setattr(maps, "SNAPSHOT_DIR", tmp_path / "none")  # every map from its TOML: the same maps
    assert from_snapshots == {name: load_map(name) for name in from_snapshots}
    assert load_map("standard") == build_map(tomllib.loads((maps.MAP_DIR / "standard.toml").read_text(encoding="utf-8")),
                                             str(maps.MAP_DIR / "standard.toml"))
    # read in the map's place when its hash agrees (a changed title shows it was read) ...
    text = (maps.MAP_DIR / "standard.toml").read_text(encoding="utf-8")
    data = json.loads((maps.MAP_DIR / "snapshots" / "standard.json").read_text(encoding="utf-8"))
    data["map"]["title"] = "read from the snapshot"
    (tmp_path / "standard.json").write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(maps, "SNAPSHOT_DIR", tmp_path)
    assert load_map("standard").title == "read from the snapshot"
    # ... and ignored once the map's text differs from the one it was made from
    data["toml_sha256"] = maps.text_sha256(text + "\n")
    (tmp_path / "standard.json").write_text(json.dumps(data), encoding="utf-8")
    assert load_map("standard").title == "Standard Diplomacy"
