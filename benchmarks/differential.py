"""Differential test: dipsat against the MILA ``diplomacy`` and ``pydip`` adjudicators.

    python benchmarks/differential.py --seed 1 --turns 10000          # the long run
    python benchmarks/differential.py --seed 1 --turns 300 --workload rich

Every turn is adjudicated by dipsat (DATC 3.0 preferences) and by each installed peer; for
each peer the turn *agrees* when both give the same units after the turn -- (power, army/fleet,
location with the coast where the peer gives one) -- AND the same set of dislodged units.

Every disagreement is then explained, where possible, by a *documented deviation* of the peer
from DATC 3.0 (:data:`DEVIATIONS`; :func:`classify`).  A deviation has

* a trigger: a small predicate that inspects the turn (and dipsat's result) and returns the
  orders that set the peer's deviation off, with the provinces they concern.  Every deviation
  triggered anywhere in the turn is a candidate -- effects travel (a support wrongly cut
  changes a battle three provinces away) -- and the evidence on the provinces where the
  results differ is listed first;
* a confirmation: the peer is run again with the deviation taken away -- its own code
  corrected (:data:`MILA_FIXES`, :data:`PYDIP_FIXES`: one small patch per deviation), or the
  turn rewritten into one with the same DATC outcome on which the deviation cannot occur
  (``Deviation.neutralise``).  The smallest set of candidates whose confirmation makes the
  peer agree with dipsat *exactly* is the class of the disagreement.  When no set does, the
  disagreement stays *unclassified*, even if deviations were triggered;
* a minimal corpus case (``tests/corpora/peers/<name>.toml``) whose expectation is the DATC 3.0
  result and whose notes give the DATC reasoning and the peer's deviation; the test suite runs
  it for dipsat and checks that the peer still deviates on it (``tests/test_differential.py``).

Unclassified disagreements are listed in full: each is a dipsat bug or an undocumented peer
deviation (to be studied against the DATC, documented with its case and added here).  For each
class the report also says on how many of its turns the *other* peer agrees with dipsat: an
independent check that the class is the peer's deviation.

Workloads (``--workload``): ``plain`` is :mod:`workload` (the benchmark's random legal turns);
``rich`` starts from such a turn and plants the situations where adjudicators are known to
differ (:func:`rich_turn`); ``mixed`` (default) alternates the two (even turn numbers plain,
odd ones rich).  Turn ids: ``s<seed>-t<i>`` plain, ``s<seed>-r<i>`` rich.  Turn *i* of a seed
is the same whatever ``--turns`` is.

Peers: ``diplomacy==1.1.2`` and ``pydip==0.1.8`` (the versions the corrections are written
for; a correction whose anchor is not found in the peer's source raises :class:`PatchError`).
A peer that is not installed is reported and skipped.  From a checkout: ``PYTHONPATH=.``.
pydip gets each army's route explicitly (:meth:`Pydip.spec`), the DATC 3.0 way.

Output: a report on stdout and ``benchmarks/results/differential-seed<s>-<workload>-<n>.json``
(``-o`` to choose).  The exit status is 1 when a disagreement is unclassified or an engine
failed or refused an order (the workloads make legal orders only), 0 otherwise.
``--turn s1-r7`` adjudicates one turn and prints the request, the verdicts and the evidence.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import itertools
import json
import random
import sys
import textwrap
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _p in (str(HERE), str(ROOT)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import workload  # noqa: E402
from workload import BUnit  # noqa: E402

Loc = tuple[str, str, str]  # (power, "A"/"F", location such as "spa/nc")

SPLIT = ("spa", "stp", "bul")


# ============================================================================================
# the rich workload


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


def request_for_dipsat(req: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in req.items() if k not in ("id", "planted")}


def request_from_case(path: str | Path) -> dict[str, Any]:
    """A movement case of a corpus (``tests/corpora``) as a turn in the workload's canonical
    form, so that the peers can be run on it.  The orders are read by dipsat's parser; a move
    goes "via convoy" when dipsat's reading of the orders routes it by convoy."""
    from dipsat.api import TurnRequest, build_position
    from dipsat.corpus import load_case
    from dipsat.variants import find_variant

    case = load_case(path)
    if case.phase != "movement" or case.variant != "standard":
        raise ValueError(f"{path}: only standard movement cases can be given to the peers")
    req = TurnRequest.model_validate({"units": case.units, "orders": case.orders})
    variant = find_variant("standard")
    pos = build_position(variant, req)
    bound = variant.binder(variant.rules("datc")).bind(pos, {p: list(ts) for p, ts in req.orders.items()})
    if bound.rejected:
        raise ValueError(f"{path}: illegal orders cannot be given to the peers: {[r.text for r in bound.rejected]}")
    units = [BUnit(u.power, u.kind.value, u.location) for u in pos.units]
    orders: dict[int, tuple] = {}
    for i, o in bound.orders.items():
        b = o.body
        if b.kind == "hold":
            orders[i] = ("H",)
        elif b.kind == "move":
            orders[i] = ("M", b.dest, bound.route.get(i) == "convoy")
        elif b.kind == "support":
            orders[i] = ("S", b.target, b.dest)
        else:
            orders[i] = ("C", b.target, b.dest)
    return workload.to_request(units, orders, ident=case.id)


# ============================================================================================
# engines: run(request, fixes) -> Run


@dataclass
class Run:
    after: frozenset  # of Loc: the units on the board after the turn (dislodged ones left out)
    dislodged: frozenset  # of Loc: the units dislodged, at their starting location
    refused: list[str] = field(default_factory=list)  # orders the engine would not take
    detail: Any = None  # engine-specific, for the predicates


def _version(dist: str) -> Optional[str]:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:
        return None


