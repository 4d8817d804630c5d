"""The state of a continents game between rounds: which player holds each country or free city
with how many units.  Parsed from a request's ``units`` table (``Amber = ["4 Yug", "2 Tar"]``)
with errors naming the player, the text and the problem."""

from __future__ import annotations

import re
from typing import Optional

from pydantic import BaseModel, ConfigDict

from dipsat.errors import PositionError
from dipsat.maps.continental import ContinentalMap
from dipsat.board.notation import shown, too_long

UNIT_RE = re.compile(r"^\s*(?:(\d+)\s+)?(.+?)(?:\s+(\d+))?\s*$")


class Board(BaseModel):
    """Units per node: ``{node id: (player, count)}`` (count >= 1); one player per node."""

    model_config = ConfigDict(frozen=True)

    holdings: dict[str, tuple[str, int]]

    def owner(self, node: str) -> Optional[str]:
        h = self.holdings.get(node)
        return h[0] if h else None

    def count(self, node: str) -> int:
        h = self.holdings.get(node)
        return h[1] if h else 0

    def players(self) -> list[str]:
        return sorted({p for p, _ in self.holdings.values()})

    def held_by(self, player: str) -> list[str]:
        return sorted(n for n, (p, _) in self.holdings.items() if p == player)

    def total(self, player: Optional[str] = None) -> int:
        return sum(c for p, c in self.holdings.values() if player is None or p == player)

    def as_units(self, cmap: ContinentalMap, players: tuple[str, ...] = ()) -> dict[str, list[str]]:
        """The request form: ``{player: ["4 Yug", ...]}`` in map order; ``players`` listed
        even when they hold nothing."""
        out: dict[str, list[str]] = {p: [] for p in sorted(players)}
        for node, (p, c) in sorted(self.holdings.items()):
            out.setdefault(p, []).append(f"{c} {cmap.display(node)}")
        return dict(sorted(out.items()))


def parse_units(cmap: ContinentalMap, units: dict[str, list[str]], where: str = "units") -> Board:
    """``{"Amber": ["4 Yug", "Tar 2", "Dis"]}`` -> a :class:`Board` (``Dis`` alone = 1 unit)."""
    holdings: dict[str, tuple[str, int]] = {}
    for player, specs in sorted(units.items()):
        if not player.strip():
            raise PositionError(f"{where}: a player needs a name")
        if not isinstance(specs, list):
            raise PositionError(f"{where}.{player}: expected a list such as [\"4 Yug\"], got {specs!r}")
        for spec in specs:
            why = too_long(spec) if isinstance(spec, str) else None
            if why is not None:
                raise PositionError(f"{where}.{player}: {shown(spec)!r}: {why}")
            m = UNIT_RE.match(spec) if isinstance(spec, str) else None
            if m is None or (m.group(1) and m.group(3)):
                raise PositionError(f"{where}.{player}: {spec!r} is not a unit count and a country, e.g. \"4 Yug\"")
            node = cmap.lookup(m.group(2))
            if node is None:
                raise PositionError(f"{where}.{player}: {spec!r}: unknown country or free city {m.group(2)!r} on the {cmap.title} map")
            n = int(m.group(1) or m.group(3) or 1)
            if n < 1:
                raise PositionError(f"{where}.{player}: {spec!r}: a holding needs at least one unit")
            if node in holdings:
                other = holdings[node][0]
                what = "listed twice" if other == player else f"held by both {other} and {player} (one player per country)"
                raise PositionError(f"{where}.{player}: {spec!r}: {cmap.nodes[node].name} is {what}")
            cap = cmap.nodes[node].capacity
            if n > cap:
                raise PositionError(f"{where}.{player}: {spec!r}: {cmap.nodes[node].name} holds at most {cap} units")
            holdings[node] = (player, n)
    return Board(holdings=dict(sorted(holdings.items())))
