"""Multinational's notation: multinational codes before a power, the kinds E/M/P, fly-overs (``FO``)
with their routes, allowances (``AL``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from dipsat.errors import InvalidOrder
from dipsat.models import Move, register_order_kind
from dipsat.board.notation import Addition, Cursor, ParsedOrder
from dipsat.board.notation_additions import NationNotation, SupportsWithMove
from dipsat.variants.multinational.options import MULTINATIONALS


@register_order_kind
class FlyOver(Move):
    """A fly-over (rule 6): a move that attacks nothing, along a written route."""

    kind: str = "flyover"
    route: tuple[str, ...] = ()  # the states it crosses, in order


@dataclass(frozen=True)
class FlyOverRoute(Addition):
    """The states a fly-over crosses, as written after ``FO``."""

    route: tuple[str, ...]


@dataclass(frozen=True)
class Allowance:
    """``AL EX [M Sas] [Mon Wyo ...]``: ``giver`` lets ``to`` fly over its states (only the power of
    ``kind`` standing on ``origin``, when one is named; only ``states``, when listed)."""

    giver: str
    to: str
    kind: Optional[str]
    origin: Optional[str]
    states: tuple[str, ...]


class MultinationalNotation(SupportsWithMove, NationNotation):
    """The core's notation with the multinationals' codes before a power (``S CC M Ida – Ore``),
    the power kinds E, M, P, fly-overs (``FO``) and supports written with a move."""

    extra_keywords = {"fo": "FO", "flyover": "FO"}

    def parse_move_tail(self, p: Cursor, order: ParsedOrder) -> None:
        """``M Clm – Mri FO Alb Mon Sda``: a fly-over names its whole route."""
        t = p.peek()
        if t is not None and t.kind == "FO":
            p.next()
            route = []
            while (t := p.peek()) is not None and t.kind == "PROV":
                route.append(p.expect_prov("a state of the route").province)
            order.additions = (*order.additions, FlyOverRoute(tuple(route)))
        super().parse_move_tail(p, order)

    kind_words = {"e": "E", "m": "M", "p": "P", "economical": "E", "economic": "E", "military": "M",
                  "political": "P", "a": "A"}  # "A" only appears as the seed's slip in example f

    def power_kind(self, word: str) -> Optional[tuple[Optional[str], Optional[str]]]:
        if word in MULTINATIONALS:
            return MULTINATIONALS[word], None
        return None

    @staticmethod
    def is_allowance(text: str) -> bool:
        words = text.split()
        return bool(words) and words[0].lower() == "al"

    def parse_allowance(self, power: str, text: str) -> Allowance:
        """``AL EX``; ``AL EX M Sas``; ``AL EX Mon Wyo``; ``AL EX M Sas Mon`` (rule 6: an
        allowance to fly over one's states, for a multinational, one of its powers, some states)."""
        words = text.replace(",", " ").split()[1:]
        if not words or words[0].lower() not in MULTINATIONALS:
            raise InvalidOrder(text, "an allowance names a multinational: 'AL EX', 'AL EX M Sas', 'AL EX Mon Wyo'")
        to = MULTINATIONALS[words[0].lower()]
        kind = origin = None
        rest = words[1:]
        if len(rest) >= 2 and rest[0].lower() in ("e", "m", "p"):
            kind = rest[0].upper()
            origin = self.map.lookup_province(rest[1])
            if origin is None:
                raise InvalidOrder(text, f"unknown state {rest[1]!r} (the state of the {kind} power allowed)")
            rest = rest[2:]
        states = []
        for w in rest:
            pid = self.map.lookup_province(w)
            if pid is None:
                raise InvalidOrder(text, f"unknown state {w!r}")
            states.append(pid)
        return Allowance(power, to, kind, origin, tuple(states))
