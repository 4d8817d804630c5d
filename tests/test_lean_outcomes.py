"""Outcomes and what they name (culprits, obstacles, spared moves, lots) are plain frozen records
(:class:`dipsat.models.DictRecord`), made in one step by the explanation hooks: every record a
turn makes holds exactly its class's fields (and every strength its sum), the one-step makers
make what ``build`` makes, a record cannot be changed, ``build`` names a wrong field, and
pydantic still reads them from data (errors naming the field) and writes them as it writes a
model."""

import dataclasses
import json

import pytest
from pydantic import ValidationError

from benchmarks import workload
from dipsat.game.api import adjudicate
from dipsat.models import DictRecord, make_record, new_record
from dipsat.outcomes import (Bounced, Built, Disbanded, Held, Moved, MovementResult, Obstacle, OrderRef, Outcome,
                             Refused, Spared, Strength, outcome_from)

from conftest import ROOT


def records_in(value: object) -> list[DictRecord]:
    """Every record in a value: itself and those its fields hold, however deep."""
    if isinstance(value, DictRecord):
        return [value, *(r for f in dataclasses.fields(value) for r in records_in(getattr(value, f.name)))]
    if isinstance(value, (tuple, list)):
        return [r for v in value for r in records_in(v)]
    return []


def assert_whole(record: DictRecord) -> None:
    """The record holds its class's fields, no other, each of a value ``build`` takes."""
    names = [f.name for f in dataclasses.fields(record)]
    assert sorted(vars(record)) == sorted(names), type(record).__name__
    rebuilt = type(record).build(**{n: getattr(record, n) for n in names})
    assert rebuilt == record and hash(rebuilt) == hash(record) and repr(rebuilt) == repr(record)
    assert rebuilt.model_dump() == record.model_dump()


@pytest.mark.parametrize("explain", [True, False])
def test_every_record_of_random_turns_holds_its_fields(explain):
    seen: set[type] = set()
    for turn in workload.generate(7, 60):
        res = adjudicate({k: v for k, v in turn.items() if k != "id"}, explain=explain)
        for r in records_in(list(res.outcomes)):
            assert_whole(r)
            seen.add(type(r))
        for o in res.outcomes:  # a strength made in one step (models.new_strength) is the one its constructor makes
            for st in (*o.strengths, *(ob.strength for ob in getattr(o, "obstacles", ()) if ob.strength is not None)):
                again = Strength(st.name, st.owner, st.terms)
                assert st == again and st.value == again.value and repr(st) == repr(again) and hash(st) == hash(again)
                seen.add(Strength)
    assert {Moved, Bounced, Held, OrderRef} <= seen
    assert explain is False or Strength in seen
    assert explain is False or Obstacle in seen


def test_every_record_of_the_variants_corpora_holds_its_fields():
    """The stacks core, Multinational and Multiplicity make outcomes of their own hooks."""
    from dipsat.io.corpus import load_case, run_expectation, runs_of

    seen: set[type] = set()
    for family in ("multiplomacy", "multinational", "multiplicity", "standard"):
        for f in sorted((ROOT / "tests" / "corpora" / family).glob("*.toml"))[:40]:
            case = load_case(f)
            for rules, exp in runs_of(case):
                res = run_expectation(case, rules, exp, str(f)).result
                for r in records_in(list(getattr(res, "outcomes", ()))):
                    assert_whole(r)
                    seen.add(type(r))
    assert {Moved, Bounced, Held, OrderRef, Obstacle} <= seen


def test_the_one_step_makers_make_what_build_makes():
    ref = new_record(OrderRef, {"power": "Germany", "text": "A Mun - Bur", "unit": 1})
    assert ref == OrderRef.build(power="Germany", text="A Mun - Bur", unit=1) == OrderRef(power="Germany", text="A Mun - Bur", unit=1)
    made = make_record(Bounced, {"order_kind": "move", "power": "France", "text": "A Par - Bur", "unit": 0, "by": (ref,),
                                 "obstacles": (Obstacle.build(why="prevent", by=ref),)})
    built = Bounced.build(order_kind="move", power="France", text="A Par - Bur", unit=0, by=(ref,),
                          obstacles=(Obstacle(why="prevent", by=ref),))
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built) and made.reason == built.reason
    assert made != Moved.build(order_kind="move", power="France", text="A Par - Bur", unit=0)


