"""Multiplicity Plus orders: the variant's order kinds and the binder that gives orders their units.

A multiple unit is held as one record per power and kind in a space (``2 A Bur``, or ``A Eng`` and
``F Eng`` for an A/F).  An order names the part it is for (``A(Par)``, ``2A(Par)``, ``A/F(ENG)``);
the binder splits the records so that each order gets pieces of its own, and the rest of a
multiple unit stands (rule 10: splitting by ordering the parts to different places).
"""

from __future__ import annotations

import dataclasses
from dataclasses import field
from typing import Optional

from dipsat.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, OrderError
from dipsat.models import ARMY, FLEET, Convoy, Hold, Move, Support, Order, OrderBody, Position, Rejected, Unit, register_order_kind
from dipsat.board.destinations import written_destination, written_unit
from dipsat.maps import GameMap
from dipsat.board.notation import MAX_ORDER_CHARS, LocRef, ParsedOrder, UnitRef
from dipsat.board.orders import BoundOrders, OrderBinder, ParsedLine, describe_unit
from dipsat.board.notation_additions import written_parts
from dipsat.records import dataclass
from dipsat.rules import RuleOptions
from dipsat.board.stack_orders import split_stacks

from .notation import CutFirst, MergeAndAttack, MergeWith, MultiplicityNotation, SplitPart, SupportedMerge, Victim
from .options import MultiplicityOptions


@dataclass(frozen=True, slots=True, kw_only=True)
class MergeMove(Move):
    """A move that forms a multinational unit with ``partner``'s units moving to the same space
    (rule 5: ``A(Par)-Bur MERGE with ITALIAN A(Mar)-Bur``)."""

    kind: str = "merge_move"
    partner: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MergeAttack(Move):
    """A move into one's own component of a multinational unit that supports that component's
    attack on the ``victim``'s component there (rule 5(a): ``A(Par)-Bur MERGE A(Bur) and support
    attack on ITALIAN A(Bur)``): its units count for the attack when the move succeeds."""

    kind: str = "merge_attack"
    victim: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MergeSupport(OrderBody):
    """Support for every unit of ``power`` moving to ``dest`` (rule 4(d))."""

    kind: str = "merge_support"
    power: str
    dest: str


@dataclass(frozen=True, slots=True, kw_only=True)
class InsideAttack(OrderBody):
    """An attack on the ``victim``'s component of one's own multinational unit (rule 5(a))."""

    kind: str = "inside_attack"
    victim: str


@dataclass(frozen=True, slots=True, kw_only=True)
class InsideSupport(OrderBody):
    """Support for an attack inside a multinational unit: ``A(Par) S A(Bur) attacks ITALIAN A(Bur)``."""

    kind: str = "inside_support"
    target: int
    victim: str


for _cls in (MergeMove, MergeAttack, MergeSupport, InsideAttack, InsideSupport):
    register_order_kind(_cls)


@dataclass
class MultiplicityBound(BoundOrders):
    """Bound orders plus what the Multiplicity rules read from the text of the orders."""

    written: dict[int, int] = field(default_factory=dict)  # unit -> index of its order as written
    priority: dict[int, tuple[str, ...]] = field(default_factory=dict)  # attacker -> spaces to cut first
    unread_priority: dict[int, tuple[str, ...]] = field(default_factory=dict)  # attacker -> parts of its priority not understood
    split_headers: dict[int, str] = field(default_factory=dict)  # unit -> the header of the split line it was read from




def _dest(body: OrderBody) -> Optional[str]:
    """Where a move goes (None for any other order)."""
    return body.dest if isinstance(body, Move) else None


def _illegal(text: str, reason: str, unit: Optional[int] = None) -> IllegalOrder:
    e = IllegalOrder(text, reason)
    e.unit = unit
    return e


def check_written_unit(m: GameMap, rules: RuleOptions, unit: Unit, ref: UnitRef, text: str, index: Optional[int]) -> None:
    """The core's check of a written unit (its coast: ``wrong_unit_coast``, ``irrelevant_coast``),
    except that the coast of a unit of armies and fleets (``A/F(StP/nc)``) is its fleets': its
    armies are not held to it.  Moves and retreats alike."""
    if unit.kind == ARMY and any(k == FLEET for _, _, k in written_parts(ref)):
        return
    written_unit(m, rules, unit, ref, text, index, kind=False)


