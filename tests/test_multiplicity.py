"""Multiplicity Plus (seed 003): notation, positions, placement, research commands.

The seed's worked examples and rule statements are corpus cases (tests/corpora/multiplicity/),
run by test_datc.py; this module tests what a corpus case cannot say.
"""

import pytest

from dipsat import adjudicate
from dipsat.game.api import TurnRequest, build_position
from dipsat.errors import DipsatError, PositionError
from dipsat.game.game import Game
from dipsat.research.research import explore, format_why, why
from dipsat.variants import find_variant
from dipsat.variants.multiplicity.notation import CutFirst, MergeWith

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


def test_a_bad_part_of_a_split_line_quotes_the_line_and_the_part_and_says_what_was_expected():
    line = "4A(Par): A(Par)Std, 2X(Par)-Bur, A(Par)-Gas"
    res = adjudicate(TurnRequest(variant="multiplicity", units={"France": ["4A(Par)"]}, orders={"France": [line]}))
    bad = next(o for o in res.outcomes if o.text == "2X(Par)-Bur")
    assert bad.result == "invalid"
    assert f"in the split {line!r}, part 2 of 3, '2X(Par)-Bur': unknown word 'X'" in bad.reason
    assert "expected each part to be units of the multiple unit and their order" in bad.reason
    assert "'A(Par)Std'" in bad.reason
    # the other parts are carried out
    assert {o.text: o.result for o in res.outcomes if o.text != "2X(Par)-Bur"}["A(Par)-Gas"] == "moved"


@pytest.mark.parametrize("text,action", [
    ("A(Par)-Bur", "move"), ("2A(Par) S A(Bur)-Pic", "support"), ("A(Pic)Std", "hold"),
    ("A/3F(ENG) C 2A(Lon)-Pic", "convoy"), ("English A(Pic) S FRENCH MERGE (Bur)", "merge_support"),
    ("A(Par) S A(Bur) attacks ITALIAN A(Bur)", "support_attack"), ("A(Bur) attacks ITALIAN A(Bur)", "attack"),
    ("A Par - Bur", "move"), ("2 A Par S A Bur - Pic", "support"),
    ("A(Par)-Bur MERGE A(Bur) and support attack on ITALIAN A(Bur)", "move"),
])
def test_seed_and_usual_orders_parse(text, action):
    assert V.notation.parse(text, "France").action == action


def test_merge_with_reads_the_partner():
    p = V.notation.parse("A(Par)-Bur MERGE with ITALIAN A(Mar)-Bur", "France")
    merge = p.addition(MergeWith)
    assert p.action == "move" and merge is not None and merge.partner == "Italy" and merge.partner_unit.loc.province == "mar"
    assert V.notation.parse("English A(Pic) S FRENCH MERGE (Bur)").power == "England"


@pytest.mark.parametrize("text,spaces,unread", [
    ("A(Tyr)-Mun, cutting first the support for A(Kie)-Ber", ("ber",), ()),
    ("A(Tyr)-Mun cutting the support for Ber first", ("ber",), ()),
    ("A(Tyr)-Mun cutting Kie-Ber", ("ber",), ()),
    ("A(Tyr)-Mun cutting Boh, then the support to Gulf of Lyon", ("boh", "lyo"), ()),
    ("A(Bur)-Pic cutting Narnia", (), ("Narnia",)),
])
def test_cutting_priority_in_plain_words(text: str, spaces: tuple, unread: tuple) -> None:
    """Rule 6: the attacker's priority is read past its filler words; a part naming no space is
    kept as unread (the attack goes ahead in the default order), not a reason to void it."""
    p = V.notation.parse(text, "Germany")
    first = p.addition(CutFirst)
    assert p.action == "move" and first is not None
    assert (first.spaces, first.unread) == (spaces, unread)


