"""Multiplomacy (seed 001): properties on random stacked positions, builds, victory."""

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from dipsat.game.api import adjudicate, result_to_json
from dipsat.game.game import Game, StartSpec
from dipsat.variants import find_variant

V = find_variant("multiplomacy")
M = V.map
POWERS = sorted(M.powers)
LAND = sorted(p for p, d in M.provinces.items() if d.terrain in ("land", "coast"))
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def stacked_turns(draw):
    rnd = random.Random(draw(st.integers(0, 10**9)))
    provs = rnd.sample(LAND + sorted(p for p, d in M.provinces.items() if d.is_sea), rnd.randint(3, 10))
    units: dict[str, list[str]] = {}
    groups = []
    for prov in provs:
        power = rnd.choice(POWERS)
        kinds = ["A"] if M.provinces[prov].terrain == "land" else ["F"] if M.provinces[prov].is_sea else ["A", "F"]
        for kind in sorted(set(rnd.choices(kinds, k=rnd.randint(1, 2)))):
            loc = prov if kind == "A" or not M.provinces[prov].coasts else rnd.choice(M.provinces[prov].coasts)
            n = rnd.randint(1, 3)
            units.setdefault(power, []).append(f"{n} {kind} {loc}")
            groups.append((power, kind, loc, n))
    orders: dict[str, list[str]] = {}
    for power, kind, loc, n in groups:
        left = n
        while left:
            k = rnd.randint(1, left)
            left -= k
            me = f"{k} {kind} {loc}"
            nbrs = sorted(M.neighbours(kind, loc))
            r = rnd.random()
            if r < 0.45 and nbrs:
                text = f"{me}-{rnd.choice(nbrs)}"
            elif r < 0.75 and groups:
                p2, k2, l2, _ = rnd.choice(groups)
                n2 = sorted(M.neighbours(k2, l2))
                text = f"{me} sup {k2} {l2}-{rnd.choice(n2).split('/')[0]}" if n2 and rnd.random() < 0.6 else f"{me} sup {k2} {l2}"
            else:
                text = f"{me} stands"
            orders.setdefault(power, []).append(text)
    return {"variant": "multiplomacy", "units": units, "orders": orders}


def _count(pos):
    return sum(u.count for u in pos.units)


@SETTINGS
@given(stacked_turns())
def test_one_nation_per_province_and_units_conserved(req):
    res = adjudicate(req)
    owner = {}
    for u in res.after.units:
        assert owner.setdefault(u.province, u.power) == u.power, f"two nations in {u.province}"
    dislodged = sum(res.position.units[i].count for i in res.dislodged)
    assert _count(res.after) + dislodged == _count(res.position)


@SETTINGS
@given(stacked_turns(), st.randoms(use_true_random=False))
def test_listing_order_does_not_matter(req, rnd):
    """Powers and units may be listed in any order; each power's orders keep their written
    order (rule 7 makes it matter for supports from one province)."""
    ref = result_to_json(adjudicate(req))
    powers = list(req["orders"])
    rnd.shuffle(powers)
    shuffled = {"variant": "multiplomacy",
                "units": {p: rnd.sample(v, len(v)) for p, v in reversed(list(req["units"].items()))},
                "orders": {p: req["orders"][p] for p in powers}}
    got = result_to_json(adjudicate(shuffled))
    assert got["units_after"] == ref["units_after"] and got["dislodged"] == ref["dislodged"]


def test_count_larger_than_units_present_is_an_error():
    res = adjudicate({"variant": "multiplomacy", "units": {"England": ["2 F Nth"]}, "orders": {"England": ["3 F Nth-Nwy"]}})
    (o,) = [o for o in res.outcomes if o.order_kind == "rejected"]
    assert "3 fleets ordered in North Sea" in o.reason and "only 2" in o.reason


def test_builds_one_per_home_province_even_where_own_units_stand():
    res = adjudicate({"variant": "multiplomacy", "phase": "adjustment",
                      "units": {"England": ["2 F Lon"]},
                      "owners": {"England": ["Lon", "Edi", "Lvp", "Wal", "Yor"]},
                      "orders": {"England": ["Build F Lon", "Build A Lon", "Build A Wal", "Build A Par"]}})
    by = {o.text: o.result for o in res.outcomes}
    assert by == {"Build F Lon": "built", "Build A Lon": "illegal", "Build A Wal": "built", "Build A Par": "illegal"}
    assert sorted(u.short() for u in res.after.units) == ["3 F Lon", "A Wal"]


def test_game_opens_the_winter_adjustment_where_own_units_stand_on_every_home():
    """Rule 10: "The number of units originally occupying the province is irrelevant": a nation
    whose own units stand on all its home provinces can still build there, so the game must open
    the adjustment phase (it used to skip it, and counted a stack of 2 as one unit)."""
    start = StartSpec(year=1901, season="fall", units={"England": ["2 F Lon", "A Lvp", "F Edi"]},
                      owners={"England": ["Lon", "Edi", "Lvp", "Bel", "Hol"]})
    g = Game("multiplomacy", start=start)
    g.step({})
    assert g.phase_name == "W1901A"
    rec = g.step({"England": ["Build A Lon"]})
    assert [o.result for o in rec.outcomes if o.text == "Build A Lon"] == ["built"]
    assert sorted(u.short() for u in g.position.units) == ["2 F Lon", "A Lon", "A Lvp", "F Edi"]


