"""Multiplicity Plus movement: merges, multiple and multinational units, A/F, cut budgets.

The turn is a system of exact equations over the engine's decisions (:mod:`dipsat.engine.equations`),
built by the core's shared :meth:`MovementRules.encode`; this module says what they are for this
variant through its hooks (``collect``, ``plan``, ``decisions``, ``battle``, ``cuts``,
``path_formula``, ``convoy_formula``) over its own record of the turn (:mod:`.encoding`);
:mod:`.explain` says what a solution means in the variant's own terms.

* A **side** is the nations acting as one: a nation, or two nations whose orders agree to merge
  (rule 5).  A **force** is every unit of one side ordered to one space (rule 3: units of one
  nation never stand each other off; rule 4: they merge).  One boolean decision ``force`` says
  whether it gets in; each member moves when its force does and it has a path.
* A space's **owners** are the nations whose units stand there (two for a multinational unit).
  A force of an owner into the space is a merge: it needs only to beat the other forces moving
  there.  Any other force attacks: it must beat the space's defence and the other forces.
* **Strengths** are integer decisions (``strength``, ``defence``): the number of units (rule 6;
  over a sea space only fleets count, rule 7) plus supports given.  Supports are one boolean per
  supporting unit (``support``, part j), so a multiple unit's support can be partly cut.
* **Implied supports** (rule 4(b)): a stationary unit not ordered to support elsewhere supports
  merges into its space; units merging into a space where their own units stand support those
  units in place.  Both are support decisions like written ones, cut the same way.
* **Cut budget** (rule 6): each attack on a space cuts the supports of the multiple unit there
  up to its own strength, the strongest attack deciding (not the total); supports are cut in
  the attacker's stated order of spaces, else the last-written first, else (a multinational
  unit) alphabetically.  An attack does not count the units and supports coming from the space
  a support is aimed at (the seed's France 2A(Par) / England 3A(Pic) example).
* **Seaworthiness** (rules 7, 10): a force may enter a sea space only if the fleets there after
  it (its own and its side's units standing there) are at least as many as the armies; fleets
  leaving an A/F at sea fail when the armies left behind would outnumber the fleets.
* **Attacks inside a multinational unit** (rule 5(a), (b)): one boolean ``inside`` per attack;
  success dislodges the foreign component, failure dislodges the attacking one.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Optional, Sequence

from dipsat.engine.equations import Component, System
from dipsat.engine.formulas import AND, FALSE, GE, INT, NOT, OR, SUM, TRUE, VAR, Definition, Formula, IntExpr, Key, Values
from dipsat.models import ARMY, FLEET, Convoy, Move, Position, Support
from dipsat.outcomes import MovementResult
from dipsat.board.movement import MovementRules
from dipsat.board.stacks import forces_fail_with_moves, slot_cut
from dipsat.board.orders import BoundOrders, describe_unit

from .details import Seaworthiness
from .encoding import CutTerms, Enc, ForceKey, Side, Slot, Terms, dkey
from .explain import explain_turn
from .options import MultiplicityOptions
from .orders import InsideAttack, InsideSupport, MergeAttack, MergeMove, MergeSupport, MultiplicityBound


class MultiplicityRules(MovementRules[Enc]):
    rules: MultiplicityOptions

    # declared through RuleOptions.choose (dipsat readings: in the model); the others of its own
    # options decide which decisions and supports exist, so they are enumerated outside it
    # (convoyed_attack_from_target_cuts is read directly by the cut budgets of rule 6, so it is not)
    option_formulas = tuple(n for n in MovementRules.option_formulas if n != "convoyed_attack_from_target_cuts") + \
        ("failed_split_defends",)

    def label(self, pos: Position, u: int) -> str:
        n = pos.units[u].count
        return (f"{n} " if n != 1 else "") + describe_unit(pos.units[u], self.map)

    # -- geography of combat -------------------------------------------------------------------
    def is_sea(self, prov: str) -> bool:
        return self.map.provinces[prov].is_sea

    def weight(self, pos: Position, u: int, prov: str) -> int:
        """What a unit counts in a conflict over ``prov`` (rule 6: its number of units; rule 7:
        over a sea space only fleets count)."""
        unit = pos.units[u]
        return 0 if unit.kind == ARMY and self.is_sea(prov) else unit.count

    # -- encoding: the core's shared encode (:meth:`MovementRules.encode`) with these hooks -----
    merge_moves = True  # a force (the units of one side ordered to one space) gets in or not

    def collect(self, b: BoundOrders) -> Enc:
        """The turn's moves, occupants and forces: a force is every unit of one side ordered to
        one space; a side is a nation, or two nations whose merge orders name each other (rule
        5), or the components of a multinational unit moving together."""
        pos = b.position
        orders = b.orders
        moves = {u: o.body for u, o in sorted(orders.items()) if isinstance(o.body, Move)}
        dest = {u: mv.dest.split("/")[0] for u, mv in moves.items()}
        route = {u: ("land" if b.route.get(u, "land") == "land" else "convoy") for u in moves}
        occupants: dict[str, list[int]] = defaultdict(list)
        for i, unit in enumerate(pos.units):
            occupants[unit.province].append(i)
        owners = {p: frozenset(pos.units[i].power for i in us) for p, us in occupants.items()}
        # sides: two nations whose merge orders name each other, moving to one space
        enc_owners = {p: {pos.units[i].power for i in us} for p, us in occupants.items()}
        side_of: dict[int, Side] = {}
        for u, mv in moves.items():
            me = pos.units[u].power
            side: Side = (me,)
            if isinstance(mv, MergeMove):
                partner = mv.partner
                agreed = any(isinstance(other, MergeMove) and pos.units[v].power == partner
                             and other.partner == me and dest[v] == dest[u]
                             for v, other in moves.items())
                if agreed:
                    side = tuple(sorted((me, partner)))
            else:
                # the components of a multinational unit moving together stay one unit (rule 5:
                # "the GM will accept the integrity of that multiple unit until orders are
                # received ... that result in the multiple unit splitting")
                origin = pos.units[u].province
                together = {pos.units[v].power for v in moves if pos.units[v].province == origin and dest[v] == dest[u]}
                if len(enc_owners.get(origin, ())) > 1 and len(together) > 1:
                    side = tuple(sorted(together))
            side_of[u] = side
        forces: dict[ForceKey, list[int]] = defaultdict(list)
        for u in sorted(moves):
            forces[(side_of[u], dest[u])].append(u)
        enc = Enc(bound=b, system=System(), moves=moves, dest=dest, route=route, occupants=dict(occupants),
                  labels=[self.label(pos, i) for i in range(len(pos.units))], forces=dict(forces),
                  force_of={u: k for k, us in forces.items() for u in us}, owners=owners)
        enc.system.labels = enc.labels
        return enc

    def plan(self, enc: Enc) -> None:
        """Which orders match what (supports, merge supports, inside supports, convoys, the
        implied supports of rule 4(b)), one decision per supporting unit, head-to-head forces."""
        self._match(enc)
        self._plan_slots(enc)
        self._head_to_head(enc)

    def convoy_routes(self, enc: Enc, u: int) -> list[tuple[str, ...]]:
        return self._convoy_routes(enc, u)

    def path_formula(self, enc: Enc, u: int) -> Formula:
        return self._path_formula(enc, u)

    def decisions(self, enc: Enc) -> list[tuple[Key, str, Definition]]:
        """Each force's strength (an integer decision) and seaworthiness; each inside attack."""
        keys = sorted(enc.forces, key=lambda k: enc.forces[k][0])
        out: list[tuple[Key, str, Definition]] = [
            (dkey("strength", enc.forces[k][0]), "strength", self._sum(self.force_terms(enc, k))) for k in keys]
        out += [(dkey("seaworthy", enc.forces[k][0]), "seaworthy", self.seaworthy(enc, k)) for k in keys]
        for f, o in sorted(enc.bound.orders.items()):
            if isinstance(o.body, InsideAttack):
                out.append((dkey("inside", f), "inside", self.inside_formula(enc, f)))
        return out

    def battle(self, enc: Enc, movers: list[int]) -> Formula:
        return self.force_formula(enc, enc.force_of[movers[0]])

    def cuts(self, enc: Enc) -> list[tuple[Key, Definition]]:
        return self._slot_definitions(enc)

    def convoy_formula(self, enc: Enc, f: int) -> Formula:
        """A convoy succeeds unless its sea space is taken (rule 9: the usual rules)."""
        return NOT(self.displaced(enc, enc.bound.position.units[f].province))

    # which orders match what ---------------------------------------------------------------
    def _match(self, enc: Enc) -> None:
        b, pos = enc.bound, enc.bound.position
        for s, o in sorted(b.orders.items()):
            body = o.body
            if isinstance(body, Support):
                tprov = pos.units[body.target].province
                tpow = body.target_power or pos.units[body.target].power
                if body.dest is None:
                    holders = [v for v in enc.occupants[tprov] if v not in enc.moves and v != s]
                    enc.matched[s] = bool(holders)
                    if holders:
                        enc.hold_supports_at[tprov].append(s)
                else:
                    movers = [u for u in enc.moves if pos.units[u].province == tprov and enc.dest[u] == body.dest]
                    mine = [u for u in movers if pos.units[u].power == tpow] or movers
                    keys = sorted({enc.force_of[u] for u in mine})
                    enc.matched[s] = bool(keys)
                    if keys:
                        enc.supports_of_force[keys[0]].append(s)
            elif isinstance(body, MergeSupport):
                keys = sorted(k for k in enc.forces if k[1] == body.dest and body.power in k[0])
                enc.matched[s] = bool(keys)
                for k in keys[:1]:
                    enc.merge_supports[k].append(s)
            elif isinstance(body, InsideSupport):
                prov = pos.units[body.target].province
                att = [a for a, x in b.orders.items() if isinstance(x.body, InsideAttack)
                       and pos.units[a].province == prov and x.body.victim == body.victim]
                enc.matched[s] = bool(att)
                for a in att[:1]:
                    enc.inside_supports[a].append(s)
            elif isinstance(body, MergeAttack):
                att = [a for a, x in b.orders.items() if isinstance(x.body, InsideAttack) and x.power == b.orders[s].power
                       and pos.units[a].province == enc.dest[s] and x.body.victim == body.victim]
                for a in att[:1]:
                    enc.merge_attacks[a].append(s)
            elif isinstance(body, Convoy):
                army_prov = pos.units[body.target].province
                armies = [u for u in enc.moves if pos.units[u].province == army_prov and enc.dest[u] == body.dest
                          and enc.route[u] == "convoy"]
                enc.matched[s] = bool(armies)
                for a in armies:
                    enc.convoyers[a].append(s)
        if self.rules.implied_merge_support == "none":
            return
        # rule 4(b): stationary units support merges into their space; merging units support
        # the stationary units in place
        for k, members in sorted(enc.forces.items()):
            side, prov = k
            stationary = [v for v in enc.occupants.get(prov, []) if v not in enc.moves
                          and pos.units[v].power in side and self.weight(pos, v, prov)
                          and not isinstance(b.orders[v].body, (Support, MergeSupport, InsideSupport, InsideAttack))]
            if not stationary:
                continue
            enc.implied_merge[k].extend(stationary)
            enc.in_place[prov].extend(m for m in members if self.weight(pos, m, prov) and enc.route[m] == "land")

    def _plan_slots(self, enc: Enc) -> None:
        """One decision per supporting unit; the default cutting order per multiple unit (its
        space): last-written first; in a multinational unit, alphabetically (option)."""
        b, pos = enc.bound, enc.bound.position
        written = b.written if isinstance(b, MultiplicityBound) else {}
        gives: dict[int, tuple[Optional[str], str]] = {}
        for s in sorted(b.orders):
            body = b.orders[s].body
            if isinstance(body, (Support, MergeSupport)) and enc.matched.get(s):
                gives[s] = (body.dest, "written")
            elif isinstance(body, InsideSupport) and enc.matched.get(s):
                gives[s] = (pos.units[body.target].province, "written")
        for k, us in enc.implied_merge.items():
            for v in us:
                gives.setdefault(v, (k[1], "merge"))
        for prov, us in enc.in_place.items():
            for m in us:
                gives.setdefault(m, (None, "in place"))
        for s, (aim, what) in sorted(gives.items()):
            n = self.weight(pos, s, aim) if aim is not None else self.weight(pos, s, pos.units[s].province)
            kind = "support"
            enc.support_slots[s] = [Slot(dkey(kind, s, j + 1), s, aim, what) for j in range(max(n, 0))]
        by_prov: dict[str, list[int]] = defaultdict(list)
        for s in sorted(enc.support_slots):
            by_prov[pos.units[s].province].append(s)
        for prov, sups in by_prov.items():
            multinational = len({pos.units[s].power for s in sups}) > 1

            def order_key(s: int) -> tuple[int | str, ...]:
                last_first = -written.get(s, -1)
                if not multinational:
                    return (last_first, s)
                if self.rules.multinational_cut_order == "nation":
                    return (pos.units[s].power, last_first, s)
                aim = enc.support_slots[s][0].aim if enc.support_slots[s] else None
                return (self.map.provinces[aim].name if aim else self.map.provinces[prov].name, last_first, s)

            rank = 0
            for s in sorted(sups, key=order_key):
                for sl in enc.support_slots[s]:
                    rank += 1
                    enc.cut_rank[sl.key] = rank

    def _head_to_head(self, enc: Enc) -> None:
        pos = enc.bound.position
        for k, members in enc.forces.items():
            side, p = k
            for u in members:
                if enc.route[u] != "land":
                    continue
                o = pos.units[u].province
                for v in enc.occupants.get(p, []):
                    if v in enc.moves and enc.route[v] == "land" and enc.dest[v] == o and pos.units[v].power not in side:
                        opp = enc.force_of[v]
                        if set(opp[0]) & set(side):
                            continue
                        entry = enc.force_h2h.setdefault(k, (opp, []))
                        if v not in entry[1]:
                            entry[1].append(v)

    # convoys ---------------------------------------------------------------------------------
    def _convoy_routes(self, enc: Enc, u: int) -> list[tuple[str, ...]]:
        """Chains of seas holding matched convoys from the army's space to its destination, each
        sea able to carry the army (rule 9: the A/F and the armies it carries stay seaworthy)."""
        pos = enc.bound.position
        army = pos.units[u]
        seas = sorted({pos.units[f].province for f in enc.convoyers.get(u, [])
                       if self._capacity(enc, pos.units[f].province) >= army.count})
        if not seas:
            return []
        start = self.geo.seas_next_to(army.province)
        goal = self.geo.seas_next_to(enc.dest[u])
        found: set[tuple[str, ...]] = set()

        def extend(path: list[str]) -> None:  # every simple chain of seas from start to goal
            last = path[-1]
            if last in goal:
                found.add(tuple(sorted(path)))
            for nxt in seas:
                if nxt not in path and nxt in self.geo.seas_next_to(last):
                    extend(path + [nxt])

        for s0 in seas:
            if s0 in start:
                extend([s0])
        return sorted(found)

    def _capacity(self, enc: Enc, sea: str) -> int:
        pos = enc.bound.position
        here = [pos.units[i] for i in enc.occupants.get(sea, [])]
        return sum(x.count for x in here if x.kind == FLEET) - sum(x.count for x in here if x.kind == ARMY)

    def _path_formula(self, enc: Enc, u: int) -> Formula:
        pos = enc.bound.position
        by_sea: dict[str, list[int]] = defaultdict(list)
        for f in enc.convoyers.get(u, []):
            by_sea[pos.units[f].province].append(f)
        return OR(*(AND(*(VAR(dkey("convoy", f)) for s in r for f in by_sea[s])) for r in enc.routes[u]))

    def move_var(self, u: int) -> Formula:
        return VAR(dkey("move", u))

    def force_enters(self, enc: Enc, k: ForceKey) -> Formula:
        return VAR(dkey("force", enc.forces[k][0]))

    # strengths ---------------------------------------------------------------------------------
    @staticmethod
    def _sum(terms: Terms) -> IntExpr:
        return SUM([(w, f) for _, w, f in terms])

    def hostile(self, enc: Enc, k: ForceKey) -> bool:
        """Does force ``k`` attack its space (rather than merge into it)?"""
        own = enc.owners.get(k[1], frozenset())
        return bool(own) and not (own & set(k[0]))

    def slot_terms(self, enc: Enc, units: list[int], label: str, exclude: frozenset[str] = frozenset()) -> Terms:
        pos = enc.bound.position
        return [(f"{label} {enc.labels[s]}", 1, VAR(sl.key)) for s in units if pos.units[s].power not in exclude
                for sl in enc.support_slots.get(s, [])]

    def member_terms(self, enc: Enc, k: ForceKey) -> Terms:
        pos = enc.bound.position
        members = [u for u in enc.forces[k] if self.weight(pos, u, k[1])]
        if (len(k[0]) > 1 and len({pos.units[u].province for u in enc.forces[k]}) > 1
                and self.rules.multinational_merge_support == "none"):
            # rule 4(a)'s mutual support is between units "of the same nationality": the nations
            # of a merge being formed do not support each other, so the force counts the units of
            # one nation, its strongest (an existing multinational unit moving whole is one unit)
            weight = {n: sum(self.weight(pos, u, k[1]) for u in members if pos.units[u].power == n) for n in k[0]}
            strongest = min(k[0], key=lambda n: (-weight[n], n))
            members = [u for u in members if pos.units[u].power == strongest]
        return [(enc.labels[u], self.weight(pos, u, k[1]), self.path_open(enc, u)) for u in members]

    def force_terms(self, enc: Enc, k: ForceKey, exclude: frozenset[str] = frozenset()) -> Terms:
        """The strength of a force: its units, the supports of its move, supports of the merge by
        third parties (rule 4(d)) and the implied support of its side's units standing there."""
        return (self.member_terms(enc, k) + self.slot_terms(enc, enc.supports_of_force.get(k, []), "support", exclude)
                + self.slot_terms(enc, enc.merge_supports.get(k, []), "merge support", exclude)
                + self.slot_terms(enc, enc.implied_merge.get(k, []), "implied support of the merge by", exclude))

    def stays(self, enc: Enc, v: int) -> Formula:
        return TRUE if v not in enc.moves else NOT(self.move_var(v))

    def defence_terms(self, enc: Enc, prov: str, exclude: tuple[int, ...] = ()) -> Terms:
        """What an attack on ``prov`` must beat: the units staying there (rule 10: a component
        that failed to leave does not count while part of its unit stands), hold supports, and
        the implied supports in place of units merging there (rule 4(b))."""
        pos = enc.bound.position
        occ = [v for v in enc.occupants.get(prov, []) if v not in exclude]
        standing = {pos.units[v].power for v in occ if v not in enc.moves}
        terms: Terms = []
        for v in occ:
            w = self.weight(pos, v, prov)
            if not w:
                continue
            if v not in enc.moves:
                terms.append((enc.labels[v], w, TRUE))
            elif pos.units[v].power not in standing:
                terms.append((f"{enc.labels[v]}, whose move failed", w, NOT(self.move_var(v))))
            else:  # rule 10 read through choose: in one model of every reading, under its literal
                def reading(r: str, v: int = v) -> Formula:
                    return NOT(self.move_var(v)) if r == "counted" else FALSE

                f = self.rules.choose("failed_split_defends", reading)
                if f is not FALSE:
                    terms.append((f"{enc.labels[v]}, whose move failed", w, f))
        return (terms + self.slot_terms(enc, enc.hold_supports_at.get(prov, []), "support")
                + self.slot_terms(enc, enc.in_place.get(prov, []), "implied support in place by"))

    def force_prevent_zero(self, enc: Enc, k: ForceKey) -> Formula:
        """A force coming head-to-head that got in prevents nothing in the space it left."""
        if k in enc.force_h2h:
            return self.force_enters(enc, enc.force_h2h[k][0])
        return FALSE

    @staticmethod
    def gt(plus: Terms, minus: Terms) -> Formula:
        return GE([(w, f) for _, w, f in plus] + [(-w, f) for _, w, f in minus], 1)

    def beats(self, enc: Enc, attack: Terms, rival: ForceKey) -> Formula:
        full = INT(dkey("strength", enc.forces[rival][0]))
        return OR(self.force_prevent_zero(enc, rival), GE([(w, f) for _, w, f in attack] + [(-1, full)], 1))

    def seaworthy(self, enc: Enc, k: ForceKey) -> Formula:
        """Rule 7: armies enter a sea space only with as many fleets (the force's and its side's
        units standing there); rule 10: fleets leaving an A/F at sea fail when the armies left
        behind would outnumber the fleets left behind."""
        pos = enc.bound.position
        side, prov = k
        conds: list[Formula] = []
        if self.is_sea(prov):
            here = [v for v in enc.occupants.get(prov, []) if v not in enc.moves and pos.units[v].power in side]
            units = [pos.units[v] for v in here + enc.forces[k]]
            fleets = sum(x.count for x in units if x.kind == FLEET)
            armies = sum(x.count for x in units if x.kind == ARMY)
            if armies > fleets:
                enc.not_seaworthy[k] = Seaworthiness(case="count", rule="rule 7", armies=armies, fleets=fleets,
                                                     where=self.map.provinces[prov].name)
                return FALSE
            # option sea_merge_seaworthy "each": every moving A/F (armies and fleets from one
            # space) seaworthy on its own as well (read only where one is not)
            for origin in sorted({pos.units[u].province for u in enc.forces[k]}):
                group = [pos.units[u] for u in enc.forces[k] if pos.units[u].province == origin]
                f = sum(x.count for x in group if x.kind == FLEET)
                a = sum(x.count for x in group if x.kind == ARMY)
                if f and a > f and self.rules.sea_merge_seaworthy == "each":
                    enc.not_seaworthy[k] = Seaworthiness(case="count", rule="rule 7", armies=a, fleets=f,
                                                         where=self.map.provinces[prov].name)
                    return FALSE
        for origin in sorted({pos.units[u].province for u in enc.forces[k] if pos.units[u].kind == FLEET}):
            if not self.is_sea(origin):
                continue
            occ = enc.occupants.get(origin, [])
            if not any(pos.units[v].kind == ARMY for v in occ):
                continue
            terms: list[tuple[int, Formula]] = []
            for v in occ:
                if enc.force_of.get(v) == k:
                    continue
                sign = 1 if pos.units[v].kind == FLEET else -1
                terms.append((sign * pos.units[v].count, self.stays(enc, v)))
            conds.append(GE(terms, 0))
        return AND(*conds)

    def force_formula(self, enc: Enc, k: ForceKey) -> Formula:
        side, p = k
        rivals = [r for r in enc.forces if r[1] == p and r != k]
        full = self.force_terms(enc, k)
        sea = VAR(dkey("seaworthy", enc.forces[k][0]))
        if not self.hostile(enc, k):
            return AND(sea, *(self.beats(enc, full, r) for r in rivals))
        owners = enc.owners[p]
        restricted = self.force_terms(enc, k, owners)
        beat_r = [self.beats(enc, restricted, r) for r in rivals]
        if k in enc.force_h2h:
            opp, opp_units = enc.force_h2h[k]
            return AND(sea, self.gt(restricted, self.force_terms(enc, opp) + self.defence_terms(enc, p, tuple(opp_units))), *beat_r)
        occ = enc.occupants.get(p, [])
        movers_out = [v for v in occ if v in enc.moves]
        all_leave = AND(*(self.move_var(v) for v in movers_out)) if len(movers_out) == len(occ) else FALSE
        left = AND(all_leave, *(self.beats(enc, full, r) for r in rivals))
        stays = AND(NOT(all_leave), self.gt(restricted, self.defence_terms(enc, p)), *beat_r)
        return AND(sea, OR(left, stays))

    def displaced(self, enc: Enc, prov: str) -> Formula:
        """Some force that attacks ``prov`` gets in."""
        return OR(*(self.force_enters(enc, k) for k in enc.forces if k[1] == prov and self.hostile(enc, k)))

    # inside attacks (rule 5) -----------------------------------------------------------------
    def inside_terms(self, enc: Enc, a: int) -> tuple[Terms, Terms]:
        pos = enc.bound.position
        body = enc.bound.orders[a].body
        assert isinstance(body, InsideAttack)
        prov = pos.units[a].province
        attack = [(enc.labels[a], self.weight(pos, a, prov), TRUE)] + self.slot_terms(enc, enc.inside_supports.get(a, []), "support")
        # units merging into the attacking component with a combined order count when they arrive
        attack += [(f"merging {enc.labels[u]}", self.weight(pos, u, prov), VAR(dkey("move", u))) for u in enc.merge_attacks.get(a, [])]
        victims = [v for v in enc.occupants.get(prov, []) if pos.units[v].power == body.victim and v not in enc.moves]
        hold = [s for s in enc.hold_supports_at.get(prov, []) if self.supported_power(enc, s) == body.victim]
        defence = [(enc.labels[v], self.weight(pos, v, prov), TRUE) for v in victims] + self.slot_terms(enc, hold, "support")
        return attack, defence

    @staticmethod
    def supported_power(enc: Enc, s: int) -> Optional[str]:
        """The nation a support order supports: the one it names, else the supported unit's."""
        body = enc.bound.orders[s].body
        if not isinstance(body, Support):
            return None
        return body.target_power or enc.bound.position.units[body.target].power

    def inside_formula(self, enc: Enc, a: int) -> Formula:
        attack, defence = self.inside_terms(enc, a)
        return self.gt(attack, defence)

    # supports and their cuts (rule 6) -------------------------------------------------------
    def cutting_groups(self, enc: Enc, prov: str) -> list[tuple[ForceKey, CutTerms]]:
        """Each attack on ``prov`` with what it cuts with: its units (they cannot cut a support
        aimed at the space they come from) and the supports of its attack (they do not count
        against a support aimed at the supporter's own space: rule 6's example)."""
        pos = enc.bound.position
        out = []
        for k in sorted(enc.forces):
            if k[1] != prov or not self.hostile(enc, k):
                continue
            terms: CutTerms = []
            for m in enc.forces[k]:
                w = self.weight(pos, m, prov)
                if w:
                    key = pos.units[m].province if enc.route[m] == "land" or not self.rules.convoyed_attack_from_target_cuts else None
                    terms.append((key, w, self.path_open(enc, m)))
            # a support adds to the attack only when the attack comes: some unit of the force has
            # a path (a convoyed army whose convoy fails attacks nothing, supported or not)
            comes = OR(*(self.path_open(enc, m) for m in enc.forces[k]))
            for s in enc.supports_of_force.get(k, []) + enc.merge_supports.get(k, []):
                terms += [(pos.units[s].province, 1, AND(VAR(sl.key), comes)) for sl in enc.support_slots.get(s, [])]
            out.append((k, terms))
        return out

    def _slot_definitions(self, enc: Enc) -> list[tuple[Key, Definition]]:
        pos = enc.bound.position
        b = enc.bound
        priority = b.priority if isinstance(b, MultiplicityBound) else {}
        out: list[tuple[Key, Definition]] = []
        # one budget per space (stack) or per support order (order): (space, supporter or -1)
        scope: dict[tuple[str, int], list[Slot]] = defaultdict(list)
        per_order = self.rules.cut_budget != "stack"
        for s in sorted(enc.support_slots):
            scope[(pos.units[s].province, s if per_order else -1)].extend(enc.support_slots[s])
        for (prov, _), slots in sorted(scope.items(), key=lambda kv: str(kv[0]) if per_order else kv[0][0]):
            groups = self.cutting_groups(enc, prov)
            cut_by: dict[Key, list[Formula]] = defaultdict(list)
            for k, terms in groups:
                first = next((priority[m] for m in enc.forces[k] if m in priority), ())
                ranked = sorted(slots, key=lambda sl: (first.index(sl.aim) if sl.aim in first else len(first),
                                                       enc.cut_rank[sl.key]))
                for j, sl in enumerate(ranked, start=1):
                    before = [x.aim for x in ranked[: j - 1]]
                    cut_by[sl.key].append(slot_cut(terms, j, sl.aim, before))
            for sl in slots:
                cut = OR(*cut_by.get(sl.key, []))
                if sl.what == "in place":
                    out.append((sl.key, NOT(cut)))
                else:
                    out.append((sl.key, AND(NOT(cut), NOT(self.displaced(enc, prov)))))
        return out

    # backup rules ----------------------------------------------------------------------------
    def backup(self, members: tuple[Key, ...], defs: dict[Key, Definition], count: int) -> Optional[tuple[str, str, dict[Key, Definition]]]:
        kinds = {n.kind for n in members}
        if "seaworthy" in kinds:
            # fleets leaving A/Fs at sea whose seaworthiness depends on each other: rule 10, "all
            # fleets attempting to split from the multiple A/F will fail"
            return ("other_cycle", "the fleets splitting from an A/F at sea fail (rule 10)",
                    {n: FALSE for n in members if n.kind == "seaworthy"})
        if kinds <= {"move", "force", "strength"}:
            return ("circular_movement", "circular movement: all moves succeed",
                    {n: TRUE for n in members if n.kind in ("force", "move")})
        if "convoy" in kinds or "path" in kinds:
            # the regular rules' paradox rule (rule 0): the core's, where a failed move's force fails too
            return forces_fail_with_moves(super().backup(members, defs, count), members, defs)
        return ("other_cycle", "all orders of the cycle fail",
                {n: FALSE for n in members if n.kind in ("force", "move", "support", "inside")})

    # -- explanation ---------------------------------------------------------------------------
    def explain(self, enc: Enc, values: Values, components: Sequence[Component]) -> MovementResult:
        return explain_turn(self, enc, values, components)
