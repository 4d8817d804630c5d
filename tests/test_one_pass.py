"""Orders read and bound in one pass (``dipsat.board.one_pass``) are what the general reader and
binder make of them: the quick reader's form of a text is what the full grammar reads (or it
declines), and a turn bound with the one pass is the turn bound without it -- orders, refusals
and their messages, routes, implicit holds, illegal moves and the parsed lines -- on the
benchmark's turns and on turns whose orders are mutated (bad provinces and coasts, odd spacing and
case, unknown verbs, other kinds and destinations, orders to other powers' units), under rule
options that read orders differently."""

from __future__ import annotations

import random
from typing import Any, Optional

import pytest
from hypothesis import given, settings, strategies as st

from benchmarks import workload
from dipsat.board.core_forms import read_core_form, read_form
from dipsat.board.notation import Notation
from dipsat.board.orders import BoundOrders, OrderBinder
from dipsat.errors import OrderError
from dipsat.game.pipeline import Pipeline
from dipsat.game.request import TurnRequest
from dipsat.variants import find_variant

from notation_draws import BOARDS, CORPUS_FOLDERS, corpus_orders

_PLACES = ["Bel", "Nwy", "Lon", "Tun", "Spa", "Bre", "Alb", "Stp", "Bul", "Mid-Atlantic Ocean", "north sea", "Xyz",
           "Parr", "spa/nc", "Spa/sc", "Stp/sc", "Bul/ec", "Bul(sc)", "Spa/xc", "Nth/nc", "Con/ec", "Eng", "Mun"]
_VERBS = {" - ": [" -> ", "-", " to ", " – ", " moves ", " X ", " -- ", " = "],
          " S ": [" supports ", " sup ", " s ", " Q ", " S S ", " support ", " C "],
          " C ": [" convoys ", " c ", " K ", " S "], " H": [" holds", " h", " hodl", " Std", ""]}


def mutate(rng: random.Random, text: str) -> str:
    """``text`` changed as people (and mistakes) write orders: one or more changes of place,
    coast, spacing, case, verb, kind, or a ``via convoy`` added."""
    for _ in range(rng.randint(1, 3)):
        what = rng.randrange(11)
        words = text.split(" ")
        if what == 0 and len(words) > 1:  # another place
            j = rng.randrange(1, len(words))
            if words[j][:1].isupper() and len(words[j]) > 1:
                words[j] = rng.choice(_PLACES)
            text = " ".join(words)
        elif what == 1:  # a coast added or changed
            j = rng.randrange(len(words))
            if len(words[j]) == 3 and words[j][:1].isupper():
                words[j] += rng.choice(["/nc", "/sc", "/ec", "(nc)", "/xc", " (north coast)", "/"])
            text = " ".join(words)
        elif what == 2:  # spacing
            text = rng.choice([text.replace(" ", "  "), " " + text + " ", text.replace(" - ", "-"),
                               text.replace(" ", "\t", 1), text.replace(" - ", " -"), text.replace(" ", "", 1)])
        elif what == 3:  # case
            text = rng.choice([text.upper(), text.lower(), text.swapcase()])
        elif what == 4:  # a verb
            for verb, others in _VERBS.items():
                if verb in text:
                    text = text.replace(verb, rng.choice(others), 1)
                    break
        elif what == 5:  # the kind
            text = rng.choice([text.replace("A ", "F ", 1), text.replace("F ", "A ", 1), text[2:], "Z " + text[2:]])
        elif what == 6 and " - " in text:
            text += rng.choice([" via convoy", " via", " by convoy", " via convoy now", " by"])
        elif what == 7:  # a path, a hold written after a move
            text = rng.choice([text.replace(" - ", " - Nth - ", 1), text + " H", text + " - Bel"])
        elif what == 8:  # a prefix, punctuation, a lone word
            text = rng.choice(["England: " + text, text + ".", text + ",", "the " + text, text + " :", "via", "H"])
        elif what == 9 and len(words) > 3:  # to the ordered unit's own province, or the other unit's
            text = " ".join(words[:-1] + [rng.choice([words[1], words[-3]])])
        elif what == 10 and len(words) > 3:  # the other unit is the ordered one
            text = " ".join(words[:3] + words[:2] + words[5:])
    return text


def form_of(notation: Notation, text: str, power: Optional[str]) -> Any:
    """The form the full grammar reads in ``text`` (as ``common_order`` reads a parsed order),
    or its error."""
    try:
        p = notation._parse(text, power)
    except OrderError as exc:
        return ("error", str(exc))
    if p.additions or p.power != power:
        return ("more", p)
    loc, dest, target = p.unit.loc, p.dest, p.target
    return (p.text, p.action, p.unit.kind, loc.province, loc.coast, dest.province if dest is not None else None,
            dest.coast if dest is not None else None, target.kind if target is not None else None,
            target.loc.province if target is not None else None, p.via_convoy, p.path)