class Dipsat:
    name = "dipsat"

    def __init__(self) -> None:
        from dipsat.api import adjudicate
        from dipsat.rules import preset
        self._adjudicate, self._preset = adjudicate, preset
        self.version = _version("dipsat") or "checkout"

    def run(self, req: dict[str, Any], **options: Any) -> Run:
        res = self._adjudicate(request_for_dipsat(req), rules=self._preset("datc", **options) if options else None)
        pos = res.position.units
        return Run(after=frozenset((u.power, u.kind.value, u.location) for u in res.after.units),
                   dislodged=frozenset((pos[i].power, pos[i].kind.value, pos[i].location) for i in res.dislodged),
                   refused=[f"{r.power}: {r.text}: {r.reason}" for r in res.rejected], detail=res)


class PatchError(RuntimeError):
    pass


def _patch_source(func: Callable, edits: list[tuple[str, str, str]]) -> Callable:
    """``func`` recompiled in its module with ``edits`` applied to its source: (how, anchor,
    text) with how "replace" (anchor -> text), "before" or "after" (insert the lines of text
    before / after the line holding anchor, at its indentation).  Each anchor must occur
    exactly once."""
    src = textwrap.dedent(inspect.getsource(func))
    for how, anchor, text in edits:
        if src.count(anchor) != 1:
            raise PatchError(f"{func.__qualname__}: anchor {anchor!r} found {src.count(anchor)} times")
        if how == "replace":
            src = src.replace(anchor, text)
        else:
            lines = src.split("\n")
            k = next(n for n, line in enumerate(lines) if anchor in line)
            indent = lines[k][: len(lines[k]) - len(lines[k].lstrip())]
            at = k if how == "before" else k + 1
            lines[at:at] = [indent + t for t in text.split("\n")]
            src = "\n".join(lines)
    ns: dict[str, Any] = {}
    exec(compile(src, f"<patched {func.__qualname__}>", "exec"), vars(sys.modules[func.__module__]), ns)
    return ns[func.__name__]


# MILA 1.1.2 corrections, by deviation name: method -> source edits (or, as a callable
# returning it, a method to add).  Each makes one deviation follow DATC 3.0 and nothing else.
MILA_FIXES: dict[str, dict[str, Any]] = {
    # STEP 2 looks up the owner of the unit at the destination in the order's last word, which
    # is "VIA" for a convoyed move: no unit, so the supports by the defender's own power were
    # never set aside.  Read the destination before "VIA".
    "mila_self_dislodge_via_convoy": {"_resolve_moves": [
        ("replace", "other = self._unit_owner(self._occupant(coord[-1], any_coast=1))",
         "other = self._unit_owner(self._occupant(coord[-1 - (coord[-1] == 'VIA')], any_coast=1))")]},
    # STEP 6 compares both sides of a head-to-head battle without the supports given by the
    # power they attack; the defending side must keep all its supports (defend strength).
    "mila_h2h_defend_without_own_support": {"_bounce": [
        ("replace", "if our_strength or my_strength <= his_strength:",
         "if our_strength or my_strength <= self.supports[swap][0]:"),
        ("replace", "if our_strength or his_strength <= my_strength:",
         "if our_strength or his_strength <= self.supports[unit][0]:")]},
    # Convoy disruption judges the attack on a convoying fleet with the supports given by the
    # fleet's own power, which cannot help dislodge it (MILA voids them only later).  Before
    # MILA's own test (unchanged, paradox detection included), skip the area when no attack,
    # counted without those supports, can beat every other strength there -- each taken at its
    # lowest: a support given from where a convoyed army is going may yet be cut.
    "mila_convoy_disrupted_by_own_support": {
        "_check_disruptions": [
            ("before", "# Paradox Detection #1",
             "if not self._attack_can_dislodge(area, convoyer):\n    continue")],
        "_attack_can_dislodge": lambda: _mila_attack_can_dislodge},
    # STEPS 4-5 loop: a route whose fleet looks beaten is removed from the army's routes at
    # once, also on the provisional ("maybe") pass, and never put back when a convoyed army
    # later cuts the support that made the attack on that fleet strong.  Start each pass from
    # the routes of STEP 1A (strengths only fall from pass to pass: cuts remove supports).
    "mila_convoy_route_dropped_early": {"_resolve_moves": [
        ("before", "# STEPS 4 AND 5. DETERMINE CONVOY DISRUPTIONS",
         "routes_at_step_1 = {u: list(paths) for u, paths in self.convoy_paths.items()}"),
        ("before", "# STEP 4. CUT SUPPORTS MADE BY (non-maybe) CONVOYED ATTACKS",
         "for u, paths in routes_at_step_1.items():\n"
         "    self.convoy_paths[u] = list(paths)\n"
         "    if self.result[u] == [MAYBE]:\n"
         "        self.result[u] = []")]},
    # STEPS 4-5: a convoyed army that still has a route cuts supports at once, and when its
    # convoy turns out disrupted on a later pass (a cut made by another convoyed army broke
    # it), those cuts stay.  Record them, and undo them when the army gets NO_CONVOY (then
    # go round once more: strengths changed).
    "mila_convoy_cut_kept_after_disruption": {
        "_resolve_moves": [
            ("before", "# STEP 3. LET DIRECT (NON-CONVOYED) ATTACKS CUT SUPPORTS", "self._convoy_cuts = {}"),
            ("before", "for sup, help_unit in self.command.items():",
             "for cut_unit, affected, no_help in self._convoy_cuts.pop(unit, []):\n"
             "    self.result[cut_unit].remove(CUT)\n"
             "    self.supports[affected][0] += 1\n"
             "    if no_help:\n"
             "        self.supports[affected][1].append(cut_unit)\n"
             "    cut = 1")],
        "_cut_support": [
            ("after", "self.result[other_unit] += [CUT]",
             "if not direct:\n"
             "    self._convoy_cuts.setdefault(unit, []).append(\n"
             "        (other_unit, ' '.join(coord[1:3]), other_unit in self.supports[' '.join(coord[1:3])][1]))")]},
    # Convoy disruption takes a paradox for granted when a chain of supports leads from the
    # convoy's destination to a support of the convoying fleet, without looking at the
    # supports of the chain: one already cut (by another unit than the army, which only reaches
    # the first) passes nothing on, the chain is broken there.
    "mila_paradox_chain_through_cut_support": {"_detect_paradox": [
        ("after", "visited_units += [current_unit]",
         "if len(visited_units) > 1 and CUT in self.result.get(current_unit, []):\n    break")]},
    # STEP 1A drops "VIA" from a move that has no convoy route ordered, so that it goes over
    # land (DATC 2 preference); DATC 3.0: the move fails.
    "mila_via_convoy_land_fallback": {"_resolve_moves": [
        ("replace", "self.command[unit] = ' '.join(word[:-1])", "self.result[unit] += [NO_CONVOY]")]},
}


