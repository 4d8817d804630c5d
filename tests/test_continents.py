"""Continents and free cities (seed 004): notation, request errors, commands, and property
tests of the round's resolution on random rounds."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dipsat.face.cli import main
from dipsat.errors import DipsatError, InvalidOrder
from dipsat.maps.continental import load_continental_map
from dipsat.variants.continents.board import Board, parse_units
from dipsat.variants.continents.words import _battle_line, losses
from dipsat.variants.continents.notation import parse_order
from dipsat.variants.continents.round import adjudicate_round
from dipsat.variants.continents.rules import ContinentsRuleError, continents_preset

from conftest import CORPORA
from strategies import continents_options

MAP = load_continental_map("continents_demo")
RULES = continents_preset()
CASES = CORPORA / "continents"


@pytest.mark.parametrize("text,formatted", [
    ("A 3 Yug-Tar", "A 3 Yug-Tar"), ("A 3 Yug – Tar", "A 3 Yug-Tar"), ("a 3 yugant -> tarez", "A 3 Yug-Tar"),
    ("SA Dis-Pie 2 Ciu", "SA Dis-Pie 2 Ciu"), ("SD Pie 2 Ciu", "SD Pie 2 Ciu"), ("H Yug", "H Yug"), ("Yug hold", "H Yug"),
])
def test_notation_round_trip(text, formatted):
    o = parse_order(MAP, text)
    assert o.format(MAP) == formatted
    assert parse_order(MAP, formatted) == o


@pytest.mark.parametrize("text,message", [
    ("A Yug-Tar", "an attack or move is 'A 3 Yug-Tar'"), ("A 0 Yug-Tar", "at least one unit"),
    ("A 3 Yug-Qqq", "unknown country or free city 'Qqq'"), ("SA Dis 2 Ciu", "an attack support is"),
    ("move everything", "expected 'A 3 Yug-Tar'"),
])
def test_bad_orders_quote_the_text(text, message):
    with pytest.raises(InvalidOrder, match=message) as exc:
        parse_order(MAP, text)
    assert repr(text) in str(exc.value)


@pytest.mark.parametrize("units,message", [
    ({"A": ["5 Yug"]}, r"units.A: '5 Yug': Yugant holds at most 4 units"),
    ({"A": ["1 Yug"], "B": ["1 Yug"]}, r"Yugant is held by both A and B"),
    ({"A": ["2 Qqq"]}, r"unknown country or free city 'Qqq'"),
    ({"A": ["two Yug"]}, r"unknown country or free city 'two Yug'"),
])
def test_bad_positions_are_named(units, message):
    with pytest.raises(DipsatError, match=message):
        parse_units(MAP, units)


def test_bad_rule_option_is_named():
    with pytest.raises(ContinentsRuleError, match="defend_first"):
        continents_preset(None, defend_first="never")
    with pytest.raises(ContinentsRuleError, match="expected 'continents' or OPTION=VALUE"):
        continents_preset("datc-ish")


def test_cli_adjudicate_text_json_and_errors(capsys, tmp_path):
    case = CASES / "seed_01_four_way_battle.toml"
    assert main(["adjudicate", str(case)]) == 0
    out = capsys.readouterr().out
    assert "A 4 (4 from Yug), B 3 (3 from Tar), C 2 (2 from Pie), D 2 (2 defending)" in out
    assert "Readings of the rules as written: 1 (the resolution is unique)" in out
    assert main(["adjudicate", str(case), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["units_after"] == {"A": ["1 Dis"]} and data["details"]["readings"] == 1
    bad = tmp_path / "bad.toml"
    bad.write_text('variant = "continents"\n[units]\nA = ["9 Yug"]\n', encoding="utf-8")
    assert main(["adjudicate", str(bad)]) == 2
    assert "Yugant holds at most 4 units" in capsys.readouterr().err
    bad.write_text('variant = "continents"\nsurprise = 1\n', encoding="utf-8")
    assert main(["adjudicate", str(bad)]) == 2
    assert "field surprise: Extra inputs are not permitted" in capsys.readouterr().err


def test_cli_option_and_rules_listing(capsys):
    case = CASES / "rule_11_defend_first.toml"
    assert main(["adjudicate", str(case), "--option", "defend_first=ordered_leave"]) == 0
    assert "B: 2 Dis" in capsys.readouterr().out
    assert main(["rules", "continents"]) == 0
    out = capsys.readouterr().out
    for name in ("placement = 'spread'", "order_allowance = 'half_countries'", "defend_first = 'all_units'",
                 "ambiguity = 'priority'", "free_city_defence_support = 'always'"):
        assert name in out
    assert main(["rules"]) == 0
    assert "continents" in capsys.readouterr().out


def test_batch_line(tmp_path, capsys):
    lines = tmp_path / "in.jsonl"
    lines.write_text(json.dumps({"variant": "continents", "id": "x", "units": {"A": ["4 Yug"], "B": ["3 Tar"]},
                                 "orders": {"A": ["A 4 Yug-Tar"]}}) + "\n"
                     + json.dumps({"variant": "continents", "units": {"A": ["4 Zzz"]}}) + "\n", encoding="utf-8")
    assert main(["batch", str(lines)]) == 1
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[0]["ok"] and out[0]["id"] == "x" and out[0]["units_after"] == {"A": ["1 Tar"]}
    assert not out[1]["ok"] and "Zzz" in out[1]["error"]["message"]


def test_python_api():
    from dipsat import adjudicate

    res = adjudicate({"variant": "continents", "units": {"A": ["5 Pie"]}, "orders": {"A": ["A 5 Pie-Amb"]}})
    assert res.units_after == {"A": ["4 Amb"]} and res.native.after.holdings == {"amb": ("A", 4)}
    assert res.outcome("A 5 Pie-Amb").result == "moved" and res.outcome("A 5 Pie-Amb").details["sent"] == 5


# -- property tests ----------------------------------------------------------------------------

NODES = sorted(MAP.nodes)


@st.composite
def rounds(draw):
    rng = random.Random(draw(st.integers(0, 10**9)))
    players = ["P1", "P2", "P3", "P4"][: rng.randint(2, 4)]
    area = rng.sample(NODES, rng.randint(4, 12))
    units: dict[str, list[str]] = {}
    for n in area:
        p = rng.choice(players)
        units.setdefault(p, []).append(f"{rng.randint(1, MAP.nodes[n].capacity)} {n}")
    board = parse_units(MAP, units)
    orders: dict[str, list[str]] = {}
    for p in players:
        held = board.held_by(p)
        for _ in range(rng.randint(0, 4) if held else 0):
            x = rng.choice(held)
            y = rng.choice(MAP.neighbours(x))
            k = rng.randint(1, 6)
            kind = rng.random()
            if kind < 0.6:
                text = f"A {k} {x}-{y}"
            elif kind < 0.8:
                ally = rng.choice(MAP.neighbours(y))
                text = f"SA {ally}-{y} {k} {x}" if ally != x else f"A {k} {x}-{y}"
            else:
                text = f"SD {y} {k} {x}"
            orders.setdefault(p, []).append(text)
    return board, orders


def test_battle_line_names_the_survivors_that_leave():
    """The defender wins, but its surviving units carry out their own order elsewhere: they are
    the defender's own units leaving, not supporters going home (the words before the fix)."""
    board = parse_units(MAP, {"A": ["1 Dis"], "B": ["3 Pie"]})
    res = adjudicate_round(MAP, board, {"A": ["A 1 Dis-Pie"], "B": ["A 3 Pie-Tar"]}, RULES, create=False)
    line = _battle_line(next(b for b in res.battles if b.node == "pie"))
    assert "2 of B's own, who leave it; Pie is left empty" in line and "supporting" not in line, line
    assert res.after.owner("pie") is None and res.after.owner("tar") == "B"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds())
