import pytest

from dipsat.errors import InvalidOrder
from dipsat.game.api import adjudicate
from dipsat.variants import find_variant

N = find_variant("standard").notation


@pytest.mark.parametrize("text,action,unit,dest,target,via", [
    ("A Par - Bur", "move", "par", "bur", None, False),
    ("A PAR - BUR", "move", "par", "bur", None, False),
    ("a par -> bur", "move", "par", "bur", None, False),
    ("A Par – Bur", "move", "par", "bur", None, False),
    ("F Lon S A Wal - Bel", "support", "lon", "bel", "wal", False),
    ("F London Supports F Wales - English Channel", "support", "lon", "eng", "wal", False),
    ("F Eng C A Lon - Bre", "convoy", "eng", "bre", "lon", False),
    ("A Lon - Bre via convoy", "move", "lon", "bre", None, True),
    ("A BRE - LON VIA", "move", "bre", "lon", None, True),
    ("A Mun H", "hold", "mun", None, None, False),
    ("A Munich holds", "hold", "mun", None, None, False),
    ("F Mid-Atlantic Ocean - Spain(nc)", "move", "mao", "spa/nc", None, False),
    ("F SPA/NC - MAO", "move", "spa/nc", "mao", None, False),
    ("F Nth-Nwy", "move", "nth", "nwy", None, False),
])
def test_parse_forms(text, action, unit, dest, target, via):
    p = N.parse(text)
    assert p.action == action
    assert p.unit.loc.location() == unit
    assert (p.dest.location() if p.dest else None) == dest
    assert (p.target.loc.province if p.target else None) == target
    assert p.via_convoy == via


@pytest.mark.parametrize("text,fragment", [
    ("A Par - Moon", "unknown word 'Moon'"),
    ("A Par Bur", "expected '-', 'H', 'S' or 'C'"),
    ("A Par -", "expected a destination"),
    ("F Nth C A Lon", "needs the convoyed move"),
    ("", "empty order"),
])
def test_invalid_orders_quote_the_text(text, fragment):
    with pytest.raises(InvalidOrder) as e:
        N.parse(text)
    assert fragment in str(e.value)
    assert repr(text) in str(e.value)


def _one(units, orders, rules=None):
    res = adjudicate({"units": units, "orders": orders}, rules=rules)
    return {o.text: o for o in res.outcomes}


def test_illegal_and_ambiguous_are_told_apart():
    out = _one({"France": ["F Portugal", "A Paris"]}, {"France": ["F Portugal - Spain", "A Paris - Munich"]})
    assert out["F Portugal - Spain"].result == "ambiguous"
    assert "Spa/nc or Spa/sc" in out["F Portugal - Spain"].reason
    assert out["A Paris - Munich"].result == "illegal"
    assert out["A Par Hold"].result == "held"


def test_invalid_order_in_a_turn_is_reported_not_raised():
    out = _one({"France": ["A Paris"]}, {"France": ["A Paris jumps to Burgundy"]})
    assert out["A Paris jumps to Burgundy"].result == "invalid"
