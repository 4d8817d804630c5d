"""The "rich" workload: a turn of :mod:`benchmarks.workload` with planted trouble spots.

:func:`rich_turn` starts from a plain random legal turn and plants 2-4 of the situations where
adjudicators are known to differ (:data:`SITUATIONS`: convoys attacked, paradoxes, "via convoy"
to an adjacent province, split coasts, self-dislodgement, head-to-head battles, ...).
:func:`make_turn` picks the plain or the rich turn for a workload kind (``plain``, ``rich``,
``mixed``: even turn numbers plain, odd ones rich).  Turn *i* of a seed is always the same turn
(its own ``random.Random`` stream).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Optional

from .. import workload
from ..workload import BUnit

SPLIT = ("spa", "stp", "bul")

class _Rich:
    """A turn under construction: units, orders (workload's tuples), and helpers to find or
    place the units a planted situation needs."""

    def __init__(self, rng: random.Random, units: list[BUnit], orders: dict[int, tuple]) -> None:
        self.rng = rng
        self.b = workload.board()
        self.units = units
        self.orders = orders
        self.at = {u.province: i for i, u in enumerate(units)}
        self.locked: set[int] = set()  # units whose orders a planted situation relies on

    # -- finding and placing --------------------------------------------------------------
    def free_locations_reaching(self, province: str, kinds: str = "AF") -> list[tuple[str, str]]:
        """(kind, loc) on free provinces from which a unit can move into ``province``."""
        b = self.b
        out = []
        for p in b.pids:
            if p in self.at or p == province:
                continue
            if "A" in kinds and b.terrain[p] != "sea" and b.m.can_reach_province("A", p, province):
                out.append(("A", p))
            if "F" in kinds:
                for loc in b.m.fleet_locations_in(p):
                    if b.m.can_reach_province("F", loc, province):
                        out.append(("F", loc))
        return out

    def place(self, power: Optional[str], kind: str, loc: str) -> int:
        prov = loc.split("/")[0]
        if power is None:
            power = workload._pick_power(self.rng, self.b, prov)
        i = len(self.units)
        self.units.append(BUnit(power, kind, loc))
        self.at[prov] = i
        self.orders[i] = ("H",)
        return i

    def reacher(self, province: str, *, exclude: set[int] = frozenset(), power: Optional[str] = None,
                not_power: Optional[str] = None, kinds: str = "AF", existing: float = 0.5) -> Optional[int]:
        """An unlocked existing unit, or a newly placed one, that can move into ``province``."""
        rng, b = self.rng, self.b
        cands = [i for i, u in enumerate(self.units)
                 if i not in self.locked and i not in exclude and u.kind in kinds and b.can_reach(u, province)
                 and (power is None or u.power == power) and (not_power is None or u.power != not_power)]
        if cands and (rng.random() < existing):
            return rng.choice(cands)
        spots = self.free_locations_reaching(province, kinds)
        if spots:
            kind, loc = rng.choice(spots)
            pw = power
            if pw is None:
                pw = workload._pick_power(rng, b, loc.split("/")[0])
                if pw == not_power:
                    pw = rng.choice([p for p in workload.POWERS if p != not_power])
            return self.place(pw, kind, loc)
        return rng.choice(cands) if cands else None

    def move_into(self, i: int, province: str) -> None:
        o = workload._move_to(self.rng, self.b, self.units[i], province)
        if any(c[0] == "C" and c[1] == i and c[2] == province for c in self.orders.values()):
            o = ("M", o[1], True)  # a convoy of it is ordered there: say so (DATC 4.A.3)
        self.orders[i] = o
        self.locked.add(i)

    def support(self, s: int, target: int, province: Optional[str]) -> None:
        self.orders[s] = ("S", target, province)
        self.locked.add(s)

    def convoy_chains(self) -> list[tuple[int, list[int]]]:
        """(army, [fleets ordered to convoy it along its ordered move])."""
        out = []
        for a, o in self.orders.items():
            if o[0] == "M" and o[2]:
                dest = o[1]
                fleets = [f for f, c in self.orders.items() if c[0] == "C" and c[1] == a and c[2] == dest]
                if fleets:
                    out.append((a, fleets))
        return out

    def ensure_convoy(self) -> Optional[tuple[int, list[int]]]:
        chains = [c for c in self.convoy_chains() if c[0] not in self.locked]
        if not chains:
            occupied = dict(self.at)
            for _ in range(30):
                n = len(self.units)
                if workload._plant_convoy(self.rng, self.b, occupied, self.units, self.orders):
                    for i in range(n, len(self.units)):
                        self.at[self.units[i].province] = i
                    break
            chains = [c for c in self.convoy_chains() if c[0] not in self.locked]
        if not chains:
            return None
        a, fleets = self.rng.choice(chains)
        self.locked.update([a, *fleets])
        return a, fleets

    # -- the planted situations -----------------------------------------------------------
    def attack_convoy(self) -> bool:
        """A convoying fleet attacked, with supports -- some from the fleet's own power
        (6.F.4-6.F.5, and the support that cannot count against one's own fleet)."""
        chain = self.ensure_convoy()
        if not chain:
            return False
        a, fleets = chain
        f = self.rng.choice(fleets)
        sea, fp = self.units[f].province, self.units[f].power
        x = self.reacher(sea, kinds="F", not_power=fp if self.rng.random() < 0.85 else None,
                         exclude={a, *fleets})
        if x is None:
            return False
        self.move_into(x, sea)
        for _ in range(self.rng.choice((1, 1, 2, 2, 3))):
            own = self.rng.random() < 0.45
            s = self.reacher(sea, kinds="F", power=fp if own else None, exclude={a, x, *fleets})
            if s is None:
                break
            self.support(s, x, sea)
        if self.rng.random() < 0.3:
            h = self.reacher(sea, kinds="F", exclude={a, x, *fleets})
            if h is not None:
                self.support(h, f, None)
        return True

    def convoy_paradox(self) -> bool:
        """The unit at a convoy's destination supports an attack on a convoying fleet
        (6.F.14 and its relatives)."""
        chain = self.ensure_convoy()
        if not chain:
            return False
        a, fleets = chain
        dest = self.orders[a][1]
        f = self.rng.choice(fleets)
        sea = self.units[f].province
        y = self.at.get(dest)
        if y is None:
            locs = [loc for loc in self.b.m.fleet_locations_in(dest) if self.b.m.can_reach_province("F", loc, sea)]
            if not locs:
                return False
            y = self.place(self.rng.choice([p for p in workload.POWERS if p != self.units[a].power]),
                           "F", self.rng.choice(locs))
        elif y in self.locked or not self.b.can_reach(self.units[y], sea) or self.units[y].power == self.units[a].power:
            return False
        x = self.reacher(sea, kinds="F", not_power=self.units[f].power, exclude={a, y, *fleets})
        if x is None:
            return False
        self.move_into(x, sea)
        self.support(y, x, sea)
        if self.rng.random() < 0.3:
            s = self.reacher(sea, kinds="F", exclude={a, x, y, *fleets})
            if s is not None:
                self.support(s, x, sea)
        return True

    def via_adjacent(self) -> bool:
        """An army ordered 'via convoy' to an adjacent coastal province: with no fleet
        convoying (6.G.8), with a fleet convoying (6.G.1), or with that fleet attacked (6.G.20)."""
        b, rng = self.b, self.rng
        cands = []
        for i, u in enumerate(self.units):
            if i in self.locked or u.kind != "A" or b.terrain[u.province] != "coast":
                continue
            for q in b.army_moves[u.loc]:
                if b.terrain[q] != "coast":
                    continue
                seas = [s for s in b.seas if u.province in b.sea_coasts[s] and q in b.sea_coasts[s]]
                if seas:
                    cands.append((i, q, seas))
        if not cands:
            return False
        i, q, seas = rng.choice(cands)
        self.orders[i] = ("M", q, True)
        self.locked.add(i)
        s = rng.choice(seas)
        # a fleet must stand on the route: MILA refuses "via convoy" when no fleet could convoy
        f = self.at.get(s)
        if f is None:
            f = self.place(self.units[i].power if rng.random() < 0.7 else None, "F", s)
        if f in self.locked:
            return True
        r = rng.random()
        if r < 0.4:
            pass  # the fleet keeps whatever order it has: not a convoy of this army (6.G.8)
        elif r < 0.55:
            self.orders[f] = ("H",)
        else:
            self.orders[f] = ("C", i, q)
            if rng.random() < 0.35:
                x = self.reacher(s, kinds="F", not_power=self.units[f].power, exclude={i, f})
                if x is not None:
                    self.move_into(x, s)
                    sp = self.reacher(s, kinds="F", exclude={i, f, x})
                    if sp is not None:
                        self.support(sp, x, s)
        self.locked.add(f)
        return True

    def split_coast(self) -> bool:
        """Fleets on and into the coasts of Spain, St Petersburg, Bulgaria: a support from one
        coast cut from the other (6.B.6), moves to different coasts, supports naming no coast."""
        b, rng = self.b, self.rng
        prov = rng.choice(SPLIT)
        coasts = list(b.m.fleet_locations_in(prov))
        here = self.at.get(prov)
        if here is not None and (here in self.locked or self.units[here].kind != "F"):
            return False
        if rng.random() < 0.6:
            # a fleet on one coast supports; a foreign fleet attacks the other coast
            if here is None:
                here = self.place(None, "F", rng.choice(coasts))
            u = self.units[here]
            targets = [p for p in b.reach_provinces(u) if p in self.at and self.at[p] != here]
            if targets:
                p = rng.choice(targets)
                t = self.at[p]
                o = self.orders.get(t, ("H",))
                if o[0] == "M" and b.can_reach(u, b.m.province_of(o[1])):
                    self.support(here, t, b.m.province_of(o[1]))
                else:
                    self.support(here, t, None)
            else:
                self.orders[here] = ("H",)
                self.locked.add(here)
            other = [c for c in coasts if c != u.loc]
            froms = [(k, loc) for k, loc in self.free_locations_reaching(prov, "F")
                     if any(n in other for n in b.fleet_moves[loc])]
            exist = [i for i, v in enumerate(self.units) if i not in self.locked and v.kind == "F"
                     and any(n in other for n in b.fleet_moves[v.loc]) and v.power != u.power]
            if exist and rng.random() < 0.5:
                x = rng.choice(exist)
            elif froms:
                _, loc = rng.choice(froms)
                x = self.place(rng.choice([p for p in workload.POWERS if p != u.power]), "F", loc)
            else:
                return True
            self.orders[x] = ("M", rng.choice([n for n in b.fleet_moves[self.units[x].loc] if n in other]), False)
            self.locked.add(x)
            return True
        # two fleets into different coasts of an empty (or emptied) province, one supported
        if here is not None:
            outs = b.moves_of(self.units[here])
            self.orders[here] = ("M", rng.choice(outs), False)
            self.locked.add(here)
        movers = []
        for c in coasts:
            froms = [i for i, v in enumerate(self.units) if i not in self.locked and v.kind == "F" and c in b.fleet_moves[v.loc]]
            spots = [loc for k, loc in self.free_locations_reaching(prov, "F") if c in b.fleet_moves[loc]]
            if froms and rng.random() < 0.5:
                x = rng.choice(froms)
            elif spots:
                x = self.place(None, "F", rng.choice(spots))
            else:
                continue
            self.orders[x] = ("M", c, False)
            self.locked.add(x)
            movers.append(x)
        if movers:
            m = rng.choice(movers)
            s = self.reacher(prov, exclude=set(movers) | ({here} if here is not None else set()))
            if s is not None:
                self.support(s, m, prov)
        return bool(movers)

    def self_dislodge(self) -> bool:
        """A foreign attack on a unit, supported by the unit's own power (6.D.10-6.D.14),
        sometimes by convoy (the attacker of a planted convoy)."""
        rng, b = self.rng, self.b
        if rng.random() < 0.35:
            chain = self.ensure_convoy()
            if chain:
                a, fleets = chain
                dest = self.orders[a][1]
                v = self.at.get(dest)
                if v is None:  # a convoy's destination is a coastal province
                    kind, loc = ("A", dest) if rng.random() < 0.5 else ("F", rng.choice(b.m.fleet_locations_in(dest)))
                    v = self.place(rng.choice([p for p in workload.POWERS if p != self.units[a].power]), kind, loc)
                if self.units[v].power == self.units[a].power or v in self.locked:
                    return False
                self.locked.add(v)
                for _ in range(rng.choice((1, 1, 2))):
                    s = self.reacher(dest, power=self.units[v].power, exclude={a, v, *fleets})
                    if s is None:
                        break
                    self.support(s, a, dest)
                return True
        cands = [i for i in range(len(self.units)) if i not in self.locked]
        if not cands:
            return False
        v = rng.choice(cands)
        prov, vp = self.units[v].province, self.units[v].power
        x = self.reacher(prov, not_power=vp, exclude={v})
        if x is None:
            return False
        self.move_into(x, prov)
        self.locked.add(v)
        r = rng.random()
        if r < 0.25 and b.can_reach(self.units[v], self.units[x].province):
            self.move_into(v, self.units[x].province)  # head-to-head
        elif r < 0.4:
            outs = b.moves_of(self.units[v])
            self.orders[v] = ("M", rng.choice(outs), False)  # may return (6.D.11)
        for _ in range(rng.choice((1, 1, 2))):
            s = self.reacher(prov, power=vp, exclude={v, x})
            if s is None:
                break
            self.support(s, x, prov)
        if rng.random() < 0.5:
            s = self.reacher(prov, not_power=vp, exclude={v, x})
            if s is not None:
                self.support(s, x, prov)
        return True

    def cut_from_destination(self) -> bool:
        """The unit in the province a support is aimed at attacks the supporter (6.D.15);
        often a fleet on a coast, where province and coast names differ."""
        rng, b = self.rng, self.b
        sups = [(s, o) for s, o in self.orders.items() if o[0] == "S" and o[2] is not None and s not in self.locked]
        rng.shuffle(sups)
        for s, (_, j, dest) in sups:
            k = self.at.get(dest)
            sprov = self.units[s].province
            if k is None:
                spots = [(kind, loc) for kind, loc in self.free_locations_reaching(sprov)
                         if loc.split("/")[0] == dest]
                if not spots:
                    continue
                kind, loc = rng.choice(spots)
                k = self.place(rng.choice([p for p in workload.POWERS if p != self.units[s].power]), kind, loc)
            if k in self.locked or k == j or not b.can_reach(self.units[k], sprov):
                continue
            self.move_into(k, sprov)
            self.locked.add(s)
            return True
        return False

    def head_to_head(self) -> bool:
        """Two units of different powers swap places, each supported, also by the other
        side's power (6.E.1-6.E.15)."""
        rng, b = self.rng, self.b
        pairs = [(i, j) for i in range(len(self.units)) for j in range(i + 1, len(self.units))
                 if i not in self.locked and j not in self.locked and self.units[i].power != self.units[j].power
                 and b.can_reach(self.units[i], self.units[j].province) and b.can_reach(self.units[j], self.units[i].province)]
        if not pairs:
            return False
        i, j = rng.choice(pairs)
        pi, pj = self.units[i].province, self.units[j].province
        self.move_into(i, pj)
        self.move_into(j, pi)
        for mover, dest in ((i, pj), (j, pi)):
            for _ in range(rng.choice((0, 1, 1, 2))):
                pw = rng.choice((self.units[i].power, self.units[j].power, None))
                s = self.reacher(dest, power=pw, exclude={i, j})
                if s is None:
                    break
                self.support(s, mover, dest)
        return True

    def beleaguered(self) -> bool:
        """Two or three attacks on one unit, supported alike, one by the garrison's own power
        (6.E.7-6.E.13)."""
        rng = self.rng
        cands = [i for i in range(len(self.units)) if i not in self.locked]
        if not cands:
            return False
        v = rng.choice(cands)
        prov, vp = self.units[v].province, self.units[v].power
        self.locked.add(v)
        attackers = []
        for _ in range(rng.choice((2, 2, 3))):
            x = self.reacher(prov, not_power=vp, exclude={v, *attackers})
            if x is None:
                break
            self.move_into(x, prov)
            attackers.append(x)
        if len(attackers) < 2:
            return bool(attackers)
        for x in attackers:
            for _ in range(rng.choice((0, 1, 1, 2))):
                pw = vp if rng.random() < 0.3 else None
                s = self.reacher(prov, power=pw, exclude={v, *attackers})
                if s is None:
                    break
                self.support(s, x, prov)
        return True


    def multi_route(self) -> bool:
        """An army with two single-fleet convoy routes, one or both attacked (6.F.9-6.F.11)."""
        b, rng = self.b, self.rng
        cands = []
        for p in b.coasts:
            i = self.at.get(p)
            if i is not None and (i in self.locked or self.units[i].kind != "A"):
                continue
            for q in b.coasts:
                if q == p:
                    continue
                seas = [x for x in b.seas if p in b.sea_coasts[x] and q in b.sea_coasts[x]
                        and (x not in self.at or self.at[x] not in self.locked)]
                if len(seas) >= 2:
                    cands.append((p, q, seas))
        if not cands:
            return False
        p, q, seas = rng.choice(cands)
        a = self.at.get(p)
        if a is None:
            a = self.place(None, "A", p)
        self.orders[a] = ("M", q, True)
        self.locked.add(a)
        fleets = []
        for x in rng.sample(seas, 2):
            f = self.at.get(x)
            if f is None:
                f = self.place(self.units[a].power if rng.random() < 0.6 else None, "F", x)
            self.orders[f] = ("C", a, q)
            self.locked.add(f)
            fleets.append(f)
        for f in fleets[: rng.choice((1, 1, 2))]:
            sea = self.units[f].province
            x = self.reacher(sea, kinds="F", not_power=self.units[f].power, exclude={a, *fleets})
            if x is None:
                continue
            self.move_into(x, sea)
            if rng.random() < 0.7:
                sp = self.reacher(sea, kinds="F", exclude={a, x, *fleets})
                if sp is not None:
                    self.support(sp, x, sea)
        return True

    def kidnap(self) -> bool:
        """A foreign fleet convoys an army ordered over land to an adjacent province (6.G.2)."""
        b, rng = self.b, self.rng
        cands = []
        for i, u in enumerate(self.units):
            if i in self.locked or u.kind != "A" or b.terrain[u.province] != "coast":
                continue
            for q in b.army_moves[u.loc]:
                for x in b.seas:
                    if u.province in b.sea_coasts[x] and q in b.sea_coasts[x] and (
                            x not in self.at or (self.at[x] not in self.locked and self.units[self.at[x]].power != u.power)):
                        cands.append((i, q, x))
        if not cands:
            return False
        i, q, x = rng.choice(cands)
        self.orders[i] = ("M", q, False)
        f = self.at.get(x)
        if f is None:
            f = self.place(rng.choice([p for p in workload.POWERS if p != self.units[i].power]), "F", x)
        self.orders[f] = ("C", i, q)
        self.locked.update((i, f))
        if q in self.at and self.at[q] not in self.locked and rng.random() < 0.5:
            y = self.at[q]
            if b.can_reach(self.units[y], self.units[i].province):
                self.move_into(y, self.units[i].province)  # would be a swap if the convoy counted
        return True

    def ring_with_convoy(self) -> bool:
        """A circular movement with one convoyed leg, its convoy sometimes attacked (6.C.4-6.C.6)."""
        b, rng = self.b, self.rng
        chain = self.ensure_convoy()
        if not chain:
            return False
        a, fleets = chain
        p, q = self.units[a].province, self.orders[a][1].split("/")[0]
        y = self.at.get(q)
        if y is None:
            kind, loc = ("A", q) if rng.random() < 0.5 else ("F", rng.choice(b.m.fleet_locations_in(q)))
            y = self.place(None, kind, loc)
        if y in self.locked:
            return False
        options = []
        for r in b.reach_provinces(self.units[y]):
            z = self.at.get(r)
            if z is not None:
                if z not in self.locked and z != a and b.can_reach(self.units[z], p):
                    options.append((r, z, None))
            else:
                for kind, loc in self.free_locations_reaching(p):
                    if loc.split("/")[0] == r:
                        options.append((r, None, (kind, loc)))
        if not options:
            return False
        r, z, spot = rng.choice(options)
        if z is None:
            z = self.place(None, *spot)
        self.move_into(y, r)
        self.move_into(z, p)
        if rng.random() < 0.4:
            f = rng.choice(fleets)
            sea = self.units[f].province
            x = self.reacher(sea, kinds="F", not_power=self.units[f].power, exclude={a, y, z, *fleets})
            if x is not None:
                self.move_into(x, sea)
                sp = self.reacher(sea, kinds="F", exclude={a, x, y, z, *fleets})
                if sp is not None:
                    self.support(sp, x, sea)
        return True


    def _fleet_at(self, province: str, reaching: str, power: Optional[str] = None) -> Optional[int]:
        """An unlocked fleet in ``province`` able to move into ``reaching`` (placed if the
        province is empty), or None."""
        b = self.b
        i = self.at.get(province)
        if i is not None:
            u = self.units[i]
            ok = i not in self.locked and u.kind == "F" and b.can_reach(u, reaching)
            return i if ok else None
        locs = [loc for loc in b.m.fleet_locations_in(province) if b.m.can_reach_province("F", loc, reaching)]
        return self.place(power, "F", self.rng.choice(locs)) if locs else None

    def convoy_cut_race(self) -> bool:
        """An army with two convoy routes, both fleets attacked with a support that a convoyed
        army attacks: one support from the army's own destination, the other from the
        destination of a second convoy.  Cuts decide which routes survive (6.F.9 with 5.B.2)."""
        b, rng = self.b, self.rng
        cands = []
        for p in b.coasts:
            if p in self.at and (self.at[p] in self.locked or self.units[self.at[p]].kind != "A"):
                continue
            for q in b.coasts:
                seas = [x for x in b.seas if p in b.sea_coasts[x] and q in b.sea_coasts[x] and x not in self.at]
                if q != p and len(seas) >= 2:
                    cands.append((p, q, seas))
        if not cands:
            return False
        p, q, seas = rng.choice(cands)
        s1, s2 = rng.sample(seas, 2)
        # the second convoy: an army from o, through s3, to a province d2 next to s1
        plans = [(d2, s3, o) for d2 in b.sea_coasts[s1] if d2 not in (p, q)
                 for s3 in b.seas if s3 not in (s1, s2) and s3 not in self.at and d2 in b.sea_coasts[s3]
                 for o in b.sea_coasts[s3] if o not in (p, q, d2) and o not in self.at]
        if not plans:
            return False
        d2, s3, o = rng.choice(plans)
        a = self.at.get(p)
        if a is None:
            a = self.place(None, "A", p)
        y1 = self._fleet_at(d2, s1)  # supports the attack on s1; the second army attacks it
        y2 = self._fleet_at(q, s2)  # supports the attack on s2; the first army attacks it
        if y1 is None or y2 is None:
            return False
        a2 = self.place(None, "A", o)
        self.orders[a2] = ("M", d2, True)
        f3 = self.place(self.units[a2].power, "F", s3)
        self.orders[f3] = ("C", a2, d2)
        self.orders[a] = ("M", q, True)
        fleets = [self.place(self.units[a].power if rng.random() < 0.7 else None, "F", x) for x in (s1, s2)]
        for f in fleets:
            self.orders[f] = ("C", a, q)
        self.locked.update([a, a2, f3, y1, y2, *fleets])
        for f, y in zip(fleets, (y1, y2)):
            sea = self.units[f].province
            x = self.reacher(sea, kinds="F", not_power=self.units[f].power, exclude={a, a2, f3, y1, y2, *fleets})
            if x is None:
                continue
            self.move_into(x, sea)
            self.support(y, x, sea)
        return True


    def _support_something(self, i: int) -> None:
        """Give unit ``i`` a support of a neighbour's present order (move or hold)."""
        b, rng = self.b, self.rng
        u = self.units[i]
        cands = []
        for j, v in enumerate(self.units):
            if j == i:
                continue
            o = self.orders.get(j, ("H",))
            if o[0] == "M":
                d = o[1].split("/")[0]
                if b.can_reach(u, d):
                    cands.append((j, d))
            elif b.can_reach(u, v.province):
                cands.append((j, None))
        if cands:
            self.support(i, *rng.choice(cands))

    def convoy_cut_late(self) -> bool:
        """A convoyed army attacks a supporter while its fleet is attacked 2 against 2, the
        fleet's hold support itself attacked by a second convoyed army (5.B.2 with 6.F.6)."""
        b, rng = self.b, self.rng
        chain = self.ensure_convoy()
        if not chain:
            return False
        a, fleets = chain
        q = self.orders[a][1].split("/")[0]
        f = rng.choice(fleets)
        sea = self.units[f].province
        plans = [(hp, s3, o) for hp in b.sea_coasts[sea] if hp not in (q, self.units[a].province)
                 and (hp not in self.at or self.at[hp] not in self.locked)
                 for s3 in b.seas if s3 != sea and s3 not in self.at and hp in b.sea_coasts[s3]
                 for o in b.sea_coasts[s3] if o not in self.at and o not in (hp, q)]
        if not plans:
            return False
        hp, s3, o = rng.choice(plans)
        h = self._fleet_at(hp, sea, self.units[f].power)
        if h is None:
            return False
        self.support(h, f, None)
        a2 = self.place(rng.choice([p for p in workload.POWERS if p != self.units[h].power]), "A", o)
        self.orders[a2] = ("M", hp, True)
        f3 = self.place(self.units[a2].power, "F", s3)
        self.orders[f3] = ("C", a2, hp)
        self.locked.update((a2, f3))
        x = self.reacher(sea, kinds="F", not_power=self.units[f].power, exclude={a, h, a2, f3, *fleets})
        if x is None:
            return True
        self.move_into(x, sea)
        sp = self.reacher(sea, kinds="F", not_power=self.units[f].power, exclude={a, h, x, a2, f3, *fleets})
        if sp is not None:
            self.support(sp, x, sea)
        y = self.at.get(q)
        if y is None:
            kind, loc = ("A", q) if rng.random() < 0.5 else ("F", rng.choice(b.m.fleet_locations_in(q)))
            y = self.place(rng.choice([p for p in workload.POWERS if p != self.units[a].power]), kind, loc)
        if y not in self.locked:
            self._support_something(y)
            self.locked.add(y)
        return True


SITUATIONS: dict[str, tuple[Callable[[_Rich], bool], int]] = {
    "convoy_cut_late": (_Rich.convoy_cut_late, 2),
    "convoy_cut_race": (_Rich.convoy_cut_race, 2),
    "multi_route": (_Rich.multi_route, 2),
    "kidnap": (_Rich.kidnap, 1),
    "ring_with_convoy": (_Rich.ring_with_convoy, 2),
    "attack_convoy": (_Rich.attack_convoy, 4),
    "convoy_paradox": (_Rich.convoy_paradox, 2),
    "via_adjacent": (_Rich.via_adjacent, 3),
    "split_coast": (_Rich.split_coast, 3),
    "self_dislodge": (_Rich.self_dislodge, 4),
    "cut_from_destination": (_Rich.cut_from_destination, 3),
    "head_to_head": (_Rich.head_to_head, 3),
    "beleaguered": (_Rich.beleaguered, 2),
}


def rich_turn(seed: int, index: int) -> dict[str, Any]:
    """A turn of :mod:`workload` (its own seed space) with 2-4 planted situations (:data:`SITUATIONS`)."""
    rng = random.Random(f"dipsat-differential:{seed}:{index}")
    base = workload.generate_turn(f"rich{seed}", index)  # type: ignore[arg-type]
    units, orders = workload.parse_request(base)
    r = _Rich(rng, units, orders)
    names = sorted(SITUATIONS)
    planted = []
    for _ in range(rng.choice((2, 3, 3, 4))):
        name = rng.choices(names, weights=[SITUATIONS[n][1] for n in names])[0]
        if SITUATIONS[name][0](r):
            planted.append(name)
    # every unit keeps an order; supports left pointing at a changed order are legal (void)
    req = workload.to_request(r.units, r.orders, ident=f"s{seed}-r{index}")
    req["planted"] = planted
    return req


def make_turn(seed: int, index: int, kind: str) -> dict[str, Any]:
    """Turn ``index`` of ``seed`` for workload ``kind`` (plain, rich, mixed)."""
    if kind == "rich" or (kind == "mixed" and index % 2 == 1):
        return rich_turn(seed, index)
    return workload.generate_turn(seed, index)
