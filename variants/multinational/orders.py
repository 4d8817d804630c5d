"""Multinational's geography (where a power may go, who convoys whom) and its binder (legality of
fly-overs, allowances and convoys by Military powers)."""

from __future__ import annotations

from collections import deque
from functools import cached_property
from typing import Optional

from dipsat.board.destinations import written_destination
from dipsat.errors import IllegalOrder, InvalidOrder
from dipsat.models import Convoy, Move, OrderBody, Position, Rejected, Support, Unit
from dipsat.board.notation import ParsedOrder
from dipsat.board.geography import Geography
from dipsat.board.orders import BoundOrders, OrderBinder, describe_unit
from dipsat.variants.multinational.notation import (
    Allowance,
    FlyOver,
    FlyOverRoute,
    MultinationalNotation,
)
from dipsat.variants.multinational.options import KINDS, MultinationalOptions


class MultinationalGeography(Geography):
    def convoy_area(self, province: str) -> bool:
        return self.map.provinces[province].is_sea

    def convoyable(self, unit: Unit) -> bool:
        return True  # "all powers can be convoyed"

    def can_convoy(self, unit: Unit) -> bool:
        spec = KINDS.get(unit.kind)
        return spec is not None and spec.get("convoys", False)

    def army_can_stand(self, province: str) -> bool:
        return not self.map.provinces[province].is_sea

    @cached_property
    def land_distance(self) -> dict[str, dict[str, int]]:
        """Distances over land edges only (the seed: second and third lines never cross a sea)."""
        out: dict[str, dict[str, int]] = {}
        g = self.map.army_graph
        for src in sorted(g.nodes):
            dist = {src: 0}
            q = deque([src])
            while q:
                x = q.popleft()
                for y in sorted(g.adj[x]):
                    if y not in dist:
                        dist[y] = dist[x] + 1
                        q.append(y)
            out[src] = dist
        return out

    def distance(self, kind: str, origin: str, target: str) -> Optional[int]:
        """How far a power of ``kind`` at ``origin`` reaches ``target`` (1, 2, 3), or None."""
        spec = KINDS.get(kind)
        if spec is None or origin == target:
            return None
        m = self.map
        sea_involved = m.provinces[origin].is_sea or m.provinces[target].is_sea
        if sea_involved:
            if not spec["seas"]:
                return None
            return 1 if target in m.fleet_neighbours(origin) else None
        if spec["seas"] and target in m.fleet_neighbours(origin):
            return 1
        d = self.land_distance.get(origin, {}).get(target)
        return d if d is not None and d in spec["attack"] else None

    def strength(self, kind: str, distance: Optional[int]) -> int:
        if distance is None:
            return 0
        return KINDS[kind]["attack"].get(distance, 0)


