"""Multiplicity Plus (seed 003): notation, positions, placement, research commands.

The seed's worked examples and rule statements are corpus cases (tests/corpora/multiplicity/),
run by test_datc.py; this module tests what a corpus case cannot say.
"""

import pytest

from dipsat import adjudicate
from dipsat.api import TurnRequest, build_position
from dipsat.errors import DipsatError, PositionError
from dipsat.game import Game
from dipsat.research import explore, format_why, why
from dipsat.variants import find_variant

V = find_variant("multiplicity")


def turn(units, orders, **kw):
    return adjudicate({"variant": "multiplicity", "units": units, "orders": orders, **kw})


def outcome(res, text):
    hits = [o for o in res.outcomes if o.text == text]
    assert len(hits) == 1, [o.text for o in res.outcomes]
    return hits[0]


# -- notation ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text,kinds,prov", [
    ("2A(Bur)", [("A", 2)], "bur"),
    ("A/F(ENG)", [("A", 1), ("F", 1)], "eng"),
    ("2A/F(Bre)", [("A", 2), ("F", 1)], "bre"),
    ("A/2F(MAO)", [("A", 1), ("F", 2)], "mao"),
    ("2 A Burgundy", [("A", 2)], "bur"),
    ("A & 3 F English Channel", [("A", 1), ("F", 3)], "eng"),
])
def test_unit_specs_in_both_notations(text, kinds, prov):
    units = V.notation.unit_specs("France", text)
    assert sorted((u.kind, u.count) for u in units) == kinds
    assert {u.province for u in units} == {prov}


def test_af_in_a_split_coast_space_names_its_coast():
    units = V.notation.unit_specs("Russia", "A/F(StP/nc)")
    assert sorted(u.location for u in units) == ["stp", "stp/nc"]
    with pytest.raises(DipsatError, match="must name its coast"):
        V.notation.unit_specs("Russia", "A/F(StP)")


@pytest.mark.parametrize("text,action", [
    ("A(Par)-Bur", "move"), ("2A(Par) S A(Bur)-Pic", "support"), ("A(Pic)Std", "hold"),
    ("A/3F(ENG) C 2A(Lon)-Pic", "convoy"), ("English A(Pic) S FRENCH MERGE (Bur)", "merge_support"),
    ("A(Par) S A(Bur) attacks ITALIAN A(Bur)", "support_attack"), ("A(Bur) attacks ITALIAN A(Bur)", "attack"),
    ("A Par - Bur", "move"), ("2 A Par S A Bur - Pic", "support"),
])
def test_seed_and_usual_orders_parse(text, action):
    assert V.notation.parse(text, "France").action == action


def test_merge_with_reads_the_partner():
    p = V.notation.parse("A(Par)-Bur MERGE with ITALIAN A(Mar)-Bur", "France")
    assert p.action == "move" and p.extras["merge_with"] == "Italy"
    assert V.notation.parse("English A(Pic) S FRENCH MERGE (Bur)").power == "England"


@pytest.mark.parametrize("text,words", [
    ("A(Par)-Bur MERGE with MARTIAN A(Mar)-Bur", ["expected a nation", "'MARTIAN'"]),
    ("A(Par)-Bur MERGE with ITALIAN A(Mar)-Pic", ["different spaces"]),
    ("A(Pic) S FRENCH MERGE (Atlantis)", ["not a space", "'Atlantis'"]),
    ("A(Bur) attacks ITALIAN A(Mun)", ["inside one's own space"]),
    ("A(Bur)-Pic cutting Narnia", ["not a space"]),
    ("A(Par) Bur", ["expected '-', 'H', 'S' or 'C'"]),
])
def test_bad_orders_quote_the_order_and_say_what_was_expected(text, words):
    res = turn({"France": ["A(Par)", "A(Bur)"], "Italy": ["A(Bur)", "A(Mar)"]}, {"France": [text]})
    rej = [o for o in res.outcomes if o.order_kind == "rejected"]
    assert len(rej) == 1 and rej[0].text == text
    for w in words:
        assert w in rej[0].reason


def test_order_for_more_units_than_there_are_is_illegal():
    res = turn({"France": ["2A(Par)"]}, {"France": ["3A(Par)-Bur"]})
    o = outcome(res, "3A(Par)-Bur")
    assert o.result == "illegal" and "only 2" in o.reason


