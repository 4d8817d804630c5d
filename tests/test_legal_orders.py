"""``legal_orders`` / ``dipsat orders``: checked against the binder on bound orders, not text —
every listed order is accepted as legal for its unit, and every order a random sample finds
legal binds to the same order as one listed for its unit."""

import json
import random
import tomllib

import pytest

from dipsat import DipsatError, legal_orders
from dipsat.game.request import TurnRequest
from dipsat.face.cli import main
from dipsat.game.pipeline import Pipeline

from conftest import CORPORA, ROOT

START = {"units": {"Austria": ["A Vie", "A Bud", "F Tri"], "England": ["F Lon", "F Edi", "A Lvp"],
                   "France": ["F Bre", "A Par", "A Mar"], "Germany": ["F Kie", "A Ber", "A Mun"],
                   "Italy": ["F Nap", "A Rom", "A Ven"], "Russia": ["F Stp/sc", "A Mos", "A War", "F Sev"],
                   "Turkey": ["F Ank", "A Con", "A Smy"]}}
FILES = ["examples/spring1901.toml", "examples/pandin.toml", "examples/multiplomacy.toml",
         "tests/corpora/datc/6.F.21.toml", "tests/corpora/datc/6.G.08.toml", "tests/corpora/datc/6.B.13.toml",
         "tests/corpora/multinational/mn_e.toml", "tests/corpora/multiplicity/r06_example_par_pic.toml",
         "tests/corpora/multiplomacy/m5_ii.toml"]
KEEP = ("variant", "units", "owners", "year", "season")


def _request(name):
    if name == "start":
        return dict(START)
    data = tomllib.loads((ROOT / name).read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if k in KEEP}


def _pipe(request):
    req = TurnRequest.model_validate(request)
    pipe = Pipeline.for_request(req)
    return pipe, pipe.prepare(req).position


def _bound(pipe, position, power, text):
    """The unit and body an order binds to alone, or None when the binder refuses it."""
    bound = pipe.bind(position, {power: [text]})
    if bound.rejected:
        return None
    (unit, order), = [(u, o) for u, o in bound.orders.items() if u not in bound.implicit]
    return unit, order.body


@pytest.mark.parametrize("name", ["start", *FILES])
def test_every_listed_order_is_legal_and_every_legal_order_is_listed(name):
    request = _request(name)
    legal = legal_orders(request)
    pipe, position = _pipe(request)
    listed: dict[int, set] = {}
    for power, units in legal.items():
        for unit, orders in units.items():
            assert orders and orders[0].endswith(" H"), (unit, orders)
            for text in orders:
                got = _bound(pipe, position, power, text)
                assert got is not None, f"listed but refused: {power}: {text}"
                listed.setdefault(got[0], set()).add(got[1])
    assert set(listed) == set(range(len(position.units)))  # every unit has its orders
    # a random sample of orders, written from every unit and every place of the map
    m = pipe.variant.map
    rng = random.Random(f"legal {name}")
    units = [(u.power, (f"{u.count} " if u.count != 1 else "") + f"{u.kind} {m.display(u.location)}",
              f"{u.kind} {m.display(u.location)}") for u in position.units]
    places = [m.display(x) for x in sorted(set(m.provinces) | {c for p in m.provinces for c in m.fleet_locations_in(p)})]
    found = 0
    for _ in range(1500):
        power, me, _ = rng.choice(units)
        other = rng.choice(units)[2]
        a, b = rng.choice(places), rng.choice(places)
        text = rng.choice([f"{me} - {a}", f"{me} - {a} via convoy", f"{me} S {other}", f"{me} S {other} - {a}",
                           f"{me} C {other} - {b}", f"{me} H"])
        got = _bound(pipe, position, power, text)
        if got is not None:
            found += 1
            assert got[1] in listed[got[0]], f"legal but not listed: {power}: {text}"
    assert found >= 20


def test_a_convoy_route_is_listed():
    legal = legal_orders(_request("examples/pandin.toml"))
    assert "A Bre - Lon via convoy" in legal["France"]["A Bre"]
    assert "F Eng C A Bre - Lon" in legal["France"]["F Eng"]
    assert "F Lon S F Wal - Eng" in legal["England"]["F Lon"]


def test_other_families_and_phases_are_refused():
    with pytest.raises(DipsatError, match="Diplomacy board"):
        legal_orders({"variant": "continents", "units": {"A": ["4 Yug"]}})
    with pytest.raises(DipsatError, match="movement phases"):
        legal_orders({**START, "phase": "retreat"})


def test_dipsat_orders(capsys):
    assert main(["orders", str(ROOT / "examples" / "pandin.toml"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == legal_orders(_request("examples/pandin.toml"))
    assert main(["orders", str(ROOT / "examples" / "pandin.toml")]) == 0
    out = capsys.readouterr().out
    assert "France:\n  A Bre (" in out and "    A Bre - Lon via convoy\n" in out
    assert main(["orders", str(ROOT / "examples" / "game.toml")]) == 2
    assert "is a saved game, not a turn" in capsys.readouterr().err


def test_an_illegal_support_to_hold_in_multiplicity_is_refused_not_a_crash():
    """Found by the sample above: the variant's check of a support by sea asserted the support
    was for a move, so an illegal support to hold stopped with an internal error."""
    from dipsat import adjudicate

    res = adjudicate({"variant": "multiplicity", "units": {"England": ["A Bre"], "France": ["A Bur"]},
                      "orders": {"England": ["A Bre S A Bur"]}})
    assert [(r.text, r.severity) for r in res.rejected] == [("A Bre S A Bur", "illegal")]
