"""A round's resolution as equations over integer unit counts, written once and read two ways.

The unknowns are ``sent[o]``: how many units each order really sends.  Everything else —
units arriving after a sea crossing, the force of each side in each country, whether a battle
happens, each side's and each contributor's losses, the units an attacked country has left to
act with, the room left in a destination — is defined from them by exact equations (sums,
``min``, ``max``, if-then-else, the round-robin loss split), and every ``sent[o]`` is in turn
defined by its order's own equation.  A consistent resolution is an assignment where every
order's equation holds.

:class:`CpOps` turns the equations into a CP-SAT model (one IntVar or BoolVar per quantity,
each fixed by an exact constraint, so the only freedom is in ``sent`` and a cyclic round can
have several solutions); :class:`EvalOps` evaluates them in plain Python for a given ``sent``,
which checks every answer CP-SAT returns and computes the numbers the explanations show.

The rules (the seed's words in quotes; options in :mod:`.rules`):

* *Primary force* of a player in a country: the units they move in (after sea losses) plus, for
  the holder, the units defending it — all its units ("must first defend its own soil with any
  units on it", ``defend_first = all_units``) or those not sent away (``ordered_leave``).
* A *battle* happens in a country where two or more players have a primary force ("two or more
  players move into the same empty country, a battle ensues").  Supports join a battle on the
  side of their beneficiary (the ally attacking, or the holder defended) when that side has a
  primary force; otherwise their units stay home.
* Each side loses the second-largest force (or all it has); the largest keeps the excess ("all
  parties" lose "equal number", "the player with the highest number of units ... retains the
  excess"); equal forces annihilate each other.
* Within a side, losses go round-robin: the side's own units first, then each supporter in turn
  ("the attacker's first unit is lost first, then a supporter's unit, then the attacker's").
* An attacked country's orders use the units that survive its defence; a country not attacked
  acts with all its units; orders from one country share them in list order ("the order higher
  up on player's list is prioritized"); asking for more than is there sends what is there.
* A move may bring into a country no more units than there is room for — capacity minus the
  player's units staying there and minus what the player's earlier orders bring — "only the
  extra units who will crowd the destination have to stay behind"; a crossing by sea loses one
  unit ("five units ... equals four arrive").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from dipsat.errors import SolverError

if TYPE_CHECKING:  # OR-Tools is imported when a round is solved, not when dipsat starts
    from ortools.sat.python import cp_model

# A number and a truth value of the equations: an int/bool in EvalOps, a CP-SAT variable or
# literal in CpOps.  The equations are written once against the Ops interface below.
Num = Any
Flag = Any


class Ops:
    def c(self, n: int) -> Num:
        raise NotImplementedError

    def add(self, xs: Sequence[Num]) -> Num:
        raise NotImplementedError

    def sub(self, a: Num, b: Num) -> Num:
        raise NotImplementedError

    def min_(self, xs: Sequence[Num]) -> Num:
        raise NotImplementedError

    def max_(self, xs: Sequence[Num]) -> Num:
        raise NotImplementedError

    def pos(self, x: Num) -> Flag:
        """x >= 1"""
        raise NotImplementedError

    def at_least(self, flags: Sequence[Flag], k: int) -> Flag:
        raise NotImplementedError

    def all_(self, flags: Sequence[Flag]) -> Flag:
        raise NotImplementedError

    def false(self) -> Flag:
        raise NotImplementedError

    def ite(self, f: Flag, a: Num, b: Num) -> Num:
        raise NotImplementedError

    def round_robin(self, total: Num, caps: Sequence[Num]) -> list[Num]:
        """Split ``total`` losses over contributors with ``caps`` units, one at a time in turn
        (first, second, ..., first, ...), skipping those with none left."""
        raise NotImplementedError

    def define(self, key: int, value: Num, formula: Num) -> None:
        """The order equation ``sent[key] = formula``."""
        raise NotImplementedError


class EvalOps(Ops):
    """Plain-Python evaluation; ``define`` records every order whose equation does not hold."""

    def __init__(self) -> None:
        self.violations: list[tuple[int, int, int]] = []  # (order, sent, formula)

    def c(self, n: int) -> int:
        return n

    def add(self, xs: Sequence[int]) -> int:
        return sum(xs)

    def sub(self, a: int, b: int) -> int:
        return a - b

    def min_(self, xs: Sequence[int]) -> int:
        return min(xs)

    def max_(self, xs: Sequence[int]) -> int:
        return max(xs)

    def pos(self, x: int) -> bool:
        return x >= 1

    def at_least(self, flags: Sequence[bool], k: int) -> bool:
        return sum(flags) >= k

    def all_(self, flags: Sequence[bool]) -> bool:
        return all(flags)

    def false(self) -> bool:
        return False

    def ite(self, f: bool, a: int, b: int) -> int:
        return a if f else b

    def round_robin(self, total: int, caps: Sequence[int]) -> list[int]:
        out = [0] * len(caps)
        left = total
        while left > 0 and any(out[i] < caps[i] for i in range(len(caps))):
            for i in range(len(caps)):
                if left > 0 and out[i] < caps[i]:
                    out[i] += 1
                    left -= 1
        return out

    def define(self, key: int, value: int, formula: int) -> None:
        if value != formula:
            self.violations.append((key, value, formula))


class CpOps(Ops):
    """Each operation adds one variable fixed by an exact constraint (two-sided reification for
    every literal), so that the model's solutions are exactly the consistent resolutions."""

    def __init__(self, model: "cp_model.CpModel", bound: int) -> None:
        self.m = model
        self.bound = bound
        self.n = 0

    def _var(self, lo: int | None = None, hi: int | None = None) -> "cp_model.IntVar":
        self.n += 1
        return self.m.new_int_var(-self.bound if lo is None else lo, self.bound if hi is None else hi, f"v{self.n}")

    def _bool(self) -> "cp_model.IntVar":
        self.n += 1
        return self.m.new_bool_var(f"b{self.n}")

    def c(self, n: int) -> Num:
        return self.m.new_constant(n)

    def add(self, xs: Sequence[Num]) -> Num:
        v = self._var()
        self.m.add(v == sum(xs))
        return v

    def sub(self, a: Num, b: Num) -> Num:
        v = self._var()
        self.m.add(v == a - b)
        return v

    def min_(self, xs: Sequence[Num]) -> Num:
        v = self._var()
        self.m.add_min_equality(v, list(xs))
        return v

    def max_(self, xs: Sequence[Num]) -> Num:
        v = self._var()
        self.m.add_max_equality(v, list(xs))
        return v

    def pos(self, x: Num) -> Flag:
        b = self._bool()
        self.m.add(x >= 1).only_enforce_if(b)
        self.m.add(x <= 0).only_enforce_if(~b)
        return b

    def at_least(self, flags: Sequence[Flag], k: int) -> Flag:
        b = self._bool()
        self.m.add(sum(flags) >= k).only_enforce_if(b)
        self.m.add(sum(flags) <= k - 1).only_enforce_if(~b)
        return b

    def all_(self, flags: Sequence[Flag]) -> Flag:
        b = self._bool()
        self.m.add_min_equality(b, list(flags))
        return b

    def false(self) -> Flag:
        return self.m.new_constant(0)

    def ite(self, f: Flag, a: Num, b: Num) -> Num:
        v = self._var()
        self.m.add(v == a).only_enforce_if(f)
        self.m.add(v == b).only_enforce_if(~f)
        return v

    def round_robin(self, total: Num, caps: Sequence[Num]) -> list[Num]:
        # losses l_i with sum = total, 0 <= l_i <= cap_i, and for i before j: while i has units
        # left, j has lost no more than i; while j has units left, i has lost at most one more.
        ls = [self._var(0, self.bound) for _ in caps]
        self.m.add(sum(ls) == total)
        left = []
        for l, cap in zip(ls, caps):
            self.m.add(l <= cap)
            b = self._bool()  # b <=> l < cap
            self.m.add(l <= cap - 1).only_enforce_if(b)
            self.m.add(l >= cap).only_enforce_if(~b)
            left.append(b)
        for i in range(len(ls)):
            for j in range(i + 1, len(ls)):
                self.m.add(ls[j] <= ls[i]).only_enforce_if(left[i])
                self.m.add(ls[i] <= ls[j] + 1).only_enforce_if(left[j])
        return ls

    def define(self, key: int, value: Num, formula: Num) -> None:
        self.m.add(value == formula)