def test_round_properties(r):
    board, orders = r
    res = adjudicate_round(MAP, board, orders, RULES)
    after = res.after
    # no country above capacity; one player per country (the Board holds one owner per node)
    for node, (_, c) in after.holdings.items():
        assert 1 <= c <= MAP.nodes[node].capacity, (node, c)
    # units are conserved except for stated losses (creation added, sea and battle losses removed)
    created = sum(c.units for c in res.created)
    at_sea = sum(o.lost_at_sea for o in res.outcomes)
    in_battle = sum(s.lost for b in res.battles for s in b.sides)
    assert after.total() == board.total() + created - at_sea - in_battle
    # the round's facts per player (corpus facts "losses.A.in_battle") add up to the same losses,
    # none negative, and a player's units after are those it had and was given, less those it lost
    lost = losses(res)
    assert all(x["at_sea"] >= 0 and x["in_battle"] >= 0 for x in lost.values()), lost
    assert sum(x["at_sea"] for x in lost.values()) == at_sea and sum(x["in_battle"] for x in lost.values()) == in_battle
    for p in set(lost) | set(board.players()):
        had = sum(c for _, (q, c) in board.holdings.items() if q == p) + sum(c.units for c in res.created if c.player == p)
        now = sum(c for _, (q, c) in after.holdings.items() if q == p)
        gone = lost.get(p, {"at_sea": 0, "in_battle": 0})
        assert now == had - gone["at_sea"] - gone["in_battle"], (p, had, now, gone)
    # unique, or the ambiguity is named
    assert res.readings == 1 or res.backup
    # a battle's words agree with the position after: the winner's survivors are those in the
    # country, the supporters going home and its own units leaving; "left empty" only when so
    for b in res.battles:
        line = _battle_line(b)
        win = next((x for x in b.sides if x.player == b.winner), None)
        if win is None:
            continue
        assert 0 <= win.holds + win.supporters_home <= win.survivors, b
        assert (after.owner(b.node) == b.winner) == (win.holds > 0), (b, after.holdings.get(b.node))
        assert ("is left empty" in line) == (after.owner(b.node) is None), (line, after.holdings.get(b.node))
    for o in res.outcomes:
        assert "0 survive" not in o.reason, o
    # the listing order of the players does not matter
    again = adjudicate_round(MAP, board, dict(reversed(list(orders.items()))), RULES)
    assert again.after == after and sorted(again.outcomes, key=repr) == sorted(res.outcomes, key=repr)


