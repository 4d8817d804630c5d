"""A turn request read back into units and orders, as the deviation triggers see it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from .. import workload

if TYPE_CHECKING:
    from .engines import Run

Loc = tuple[str, str, str]  # (power, "A"/"F", location such as "spa/nc")
Evidence = list[tuple[str, set[str]]]  # (what triggers the deviation, provinces it concerns)


class Turn:
    """A turn request read back into units and orders (:func:`workload.parse_request`)."""

    def __init__(self, req: dict[str, Any]) -> None:
        self.req = req
        self.id = req.get("id", "?")
        self.units, self.orders = workload.parse_request(req)
        self.at = {u.province: i for i, u in enumerate(self.units)}
        self.b = workload.board()
        self.dipsat: Optional[Run] = None  # dipsat's result, for the predicates that need it

    def order(self, i: int) -> tuple:
        return self.orders.get(i, ("H",))

    def dest(self, i: int) -> Optional[str]:
        """The province unit ``i`` is ordered to move to, or None."""
        o = self.order(i)
        return o[1].split("/")[0] if o[0] == "M" else None

    def convoyed(self, i: int) -> bool:
        o = self.order(i)
        return o[0] == "M" and bool(o[2])

    def prov(self, i: int) -> str:
        return self.units[i].province

    def power(self, i: int) -> str:
        return self.units[i].power

    def supporters(self, i: int, dest: Optional[str]) -> list[int]:
        """Units ordered to support unit ``i`` moving to ``dest`` (None: holding)."""
        return [s for s, o in self.orders.items() if o[0] == "S" and o[1] == i and o[2] == dest]

    def text(self, i: int) -> str:
        return f"{self.units[i].power}: {workload.order_text(self.units, i, self.order(i))}"

    def unit(self, i: int) -> str:
        u = self.units[i]
        return f"{u.power} {u.kind} {workload.loc_text(u.loc)}"

    def ordered_route(self, a: int) -> bool:
        """Is there a chain of fleets ordered to convoy army ``a`` to its ordered destination?"""
        dest, b = self.dest(a), self.b
        seas = {self.prov(f) for f, o in self.orders.items() if o[0] == "C" and o[1] == a and o[2] == dest}
        todo = [s for s in seas if self.prov(a) in b.sea_coasts[s]]
        seen = set(todo)
        while todo:
            s = todo.pop()
            if dest in b.sea_coasts[s]:
                return True
            for n in b.sea_seas[s]:
                if n in seas and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return False