@dataclass(frozen=True)
class Act:
    """An order that takes part in the resolution (legal, within the allowance, not in
    conflict).  ``kind`` is ``move`` (attack or move) or ``support`` (attack or defence)."""

    key: int
    player: str
    rank: int  # position in the player's list, 0 = first
    text: str
    kind: str
    origin: str
    target: str
    count: int
    sea: int  # units lost on the way (1 for a sea crossing, 0 over land)
    beneficiary: str  # the side it fights on
    by_land: bool


@dataclass
class Setting:
    """What the equations need to know: capacities, holdings at the start, the acts, options."""

    capacity: dict[str, int]
    owner: dict[str, str]
    units: dict[str, int]
    acts: list[Act]
    defend_first: str = "all_units"
    reinforcement_losses: str = "home_first"
    land_only_support: frozenset[str] = frozenset()  # free cities whose defence support needs a land attack
    attack_room: str = "arrivals"  # "survivors": an attack on another player's country is not limited by room

    @property
    def bound(self) -> int:
        return 2 * (sum(self.units.values()) + 1) + max(self.capacity.values(), default=0)


@dataclass
class Quantities:
    """Every named quantity of the equations (Num values), for explanations and checks."""

    arrive: dict[int, Num] = field(default_factory=dict)
    primary: dict[tuple[str, str], Num] = field(default_factory=dict)  # (node, player)
    force: dict[tuple[str, str], Num] = field(default_factory=dict)
    battle: dict[str, Flag] = field(default_factory=dict)
    second: dict[str, Num] = field(default_factory=dict)  # the second-largest force
    loss: dict[tuple[str, str], Num] = field(default_factory=dict)  # a side's loss
    main_loss: dict[tuple[str, str], Num] = field(default_factory=dict)
    support_loss: dict[int, Num] = field(default_factory=dict)
    home_def: dict[str, Num] = field(default_factory=dict)
    home_loss: dict[str, Num] = field(default_factory=dict)
    avail: dict[str, Num] = field(default_factory=dict)
    engaged: dict[int, Flag] = field(default_factory=dict)
    room: dict[int, Num] = field(default_factory=dict)
    remaining: dict[int, Num] = field(default_factory=dict)
    sides: dict[str, list[str]] = field(default_factory=dict)


