"""The usual orders bound in one step, and read and bound in one pass.

Most orders of a turn are a hold of the one unit in a place, its move to a province it reaches by
land (or an army's written ``via convoy`` along a chain of fleets; a fleet's to a coast it reaches,
as written), its support of the one unit in another place, or a fleet's convoy of the one army in
another place (the ordered unit's own coast may be written).  :class:`UsualOrders` (a base
of :class:`dipsat.board.orders.OrderBinder`) binds those without the calls of the binder's checks:

* :meth:`UsualOrders.common_order` binds a parsed order so;
* :meth:`UsualOrders.read_and_bind` goes from the order's text straight to its bound order: the
  words read by the quick reader of the core's short forms
  (:func:`dipsat.board.core_forms.read_form`, no order record made) and bound at once.

Each gives exactly the unit and the order that parsing the text and :meth:`bind_one` give (a test
compares them on generated and mutated turns), or None: the binder then reads the text with the
notation's full grammar and binds it with its checks, which word every refusal.  A case whose hooks
the binder changes is not usual (``dipsat.board.orders._common_cases``).
"""

from __future__ import annotations

from typing import Optional

from dipsat.maps import GameMap

from dipsat.board.core_forms import Form, read_form
from dipsat.board.geography import Geography
from dipsat.board.notation import Notation, ParsedOrder
from dipsat.board.seats import Seats
from dipsat.models import ARMY, FLEET, Convoy, Order, new_hold, new_move, new_move_written, new_order, new_support
from dipsat.rules import RuleOptions