@pytest.mark.parametrize("text,words", [
    ("A(Par)-Bur MERGE with MARTIAN A(Mar)-Bur", ["expected a nation", "'MARTIAN'"]),
    ("A(Par)-Bur MERGE with ITALIAN A(Mar)-Pic", ["different spaces"]),
    ("A(Pic) S FRENCH MERGE (Atlantis)", ["not a space", "'Atlantis'"]),
    ("A(Bur) attacks ITALIAN A(Mun)", ["inside one's own space"]),
    ("A(Par) Bur", ["expected '-', 'H', 'S' or 'C'"]),
    ("A(Par)-Bur MERGE with", ["expected one of the seed's merge orders", "MERGE with ITALIAN A(Mar)-Bur"]),
    ("English A(Pic) S FRENCH MERGE", ["expected one of the seed's merge orders", "S FRENCH MERGE (Bur)"]),
    ("A(Par) S A(Bur) attacks ITALIAN", ["expected an attack inside", "attacks ITALIAN A(Bur)"]),
    ("A(Bur)-Pic cutting", ["expected the spaces whose supports to cut first"]),
    ("4A(Par) A(Par)Std", ["expected '-', 'H', 'S' or 'C'"]),
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
    text = V.rules_text(V) or ""
    for name in V.options_model.model_fields:
        if name not in find_variant("standard").options_model.model_fields:
            assert name in text
    assert "Readings of the rules text" in text


def test_alias():
    assert find_variant("multiplicity-plus") is V


# -- properties -------------------------------------------------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

from benchmarks.multiplicity import random_turn  # noqa: E402
from strategies import multiplicity_options  # noqa: E402
import random  # noqa: E402


def _seaworthy_turn(rng: random.Random) -> dict:
    """A/Fs at sea and on coasts with random moves, disembarkations and splits."""
    seas = ["eng", "mao", "nth", "iri", "nao"]
    units = {"France": [], "England": []}
    orders: dict[str, list[str]] = {"France": [], "England": []}
    m = V.map
    for i, sea in enumerate(seas):
        power = ["France", "England"][i % 2]
        a = rng.randint(0, 2)
        f = rng.randint(max(a, 1), 3)
        units[power].append(f"{a}A/{f}F({sea})" if a else f"{f}F({sea})")
        nbrs = sorted({m.province_of(n) for n in m.fleet_neighbours(sea)})
        for _ in range(a):
            orders[power].append(f"A({sea})-{rng.choice(nbrs)}" if rng.random() < 0.5 else f"A({sea}) Std")
        for _ in range(f):
            orders[power].append(f"F({sea})-{rng.choice(nbrs)}" if rng.random() < 0.5 else f"F({sea}) Std")
    return {"variant": "multiplicity", "units": units, "orders": orders}


def _pieces(pos) -> int:
    return sum(u.count for u in pos.units)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), multiplicity_options())
def test_units_conserved_and_provinces_single_power(seed, options):
    """Under every reading of the rule options (each field drawn from all its values)."""
    req = random_turn(random.Random(seed), min_units=40)
    res = adjudicate({**req, "options": options})
    dislodged = sum(res.position.units[i].count for i in res.dislodged)
    assert _pieces(res.after) + dislodged == _pieces(res.position)
    before = {}
    for u in res.position.units:
        before.setdefault(u.province, set()).add(u.power)
    after = {}
    for u in res.after.units:
        after.setdefault(u.province, set()).add(u.power)
    for prov, powers in after.items():  # no merges ordered: two powers only where they stood together
        assert len(powers) == 1 or powers == before.get(prov), (prov, powers)


