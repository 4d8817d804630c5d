"""Outcomes of every variant (the stacks core, Multinational, Multiplicity) carry their facts as
typed fields; their words are rendered from those fields alone."""

from dipsat.game.api import adjudicate
from dipsat.outcomes import Bounced, Dislodged, Given, Held, Obstacle, Outcome, Partial, outcome_from


def _outcomes(req: dict) -> dict[str, Outcome]:
    return {o.text: o for o in adjudicate(req).outcomes}


def _round_trip(o: Outcome) -> None:
    """The words come back from the typed values alone (JSON and back)."""
    assert outcome_from(o.model_dump()).reason == o.reason
    assert outcome_from(o.model_dump(mode="json")) == o


def test_a_stack_support_partly_cut_is_typed():
    out = _outcomes({"variant": "multiplomacy", "units": {"England": ["4 F Nth", "F Nwy", "F Lon"], "France": ["4 F Eng"]},
                     "orders": {"France": ["3 F Eng-Bre", "1 F Eng-Nth"],
                                "England": ["F Lon stands", "3 F Nth sup F Lon", "1 F Nth-Nwy", "F Nwy-Nwy"]}})
    p = out["3 F Nth sup F Lon"]
    assert isinstance(p, Partial) and (p.kept, p.total, p.published) == (2, 3, "2 F Nth sup F Lon; 1 F Nth sups F Lon")
    assert p.reason == "partly cut: 2 of 3 give support, 1 cut — published as '2 F Nth sup F Lon; 1 F Nth sups F Lon'"
    for o in out.values():
        _round_trip(o)


def test_displaced_stacks_and_bouncing_sides_are_typed():
    out = _outcomes({"variant": "multiplomacy",
                     "units": {"Germany": ["2 A Mun"], "Italy": ["3 A Swi"], "France": ["A Bur"], "Austria": ["3 A Boh"]},
                     "orders": {"Germany": ["2 A Mun stands"], "Italy": ["2 A Swi-Mun sup by 1 A Swi"],
                                "France": ["A Bur-Mun"], "Austria": ["3 A Boh sup FA Bur-Mun"]}})
    held = out["2 A Mun stands"]
    assert isinstance(held, Dislodged) and held.term == "displaced" and held.reason == "displaced by A Bur-Mun"
    italy = out["2 A Swi-Mun sup by 1 A Swi"]
    assert isinstance(italy, Bounced)
    assert any(ob.why == "prevent" and ob.label == "France" and ob.by.text == "A Bur-Mun" for ob in italy.obstacles)
    assert "bounced by France: prevent 4" in italy.reason
    given = out["3 A Boh sup FA Bur-Mun"]
    assert isinstance(given, Given) and given.units == 3 and given.reason == "support given by all 3"
    for o in out.values():
        _round_trip(o)




def test_multinational_phases_outside_movement_are_typed():
    """Placement, retreats and adjustments of the bundled Multinational game: every outcome is
    typed and its words come from its fields (the lots of a default removal as a typed value)."""
    from conftest import ROOT
    from dipsat.game.game import load_saved_game, replay

    game = replay(load_saved_game(ROOT / "examples" / "multinational_game.toml"), check=False)
    seen = set()
    for rec in game.history:
        for o in rec.outcomes:
            _round_trip(o)
            seen.add(o.kind)
    assert {"built", "moved", "held", "given"} <= seen


def test_multinational_tallies_and_flyovers_are_typed():
    """The seed's tallies ("Attacking strength: 5 (3 Sas, 2 Wyo)") and fly-overs are fields of the
    move's outcome, rendered as the seed writes them."""
    from conftest import ROOT
    from dipsat.game.api import adjudicate, load_request
    from dipsat.outcomes import Moved
    from dipsat.variants.multinational.details import NonAttack, Tally

    res = adjudicate(load_request(ROOT / "tests" / "corpora" / "multinational" / "mn_e.toml"))
    out = {o.text: o for o in res.outcomes}
    sas = out["M Sas – Alb"]
    tally = sas.details_of(Tally)
    assert isinstance(sas, (Moved, Bounced)) and [t.name for t in tally][:2] == ["attacking", "revised attacking"]
    assert tally[0].total == 5 and tally == sas.details
    assert "Attacking strength: 5 (3 Sas, 2 Wyo); Revised attacking strength: 3 (3 Sas)" in sas.reason
    fly = adjudicate(load_request(ROOT / "tests" / "corpora" / "multinational" / "mn_rule_flyover_allowance.toml"))
    flown = [o for o in fly.outcomes if [d.name for d in o.details_of(NonAttack)] == ["fly-over"]]
    assert flown and flown[0].reason.startswith("fly-over ")
    for o in (*res.outcomes, *fly.outcomes):
        _round_trip(o)


def test_multinational_default_removals_carry_their_lots():
    from dipsat.models import Position, Unit
    from dipsat.outcomes import Disbanded, Lots
    from dipsat.variants import find_variant
    from dipsat.variants.multinational.phases import _adjustments

    v = find_variant("multinational")
    m = v.map
    plain = sorted(p for p, d in m.provinces.items() if not d.is_sea and not d.supply_centre)[:2]
    pos = Position(variant="multinational", year=1992, season="winter", owners={"vir": "CC"},
                   units=tuple(Unit(power="CC", kind="E", location=p) for p in plain) + (Unit(power="CC", kind="M", location="vir"),))
    res = _adjustments(v, v.rules(), pos, {})
    first = res.outcomes[0]
    assert isinstance(first, Disbanded) and first.cause == "default" and isinstance(first.lots, Lots)
    assert first.lots.among == tuple(m.display(p) for p in plain)
    assert first.reason.startswith("removed by default (neutral states first, then controlled, then home) (lots drawn among ")
    for o in res.outcomes:
        _round_trip(o)


def test_multiplicity_outcomes_are_typed():
    """Multiplicity's merges, implied supports, cut budgets (rule 6), inside attacks (rule 5(b)),
    seaworthiness and stand-offs are fields of its outcomes; every corpus case's words come back
    from JSON."""
    from conftest import ROOT
    from dipsat.io.corpus import load_case, run_expectation, runs_of
    from dipsat.variants.multiplicity.details import ImpliedSupport, Sides

    seen: set[str] = set()
    for f in sorted((ROOT / "tests" / "corpora" / "multiplicity").glob("*.toml")):
        case = load_case(f)
        for rules, exp in runs_of(case):
            res = run_expectation(case, rules, exp, str(f)).result
            for o in getattr(res, "outcomes", ()):
                _round_trip(o)
                seen |= {d.kind for d in o.details}
    assert {"merge", "component_attack", "sea", "budget", "implied", "retreat_battle", "part_of", "sides"} <= seen

    out = _outcomes({"variant": "multiplicity", "units": {"France": ["A(Bur)", "A(Par)"], "Germany": ["A(Mun)"]},
                     "orders": {"France": ["A(Bur) Std", "A(Par)-Bur"], "Germany": ["A(Mun)-Bur"]}})
    merged = out["A(Par)-Bur"]
    assert isinstance(merged, Bounced) and merged.details_of(Sides)
    assert [ob.why for ob in merged.obstacles] == ["stand_off"] and merged.obstacles[0].label == "Germany"
    assert "stood off by Germany" in merged.reason
    held = out["A(Bur) Std"]
    implied = held.details_of(ImpliedSupport)
    assert isinstance(held, Held) and [(i.given, i.total) for i in implied] == [(0, 1)]