def piece_destination(m: GameMap, rules: RuleOptions, unit: Unit, dest: LocRef, text: str, index: Optional[int]) -> str:
    """Where a written destination takes a piece, as :meth:`MultiplicityBinder.check_move` reads
    it: an army to or from a sea space goes with the fleets (rule 7; no coast to read), any other
    piece by the core's reading of a destination (the coast options)."""
    if unit.kind == ARMY and (m.provinces[unit.province].is_sea or m.provinces[dest.province].is_sea):
        return dest.province
    return written_destination(m, rules, unit, dest, text, index)


class MultiplicityBinder(OrderBinder):
    rules: MultiplicityOptions

    def check_given_unit(self, pos: Position, i: int, ref: UnitRef, text: str) -> None:
        check_written_unit(self.map, self.rules, pos.units[i], ref, text, i)

    # -- reading -------------------------------------------------------------------------------
    def parse_all(self, orders: dict[str, list[str]]) -> list[ParsedLine]:
        """Every order as read; a split written as one line gives one order per part
        (:func:`read_orders`)."""
        notation = self.notation
        assert isinstance(notation, MultiplicityNotation)  # the variant's record names it
        return read_orders(notation, self.rules, orders)

    # -- units ---------------------------------------------------------------------------------
    def _wanted(self, pos: Position, power: str, p: ParsedOrder, text: str) -> dict[str, int]:
        ref = p.unit
        prov = ref.loc.province
        here = {k: sum(u.count for u in pos.units if u.power == power and u.province == prov and u.kind == k)
                for k in (ARMY, FLEET)}
        parts = written_parts(ref)
        want: dict[str, int] = {}
        for count, _, kind in parts:
            if kind is None:
                if len(parts) > 1:
                    raise InvalidOrder(text, "name the kind of every part: A (army) or F (fleet), e.g. 'A/2F(MAO)'")
                kinds = [k for k in (ARMY, FLEET) if here[k]]
                if count is None:
                    return {k: here[k] for k in kinds}  # "Par - Bur": the whole unit there
                if len(kinds) > 1:
                    raise AmbiguousOrder(text, f"{count} of which kind? {power} has armies and fleets in "
                                               f"{self.map.provinces[prov].name}: write e.g. '{count}A'")
                kind = kinds[0] if kinds else ARMY
            n = count if count is not None else (1 if self.rules.bare_unit_count == "one" else max(here[kind], 1))
            want[kind] = want.get(kind, 0) + n
        return want

    def assign_units(self, pos: Position, parsed: list[ParsedLine]) -> tuple[Position, dict[int, list[int]], dict[int, OrderError]]:
        remaining = [u.count for u in pos.units]
        pieces: dict[int, list[tuple[int, int]]] = {}
        errors: dict[int, OrderError] = {}
        for idx, (power, text, p, _) in enumerate(parsed):
            if p is None:
                continue
            prov = p.unit.loc.province
            own = [i for i, u in enumerate(pos.units) if u.power == power and u.province == prov]
            if not own:
                continue  # bind_one says why (no unit there, or another power's)
            try:
                want = self._wanted(pos, power, p, text)
            except OrderError as exc:
                errors[idx] = exc
                continue
            name = self.map.provinces[prov].name
            short = [k for k, n in want.items() if n > sum(remaining[i] for i in own if pos.units[i].kind == k)]
            if short:
                k = short[0]
                have = sum(remaining[i] for i in own if pos.units[i].kind == k)
                what = ("army" if want[k] == 1 else "armies") if k == ARMY else ("fleet" if want[k] == 1 else "fleets")
                errors[idx] = IllegalOrder(text, f"{want[k]} {what} ordered in {name}, but {power} has only {have} "
                                                 "there without another order")
                continue
            for k, n in sorted(want.items()):
                for i in own:
                    if pos.units[i].kind != k or not n:
                        continue
                    take = min(n, remaining[i])
                    if take:
                        pieces.setdefault(i, []).append((take, idx))
                        remaining[i] -= take
                        n -= take
        split, assign = split_stacks(pos, pieces, remaining)
        return split, assign, errors

    # -- one order -----------------------------------------------------------------------------
    def bind_one(self, pos: Position, power: str, p: ParsedOrder, unit: Optional[int] = None) -> Order:
        text = p.text
        i = self.find_unit(pos, power, p.unit, text) if unit is None else unit
        u = pos.units[i]
        m = self.map
        if p.action == "merge_support":
            merge = p.addition(SupportedMerge)
            assert merge is not None  # the notation records it on every merge support
            nation, dest = merge.power, merge.space
            if dest == u.province:
                raise _illegal(text, "a unit cannot support a merge into its own space from outside it", i)
            if not self._reaches(u.kind, u.location, dest):
                raise _illegal(text, f"{describe_unit(u, m)} cannot reach {m.provinces[dest].name}, so it cannot support a merge there", i)
            return Order.build(power=power, text=text, body=MergeSupport.build(unit=i, power=nation, dest=dest))
        if p.action == "attack":
            victim = _victim(p)
            if victim == power:
                raise _illegal(text, "a nation cannot attack its own units", i)
            if not any(x.power == victim and x.province == u.province for x in pos.units):
                raise _illegal(text, f"there is no {m.powers[victim].adjective} unit in {m.provinces[u.province].name} "
                                     "to attack (rule 5(a): only the foreign component of one's own multinational unit)", i)
            return Order.build(power=power, text=text, body=InsideAttack.build(unit=i, victim=victim))
        if p.action == "support_attack":
            victim = _victim(p)
            assert p.target is not None
            prov = p.target.loc.province
            attackers = [j for j, x in enumerate(pos.units) if x.province == prov and x.power != victim and j != i]
            if not attackers or not any(x.power == victim and x.province == prov for x in pos.units):
                raise _illegal(text, f"{m.provinces[prov].name} holds no multinational unit with a "
                                     f"{m.powers[victim].adjective} component", i)
            if prov != u.province and not self._reaches(u.kind, u.location, prov):
                raise _illegal(text, f"{describe_unit(u, m)} cannot reach {m.provinces[prov].name}, so it cannot support there", i)
            return Order.build(power=power, text=text, body=InsideSupport.build(unit=i, target=attackers[0], victim=victim))
        if p.action == "convoy" and u.kind == ARMY and m.provinces[u.province].is_sea:
            return Order.build(power=power, text=text, body=Hold.build(unit=i))  # the army stays aboard
        order = super().bind_one(pos, power, p, i)
        attack = p.addition(MergeAndAttack)
        if attack is not None and isinstance(order.body, Move):
            victim = attack.victim
            dest = order.body.dest.split("/")[0]
            name = m.provinces[dest].name
            if victim == power:
                raise _illegal(text, "a nation cannot attack its own units", i)
            if not any(x.power == power and x.province == dest for x in pos.units) or \
                    not any(x.power == victim and x.province == dest for x in pos.units):
                raise _illegal(text, f"{name} holds no multinational unit of {power} and {victim} to merge into and "
                                     f"attack inside (rule 5(a))", i)
            body = order.body
            return Order.build(power=power, text=text, body=MergeAttack.build(
                unit=i, dest=body.dest, via_convoy=body.via_convoy, path=body.path, victim=victim))
        merge_with = p.addition(MergeWith)
        if merge_with is not None and isinstance(order.body, Move):
            partner = merge_with.partner
            if partner == power:
                raise _illegal(text, "a multinational merge is made with another nation", i)
            body = order.body
            order = Order.build(power=power, text=text, body=MergeMove.build(
                unit=i, dest=body.dest, via_convoy=body.via_convoy, path=body.path, partner=partner))
        return order

    def _reaches(self, kind: str, location: str, prov: str) -> bool:
        """Adjacency for a unit of a multiple unit: an army at sea or going to sea travels with
        the fleets, so it uses the fleets' adjacency."""
        m = self.map
        if kind == ARMY and (m.provinces[m.province_of(location)].is_sea or m.provinces[prov].is_sea):
            return self._by_sea(m.province_of(location), prov)
        return m.can_reach_province(kind, location, prov)

    def _by_sea(self, a: str, b: str) -> bool:
        m = self.map
        return any(m.province_of(n) == b for loc in m.fleet_locations_in(a) for n in m.fleet_neighbours(loc))

    def check_move(self, pos: Position, i: int, p: ParsedOrder) -> OrderBody:
        u = pos.units[i]
        assert p.dest is not None
        dest = p.dest.province
        m = self.map
        if u.kind == ARMY and dest != u.province and (m.provinces[u.province].is_sea or m.provinces[dest].is_sea):
            if not m.provinces[dest].passable:
                raise _illegal(p.text, f"{m.provinces[dest].name} is impassable", i)
            if not self._by_sea(u.province, dest):
                raise _illegal(p.text, f"{m.provinces[u.province].name} does not border {m.provinces[dest].name} by sea, "
                                       "and an army goes to or from a sea space only with a fleet (rule 7)", i)
            return Move.build(unit=i, dest=dest)
        return super().check_move(pos, i, p)

    def check_support(self, pos: Position, i: int, p: ParsedOrder) -> Support:
        """The core's check, except that an army at sea (or joining fleets at sea) may be
        supported to move by the fleets' adjacency (rule 7)."""
        try:
            return super().check_support(pos, i, p)
        except IllegalOrder:
            if p.target is None or p.dest is None:  # a support to hold: no move by sea to allow
                raise
            t = self.target_unit(pos, p.target, p.text, "support", i)
            tu, dest = pos.units[t], p.dest.province
            m = self.map
            by_sea = tu.kind == ARMY and (m.provinces[tu.province].is_sea or m.provinces[dest].is_sea)
            if not by_sea or not self._by_sea(tu.province, dest) or not self._reaches(pos.units[i].kind, pos.units[i].location, dest):
                raise
            return Support.build(unit=i, target=t, dest=dest, target_power=self.notation.named_power(p.target))

    def check_convoy(self, pos: Position, i: int, p: ParsedOrder) -> Convoy:
        assert p.target is not None
        if any(kind == FLEET for _, _, kind in written_parts(p.target)):
            raise _illegal(p.text, "the unit to convoy has fleets: only armies or multiple armies may be convoyed (rule 9)", i)
        c = super().check_convoy(pos, i, p)
        # rule 9: the A/F and the armies it carries together must be seaworthy
        here = [x for x in pos.units if x.province == pos.units[i].province]
        fleets = sum(x.count for x in here if x.kind == FLEET)
        armies = sum(x.count for x in here if x.kind == ARMY)
        army = pos.units[c.target]
        if fleets < armies + army.count:
            raise _illegal(p.text, f"{fleets} fleet(s) with {armies} army(ies) aboard cannot carry {army.count} more "
                                   f"army(ies): the A/F and the armies convoyed must be seaworthy (rule 9)", i)
        return c

    def choose_routes(self, b: BoundOrders) -> None:
        """The core's route choice, except that an army going to or from a sea space travels
        with the fleets there (rule 7), not by convoy."""
        super().choose_routes(b)
        m = self.map
        for u, o in b.orders.items():
            unit = b.position.units[u]
            if isinstance(o.body, Move) and unit.kind == ARMY and (
                    m.provinces[unit.province].is_sea or m.provinces[m.province_of(o.body.dest)].is_sea):
                b.route[u] = "land"

    # -- the set of orders ---------------------------------------------------------------------
    def bind(self, position: Position, orders: dict[str, list[str]]) -> MultiplicityBound:
        b = super().bind(position, orders)
        out = MultiplicityBound(b.position, b.orders, b.rejected, route=b.route, implicit=b.implicit,
                                illegal_moves=b.illegal_moves, read=b.parsed, assigned=b.assigned)
        for idx, units in sorted(out.assigned.items()):
            power, text, p, _ = out.parsed[idx]
            for u in units:
                if u in out.orders and out.orders[u].text == (p.text if p is not None else text):
                    out.written[u] = idx
                    first = p.addition(CutFirst) if p is not None else None
                    if first is not None and first.spaces:
                        out.priority[u] = first.spaces
                    if first is not None and first.unread:
                        out.unread_priority[u] = first.unread
                    part = p.addition(SplitPart) if p is not None else None
                    if part is not None:
                        out.split_headers[u] = part.header
        self._one_order_one_unit(out)
        self._implied_inside_attacks(out)
        self._fleet_prevails(out)
        self._disembark_rule(out)
        self._convoy_load(out)
        return out

    def _one_order_one_unit(self, b: MultiplicityBound) -> None:
        """An order for a multiple unit of armies and fleets (``A/F(Lon)-Pic``) is bound to one
        record per kind, but it is one order for one unit: when one part of it is not allowed
        (the fleet cannot reach the space), none of it is carried out and the whole unit stands
        (rule 7: A/Fs move "along the same lines of other multiple units"; splitting is
        "ordering the units to different locations", rule 10)."""
        for idx, units in sorted(b.assigned.items()):
            if len(units) < 2:
                continue
            power, text, p, _ = b.parsed[idx]
            written = (p.text if p is not None else text).strip()
            refused = [r for r in b.rejected if r.unit in units and r.power == power and r.text == written]
            if not refused:
                continue
            if self._fleet_part_supports(b, units, written, refused):
                continue
            for u in units:
                o = b.orders.get(u)
                if o is None or u in b.implicit or o.text.strip() != written:
                    continue
                if isinstance(o.body, Move):
                    b.illegal_moves.add(u)
                unit = b.position.units[u]
                b.orders[u] = Order.build(power=unit.power, text=f"{describe_unit(unit, self.map)} Hold", body=Hold.build(unit=u))
                b.implicit.add(u)
                b.route.pop(u, None)

    def _fleet_part_supports(self, b: MultiplicityBound, units: list[int], written: str, refused: list[Rejected]) -> bool:
        """Rule 7: "In any conflict over a sea space, only the fleet component of an A/F is taken
        into account" — under option ``af_sea_support = "fleet_part"`` an A/F's support into a
        sea space is its fleets' support: the army part, refused alone, stands and the order
        stays.  Whether it applied (the refusals are dropped)."""
        pos = b.position
        given = [u for u in units if (o := b.orders.get(u)) is not None and u not in b.implicit
                 and o.text.strip() == written and isinstance(o.body, Support)
                 and o.body.dest is not None and self.map.provinces[self.map.province_of(o.body.dest)].is_sea
                 and pos.units[u].kind == FLEET]
        if not given or any(r.unit is None or pos.units[r.unit].kind != ARMY for r in refused):
            return False
        if self.rules.af_sea_support != "fleet_part":  # read only where it decides something
            return False
        for r in refused:
            b.rejected.remove(r)
        return True

    def _implied_inside_attacks(self, b: MultiplicityBound) -> None:
        """Rule 5(a): "France could order A(Par) S A(Bur) attacks ITALIAN A(Bur)" — the support
        order alone says the French component attacks; a component of the supporting nation
        that has no order of its own makes that attack."""
        pos = b.position
        for s, o in sorted(b.orders.items()):
            body = o.body
            if isinstance(body, InsideSupport):
                prov = pos.units[body.target].province
            elif isinstance(body, MergeAttack):
                prov = self.map.province_of(body.dest)
            else:
                continue
            for a in sorted(b.implicit):
                unit = pos.units[a]
                if unit.province == prov and unit.power == o.power and unit.power != body.victim:
                    b.orders[a] = Order.build(power=unit.power, text=f"{describe_unit(unit, self.map)} attacks "
                                              f"{self.map.powers[body.victim].adjective.upper()} {self.map.display(prov)}"
                                              f" (implied by {o.text!r})", body=InsideAttack.build(unit=a, victim=body.victim))
                    b.implicit.discard(a)

    def _fleet_prevails(self, b: MultiplicityBound) -> None:
        """Rule 8: "when a multinational A/F is at sea, the order written for the fleet will always
        prevail": an army aboard another nation's fleets that all move to one space goes with
        them, whatever its own order."""
        pos = b.position
        m = self.map
        for u, o in sorted(b.orders.items()):
            unit = pos.units[u]
            if unit.kind != ARMY or not m.provinces[unit.province].is_sea:
                continue
            fleets = [f for f, x in enumerate(pos.units) if x.province == unit.province and x.kind == FLEET]
            if not fleets or any(pos.units[f].power == unit.power for f in fleets):
                continue
            dests = {d for f in fleets if (d := _dest(b.orders[f].body)) is not None}
            moving = all(isinstance(b.orders[f].body, Move) for f in fleets)
            if not moving or len(dests) != 1:
                continue
            dest = next(iter(dests))
            fleet_text = b.orders[fleets[0]].text
            if not (isinstance(o.body, Move) and o.body.dest == dest):
                if u not in b.implicit:
                    b.rejected.append(Rejected(power=o.power, text=o.text, severity="illegal", unit=u,
                                               reason=f"the fleet's order prevails at sea (rule 8): the army goes with {fleet_text!r}"))
                b.orders[u] = Order.build(power=unit.power, text=f"{describe_unit(unit, m)} - {m.display(dest)} "
                                          f"(with {fleet_text!r})", body=Move.build(unit=u, dest=dest))
                b.implicit.discard(u)
                b.route[u] = "land"

    def _disembark_rule(self, b: MultiplicityBound) -> None:
        """Rule 7: 'An Army may only disembark from a Fleet at sea if the Fleet is not ordered to
        move'; rule 8: a multinational A/F's army likewise, whatever nation's fleet carries it."""
        pos = b.position
        m = self.map
        for u, o in sorted(b.orders.items()):
            unit = pos.units[u]
            if not isinstance(o.body, Move) or unit.kind != ARMY or not m.provinces[unit.province].is_sea:
                continue
            if m.provinces[m.province_of(o.body.dest)].is_sea:
                continue  # moving on with fleets: seaworthiness decides
            with_fleet = [f for f, x in enumerate(pos.units) if x.province == unit.province and x.kind == FLEET
                          and m.province_of(_dest(b.orders[f].body) or "") == m.province_of(o.body.dest)]
            if with_fleet:
                continue  # the A/F moves together to a coast
            fleets = [f for f, x in enumerate(pos.units) if x.province == unit.province and x.kind == FLEET]
            staying = [f for f in fleets if not isinstance(b.orders[f].body, Move)]
            if fleets and not staying:
                dests = {m.province_of(d) for f in fleets if (d := _dest(b.orders[f].body)) is not None}
                b.rejected.append(Rejected(power=o.power, text=o.text, severity="illegal", unit=u,
                                           reason="an army may only disembark from a fleet that is not ordered to move (rule 7)"))
                if len(dests) == 1 and self.rules.disembark_fleet_moving == "moves_together":
                    # the army stays aboard and the A/F moves as its fleet is ordered
                    dest = next(iter(dests))
                    fleet_text = b.orders[fleets[0]].text
                    b.orders[u] = Order.build(power=unit.power, text=f"{describe_unit(unit, m)} - {m.display(dest)} "
                                              f"(aboard, with {fleet_text!r})", body=Move.build(unit=u, dest=dest))
                    b.implicit.discard(u)
                    b.route[u] = "land"
                    continue
                b.orders[u] = Order.build(power=unit.power, text=f"{describe_unit(unit, m)} Hold", body=Hold.build(unit=u))
                b.implicit.add(u)


    def _convoy_load(self, b: MultiplicityBound) -> None:
        """Rule 9: "provided that the sum of the A/F and the unit(s) being convoyed is
        seaworthy" — the fleets of a sea space carry every army convoyed through it at once, so
        the armies aboard and all the armies its convoy orders carry together may not outnumber
        its fleets; where they do, none of those convoy orders is carried out (which army the
        fleets would leave behind the orders do not say).  Option ``convoy_load``: "together"
        (this), "per_army" (each convoyed army checked alone)."""
        pos = b.position
        by_sea: dict[str, list[int]] = {}
        for f, o in sorted(b.orders.items()):
            if isinstance(o.body, Convoy) and f not in b.implicit:
                by_sea.setdefault(pos.units[f].province, []).append(f)
        for sea, convoys in sorted(by_sea.items()):
            carried = sorted({body.target for f in convoys if isinstance(body := b.orders[f].body, Convoy)})
            if len(carried) < 2:
                continue  # one army: check_convoy has checked it
            here = [x for x in pos.units if x.province == sea]
            fleets = sum(x.count for x in here if x.kind == FLEET)
            aboard = sum(x.count for x in here if x.kind == ARMY)
            load = sum(pos.units[a].count for a in carried)
            if aboard + load <= fleets or self.rules.convoy_load != "together":
                continue  # (the option is read only where it decides something)
            reason = (f"the convoys through {self.map.provinces[sea].name} carry {load} armies together"
                      f"{f' with {aboard} aboard' if aboard else ''} on {fleets} fleet(s): the A/F and the units convoyed "
                      "must be seaworthy (rule 9); none of them is carried out")
            for f in convoys:
                o = b.orders[f]
                unit = pos.units[f]
                b.rejected.append(Rejected(power=o.power, text=o.text, severity="illegal", unit=f, reason=reason))
                b.orders[f] = Order.build(power=unit.power, text=f"{describe_unit(unit, self.map)} Hold", body=Hold.build(unit=f))
                b.implicit.add(f)


