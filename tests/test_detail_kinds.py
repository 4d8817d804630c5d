"""Outcome details are open the way order kinds are: a package outside the core registers a
detail kind (tests/detail_kind_example), outcomes of the core's closed set of kinds carry it, its
hooks say its part of the words, and it goes to JSON and back; the core's outcome kinds name no
detail of a variant."""

import dataclasses
import typing

import pytest

from dipsat.game.results import outcome_details
from dipsat.models import Position, Unit
from dipsat.outcomes import (DETAIL_KINDS, OUTCOME_CLASSES, Bounced, Detail, Held, Moved, Outcome, OrderRef, outcome_from,
                             register_detail_kind)
from dipsat.variants import VARIANTS

from detail_kind_example import Omen

POS = Position(units=(Unit(power="France", kind="A", location="par"), Unit(power="Germany", kind="A", location="mun")))


def test_a_package_registers_a_detail_kind_whose_hooks_say_its_words():
    moved = Moved.build(power="France", text="A Par-Bur", unit=0, order_kind="move", details=(Omen(sign="good"),))
    assert moved.reason == "moves under a good omen; the augurs were consulted"
    held = Held.build(power="France", text="A Par H", unit=0, order_kind="hold", details=(Omen(sign="dark"),))
    assert held.reason == "holds; the augurs were consulted"
    bounced = Bounced.build(power="France", text="A Par-Bur", unit=0, order_kind="move",
                            by=(OrderRef(power="Germany", text="A Mun-Bur", unit=1),),
                            details=(Omen(sign="dark", binding=True),))
    assert bounced.reason == "fails: the omen was dark"
    assert DETAIL_KINDS["omen"] is Omen


def test_a_registered_detail_goes_to_json_and_back():
    moved = Moved.build(power="France", text="A Par-Bur", unit=0, order_kind="move", details=(Omen(sign="good"),))
    for data in (moved.model_dump(), moved.model_dump(mode="json")):
        back = outcome_from(data)
        assert back == moved and isinstance(back.details[0], Omen) and back.reason == moved.reason
    assert outcome_details(moved, POS) == {"omen": {"sign": "good", "binding": False}}


def test_a_detail_kind_is_a_new_tag_and_an_unknown_tag_is_named():
    class Other(Detail):
        kind: str = "omen"

    with pytest.raises(ValueError, match="detail kind 'omen' of Other is not a new tag"):
        register_detail_kind(Other)
    data = Moved.build(power="France", text="A Par-Bur", unit=0, order_kind="move").model_dump()
    data["details"] = [{"kind": "portent"}]
    with pytest.raises(ValueError, match="unknown detail kind 'portent'"):
        outcome_from(data)


def test_the_core_outcome_kinds_name_no_detail_of_a_variant():
    """Every variant's details are registered from its own package; no outcome kind of the core
    has a field of a detail kind or named by a detail's tag."""
    assert VARIANTS  # every variant package imported: each has registered its detail kinds
    variant_kinds = {tag: cls for tag, cls in DETAIL_KINDS.items() if cls.__module__.startswith("dipsat.")}
    assert {"tally", "merge", "component_attack", "sea", "budget", "implied", "retreat_battle", "sides",
            "part_of", "of_merge", "nonattack"} <= set(variant_kinds)
    assert all(cls.__module__.startswith("dipsat.variants.") for cls in variant_kinds.values())
    base = {f.name for f in dataclasses.fields(Outcome)}
    for cls in OUTCOME_CLASSES:
        hints = typing.get_type_hints(cls)
        own = {f.name: hints[f.name] for f in dataclasses.fields(cls) if f.name not in base}
        assert not set(own) & set(DETAIL_KINDS), f"{cls.__name__} has a field named by a detail's tag"
        for name, annotation in own.items():
            assert not any(isinstance(t, type) and issubclass(t, Detail) for t in _types(annotation)), \
                f"{cls.__name__}.{name} is of a detail kind"


def _types(annotation: object) -> list[object]:
    from typing import get_args

    return [annotation, *(t for a in get_args(annotation) for t in _types(a))]
