"""The coast options govern every phase alike (issue 27): one reading of a written place.

For random positions, units and coast-bearing order texts, under random values of the coast
options, the verdict on a written destination is the same for a move and for a retreat to the
same (open) province: the same refusal with the same words, or the same place reached.  On every
Diplomacy board with coasts (standard, Multiplomacy, Multiplicity Plus).
"""

from __future__ import annotations

from typing import Optional

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dipsat.models import Move, Position, Unit
from dipsat.outcomes import Moved, MovementResult, Refused
from dipsat.game.pipeline import Pipeline
from dipsat.variants import find_variant

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
COAST_OPTIONS = {
    "missing_coast_single": ("attempt", "fail"),
    "impossible_coast": ("illegal", "ignore"),
    "wrong_unit_coast": ("ignore", "fail"),
    "irrelevant_coast": ("ignore", "fail"),
    "wrong_unit_kind": ("ignore", "fail"),
}
COASTS = (None, None, "nc", "sc", "ec")
VARIANTS = ("standard", "multiplomacy", "multiplicity")


def _written(variant: str, kind: str, place: str) -> str:
    """A unit as each board's players write it."""
    return f"{kind}({place})" if variant == "multiplicity" else f"{kind} {place}"


@st.composite
def coast_orders(draw, variant_name: str):
    variant = find_variant(variant_name)
    m = variant.map
    kind = draw(st.sampled_from("AFF"))
    locs = sorted(loc for loc in (m.army_graph.nodes if kind == "A" else m.fleet_graph.nodes)
                  if (m.is_army_location(loc) if kind == "A" else m.is_fleet_location(loc)))
    split = sorted(p for p, d in m.provinces.items() if d.coasts)
    if draw(st.booleans()):  # half the time next to a province of several coasts, where coasts matter most
        target = draw(st.sampled_from(split))
        locs = [x for x in locs if any(m.province_of(n) == target for n in m.neighbours(kind, x))]
    loc = draw(st.sampled_from(locs))
    prov = m.province_of(loc)
    dests = sorted({m.province_of(n) for n in m.neighbours(kind, loc)} - {prov})
    dests = [d for d in dests if m.passable(d)]
    if not dests:
        return None
    near_split = [d for d in dests if d in split]
    dest = draw(st.sampled_from(near_split if near_split and draw(st.booleans()) else dests))
    power = draw(st.sampled_from(sorted(m.powers)))
    # other units, of any power, away from the two provinces (the destination stays open)
    used = {prov, dest}
    others: list[Unit] = []
    for _ in range(draw(st.integers(0, 5))):
        k = draw(st.sampled_from("AF"))
        pool = [x for x in (m.army_graph.nodes if k == "A" else m.fleet_graph.nodes)
                if m.province_of(x) not in used and (m.is_army_location(x) if k == "A" else m.is_fleet_location(x))]
        if not pool:
            continue
        x = draw(st.sampled_from(sorted(pool)))
        used.add(m.province_of(x))
        others.append(Unit(power=draw(st.sampled_from(sorted(m.powers))), kind=k, location=x))
    # the order as written: a kind letter (wrong now and then on the standard board, where the
    # letter does not choose among units), a coast on the unit, a coast on the destination
    written_kind = draw(st.sampled_from([kind, kind, "F" if kind == "A" else "A"])) if variant_name == "standard" else kind
    unit_coast = draw(st.sampled_from(COASTS))
    dest_coast = draw(st.sampled_from(COASTS))
    here = m.display(prov) + (f"/{unit_coast}" if unit_coast else "")
    there = m.display(dest) + (f"/{dest_coast}" if dest_coast else "")
    text = f"{_written(variant_name, written_kind, here)} - {there}"
    options = {name: draw(st.sampled_from(values)) for name, values in COAST_OPTIONS.items()}
    return Unit(power=power, kind=kind, location=loc), tuple(others), text, options


def _verdict_of_move(pipe: Pipeline, pos: Position, power: str, text: str) -> tuple[str, str]:
    bound = pipe.bind(pos, {power: [text]})
    for r in bound.rejected:
        if r.text == text:
            return r.severity, r.reason
    order = bound.orders[0]
    assert isinstance(order.body, Move), order
    return "reaches", pipe.variant.map.display(order.body.dest)


def _verdict_of_retreat(pipe: Pipeline, pos: Position, power: str, text: str) -> tuple[str, str]:
    holds = pipe.movement(pos, {})
    mv = holds.model_copy(update={"dislodged": (0,), "dislodged_by": {}, "contested": (), "failed_into": (),
                                  "after": pos.model_copy(update={"units": pos.units[1:]})})
    assert isinstance(mv, MovementResult)
    res = pipe.retreats(mv, {power: [text]})
    mine = [o for o in res.outcomes if o.text == text]
    assert len(mine) == 1, res.outcomes
    o = mine[0]
    if isinstance(o, Refused):
        return o.kind, o.message
    assert isinstance(o, Moved), o
    assert o.dest is not None
    return "reaches", o.dest


