"""Multinational (seed 000): reach by kind, fly-overs and allowances, the game through a building year."""

import json

import pytest

from dipsat.game.api import adjudicate
from dipsat.game.game import load_saved_game, replay
from dipsat.variants import find_variant

from conftest import ROOT


def _turn(units, orders, owners=None):
    req = {"variant": "multinational", "units": units, "orders": orders}
    if owners:
        req["owners"] = owners
    res = adjudicate(req)
    return {o.text: o for o in res.outcomes}, res


def test_ranges_by_kind_over_land_only():
    out, _ = _turn({"IB": ["M Mon", "E Nda", "P Alb"]},
                   {"IB": ["M Mon – Wyo", "E Nda – Neb", "P Alb – Okl"]})
    assert out["M Mon – Wyo"].result == "moved"
    assert out["E Nda – Neb"].result == "moved"  # Nda–Sda–Neb: second line, strength 2
    assert out["P Alb – Okl"].result == "illegal"  # five states away
    out, _ = _turn({"IB": ["M Mon"]}, {"IB": ["M Mon – Sda"]})
    assert out["M Mon – Sda"].result == "moved"
    out, _ = _turn({"TW": ["E Ore"]}, {"TW": ["E Ore – NPO"]})
    assert out["E Ore – NPO"].result == "illegal"  # only a Military power goes to sea


def test_flyover_rules():
    units = {"EX": ["M Sas"], "IB": ["E Mon"]}
    out, _ = _turn(units, {"EX": ["M Sas – Wyo FO Mon"]})
    assert out["M Sas – Wyo FO Mon"].result == "illegal" and "no allowance" in out["M Sas – Wyo FO Mon"].reason
    out, _ = _turn(units, {"EX": ["M Sas – Sda FO Mon"], "IB": ["AL EX M Sas Mon"]})
    assert out["M Sas – Sda FO Mon"].result == "moved"
    out, _ = _turn({"EX": ["M Sas", "E Tex", "P Coa"]},
                   {"EX": ["M Sas – Nda FO Man", "E Tex – Lou FO Ark", "P Coa – Chi FO Tex"]},
                   owners={"EX": ["Man", "Ark"]})
    assert out["P Coa – Chi FO Tex"].result == "illegal" and "two fly-overs" in out["P Coa – Chi FO Tex"].reason
    out, _ = _turn({"TW": ["M Cal"]}, {"TW": ["M Cal – Clm FO NPO"]})
    assert out["M Cal – Clm FO NPO"].result == "illegal"


def test_example_game_plays_through_a_building_year():
    game = replay(load_saved_game(ROOT / "examples" / "multinational_game.toml"))
    names = [r.name for r in game.history]
    assert names[:4] == ["Y1990P", "Y1991M", "Y1992M", "W1992A"]
    w = game.history[3]
    assert {o.text for o in w.outcomes if o.result == "built"} >= {"Build E Mon", "Build P Kan"}
    assert game.centres()["IB"] == 4 and game.centres()["AT"] == 5


def test_shared_victory_needs_both_claims_and_26_centres():
    from dipsat.game.game import Game, StartSpec
    from dipsat.variants import find_variant

    m = find_variant("multinational").map
    ccs = m.supply_centres()
    start = StartSpec(year=1994, season="year", units={"AT": ["M Uta"], "CC": ["M Vir"]},
                      owners={"AT": ccs[:13], "CC": ccs[13:26]})
    g = Game("multinational", start=start)
    g.step({"AT": ["CLAIM SHARED WITH CC"]})
    assert g.winner is None  # only one claim
    while g.phase_name != "Y1996M":
        g.step({})
    g.step({"AT": ["CLAIM SHARED WITH CC"], "CC": ["CLAIM SHARED WITH AT"]})
    assert g.winner == "AT+CC"


def test_defensive_strength_slip_is_an_option(monkeypatch):
    """The seed's "defensive strength of the attacking power": with the seed's kinds (all defend
    with 3) both readings agree; with a kind table where they differ, the option decides."""
    import dipsat.variants.multinational as mn
    req = {"variant": "multinational", "units": {"CC": ["P Wyo"], "GM": ["E Mon"]},
           "orders": {"CC": ["P Wyo – Mon"]}}
    for reading in ("defending_power", "attacking_power"):
        rules = find_variant("multinational").rules(None, mn_defensive_strength_of=reading)
        assert {o.text: o.result for o in adjudicate(req, rules=rules).outcomes}["P Wyo – Mon"] == "bounced"
    monkeypatch.setitem(mn.KINDS, "P", {**mn.KINDS["P"], "defence": 0})
    literal = find_variant("multinational").rules(None, mn_defensive_strength_of="attacking_power")
    res = adjudicate(req, rules=literal)
    moved = {o.text: o.result for o in res.outcomes}
    assert moved["P Wyo – Mon"] == "moved"  # 1 against the attacker's own defence 0
    assert {o.text: o.result for o in adjudicate(req).outcomes}["P Wyo – Mon"] == "bounced"