def test_a_record_is_frozen_and_build_names_a_wrong_field():
    held = Held.build(power="France", text="A Par H", unit=0, order_kind="hold")
    with pytest.raises(dataclasses.FrozenInstanceError):
        held.text = "A Par - Bur"  # type: ignore[misc]
    assert held.updated(unit=1).unit == 1 and held.unit == 0
    with pytest.raises(TypeError, match="unknown field.*colour"):
        Held.build(power="France", text="A Par H", order_kind="hold", colour="blue")
    with pytest.raises(TypeError, match="missing field.*order_kind"):
        Held.build(power="France", text="A Par H")
    with pytest.raises(TypeError, match="takes no reason"):
        Held.build(power="France", text="A Par H", order_kind="hold", reason="holds")
    assert type(Outcome.build(result="held", power="France", text="A Par H", order_kind="hold")) is Held


def test_pydantic_reads_and_writes_them():
    res = adjudicate({"units": {"France": ["A Par", "A Mar"], "Germany": ["A Mun"]},
                      "orders": {"France": ["A Par - Bur", "A Mar S A Par - Bur"], "Germany": ["A Mun - Bur"]}})
    bounced = next(o for o in res.outcomes if isinstance(o, Bounced))
    data = bounced.model_dump(mode="json")
    assert json.loads(json.dumps(data)) == data and data["obstacles"][0]["by"]["text"] == "A Par - Bur"
    assert "value" not in data["strengths"][0]  # a strength's sum is not written (it is derived)
    assert outcome_from(data) == bounced and outcome_from(bounced.model_dump()) == bounced
    with pytest.raises(ValidationError, match=r"obstacles\.0\.why"):
        outcome_from({**data, "obstacles": [{**data["obstacles"][0], "why": "nowhere"}]})
    with pytest.raises(ValidationError, match="colour"):
        outcome_from({**data, "colour": "blue"})
    # a movement result written by pydantic writes each outcome as its class does
    written = res.model_dump(mode="json")["outcomes"]
    assert written == [o.model_dump(mode="json") for o in res.outcomes]
    # and reads each outcome of a result back by its kind tag
    for back in (MovementResult.model_validate(res.model_dump()), MovementResult.model_validate_json(res.model_dump_json())):
        assert back.outcomes == res.outcomes and [type(o) for o in back.outcomes] == [type(o) for o in res.outcomes]
    data = res.model_dump(mode="json")
    with pytest.raises(ValidationError, match=r"outcomes\.2[\s\S]*obstacles\.0\.why"):
        MovementResult.model_validate({**data, "outcomes": [*data["outcomes"][:2], {**data["outcomes"][2], "obstacles": [
            {**data["outcomes"][2]["obstacles"][0], "why": "nowhere"}]}]})
    assert Spared.build(by=bounced.by[0], why="rule").model_dump()["by"]["unit"] == bounced.by[0].unit


def test_retreat_and_adjustment_results_write_and_read_their_outcomes_by_kind():
    """Every phase's result writes each outcome as its class does (a refused order's message, a
    disband's cause) and reads it back by its kind tag, as a movement result does."""
    from dipsat.board.adjustments import AdjustmentResult
    from dipsat.board.retreats import RetreatResult
    from dipsat.game.api import read_data_file
    from dipsat.game.families import find_game
    from dipsat.limits import DEFAULT_LIMITS

    seen: set[type] = set()
    for name in ("6.H.01", "6.H.03", "6.H.04", "6.I.01", "6.I.02"):
        path = ROOT / "tests" / "corpora" / "datc" / f"{name}.toml"
        game = find_game("standard")
        req = game.read(read_data_file(path), str(path), DEFAULT_LIMITS)
        res = game.adjudicate(req, game.options(req))
        res = getattr(res, "native", res)
        assert isinstance(res, (RetreatResult, AdjustmentResult)), name
        written = res.model_dump(mode="json")["outcomes"]
        assert written == [o.model_dump(mode="json") for o in res.outcomes]
        for back in (type(res).model_validate(res.model_dump()), type(res).model_validate_json(res.model_dump_json())):
            assert back.outcomes == res.outcomes and [type(o) for o in back.outcomes] == [type(o) for o in res.outcomes]
        seen |= {type(o) for o in res.outcomes}
    assert {Refused, Disbanded, Built, Moved} <= seen
