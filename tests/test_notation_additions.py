"""The core grammar knows one unit per province; what is written before a unit (counts, nation
letters, ``&``) and supports written with a move come from grammar additions
(``dipsat.board.notation_additions``) that a variant's notation picks, through the core's hooks."""

import dataclasses
from typing import Optional

import pytest

from dipsat.errors import InvalidOrder
from dipsat.maps import load_map
from dipsat.board.notation import Addition, Cursor, Notation, ParsedOrder, TokenValue, UnitRef
from dipsat.board.notation_additions import (NationNotation, StackNotation, SupportedBy, UnitPart, WrittenUnit,
                                       written_count, written_parts, written_power)
from dipsat.variants import find_variant

STANDARD_MAP = find_variant("standard").map
CORE = Notation(STANDARD_MAP)


def test_the_core_types_carry_no_stack_fields():
    assert [f.name for f in dataclasses.fields(UnitRef)] == ["kind", "loc"]
    names = {f.name for f in dataclasses.fields(ParsedOrder)}
    assert not names & {"count", "kinds", "supported_by"}


@pytest.mark.parametrize("text,fragment", [
    ("2 F Nth - Nwy", "a count (2) before the ordered unit only makes sense where several units share a province"),
    ("F Lon S 2 F Nth", "a count (2) before the supported unit"),
    ("1 A & 1 F Nth H", "unknown word '&'"),
    ("FA Bur - Par", "unknown word 'FA'"),
    ("A Tyo - Mun sup by A Boh", "unexpected text 'sup by A Boh'"),
])
def test_the_core_grammar_rejects_stack_notation_quoting_the_order(text, fragment):
    with pytest.raises(InvalidOrder) as e:
        CORE.parse(text)
    assert fragment in str(e.value) and repr(text) in str(e.value)


class _Stacks(StackNotation):
    power_letters = {"f": "France", "i": "Italy"}


STACKS = _Stacks(STANDARD_MAP)


def test_stack_addition_reads_counts_nations_and_composites():
    p = STACKS.parse("2 FA Bur - Par")
    assert p.unit == WrittenUnit("A", p.unit.loc, 2, "France")
    assert (written_count(p.unit), written_power(p.unit)) == (2, "France")
    c = STACKS.parse("1 A & 2 F Nth H").unit
    assert c.kind is None and written_count(c) == 3
    assert written_parts(c) == (UnitPart(1, None, "A"), UnitPart(2, None, "F"))
    plain = STACKS.parse("A Par - Bur").unit
    assert type(plain) is UnitRef and written_parts(plain) == (UnitPart(None, None, "A"),)
    assert STACKS.parse("F Lon S I F Nth - Eng").target is not None
    assert STACKS.named_power(STACKS.parse("F Lon S I F Nth - Eng").target) == "Italy"


def test_supports_written_with_a_move_imply_support_orders():
    p = STACKS.parse("2 A Swi - Mun sup by 1 A Tyr sup by A Boh", "Italy")
    written = p.addition(SupportedBy)
    assert written is not None and [u.text() for u in written.units] == ["1 A Tyr", "A Boh"]
    implied = written.implied(p)
    assert [q.text for q in implied] == ["1 A Tyr S A Swi - Mun (from '2 A Swi - Mun sup by 1 A Tyr sup by A Boh')",
                                         "A Boh S A Swi - Mun (from '2 A Swi - Mun sup by 1 A Tyr sup by A Boh')"]
    assert all(q.action == "support" and q.dest == p.dest for q in implied)


def test_count_below_one_and_nation_notation_without_counts():
    with pytest.raises(InvalidOrder, match="at least 1"):
        STACKS.parse("0 A Par H")

    class Nations(NationNotation):
        power_letters = {"i": "Italy"}

    n = Nations(STANDARD_MAP)
    assert written_power(n.parse("I A Ven H").unit) == "Italy"
    with pytest.raises(InvalidOrder, match="count"):
        n.parse("2 A Ven H")


@dataclasses.dataclass(frozen=True)
class _Speed(Addition):
    knots: int


class _Toy(Notation):
    """A variant's own addition through the hooks alone: a word carrying a value, a symbol, a
    unit prefix and a move tail."""

    symbols = {"!": "BANG"}

    def lex_word(self, word: str) -> Optional[tuple[str, TokenValue]]:
        return ("FAST", word) if word == "fast" else None

    def read_unit(self, p: Cursor, what: str) -> UnitRef:
        if p.at("BANG"):
            p.next()
        return super().read_unit(p, what)

    def parse_move_tail(self, p: Cursor, order: ParsedOrder) -> None:
        if p.at("FAST"):
            p.next()
            order.additions = (*order.additions, _Speed(p.next().number()))


def test_a_grammar_addition_through_the_hooks():
    toy = _Toy(STANDARD_MAP)
    p = toy.parse("! A Par - Bur fast 3")
    assert p.action == "move" and p.addition(_Speed) == _Speed(3) and p.addition(SupportedBy) is None
    with pytest.raises(InvalidOrder, match="unknown word '!'"):
        CORE.parse("! A Par - Bur")


def test_variants_pick_their_additions():
    assert isinstance(find_variant("multiplomacy").notation, StackNotation)
    assert isinstance(find_variant("multiplicity").notation, StackNotation)
    mn = find_variant("multinational").notation
    assert isinstance(mn, NationNotation) and not isinstance(mn, StackNotation)
    assert mn.named_power(mn.parse("E Mon S CC M Ida – Ore").target) == "CC"


def test_a_binder_adds_only_where_its_move_check_differs():
    """Multinational keeps the core's move prologue (check_move) and fills the two hooks."""
    from dipsat.game.api import adjudicate
    from dipsat.board.orders import OrderBinder

    binder = find_variant("multinational").binder_class
    assert binder.check_move is OrderBinder.check_move
    assert binder.check_reach is not OrderBinder.check_reach
    res = adjudicate({"variant": "multinational", "units": {"CC": ["E Clm"]}, "orders": {"CC": ["E Clm - Clm"]}})
    out = {o.text: o for o in res.outcomes}["E Clm - Clm"]
    assert out.result == "illegal" and "cannot attack the state it stands on" in out.reason


def test_multinational_allowances_are_read_by_its_notation():
    from dipsat.game.api import adjudicate

    mn = find_variant("multinational").notation
    a = mn.parse_allowance("GM", "AL EX M Sas Mon")
    assert (a.giver, a.to, a.kind, a.origin, a.states) == ("GM", "EX", "M", "sas", ("mon",))
    for bad, fragment in (("AL XX", "names a multinational"), ("AL EX M Atlantis", "unknown state 'Atlantis'"),
                          ("AL EX Mon Moon", "unknown state 'Moon'")):
        with pytest.raises(InvalidOrder, match=fragment):
            mn.parse_allowance("GM", bad)
    res = adjudicate({"variant": "multinational", "units": {"CC": ["E Clm"]}, "orders": {"CC": ["AL EX M Atlantis"]}})
    assert [(o.text, o.result) for o in res.outcomes if o.order_kind == "rejected"] == [("AL EX M Atlantis", "invalid")]
