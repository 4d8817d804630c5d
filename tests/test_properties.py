"""Properties of random standard turns (hypothesis; derandomised so CI is deterministic)."""

from hypothesis import HealthCheck, given, settings, strategies as st

from solver.api import adjudicate, result_to_json
from variants import find_variant

MAP = find_variant("standard").map
POWERS = sorted(MAP.powers)
ARMY_LOCS = sorted(p for p, d in MAP.provinces.items() if d.terrain in ("land", "coast"))
FLEET_LOCS = sorted(MAP.fleet_graph.nodes)


def _txt(loc: str) -> str:
    return loc.replace("/", "/")


@st.composite
def turns(draw):
    n = draw(st.integers(min_value=2, max_value=18))
    used: set[str] = set()
    units = []
    for _ in range(n):
        kind = draw(st.sampled_from("AF"))
        loc = draw(st.sampled_from(ARMY_LOCS if kind == "A" else FLEET_LOCS))
        prov = loc.split("/")[0]
        if prov in used:
            continue
        used.add(prov)
        units.append((draw(st.sampled_from(POWERS)), kind, loc))
    orders: dict[str, list[str]] = {}
    for power, kind, loc in units:
        nbrs = sorted(MAP.neighbours(kind, loc))
        choice = draw(st.sampled_from(["hold", "move", "move", "support", "convoy"]))
        me = f"{kind} {_txt(loc)}"
        if choice == "move" and nbrs:
            text = f"{me} - {_txt(draw(st.sampled_from(nbrs)))}"
        elif choice == "support" and len(units) > 1:
            _, k2, l2 = draw(st.sampled_from(units))
            n2 = sorted(MAP.neighbours(k2, l2))
            if n2 and draw(st.booleans()):
                text = f"{me} S {k2} {_txt(l2)} - {_txt(draw(st.sampled_from(n2)).split('/')[0])}"
            else:
                text = f"{me} S {k2} {_txt(l2)}"
        elif choice == "convoy" and kind == "F":
            armies = [u for u in units if u[1] == "A"]
            if not armies:
                text = f"{me} H"
            else:
                _, _, l2 = draw(st.sampled_from(armies))
                text = f"{me} C A {l2} - {draw(st.sampled_from(ARMY_LOCS))}"
        else:
            text = f"{me} H"
        orders.setdefault(power, []).append(text)
    spec: dict[str, list[str]] = {}
    for power, kind, loc in units:
        spec.setdefault(power, []).append(f"{kind} {loc}")
    return {"units": spec, "orders": orders}


SETTINGS = settings(max_examples=200, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@SETTINGS
@given(turns())
def test_board_invariants(req):
    res = adjudicate(req)
    provinces = [u.province for u in res.after.units]
    assert len(provinces) == len(set(provinces)), "two units in one province"
    assert len(res.after.units) + len(res.dislodged) == len(res.position.units), "units not conserved"
    per_unit = [o.unit for o in res.outcomes if o.order_kind != "rejected"]
    assert sorted(per_unit) == list(range(len(res.position.units))), "not one outcome per unit"
    for u in res.dislodged:
        assert res.dislodged_by[u] is not None


@SETTINGS
@given(turns(), st.randoms(use_true_random=False))
def test_order_of_submission_does_not_matter(req, rnd):
    ref = result_to_json(adjudicate(req))
    powers = list(req["orders"])
    rnd.shuffle(powers)
    shuffled = {"units": {p: list(reversed(v)) for p, v in reversed(list(req["units"].items()))},
                "orders": {p: rnd.sample(req["orders"][p], len(req["orders"][p])) for p in powers}}
    assert result_to_json(adjudicate(shuffled)) == ref