class UsualOrders:
    """The usual orders bound in one step (see the module's text)."""

    map: GameMap
    rules: RuleOptions
    geo: Geography
    notation: Notation
    _common: tuple[bool, bool, bool, bool, bool]  # which orders are bound so: holds, moves, supports, convoys (and reads)

    def common_order(self, seats: Seats, power: str, p: ParsedOrder) -> Optional[tuple[int, Order]]:
        """The unit and the order :meth:`bind_one` makes of the usual cases, without the calls
        of its checks (None for any other case, which :meth:`bind_one` binds or refuses): a hold
        of the one unit in a place, as named (its coast, if written, its own); its move to a
        province whose reading asks no rule option, that it reaches by land (or, an army's
        written ``via convoy``, by a chain of fleets; a fleet's to a coast it reaches, named);
        its support of the one unit in another place to hold there, or to move to a province of
        one coast (an army by land or by a chain of fleets not through the supporting unit); a
        fleet's convoy of the one army in another place along a chain of fleets through it."""
        loc, dest, target = p.unit.loc, p.dest, p.target
        form: Form = (p.text, p.action, p.unit.kind, loc.province, loc.coast,
                      dest.province if dest is not None else None, dest.coast if dest is not None else None,
                      target.kind if target is not None else None, target.loc.province if target is not None else None,
                      p.via_convoy, p.path)
        return self.bind_form(seats, power, form, self.notation.named_power(target) if target is not None else None)

    def read_and_bind(self, seats: Seats, power: str, text: str) -> Optional[tuple[int, Order]]:
        """:meth:`common_order` of ``text`` as the notation reads it, read in one pass by the
        quick reader (None where it declines the text, or the order is not usual).  For a
        notation whose orders the quick reader may read, that names no nation of a plain unit
        (the core's :meth:`~dipsat.board.notation.Notation.named_power`)."""
        form = read_form(self.notation, text)
        return self.bind_form(seats, power, form, None) if form is not None else None

    def bind_form(self, seats: Seats, power: str, form: Form, named: Optional[str]) -> Optional[tuple[int, Order]]:
        """:meth:`common_order` of an order's form (``named``: the nation written before its
        other unit)."""
        text, action, ref_kind, province, coast, dest, dest_coast, target_kind, target, via, path = form
        here = seats.at.get(province)
        if here is None or len(here) != 1:
            return None
        i = here[0]
        kinds = seats.kinds
        kind = kinds[i]
        if seats.powers[i] != power or (ref_kind and kind != ref_kind):
            return None
        if coast and f"{province}/{coast}" != seats.locations[i]:  # (the unit's own coast: as if not written)
            return None
        if action == "hold":
            return i, new_order(power, text, new_hold(i))
        provinces = seats.provinces
        if dest_coast:  # a fleet's move to a coast it reaches, as written (the coast options read nothing)
            assert dest is not None
            if action != "move" or kind != FLEET or not self._common[1] or dest == provinces[i]:
                return None
            to = f"{dest}/{dest_coast}"
            if to in self.map.fleet_coasts_reachable(seats.locations[i], dest) and self.map.provinces[dest].passable:
                return i, new_order(power, text, new_move(i, to))
            return None
        tables = self.geo.tables
        if action == "move":  # (check_move, check_reach)
            assert dest is not None
            if not self._common[1] or dest == provinces[i]:
                return None
            if kind == ARMY:
                if path or dest not in tables.army_goes:
                    return None
                adjacent = dest in tables.army_reach.get(seats.locations[i], ())
                if not via:
                    return (i, new_order(power, text, new_move_written(i, dest, False, ()))) if adjacent else None
                # by convoy as written: along a chain of fleets that could carry it, else by land
                # where it borders the province (check_reach's reading)
                geo = self.geo
                if not geo.convoyable(seats.position.units[i]):
                    return None
                if geo.convoy_chain_possible(provinces[i], dest, seats.fleets):
                    if not adjacent and self.rules.among("convoy_path", "required"):
                        return None
                    return i, new_order(power, text, new_move_written(i, dest, True, ()))
                return (i, new_order(power, text, new_move(i, dest))) if adjacent else None
            elif kind == FLEET and dest in tables.fleet_goes and dest in tables.fleet_reach.get(seats.locations[i], ()):
                return i, new_order(power, text, new_move(i, dest))
            return None
        if target is None:
            return None
        there = seats.at.get(target)
        if there is None or len(there) != 1 or there[0] == i:
            return None
        t = there[0]
        target_is = kinds[t]
        if target_kind and target_is != target_kind:
            return None
        if action == "convoy":  # (check_convoy, target_unit): the one army, along a chain through i
            geo = self.geo
            if (not self._common[3] or dest is None or kind != FLEET or provinces[i] not in tables.convoy_areas
                    or not geo.convoyable(seats.position.units[t]) or dest == provinces[t]
                    or not geo.convoy_chain_possible(provinces[t], dest, seats.fleets, through=provinces[i])):
                return None
            return i, new_order(power, text, Convoy.build(unit=i, target=t, dest=dest))
        if action != "support" or not self._common[2]:  # (check_support, target_unit)
            return None
        reach = (tables.army_reach if kind == ARMY else tables.fleet_reach if kind == FLEET else None)
        if reach is None:  # (a variant's own kind: the map's answer)
            return None
        reaches = reach.get(seats.locations[i], ())
        if dest is None:
            return (i, new_order(power, text, new_support(i, t, named))) if provinces[t] in reaches else None
        if dest == provinces[t] or dest == provinces[i] or dest not in reaches:
            return None
        if target_is == FLEET:  # to a province of one coast (a coast there asks the support_coast option)
            if self.map.provinces[dest].coasts or dest not in tables.fleet_reach.get(seats.locations[t], ()):
                return None
        elif dest not in tables.army_reach.get(seats.locations[t], ()):  # by land, or along a chain of fleets
            geo = self.geo      # (not through the supporting unit's province)
            if not geo.convoyable(seats.position.units[t]) or not geo.convoy_chain_possible(
                    provinces[t], dest, seats.fleets, avoid=provinces[i]):
                return None
        return i, new_order(power, text, new_support(i, t, named, dest, None))