def _mila_attack_can_dislodge(self, area: str, convoyer: str) -> bool:
    """Added to MILA's Game by the correction of ``mila_convoy_disrupted_by_own_support``: can
    an attack on ``area``, counted without the supports of ``convoyer``'s power, beat every other
    strength there, each taken at its lowest (less the supports a convoyed army may yet cut)?"""
    targets = set()  # where the armies with a convoy route (at STEP 1A) are going
    for u in self.convoy_paths:
        w = self.command.get(u, "").split()
        if w[:1] == ["-"]:
            targets.add(w[-1 - (w[-1] == "VIA")][:3])

    def cuttable(unit: str) -> int:
        return sum(1 for s, o in self.command.items()
                   if o.split()[:1] == ["S"] and " ".join(o.split()[1:3]) == unit and s[2:5] in targets
                   and not {"cut", "void"} & {str(r) for r in self.result.get(s, [])})

    entries = [(k, u, nh) for k, lst in self.combat[area].items() for u, nh in lst]
    owner = self._unit_owner(convoyer)
    return any(all(k - len(nh) > k2 - cuttable(u2) for k2, u2, _ in entries if u2 != u)
               for k, u, nh in entries if self._unit_owner(u) is not owner)


class Mila:
    name = "mila"

    def __init__(self) -> None:
        from diplomacy import Game
        self._Game = Game
        Game()  # loads and caches the standard map
        self.version = _version("diplomacy")
        self._classes: dict[frozenset, type] = {frozenset(): Game}

    def game_class(self, fixes: frozenset) -> type:
        """MILA's Game with the corrections ``fixes`` (names in :data:`MILA_FIXES`) applied."""
        if fixes not in self._classes:
            edits: dict[str, list] = {}
            attrs: dict[str, Callable] = {}
            for name in sorted(fixes):
                for meth, es in MILA_FIXES[name].items():
                    if callable(es):  # a new method
                        attrs[meth] = es()
                    else:
                        edits.setdefault(meth, []).extend(es)
            attrs.update({m: _patch_source(getattr(self._Game, m), es) for m, es in edits.items()})
            self._classes[fixes] = type("PatchedGame", (self._Game,), attrs)
        return self._classes[fixes]

    def run(self, req: dict[str, Any], fixes: frozenset = frozenset()) -> Run:
        units, orders = workload.to_mila(req)
        game = self.game_class(frozenset(fixes))()
        game.clear_units()
        for power, us in units.items():
            game.set_units(power, us)
        for power, os in orders.items():
            game.set_orders(power, os)
        refused = [str(e) for e in game.error]
        game.process()
        owner = {u: p.title() for p, us in units.items() for u in us}
        results = {u: [str(r) for r in rs] for u, rs in game.result_history.last_value().items()}
        after = frozenset((p.name.title(), u[0], u[2:].lower()) for p in game.powers.values() for u in p.units)
        dislodged = frozenset((owner[u], u[0], u[2:].lower()) for u, rs in results.items() if "dislodged" in rs)
        return Run(after=after, dislodged=dislodged, refused=refused,
                   detail={"results": results, "dislodged_by": dict(game.dislodged)})


class Pydip:
    name = "pydip"

    def __init__(self) -> None:
        from pydip.map.predefined import vanilla_dip
        from pydip.player.unit import UnitTypes
        import pydip.turn.resolve as resolve
        self._map = vanilla_dip.generate_map()
        problems = workload.check_pydip_names(self._map)
        if problems:
            raise RuntimeError("pydip name mapping broken: " + "; ".join(problems[:3]))
        self._resolve = resolve
        self._fleet = UnitTypes.FLEET
        b = workload.board()
        self._loc = {}  # pydip territory -> dipsat location
        for p in b.pids:
            if b.terrain[p] != "sea":
                self._loc[workload.pydip_location("A", p)] = p
            for loc in b.m.fleet_locations_in(p):
                self._loc[workload.pydip_location("F", loc)] = loc
        self.version = _version("pydip")

    @contextlib.contextmanager
    def fixed(self, fixes: frozenset) -> Iterator[None]:
        """pydip with the corrections ``fixes`` (names in :data:`PYDIP_FIXES`) applied."""
        saved = {}
        try:
            for name in sorted(fixes):
                for fn, impl in PYDIP_FIXES[name].items():
                    saved.setdefault(fn, getattr(self._resolve, fn))
                    setattr(self._resolve, fn, impl)
            yield
        finally:
            for fn, impl in saved.items():
                setattr(self._resolve, fn, impl)

    @staticmethod
    def spec(req: dict[str, Any]) -> tuple[dict, list[tuple]]:
        """:func:`workload.pydip_spec`, with the route of each army made explicit the DATC 3.0
        way (pydip has no notion of intent): a move goes by convoy when written "via convoy",
        when the destination is not adjacent, or when a fleet of the army's own power is ordered
        to convoy it there (2000/2023 rulebook, DATC 4.A.3)."""
        players, cmds = workload.pydip_spec(req)
        t = Turn(req)
        cmds = list(cmds)
        for i, c in enumerate(cmds):
            if c[0] == "move" and c[2] == "A":
                dest = t.dest(i)
                own_fleet = any(o[0] == "C" and o[1] == i and o[2] == dest and t.power(f) == t.power(i)
                                for f, o in t.orders.items())
                if own_fleet or not t.b.can_reach(t.units[i], dest):
                    cmds[i] = ("convoy_move", *c[1:])
        return players, cmds

    def run(self, req: dict[str, Any], fixes: frozenset = frozenset()) -> Run:
        commands, rejected = workload.build_pydip_commands(self.spec(req), self._map)
        with self.fixed(frozenset(fixes)):
            out = self._resolve.resolve_turn(self._map, commands)
            resolutions = dict(self._resolve.resolution_map)
        after, dislodged = set(), set()
        for power, units in out.items():
            for unit, retreats in units.items():
                key = (power, "F" if unit.unit_type == self._fleet else "A", self._loc[unit.position])
                (after if retreats is None else dislodged).add(key)
        return Run(after=frozenset(after), dislodged=frozenset(dislodged),
                   refused=[f"{c[1]}: {c}: {msg}" for c, msg in rejected],
                   detail={"resolutions": {self._loc.get(t, t): v for t, v in resolutions.items()}})