def test_bare_unit_count_option():
    one = turn({"France": ["2A(Par)"]}, {"France": ["A(Par)-Bur"]})
    assert sorted(u.short() for u in one.after.units) == ["A Bur", "A Par"]
    whole = turn({"France": ["2A(Par)"]}, {"France": ["A(Par)-Bur"]}, options={"bare_unit_count": "all"})
    assert [u.short() for u in whole.after.units] == ["2 A Bur"]


# -- positions --------------------------------------------------------------------------------

@pytest.mark.parametrize("units,words", [
    ({"France": ["2A/F(MAO)"]}, ["seaworthy"]),
    ({"France": ["A(Bur)"], "Italy": ["A(Bur)"], "Germany": ["A(Bur)"]}, ["two nations"]),
    ({"France": ["A(Swi)"]}, ["impassable"]),
])
def test_impossible_positions_are_refused(units, words):
    with pytest.raises(PositionError) as exc:
        build_position(V, TurnRequest(variant="multiplicity", units=units))
    for w in words:
        assert w in str(exc.value)


def test_multinational_af_at_sea_is_a_position():
    pos = build_position(V, TurnRequest(variant="multiplicity", units={"France": ["F(ENG)"], "England": ["A(ENG)"]}))
    assert len(pos.units) == 2


# -- placement (rule 1) -----------------------------------------------------------------------

def test_placement_limits_home_centres_and_stp_coast():
    g = Game("multiplicity")
    assert g.phase == "placement" and not g.position.units and g.phase_name == "S1900P"
    rec = g.step({"France": ["2A(Par)", "A(Mar)", "A/F(Bre)"],       # 5 > 3: the last is illegal
                  "Russia": ["A/F(StP)", "2A(Mos)"],                  # 4 for Russia; StP: south coast
                  "England": ["A(Par)"]})                             # not an English home centre
    by = {(o.power, o.text): o for o in rec.outcomes}
    assert by[("France", "A/F(Bre)")].result == "illegal" and "at most 3" in by[("France", "A/F(Bre)")].reason
    assert by[("England", "A(Par)")].result == "illegal" and "home centre" in by[("England", "A(Par)")].reason
    units = sorted((u.power, u.kind, u.location, u.count) for u in g.position.units)
    assert ("Russia", "F", "stp/sc", 1) in units and ("Russia", "A", "stp", 1) in units
    assert ("France", "A", "par", 2) in units and ("France", "A", "mar", 1) in units
    assert g.phase_name == "S1901M"


def test_placement_on_the_north_coast_when_written():
    g = Game("multiplicity")
    g.step({"Russia": ["F(StP/nc)"]})
    assert [u.location for u in g.position.units] == ["stp/nc"]


# -- research ---------------------------------------------------------------------------------

def test_circular_merges_are_counted_by_explore():
    # three French armies rotate while Germany's two armies each want the middle space:
    # the French cycle Par -> Bur -> Pic -> Par is circular movement of one nation
    req = TurnRequest(variant="multiplicity", units={"France": ["A(Par)", "A(Bur)", "A(Pic)"]},
                      orders={"France": ["A(Par)-Bur", "A(Bur)-Pic", "A(Pic)-Par"]})
    ex = explore(req)
    assert len(ex.resolutions) >= 1
    res = adjudicate(req)
    assert all(o.result == "moved" for o in res.outcomes)


def test_mutual_inside_attacks_explained_and_why_names_the_other_order():
    req = TurnRequest(variant="multiplicity", units={"France": ["A(Bur)", "A(Par)"], "Italy": ["A(Bur)"]},
                      orders={"France": ["A(Bur) attacks ITALIAN A(Bur)", "A(Par) S A(Bur) attacks ITALIAN A(Bur)"]})
    w = why(req, "A(Bur) attacks ITALIAN A(Bur)")
    text = format_why(w)
    assert "A(Par) S A(Bur) attacks ITALIAN A(Bur)" in text


def test_rules_text_lists_every_option_and_reading():
    text = V.rules_text() or ""
    for name in V.options_model.model_fields:
        if name not in find_variant("standard").options_model.model_fields:
            assert name in text
    assert "Readings of the rules text" in text


def test_alias():
    assert find_variant("multiplicity-plus") is V
