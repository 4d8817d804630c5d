"""Movement with stacks: many units of one nation in a province, numeric strengths, partial cuts.

For variants where a province may hold any number of units of ONE nation, each unit still an
individual with its own order.  The equations generalise DATC 3.0 chapter 5:

* A *force* is all the units of one nation ordered into one province.  They move in unison: one
  decision ``F<rep>`` says whether the force gets in, and each member moves when the force does
  and its own path (convoy) holds.  A nation never stands itself off, and may move into a
  province its own units hold.
* Attack strength of a force: the units of the force that can make the move (counts) plus its
  supports.  Restricted (the defender's own supports left out) while any defender stays.
* Defence of a province against a foreign force: the defender's units that stay (holders, and
  movers whose force fails, each by its count) plus hold supports.  Head-to-head: a force meeting
  a force coming the other way over land must beat that force's full strength (and any
  defenders that hold besides).
* The greatest force must beat the defence and every other nation's force into the province
  (prevent strength = that force's strength; 0 when its head-to-head opponent got through).
* Supports are given by units: a support order of ``c`` units gives up to ``c``.  An attack by
  ``n`` units on the supporters' province cuts ``n`` of them (or as many as its strength: :meth:`StackMovementRules.cuts_by_strength`), the
  last-written support first; attacks of different nations add up; an attack from the province
  a support is aimed at does not cut that support and cuts the next one instead (a bipartite
  matching of attacking units to supporting units, settled in closed form: ``slot_cut``);
  displacement cuts all.
* A convoy is disrupted only when a convoying fleet is displaced.

Every decision is still one boolean defined by an exact equivalence (:mod:`solver.equations`),
so cycles, counting and backup rules work as for standard Diplomacy.

These rules are the core's movement (:class:`solver.movement.MovementRules`: its shared
encoding and explanation) with the hooks filled in, not a second copy: ``merge_moves`` (forces),
``unit_weight`` (a unit's count), ``plan`` (supports matched per force, hold supports per province,
forces meeting head-on, one support slot per unit), ``battle`` (:meth:`StackMovementRules.force_formula`),
``cuts`` (the slots in cutting order), ``convoy_formula`` (displacement only) and the
explanation hooks.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Callable, ClassVar, Mapping, Optional, Sequence

from dipsat.engine.formulas import AND, FALSE, GE, NOT, OR, TRUE, VAR, Definition, Formula, Key, variables
from dipsat.models import Convoy, Position, Support
from dipsat.outcomes import (Bounced, Convoyed, Cut, Dislodged, Disrupted, Given, Held, Moved, NoPath, Obstacle, Outcome,
                       OrderRef, Partial, Void, order_ref)
from dipsat.board.encoding import Encoding, Terms, _name
from dipsat.board.explain import SolvedTurn
from dipsat.board.movement import MovementRules
from dipsat.board.orders import describe_unit


def forces_fail_with_moves(verdict: Optional[tuple[str, str, dict[Key, Definition]]], members: Sequence[Key],
                           defs: Mapping[Key, Definition]) -> Optional[tuple[str, str, dict[Key, Definition]]]:
    """A backup rule's verdict on boards where forces (not their units' moves) get in: where the
    rule makes the moves of a paradox fail (all_hold), the forces of the cycle and those the
    failed moves are part of fail too, so the cycle is broken."""
    if verdict is None or verdict[0] != "convoy_paradox" or not any(k.kind == "move" for k in verdict[2]):
        return verdict
    over = dict(verdict[2])
    over.update({n: FALSE for n in members if n.kind == "force"})
    for k in [k for k in verdict[2] if k.kind == "move" and k in defs]:
        over.update({f: FALSE for f in variables(defs[k]) if f.kind == "force"})
    return (verdict[0], verdict[1], over)


CutTerms = list[tuple[Optional[str], int, Formula]]  # (province it cannot cut towards, weight, when)


def slot_cut(group: CutTerms, j: int, aim: Optional[str], before: list[Optional[str]]) -> Formula:
    """Is the ``j``-th slot in cutting order cut by ``group``?

    Each unit of cutting weight in the group cuts one supporting unit, the last-written
    first; an attack from province q cannot cut a support aimed at q, so it skips those and
    cuts the next one (rule 7 read with the 1971 base rule).  Taking slots greedily in
    cutting order, slot j is cut when (a) the group can still cut a slot aimed where slot j
    is aimed: more weight not from that province than such slots before j, and (b) the
    slots before j have not used up the group: the matchable number of them,
    sum over origins q of min(n_q, weight not from q) + the others, is below the total.
    Because the weights split by origin, (b) is "total > j-1, or for some origin q the
    weight from q > (j-1) - n_q" (Hall's condition for this bipartite matching)."""
    keys = sorted({k for k, _, _ in group if k is not None})
    total = [(w, f) for _, w, f in group]
    cond_a: Formula = TRUE
    if aim is not None and aim in keys:
        cond_a = GE([(w, f) for k, w, f in group if k != aim], before.count(aim) + 1)
    cond_b = OR(GE(total, j), *(GE([(w, f) for k, w, f in group if k == q], j - before.count(q)) for q in keys))
    return AND(cond_a, cond_b)