def _victim(p: ParsedOrder) -> str:
    """The nation an inside attack, or a support of one, is aimed at (the notation records it on
    every such order)."""
    victim = p.addition(Victim)
    assert victim is not None
    return victim.power


def read_orders(notation: MultiplicityNotation, rules: MultiplicityOptions,
                orders: dict[str, list[str]]) -> list[ParsedLine]:
    """Every order as read, in the movement phase and in retreats alike (rule 11: "Merges and
    splits are allowed as usual during retreats"); a split written as one line (``4A(Par):
    A(Par)Std, 2A(Par)-Bur, A(Par)-Gas``) gives one order per part, each for a part of the
    header's unit."""
    out: list[ParsedLine] = []
    for power in sorted(orders):
        for text in orders[power]:
            head, colon, rest = text.partition(":")  # "UNIT: PART, PART" (no pattern: linear)
            if colon and head.strip() and rest.strip() and "\n" not in text and len(text) <= MAX_ORDER_CHARS \
                    and notation.power_named(head) is None:
                out.extend(_split_line(notation, rules, power, text, head.strip(), rest.strip()))
                continue
            try:
                out.append((power, text, notation.parse(text, power), None))
            except OrderError as exc:
                out.append((power, text, None, exc))
    return out


def _counts(rules: MultiplicityOptions, p: ParsedOrder) -> dict[str, int] | None:
    """The armies and fleets a unit as written names (``2A/F(Bre)``: 2 armies, 1 fleet); None
    where it does not say (no kind, or a bare ``A(Par)`` read as the whole unit)."""
    out: dict[str, int] = {}
    for count, _, kind in written_parts(p.unit):
        if kind is None or (count is None and rules.bare_unit_count != "one"):
            return None
        out[kind] = out.get(kind, 0) + (count if count is not None else 1)
    return out


