"""What an order says, as read: the places, the unit and the action of a parsed order
(:class:`ParsedOrder`), the typed additions a variant's grammar records on it, and the canonical
text of each.  The reading itself is :mod:`dipsat.board.notation`."""

from __future__ import annotations

from typing import Callable, Optional, TypeVar

from dipsat.records import dataclass


@dataclass(frozen=True)
class LocRef:
    province: str
    coast: Optional[str] = None  # "nc", "sc", ... as written (maybe not a real coast)
    column: int = 0

    def location(self) -> str:
        return f"{self.province}/{self.coast}" if self.coast else self.province


@dataclass(frozen=True)
class UnitRef:
    """A unit as an order names it: its kind letter (None when omitted) and its place.  A
    variant's grammar addition may return a subclass that carries what it read before the unit
    (e.g. :class:`solver.notation_additions.WrittenUnit`)."""

    kind: Optional[str]  # "A", "F" or None when omitted
    loc: LocRef

    def text(self) -> str:
        """Canonical text of the reference (read back to an equal reference)."""
        return (f"{self.kind} " if self.kind else "") + _loc_text(self.loc)


class Addition:
    """Base of the typed values a variant's grammar additions record on a parsed order (a
    fly-over's route, supports written with a move ...): frozen dataclasses subclassing this,
    found again with :meth:`ParsedOrder.addition`."""

    def implied(self, order: "ParsedOrder") -> tuple["ParsedOrder", ...]:
        """Further orders of the same power that writing this implies (bound like any other;
        none by default)."""
        return ()


A = TypeVar("A", bound=Addition)


@dataclass
class ParsedOrder:
    text: str
    unit: UnitRef
    action: str  # hold, move, support, convoy
    dest: Optional[LocRef] = None  # move destination / supported or convoyed move destination
    target: Optional[UnitRef] = None  # supported / convoyed unit
    via_convoy: bool = False
    path: tuple[str, ...] = ()  # intermediate provinces of a written convoy path
    power: Optional[str] = None  # "England: ..." prefix, when written
    additions: tuple[Addition, ...] = ()  # what a variant's grammar additions read (typed)

    def addition(self, cls: type[A]) -> Optional[A]:
        """The addition of that type a grammar addition recorded on this order, if any."""
        for a in self.additions:
            if isinstance(a, cls):
                return a
        return None


def _loc_text(loc: LocRef) -> str:
    if not loc.coast:
        return loc.province.capitalize()
    # "/nc"; a coast as written that is not a word ("F Spa(1)") in brackets, which read anything
    return loc.province.capitalize() + (f"/{loc.coast}" if loc.coast.isalpha() and loc.coast.isascii() else f"({loc.coast})")


def format_unit(u: UnitRef) -> str:
    return u.text()


def format_order(p: "ParsedOrder", unit: Callable[[UnitRef], str] = format_unit, tail: str = "") -> str:
    """Canonical DATC-style text of a parsed order, each unit written by ``unit`` and ``tail``
    after a move (what a variant's grammar reads there); ``parse(format_order(p))`` reads back
    the same order (the round trip the property tests check).  A notation's own forms are
    written by its :meth:`~dipsat.board.notation.Notation.format`."""
    head = unit(p.unit)
    if p.action == "hold":
        return f"{head} H"
    if p.action == "disband":
        return f"{head} Disband"
    if p.action == "move":
        assert p.dest is not None
        steps = " - ".join([*(x.capitalize() for x in p.path), _loc_text(p.dest)])
        return f"{head} - {steps}" + (" via convoy" if p.via_convoy else "") + tail
    if p.action not in ("support", "convoy"):
        raise ValueError(f"{p.action!r} orders are written by their variant's notation ({p.text!r})")
    assert p.target is not None
    word = "S" if p.action == "support" else "C"
    dest = f" - {_loc_text(p.dest)}" if p.dest is not None else ""
    return f"{head} {word} {unit(p.target)}{dest}"


# what a token carries: a place (PROV), a number (NUM), a kind letter (KIND), the word as
# written (keywords), a value of a variant's own word (e.g. a nation and kind), or nothing (DASH,
# COLON, VIA, BY, a variant's symbols)
TokenValue = LocRef | int | str | tuple[Optional[str], ...] | None
