"""The quick reader of the core's short forms (``dipsat.board.core_forms``) gives exactly what the
full grammar gives, or declines: checked on every order of the corpora of the Diplomacy-board
variants (their own notations), the benchmark's random turns, the legal orders of random positions
of every board respelled as people write them, and random strings of the notations' words."""

from __future__ import annotations

import random

from typing import Any, Optional

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from benchmarks import workload
from dipsat.board.core_forms import quick_reads, read_core_form, reads_core_forms
from dipsat.board.notation import Cursor, Notation, UnitRef
from dipsat.errors import OrderError
from dipsat.variants import find_variant

from notation_draws import BOARDS, board_positions, CORPUS_FOLDERS, corpus_orders, own_forms, respell

QUICK = ("standard", "multiplomacy", "multinational")  # the boards whose notation may read orders so


def full(notation: Notation, text: str, power: Optional[str]) -> Any:
    try:
        return notation._parse(text, power)
    except OrderError as exc:
        return ("error", str(exc))


def agree(notation: Notation, text: str, power: Optional[str] = "England") -> bool:
    """The quick reader declines, or gives exactly what the full grammar gives."""
    quick = read_core_form(notation, text, power)
    return quick is None or quick == full(notation, text, power)


def test_the_boards_whose_hooks_read_the_core_forms_as_the_core_use_it():
    assert {name for name in BOARDS if find_variant(name).notation._quick} == set(QUICK)


def test_a_hook_not_marked_turns_the_quick_reader_off():
    class Own(Notation):
        def read_unit(self, p: Cursor, what: str) -> UnitRef:
            return super().read_unit(p, what)

    class Marked(Notation):
        @reads_core_forms
        def read_unit(self, p: Cursor, what: str) -> UnitRef:
            return super().read_unit(p, what)

    class Via(Notation):
        extra_keywords = {"via": "FO"}

    m = find_variant("standard").map
    assert not quick_reads(Own(m), Notation)
    assert quick_reads(Marked(m), Notation)
    assert not quick_reads(Via(m), Notation)


def test_every_corpus_order_reads_the_same_both_ways():
    taken = 0
    for name, folder in CORPUS_FOLDERS:
        notation = find_variant(name).notation
        for text in corpus_orders(folder):
            for power in (None, "England"):
                assert agree(notation, text, power), (name, text, power)
            taken += read_core_form(notation, text, None) is not None
    assert taken > 300  # the quick reader is the common one


def test_benchmark_orders_read_the_same_both_ways():
    notation = find_variant("standard").notation
    quick = total = 0
    for req in workload.generate(3, 60):
        for power, orders in req["orders"].items():
            for text in orders:
                assert agree(notation, text, power), text
                quick += read_core_form(notation, text, power) is not None
                total += 1
    assert quick == total  # every order the benchmark writes is a core form


@pytest.mark.parametrize("text,expected", [
    ("A Par - Bur", "move"), ("a par to bur", "move"), ("F Mao - Spa/nc", "move"), ("F Mao - Spa(nc)", "move"),
    ("A Lon - Nwy via convoy", "move"), ("A Lon - Nwy by convoy", "move"), ("A Lon - Nwy via", "move"),
    ("A Yor - Nth - Bel", "move"), ("A Par H", "hold"), ("A Par", "hold"), ("Par holds", "hold"),
    ("A Par S A Mar - Bur", "support"), ("A Par S A Mar", "support"), ("A Par S Mar H", "support"),
    ("A Par S A Mar - Bur via convoy", "support"), ("F Nth C A Lon - Nwy", "convoy"), ("A Par D", "disband"),
    # declined: the full grammar reads (or refuses) them
    ("England: A Par - Bur", None), ("The army at Paris move to Burgundy.", None), ("par support mar", None),
    ("A Par - Bur via convoy now", None), ("A Par - ", None), ("A Par Bur", None), ("A Par H via", None),
    ("F Nth C A Lon", None), ("F Nth C A Lon - Nwy via convoy", None), ("A Par S A Mar H - Bur", None),
    ("2 A Par - Bur", None), ("A North Sea - Bel", None), ("A Pär - Bur", None), ("", None), ("via", None),
])
def test_the_core_forms_and_what_is_left_to_the_full_grammar(text, expected):
    notation = find_variant("standard").notation
    quick = read_core_form(notation, text, "France")
    assert (quick.action if quick is not None else None) == expected
    assert agree(notation, text, "France")


PROPS = settings(max_examples=40, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])


@pytest.mark.parametrize("name", QUICK)  # (the other boards never take the quick reader: checked above)
def test_legal_orders_respelled_read_the_same_both_ways(name):
    """Every legal order of random positions of the board, and the forms of its own grammar, each
    respelled as people write it (full names, other dashes and keywords, coasts in words)."""
    notation = find_variant(name).notation

    @PROPS
    @given(st.data())
    def run(data):
        request = data.draw(board_positions(name))
        legal = request["legal"]
        for power, units in legal.items():
            for texts in units.values():
                for text in texts:
                    for written in (text, data.draw(respell_text(name, text, power))):
                        assert agree(notation, written, power), written
        if name != "standard":
            mine = data.draw(own_forms(name, legal))
            assert agree(notation, mine[3], mine[0]), mine

    run()