def _fname(u: int) -> Key:
    return Key("force", u)


class StackMovementRules(MovementRules[Encoding]):
    """Movement for boards with stacks (see module docstring)."""

    option_formulas: ClassVar[tuple[str, ...]] = ()  # its formulas read no option through choose()

    def unit_weight(self, pos: Position, u: int) -> int:
        return pos.units[u].count

    def cuts_by_strength(self) -> bool:
        """How many supporting units an attack cuts.  False (default): each attacking unit cuts
        one, attacks of different powers add up (an attack by n units cuts n).  True: each
        power's attack cuts as many as its strength (units + supports), and attacks of
        different powers overlap (the strongest counts).  A variant's rule option decides."""
        return False

    def head_to_head_combined(self) -> bool:
        """A force meeting, head-on, a force of the power that holds its target while other
        units of that power stay there.  True (default): it must be numerically greater than
        all of them together, the opposing force and the units that stay (one province, one
        defence).  False: it must beat the opposing force and, separately, the units that
        stay.  A variant's rule option decides."""
        return True

    def head_to_head_terms(self, enc: Encoding, k: tuple[str, str]) -> Terms:
        """What a force in a head-to-head battle must beat when the battle is combined: the
        opposing force and the other units that stay in its target."""
        opp, opp_units = enc.force_h2h[k]
        return self.force_terms(enc, opp) + self.defence_terms(enc, k[1], tuple(opp_units))

    def label(self, pos: Position, u: int) -> str:
        n = pos.units[u].count
        return (f"{n} " if n != 1 else "") + describe_unit(pos.units[u], self.map)

    # -- the hooks of the shared encoding -----------------------------------------------------
    merge_moves = True  # the moves of one nation into one province are one force

    def plan(self, enc: Encoding) -> None:
        """Supports match a force (the supported units' moves into the province, of the named
        nation), hold supports a province; a convoy carries every army of its convoyed move;
        forces meet head-on over land; one support decision per supporting unit."""
        b = enc.bound
        pos = b.position
        moves, dest = enc.moves, enc.dest
        enc.route = route = {u: ("land" if r == "land" else "convoy") for u, r in enc.route.items()}
        occupants, force_of = enc.occupants, enc.force_of
        supports_of_force: dict[tuple[str, str], list[int]] = defaultdict(list)
        hold_supports: dict[str, list[int]] = defaultdict(list)
        convoyers: dict[int, list[int]] = defaultdict(list)
        for s, o in sorted(b.orders.items()):
            body = o.body
            if isinstance(body, Support):
                tprov = pos.units[body.target].province
                tpow = body.target_power
                if body.dest is None:
                    holders = [v for v in occupants[tprov] if v not in moves and v != s
                               and (tpow is None or pos.units[v].power == tpow)]
                    enc.matched[s] = bool(holders)
                    if holders:
                        hold_supports[tprov].append(s)
                else:
                    members = [u for u in moves if pos.units[u].province == tprov and dest[u] == body.dest
                               and (tpow is None or pos.units[u].power == tpow)
                               and (body.dest_coast is None or moves[u].dest == body.dest_coast or "/" not in moves[u].dest)]
                    keys = sorted({force_of[u] for u in members})
                    enc.matched[s] = bool(keys)
                    for k in keys[:1]:
                        supports_of_force[k].append(s)
            elif isinstance(body, Convoy):
                t = body.target
                army_prov = pos.units[t].province
                armies = [u for u in moves if pos.units[u].province == army_prov and dest[u] == body.dest
                          and route[u] == "convoy"]
                enc.matched[body.unit] = bool(armies)
                for a in armies:
                    convoyers[a].append(body.unit)
        enc.supports_of_force, enc.hold_supports_at = dict(supports_of_force), dict(hold_supports)
        enc.convoyers = dict(convoyers)
        # head-to-head: a force and a force of another nation coming the other way over land
        for k, members in enc.forces.items():
            nation, p = k
            for u in members:
                if route[u] != "land":
                    continue
                origin = pos.units[u].province
                for v in occupants.get(p, []):
                    if v in moves and route[v] == "land" and dest[v] == origin and pos.units[v].power != nation:
                        enc.force_h2h.setdefault(k, (force_of[v], []))[1].append(v)
        self._plan_support_slots(enc)

    def battle(self, enc: Encoding, movers: list[int]) -> Formula:
        return self.force_formula(enc, enc.force_of[movers[0]])

    def convoy_formula(self, enc: Encoding, f: int) -> Formula:
        """A convoy fails only when a convoying fleet is displaced (seed 001 rule 8)."""
        return NOT(self.displaced(enc, enc.bound.position.units[f].province))

    # decisions ----------------------------------------------------------------------------
    def force_enters(self, enc: Encoding, k: tuple[str, str]) -> Formula:
        return VAR(_fname(enc.forces[k][0]))

    def displaced(self, enc: Encoding, prov: str) -> Formula:
        """Some foreign force gets into ``prov`` (its occupants that stay are displaced)."""
        occ = enc.occupants.get(prov, [])
        if not occ:
            return FALSE
        owner = enc.bound.position.units[occ[0]].power
        return OR(*(self.force_enters(enc, k) for k in enc.forces if k[1] == prov and k[0] != owner))

    def stays(self, enc: Encoding, v: int) -> Formula:
        return TRUE if v not in enc.moves else NOT(self.move_succeeds(v))

    # strengths ----------------------------------------------------------------------------
    def member_terms(self, enc: Encoding, k: tuple[str, str], exclude: tuple[int, ...] = ()) -> Terms:
        pos = enc.bound.position
        return [(enc.labels[u], pos.units[u].count, self.path_open(enc, u)) for u in enc.forces[k] if u not in exclude]

    def support_slot_terms(self, enc: Encoding, supporters: list[int], exclude_power: Optional[str] = None) -> Terms:
        pos = enc.bound.position
        out: Terms = []
        for s in supporters:
            if exclude_power is not None and pos.units[s].power == exclude_power:
                continue
            for name, _ in enc.slots.get(s, []):
                out.append((f"support {describe_unit(pos.units[s], self.map)}", 1, VAR(name)))
        return out

    def force_terms(self, enc: Encoding, k: tuple[str, str], restricted_by: Optional[str] = None) -> Terms:
        return self.member_terms(enc, k) + self.support_slot_terms(enc, enc.supports_of_force.get(k, []), restricted_by)

    def defence_terms(self, enc: Encoding, prov: str, exclude: tuple[int, ...] = ()) -> Terms:
        pos = enc.bound.position
        terms: Terms = [(enc.labels[v] + ("" if v not in enc.moves else ", whose move failed"), pos.units[v].count,
                         self.stays(enc, v)) for v in enc.occupants.get(prov, []) if v not in exclude]
        return terms + self.support_slot_terms(enc, enc.hold_supports_at.get(prov, []))

    def prevent_zero_force(self, enc: Encoding, k: tuple[str, str]) -> Formula:
        if k in enc.force_h2h:
            return self.force_enters(enc, enc.force_h2h[k][0])
        return FALSE

    def beats(self, enc: Encoding, attack: Terms, rival: tuple[str, str]) -> Formula:
        return OR(self.prevent_zero_force(enc, rival), self._ge(attack, self.force_terms(enc, rival), 1))

    def force_formula(self, enc: Encoding, k: tuple[str, str]) -> Formula:
        pos = enc.bound.position
        nation, p = k
        rivals = [r for r in enc.forces if r[1] == p and r != k]
        occ = enc.occupants.get(p, [])
        full = self.force_terms(enc, k)
        if not occ or pos.units[occ[0]].power == nation:
            return AND(self._ge(full, [], 1), *(self.beats(enc, full, r) for r in rivals))
        owner = pos.units[occ[0]].power
        restricted = self.force_terms(enc, k, owner)
        beat_r = [self.beats(enc, restricted, r) for r in rivals]
        if k in enc.force_h2h:
            opp, opp_units = enc.force_h2h[k]

            def head_on(combined: bool) -> Formula:
                if combined:
                    return AND(self._ge(restricted, self.head_to_head_terms(enc, k), 1), *beat_r)
                return AND(self._ge(restricted, self.force_terms(enc, opp), 1),
                           self._ge(restricted, self.defence_terms(enc, p, tuple(opp_units)), 1), *beat_r)

            return self.choose_head_to_head(head_on)
        movers_out = [v for v in occ if v in enc.moves]
        all_leave = AND(*(self.move_succeeds(v) for v in movers_out)) if len(movers_out) == len(occ) else FALSE
        left = AND(all_leave, self._ge(full, [], 1), *(self.beats(enc, full, r) for r in rivals))
        stays = AND(NOT(all_leave), self._ge(restricted, self.defence_terms(enc, p), 1), *beat_r)
        return OR(left, stays)

    # supports: one decision per supporting unit ("slot"), the last-written cut first -------
    def _plan_support_slots(self, enc: Encoding) -> None:
        """Name one decision per supporting unit and rank them per province, last-written first
        (units of one order are cut together, in the order of the orders)."""
        pos = enc.bound.position
        by_prov: dict[str, list[int]] = defaultdict(list)
        for s, o in sorted(enc.bound.orders.items()):
            if isinstance(o.body, Support) and enc.matched.get(s):
                by_prov[pos.units[s].province].append(s)
        for prov, sups in sorted(by_prov.items()):
            rank = 0
            for s in reversed(sups):  # split units keep the written order of their orders
                slots = []
                for j in range(pos.units[s].count):
                    rank += 1
                    slots.append((Key("support", s, j + 1), rank))
                enc.slots[s] = slots

    def cuts(self, enc: Encoding) -> list[tuple[Key, Definition]]:
        """One decision per supporting unit, cut in cutting order (rule 7): per province, the
        slots ranked last-written first, each cut by the attacks' weight (:func:`slot_cut`),
        all cut by displacement."""
        pos = enc.bound.position
        out: list[tuple[Key, Definition]] = []
        by_prov: dict[str, list[int]] = defaultdict(list)
        for s in sorted(enc.slots):
            by_prov[pos.units[s].province].append(s)
        for prov, sups in sorted(by_prov.items()):
            # the slots of the province in cutting order (rank 1 = last-written), with their aims
            ranked = sorted(((rank, name, self._aim(enc, s)) for s in sups for name, rank in enc.slots[s]), key=lambda t: t[0])
            # the options that decide how attacks cut are declared through the readings hooks
            convoyed = any(enc.route.get(m) == "convoy" for (_, p), ms in enc.forces.items() if p == prov for m in ms)
            readings: dict[tuple[bool, bool], list[CutTerms]] = {}

            def groups(by_strength: bool, target_cuts: bool, prov: str = prov) -> list[CutTerms]:
                key = (by_strength, target_cuts)
                if key not in readings:
                    readings[key] = self.cutting_groups(enc, prov, by_strength, target_cuts)
                return readings[key]

            for j, (rank, name, aim) in enumerate(ranked, start=1):
                before = [a for _, _, a in ranked[: j - 1]]

                def cut(by_strength: bool, j: int = j, aim: Optional[str] = aim, before: list[Optional[str]] = before,
                        groups: Callable[[bool, bool], list[CutTerms]] = groups, convoyed: bool = convoyed) -> Formula:
                    def under(target_cuts: bool) -> Formula:
                        return OR(*(slot_cut(group, j, aim, before) for group in groups(by_strength, target_cuts)))

                    if not convoyed:  # no convoyed attack: whether one from the target cuts never matters
                        return under(False)
                    return self.rules.choose("convoyed_attack_from_target_cuts", under)

                out.append((name, AND(NOT(self.choose_cut_reading(cut)), NOT(self.displaced(enc, prov)))))
        return out

    def choose_cut_reading(self, build: Callable[[bool], Formula]) -> Formula:
        """``build(cuts_by_strength)``: a variant whose rule option decides how attacks cut
        declares it here through :meth:`RuleOptions.choose`, so that one model of every reading
        (``dipsat readings``) holds each value's formula under its literal."""
        return build(self.cuts_by_strength())

    def choose_head_to_head(self, build: Callable[[bool], Formula]) -> Formula:
        """``build(head_to_head_combined)``, declared as :meth:`choose_cut_reading` is."""
        return build(self.head_to_head_combined())

    @staticmethod
    def _aim(enc: Encoding, s: int) -> Optional[str]:
        """The province a support is aimed at (a supported move's destination; None for a hold)."""
        body = enc.bound.orders[s].body
        return body.dest if isinstance(body, Support) else None

    def cutting_groups(self, enc: Encoding, prov: str, by_strength: Optional[bool] = None,
                       target_cuts: Optional[bool] = None) -> list["CutTerms"]:
        """The attacks on ``prov`` that cut its supports, as groups whose weights cut together:
        by default one group of every attacking unit (attacks of different nations add up);
        when :meth:`cuts_by_strength`, one group per nation: its moving units
        and the supports for its attack (attacks of different nations overlap).  Each term
        carries the province it comes from when it cannot cut supports aimed there."""
        pos = enc.bound.position
        if by_strength is None:
            by_strength = self.cuts_by_strength()
        owner = pos.units[enc.occupants[prov][0]].power if enc.occupants.get(prov) else None
        by_nation: dict[str, CutTerms] = {}
        for (nation, p), members in sorted(enc.forces.items()):
            if p != prov or nation == owner:
                continue
            terms: CutTerms = []
            for m in members:
                land = enc.route[m] == "land" or not (self.rules.convoyed_attack_from_target_cuts
                                                      if target_cuts is None else target_cuts)
                key = pos.units[m].province if land else None
                terms.append((key, pos.units[m].count, self.path_open(enc, m)))
            if by_strength:
                keys = {k for k, _, _ in terms}
                key = next(iter(keys)) if len(keys) == 1 else None
                terms += [(key, 1, VAR(n)) for sup in enc.supports_of_force.get((nation, p), [])
                          for n, _ in enc.slots.get(sup, [])]
            by_nation[nation] = terms
        if by_strength:
            return list(by_nation.values())
        return [[t for terms in by_nation.values() for t in terms]]

    # convoys: a fleet carries one army; the armies of one convoy get through while the
    # fleets that are not displaced can carry them (max flow = min cut), first-written first
    def path_formula(self, enc: Encoding, u: int) -> Formula:
        from itertools import combinations

        pos = enc.bound.position
        routes = enc.routes[u]
        if not routes:
            return FALSE
        fleets = sorted({f for r in routes for f in r})
        if len(fleets) > 12:  # too many to enumerate cuts: any intact route will do
            return OR(*(AND(*(self.convoy_given(enc, f) for f in r)) for r in routes))
        sets = [set(r) for r in routes]
        cuts: list[tuple[int, ...]] = []
        for n in range(1, len(fleets) + 1):
            for combo in combinations(fleets, n):
                cs = set(combo)
                if all(cs & r for r in sets) and not any(set(c) <= cs for c in cuts):
                    cuts.append(combo)
        origin, d = pos.units[u].province, enc.dest[u]
        same = [a for a in sorted(enc.moves) if enc.route[a] == "convoy" and enc.dest[a] == d
                and pos.units[a].province == origin]
        need = sum(pos.units[a].count for a in same[: same.index(u) + 1])
        return AND(*(GE([(pos.units[f].count, self.convoy_given(enc, f)) for f in cut], need) for cut in cuts))

    # backup rules: forces count as moves ----------------------------------------------------
    def backup(self, members: tuple[Key, ...], defs: dict[Key, Definition], count: int) -> Optional[tuple[str, str, dict[Key, Definition]]]:
        kinds = {n.kind for n in members}
        if kinds <= {"move", "force"}:
            return ("circular_movement", "circular movement: all moves succeed", {n: TRUE for n in members if n.kind == "force"} | {
                n: defs[n] for n in members if n.kind == "move"})
        return forces_fail_with_moves(super().backup(members, defs, count), members, defs)

    # -- the explanation hooks ---------------------------------------------------------------
    def dislodgers(self, r: SolvedTurn[Encoding]) -> dict[int, int]:
        """A unit that stays is displaced by a foreign force that gets in (by a member that moved)."""
        pos = r.enc.bound.position
        out: dict[int, int] = {}
        for u in range(len(pos.units)):
            if u in r.moved:
                continue
            prov = pos.units[u].province
            for k, members in r.enc.forces.items():
                if k[1] == prov and k[0] != pos.units[u].power and r.values[_fname(members[0])]:
                    out[u] = next((m for m in members if m in r.moved), members[0])
        return out

    def move_outcome(self, r: SolvedTurn[Encoding], u: int) -> Outcome:
        """A member of a force: the force's attack against the defence, a head-to-head force and
        every other nation's force into the province."""
        enc, b = r.enc, r.enc.bound
        pos = b.position
        common = r.common(u)
        k = enc.force_of[u]
        owner_units = enc.occupants.get(k[1], [])
        owner = pos.units[owner_units[0]].power if owner_units else None
        restricted = owner if owner and owner != k[0] and not all(v in r.moved for v in owner_units) else None
        att = r.strength("attack", f"{k[0]} into {k[1]}", self.force_terms(enc, k, restricted))
        if u in r.moved:
            return Moved.build(order_kind="move", strengths=(att,), **common)
        if not r.val(self.path_open(enc, u)):
            fleets = enc.convoyers.get(u, [])
            return NoPath.build(order_kind="move", by=tuple(order_ref(b.orders[f]) for f in fleets),
                                broken=tuple(order_ref(b.orders[f]) for f in fleets if not r.val(self.convoy_given(enc, f))), **common)
        obstacles: list[Obstacle] = []
        culprits: list[OrderRef] = []
        strengths = [att]
        combined = k in enc.force_h2h and self.head_to_head_combined()
        if combined:
            ds = r.strength("force", f"{enc.force_h2h[k][0][0]} and the units staying in {k[1]}",
                            self.head_to_head_terms(enc, k))
            strengths.append(ds)
            if ds.value >= att.value:
                obstacles.append(Obstacle.build(why="head_to_head", by=order_ref(b.orders[owner_units[0]]), strength=ds))
                culprits.extend(order_ref(b.orders[v]) for v in owner_units)
        elif owner and owner != k[0] and restricted:
            d = r.strength("defence", k[1], self.defence_terms(enc, k[1], tuple(enc.force_h2h.get(k, (None, []))[1])))
            strengths.append(d)
            if d.value >= att.value:
                obstacles.append(Obstacle.build(why="hold", by=order_ref(b.orders[owner_units[0]]), strength=d))
                culprits.extend(order_ref(b.orders[v]) for v in owner_units)
        if k in enc.force_h2h and not combined:
            opp = enc.force_h2h[k][0]
            ds = r.strength("force", f"{opp[0]} into {opp[1]}", self.force_terms(enc, opp))
            if ds.value >= att.value:
                strengths.append(ds)
                obstacles.append(Obstacle.build(why="head_to_head", by=order_ref(b.orders[enc.forces[opp][0]]), strength=ds))
        for rival in enc.forces:
            if rival[1] == k[1] and rival != k and not r.val(self.prevent_zero_force(enc, rival)):
                ps = r.strength("prevent", f"{rival[0]} into {rival[1]}", self.force_terms(enc, rival))
                if ps.value >= att.value:
                    strengths.append(ps)
                    culprits.extend(order_ref(b.orders[m]) for m in enc.forces[rival])
                    obstacles.append(Obstacle.build(why="prevent", by=order_ref(b.orders[enc.forces[rival][0]]),
                                                    label=rival[0], strength=ps))
        return Bounced.build(order_kind="move", by=tuple(culprits), obstacles=tuple(obstacles),
                             strengths=tuple(strengths), **common)

    def support_outcome(self, r: SolvedTurn[Encoding], u: int) -> Outcome:
        """Given by all its units, by some (partly cut: the seed's published split), or none."""
        enc, b = r.enc, r.enc.bound
        o = b.orders[u]
        common = r.common(u)
        dis_ref = common["dislodged_by"]
        if not enc.matched.get(u):
            return Void.build(order_kind="support", several=True, **common)
        slots = enc.slots[u]
        given = sum(1 for name, _ in slots if r.values[name])
        n = len(slots)
        if given == n:
            return Given.build(order_kind="support", units=n, **common)
        if given == 0:
            return Cut.build(order_kind="support", by=(dis_ref,) if dis_ref else _attackers(self, enc, r.val, u), **common)
        return Partial.build(order_kind="support", kept=given, total=n,
                             published=published_split(o.text, given, n - given), **common)

    def convoy_outcome(self, r: SolvedTurn[Encoding], u: int) -> Outcome:
        enc, b = r.enc, r.enc.bound
        common = r.common(u)
        dis_ref = common["dislodged_by"]
        if not enc.matched.get(u):
            return Void.build(order_kind="convoy", several=True, **common)
        carried = [a for a in sorted(enc.routes) if u in enc.convoyers.get(a, [])]
        if r.values[_name("C", u)] and not any(r.values.get(_name("P", a), True) for a in carried):
            # the fleet stayed, but no army it convoys had a path: nothing was carried
            return Disrupted.build(order_kind="convoy", cause="no_path", by=tuple(order_ref(b.orders[a]) for a in carried[:1]),
                                   **common)
        if r.values[_name("C", u)]:
            return Convoyed.build(order_kind="convoy", **common)
        return Disrupted.build(order_kind="convoy", cause="dislodged", term="displaced", by=(dis_ref,) if dis_ref else (),
                               **common)

    def hold_outcome(self, r: SolvedTurn[Encoding], u: int) -> Outcome:
        common = r.common(u)
        dis_ref = common["dislodged_by"]
        if dis_ref is not None:
            return Dislodged.build(order_kind="hold", term="displaced", by=(dis_ref,), **common)
        return Held.build(order_kind="hold", **common)

    def contested(self, r: SolvedTurn[Encoding], occupied_after: set[str]) -> list[str]:
        """Provinces no force entered where some force kept its strength and had a path."""
        return sorted({p for (n, p), members in r.enc.forces.items()
                       if p not in occupied_after and not any(x in r.moved for x in members)
                       and not r.val(self.prevent_zero_force(r.enc, (n, p))) and any(r.val(self.path_open(r.enc, m)) for m in members)})


def _attackers(impl: StackMovementRules, enc: Encoding, val: Callable[[Formula], bool], s: int) -> tuple[OrderRef, ...]:
    """The foreign moves into a supporter's province that reached it (the cutting attacks)."""
    pos = enc.bound.position
    prov, mine = pos.units[s].province, pos.units[s].power
    return tuple(order_ref(enc.bound.orders[m]) for (nation, p), members in sorted(enc.forces.items())
                 if p == prov and nation != mine for m in members if val(impl.path_open(enc, m)))


def published_split(text: str, given: int, cut: int) -> str:
    """'3 F Nth sup F Lon' with 2 given, 1 cut -> '2 F Nth sup F Lon; 1 F Nth sups F Lon' (rule 5.ii)."""
    import re

    m = re.match(r"^\s*(\d+)\s+(.*)$", text)
    body = m.group(2) if m else text
    cut_body = re.sub(r"\bsup\b", "sups", body, count=1) if re.search(r"\bsup\b", body) else body
    return f"{given} {body}; {cut} {cut_body}"