def _check(variant_name: str, drawn: Optional[tuple]) -> None:
    if drawn is None:
        return
    unit, others, text, options = drawn
    variant = find_variant(variant_name)
    pipe = Pipeline(variant, variant.rules(None, **options))
    pos = Position(variant=variant.name, year=1901, season="spring", units=(unit, *others))
    move = _verdict_of_move(pipe, pos, unit.power, text)
    retreat = _verdict_of_retreat(pipe, pos, unit.power, text)
    assert move == retreat, (text, options, move, retreat)


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_a_written_destination_reads_the_same_in_a_move_and_a_retreat(variant_name):
    @SETTINGS
    @given(coast_orders(variant_name))
    def run(drawn):
        _check(variant_name, drawn)

    run()


def test_the_issue_example_is_illegal_in_both_phases():
    """The order of issue 27: a fleet in Norway cannot reach St Petersburg's south coast, as a
    move (DATC 4.B.3) or as a retreat; with impossible_coast = ignore both reach the north coast."""
    fleet = Unit(power="England", kind="F", location="nwy")
    for value, want in (("illegal", "illegal"), ("ignore", "reaches")):
        _check("standard", (fleet, (), "F nwy - stp/sc", {"impossible_coast": value}))
        variant = find_variant("standard")
        pipe = Pipeline(variant, variant.rules(None, impossible_coast=value))
        pos = Position(variant="standard", year=1901, season="spring", units=(fleet,))
        verdict = _verdict_of_retreat(pipe, pos, "England", "F nwy - stp/sc")
        assert verdict[0] == want
        assert ("DATC 4.B.3" in verdict[1]) if want == "illegal" else verdict[1] == "Stp/nc"


@pytest.mark.parametrize("value", ["ignore", "fail"])
def test_a_coast_on_a_board_of_states_is_irrelevant_in_every_phase(value):
    """Multinational's map has no coasts: a written coast is read by irrelevant_coast in a move,
    a retreat (see the corpus cases MN.rule.retreat_coast*) and a build alike."""
    variant = find_variant("multinational")
    pipe = Pipeline(variant, variant.rules(None, irrelevant_coast=value))
    owners = {"uta": "AT", "neb": "AT", "kan": "AT"}
    pos = Position(variant=variant.name, year=1992, season="winter", units=(), owners=owners)
    res = pipe.adjustments(pos, {"AT": ["Build E Uta/nc", "Build M Neb"]})
    first = next(o for o in res.outcomes if o.text == "Build E Uta/nc")
    if value == "ignore":
        assert first.succeeded
        assert {(u.kind, u.location) for u in res.after.units} == {("E", "uta"), ("M", "neb")}
    else:
        assert isinstance(first, Refused) and "rule option irrelevant_coast=fail" in first.message
        assert {(u.kind, u.location) for u in res.after.units} == {("M", "neb")}


def test_every_fleet_next_to_a_split_coast_reads_its_coasts_alike_in_both_phases():
    """Exhaustively on the standard board, where the coast options matter most: every fleet next to
    a province of several coasts, every way of writing the coast (none, each coast word), under
    every value of the destination's coast options."""
    m = find_variant("standard").map
    split = sorted(p for p, d in m.provinces.items() if d.coasts)
    seen: set[str] = set()
    for target in split:
        for loc in sorted(x for x in m.fleet_graph.nodes if any(m.province_of(n) == target for n in m.fleet_neighbours(x))):
            if m.province_of(loc) == target:
                continue
            for coast in (None, "nc", "sc", "ec"):
                text = f"F {m.display(loc)} - {m.display(target)}" + (f"/{coast}" if coast else "")
                for missing in COAST_OPTIONS["missing_coast_single"]:
                    for impossible in COAST_OPTIONS["impossible_coast"]:
                        for irrelevant in COAST_OPTIONS["irrelevant_coast"]:
                            options = {"missing_coast_single": missing, "impossible_coast": impossible,
                                       "irrelevant_coast": irrelevant}
                            _check("standard", (Unit(power="England", kind="F", location=loc), (), text, options))
                seen.add(text)
    assert len(seen) > 40


def test_dipsat_rules_says_which_phases_each_coast_option_governs(capsys):
    from dipsat.face.cli import main

    assert main(["rules"]) == 0
    lines = {line.split("=")[0].strip(): line for line in capsys.readouterr().out.splitlines() if "=" in line}
    for name in ("missing_coast_single", "impossible_coast", "wrong_unit_coast", "irrelevant_coast"):
        assert "governs" in lines[name] and "retreats" in lines[name], lines[name]
    assert "builds" in lines["irrelevant_coast"] and "disbands" in lines["wrong_unit_coast"]