def _pydip_same_place(command_map, a: str, b: str) -> bool:
    name = command_map._game_map.relevant_name_for_territory
    return name(a) == name(b)


def _pydip_indirect_non_convoy_attackers(command_map, command):
    return [c for c in command_map.get_attackers(command.unit.position)
            if not _pydip_same_place(command_map, c.unit.position, command.destination) and c.player != command.player]


def _pydip_indirect_convoy_attackers(command_map, command):
    return [c for c in command_map.get_convoy_attackers(command.unit.position)
            if not _pydip_same_place(command_map, c.unit.position, command.destination)
            and c.player.name != command.player.name]


# pydip 0.1.8 corrections, by deviation name: function of pydip.turn.resolve -> replacement.
PYDIP_FIXES: dict[str, dict[str, Callable]] = {
    # A support is not cut by the unit in the province it supports into; pydip compares the
    # territory names, so "Spain" (the support's destination) is not "Spain North Coast" (the
    # fleet attacking from there), nor "Rome" "Rome Coast".  Compare the provinces.
    "pydip_support_cut_by_coast_name": {
        "_indirect_non_convoy_attackers": _pydip_indirect_non_convoy_attackers,
        "_indirect_convoy_attackers": _pydip_indirect_convoy_attackers,
    },
}


# ============================================================================================
# the turn, as the predicates see it


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
        return f"{u.power} {u.kind} {workload._loc_text(u.loc)}"

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


Evidence = list[tuple[str, set[str]]]  # (what triggers the deviation, provinces it concerns)


# ============================================================================================
# documented deviations: trigger predicates


def trigger_mila_self_dislodge_via_convoy(t: Turn) -> Evidence:
    out = []
    for a in range(len(t.units)):
        if not t.convoyed(a):
            continue
        d = t.dest(a)
        v = t.at.get(d)
        if v is None or t.power(v) == t.power(a):
            continue
        own = [s for s in t.supporters(a, d) if t.power(s) == t.power(v)]
        if own:
            out.append((f"{t.text(a)} is convoyed and supported by {'; '.join(t.text(s) for s in own)}: "
                        f"{t.power(v)} support must not help dislodge {t.unit(v)}", {d, t.prov(a)}))
    return out


def trigger_mila_h2h_defend_without_own_support(t: Turn) -> Evidence:
    out = []
    for i in range(len(t.units)):
        pj = t.dest(i)
        j = t.at.get(pj) if pj else None
        if j is None or j < i or t.convoyed(i) or t.convoyed(j) or t.dest(j) != t.prov(i):
            continue
        if t.power(i) == t.power(j):
            continue
        nh = [s for s in t.supporters(i, pj) if t.power(s) == t.power(j)] + \
             [s for s in t.supporters(j, t.prov(i)) if t.power(s) == t.power(i)]
        if nh:
            out.append((f"head-to-head {t.text(i)} / {t.text(j)}; support for an attack on the supporter's own unit: "
                        f"{'; '.join(t.text(s) for s in nh)} (counts for defence, not for dislodging)",
                        {t.prov(i), pj}))
    return out


def trigger_mila_convoy_disrupted_by_own_support(t: Turn) -> Evidence:
    out = []
    for f, o in t.orders.items():
        if o[0] != "C":
            continue
        a, sea = o[1], t.prov(f)
        for x in range(len(t.units)):
            if t.dest(x) != sea or t.power(x) == t.power(f):
                continue
            own = [s for s in t.supporters(x, sea) if t.power(s) == t.power(f)]
            if own:
                out.append((f"convoying {t.text(f)} attacked by {t.text(x)} with support of its own power: "
                            f"{'; '.join(t.text(s) for s in own)}", {sea, t.prov(a), o[2], t.prov(x)}))
    return out


def trigger_mila_via_convoy_land_fallback(t: Turn) -> Evidence:
    out = []
    for a in range(len(t.units)):
        if t.convoyed(a) and t.b.can_reach(t.units[a], t.dest(a)) and not t.ordered_route(a):
            out.append((f"{t.text(a)}: no convoy route is ordered; the land route is no fallback",
                        {t.prov(a), t.dest(a)}))
    return out


def trigger_mila_convoy_route_dropped_early(t: Turn) -> Evidence:
    out = []
    goes_to = {t.dest(b): b for b in range(len(t.units)) if t.convoyed(b)}
    for f, o in t.orders.items():
        if o[0] != "C" or not t.convoyed(o[1]):
            continue
        a, sea = o[1], t.prov(f)
        for x in range(len(t.units)):
            if t.dest(x) != sea:
                continue
            for s in t.supporters(x, sea):
                b = goes_to.get(t.prov(s))
                if b is not None and b != a:
                    out.append((f"{t.text(f)} is attacked by {t.text(x)} with a support that a convoyed army may cut: "
                                f"{t.text(s)} / {t.text(b)}", {sea, t.prov(a), t.dest(a), t.prov(s)}))
    return out