def equations(s: Setting, ops: Ops, sent: dict[int, Num]) -> Quantities:
    """State the round's equations over ``sent``; return the defined quantities."""
    q = Quantities()
    acts = s.acts
    moves_into: dict[str, list[Act]] = {}
    supports_at: dict[str, list[Act]] = {}
    from_node: dict[str, list[Act]] = {}
    for a in acts:
        (moves_into if a.kind == "move" else supports_at).setdefault(a.target, []).append(a)
        from_node.setdefault(a.origin, []).append(a)
        q.arrive[a.key] = ops.max_([ops.sub(sent[a.key], ops.c(a.sea)), ops.c(0)]) if a.sea else sent[a.key]

    def total(xs: list[Num]) -> Num:
        return ops.add(xs) if xs else ops.c(0)

    out_all = {x: total([sent[a.key] for a in lst]) for x, lst in from_node.items()}
    out_moves = {x: total([sent[a.key] for a in lst if a.kind == "move"]) for x, lst in from_node.items()}

    nodes = sorted(set(s.owner) | set(moves_into) | set(supports_at) | set(from_node))
    for y in nodes:
        owner = s.owner.get(y)
        home = s.units.get(y, 0)
        movers = sorted({a.player for a in moves_into.get(y, [])})
        sides = sorted(set(movers) | ({owner} if owner else set()))
        q.sides[y] = sides
        if owner:
            q.home_def[y] = (ops.c(home) if s.defend_first == "all_units"
                             else ops.sub(ops.c(home), out_all.get(y, ops.c(0))))
        for p in sides:
            parts = [q.arrive[a.key] for a in moves_into.get(y, []) if a.player == p]
            if p == owner:
                parts.append(q.home_def[y])
            q.primary[y, p] = total(parts)
        battle = ops.at_least([ops.pos(q.primary[y, p]) for p in sides], 2) if len(sides) >= 2 else ops.false()
        q.battle[y] = battle
        for a in supports_at.get(y, []):
            if a.beneficiary in sides:
                conds = [battle, ops.pos(q.primary[y, a.beneficiary])]
                if y in s.land_only_support and a.beneficiary == owner:
                    conds.append(ops.pos(total([q.arrive[b.key] for b in moves_into.get(y, [])
                                                 if b.player != owner and b.by_land])))
                q.engaged[a.key] = ops.all_(conds)
            else:
                q.engaged[a.key] = ops.false()
        if len(sides) < 2:
            for p in sides:
                q.loss[y, p] = q.main_loss[y, p] = ops.c(0)
            for a in supports_at.get(y, []):
                q.support_loss[a.key] = ops.c(0)
            if owner:
                q.home_loss[y] = ops.c(0)
            continue
        sups = {p: sorted((a for a in supports_at.get(y, []) if a.beneficiary == p), key=lambda a: (a.player, a.rank))
                for p in sides}
        for p in sides:
            q.force[y, p] = total([q.primary[y, p]] + [q.arrive[a.key] for a in sups[p]])
        others = [ops.min_([q.force[y, p], ops.max_([q.force[y, t] for t in sides if t != p])]) for p in sides]
        q.second[y] = ops.max_(others)
        for p in sides:
            q.loss[y, p] = ops.ite(battle, ops.min_([q.force[y, p], q.second[y]]), ops.c(0))
            if sups[p]:
                split = ops.round_robin(q.loss[y, p], [q.primary[y, p]] + [q.arrive[a.key] for a in sups[p]])
                q.main_loss[y, p] = split[0]
                for a, l in zip(sups[p], split[1:]):
                    q.support_loss[a.key] = l
            else:
                q.main_loss[y, p] = q.loss[y, p]
        for a in supports_at.get(y, []):
            q.support_loss.setdefault(a.key, ops.c(0))
        if owner:
            own_arrivals = total([q.arrive[a.key] for a in moves_into.get(y, []) if a.player == owner])
            ml = q.main_loss[y, owner]
            if s.reinforcement_losses == "home_first":
                q.home_loss[y] = ops.min_([q.home_def[y], ml])
            else:
                q.home_loss[y] = ops.sub(ml, ops.min_([own_arrivals, ml]))

    # units each country may act with
    for x in from_node:
        home = s.units.get(x, 0)
        if s.defend_first == "all_units" and x in s.owner and len(q.sides.get(x, [])) >= 2:
            q.avail[x] = ops.ite(q.battle[x], ops.sub(q.home_def[x], q.home_loss[x]), ops.c(home))
        else:
            q.avail[x] = ops.c(home)

    # the order equations
    earlier_into: dict[tuple[str, str], list[Act]] = {}
    for a in sorted(acts, key=lambda a: (a.player, a.rank)):
        if a.kind == "move":
            earlier_into.setdefault((a.target, a.player), []).append(a)
    for x, lst in sorted(from_node.items()):
        used: list[Num] = []
        for a in sorted(lst, key=lambda a: a.rank):
            q.remaining[a.key] = ops.sub(q.avail[x], total(used))
            limits = [ops.c(a.count), q.remaining[a.key]]
            unlimited = (s.attack_room == "survivors" and s.owner.get(a.target) not in (None, a.player))
            if a.kind == "move" and not unlimited:
                stay = (ops.sub(ops.c(s.units.get(a.target, 0)), out_moves.get(a.target, ops.c(0)))
                        if s.owner.get(a.target) == a.player else ops.c(0))
                before = [q.arrive[b.key] for b in earlier_into[a.target, a.player] if b.rank < a.rank]
                room = ops.sub(ops.sub(ops.c(s.capacity[a.target]), stay), total(before))
                q.room[a.key] = room
                limits.append(ops.ite(ops.pos(room), ops.add([room, ops.c(a.sea)]), ops.c(0)))
                formula = ops.min_(limits)
            elif a.kind == "move":
                formula = ops.min_(limits)
            else:
                formula = ops.ite(q.engaged[a.key], ops.min_(limits), ops.c(0))
            ops.define(a.key, sent[a.key], formula)
            used.append(sent[a.key])
    return q