@st.composite
def respell_text(draw: Any, name: str, text: str, power: str) -> str:
    return respell(draw, name, text, power=power)


WORDS = ["A", "F", "a", "army", "fleet", "Par", "par", "Bur", "Spa/nc", "spa(nc)", "Spa", "(sc)", "nc", "north",
         "North", "Sea", "north sea", "Nth", "Lon", "Mao", "mid-atlantic", "S", "s", "supports", "C", "convoys", "H",
         "holds", "-", "->", "–", "via", "convoy", "by", "2", "England:", "Eng", "St", "Petersburg", "stp/sc", "x",
         ",", ".", "to", "D", "the", "support", "moveviaconvoy", "FO", "E", "M", "P", "FA", "&", "sup", "Std"]


@settings(max_examples=600, deadline=None, derandomize=True)
@given(st.sampled_from(BOARDS), st.sampled_from([None, "France"]),
       st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from([" ", "  ", "\t", "", ", "])), min_size=1, max_size=7))
def test_random_word_strings_read_the_same_both_ways(name, power, parts):
    notation = find_variant(name).notation  # (Multiplicity's own grammar too: the core forms it shares)
    text = "".join(w + sep for w, sep in parts)
    assert agree(notation, text, power), text


@pytest.mark.parametrize("name", BOARDS)
def test_the_board_tables_reach_as_the_map_does(name):
    """``BoardTables.army_reach`` / ``fleet_reach`` (the binder's common cases read them) answer
    as ``GameMap.can_reach_province`` for every location and province of the board."""
    v = find_variant(name)
    m, tables = v.map, v.geography.tables
    for loc in (*m.provinces, *m.coasts):
        for prov in m.provinces:
            assert (prov in tables.army_reach.get(loc, ())) == m.can_reach_province("A", loc, prov), (loc, prov)
            assert (prov in tables.fleet_reach.get(loc, ())) == m.can_reach_province("F", loc, prov), (loc, prov)


def test_the_usual_orders_bound_in_one_step_are_what_bind_one_makes():
    """``OrderBinder.common_order`` (the usual hold, move, support, convoy and move by convoy
    bound in one step) gives the unit and the order :meth:`bind_one` gives, or declines; never
    another order (the benchmark's turns: every kind of order, rejected ones included; under
    the rule options that read them differently; with the orders' units, kinds and convoyed
    destinations changed, so that some are illegal)."""
    from dipsat.game.pipeline import Pipeline
    from dipsat.game.request import TurnRequest

    taken: dict[str, int] = {}
    rng = random.Random(5)
    options = [{}, {"convoy_path": "required"}, {"wrong_unit_kind": "fail"}, {"convoy_path": "ignored"}]
    for k, turn in enumerate(workload.generate(5, 60)):
        orders = {p: list(ts) for p, ts in turn["orders"].items()}
        if k % 3 == 1:  # other kinds, other destinations, moves written by convoy, orders to others' units
            def changed(t: str) -> str:
                if rng.random() < 0.2:
                    t = t.replace("A ", "F ", 1)
                head, dash, dest = t.rpartition(" - ")
                if dash and "via" not in dest and rng.random() < 0.5:
                    t = head + dash + rng.choice(["Bel", "Nwy", "Lon", "Tun", "Spa", "Bre", "Alb"])
                if t.startswith("A") and " - " in t and " S " not in t and "via" not in t and rng.random() < 0.5:
                    t += " via convoy"
                return t

            orders = {p: [changed(t) for t in ts] for p, ts in orders.items()}
            powers = sorted(orders)
            orders = {powers[(i + 1) % len(powers)] if rng.random() < 0.2 else p: orders[p] for i, p in enumerate(powers)}
        req = TurnRequest.model_validate({**{k2: v for k2, v in turn.items() if k2 != "id"}, "orders": orders,
                                          "options": options[k % len(options)]})
        pipe = Pipeline.for_request(req)
        prep = pipe.prepare(req)
        binder = pipe.variant.binder(pipe.rules)
        seats = binder.seats(prep.position)
        for power, text, parsed, err in binder.parse_all(prep.orders):
            usual = binder.common_order(seats, power, parsed) if err is None else None
            if usual is not None:
                assert parsed is not None
                what = parsed.action + (" via convoy" if parsed.via_convoy else "")
                taken[what] = taken.get(what, 0) + 1
                order = binder.bind_one(prep.position, power, parsed, None)
                assert usual == (order.body.unit, order), text
    assert sum(taken.values()) > 600  # most orders are usual
    assert min(taken.get(a, 0) for a in ("hold", "move", "support", "convoy", "move via convoy")) > 10, taken
