"""The board's answers to the order checks: where armies may stand, where fleets convoy, which
fleets form chains that could carry an army (DATC 4.E.1, 6.G.19), and the tables of them made
once per board (:class:`BoardTables`).

Geography is asked of the map through a :class:`Geography` record, so variants can change where
fleets may convoy or which units may be convoyed without touching the order checks
(:mod:`dipsat.board.orders`).
"""

from __future__ import annotations

from dataclasses import field
from functools import cached_property
from typing import Optional, Sequence, overload

from dipsat.maps import GameMap

from dipsat.models import ARMY, FLEET, Unit
from dipsat.records import dataclass


@dataclass(frozen=True)
class ConvoyReach:
    """Which convoy areas holding fleets are joined into one chain, for one set of fleets: a
    turn's fleets are fixed, so this is computed once per turn (and per fleet left out, for
    supports) and answers every question "could a chain of these fleets carry an army from A to
    B?" by comparing the groups next to A and next to B."""

    fleets: frozenset[str]
    group: dict[str, int]  # fleet province -> its connected group of fleet provinces
    near: dict[str, frozenset[int]] = field(default_factory=dict)  # province -> groups_near (pure memo)

    def groups(self, seas: frozenset[str]) -> set[int]:
        return {self.group[s] for s in seas if s in self.group}

    def groups_near(self, geo: "Geography", province: str) -> frozenset[int]:
        """The groups of fleets next to a province (:meth:`groups` of its convoy areas), kept
        per province: a turn asks about the same provinces again and again."""
        hit = self.near.get(province)
        if hit is None:
            hit = self.near[province] = frozenset(self.groups(geo.seas_next_to(province)))
        return hit


class UnitLabels(Sequence[str]):
    """The labels of a position's units, "A Par" (:meth:`Geography.unit_label`), each read when
    asked for: a turn explained in full names every unit, a plain one a few."""

    __slots__ = ("units", "geo")

    def __init__(self, units: Sequence[Unit], geo: "Geography"):
        self.units = units
        self.geo = geo

    def __len__(self) -> int:
        return len(self.units)

    def all(self) -> list[str]:
        """Every label, as a list (for a turn explained in full)."""
        known, label = self.geo.labels, self.geo.unit_label
        return [known.get((u.kind, u.location)) or label(u.kind, u.location) for u in self.units]

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self.units)))]
        u = self.units[i]
        return self.geo.labels.get((u.kind, u.location)) or self.geo.unit_label(u.kind, u.location)


@dataclass(frozen=True, slots=True)
class BoardTables:
    """What the order checks ask of every order, as tables made once per board (per
    :class:`Geography`, through its hooks: a variant's geography gets its own)."""

    province: dict[str, str]  # every location (province or coast id) -> its province
    stand: frozenset[str]  # provinces an army may stand on (:meth:`Geography.army_can_stand`)
    convoy_areas: frozenset[str]  # provinces where a fleet may convoy (:meth:`Geography.convoy_area`)
    # where a move needs no reading of its destination: an army's move to a province it may
    # stand on, a fleet's to a province of one coast (passable, of course)
    army_goes: frozenset[str]
    fleet_goes: frozenset[str]
    # location -> the provinces an army / a fleet there reaches without a convoy (the map's
    # ``can_reach_province`` as a table, for every province and coast)
    army_reach: dict[str, frozenset[str]]
    fleet_reach: dict[str, frozenset[str]]
    display: dict[str, str]  # every location -> how output shows it (the map's ``display``)


