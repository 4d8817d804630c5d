"""Multinational's notation: multinational codes before a power, the kinds E/M/P, fly-overs (``FO``)
with their routes, allowances (``AL``)."""

from __future__ import annotations

from typing import Optional

from dipsat.errors import InvalidOrder
from dipsat.models import Move, register_order_kind
from dipsat.board.core_forms import reads_core_forms
from dipsat.board.notation import Addition, Cursor, ParsedOrder
from dipsat.board.notation_additions import NationNotation, SupportsWithMove
from dipsat.records import dataclass
from dipsat.variants.multinational.options import MULTINATIONALS


@register_order_kind
@dataclass(frozen=True, slots=True, kw_only=True)
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

    @reads_core_forms  # (nothing after a move but "FO")
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

    def format_move_tail(self, order: ParsedOrder) -> str:
        """`` FO`` and the route of a fly-over, then the supports written with the move."""
        route = order.addition(FlyOverRoute)
        own = (" FO" + "".join(f" {s.capitalize()}" for s in route.route)) if route is not None else ""
        return own + super().format_move_tail(order)

    def nation_text(self, power: str, kind: Optional[str]) -> str:
        """A multinational's code, then the kind of its power (``CC M``)."""
        code = next((k for k, v in sorted(MULTINATIONALS.items()) if v == power), None)
        if code is None:
            raise ValueError(f"no multinational {power!r} (codes: {', '.join(sorted(MULTINATIONALS.values()))})")
        return code.upper() + (f" {kind}" if kind else "")

    kind_words = {"e": "E", "m": "M", "p": "P", "economical": "E", "economic": "E", "military": "M",
                  "political": "P", "a": "A"}  # "A" only appears as the seed's slip in example f

    def power_kind(self, word: str) -> Optional[tuple[Optional[str], Optional[str]]]:
        if word in MULTINATIONALS:
            return MULTINATIONALS[word], None
        return None

    def format_allowance(self, allowance: Allowance) -> str:
        """``AL EX [M Sas] [Mon Wyo ...]``: what :meth:`parse_allowance` reads back."""
        d = self.map.display
        power = f" {allowance.kind} {d(allowance.origin)}" if allowance.kind and allowance.origin else ""
        return f"AL {allowance.to}{power}" + "".join(f" {d(s)}" for s in allowance.states)

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
        # the states by the order grammar's names ("New Mexico" as one state, as in an order)
        try:
            toks = self.tokenize(" ".join(words[1:]))
        except InvalidOrder as exc:
            raise InvalidOrder(text, exc.reason.replace("unknown word", "unknown state")) from None
        if len(toks) >= 2 and toks[0].kind == "KIND" and toks[0].word() in ("E", "M", "P"):
            if toks[1].kind != "PROV":
                raise InvalidOrder(text, f"expected the state of the {toks[0].word()} power allowed after {toks[0].word()!r}")
            kind, origin = toks[0].word(), toks[1].loc().province
            toks = toks[2:]
        states = []
        for t in toks:
            if t.kind != "PROV":
                raise InvalidOrder(text, f"expected a state, found {' '.join(words[1:])[t.column:].split()[0]!r}")
            states.append(t.loc().province)
        return Allowance(power, to, kind, origin, tuple(states))