def _split_line(notation: MultiplicityNotation, rules: MultiplicityOptions, power: str, text: str, head: str,
                rest: str) -> list[ParsedLine]:
    try:
        hp = notation.parse(head.strip(), power)
    except OrderError as exc:
        return [(power, text, None, InvalidOrder(text, f"a split is written 'UNIT: PART, PART, ...', e.g. "
                                                       f"'4A(Par): A(Par)Std, 2A(Par)-Bur'; {exc.reason}"))]
    if hp.action != "hold":
        return [(power, text, None, InvalidOrder(text, "a split is written 'UNIT: PART, PART, ...'; "
                                                       f"{head.strip()!r} is not a unit"))]
    prov = hp.unit.loc.province
    out: list[ParsedLine] = []
    parts = [p.strip() for p in rest.split(",") if p.strip()]
    for n, part in enumerate(parts, start=1):
        try:
            p = notation.parse(part, power)
        except OrderError as exc:
            space = notation.map.display(prov)
            out.append((power, part, None, type(exc)(part, (
                f"in the split {text.strip()!r}, part {n} of {len(parts)}, {part!r}: {exc.reason}; expected "
                f"each part to be units of the multiple unit and their order, written as a unit order: a count "
                f"(none for one), A or F, the space and the order, as 'A({space})Std' or '2A({space})-' and "
                f"the space they go to"))))
            continue
        if p.unit.loc.province != prov:
            # the seed's own example writes "4A(Par): A(Pic)Std, 2A(Pic)-Bur, A(Pic)-Gas": the
            # parts are parts of the header's unit, wherever the part says it stands
            p = dataclasses.replace(p, unit=dataclasses.replace(p.unit, loc=dataclasses.replace(p.unit.loc, province=prov)),
                                    additions=(*p.additions, SplitPart(head.strip())))
        out.append((power, part, p, None))
    # a line whose parts name more units than its header is one mistake, not a first part carried
    # out and a second refused: the whole line is refused (rule 10: a split orders "the units"
    # of the multiple unit "to different locations")
    whole = _counts(rules, hp)
    read = [p for _, _, p, _ in out if p is not None]
    named = [_counts(rules, p) for p in read]
    if whole is not None and len(read) == len(out) and all(c is not None for c in named):
        total: dict[str, int] = {}
        for c in named:
            assert c is not None
            for k, n in c.items():
                total[k] = total.get(k, 0) + n
        over = [k for k in (ARMY, FLEET) if total.get(k, 0) > whole.get(k, 0)]
        if over:
            k = over[0]
            what = "armies" if k == ARMY else "fleets"
            return [(power, text, None, IllegalOrder(text, (
                f"the split {text.strip()!r} orders {total[k]} {what}, but its unit {head.strip()!r} has "
                f"{whole.get(k, 0)}: none of its parts is carried out")))]
    return out