def _with_agreed_merges(rng: random.Random, req: dict) -> tuple[dict, set]:
    """``req`` with some armies of two powers ordered to merge into a space both border (rule 5),
    both orders written or (to check it agrees to nothing) only one; the agreed (space, powers)."""
    m = V.map
    where = {}
    for power, specs in req["units"].items():
        for spec in specs:
            units = V.notation.unit_specs(power, spec)
            if any(u.kind == "A" for u in units):
                where[units[0].province] = power
    orders = {p: list(o) for p, o in req["orders"].items()}
    agreed, used = set(), set()
    provs = sorted(where)
    rng.shuffle(provs)
    for a in provs:
        for b in sorted(m.army_neighbours(a)):
            common = sorted((set(m.army_neighbours(a)) & set(m.army_neighbours(b))) - {a, b})
            pa, pb = where[a], where.get(b)
            if pb is None or pb == pa or not common or {a, b} & used:
                continue
            c = rng.choice(common)
            adj = {p: m.powers[p].adjective.upper() for p in (pa, pb)}
            both = rng.random() < 0.7
            for p, x, y, q in ((pa, a, b, pb), (pb, b, a, pa))[: 2 if both else 1]:
                i = next(i for i, o in enumerate(orders[p]) if o.startswith(f"A({x})"))
                orders[p][i] = f"A({x})-{c} MERGE with {adj[q]} A({y})-{c}"
            if both:
                agreed.add((c, frozenset((pa, pb))))
            used |= {a, b}
            break
    return {**req, "orders": orders}, agreed


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.integers(0, 10**6))
def test_two_powers_share_a_province_only_in_an_agreed_multinational_unit(seed):
    rng = random.Random(seed)
    req, agreed = _with_agreed_merges(rng, random_turn(rng, min_units=40))
    res = adjudicate(req)
    dislodged = sum(res.position.units[i].count for i in res.dislodged)
    assert _pieces(res.after) + dislodged == _pieces(res.position)
    after: dict[str, set] = {}
    for u in res.after.units:
        after.setdefault(u.province, set()).add(u.power)
    for prov, powers in after.items():
        assert len(powers) == 1 or (prov, frozenset(powers)) in agreed, (prov, powers, sorted(agreed))


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.integers(0, 10**6))
def test_result_independent_of_the_order_orders_are_listed(seed):
    """The order in which the powers' orders (and units) are listed changes nothing.  Within one
    power the order written is part of the orders (rule 6: "the last written support order is
    cut first"), so each power's list keeps its order."""
    req = random_turn(random.Random(seed), min_units=40)
    rng = random.Random(seed + 1)
    powers = list(req["orders"])
    rng.shuffle(powers)
    shuffled = {p: req["orders"][p] for p in powers}
    a = adjudicate(req)
    b = adjudicate({**req, "orders": shuffled, "units": dict(reversed(list(req["units"].items())))})
    assert a.after.units == b.after.units
    assert sorted((o.power, o.text, o.result) for o in a.outcomes) == sorted((o.power, o.text, o.result) for o in b.outcomes)


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), multiplicity_options())
def test_seaworthiness_never_violated_at_sea(seed, options):
    res = adjudicate({**_seaworthy_turn(random.Random(seed)), "options": options})
    assert _pieces(res.after) + sum(res.position.units[i].count for i in res.dislodged) == _pieces(res.position)
    for prov in {u.province for u in res.after.units if V.map.provinces[u.province].is_sea}:
        here = [u for u in res.after.units if u.province == prov]
        assert sum(u.count for u in here if u.kind == "A") <= sum(u.count for u in here if u.kind == "F"), prov


def test_merge_and_support_inside_attack_in_one_order():
    res = turn({"France": ["A(Bur)", "A(Par)"], "Italy": ["A(Bur)"]},
               {"France": ["A(Par)-Bur MERGE A(Bur) and support attack on ITALIAN A(Bur)", "A(Bur) attacks ITALIAN A(Bur)"]})
    assert [res.position.units[i].power for i in res.dislodged] == ["Italy"]
    att = outcome(res, "A(Bur) attacks ITALIAN A(Bur)")
    assert "attack 2 (A Bur + merging A Par) against defence 1 (A Bur)" in att.reason


def test_merge_attack_counts_only_when_the_merge_arrives():
    """A German army standing off the merge into Burgundy leaves the French attack at 1: it fails."""
    res = turn({"France": ["A(Bur)", "A(Par)"], "Italy": ["A(Bur)"], "Germany": ["A(Mun)"]},
               {"France": ["A(Par)-Bur MERGE A(Bur) and support attack on ITALIAN A(Bur)", "A(Bur) attacks ITALIAN A(Bur)"],
                "Germany": ["A(Mun)-Bur"]})
    assert outcome(res, "A(Par)-Bur MERGE A(Bur) and support attack on ITALIAN A(Bur)").result == "bounced"
    assert [res.position.units[i].label() for i in res.dislodged] == ["France: A Bur"]


def test_merged_army_retreats_from_where_it_merged():
    """Option merge_attack_failure = component: the Paris army that merged in retreats with the
    French component, from Burgundy (its retreat options are Burgundy's neighbours)."""
    from dipsat.game.pipeline import Pipeline

    res = turn({"France": ["A(Bur)", "A(Par)"], "Italy": ["2A(Bur)"]},
               {"France": ["A(Par)-Bur MERGE A(Bur) and support attack on ITALIAN A(Bur)"]})
    assert sorted(res.position.units[i].label() for i in res.dislodged) == ["France: A Bur", "France: A Par"]
    rr = Pipeline(V, V.rules()).retreats(res, {"France": ["2A(Bur)-Pic"]})
    assert {opt.open for opt in rr.options} == {("bel", "gas", "mar", "mun", "par", "pic", "ruh")}
    assert [u.label() for u in rr.after.units] == ["France: 2 A Pic", "Italy: 2 A Bur"]
    bad = "A(Par)-Bur MERGE A(Bur) and support attack on GERMAN A(Bur)"
    res = turn({"France": ["A(Bur)", "A(Par)"], "Italy": ["A(Bur)"]}, {"France": [bad]})
    assert "Burgundy holds no multinational unit of France and Germany" in outcome(res, bad).reason