def test_victory_needs_two_consecutive_years():
    many = sorted(p for p in M.supply_centres())[:29]
    start = StartSpec(year=1905, season="fall", units={"France": ["A Par"]}, owners={"France": many})
    g = Game("multiplomacy", start=start)
    g.step({})  # Fall 1905: 29 centres once
    assert g.winner is None
    while g.phase_name != "F1906M":
        g.step({})
    g.step({})
    assert g.winner == "France"


def _greedy_cuts(units: list[str | None], aims: list[str | None]) -> list[bool]:
    """Brute force: attacking units (each the province it cannot cut towards) take supporting
    units in cutting order; a slot is cut when the slots cut so far plus it can still be matched
    to distinct attacking units (augmenting paths)."""
    chosen: list[int] = []
    out = []
    for j in range(len(aims)):
        trial = chosen + [j]
        owner: dict[int, int] = {}

        def augment(s: int, seen: set[int]) -> bool:
            for a, key in enumerate(units):
                if (key is not None and key == aims[s]) or a in seen:
                    continue
                seen.add(a)
                if a not in owner or augment(owner[a], seen):
                    owner[a] = s
                    return True
            return False

        ok = all(augment(s, set()) for s in trial)
        out.append(ok)
        if ok:
            chosen.append(j)
    return out


@given(st.lists(st.tuples(st.sampled_from(["a", "b", None]), st.integers(1, 3)), max_size=4),
       st.lists(st.sampled_from(["a", "b", "c", None]), min_size=1, max_size=7))
@settings(max_examples=300, deadline=None, derandomize=True)
def test_slot_cut_closed_form_matches_greedy_matching(units, aims):
    from dipsat.board.stacks import slot_cut

    group = [(k, w, True) for k, w in units]
    got = [slot_cut(group, j, aims[j - 1], aims[: j - 1]) for j in range(1, len(aims) + 1)]
    assert got == _greedy_cuts([k for k, w in units for _ in range(w)], aims)


def test_adjudicate_text_output_of_the_new_readings(capsys):
    """The text of `dipsat adjudicate` for the results issue 10 touched: a support cut past an
    uncuttable one, a combined head-to-head, a convoy that carried nothing."""
    from dipsat.face.cli import main

    from conftest import ROOT

    corp = ROOT / "tests" / "corpora"
    assert main(["adjudicate", str(corp / "multiplomacy" / "m7_cut_skips_immune.toml")]) == 0
    out = capsys.readouterr().out
    assert "FAIL 1 F Nth sups F Edi      cut by F Eng-Nth" in out
    assert "ok   1 F Nth sups F Lon-Eng  support given" in out
    assert main(["adjudicate", str(corp / "multiplomacy" / "m6_head_to_head_partial.toml")]) == 0
    out = capsys.readouterr().out
    assert "FAIL 2 A Mar-Pie     fails — attack 2 (2 A Mar) head-to-head against force 2 (A Pie ×2)" in out
    assert main(["adjudicate", str(corp / "regressions" / "convoy_without_path.toml")]) == 0
    out = capsys.readouterr().out
    assert "FAIL F Nth C A Wal - Yor  not carried out: A Wal - Yor has no convoy path" in out


def test_play_counts_pieces_for_the_winter_adjustment():
    """Regression: ``dipsat play`` counted unit records, not pieces, so Germany with one centre
    and ``3 F Nth`` went straight to S1902M instead of disbanding two fleets in W1901A."""
    start = StartSpec(year=1901, season="fall", units={"Germany": ["3 F Nth"]}, owners={"Germany": ["kie"]})
    game = Game("multiplomacy", start=start)
    game.step({})
    assert game.phase_name == "W1901A"
    rec = game.step({"Germany": ["Disband 2 F Nth"]})
    assert [u.count for u in rec.after.units if u.power == "Germany"] == [1]
    assert game.phase_name == "S1902M"


def test_force_decisions_are_described_as_forces():
    """Regression: ``describe_decision`` labelled a stack's force decisions as convoy paths."""
    from dipsat.game.api import TurnRequest
    from dipsat.research.research import _prepare, describe_decision

    req = TurnRequest(variant="multiplomacy", units={"Germany": ["2 A Mun"], "Russia": ["A Sil"]},
                      orders={"Germany": ["2 A Mun - Sil"], "Russia": ["A Sil H"]})
    enc = _prepare(req).enc
    forces = [k for k in enc.system.defs if k.kind == "force"]
    assert forces
    texts = [describe_decision(enc, k, True) for k in forces] + [describe_decision(enc, k, False) for k in forces]
    assert all("force" in t and "convoy" not in t for t in texts), texts