@settings(max_examples=25, deadline=None)
@given(rounds(), continents_options())
def test_round_properties_other_readings(r, options):
    """Under every reading of the rule options (each field drawn from all its values)."""
    board, orders = r
    rules = continents_preset(None, **options)
    res = adjudicate_round(MAP, board, orders, rules)
    for node, (_, c) in res.after.holdings.items():
        assert 1 <= c <= MAP.nodes[node].capacity
    assert res.readings == 1 or res.backup
    assert isinstance(res.after, Board)


# -- the game, set-up and the research commands --------------------------------------------------

EXAMPLE = CORPORA.parent.parent / "examples" / "continents_game.toml"


def test_example_game_plays_to_a_victory_check(capsys, tmp_path):
    assert main(["play", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "continents drawn (seeded lot, seed 112): Amber Borea, Blue Calder, Coral Astria" in out
    assert "Blue, Coral chose Pietes in the same placement round: both refused" in out
    assert "Ostra is a free city: no placement on free cities" in out
    assert "Amber: 3 created in Ostra: Amber holds 3 bordering (Gri, Hol, Sel)" in out
    assert "== round 4 ==" in out and "No winner after round 4" in out
    saved = tmp_path / "saved.json"
    assert main(["play", str(EXAMPLE), "--save", str(saved), "-q"]) == 0
    capsys.readouterr()
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["phases"][-1]["expect_units"]["Blue"] == ["1 Quo", "1 Zen"]
    assert main(["play", str(saved), "-q"]) == 0  # the checkpoints replay
    capsys.readouterr()
    data["phases"][3]["expect_units"]["Blue"] = ["2 Quo"]
    saved.write_text(json.dumps(data), encoding="utf-8")
    assert main(["play", str(saved)]) == 2
    assert "phases[3] (round): the position differs from the saved one" in capsys.readouterr().err


def _game(tmp_path, orders, **options):
    data = {"variant": "continents", "players": ["A", "B"], "units_to_place": 6, "options": options,
            "phases": [{"phase": "draw", "continents": {"A": "ast", "B": "bor"}},
                       {"phase": "placement", "orders": orders}]}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_placement_rules(tmp_path, capsys):
    # option 1 (spread): off the continent next to a held country (Kes borders A's Yug by sea)
    p = _game(tmp_path, {"A": ["Yug", "Kes", "Yug", "Yug", "Yug", "Yug", "Tar"], "B": ["Nal"] * 4 + ["Orv"] * 2})
    assert main(["play", str(p)]) == 0
    out = capsys.readouterr().out
    assert "Yugant is full (4 units)" in out and "A 1 Kes" in out
    # option 2 (own continent only)
    p = _game(tmp_path, {"A": ["Yug", "Kes", "Yug", "Yug", "Yug", "Tar", "Tar"], "B": ["Nal"] * 4 + ["Orv"] * 2},
              placement="own_continent")
    assert main(["play", str(p)]) == 0
    assert "Kestrel is not on Astria (rule placement = own_continent)" in capsys.readouterr().out
    # a placement far from home is refused under option 1 too; a short list is an error naming the player
    p = _game(tmp_path, {"A": ["Zen", "Yug"], "B": ["Nal"] * 4 + ["Orv"] * 2})
    assert main(["play", str(p)]) == 2
    assert "placement: A: 5 units not placed" in capsys.readouterr().err


def test_explore_why_compare(capsys):
    assert main(["explore", str(CASES / "rule_18_mutual_attack_equal.toml")]) == 0
    out = capsys.readouterr().out
    assert "Consistent readings of the rules as written: 4" in out
    assert "Under the settings that change their number: defend_first=ordered_leave: 1" in out
    assert "ambiguity=cancel" in out and "A: A 3 Yug-Tar: cancelled" in out  # the other rule's outcome
    assert main(["explore", str(CASES / "rule_20_full_swap.toml")]) == 0
    assert "Consistent readings of the rules as written" in capsys.readouterr().out
    assert main(["why", str(CASES / "seed_08_notation_support_attack.toml"), "--order", "A 3 Dis-Pie"]) == 0
    out = capsys.readouterr().out
    assert "C: SA Dis-Pie 2 Ciu: without it: lost" in out
    assert main(["why", str(CASES / "rule_11_defend_first.toml"), "--order", "A 2 Tar-Dis"]) == 0
    assert "defend_first = 'all_units' here; with 'ordered_leave': moved" in capsys.readouterr().out
    assert main(["compare", str(CASES / "rule_11_defend_first.toml"), str(CASES / "rule_02_move_into_empty.toml"),
                 "--rules", "continents", "--rules", "defend_first=ordered_leave"]) == 0
    out = capsys.readouterr().out
    assert "2 cases under continents, defend_first=ordered_leave: 1 cases differ" in out
    assert "continents: lost | defend_first=ordered_leave: moved" in out


def test_placement_clash_by_lot_and_draw_with_replacement(tmp_path, capsys):
    orders = {"A": ["Tar", "Yug", "Yug", "Yug", "Yug", "Mor", "Mor"], "B": ["Tar", "Dis", "Dis", "Dis", "Dis", "Lun", "Lun"]}
    data = {"variant": "continents", "players": ["A", "B"], "options": {"placement_clash": "lot", "random_seed": 3},
            "phases": [{"phase": "draw", "continents": {"A": "ast", "B": "ast"}}, {"phase": "placement", "orders": orders}]}
    p = tmp_path / "g.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    assert main(["play", str(p)]) == 2  # two players on one continent: refused under draw = distinct
    assert "two players drew the same continent (rule draw = distinct)" in capsys.readouterr().err
    data["options"]["draw"] = "with_replacement"
    p.write_text(json.dumps(data), encoding="utf-8")
    assert main(["play", str(p), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    placement = out["phases"][1]
    tar = [o for o in placement["outcomes"] if o["order"] == "Tar"]
    assert sorted(o["result"] for o in tar) == ["placed", "refused"]  # the lot gave Tarez to one of them
    assert "the lot gave it to" in next(o["reason"] for o in tar if o["result"] == "refused")
    again = main(["play", str(p), "--json"])
    assert again == 0 and json.loads(capsys.readouterr().out) == out  # the same seed draws the same


def test_attack_into_a_vacated_country_keeps_its_capacity():
    """Regression (found by the property test): under crowding_in_attack = survivors an attack on
    a country its owner leaves (defend_first = ordered_leave) meets no battle; the arrivals over
    the capacity still go back instead of overfilling it (Nim holds 3)."""
    board = parse_units(MAP, {"P1": ["1 dis", "2 eld", "2 hol", "4 obe", "4 pru"],
                              "P2": ["1 lun", "3 nim", "2 rak", "2 tov", "1 wyr"]})
    orders = {"P1": ["A 5 pru-nim", "SA pru-myr 5 obe"],
              "P2": ["SD sul 4 rak", "A 4 wyr-quo", "A 3 nim-kal", "A 5 nim-kal"]}
    rules = continents_preset(None, defend_first="ordered_leave", ambiguity="cancel",
                              reinforcement_losses="arrivals_first", crowding_in_attack="survivors")
    res = adjudicate_round(MAP, board, orders, rules)
    assert res.after.holdings["nim"] == ("P1", 3)


@pytest.mark.parametrize("case,field,value,expected", [
    (True, "phases", 0, "data.phases: expected a list, got int"),
    (False, "phases", "x", "phases: expected a list, got str"),
    (False, "options", 5, "options: expected a table, got int"),
    (False, "rules", [1], "rules: expected a preset's name, got list")])
def test_a_game_with_a_field_of_the_wrong_kind_is_an_error_naming_it(case, field, value, expected):
    """Found by the fuzz (seed 27): a game case whose phases were a number was an internal error
    ('int' object is not iterable); a saved game's options of a number would have been one too."""
    from dipsat.io.batch import answer_line

    game = {"players": ["Ann", "Bo"], "phases": [], field: value}
    req = ({"variant": "continents", "id": "g", "data": {"kind": "game", **game}, "expect": []} if case
           else {"variant": "continents", **game})
    res = answer_line(json.dumps(req), 1)
    assert res["error"] == {"kind": "invalid_request", "message": f"line 1: {expected}"}