def trigger_mila_convoy_cut_kept_after_disruption(t: Turn) -> Evidence:
    out = []
    armies = [a for a in range(len(t.units)) if t.convoyed(a)]
    cutters = {a: t.at[t.dest(a)] for a in armies if t.dest(a) in t.at and t.order(t.at[t.dest(a)])[0] == "S"}
    for a, sup in cutters.items():
        attacked = [t.prov(f) for f, o in t.orders.items() if o[0] == "C" and o[1] == a
                    and any(t.dest(x) == t.prov(f) for x in range(len(t.units)))]
        others = [b for b in cutters if b != a]
        if attacked and others:
            out.append((f"{t.text(a)} may cut {t.text(sup)} before its convoy, attacked in {', '.join(attacked)}, "
                        f"is found disrupted after {'; '.join(t.text(b) for b in others)} cut(s) a support",
                        {t.dest(a), *attacked, *(t.dest(b) for b in others)}))
    return out


def trigger_mila_paradox_chain_through_cut_support(t: Turn) -> Evidence:
    out = []
    for f, o in t.orders.items():
        if o[0] != "C" or not t.convoyed(o[1]) or t.dest(o[1]) != o[2]:
            continue
        a, sea = o[1], t.prov(f)
        node, chain = o[2], []
        while node in t.at and t.at[node] not in chain:  # MILA's walk: each order's last province
            u = t.at[node]
            chain.append(u)
            ou = t.order(u)
            if len(chain) > 1 and ou[0] == "S" and ou[2] is None and ou[1] == f:
                out.append((f"a chain of supports from {t.text(a)}'s destination to the convoying fleet: "
                            + " -> ".join(t.text(x) for x in chain), {sea, *(t.prov(x) for x in chain)}))
                break
            if ou[0] == "S":
                node = ou[2] or t.prov(ou[1])
            elif ou[0] == "C":
                node = ou[2]
            else:
                break
    return out


def trigger_pydip_support_cut_by_coast_name(t: Turn) -> Evidence:
    out = []
    cmds = workload.pydip_spec(t.req)[1]  # one per unit, in the order of t.units
    for s, o in t.orders.items():
        if o[0] != "S" or o[2] is None:
            continue
        k = t.at.get(o[2])
        if k is None or k == o[1] or t.dest(k) != t.prov(s) or t.power(k) == t.power(s):
            continue
        support_into, attacker_at = cmds[s][7], cmds[k][3]
        if support_into != attacker_at:
            out.append((f"{t.text(k)} attacks the supporter from the province it supports into, "
                        f"but pydip compares {attacker_at!r} with {support_into!r}: {t.text(s)}",
                        {t.prov(s), o[2]}))
    return out


def trigger_pydip_convoy_paradox_missed(t: Turn) -> Evidence:
    out = []
    for b in (t.dipsat.detail.backups if t.dipsat else ()):
        if b.kind == "convoy_paradox":
            out.append((f"a convoy paradox ({b.resolutions} consistent resolutions; dipsat applies the Szykman "
                        f"rule): {'; '.join(b.orders)}", {x.split()[1].lower().split("/")[0] for x in b.orders}))
    return out


def szykman_by_hand(t: Turn) -> Optional[dict[str, Any]]:
    """The turn with the convoy orders of dipsat's convoy paradoxes replaced by holds: the
    Szykman rule ("the convoying fleets part of the paradox execute a hold order", DATC 4.A.2 f)
    applied to the orders, so that a peer no longer has a paradox to resolve."""
    fleets = set()
    for b in (t.dipsat.detail.backups if t.dipsat else ()):
        if b.kind == "convoy_paradox":
            for text in b.orders:
                w = text.split()
                if len(w) > 2 and w[2] == "C":
                    fleets.add(t.at[w[1].lower().split("/")[0]])
    if not fleets:
        return None
    orders = {i: (("H",) if i in fleets else o) for i, o in t.orders.items()}
    req = workload.to_request(t.units, orders, ident=t.id)
    return req


@dataclass(frozen=True)
class Deviation:
    name: str
    peer: str
    summary: str  # one sentence: what the peer does, and what DATC 3.0 says
    datc: str  # where DATC 3.0 settles it
    corpus: str  # the minimal case, relative to the repository
    trigger: Callable[[Turn], Evidence]
    # How the confirmation takes the deviation away: by default the peer's code is corrected
    # (MILA_FIXES / PYDIP_FIXES under the same name); otherwise ``neutralise`` rewrites the
    # turn into one with the same DATC 3.0 outcome on which the deviation cannot occur.
    neutralise: Optional[Callable[[Turn], Optional[dict[str, Any]]]] = None


