"""Binding orders where several units of one power share a province (boards with stacks): an
order says how many of the units it is for (``2 F Nth ...``), and each order gets units of its
own — the stack's record is split into the pieces the orders took.  The movement of stacks is
:mod:`dipsat.board.stacks`."""

from __future__ import annotations

from dipsat.board.notation_additions import written_count
from dipsat.board.orders import OrderBinder, ParsedLine
from dipsat.errors import AmbiguousOrder, IllegalOrder, OrderError
from dipsat.models import Position, Unit


def split_stacks(pos: Position, pieces: dict[int, list[tuple[int, int]]],
                 remaining: list[int]) -> tuple[Position, dict[int, list[int]]]:
    """``pos`` with each stack record split into the pieces its orders took (``pieces``: record
    -> [(count, order index)]) and the rest (``remaining[record]`` units, if any), and for each
    order index the new records it commands."""
    units: list[Unit] = []
    assign: dict[int, list[int]] = {}
    for i, u in enumerate(pos.units):
        for take, idx in pieces.get(i, []):
            assign.setdefault(idx, []).append(len(units))
            units.append(u.updated(count=take))
        if remaining[i]:
            units.append(u.updated(count=remaining[i]))
    return pos.model_copy(update={"units": tuple(units)}), assign


class StackBinder(OrderBinder):
    """Order binding where several units of one power share a province: an order says how many
    of them it is for ("2 F Nth ..."), and each order gets units of its own."""

    def assign_units(self, pos: Position, parsed: list[ParsedLine]) -> tuple[Position, dict[int, list[int]], dict[int, OrderError]]:
        """Give each order its own unit: ``2 F Nth ...`` takes two of the fleets in the North Sea.
        Returns the split position, order index -> its units, and allocation errors."""
        remaining = [u.count for u in pos.units]
        at: dict[str, list[int]] = {}
        for i, u in enumerate(pos.units):
            at.setdefault(u.province, []).append(i)
        pieces: dict[int, list[tuple[int, int]]] = {}  # original unit -> [(count, order index)]
        errors: dict[int, OrderError] = {}
        # orders that say how many units they are for go first; an order without a count then
        # takes the one unit left ("F Con-Aeg sup by 1 F Con" with two fleets in Constantinople)
        def uncounted_last(i: int) -> tuple[bool, int]:
            p = parsed[i][2]
            return (p is None or written_count(p.unit) is None, i)

        order_ix = sorted(range(len(parsed)), key=uncounted_last)
        for idx in order_ix:
            power, text, p, err = parsed[idx]
            if p is None:
                continue
            ref = p.unit
            prov = ref.loc.province
            cands = [i for i in at.get(prov, []) if pos.units[i].power == power
                     and (ref.kind is None or pos.units[i].kind == ref.kind)]
            if ref.loc.coast and any(pos.units[i].location == ref.loc.location() for i in cands):
                cands = [i for i in cands if pos.units[i].location == ref.loc.location()]
            if not cands:
                continue  # bind_one reports it (no unit / another power's unit)
            available = sum(remaining[i] for i in cands)
            count = written_count(ref)
            want = count if count is not None else (1 if available == 1 else None)
            name = self.map.provinces[prov].name
            what = {"A": "armies", "F": "fleets", None: "units"}[ref.kind]
            if want is None:
                e = AmbiguousOrder(text, f"{power} has {available} {what} in {name}: write how many this order is for, e.g. '{available} {ref.kind or 'A'} ...'")
                errors[idx] = e
                continue
            if want > available:
                errors[idx] = IllegalOrder(text, f"{want} {what} ordered in {name}, but {power} has only {available} there without another order")
                continue
            for i in cands:
                take = min(want, remaining[i])
                if take:
                    pieces.setdefault(i, []).append((take, idx))
                    remaining[i] -= take
                    want -= take
                if not want:
                    break
        split, assign = split_stacks(pos, pieces, remaining)
        return split, assign, errors
