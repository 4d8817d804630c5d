"""From parsed order text to legal orders bound to units of a position.

Each order is checked on its own (DATC 4.E.1: an order is *legal* when, not knowing the other
orders, it could be valid); an illegal order is rejected with its reason and the unit holds.
Whether a legal support or convoy *matches* the other orders is decided by the rules, not here,
except for the choice of route of an army that could go by land or by sea (DATC 4.A.3), which
looks at the convoy orders of the set.

Geography is asked of the map through a :class:`~dipsat.board.geography.Geography` record
(:mod:`dipsat.board.geography`), so variants can change where fleets may convoy or which units
may be convoyed without touching this module.
"""

from __future__ import annotations

from dataclasses import field
from functools import cached_property
from typing import Any, Callable, Iterator, Optional

from dipsat.maps import GameMap

from dipsat.errors import IllegalOrder, InvalidOrder, OrderError
from dipsat.models import (ARMY, FLEET, Convoy, Move, Order, OrderBody, Position, Rejected, Support, Unit, new_hold,
                           new_move, new_move_written, new_order, new_support)
from dipsat.board.core_forms import read_form
from dipsat.board.notation import LocRef, Notation, ParsedOrder, UnitRef
from dipsat.board.destinations import written_destination, written_unit
from dipsat.board.geography import BoardTables as BoardTables, ConvoyReach as ConvoyReach, Geography as Geography
from dipsat.board.one_pass import UsualOrders
from dipsat.board.seats import Seats as Seats
from dipsat.records import dataclass
from dipsat.rules import RuleOptions


# one order as read: (power, text, the parse or None, the parse error or None)
ParsedLine = tuple[str, str, Optional[ParsedOrder], Optional[OrderError]]


@dataclass
class BoundOrders:
    """The orders of a turn after the legality checks."""

    position: Position
    orders: dict[int, Order]  # unit index -> order (every unit has one; implicit holds included)
    rejected: list[Rejected]
    route: dict[int, str] = field(default_factory=dict)  # moving unit -> "land" | "convoy" | "either"
    implicit: set[int] = field(default_factory=set)  # units that got no order
    illegal_moves: set[int] = field(default_factory=set)  # units whose (illegal) move was replaced
    # how they were read: every order as read (ParsedLine, in the order parse_all gives them; an
    # order read and bound in one pass is (power, text, None, None) here: see ``parsed``), and
    # the units assign_units gave each (by index into ``read``; orders not listed found their
    # unit by place), so a variant's binder reads them from the value, not from itself
    read: list[ParsedLine] = field(default_factory=list)
    assigned: dict[int, list[int]] = field(default_factory=dict)
    reread: Optional[Callable[[str, Optional[str]], ParsedOrder]] = None  # the notation's parse, for ``parsed``

    @cached_property
    def provinces(self) -> list[str]:
        """Unit index -> the province it stands in (read once per turn)."""
        return [u.province for u in self.position.units]

    @cached_property
    def parsed(self) -> list[ParsedLine]:
        """Every order as parsed (ParsedLine, in the order parse_all gives them): ``read``, each
        order read and bound in one pass parsed now (when asked: the notation's parse of the
        text, which the quick reader read as the notation reads it)."""
        parse = self.reread
        if parse is None:
            return self.read
        return [(power, text, parse(text, power), None) if p is None and e is None else (power, text, p, e)
                for power, text, p, e in self.read]


_BY_PLACE: tuple[Optional[int], ...] = (None,)  # an order that finds its unit by its place
_UNSEEN: Any = object()  # a text not in the memo of forms


def _common_cases(cls: type[OrderBinder]) -> tuple[bool, bool, bool, bool, bool]:
    """Which orders :meth:`OrderBinder.common_order` may bind for a binder class: holds, moves,
    supports, convoys, each where the class keeps the core's hooks that bind them; and whether
    the class reads orders as the core does (:meth:`OrderBinder.read_and_bind` may read them)."""
    def core(*names: str) -> bool:
        return all(getattr(cls, n) is getattr(OrderBinder, n) for n in names)

    holds = core("bind_one", "find_unit", "common_order", "bind_form")
    return (holds, holds and core("check_move", "check_reach"), holds and core("check_support", "target_unit"),
            holds and core("check_convoy", "target_unit"), holds and core("parse_all", "assign_units", "read_and_bind"))


_COMMON: dict[type, tuple[bool, bool, bool, bool, bool]] = {}  # binder class -> _common_cases (pure memo)