# -- rule 12: the three-season postal year ---------------------------------------------------

def _postal(last=None, year="three_season", autumn=None, n=4):
    """The bundled postal example, its autumn or last sheet replaced, under one value of ``year``."""
    from dipsat.game.game import load_saved_game, replay

    from conftest import ROOT

    saved = load_saved_game(ROOT / "examples" / "multiplicity_postal.toml")
    phases = list(saved.phases)
    if autumn is not None:
        phases[2] = phases[2].model_copy(update={"orders": autumn})
    if last is not None:
        phases[3] = phases[3].model_copy(update={"orders": last})
    if year != "three_season":
        phases = [p.model_copy(update={"phase": None}) for p in phases]
    return replay(saved.model_copy(update={"options": {"year": year}, "phases": phases[:n]}))


def test_three_season_postal_year():
    g = Game("multiplicity", options={"year": "three_season"})
    assert g.phase_name == "S1900P"
    game = _postal()
    assert [r.name for r in game.history] == ["S1900P", "S1901M", "F1901M", "W1901A"]
    assert game.phase_name == "S1902M"
    autumn = game.history[2]
    # Spring retreats and Autumn: the retreat first, then the retreated army moves on from Albania
    assert [(o.text, o.result) for o in autumn.outcomes if o.power == "Austria"][:2] == [
        ("A(Tri)-Alb", "moved"), ("A(Alb)-Gre", "moved")]
    assert [p.__class__.__name__ for p in autumn.result.parts] == ["RetreatResult", "MovementResult"]
    # Autumn retreats and adjustments: the French retreat, then builds on the centres it leaves
    last = game.history[3]
    assert [p.__class__.__name__ for p in last.result.parts] == ["RetreatResult", "AdjustmentResult"]
    assert {u.short() for u in game.position.units if u.power == "France"} == {"A Gas", "A Par", "F Bre", "F Spa/sc"}


def test_postal_year_centres_change_after_the_autumn_retreats():
    """A retreat into a neutral centre in the phase of the adjustments gives it before the builds."""
    orders = {"France": ["A(Bur)-Bel", "Build F(Bre)", "Build A(Mar)"], "Italy": ["Build A(Ven)"], "Austria": ["Build A(Vie)"]}
    game = _postal(last=orders)
    assert game.centres()["France"] == 5
    assert [o.result for o in game.history[3].outcomes if o.power == "France"] == ["moved", "built", "built"]
    # retreating where no centre is to be had: one build, the second refused
    game = _postal(last={**orders, "France": ["A(Bur)-Gas", "Build F(Bre)", "Build A(Mar)"]})
    assert [o.result for o in game.history[3].outcomes if o.power == "France"] == ["moved", "built", "illegal"]


def test_postal_year_order_for_a_unit_whose_retreat_failed():
    """A retreat to where the attacker came from is no retreat (the army disbands); the autumn
    order written for it where it meant to go names no unit, and is rejected like any such order."""
    autumn = {"Austria": ["A(Tri)-Ven", "A(Ven)-Pie", "A(Gal) Std", "A(Ser) Std"], "Italy": ["2A(Tri) Std"]}
    game = _postal(autumn=autumn, last={})
    out = {o.text: o for o in game.history[2].outcomes if o.power == "Austria"}
    assert out["A(Tri)-Ven"].result == "illegal" and "the attacker came from Venice" in out["A(Tri)-Ven"].reason
    assert out["A(Ven)-Pie"].result == "illegal"
    assert out["A Tri (no retreat)"].result == "disbanded"
    assert not any(u.power == "Austria" and u.province in ("tri", "ven", "pie") for u in game.position.units)


def test_postal_year_skips_the_third_phase_when_nothing_is_due():
    autumn = {"Austria": ["A(Tri)-Alb", "A(Gal)-Vie", "A(Ser)-Bud"], "Italy": ["2A(Tri)-Ven"]}
    game = _postal(autumn=autumn, n=3)
    assert game.phase_name == "S1902M"
    assert {u.short() for u in game.position.units if u.power == "Austria"} == {"A Alb", "A Vie", "A Bud"}


def test_the_normal_year_has_its_own_retreat_phases():
    game = _postal(year="normal", autumn={"Austria": ["A(Tri)-Alb"]}, last={})
    assert [r.name for r in game.history][:4] == ["S1900P", "S1901M", "S1901R", "F1901M"]