def reads_as_the_grammar(notation: Notation, text: str, power: Optional[str] = "England") -> bool:
    form = read_form(notation, text)
    return form is None or form == form_of(notation, text, power)


def test_every_corpus_order_reads_as_the_grammar_reads_it():
    taken = 0
    for name, folder in CORPUS_FOLDERS:
        notation = find_variant(name).notation
        for text in corpus_orders(folder):
            assert reads_as_the_grammar(notation, text), (name, text)
            taken += read_form(notation, text) is not None
    assert taken > 300


@pytest.mark.parametrize("name", BOARDS)
def test_mutated_orders_read_as_the_grammar_reads_them(name):
    """Benchmark orders, mutated, on every board's notation: the quick reader's form is the full
    grammar's (never a form where the grammar refuses the text)."""
    notation = find_variant(name).notation
    rng = random.Random(7)
    taken = declined = 0
    for turn in workload.generate(11, 40):
        for power, texts in turn["orders"].items():
            for text in texts:
                for written in (text, mutate(rng, text), mutate(rng, text)):
                    assert reads_as_the_grammar(notation, written, power), written
                    if read_form(notation, written) is None:
                        declined += 1
                    else:
                        taken += 1
    assert declined > 200 and (taken > 1000 or name != "standard"), (taken, declined)


def bound_both_ways(binder: OrderBinder, position: Any, orders: dict[str, list[str]]) -> tuple[BoundOrders, BoundOrders]:
    """The orders bound in one pass, and by the general reader and checks alone (each order
    parsed, then :meth:`bind_one`: no usual order bound in one step)."""
    quick = binder.bind(position, orders)
    assert binder._one_pass
    common = binder._common
    binder._one_pass, binder._common = False, (False,) * 5
    try:
        general = binder.bind(position, orders)
    finally:
        binder._one_pass, binder._common = True, common
    return quick, general


def lines(b: BoundOrders) -> list[Any]:
    """The parsed lines, each error by its kind and message."""
    return [(power, text, p, (type(e).__name__, str(e), e.unit) if e is not None else None)
            for power, text, p, e in b.parsed]


def same(a: BoundOrders, b: BoundOrders) -> bool:
    return (a.orders == b.orders and a.rejected == b.rejected and a.route == b.route and a.implicit == b.implicit
            and a.illegal_moves == b.illegal_moves and lines(a) == lines(b) and a.assigned == b.assigned
            and a.position == b.position)


OPTIONS = [{}, {"convoy_path": "required"}, {"wrong_unit_kind": "fail"}, {"convoy_path": "ignored"},
           {"wrong_unit_coast": "fail"}, {"support_coast": "required"}, {"duplicate_orders": "first"},
           {"irrelevant_coast": "fail"}]


def test_turns_bound_in_one_pass_are_the_turns_bound_by_the_general_reader():
    """Random standard turns, mutated: each bound with the one pass and without it gives the same
    bound orders and the same refusals, word for word."""
    rng = random.Random(3)
    one_pass = rejected = 0
    for k, turn in enumerate(workload.generate(13, 300)):
        orders = {p: list(ts) for p, ts in turn["orders"].items()}
        if k % 3:
            orders = {p: [mutate(rng, t) if rng.random() < 0.3 else t for t in ts] for p, ts in orders.items()}
            powers = sorted(orders)
            if k % 3 == 2:  # orders filed under another power, a duplicate order
                orders = {powers[(i + 1) % len(powers)] if rng.random() < 0.2 else p: orders[p]
                          for i, p in enumerate(powers)}
                first = next(iter(orders))
                orders[first] = orders[first] + orders[first][:1]
        req = TurnRequest.model_validate({**{key: v for key, v in turn.items() if key != "id"}, "orders": orders,
                                          "options": OPTIONS[k % len(OPTIONS)]})
        pipe = Pipeline.for_request(req)
        prep = pipe.prepare(req)
        binder = pipe.variant.binder(pipe.rules)
        quick, general = bound_both_ways(binder, prep.position, prep.orders)
        assert same(quick, general), (k, orders)
        one_pass += sum(1 for _, _, p, e in quick.read if p is None and e is None)
        rejected += len(quick.rejected)
    assert one_pass > 1500 and rejected > 100, (one_pass, rejected)


