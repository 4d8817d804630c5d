"""The peers' common terms: a standard-board movement turn as the peer adjudicators take it
(:class:`PeerTurn`), what they make of it (:class:`PeerRun`), and the texts between them and
dipsat (see :mod:`dipsat.io.peers`, which drives MILA, and :mod:`dipsat.io.peers_pydip`).

A turn's order per unit index is a plain tuple::

    ("H",)                          hold
    ("M", dest_location, via)       move; ``via``: the order asks for a convoy
    ("S", target, dest_province)    support of unit ``target`` (``None``: its hold)
    ("C", army, dest_province)      convoy of unit ``army``

:func:`peer_turn` makes a turn from orders in any notation dipsat reads (dipsat's own parser and
legality checks; an order dipsat reads as illegal is given to no peer: that unit holds);
:func:`observed` writes a run in the corpus vocabulary (``units_after``, ``dislodged``).
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol

from dipsat.errors import DipsatError
from dipsat.records import dataclass

if TYPE_CHECKING:
    from dipsat.game.variant import Variant

#: peer name -> (the PyPI package it is, the extra that installs it, the version the adapter is written for)
PEERS: dict[str, tuple[str, str, str]] = {"mila": ("diplomacy", "mila", "1.1.2"), "pydip": ("pydip", "pydip", "0.1.8")}
#: the peers' display names
TITLES = {"mila": "MILA", "pydip": "pydip"}

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")

Loc = tuple[str, str, str]  # (power, "A"/"F", location such as "spa/nc")
PeerOrder = tuple[Any, ...]


class PeerError(DipsatError):
    """A peer cannot be used (not installed, broken), or cannot take a turn."""


@dataclass(frozen=True)
class PeerUnit:
    power: str  # "France"
    kind: str  # "A" / "F"
    loc: str  # a location of the standard map: "par", "spa/nc"

    @property
    def province(self) -> str:
        return self.loc.split("/", 1)[0]


@dataclass
class PeerTurn:
    """A standard-board movement turn in the peers' common terms (see the module's text)."""

    units: list[PeerUnit]
    orders: dict[int, PeerOrder] = field(default_factory=dict)  # a unit without one holds

    def order(self, i: int) -> PeerOrder:
        return self.orders.get(i, ("H",))


@dataclass
class PeerRun:
    after: frozenset[Loc]  # the units on the board after the turn (dislodged ones left out)
    dislodged: frozenset[Loc]  # the units dislodged, at their starting location
    refused: list[str] = field(default_factory=list)  # orders the peer would not take
    detail: Any = None  # the peer's own record (MILA's results, pydip's resolutions)


def standard_variant() -> Variant:
    from dipsat.game.registry import find_variant

    return find_variant("standard")


def peer_turn(units: dict[str, list[str]], orders: dict[str, list[str]], rules: Optional[str] = None,
              options: Optional[dict[str, Any]] = None, where: str = "turn",
              routed: bool = False) -> tuple[PeerTurn, list[str]]:
    """A standard movement turn (units and orders in any notation dipsat reads) as a
    :class:`PeerTurn`, and the orders left out (dipsat reads them as illegal, invalid or
    ambiguous under ``rules`` with ``options``: the unit holds), each with its reason.  A move
    asks for a convoy when its text does (``via convoy``, a path); with ``routed``, when dipsat's
    reading of it under ``rules`` goes by convoy (DATC 4.A.3: the intent made explicit)."""
    from dipsat.game.positions import build_position, power_name
    from dipsat.game.request import TurnRequest
    from dipsat.models import Convoy, Hold, Move, Support

    variant = standard_variant()
    req = TurnRequest.model_validate({"units": units, "orders": orders})
    pos = build_position(variant, req)
    by_power: dict[str, list[str]] = {}
    for p, texts in req.orders.items():
        by_power.setdefault(power_name(variant, p, f"{where}: orders"), []).extend(texts)
    bound = variant.binder(variant.rules(rules or "datc", **(options or {}))).bind(pos, by_power)
    out: dict[int, PeerOrder] = {}
    for i, o in bound.orders.items():
        b = o.body
        if isinstance(b, Move):
            via = bound.route.get(i) == "convoy" if routed else bool(b.via_convoy or b.path)
            out[i] = ("M", b.dest, via)
        elif isinstance(b, Support):
            out[i] = ("S", b.target, b.dest)
        elif isinstance(b, Convoy):
            out[i] = ("C", b.target, b.dest)
        elif isinstance(b, Hold):
            out[i] = ("H",)
        else:  # pragma: no cover - the standard board has no other kind
            raise PeerError(f"{where}: order {o.text!r} is of a kind the peers do not know ({b.kind})")
    turn = PeerTurn([PeerUnit(u.power, u.kind, u.location) for u in pos.units], out)
    return turn, [f"{r.power}: {r.text}: {r.reason}" for r in bound.rejected]


def turn_texts(turn: PeerTurn) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The turn's units and orders in dipsat's notation (``A Par - Bur``), by power."""
    units: dict[str, list[str]] = {}
    orders: dict[str, list[str]] = {}
    for i, u in enumerate(turn.units):
        units.setdefault(u.power, []).append(unit_text(u))
        if i in turn.orders:
            orders.setdefault(u.power, []).append(order_text(turn, i))
    return units, orders


def loc_text(loc: str) -> str:
    prov, _, coast = loc.partition("/")
    return prov.capitalize() + (f"/{coast}" if coast else "")


def unit_text(u: PeerUnit) -> str:
    return f"{u.kind} {loc_text(u.loc)}"


def _order(turn: PeerTurn, i: int, unit: Callable[[PeerUnit], str], loc: Callable[[str], str], via: str) -> str:
    """Unit ``i``'s order in a notation: its unit and location texts, its convoy marker."""
    u, o = unit(turn.units[i]), turn.order(i)
    if o[0] == "H":
        return f"{u} H"
    if o[0] == "M":
        return f"{u} - {loc(o[1])}" + (via if o[2] else "")
    if o[0] == "S":
        return f"{u} S {unit(turn.units[o[1]])}" + (f" - {loc(o[2])}" if o[2] else "")
    return f"{u} C {unit(turn.units[o[1]])} - {loc(o[2])}"


def order_text(turn: PeerTurn, i: int) -> str:
    """Unit ``i``'s order in dipsat's short notation (``A Lon - Nwy via convoy``, ``F Nth C A Lon - Nwy``)."""
    return _order(turn, i, unit_text, loc_text, " via convoy")


def observed(run: PeerRun) -> dict[str, Any]:
    """A peer's run as a corpus expectation: ``units_after`` and ``dislodged``."""
    after: dict[str, list[str]] = {}
    for power, kind, loc in sorted(run.after):
        after.setdefault(power, []).append(f"{kind} {loc}")
    return {"units_after": after, "dislodged": [f"{p}: {k} {loc}" for p, k, loc in sorted(run.dislodged)]}


def version_of(peer: str) -> Optional[str]:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(PEERS[peer][0])
    except PackageNotFoundError:
        return None


def _missing(peer: str, exc: ImportError) -> PeerError:
    package, extra, pinned = PEERS[peer]
    return PeerError(f"--peer {peer} needs the {TITLES[peer]} adjudicator, the optional extra {extra!r}: "
                     f"pip install 'dipsat[{extra}]' (the PyPI package {package}=={pinned}); importing it failed: {exc}")


class Peer(Protocol):
    """What a peer adapter offers: its name, its version and one turn adjudicated."""

    name: str
    version: Optional[str]

    def run(self, turn: PeerTurn) -> PeerRun: ...