# -- compare over the variant's own option values ---------------------------------------------

def test_compare_runs_each_value_of_the_variants_options(capsys):
    from dipsat.face.cli import main
    from dipsat.research.research import compare, option_settings

    settings = option_settings(V)
    assert settings[0].label == "multiplicity"
    labels = [st.label for st in settings[1:]]
    assert "cut_budget=order" in labels and "merge_attack_failure=attacker" in labels and "year=three_season" in labels
    assert not any(label.startswith("convoy_paradox_rule") for label in labels)  # the core's options: --rules
    cases = ["tests/corpora/multiplicity/r06_cut_budget_scope.toml", "tests/corpora/multiplicity/r05b_merge_attack_fails.toml",
             "tests/corpora/multiplicity/r04_merge.toml"]
    diffs, errors, n = compare(cases, settings, variant="multiplicity")
    assert not errors and n == 3
    by = {(d.case, d.order): d.results for d in diffs}
    budget = by[("MP.6.budget_scope", "France: A(Par)-Pic")]
    assert budget["multiplicity"] == "moved" and budget["cut_budget=order"] == "bounced"
    assert by[("MP.5.b.merge_attack_fails", "(dislodged)")]["merge_attack_failure=attacker"] == "France: A Bur"
    assert not any(case == "MP.4" for case, _ in by)
    assert main(["compare", "--variant", "multiplicity", "-q", *cases]) == 0
    out = capsys.readouterr().out
    assert "cut_budget=order: changes 1 case(s)" in out and "year=three_season: changes no case" in out
    # a case of another variant, and a variant without options of its own, are errors
    assert main(["compare", "--variant", "multiplicity", "-q", "tests/corpora/datc/6.A.01.toml"]) == 1
    assert "a case of the standard variant, not multiplicity" in capsys.readouterr().out
    assert main(["compare", "--variant", "standard", "tests/corpora/datc/6.A.01.toml"]) == 2
    assert "has no rule options of its own" in capsys.readouterr().err


def test_movement_through_the_core_hooks():
    """The variant's movement rules fill the core's hooks; the shared encoding builds the turn
    (no wholesale encode, and the core's path_open and prevent_zero mean what they say)."""
    from dipsat.board.movement import MovementRules
    from dipsat.game.pipeline import Pipeline
    from dipsat.variants.multiplicity.encoding import Enc
    from dipsat.variants.multiplicity.movement import MultiplicityRules

    for name in ("encode", "path_open", "prevent_zero"):
        assert getattr(MultiplicityRules, name) is getattr(MovementRules, name), name
    pos = build_position(V, TurnRequest(variant="multiplicity", units={"France": ["A(Bur)", "A(Par)"], "Italy": ["A(Bur)"]}))
    pipe = Pipeline(V, V.rules())
    enc = pipe.encode(pipe.bind(pos, {"France": ["A(Par)-Bur MERGE A(Bur) and support attack on ITALIAN A(Bur)"]}))
    assert isinstance(enc, Enc)
    kinds = {enc.system.kinds[k] for k in enc.system.defs}
    assert {"strength", "seaworthy", "inside", "force", "move"} <= kinds


def test_the_binder_keeps_what_it_read_in_the_bound_orders_not_on_itself():
    """The parse, the units given each order and the headers of split lines travel in the bound
    value; a header marks the parts of its own line only, whichever orders come before it."""
    units = {"France": ["4A(Par)", "A(Bre)"]}
    orders = {"France": ["A(Bre) Std", "4A(Par): A(Pic)Std, 2A(Pic)-Bur, A(Pic)-Gas"]}
    binder = V.binder(V.rules())
    before = set(vars(binder))
    pos = build_position(V, TurnRequest(variant="multiplicity", units=units))
    b = binder.bind(pos, orders)
    assert not {"_assign", "_parsed", "_line_headers"} & (set(vars(binder)) - before)
    assert [text for _, text, _, _ in b.parsed] == ["A(Bre) Std", "A(Pic)Std", "2A(Pic)-Bur", "A(Pic)-Gas"]
    headed = sorted(b.orders[u].text for u in b.split_headers)
    assert headed == ["2A(Pic)-Bur", "A(Pic)-Gas", "A(Pic)Std"]
    assert set(b.split_headers.values()) == {"4A(Par)"}
    res = adjudicate(TurnRequest(variant="multiplicity", units=units, orders=orders))
    assert next(o for o in res.outcomes if o.text == "A(Bre) Std").reason == "holds"