DEVIATIONS: list[Deviation] = [
    Deviation(
        "mila_self_dislodge_via_convoy", "mila",
        "MILA lets a power's support help dislodge its own unit when the attacker moves by convoy "
        "(a convoyed order ends in VIA, and MILA looks for the attacked unit there); DATC: a support "
        "given by the power of the attacked unit never counts for dislodging it.",
        "DATC 3.0 5.B.8 (attack strength), 6.D.12, 6.D.16, 6.E.3",
        "tests/corpora/peers/mila_self_dislodge_via_convoy.toml",
        trigger_mila_self_dislodge_via_convoy),
    Deviation(
        "mila_h2h_defend_without_own_support", "mila",
        "In a head-to-head battle MILA leaves out of the defending side's strength the supports "
        "given by the power it attacks; DATC: those supports do not count for dislodging, but the "
        "defend strength counts every support of the defender's move.",
        "DATC 3.0 5.B.7 (defend strength), 5.B.8, 6.E.12",
        "tests/corpora/peers/mila_h2h_defend_without_own_support.toml",
        trigger_mila_h2h_defend_without_own_support),
    Deviation(
        "mila_convoy_disrupted_by_own_support", "mila",
        "MILA decides that a convoying fleet is dislodged (and so the convoy disrupted) counting "
        "supports given by the fleet's own power, which it voids only afterwards; DATC: such a support "
        "cannot help dislodge the fleet, so the fleet stays and the convoy goes through.",
        "DATC 3.0 5.B.3 (convoy), 5.B.8, 6.D.12, 6.F.4",
        "tests/corpora/peers/mila_convoy_disrupted_by_own_support.toml",
        trigger_mila_convoy_disrupted_by_own_support),
    Deviation(
        "mila_via_convoy_land_fallback", "mila",
        "MILA moves an army ordered 'via convoy' over land when no convoy route is ordered (the DATC 2 "
        "preference); DATC 3.0 prefers no fallback: the move fails.",
        "DATC 3.0 4.A.3, 6.G.8",
        "tests/corpora/peers/mila_via_convoy_land_fallback.toml",
        trigger_mila_via_convoy_land_fallback),
    Deviation(
        "mila_convoy_route_dropped_early", "mila",
        "MILA drops a convoy route as soon as one of its fleets looks beaten, before the supports that "
        "convoyed armies will cut are taken away, and never restores it: an army whose route in fact "
        "survives is taken as disrupted and does not cut the support it attacks; DATC: a convoy fails "
        "only when every route is broken by a fleet actually dislodged.",
        "DATC 3.0 5.B.2, 5.B.3, 5.B.4, 4.A.1 (6.F.9)",
        "tests/corpora/peers/mila_convoy_route_dropped_early.toml",
        trigger_mila_convoy_route_dropped_early),
    Deviation(
        "mila_convoy_cut_kept_after_disruption", "mila",
        "MILA lets a convoyed army cut a support while its convoy still looks safe and keeps that cut when "
        "the convoy is found disrupted on a later pass (after another convoyed army's cut made the attack "
        "on the fleet succeed); DATC: only a move with a successful path cuts a support.",
        "DATC 3.0 5.B.2, 5.B.4, 6.F.6",
        "tests/corpora/peers/mila_convoy_cut_kept_after_disruption.toml",
        trigger_mila_convoy_cut_kept_after_disruption),
    Deviation(
        "mila_paradox_chain_through_cut_support", "mila",
        "MILA takes a convoy for a paradox (and disrupts it) when a chain of support orders leads from the "
        "convoy's destination to a hold support of the convoying fleet, even when a support of the chain is "
        "already cut, so that the orders have a single resolution in which the convoy succeeds; DATC: a "
        "single consistent resolution must be taken, the paradox rule applies only to zero or two.",
        "DATC 3.0 4.A.2, 5.B.9 (6.F.22-6.F.24 are the real second-order paradoxes)",
        "tests/corpora/peers/mila_paradox_chain_through_cut_support.toml",
        trigger_mila_paradox_chain_through_cut_support),
    Deviation(
        "pydip_support_cut_by_coast_name", "pydip",
        "pydip lets the unit in the province a support is given into cut that support when its "
        "territory name differs from the support's destination (a fleet on 'Rome Coast' or "
        "'Spain North Coast' against a support into 'Rome' or 'Spain'); DATC: a support is never cut "
        "from the province it is directed into, whatever the coast.",
        "DATC 3.0 5.B.2 (support), 6.D.15, 6.B.6",
        "tests/corpora/peers/pydip_support_cut_by_coast_name.toml",
        trigger_pydip_support_cut_by_coast_name),
    Deviation(
        "pydip_convoy_paradox_missed", "pydip",
        "pydip's guess algorithm (the first version in DATC 5.F) takes an order as independent of the "
        "guesses when the list of cycle orders did not grow while adjudicating it, so an order that "
        "depends on a guess already in the list keeps the result computed on that guess; in Pandin's "
        "paradox the paradox is missed and the convoying fleet is dislodged.  DATC: the Szykman rule "
        "makes the convoy fail, the support stands and the attacks on the fleet bounce.",
        "DATC 3.0 5.D, 5.F, 6.F.16, 6.F.17",
        "tests/corpora/peers/pydip_convoy_paradox_missed.toml",
        trigger_pydip_convoy_paradox_missed, neutralise=szykman_by_hand),
]
DEVIATION = {d.name: d for d in DEVIATIONS}


# ============================================================================================
# comparing and classifying


def difference(ds: Run, peer: Run) -> dict[str, list[Loc]]:
    return {"after_dipsat_only": sorted(ds.after - peer.after), "after_peer_only": sorted(peer.after - ds.after),
            "dislodged_dipsat_only": sorted(ds.dislodged - peer.dislodged),
            "dislodged_peer_only": sorted(peer.dislodged - ds.dislodged)}


def _agree(a: Run, b: Run) -> bool:
    return a.after == b.after and a.dislodged == b.dislodged


@dataclass
class Verdict:
    turn: str
    peer: str
    classes: list[str]  # the deviations that explain it ([] = unclassified)
    evidence: dict[str, list[str]]  # deviation -> trigger descriptions (also for unclassified)
    diff: dict[str, list[Loc]]
    note: str = ""

    @property
    def label(self) -> str:
        return "+".join(self.classes) if self.classes else "unclassified"


