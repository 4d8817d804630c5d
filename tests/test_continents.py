"""Continents and free cities (seed 004): notation, request errors, commands, and property
tests of the round's resolution on random rounds."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dipsat.cli import main
from dipsat.errors import DipsatError, InvalidOrder
from dipsat.maps.continental import load_continental_map
from dipsat.variants.continents.board import Board, parse_units
from dipsat.variants.continents.notation import parse_order
from dipsat.variants.continents.round import adjudicate_round
from dipsat.variants.continents.rules import ContinentsRuleError, continents_preset

from conftest import CORPORA

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
    assert data["units_after"] == {"A": ["1 Dis"]} and data["readings"] == 1
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
    assert res.after.holdings == {"amb": ("A", 4)}


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
    # unique, or the ambiguity is named
    assert res.readings == 1 or res.backup
    # the listing order of the players does not matter
    again = adjudicate_round(MAP, board, dict(reversed(list(orders.items()))), RULES)
    assert again.after == after and sorted(again.outcomes, key=repr) == sorted(res.outcomes, key=repr)


@settings(max_examples=25, deadline=None)
@given(rounds())
def test_round_properties_other_readings(r):
    board, orders = r
    rules = continents_preset(None, defend_first="ordered_leave", ambiguity="cancel", reinforcement_losses="arrivals_first")
    res = adjudicate_round(MAP, board, orders, rules)
    for node, (_, c) in res.after.holdings.items():
        assert 1 <= c <= MAP.nodes[node].capacity
    assert res.readings == 1 or res.backup
    assert isinstance(res.after, Board)