@dataclass
class Geography:
    """The questions the order checks ask of the board.  The board is read-only, so answers
    that depend only on it (the convoy areas next to a province) and on a turn's fleets (which
    fleets form chains) are memoised on the instance."""

    map: GameMap
    _seas: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)  # province -> seas_next_to
    _reach: dict[frozenset[str], ConvoyReach] = field(default_factory=dict, repr=False)  # the last turns' fleets
    # memo of chains through a given fleet: (origin, dest, fleets, through) -> on a minimal chain
    _chains: dict[tuple[str, str, frozenset[str], str], bool] = field(default_factory=dict, repr=False)
    # (kind, location) -> a unit's label there, "A Par" (the movement rules' memo of
    # :func:`dipsat.board.orders.describe_unit`: the map does not change; bounded)
    labels: dict[tuple[str, str], str] = field(default_factory=dict, repr=False)

    @cached_property
    def tables(self) -> BoardTables:
        """The board's :class:`BoardTables`, made on first use (the answers of the hooks below,
        which depend on the province alone)."""
        m = self.map
        province = {p: p for p in m.provinces}
        province.update((c, coast.province) for c, coast in m.coasts.items())
        stand = frozenset(p for p in m.provinces if self.army_can_stand(p))
        passable = {p for p, d in m.provinces.items() if d.passable}
        army_reach = {loc: frozenset(n for n in m.army_neighbours(loc) if n in passable) for loc in province}
        fleet_reach = {loc: frozenset(q for n in m.fleet_neighbours(loc) if (q := m.province_of(n)) in passable)
                       for loc in province}
        return BoardTables(province=province, stand=stand, convoy_areas=frozenset(p for p in m.provinces if self.convoy_area(p)),
                           army_goes=stand & passable,
                           fleet_goes=frozenset(p for p in passable if not m.provinces[p].coasts and m.is_fleet_location(p)),
                           army_reach=army_reach, fleet_reach=fleet_reach,
                           display={loc: m.display(loc) for loc in province})

    def unit_label(self, kind: str, location: str) -> str:
        """A unit's label, "A Par" (:func:`dipsat.board.orders.describe_unit`), kept in
        :attr:`labels`."""
        label = f"{kind} {self.tables.display.get(location) or self.map.display(location)}"
        if len(self.labels) > 50_000:
            self.labels.clear()
        self.labels[(kind, location)] = label
        return label

    def convoy_area(self, province: str) -> bool:
        """May a fleet here convoy?  Standard: sea provinces only."""
        return self.map.provinces[province].is_sea

    def convoyable(self, unit: Unit) -> bool:
        return unit.kind == ARMY

    def can_convoy(self, unit: Unit) -> bool:
        return unit.kind == FLEET

    def army_can_stand(self, province: str) -> bool:
        p = self.map.provinces[province]
        return p.terrain in ("land", "coast")

    def seas_next_to(self, province: str) -> frozenset[str]:
        """Convoy areas bordering a province (any of its coasts)."""
        hit = self._seas.get(province)
        if hit is None:
            out = set()
            for loc in self.map.fleet_locations_in(province):
                for n in self.map.fleet_neighbours(loc):
                    q = self.map.province_of(n)
                    if self.convoy_area(q):
                        out.add(q)
            hit = self._seas[province] = frozenset(out)
        return hit

    sea_neighbours = seas_next_to

    def convoy_reach(self, fleets: frozenset[str]) -> ConvoyReach:
        """The chains the fleets at ``fleets`` (convoy areas) form, memoised for the last few
        fleet sets (a turn asks about one set, and one more per supporting fleet left out)."""
        hit = self._reach.get(fleets)
        if hit is None:
            group: dict[str, int] = {}
            for seed in sorted(fleets):
                if seed in group:
                    continue
                n = group[seed] = len(group)
                todo = [seed]
                while todo:
                    x = todo.pop()
                    for y in self.sea_neighbours(x):
                        if y in fleets and y not in group:
                            group[y] = n
                            todo.append(y)
            if len(self._reach) >= 64:
                self._reach.clear()
            hit = self._reach[fleets] = ConvoyReach(fleets, group)
        return hit

    def convoy_chain_possible(self, origin: str, dest: str, fleets: frozenset[str],
                              through: Optional[str] = None, avoid: Optional[str] = None) -> bool:
        """Is there a chain of convoy areas holding fleets (``fleets``: their provinces) from
        ``origin`` to ``dest``, passing ``through`` a given one and not using ``avoid``?"""
        stand = self.tables.stand
        if origin == dest or origin not in stand or dest not in stand:
            return False
        # no fleet next to either end (most armies, most turns): no chain, whatever is left out
        if self.seas_next_to(origin).isdisjoint(fleets) or self.seas_next_to(dest).isdisjoint(fleets):
            return False
        if avoid is not None and avoid in fleets:
            fleets = fleets - {avoid}
        reach = self.convoy_reach(fleets)
        start = reach.groups_near(self, origin)
        if not start or start.isdisjoint(reach.groups_near(self, dest)):
            return False
        if through is None:
            return True
        if through not in fleets or reach.group[through] not in start:
            return False
        key = (origin, dest, fleets, through)
        hit = self._chains.get(key)
        if hit is None:
            if len(self._chains) > 20_000:
                self._chains.clear()
            hit = self._chains[key] = self._on_minimal_chain(set(self.seas_next_to(origin) & fleets),
                                                             set(self.seas_next_to(dest) & fleets), fleets, through)
        return hit

    def _on_minimal_chain(self, start: set[str], goal: set[str], fleets: frozenset[str], through: str) -> bool:
        """Is ``through`` on a chain none of whose fleets could be left out (DATC 6.G.19: a
        fleet that no route needs cannot legally convoy)?"""
        def extend(path: list[str]) -> bool:
            last = path[-1]
            if last in goal:
                return through in path
            for nxt in sorted(self.sea_neighbours(last) & fleets):
                if nxt in path or nxt in start:
                    continue  # a later fleet next to the origin would make the earlier ones unneeded
                if any(nxt in self.sea_neighbours(p) for p in path[:-1]):
                    continue  # a shortcut: the chain would not be minimal
                if extend(path + [nxt]):
                    return True
            return False

        return any(extend([s0]) for s0 in sorted(start))


def fleet_chains(geo: Geography, fleets: dict[int, Unit], origin: str, dest: str) -> list[tuple[int, ...]]:
    """Every chain of the convoying ``fleets`` (unit index -> unit) that carries an army from the
    province ``origin`` to ``dest``: the fleets of each simple chain from a fleet next to the
    origin to one next to the destination, sorted, each chain once (a convoyed move's routes)."""
    m = geo.map
    start = geo.seas_next_to(origin)
    goal = geo.seas_next_to(dest)
    where = {f: unit.province for f, unit in fleets.items()}
    if len(fleets) == 1:  # (most convoys: one fleet, one chain or none)
        f, at = next(iter(where.items()))
        return [(f,)] if at in start and at in goal else []
    reach = geo.tables.fleet_reach  # (the passable provinces next to a location: a fleet's is one)
    near = {f: reach.get(unit.location) or {m.province_of(n) for n in m.fleet_neighbours(unit.location)}
            for f, unit in fleets.items()}
    # fleets joined when one's province borders the other's location (as seen from the lower
    # index, the pair taken once: the chain graph is undirected)
    joined: dict[int, list[int]] = {f: [] for f in fleets}
    for a in fleets:
        for c in fleets:
            if a < c and where[c] in near[a]:
                joined[a].append(c)
                joined[c].append(a)
    routes: set[tuple[int, ...]] = set()

    def extend(path: list[int]) -> None:  # every simple chain from a fleet next to the origin
        last = path[-1]
        if where[last] in goal:
            routes.add(tuple(sorted(path)))
        for nxt in joined[last]:
            if nxt not in path:
                path.append(nxt)
                extend(path)
                path.pop()

    for f in fleets:
        if where[f] in start:
            extend([f])
    return sorted(routes)
