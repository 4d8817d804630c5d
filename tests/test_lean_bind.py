"""The binder's lean parts answer as the parts they stand for: the one-step constructors make the
same values as ``build`` (every field, equality, hash, repr), and each variant's board tables
hold what its geography's hooks say of every province and location."""

import dataclasses

import pytest

from dipsat.models import (Hold, Move, Order, Support, Unit, new_hold, new_move, new_move_written, new_order, new_support,
                           new_unit)
from dipsat.variants import find_variant
from dipsat.game.registry import all_records
from dipsat.game.variant import Variant


def same(a: object, b: object) -> None:
    assert type(a) is type(b)
    names = [f.name for f in dataclasses.fields(a)]  # type: ignore[arg-type]
    assert [getattr(a, n) for n in names] == [getattr(b, n) for n in names]  # every slot set
    assert a == b and hash(a) == hash(b) and repr(a) == repr(b)
    assert a.model_dump() == b.model_dump()  # type: ignore[attr-defined]


def test_one_step_constructors_make_what_build_makes():
    same(new_hold(3), Hold.build(unit=3))
    same(new_move(2, "spa/nc"), Move.build(unit=2, dest="spa/nc"))
    same(new_move_written(4, "bur", False, ()), Move.build(unit=4, dest="bur", via_convoy=False, path=()))
    same(new_move_written(5, "nwy", True, ("nth",)), Move.build(unit=5, dest="nwy", via_convoy=True, path=("nth",)))
    same(new_order("France", "A Par - Bur", new_move(1, "bur")),
         Order.build(power="France", text="A Par - Bur", body=Move.build(unit=1, dest="bur")))
    same(new_support(1, 2, None), Support.build(unit=1, target=2, target_power=None))
    same(new_support(1, 2, "France"), Support.build(unit=1, target=2, target_power="France"))
    same(new_support(3, 0, None, "spa", "spa/nc"),
         Support.build(unit=3, target=0, dest="spa", dest_coast="spa/nc", target_power=None))
    same(new_support(3, 0, None, "bur", None),
         Support.build(unit=3, target=0, dest="bur", dest_coast=None, target_power=None))
    same(new_order("England", "F Lon H", new_hold(0)), Order.build(power="England", text="F Lon H", body=Hold.build(unit=0)))
    same(new_unit("France", "F", "spa/nc", 2), Unit(power="France", kind="F", location="spa/nc", count=2))


BOARDS = [r.name for r in all_records() if isinstance(r, Variant)]


@pytest.mark.parametrize("name", BOARDS)
def test_board_tables_answer_as_the_hooks(name):
    variant = find_variant(name)
    geo = variant.geography
    m = variant.map
    t = geo.tables
    assert t.stand == {p for p in m.provinces if geo.army_can_stand(p)}
    assert t.convoy_areas == {p for p in m.provinces if geo.convoy_area(p)}
    for loc in (*m.provinces, *m.coasts):
        assert t.province[loc] == m.province_of(loc)
    assert len(t.province) == len(m.provinces) + len(m.coasts)
    assert t.army_goes == {p for p in t.stand if m.passable(p)}
    assert t.fleet_goes == {p for p in m.provinces if m.passable(p) and not m.provinces[p].coasts and m.fleet_locations_in(p)}


def test_every_diplomacy_board_is_checked():
    assert {"standard", "multinational", "multiplomacy", "multiplicity"} <= set(BOARDS)


def test_records_are_frozen_and_validated_where_data_enters():
    """Units and orders are plain frozen records; a position given as data still has its units
    validated (a wrong type or an unknown field is refused, naming where) and written back."""
    from pydantic import ValidationError

    from dipsat.models import Position, Unit, order_body

    unit = Unit(power="France", kind="A", location="par")
    with pytest.raises(dataclasses.FrozenInstanceError):
        unit.location = "bur"  # type: ignore[misc]
    assert unit.updated(location="bur") == Unit(power="France", kind="A", location="bur") != unit
    pos = Position.model_validate({"units": [{"power": "France", "kind": "A", "location": "par"}]})
    assert pos.units == (unit,) and type(pos.units[0]) is Unit
    assert Position.model_validate_json(pos.model_dump_json()) == pos
    with pytest.raises(ValidationError, match=r"units\.0\.location"):
        Position.model_validate({"units": [{"power": "France", "kind": "A", "location": 3}]})
    with pytest.raises(ValidationError, match=r"units\.0\.colour"):
        Position.model_validate({"units": [{"power": "France", "kind": "A", "location": "par", "colour": "blue"}]})
    assert order_body({"kind": "move", "unit": 2, "dest": "bur"}) == Move(unit=2, dest="bur")
    with pytest.raises(ValidationError):
        order_body({"kind": "move", "unit": "two", "dest": "bur"})