def test_the_one_pass_is_taken_only_where_the_binder_reads_as_the_core():
    """Standard's binder reads in one pass; a binder that changes how orders are read or given
    their units (Multiplomacy's stacks, Multiplicity's own grammar) or how the usual orders are
    bound does not."""
    def binder(name: str) -> OrderBinder:
        v = find_variant(name)
        return v.binder(v.rules())

    assert binder("standard")._one_pass
    assert not binder("multiplomacy")._one_pass and not binder("multiplicity")._one_pass

    class Own(OrderBinder):
        def check_given_unit(self, pos: Any, i: int, ref: Any, text: str) -> None:  # (not a reading hook)
            super().check_given_unit(pos, i, ref, text)

    class Reads(OrderBinder):
        def parse_all(self, orders: dict[str, list[str]]) -> Any:
            return super().parse_all(orders)

    v = find_variant("standard")
    assert Own(v.map, v.rules(), v.geography, v.notation)._one_pass
    assert not Reads(v.map, v.rules(), v.geography, v.notation)._one_pass


def multiplicity_turns(n: int, mutated: bool) -> list[dict[str, Any]]:
    """Random Multiplicity turns (the benchmark's: the seed's compact forms, ``A(Rum)-Bul``,
    ``2A(Bur) S A(Mun)-Ruh``, ``A(Par) Std``), their orders mutated where asked."""
    from benchmarks.multiplicity import random_turn

    rng = random.Random(9)
    turns = []
    for _ in range(n):
        turn = random_turn(rng, min_units=30)
        if mutated:
            turn["orders"] = {p: [mutate(rng, t) if rng.random() < 0.3 else t for t in ts]
                              for p, ts in turn["orders"].items()}
        turns.append(turn)
    return turns


def test_multiplicity_reads_its_rewritten_forms_by_the_quick_reader_as_by_the_grammar():
    """Multiplicity's own grammar rewrites the seed's forms into the core's (``A(Rum)-Bul`` is
    read as ``A Rum -Bul``) and reads them with the core's grammar (``core_parse``): by the quick
    reader, exactly what the full grammar reads, every order of its corpus and of random turns,
    as written and mutated (a notation made to read every order with the full grammar compares)."""
    v = find_variant("multiplicity")
    quick = v.notation_class(v.map)
    general = v.notation_class(v.map)
    assert quick._quick_core and not quick._quick
    general._quick_core = False
    texts = [(t, None) for t in corpus_orders("multiplicity")]
    texts += [(t, p) for turn in multiplicity_turns(40, False) + multiplicity_turns(40, True)
              for p, ts in turn["orders"].items() for t in ts]

    def read(notation: Notation, text: str, power: Optional[str]) -> Any:
        try:
            return notation.parse(text, power)
        except OrderError as exc:
            return ("error", type(exc).__name__, str(exc))

    taken = 0
    for text, power in texts:
        assert read(quick, text, power) == read(general, text, power), text
        taken += general.normalise(text) in quick.core_memo and quick.core_memo[general.normalise(text)] is not None
    assert taken > 1000, taken


def test_multiplicity_turns_bind_alike_read_either_way():
    v = find_variant("multiplicity")
    general = v.notation_class(v.map)
    general._quick_core = False
    for turn in multiplicity_turns(30, True):
        req = TurnRequest.model_validate(turn)
        pipe = Pipeline.for_request(req)
        prep = pipe.prepare(req)
        quick_bound = pipe.variant.binder(pipe.rules).bind(prep.position, prep.orders)
        binder = pipe.variant.binder(pipe.rules)
        binder.notation = general
        assert same(quick_bound, binder.bind(prep.position, prep.orders))


_GLUED = ["A", "F", "Par", "Bur", "Eas", "eas", "Med", "Eng", "channel", "north", "Sea", "Spa/nc", "S", "C", "H", "Std",
          "-Bur", "-bur", "-Spa/nc", "-spa(sc)", "->Bur", "-north", "-Eas", "-eng", "--Bur", "-H", "-2", "-", "via",
          "convoy", "2A", "-Mid-Atlantic", "Mid-Atlantic", "Ocean", "-st", "Petersburg", "(Par)", "A(Par)"]


@settings(max_examples=500, deadline=None, derandomize=True)
@given(st.sampled_from(BOARDS), st.lists(st.tuples(st.sampled_from(_GLUED), st.sampled_from([" ", "  ", "\t"])),
                                         min_size=1, max_size=7))
def test_random_words_with_dashes_read_as_the_grammar_reads_them(name, parts):
    """Words glued to a dash (``-Bur``, as Multiplicity's rewriting leaves them) among the words
    of every board's notation: the quick reader's form and its order record are the full
    grammar's, or it declines."""
    notation = find_variant(name).notation
    text = "".join(w + sep for w, sep in parts)
    assert reads_as_the_grammar(notation, text, "France"), text
    quick = read_core_form(notation, text, "France")
    if quick is not None:
        try:
            assert quick == Notation._parse_body(notation, text, "France"), text
        except OrderError:
            raise AssertionError(f"the quick reader read {text!r}, which the core's grammar refuses") from None