def _game_file(tmp_path, owners: dict, orders: dict):
    from dipsat.variants import find_variant

    m = find_variant("multinational").map
    game = {"variant": "multinational",
            "start": {"year": 1996, "season": "year", "units": {"AT": ["M Uta"], "CC": ["M Vir"]},
                      "owners": {p: [m.provinces[c].name for c in cs] for p, cs in owners.items()}},
            "phases": [{"phase": "Y1996M", "orders": orders}]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    return str(path)


def test_play_text_output_of_a_shared_victory(tmp_path, capsys):
    """`dipsat play` printed a shared victory with KeyError: 'AT+CC' (issue 10); --json worked."""
    from dipsat.face.cli import main
    from dipsat.variants import find_variant

    ccs = [c for c in find_variant("multinational").map.supply_centres() if c not in ("uta", "vir")]
    path = _game_file(tmp_path, {"AT": ccs[:12], "CC": ccs[12:24]},  # + the occupied Uta and Vir
                      {"AT": ["CLAIM SHARED WITH CC"], "CC": ["CLAIM SHARED WITH AT"]})
    assert main(["play", path]) == 0
    assert "AT and CC share the victory with 13 + 13 = 26 supply centres." in capsys.readouterr().out
    assert main(["play", "--json", path]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["winner"] == "AT+CC" and data["winners"] == ["AT", "CC"] and data["next_phase"] is None


def test_play_text_output_of_a_single_victory(tmp_path, capsys):
    from dipsat.face.cli import main
    from dipsat.variants import find_variant

    ccs = [c for c in find_variant("multinational").map.supply_centres() if c not in ("uta", "vir")]
    path = _game_file(tmp_path, {"AT": ccs[:17], "CC": ccs[17:19]}, {})  # + the occupied Uta
    assert main(["play", path]) == 0
    assert "AT wins with 18 supply centres." in capsys.readouterr().out


def test_play_reaches_the_one_build_on_another_controlled_centre():
    """Rule 8: "only in case no home center is available, the multinational is allowed to build a
    power in any other controlled capacity center that is unoccupied; only one power can be build
    this way". The game used to open an adjustment phase only when a home centre was free."""
    from dipsat.game.game import Game, StartSpec

    start = StartSpec(year=1996, season="year", units={"AT": ["M Uta", "E Neb", "P Kan"]},
                      owners={"AT": ["Uta", "Neb", "Kan", "Okl", "Ark"]})
    g = Game("multinational", start=start)
    g.step({})
    assert g.phase_name == "W1996A"
    rec = g.step({"AT": ["Build M Okl", "Build E Ark"]})
    results = {o.text: o.result for o in rec.outcomes}
    assert results["Build M Okl"] == "built" and results["Build E Ark"] == "illegal"
    assert sorted(u.location for u in g.position.units) == ["kan", "neb", "okl", "uta"]


def test_play_text_output_of_builds_and_a_refused_build(tmp_path, capsys):
    from dipsat.face.cli import main

    game = {"variant": "multinational",
            "start": {"year": 1996, "season": "year", "units": {"AT": ["M Uta", "E Neb", "P Kan"]},
                      "owners": {"AT": ["Uta", "Neb", "Kan", "Okl", "Ark"]}},
            "phases": [{"phase": "Y1996M", "orders": {}},
                       {"phase": "W1996A", "orders": {"AT": ["Build M Okl", "Build E Ark"]}}]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    assert main(["play", str(path)]) == 0
    out = capsys.readouterr().out
    assert "== W1996A ==" in out and "ok   AT: Build M Okl  — builds M Okl" in out
    assert ("FAIL AT: Build E Ark  — illegal: Arkansas is not a free controlled home centre and the one build"
            " on another controlled centre is used") in out
    assert "ok   AT: (AT plays short)  — 1 build(s) not made: AT plays short" in out


def test_rules_text_shows_new_options_and_fixed_readings(capsys):
    from dipsat.face.cli import main

    assert main(["rules", "multinational"]) == 0
    out = capsys.readouterr().out
    for line in ("mn_flyover_allowance_from = either", "mn_convoy_orders = all_given",
                 "mn_default_retreat_controlled = after_home", "Readings of the rules text (fixed, not options):",
                 "'nor can you fly over an uncontrolled SC'"):
        assert line in out
    assert main(["rules", "multiplomacy"]) == 0
    out = capsys.readouterr().out
    assert "stack_head_to_head = combined" in out and "stack_retreat_battle = next_largest" in out
    assert "it cuts the next-written support it can cut instead" in out


def test_programming_errors_are_not_reported_as_invalid_orders(monkeypatch):
    """Regression: the placement, retreat and adjustment phases caught a bare ``Exception``
    and turned any bug into an "invalid order"; only order errors are reported now."""
    from dipsat.game.game import Game

    game = Game("multinational")
    assert game.phase_name.endswith("P")

    def broken(*args, **kwargs):
        raise RuntimeError("a bug, not a bad order")

    monkeypatch.setattr(game.variant.notation, "parse", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        game.step({"AT": ["M Uta"]})