def classify(turn: Turn, peer: Any, ds: Run, run: Run) -> Verdict:
    """Explain one disagreement by the peer's documented deviations.

    Every deviation whose trigger occurs in the turn is a candidate (an effect can travel far:
    a support cut or not cut changes a battle elsewhere); the evidence that concerns a province
    where the results differ is listed first, the rest is marked "[elsewhere]".  The verdict is
    the smallest set of candidates whose corrections make the peer agree with dipsat exactly;
    when none does, the disagreement is unclassified."""
    diff = difference(ds, run)
    turn.dipsat = ds
    touched = {loc.split("/")[0] for xs in diff.values() for _, _, loc in xs}
    evidence: dict[str, list[str]] = {}
    for dev in DEVIATIONS:
        if dev.peer == peer.name:
            ev = dev.trigger(turn)
            if ev:
                ev = sorted(ev, key=lambda e: not (e[1] & touched))
                evidence[dev.name] = [text + ("" if provs & touched else " [elsewhere]") for text, provs in ev]
    if not evidence:
        return Verdict(turn.id, peer.name, [], {}, diff, "no documented deviation is triggered here")
    names = sorted(evidence)
    subsets = [list(c) for k in range(1, len(names) + 1) for c in itertools.combinations(names, k)]
    for subset in subsets:
        t, req = turn, turn.req
        for n in subset:
            if DEVIATION[n].neutralise:
                req = DEVIATION[n].neutralise(t) or req
                t = Turn(req)
                t.dipsat = ds
        fixed = peer.run(req, fixes=frozenset(n for n in subset if not DEVIATION[n].neutralise))
        if _agree(ds, fixed):
            return Verdict(turn.id, peer.name, subset, {n: evidence[n] for n in subset}, diff)
    return Verdict(turn.id, peer.name, [], evidence, diff,
                   f"triggered {', '.join(names)}, but the corrected {peer.name} still disagrees")


# ============================================================================================
# running


def load_peers(names: tuple[str, ...] = ("mila", "pydip")) -> tuple[list[Any], dict[str, str]]:
    """The installed peers, and why the others are missing."""
    peers, missing = [], {}
    for name, cls in (("mila", Mila), ("pydip", Pydip)):
        if name not in names:
            continue
        try:
            peers.append(cls())
        except ImportError as exc:
            missing[name] = f"not installed ({exc})"
        except Exception as exc:  # a broken peer is reported, not fatal
            missing[name] = f"unusable: {type(exc).__name__}: {exc}"
    return peers, missing


@dataclass
class TurnReport:
    """One turn against every peer.  A turn on which an engine refused an order is not
    compared for that engine (all peers, when dipsat refused) and is reported instead."""

    turn: str
    verdicts: list[Verdict] = field(default_factory=list)
    agreed: list[str] = field(default_factory=list)  # peers that agreed
    failures: list[dict[str, str]] = field(default_factory=list)  # engine raised
    refused: list[dict[str, str]] = field(default_factory=list)  # engine refused an order


def compare_turn(req: dict[str, Any], dipsat: Dipsat, peers: list[Any]) -> TurnReport:
    rep = TurnReport(req["id"])
    turn = Turn(req)
    try:
        ds = dipsat.run(req)
    except Exception as exc:
        rep.failures.append({"engine": "dipsat", "error": f"{type(exc).__name__}: {exc}",
                             "traceback": traceback.format_exc(limit=8)})
        return rep
    for r in ds.refused:
        rep.refused.append({"engine": "dipsat", "order": r})
    if ds.refused:  # the workload makes legal orders only: not comparable, reported
        return rep
    for peer in peers:
        try:
            run = peer.run(req)
        except Exception as exc:
            rep.failures.append({"engine": peer.name, "error": f"{type(exc).__name__}: {exc}",
                                 "traceback": traceback.format_exc(limit=8)})
            continue
        for r in run.refused:
            rep.refused.append({"engine": peer.name, "order": r})
        if run.refused:
            continue
        if _agree(ds, run):
            rep.agreed.append(peer.name)
            continue
        try:
            rep.verdicts.append(classify(turn, peer, ds, run))
        except Exception as exc:
            rep.failures.append({"engine": f"classify {peer.name}", "error": f"{type(exc).__name__}: {exc}",
                                 "traceback": traceback.format_exc(limit=8)})
    return rep


def _loc_text(x: Loc) -> str:
    return f"{x[0]} {x[1]} {workload._loc_text(x[2])}"


def verdict_json(v: Verdict, req: dict[str, Any]) -> dict[str, Any]:
    return {"turn": v.turn, "peer": v.peer, "class": v.label, "note": v.note,
            "evidence": v.evidence, "diff": {k: [_loc_text(x) for x in xs] for k, xs in v.diff.items()},
            "planted": req.get("planted"), "units": req["units"], "orders": req["orders"]}