class MultinationalBinder(OrderBinder):
    """Order checks for powers: reach by kind and distance, convoys by M at sea, fly-overs and
    allowances."""

    geo: MultinationalGeography
    rules: MultinationalOptions

    notation: MultinationalNotation

    def bind(self, position: Position, orders: dict[str, list[str]]) -> BoundOrders:
        self.allowances: list[Allowance] = []
        unit_orders: dict[str, list[str]] = {}
        refused: list[Rejected] = []
        for power, texts in orders.items():
            for t in texts:
                if self.notation.is_allowance(t):
                    try:
                        self.allowances.append(self.notation.parse_allowance(power, t))
                    except InvalidOrder as exc:
                        refused.append(Rejected(power=power, text=t, severity="invalid", reason=exc.reason))
                else:
                    unit_orders.setdefault(power, []).append(t)
        self._flyovers: dict[str, int] = {}
        bound = super().bind(position, unit_orders)
        bound.rejected.extend(refused)
        return bound

    def allowed(self, owner: str, mover_power: str, kind: str, origin: str, state: str) -> bool:
        return any(a.giver == owner and a.to == mover_power and (a.kind is None or (a.kind == kind and a.origin == origin))
                   and (not a.states or state in a.states) for a in self.allowances)

    def move_to_own_province(self, pos: Position, i: int, p: ParsedOrder) -> OrderBody:
        raise IllegalOrder(p.text, "a power cannot attack the state it stands on", unit=i)

    def check_reach(self, pos: Position, i: int, p: ParsedOrder) -> Move:
        """A power reaches by its kind's range over land (an M also by sea), else by convoy; a
        fly-over by its written route."""
        u = pos.units[i]
        text = p.text
        assert p.dest is not None
        prov = written_destination(self.map, self.rules, u, p.dest, text, i)  # the core's reading (a coast is irrelevant)
        written = p.addition(FlyOverRoute)
        if written is not None:
            return self._check_flyover(pos, i, p, written.route)
        d = self.geo.distance(u.kind, u.location, prov)
        if d is not None:
            return Move.build(unit=i, dest=prov, via_convoy=False, path=())
        if not self.map.provinces[prov].is_sea and self.geo.convoy_chain_possible(u.province, prov, self.seats(pos).fleets):
            return Move.build(unit=i, dest=prov, via_convoy=True, path=())
        spec = KINDS.get(u.kind)
        kind = spec["name"] if spec is not None else u.kind
        raise IllegalOrder(text, f"a {kind} power in {self.map.provinces[u.province].name} cannot reach "
                             f"{self.map.provinces[prov].name} (range {max(KINDS[u.kind]['attack'])}, over land"
                             f"{'' if KINDS[u.kind]['seas'] else '; no seas'}) and no convoy could bring it", unit=i)

    def _check_flyover(self, pos: Position, i: int, p: ParsedOrder, route: tuple[str, ...]) -> Move:
        u = pos.units[i]
        m = self.map
        text = p.text
        assert p.dest is not None
        dest = p.dest.province
        owners = pos.owners
        occupant = {x.province: x for x in pos.units}
        n = self._flyovers.get(u.power, 0) + 1
        self._flyovers[u.power] = n
        if n > 2:
            raise IllegalOrder(text, f"{u.power} already has two fly-overs this year (at most two per multinational)", unit=i)
        chain = (u.province, *route, dest)
        for a, b in zip(chain, chain[1:]):
            if m.provinces[b].is_sea or m.provinces[a].is_sea:
                raise IllegalOrder(text, "a fly-over never crosses or ends on a sea", unit=i)
            if b not in m.army_neighbours(a):
                raise IllegalOrder(text, f"the fly-over route is broken: {m.provinces[a].name} does not border {m.provinces[b].name} "
                                     "(a fly-over names its whole route)", unit=i)
        for s in route:
            pdata = m.provinces[s]
            occ, ctrl = (occupant[s].power if s in occupant else None), owners.get(s)
            if ctrl is None and pdata.supply_centre:  # "nor can you fly over an uncontrolled SC"
                raise IllegalOrder(text, f"a fly-over cannot cross {pdata.name}: an uncontrolled capacity centre", unit=i)
            if u.power in (occ, ctrl):  # "over your own occupied or controlled states"
                continue
            parties = sorted({x for x in (occ, ctrl) if x is not None})  # none: a neutral state
            given = [x for x in parties if self.allowed(x, u.power, u.kind, u.province, s)]
            need_all = self.rules.mn_flyover_allowance_from == "all"
            if parties and (len(given) < len(parties) if need_all else not given):
                who = " and ".join(f"{x} " + " and ".join(r for r, y in (("occupies", occ), ("controls", ctrl)) if y == x)
                                   for x in parties)
                missing = [x for x in parties if x not in given]
                raise IllegalOrder(text, f"{who} {pdata.name}; no allowance to fly over it from {' or '.join(missing)}", unit=i)
        ddata = m.provinces[dest]
        if ddata.supply_centre and owners.get(dest) != u.power:
            raise IllegalOrder(text, f"a fly-over ends only on a neutral state or one {u.power} controls; {ddata.name} is not", unit=i)
        return FlyOver.build(unit=i, dest=dest, via_convoy=False, path=(), route=route)

    def check_support(self, pos: Position, i: int, p: ParsedOrder) -> Support:
        u = pos.units[i]
        text = p.text
        assert p.target is not None
        t = self.target_unit(pos, p.target, text, "support", i)
        if t == i:
            raise IllegalOrder(text, "a power cannot support itself", unit=i)
        tu = pos.units[t]
        aim = p.dest.province if p.dest is not None else tu.province
        if self.geo.distance(u.kind, u.location, aim) is None:
            raise IllegalOrder(text, f"{describe_unit(u, self.map)} cannot attack {self.map.provinces[aim].name}, so it cannot support there", unit=i)
        if p.dest is not None:
            if self.geo.distance(tu.kind, tu.location, aim) is None and not self.geo.convoy_chain_possible(tu.province, aim, self.seats(pos).fleets):
                raise IllegalOrder(text, f"{describe_unit(tu, self.map)} cannot reach {self.map.provinces[aim].name}", unit=i)
            return Support.build(unit=i, target=t, dest=aim, dest_coast=None, target_power=self.notation.named_power(p.target))
        return Support.build(unit=i, target=t, dest=None, dest_coast=None, target_power=self.notation.named_power(p.target))

    def check_convoy(self, pos: Position, i: int, p: ParsedOrder) -> Convoy:
        u = pos.units[i]
        text = p.text
        if not self.geo.can_convoy(u) or not self.map.provinces[u.province].is_sea:
            raise IllegalOrder(text, "only a Military power in a sea area convoys", unit=i)
        assert p.target is not None and p.dest is not None
        t = self.target_unit(pos, p.target, text, "convoy", i)
        tu = pos.units[t]
        prov = p.dest.province
        on_route = self.geo.convoy_chain_possible(tu.province, prov, self.seats(pos).fleets, through=u.province)
        if not on_route and (self.rules.mn_convoy_orders == "on_route"
                             or not self.geo.convoy_chain_possible(tu.province, prov, self.seats(pos).fleets)):
            raise IllegalOrder(text, f"{describe_unit(u, self.map)} is on no convoy route from {self.map.provinces[tu.province].name} "
                                 f"to {self.map.provinces[prov].name}", unit=i)
        return Convoy.build(unit=i, target=t, dest=prov)

    def choose_routes(self, b: BoundOrders) -> None:
        for u, o in b.orders.items():
            if isinstance(o.body, Move):
                b.route[u] = "convoy" if o.body.via_convoy else "land"