def evaluate(s: Setting, sent: dict[int, int]) -> tuple[Quantities, list[tuple[int, int, int]]]:
    ops = EvalOps()
    q = equations(s, ops, sent)
    return q, ops.violations


@dataclass
class Readings:
    """The consistent resolutions CP-SAT found (each a ``sent`` vector), and whether the list
    is complete (fewer than the limit)."""

    found: list[dict[int, int]]
    complete: bool


def _model(s: Setting) -> tuple["cp_model.CpModel", dict[int, "cp_model.IntVar"]]:
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    bound = s.bound
    sent = {a.key: m.new_int_var(0, min(a.count, s.units.get(a.origin, 0)), f"sent_{a.key}") for a in s.acts}
    equations(s, CpOps(m, bound), sent)
    return m, sent


def _solver(presolve: bool = True) -> "cp_model.CpSolver":
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = 20.0
    if not presolve:
        solver.parameters.cp_model_presolve = False
    return solver


def _forbid(m: "cp_model.CpModel", sent: dict[int, "cp_model.IntVar"], found: dict[int, int]) -> None:
    diff: list["cp_model.IntVar"] = []
    for k, v in sorted(sent.items()):
        b = m.new_bool_var(f"diff_{k}_{len(diff)}")
        m.add(v != found[k]).only_enforce_if(b)
        diff.append(b)
    m.add_bool_or(diff)