def run_differential(seed: int, turns: int, kind: str = "mixed", start: int = 0,
                     peer_names: tuple[str, ...] = ("mila", "pydip"), examples: int = 3,
                     progress: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    dipsat = Dipsat()
    peers, missing = load_peers(peer_names)
    per_peer: dict[str, dict[str, Any]] = {
        p.name: {"version": p.version, "compared": 0, "agree": 0, "disagree": 0, "classes": Counter(),
                 "other_peer_agrees": Counter(), "examples": {}, "unclassified": []} for p in peers}
    failures: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    planted: Counter = Counter()
    t0 = time.perf_counter()
    for i in range(start, start + turns):
        req = make_turn(seed, i, kind)
        planted.update(req.get("planted", []))
        rep = compare_turn(req, dipsat, peers)
        for f in rep.failures:
            failures.append({"turn": rep.turn, **f, "request": req})
        for r in rep.refused:
            refused.append({"turn": rep.turn, **r})
        for name in rep.agreed:
            per_peer[name]["compared"] += 1
            per_peer[name]["agree"] += 1
        for v in rep.verdicts:
            st = per_peer[v.peer]
            st["compared"] += 1
            st["disagree"] += 1
            st["classes"][v.label] += 1
            if any(p != v.peer for p in rep.agreed):  # another peer agrees with dipsat here
                st["other_peer_agrees"][v.label] += 1
            if v.classes:
                exs = st["examples"].setdefault(v.label, [])
                if len(exs) < examples:
                    exs.append(verdict_json(v, req))
            else:
                st["unclassified"].append(verdict_json(v, req))
        if (i - start + 1) % 500 == 0:
            progress(f"  {i - start + 1}/{turns} turns ({time.perf_counter() - t0:.0f} s)")
    for st in per_peer.values():
        st["classes"] = dict(sorted(st["classes"].items(), key=lambda kv: (-kv[1], kv[0])))
        st["other_peer_agrees"] = dict(st["other_peer_agrees"])
    return {
        "config": {"seed": seed, "turns": turns, "start": start, "workload": kind,
                   "turn_ids": "s<seed>-t<i> plain, s<seed>-r<i> rich"},
        "engines": {"dipsat": dipsat.version, **{p.name: p.version for p in peers},
                    **{k: v for k, v in missing.items()}},
        "peers": per_peer,
        "deviations": {d.name: {"peer": d.peer, "summary": d.summary, "datc": d.datc, "corpus": d.corpus}
                       for d in DEVIATIONS},
        "planted_situations": dict(sorted(planted.items())),
        "failures": failures,
        "refused_orders": refused,
        "seconds": round(time.perf_counter() - t0, 1),
    }


def format_report(res: dict[str, Any], show: int = 3) -> str:
    c = res["config"]
    out = [f"differential: seed {c['seed']}, {c['turns']} turns from {c['start']}, workload {c['workload']}, "
           f"{res['seconds']} s", "engines: " + ", ".join(f"{k} {v}" for k, v in res["engines"].items())]
    if res["planted_situations"]:
        out.append("planted situations (rich turns): "
                   + ", ".join(f"{k} {v}" for k, v in res["planted_situations"].items()))
    for name, st in res["peers"].items():
        n = st["compared"]
        pct = 100.0 * st["agree"] / n if n else float("nan")
        out.append("")
        out.append(f"== dipsat vs {name} {st['version']}: agree on {st['agree']}/{n} turns ({pct:.2f}%), "
                   f"disagree on {st['disagree']}")
        others = len(res["peers"]) > 1
        for label, k in st["classes"].items():
            corr = f"   (the other peer agrees with dipsat on {st['other_peer_agrees'].get(label, 0)})" if others else ""
            out.append(f"   {k:6d}  {label}{corr}")
        for label, exs in st["examples"].items():
            out.append(f"   -- {label}: first {min(show, len(exs))} example(s)")
            for ex in exs[:show]:
                out.append(f"      {ex['turn']}: " + " | ".join(e for evs in ex["evidence"].values() for e in evs[:1]))
                out.append("        differs: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in ex["diff"].items() if v))
                out.append("        orders: " + json.dumps(ex["orders"], separators=(",", ":")))
        for ex in st["unclassified"]:
            out.append(f"   !! UNCLASSIFIED {ex['turn']} ({ex['note']})")
            out.append("      differs: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in ex["diff"].items() if v))
            for dev, evs in ex["evidence"].items():
                out.append(f"      {dev}: " + " | ".join(evs))
            out.append("      units: " + json.dumps(ex["units"], separators=(",", ":")))
            out.append("      orders: " + json.dumps(ex["orders"], separators=(",", ":")))
    if res["deviations"]:
        out.append("")
        out.append("documented deviations:")
        for name, d in res["deviations"].items():
            out.append(f"  {name} [{d['peer']}]: {d['summary']} ({d['datc']}; {d['corpus']})")
    for key, what in (("failures", "engine failures"), ("refused_orders", "refused orders")):
        xs = res[key]
        if xs:
            out.append("")
            out.append(f"!! {len(xs)} {what}; first {min(len(xs), show)}:")
            for x in xs[:show]:
                out.append(f"   {x['turn']} {x['engine']}: {x.get('error') or x.get('order')}")
    return "\n".join(out)


def problems(res: dict[str, Any]) -> int:
    return (sum(len(st["unclassified"]) for st in res["peers"].values())
            + len(res["failures"]) + len(res["refused_orders"]))


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Compare dipsat with MILA diplomacy and pydip on seeded random turns.")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0, help="first turn number")
    ap.add_argument("--workload", choices=("plain", "rich", "mixed"), default="mixed")
    ap.add_argument("--rich", action="store_const", const="rich", dest="workload", help="same as --workload rich")
    ap.add_argument("--peers", default="mila,pydip", help="comma-separated subset of mila,pydip")
    ap.add_argument("--examples", type=int, default=3, help="examples kept per class")
    ap.add_argument("-o", "--output", help="JSON file (default benchmarks/results/differential-...json)")
    ap.add_argument("--turn", help="adjudicate one turn id (s1-t12, s1-r7) and print everything")
    args = ap.parse_args(argv)
    say = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731
    peer_names = tuple(x.strip() for x in args.peers.split(",") if x.strip())

    if args.turn:
        s, _, rest = args.turn.partition("-")
        req = make_turn(int(s[1:]), int(rest[1:]), "rich" if rest[0] == "r" else "plain")
        dipsat = Dipsat()
        peers, missing = load_peers(peer_names)
        print(json.dumps(req, indent=1))
        rep = compare_turn(req, dipsat, peers)
        print(f"agree: {rep.agreed}; missing: {missing}")
        for v in rep.verdicts:
            print(json.dumps(verdict_json(v, req), indent=1))
        for f in rep.failures + rep.refused:
            print(f)
        return 0

    res = run_differential(args.seed, args.turns, args.workload, args.start, peer_names, args.examples, say)
    out = Path(args.output) if args.output else (
        HERE / "results" / f"differential-seed{args.seed}-{args.workload}-{args.turns}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1, default=list) + "\n", encoding="utf-8")
    print(format_report(res, args.examples))
    print(f"\nresults: {out}")
    return 1 if problems(res) else 0


if __name__ == "__main__":
    sys.exit(main())
