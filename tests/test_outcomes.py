"""Outcomes are a discriminated union with typed culprits; the words are rendered from them."""

import dataclasses
import json

from dipsat.game.api import adjudicate
from dipsat.face.cli import main
from dipsat.outcomes import (OUTCOME_KINDS, Bounced, Cut, Dislodged, Given, Held, Moved, NoPath, OrderRef, Outcome, Refused,
                             Void, outcome_from)

from conftest import ROOT


def _turn(units, orders, **extra):
    return adjudicate({"units": units, "orders": orders, **extra})


def _by_text(res):
    return {o.text: o for o in res.outcomes}


def test_bounce_names_its_culprit_by_unit():
    res = _turn({"France": ["A Par"], "Germany": ["A Mun"]},
                {"France": ["A Par - Bur"], "Germany": ["A Mun - Bur"]})
    out = _by_text(res)
    o = out["A Par - Bur"]
    assert isinstance(o, Bounced) and o.kind == "bounced" and not o.succeeded
    (culprit,) = o.by
    assert isinstance(culprit, OrderRef)
    assert res.position.units[culprit.unit].label() == "Germany: A Mun"
    assert [ob.why for ob in o.obstacles] == ["prevent"]
    assert o.reason.startswith("fails — attack 1") and o.reason.endswith("bounced by A Mun - Bur: prevent 1 (A Mun)")


def test_dislodged_and_given_are_typed():
    res = _turn({"Austria": ["A Tyr", "A Boh", "A Sil"], "Germany": ["A Mun", "A Ruh"]},
                {"Austria": ["A Tyr - Mun", "A Boh S A Tyr - Mun", "A Sil S A Tyr - Mun"],
                 "Germany": ["A Ruh S A Mun"]})
    out = _by_text(res)
    assert isinstance(out["A Tyr - Mun"], Moved) and out["A Tyr - Mun"].succeeded
    assert isinstance(out["A Boh S A Tyr - Mun"], Given)
    mun = next(o for o in res.outcomes if o.power == "Germany" and o.order_kind == "hold")
    assert isinstance(mun, Dislodged) and not mun.succeeded
    assert mun.dislodged_by is not None and res.position.units[mun.dislodged_by.unit].label() == "Austria: A Tyr"
    assert mun.reason == "dislodged by A Tyr - Mun"
    assert isinstance(out["A Ruh S A Mun"], Given)  # not cut: the supported unit was simply outnumbered


def test_support_cut_by_typed_reference():
    res = _turn({"Austria": ["A Tyr", "A Boh"], "Germany": ["A Mun", "A Sil"]},
                {"Austria": ["A Tyr - Mun", "A Boh S A Tyr - Mun"], "Germany": ["A Sil - Boh"]})
    o = _by_text(res)["A Boh S A Tyr - Mun"]
    assert isinstance(o, Cut)
    assert [(r.power, r.text) for r in o.by] == [("Germany", "A Sil - Boh")]
    assert res.position.units[o.by[0].unit].label() == "Germany: A Sil"
    assert o.reason == "cut by A Sil - Boh"


def test_void_no_path_and_refused():
    res = _turn({"France": ["A Par", "A Bur", "A Bre", "F Eng"], "England": ["F Nth", "F Wal"]},
                {"France": ["A Par S A Bur - Pic", "A Bre - Lon", "F Eng C A Bre - Lon", "A Bur - Mun", "A Bur - Bur"],
                 "England": ["F Nth - Eng", "F Wal S F Nth - Eng"]})
    out = _by_text(res)
    void = out["A Par S A Bur - Pic"]
    assert isinstance(void, Void) and [r.text for r in void.by] == ["A Bur - Mun"]
    assert void.reason == "void: the supported unit was not ordered to move to Picardy (A Bur - Mun)"
    nopath = out["A Bre - Lon"]
    assert isinstance(nopath, NoPath) and [r.text for r in nopath.broken] == ["F Eng C A Bre - Lon"]
    assert nopath.reason == "no convoy path: F Eng C A Bre - Lon fails"
    assert isinstance(out["A Bur - Bur"], Refused) and out["A Bur - Bur"].kind in ("illegal", "invalid")


def test_every_kind_round_trips_through_its_tag():
    res = _turn({"France": ["A Par", "A Mar"], "Germany": ["A Mun"]},
                {"France": ["A Par - Bur", "A Mar S A Par - Bur"], "Germany": ["A Mun - Bur"]})
    for o in res.outcomes:
        back = outcome_from(o.model_dump())
        assert type(back) is type(o) and back == o and back.reason == o.reason
    assert set(OUTCOME_KINDS) >= {"moved", "bounced", "no_path", "held", "dislodged", "given", "cut", "void",
                                  "convoyed", "disrupted", "partial", "built", "disbanded", "waived", "illegal",
                                  "invalid", "ambiguous", "duplicate"}
    # succeeded is derived from the kind, never stored
    assert "succeeded" not in {f.name for f in dataclasses.fields(Outcome)}
    assert Held.SUCCEEDS and not Bounced.SUCCEEDS


def test_duplicate_orders_are_typed_not_found_in_prose():
    res = _turn({"France": ["A Par"]}, {"France": ["A Par - Bur", "A Par - Pic"]})
    kinds = sorted(o.kind for o in res.outcomes)
    assert kinds == ["duplicate", "duplicate", "held"]


def test_result_records_its_rules():
    res = _turn({"France": ["A Par"]}, {"France": ["A Par - Bur"]}, rules="1971")
    assert res.rules is not None and res.rules.name == "1971"
    assert res.position.variant == "standard"


def test_json_outcomes_carry_typed_culprits(capsys):
    assert main(["adjudicate", "--json", str(ROOT / "examples" / "pandin.toml")]) == 0
    data = json.loads(capsys.readouterr().out)
    with_culprits = [o for o in data["outcomes"] if o["by"]]
    assert with_culprits
    for o in with_culprits:
        assert [c["order"] for c in o["culprits"]] == o["by"]
        assert all(c["unit"] is None or ":" in c["unit"] for c in o["culprits"])


def test_adjustment_and_retreat_outcomes_are_typed():
    from dipsat.outcomes import Built, Disbanded, Waived

    res = adjudicate({"phase": "adjustment", "units": {"France": ["A Par"]},
                      "owners": {"France": ["Par", "Bre", "Mar"]},
                      "orders": {"France": ["Build F Brest", "Waive"]}})
    out = _by_text(res)
    assert isinstance(out["Build F Brest"], Built) and out["Build F Brest"].reason == "builds F Bre"
    assert isinstance(out["Waive"], Waived) and out["Waive"].reason == "build waived"
    res = adjudicate({"phase": "retreat", "units": {"Austria": ["A Tyr", "A Boh"], "Germany": ["A Mun"]},
                      "orders": {"Austria": ["A Tyr - Mun", "A Boh S A Tyr - Mun"]},
                      "retreat_orders": {"Germany": ["A Mun Disband"]}})
    (o,) = res.outcomes
    assert isinstance(o, Disbanded) and o.cause == "ordered" and o.reason == "disbanded as ordered"
    assert res.rules is not None and res.movement.rules == res.rules