def _verified(s: Setting, values: dict[int, int]) -> dict[int, int]:
    _, bad = evaluate(s, values)
    if bad:
        k, v, f = bad[0]
        raise SolverError(f"CP-SAT returned an inconsistent resolution (order {k}: sent {v}, its equation gives {f})")
    return values


def enumerate_readings(s: Setting, limit: int = 16, fixed: Sequence[tuple[list[int], int]] = ()) -> Readings:
    """Every consistent resolution (up to ``limit``), by solving, forbidding the solution found
    and solving again; each is checked against the plain-Python equations.  ``fixed``: extra
    constraints ``sum(sent of keys) == value`` (the lexicographic priority levels)."""
    if not s.acts:
        return Readings([{}], True)
    from ortools.sat.python import cp_model

    m, sent = _model(s)
    for keys, value in fixed:
        m.add(sum(sent[k] for k in keys) == value)
    found: list[dict[int, int]] = []
    while len(found) < limit:
        solver = _solver()
        status = solver.solve(m)
        if status == cp_model.INFEASIBLE:
            if not found and _solver(presolve=False).solve(m) != cp_model.INFEASIBLE:
                raise SolverError("CP-SAT presolve reported no resolution, but the model without presolve has one")
            return Readings(found, True)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise SolverError(f"CP-SAT could not solve the round: {solver.status_name(status)}")
        values = _verified(s, {k: solver.value(v) for k, v in sent.items()})
        found.append(values)
        _forbid(m, sent, values)
    return Readings(found, False)


def priority_levels(s: Setting, keep: Sequence[tuple[list[int], int]] = ()) -> list[tuple[list[int], int]]:
    """The lexicographic priority: maximise the units sent by everybody's first orders, then by
    their second orders, ...; returns the levels fixed one after another (CP-SAT objective)."""
    levels: list[tuple[list[int], int]] = list(keep)
    for rank in sorted({a.rank for a in s.acts}):
        keys = [a.key for a in s.acts if a.rank == rank]
        m, sent = _model(s)
        for ks, v in levels:
            m.add(sum(sent[k] for k in ks) == v)
        m.maximize(sum(sent[k] for k in keys))
        solver = _solver()
        status = solver.solve(m)
        if solver.status_name(status) != "OPTIMAL":
            raise SolverError(f"CP-SAT could not optimise the priority level {rank + 1}: {solver.status_name(status)}")
        levels.append((keys, int(round(solver.objective_value))))
    return levels
