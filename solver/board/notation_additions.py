"""Grammar additions shared by several variants: what may be written before a unit (for boards
where a province holds several units, or units of several nations), and supports written with a
move.

The core grammar (:mod:`solver.notation`) reads a unit as ``[kind] province``.  These additions
fill its hooks and name no variant; a variant's notation class picks the ones its seed writes:

* :class:`SupportsWithMove` — supports written after a move (``A Tyo-Mun sup by A Boh``): a
  :class:`SupportedBy` addition, which implies one support order per supporting unit;
* :class:`NationNotation` — a nation written before a unit, as a letter with or without the
  kind (``FA Bur``: the French army; ``I A Tun``), or as a code of the variant's own
  (:meth:`NationNotation.power_kind`);
* :class:`StackNotation` — both, plus counts (``2 F Nth``, ``1 I A Tun``) and composites joined
  by ``&`` (``1 A & 1 F Naf``).

What they read before a unit is carried by :class:`WrittenUnit`, a :class:`UnitRef` subclass;
code that asks for it uses :func:`written_count`, :func:`written_power` and
:func:`written_parts`, which answer for any reference (a plain one wrote none of it).
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from dipsat.errors import InvalidOrder
from dipsat.board.core_forms import reads_core_forms
from dipsat.board.notation import Addition, Cursor, Notation, ParsedOrder, TokenValue, UnitRef
from dipsat.records import dataclass


class UnitPart(NamedTuple):
    """One part of a unit reference as written: how many, of which nation, of which kind (each
    None when not written)."""

    number: Optional[int]
    power: Optional[str]
    kind: Optional[str]


@dataclass(frozen=True)
class WrittenUnit(UnitRef):
    """A unit reference with what was written before it: a count (``2 F Nth``), a nation
    (``FA Bur``), and the parts of a composite (``1 A & 1 F Naf``: ``kind`` None, ``count``
    the total, ``parts`` each part)."""

    count: Optional[int] = None
    power: Optional[str] = None
    parts: tuple[UnitPart, ...] = ()

    def text(self) -> str:
        return (f"{self.count} " if self.count is not None else "") + super().text()


def written_count(ref: UnitRef) -> Optional[int]:
    """How many units the reference says (None: not written)."""
    return ref.count if isinstance(ref, WrittenUnit) else None


def written_power(ref: UnitRef) -> Optional[str]:
    """The nation written before the unit (None: not written)."""
    return ref.power if isinstance(ref, WrittenUnit) else None


def written_parts(ref: UnitRef) -> tuple[UnitPart, ...]:
    """The parts of the reference: those of a composite, else the one part it is."""
    if isinstance(ref, WrittenUnit):
        return ref.parts or (UnitPart(ref.count, ref.power, ref.kind),)
    return (UnitPart(None, None, ref.kind),)


@dataclass(frozen=True)
class SupportedBy(Addition):
    """Supports written after a move (``A Tyo-Mun sup by A Boh``): the supporting units.  Each
    is one more order of the same power, a support of the move, whose text names the order it
    came from."""

    units: tuple[UnitRef, ...]

    def implied(self, order: ParsedOrder) -> tuple[ParsedOrder, ...]:
        assert order.dest is not None  # "sup by" is read after a move only
        mover = UnitRef(order.unit.kind, order.unit.loc)
        dest = order.dest
        return tuple(ParsedOrder(text=f"{ref.text()} S {mover.text()} - {dest.province.capitalize()} (from {order.text!r})",
                                 unit=ref, action="support", target=mover, dest=dest, power=order.power)
                     for ref in self.units)


class SupportsWithMove(Notation):
    """Grammar addition: supports written after a move, ``... sup by A Boh [& 1 F Con ...]``."""

    @reads_core_forms  # (nothing after a move but "sup by")
    def parse_move_tail(self, p: Cursor, order: ParsedOrder) -> None:
        super().parse_move_tail(p, order)
        by: list[UnitRef] = []
        while p.at("SUPPORT") and p.i + 1 < len(p.toks) and p.toks[p.i + 1].kind == "BY":
            p.next()
            p.next()
            by.append(self.read_unit(p, "the supporting unit"))
            if p.at("AND"):
                p.next()
        if by:
            order.additions = (*order.additions, SupportedBy(tuple(by)))

    def format_move_tail(self, order: ParsedOrder) -> str:
        """`` sup by UNIT`` for each supporting unit (one clause each: a stack's ``&`` would
        join them into one composite unit)."""
        by = order.addition(SupportedBy)
        own = "".join(f" sup by {self.format_unit(u)}" for u in by.units) if by is not None else ""
        return super().format_move_tail(order) + own


class NationNotation(Notation):
    """Grammar addition: a nation written before a unit (``FA Bur``, ``I A Tun``, or a code of
    the variant's own: :meth:`power_kind`)."""

    # nation letters ("FA Bur" = French army, "I A Tun"): letter -> nation.  Off on the standard
    # map, where the letters A and F would be ambiguous.
    power_letters: dict[str, str] = {}
    # counts before a unit ("2 F Nth"): read by :class:`StackNotation`
    counts: bool = False

    def power_kind(self, word: str) -> Optional[tuple[Optional[str], Optional[str]]]:
        """``"fa"`` -> (France, "A"); ``"i"`` -> (Italy, None); None if not such a word."""
        if not self.power_letters:
            return None
        if len(word) == 2 and word[0] in self.power_letters and word[1] in "af":
            return self.power_letters[word[0]], word[1].upper()
        if len(word) == 1 and word in self.power_letters and word not in "af" and word not in self.keywords:
            return self.power_letters[word], None
        return None

    def lex_word(self, word: str) -> Optional[tuple[str, TokenValue]]:
        pk = self.power_kind(word)
        return ("POWKIND", pk) if pk is not None else None

    def named_power(self, ref: UnitRef) -> Optional[str]:
        return written_power(ref)

    def nation_text(self, power: str, kind: Optional[str]) -> str:
        """How a nation (and the kind after it) is written before a unit: the nation's letter
        with the kind (``FA``) or alone (``I``), as :meth:`power_kind` reads it."""
        letter = next((k for k, v in sorted(self.power_letters.items()) if v == power), None)
        if letter is None:
            raise ValueError(f"the {self.map.name} notation writes no nation {power!r} before a unit")
        return letter.upper() + (kind or "")

    def format_unit(self, ref: UnitRef) -> str:
        """``[count] [nation] [kind] (& [count] [nation] [kind])* province``, as written."""
        if not isinstance(ref, WrittenUnit):
            return super().format_unit(ref)
        parts = ref.parts or (UnitPart(ref.count, ref.power, ref.kind),)
        written = []
        for count, power, kind in parts:
            words = [str(count)] if count is not None else []
            if power is not None:
                words.append(self.nation_text(power, kind))
            elif kind is not None:
                words.append(kind)
            written.append(" ".join(words))
        return " & ".join(written) + " " + super().format_unit(UnitRef(None, ref.loc))

    @reads_core_forms  # (no count, nation nor "&": [kind] province, as the core reads it)
    def read_unit(self, p: Cursor, what: str) -> UnitRef:
        """``[count] [nation] [kind] ( & [count] [nation] [kind] )* province`` (counts and
        ``&`` only where the notation reads them)."""
        parts: list[UnitPart] = []
        while True:
            count: Optional[int] = None
            power: Optional[str] = None
            kind: Optional[str] = None
            t = p.peek()
            if t is not None and t.kind == "NUM":
                if not self.counts:
                    return super().read_unit(p, what)  # the core's error for a count
                p.next()
                count = t.number()
                t = p.peek()
            if t is not None and t.kind == "POWKIND":
                p.next()
                assert isinstance(t.value, tuple)
                power, kind = t.value
                t = p.peek()
            if t is not None and t.kind == "KIND" and kind is None:
                p.next()
                kind = t.word()
                t = p.peek()
            parts.append(UnitPart(count, power, kind))
            if t is not None and t.kind == "AND":
                p.next()
                continue
            break
        loc = p.expect_prov(f"{what}'s province")
        count, power, kind = parts[0]
        if count is not None and count < 1:
            raise InvalidOrder(p.text, f"a unit count must be at least 1, not {count}")
        if len(parts) > 1:
            total = sum(c or 1 for c, _, _ in parts)
            return WrittenUnit(None, loc, total, power, tuple(parts))
        if count is None and power is None:
            return UnitRef(kind, loc)
        return WrittenUnit(kind, loc, count, power)


class StackNotation(SupportsWithMove, NationNotation):
    """Grammar addition for stacks: nation letters, counts (``2 F Nth``), composites
    (``1 A & 1 F Naf``) and supports written after a move (``2 A Swi-Mun sup by 1 A Swi``)."""

    counts = True
    symbols = {"&": "AND"}