MOVE, CONVOY, OTHER = 1, 2, 3
_BODY_KINDS: dict[type, int] = {}  # order body class -> MOVE, CONVOY or OTHER (pure memo)


def _body_kind(cls: type) -> int:
    """Whether an order body class is a move (a subclass too), a convoy, or neither: asked once
    per class (``isinstance`` of a model class costs about as much as the rest of a route's
    choice)."""
    what = MOVE if issubclass(cls, Move) else CONVOY if issubclass(cls, Convoy) else OTHER
    _BODY_KINDS[cls] = what
    return what


def describe_unit(u: Unit, m: GameMap) -> str:
    return f"{u.kind} {m.display(u.location)}"


class OrderBinder(UsualOrders):
    """Checks parsed orders against a position and turns them into :class:`Order` values.  Its
    answers depend only on its arguments: what it derives from a position (:meth:`seats`) is a
    value of that position, remembered for the last one asked about."""

    def __init__(self, game_map: GameMap, rules: RuleOptions, geography: Optional[Geography] = None,
                 notation: Optional[Notation] = None):
        self.map = game_map
        self.rules = rules
        self.geo = geography or Geography(game_map)
        self.notation = notation or Notation(game_map)
        self._seats: Optional[Seats] = None  # a memo of :meth:`seats` (the last position)
        common = _COMMON.get(type(self))
        if common is None:
            common = _COMMON[type(self)] = _common_cases(type(self))
        self._common = common  # (holds, moves, supports, convoys, reads): which orders common_order may bind
        # orders read and bound in one pass: where the class reads them as the core does, and the
        # quick reader may read the notation's orders (a plain unit naming no nation)
        self._one_pass = common[4] and self.notation._quick and type(self.notation).named_power is Notation.named_power

    def seats(self, pos: Position) -> Seats:
        """Where ``pos``'s units are (:class:`Seats`)."""
        last = self._seats
        if last is None or last.position is not pos:
            last = self._seats = Seats.of(pos, self.geo)
        return last

    # -- entry point ----------------------------------------------------------------------
    def parse_all(self, orders: dict[str, list[str]]) -> list[ParsedLine]:
        """Parse every order (powers in name order, each power's orders as written); the orders
        a grammar addition implies (a move written with its supports: "A Tyo-Mun sup by A Boh")
        follow the order that implies them."""
        out: list[ParsedLine] = []
        parse = self.notation.parse
        for power in sorted(orders):
            for text in orders[power]:
                _parse_into(out, parse, power, text)
        return out

    def assign_units(self, pos: Position, parsed: list[ParsedLine]) -> tuple[Position, dict[int, list[int]], dict[int, OrderError]]:
        """Hook: give orders their units before binding.  Returns the position (a variant may
        split its units), order index -> its units (orders not listed find their unit by
        place), and errors per order index.  One unit per province: nothing to do."""
        return pos, {}, {}

    def move_to_own_province(self, pos: Position, i: int, p: ParsedOrder) -> OrderBody:
        """Hook: a move to the unit's own province ("F Nwy-Nwy").  Standard: illegal."""
        raise IllegalOrder(p.text, "move to its own province: a unit cannot move to where it is", unit=i)

    def read_in_one_pass(self, seats: Seats, orders: dict[str, list[str]]) -> tuple[list[ParsedLine], dict[int, tuple[int, Order]]]:
        """:meth:`parse_all`'s lines, each order that :meth:`read_and_bind` reads and binds in
        one pass kept as (power, text, None, None) with its unit and order (by index)."""
        out: list[ParsedLine] = []
        done: dict[int, tuple[int, Order]] = {}
        notation = self.notation
        parse, forms, bind_form = notation.parse, notation.form_memo, self.bind_form
        for power in sorted(orders):
            for text in orders[power]:
                form = forms.get(text, _UNSEEN)  # (read_and_bind, the core's: its steps written out)
                if form is _UNSEEN:
                    form = read_form(notation, text)
                hit = bind_form(seats, power, form, None) if form is not None else None
                if hit is not None:
                    done[len(out)] = hit
                    out.append((power, text, None, None))
                    continue
                _parse_into(out, parse, power, text)
        return out, done

    def bind(self, position: Position, orders: dict[str, list[str]]) -> BoundOrders:
        done: dict[int, tuple[int, Order]] = {}  # orders read and bound in one pass, by index
        assign: dict[int, list[int]]
        alloc_errors: dict[int, OrderError]
        if self._one_pass:  # (parse_all and assign_units are the core's)
            pos, assign, alloc_errors = position, {}, {}
            parsed_all, done = self.read_in_one_pass(self.seats(pos), orders)
        else:
            parsed_all = self.parse_all(orders)
            pos, assign, alloc_errors = self.assign_units(position, parsed_all)
        rejected: list[Rejected] = []
        final: dict[int, Order] = {}  # unit -> its order (the first, until the duplicates are read)
        more: dict[int, list[Order]] = {}  # unit -> its orders, where it has several
        illegal_moves: set[int] = set()
        bind_one = self.bind_one
        common = self.common_order if self._common[0] else None
        seats = self.seats(pos)
        for idx, (power, text, parsed, err) in enumerate(parsed_all):
            if alloc_errors:
                err = err or alloc_errors.get(idx)
            for one in (assign.get(idx, _BY_PLACE) if assign else _BY_PLACE):
                usual = done.get(idx) if done else None
                if usual is None and err is None and common is not None and one is None:
                    usual = common(seats, power, parsed)  # type: ignore[arg-type]
                if usual is not None:
                    u, order = usual
                else:
                    try:
                        if err is not None:
                            raise err
                        assert parsed is not None
                        order = bind_one(pos, power, parsed, one)
                    except OrderError as exc:
                        if parsed is not None and parsed.action == "move" and exc.unit is not None:
                            illegal_moves.add(exc.unit)
                        rejected.append(Rejected(power=power, text=text.strip(), severity=exc.severity,
                                                 reason=exc.reason, unit=exc.unit if exc.unit is not None else one))
                        continue
                    u = order.body.unit
                if u not in final:
                    final[u] = order
                elif u in more:
                    more[u].append(order)
                else:
                    more[u] = [final[u], order]
        for u in sorted(more):  # several orders to one unit
            cands = more[u]
            distinct = {o.body for o in cands}
            if len(distinct) == 1:
                final[u] = cands[-1]
                continue
            policy = self.rules.duplicate_orders
            if policy == "first":
                final[u] = cands[0]
                for o in cands[1:]:
                    rejected.append(Rejected(power=o.power, text=o.text, severity="illegal", unit=u,
                                             reason="another order to the same unit came first (rule option duplicate_orders=first)"))
            elif policy == "last":
                final[u] = cands[-1]
                for o in cands[:-1]:
                    rejected.append(Rejected(power=o.power, text=o.text, severity="illegal", unit=u,
                                             reason="a later order to the same unit replaces it (rule option duplicate_orders=last)"))
            else:
                del final[u]
                for o in cands:
                    rejected.append(Rejected(power=o.power, text=o.text, severity="illegal", unit=u, duplicate=True,
                                             reason="the unit has several different orders, so it holds (DATC 4.D.3)"))
        bound = BoundOrders(pos, {}, rejected, read=parsed_all, assigned=assign, reread=self.notation.parse if done else None)
        bound.__dict__["provinces"] = seats.provinces  # (the cached property, known already)
        given, implicit, display, units = bound.orders, bound.implicit, self.map.display, pos.units
        for i in range(len(units)):
            chosen = final.get(i)
            if chosen is not None:
                given[i] = chosen
            else:
                unit = units[i]
                given[i] = new_order(unit.power, f"{unit.kind} {display(unit.location)} Hold", new_hold(i))
                implicit.add(i)
        bound.illegal_moves = {u for u in illegal_moves if u in implicit}
        self.choose_routes(bound)
        return bound

    # -- one order (the usual ones: UsualOrders) -------------------------------------------
    def find_unit(self, pos: Position, power: str, ref: UnitRef, text: str) -> int:
        prov = ref.loc.province
        seats = self._seats
        if seats is None or seats.position is not pos:
            seats = self.seats(pos)
        here = seats.at.get(prov, [])
        if len(here) == 1 and not ref.loc.coast:  # the usual case: the one unit there, as named
            u = pos.units[here[0]]
            if u.power == power and (not ref.kind or u.kind == ref.kind):
                return here[0]
        if not here:
            raise IllegalOrder(text, f"there is no unit in {self.map.provinces[prov].name}")
        own = [i for i in here if pos.units[i].power == power]
        if not own:
            other = pos.units[here[0]]
            raise IllegalOrder(text, f"the unit in {self.map.provinces[prov].name} belongs to {other.power}, not {power}")
        if ref.kind:
            same_kind = [i for i in own if pos.units[i].kind == ref.kind]
            if same_kind:
                own = same_kind
            elif self.rules.wrong_unit_kind == "fail":
                raise IllegalOrder(text, f"the unit in {self.map.provinces[prov].name} is {describe_unit(pos.units[own[0]], self.map)}, not {'an army' if ref.kind == 'A' else 'a fleet'} (rule option wrong_unit_kind=fail)", unit=own[0])
        i = own[0]
        written_unit(self.map, self.rules, pos.units[i], ref, text, i, kind=False)
        return i

    def check_given_unit(self, pos: Position, i: int, ref: UnitRef, text: str) -> None:
        """Hook: the unit :meth:`assign_units` gave an order, checked against the unit as written
        (its coast: ``wrong_unit_coast``, ``irrelevant_coast``), as :meth:`find_unit` checks the
        unit it finds; the retreat phase reads the same.  The kind chose the unit already."""
        written_unit(self.map, self.rules, pos.units[i], ref, text, i, kind=False)

    def target_unit(self, pos: Position, ref: UnitRef, text: str, what: str, unit: int) -> int:
        prov = ref.loc.province
        at = self.seats(pos).at
        here = [i for i in at.get(prov, []) if i != unit] or at.get(prov, [])
        named = self.notation.named_power(ref)
        if named:
            here = [i for i in here if pos.units[i].power == named] or here
        if not here:
            raise IllegalOrder(text, f"there is no unit in {self.map.provinces[prov].name} to {what}", unit=unit)
        if ref.kind:
            same = [i for i in here if pos.units[i].kind == ref.kind]
            if same:
                here = same
            elif self.rules.wrong_unit_kind == "fail":
                raise IllegalOrder(text, f"the unit in {self.map.provinces[prov].name} is not {'an army' if ref.kind == 'A' else 'a fleet'} (rule option wrong_unit_kind=fail)", unit=unit)
        return here[0]

    def bind_one(self, pos: Position, power: str, p: ParsedOrder, unit: Optional[int] = None) -> Order:
        text = p.text
        if unit is None:
            i = self.find_unit(pos, power, p.unit, text)
        else:
            i = unit
            self.check_given_unit(pos, i, p.unit, text)
        action = p.action
        if action == "move":
            return new_order(power, text, self.check_move(pos, i, p))
        if action == "hold":
            return new_order(power, text, new_hold(i))
        if action == "support":
            return new_order(power, text, self.check_support(pos, i, p))
        if action == "convoy":
            return new_order(power, text, self.check_convoy(pos, i, p))
        if p.action == "disband":
            raise IllegalOrder(text, "a disband is a retreat or adjustment order, not a movement order", unit=i)
        raise InvalidOrder(text, f"unknown action {p.action!r}")  # pragma: no cover

    def resolve_dest(self, u: Unit, dest: LocRef, text: str, unit: int, for_support: bool = False) -> str:
        """The location a unit moves to (coast resolved for fleets).  Raises when impossible.
        The one reading of a written destination, shared with retreats
        (:func:`dipsat.board.destinations.written_destination`)."""
        return written_destination(self.map, self.rules, u, dest, text, unit,
                                   army_can_stand=self.geo.tables.stand.__contains__, for_support=for_support)

    def check_move(self, pos: Position, i: int, p: ParsedOrder) -> OrderBody:
        """A move order: the checks every board shares (a move to the unit's own province goes
        to :meth:`move_to_own_province`), then :meth:`check_reach` for where it may go."""
        assert p.dest is not None
        seats = self._seats
        here = seats.provinces[i] if seats is not None and seats.position is pos else pos.units[i].province
        if p.dest.province == here:
            return self.move_to_own_province(pos, i, p)
        return self.check_reach(pos, i, p)

    def check_reach(self, pos: Position, i: int, p: ParsedOrder) -> OrderBody:
        """Hook: a move to another province, by where the unit may go (DATC 4.E.1: by land, or
        by a chain of fleets that could convoy it); the order body it makes."""
        u = pos.units[i]
        assert p.dest is not None
        prov = p.dest.province
        if not p.dest.coast:  # the usual move, to a place whose reading asks no rule option:
            kind = u.kind     # what the general path below gives, without reading the place
            if kind == ARMY:
                if (not p.via_convoy and not p.path and prov in self.geo.tables.army_goes
                        and self.map.can_reach_province(ARMY, u.location, prov)):
                    return new_move_written(i, prov, False, ())
            elif kind == FLEET and prov in self.geo.tables.fleet_goes and self.map.can_reach_province(FLEET, u.location, prov):
                return new_move(i, prov)
        text = p.text
        dest = self.resolve_dest(u, p.dest, text, i)
        adjacent = self.map.can_reach_province(u.kind, u.location, prov)
        if u.kind == FLEET:
            if not adjacent:
                raise IllegalOrder(text, f"{self.map.display(u.location)} does not border {self.map.provinces[prov].name} and only armies can be convoyed", unit=i)
            return new_move(i, dest)
        path: tuple[str, ...] = ()
        if p.path and not self.rules.among("convoy_path", "ignored"):
            path = p.path
        if not adjacent or p.via_convoy or p.path:
            if not self.geo.convoyable(u) or not self.geo.convoy_chain_possible(u.province, prov, self.seats(pos).fleets):
                if adjacent and not p.path:
                    return new_move(i, dest)
                raise IllegalOrder(text, f"{self.map.provinces[u.province].name} does not border {self.map.provinces[prov].name} and no chain of fleets could convoy it there (DATC 4.E.1)", unit=i)
        if not adjacent and not p.path and self.rules.among("convoy_path", "required"):
            raise IllegalOrder(text, "a convoyed move must name its path (rule option convoy_path=required)", unit=i)
        return new_move_written(i, dest, p.via_convoy, path)

    def check_support(self, pos: Position, i: int, p: ParsedOrder) -> Support:
        u = pos.units[i]
        text = p.text
        assert p.target is not None
        t = self.target_unit(pos, p.target, text, "support", i)
        if t == i:
            raise IllegalOrder(text, "a unit cannot support itself", unit=i)
        tu = pos.units[t]
        m = self.map
        if p.dest is None:
            if not m.can_reach_province(u.kind, u.location, tu.province):
                raise IllegalOrder(text, f"{describe_unit(u, m)} cannot reach {m.provinces[tu.province].name}, so it cannot support there", unit=i)
            return new_support(i, t, self.notation.named_power(p.target))
        prov = p.dest.province
        if prov == tu.province:
            raise IllegalOrder(text, "the supported move goes nowhere", unit=i)
        if prov == u.province:
            raise IllegalOrder(text, "a unit cannot support a move into its own province", unit=i)
        if not m.can_reach_province(u.kind, u.location, prov):
            raise IllegalOrder(text, f"{describe_unit(u, m)} cannot reach {m.provinces[prov].name}, so it cannot support a move there", unit=i)
        # can the supported unit make that move at all?
        if tu.kind == FLEET:
            reach = m.fleet_coasts_reachable(tu.location, prov)
            if not reach:
                raise IllegalOrder(text, f"{describe_unit(tu, m)} cannot move to {m.provinces[prov].name}", unit=i)
            if p.dest.coast and not self.rules.among("support_coast", "ignored"):
                loc = f"{prov}/{p.dest.coast}"
                if loc in m.coasts and loc not in reach:
                    raise IllegalOrder(text, f"{describe_unit(tu, m)} cannot reach {m.display(loc)} (DATC 4.B.4)", unit=i)
            if (not p.dest.coast and m.provinces[prov].coasts
                    and self.rules.among("support_coast", "required")):
                raise IllegalOrder(text, f"the coast of {m.provinces[prov].name} must be named (rule option support_coast=required)", unit=i)
        else:
            if not (m.can_reach_province("A", tu.location, prov)
                    or (self.geo.convoyable(tu) and self.geo.convoy_chain_possible(tu.province, prov, self.seats(pos).fleets, avoid=u.province))):
                raise IllegalOrder(text, f"{describe_unit(tu, m)} cannot move to {m.provinces[prov].name}", unit=i)
        coast = None
        if p.dest.coast and f"{prov}/{p.dest.coast}" in m.coasts and not self.rules.among("support_coast", "ignored"):
            coast = f"{prov}/{p.dest.coast}"
        return new_support(i, t, self.notation.named_power(p.target), prov, coast)

    def check_convoy(self, pos: Position, i: int, p: ParsedOrder) -> Convoy:
        u = pos.units[i]
        text = p.text
        m = self.map
        assert p.target is not None and p.dest is not None
        if u.kind != FLEET or not self.geo.convoy_area(u.province):
            raise IllegalOrder(text, f"{describe_unit(u, m)} cannot convoy: only fleets at sea convoy", unit=i)
        t = self.target_unit(pos, p.target, text, "convoy", i)
        tu = pos.units[t]
        if not self.geo.convoyable(tu):
            raise IllegalOrder(text, f"{describe_unit(tu, m)} cannot be convoyed: only armies are", unit=i)
        prov = p.dest.province
        if prov == tu.province:
            raise IllegalOrder(text, "the convoyed move goes nowhere", unit=i)
        if not self.geo.convoy_chain_possible(tu.province, prov, self.seats(pos).fleets, through=u.province):
            raise IllegalOrder(text, f"{describe_unit(u, m)} is on no convoy route from {m.provinces[tu.province].name} to {m.provinces[prov].name} (DATC 6.G.19)", unit=i)
        return Convoy.build(unit=i, target=t, dest=prov)

    # -- route choice (DATC 4.A.3) ----------------------------------------------------------
    def choose_routes(self, b: BoundOrders) -> None:
        pos = b.position
        orders = b.orders
        units = pos.units
        province_of = self.geo.tables.province.get
        convoyers: dict[int, list[int]] = {}
        moves: list[tuple[int, Move]] = []
        kinds = _BODY_KINDS
        for u, o in orders.items():
            body = o.body
            what = kinds.get(type(body))
            if what is None:
                what = _body_kind(type(body))
            if what == MOVE:
                moves.append((u, body))  # type: ignore[arg-type]  # (a Move: _body_kind)
            elif what == CONVOY:
                assert isinstance(body, Convoy)
                target = orders.get(body.target)
                if target is not None and isinstance(target.body, Move) and target.body.dest.split("/")[0] == body.dest:
                    convoyers.setdefault(body.target, []).append(body.unit)
        if not moves:
            return
        seats = self.seats(pos)
        provinces, fleets, kinds_of, locations = b.provinces, seats.fleets, seats.kinds, seats.locations

        def bodies() -> Iterator[tuple[OrderBody, int]]:
            """Every order's body and what it is (MOVE, CONVOY, OTHER)."""
            for o in orders.values():
                yield o.body, kinds.get(type(o.body)) or _body_kind(type(o.body))

        chain_possible = self.geo.convoy_chain_possible
        routes = b.route
        army_reach = self.geo.tables.army_reach
        for u, mv in moves:
            if kinds_of[u] != ARMY:
                routes[u] = "land"
                continue
            dest = mv.dest
            dest_prov = province_of(dest) or dest.split("/")[0]
            by = convoyers.get(u, [])
            adjacent = dest_prov in army_reach.get(locations[u], ())
            if adjacent and not by and not mv.via_convoy:  # no convoy ordered nor asked for: over land in every edition
                routes[u] = "land"
                continue
            if adjacent and not chain_possible(provinces[u], dest_prov, fleets):
                routes[u] = "land"
                continue
            if not adjacent:
                routes[u] = "convoy"
                continue
            unit = units[u]
            own_fleet = any(units[f].power == unit.power for f in by)

            def route(policy: str, mv: Move = mv, fleets: list[int] = by, own_fleet: bool = own_fleet,
                      unit: Unit = unit, dest_prov: str = dest_prov) -> str:
                if policy == "dptg":
                    return "convoy" if mv.via_convoy else "land"
                if policy == "1971":  # the convoy only for a swap, and only when it is not disrupted (DATC 4.A.3 a)
                    opposite = any(what == MOVE and units[x.unit].province == dest_prov
                                   and x.dest.split("/")[0] == unit.province for x, what in bodies())  # type: ignore[attr-defined]
                    return "either" if fleets and opposite else "land"
                if policy == "2000_fallback":
                    return "either" if (mv.via_convoy or own_fleet) and fleets else "land"
                return "convoy" if mv.via_convoy or own_fleet else "land"  # 1982, 2000

            routes[u] = self.rules.pick("adjacent_convoy", route)  # read only where an army could go either way


def _parse_into(out: list[ParsedLine], parse: Callable[[str, str], ParsedOrder], power: str, text: str) -> None:
    """Add an order's line to :meth:`OrderBinder.parse_all`'s lines: parsed, or its error, and the
    orders a grammar addition implies after it."""
    try:
        parsed = parse(text, power)
    except OrderError as exc:
        out.append((power, text, None, exc))
        return
    out.append((power, text, parsed, None))
    for addition in parsed.additions:
        out.extend((power, q.text, q, None) for q in addition.implied(parsed))
