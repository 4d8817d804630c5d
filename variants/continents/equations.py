"""A round's resolution as the engine's equations over integer unit counts (:mod:`dipsat.engine.equations`).

The unknowns are ``sent[o]``: how many units each order really sends.  Everything else —
units arriving after a sea crossing, the force of each side in each country, whether a battle
happens, each side's and each contributor's losses, the units an attacked country has left to
act with, the room left in a destination — is an integer (or boolean) decision of the engine,
defined from them by an exact equation (sums, ``min``, ``max``, if-then-else, the round-robin loss
split), and every ``sent[o]`` is in turn defined by its order's own equation.  A consistent
resolution is an assignment where every equation holds: a solution of the :class:`System`.

A round without a cycle (most) is evaluated directly, decision by decision
(:func:`dipsat.engine.equations.evaluate_acyclic`); otherwise the CP-SAT service enumerates its
solutions (every helper exactly defined, so each solution is one reading) and, for the
ambiguity rule's priority, maximises the units sent rank by rank in as few solves as it can
(:func:`dipsat.engine.cpsat.lexicographic_max`).  Every answer is evaluated again in plain Python from
the same equations (:func:`evaluate`), which also gives the numbers the explanations show.

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
* Within a side, losses go round-robin: the side's own units first, then a supporter
  ("the attacker's first unit is lost first, then a supporter's unit, then the attacker's");
  with several supporters the attacker alternates with them (option supporter_losses
  "alternate") or each supporter takes a turn before the attacker's next ("in_turn");
  supporters in the order of the countries they support from.
* An attacked country's orders use the units that survive its defence; a country not attacked
  acts with all its units; orders from one country share them in list order ("the order higher
  up on player's list is prioritized"); asking for more than is there sends what is there.
* A move may bring into a country no more units than there is room for — capacity minus the
  player's units staying there and minus what the player's earlier orders bring — "only the
  extra units who will crowd the destination have to stay behind"; a crossing by sea loses one
  unit ("five units ... equals four arrive").
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Sequence

from dipsat.engine.equations import System, evaluate_acyclic
from dipsat.engine.formulas import (AND, GE, IF, INT, MAX, MIN, SUM, VAR, Definition, Formula, IntExpr, IntVar, Key, Value, Var,
                             evaluate as truth, is_formula, value_of)
from dipsat.errors import SolverError
from dipsat.records import dataclass


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
    supporter_losses: str = "alternate"  # "in_turn": the attacker, every supporter once, the attacker again

    def sent_domain(self, a: Act) -> tuple[int, int]:
        return 0, min(a.count, self.units.get(a.origin, 0))


# A quantity of the equations: while the equations are stated, an engine expression (IntExpr or
# Formula); in an evaluated Quantities, its int or bool value.
Num = Any
Flag = Any


@dataclass
class Quantities:
    """Every named quantity of the equations, for explanations and checks."""

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

    def valued(self, values: dict[Key, Value]) -> "Quantities":
        """The same quantities, each replaced by its value under ``values``."""
        out = Quantities(sides=self.sides)
        for name in ("arrive", "primary", "force", "second", "loss", "main_loss", "support_loss", "home_def",
                     "home_loss", "avail", "room", "remaining"):
            getattr(out, name).update((k, value_of(e, values)) for k, e in getattr(self, name).items())
        for name in ("battle", "engaged"):
            getattr(out, name).update((k, truth(f, values)) for k, f in getattr(self, name).items())
        return out


ROUND_TIME_LIMIT = 20.0  # seconds for one solve of a round (a larger map is an error, not a hang)


def sent_key(key: int) -> Key:
    return Key("sent", key)


class _Equations:
    """States the equations into a :class:`System`: one decision per named quantity (its key:
    the quantity's kind, the act or node number, the player number), built after the decisions
    it refers to, so the order of definition is an order of evaluation once ``sent`` is known."""

    def __init__(self, s: Setting):
        self.system = System()
        self.nodes: dict[str, int] = {}
        self.players: dict[str, int] = {}
        for a in s.acts:
            self.system.domains[sent_key(a.key)] = s.sent_domain(a)

    def _key(self, kind: str, node: str | int, player: str = "") -> Key:
        unit = node if isinstance(node, int) else self.nodes.setdefault(node, len(self.nodes))
        part = self.players.setdefault(player, len(self.players)) if player else 0
        return Key(kind, unit, part)

    def num(self, kind: str, node: str | int, e: IntExpr, player: str = "") -> IntExpr:
        if isinstance(e, (int, IntVar)):
            return e
        k = self._key(kind, node, player)
        self.system.define_int(k, kind, e)
        return INT(k)

    def flag(self, kind: str, node: str | int, f: Formula, player: str = "") -> Formula:
        if f is True or f is False or isinstance(f, Var):
            return f
        k = self._key(kind, node, player)
        self.system.define(k, kind, f)
        return VAR(k)

    def bound(self, e: IntExpr) -> int:
        from dipsat.engine.formulas import bounds_of

        return bounds_of(e, self.system.domains)[1]


def _total(xs: Sequence[IntExpr]) -> IntExpr:
    return SUM([(1, x) for x in xs])


def _pos(x: IntExpr) -> Formula:
    return GE([(1, x)], 1)


def round_robin(eq: _Equations, node: str, player: str, total: IntExpr, caps: Sequence[IntExpr]) -> list[IntExpr]:
    """Split ``total`` losses over contributors with ``caps`` units, one at a time in turn (first,
    second, ..., first, ...), skipping those with none left: contributor ``i`` loses its ``k``-th
    unit exactly when it has ``k`` units and ``total`` exceeds the losses before it (every
    contributor's first ``k - 1``, and the ``k``-th of those listed before ``i``)."""
    top = max((eq.bound(c) for c in caps), default=0)
    out: list[IntExpr] = []
    for i, c in enumerate(caps):
        parts: list[tuple[int, Formula]] = []
        for k in range(1, top + 1):
            before: list[tuple[int, Any]] = [(1, total)]
            if k > 1:
                before += [(-1, MIN(d, k - 1)) for d in caps]
            before += [(-1, GE([(1, d)], k)) for d in caps[:i]]
            parts.append((1, AND(GE([(1, c)], k), GE(before, 1))))
        out.append(eq.num("rr_loss", node, SUM(parts), f"{player}#{i}"))
    return out


def equations(s: Setting) -> tuple[System, Quantities]:
    """State the round's equations: the system (``sent`` decisions and every quantity) and the
    named quantities as expressions over it."""
    eq = _Equations(s)
    q = Quantities()
    acts = s.acts
    sent = {a.key: INT(sent_key(a.key)) for a in acts}
    moves_into: dict[str, list[Act]] = {}
    supports_at: dict[str, list[Act]] = {}
    from_node: dict[str, list[Act]] = {}
    for a in acts:
        (moves_into if a.kind == "move" else supports_at).setdefault(a.target, []).append(a)
        from_node.setdefault(a.origin, []).append(a)
        q.arrive[a.key] = eq.num("arrive", a.key, MAX(SUM([(1, sent[a.key])], -a.sea), 0)) if a.sea else sent[a.key]

    out_all = {x: eq.num("out_all", x, _total([sent[a.key] for a in lst])) for x, lst in from_node.items()}
    out_moves = {x: eq.num("out_moves", x, _total([sent[a.key] for a in lst if a.kind == "move"]))
                 for x, lst in from_node.items()}

    nodes = sorted(set(s.owner) | set(moves_into) | set(supports_at) | set(from_node))
    for y in nodes:
        owner = s.owner.get(y)
        home = s.units.get(y, 0)
        movers = sorted({a.player for a in moves_into.get(y, [])})
        sides = sorted(set(movers) | ({owner} if owner else set()))
        q.sides[y] = sides
        if owner:
            q.home_def[y] = (home if s.defend_first == "all_units"
                             else eq.num("home_def", y, SUM([(-1, out_all.get(y, 0))], home)))
        for p in sides:
            parts = [q.arrive[a.key] for a in moves_into.get(y, []) if a.player == p]
            if p == owner:
                parts.append(q.home_def[y])
            q.primary[y, p] = eq.num("primary", y, _total(parts), p)
        battle = eq.flag("battle", y, GE([(1, _pos(q.primary[y, p])) for p in sides], 2)) if len(sides) >= 2 else False
        q.battle[y] = battle
        for a in supports_at.get(y, []):
            if a.beneficiary in sides:
                conds = [battle, _pos(q.primary[y, a.beneficiary])]
                if y in s.land_only_support and a.beneficiary == owner:
                    conds.append(_pos(_total([q.arrive[b.key] for b in moves_into.get(y, [])
                                              if b.player != owner and b.by_land])))
                q.engaged[a.key] = eq.flag("engaged", a.key, AND(*conds))
            else:
                q.engaged[a.key] = False
        if len(sides) < 2:
            for p in sides:
                q.loss[y, p] = q.main_loss[y, p] = 0
            for a in supports_at.get(y, []):
                q.support_loss[a.key] = 0
            if owner:
                q.home_loss[y] = 0
            continue
        # supporters take their turns by the country they support from (then their list rank),
        # never by the players' names
        sups = {p: sorted((a for a in supports_at.get(y, []) if a.beneficiary == p), key=lambda a: (a.origin, a.rank))
                for p in sides}
        for p in sides:
            q.force[y, p] = eq.num("force", y, _total([q.primary[y, p]] + [q.arrive[a.key] for a in sups[p]]), p)
        others = [MIN(q.force[y, p], MAX(*(q.force[y, t] for t in sides if t != p))) for p in sides]
        q.second[y] = eq.num("second", y, MAX(*others))
        for p in sides:
            q.loss[y, p] = eq.num("loss", y, IF(battle, MIN(q.force[y, p], q.second[y]), 0), p)
            if sups[p] and len(sups[p]) > 1 and s.supporter_losses == "alternate":
                # the attacker, a supporter, the attacker, the next supporter, ...: the attacker
                # alternates with the supporters as one, who share theirs in turn
                helped = [q.arrive[a.key] for a in sups[p]]
                together = eq.num("helped", y, _total(helped), p)
                main, rest = round_robin(eq, y, p, q.loss[y, p], [q.primary[y, p], together])
                q.main_loss[y, p] = main
                for a, l in zip(sups[p], round_robin(eq, y, f"{p}/supporters", rest, helped)):
                    q.support_loss[a.key] = l
            elif sups[p]:
                split = round_robin(eq, y, p, q.loss[y, p], [q.primary[y, p]] + [q.arrive[a.key] for a in sups[p]])
                q.main_loss[y, p] = split[0]
                for a, l in zip(sups[p], split[1:]):
                    q.support_loss[a.key] = l
            else:
                q.main_loss[y, p] = q.loss[y, p]
        for a in supports_at.get(y, []):
            q.support_loss.setdefault(a.key, 0)
        if owner:
            own_arrivals = _total([q.arrive[a.key] for a in moves_into.get(y, []) if a.player == owner])
            ml = q.main_loss[y, owner]
            if s.reinforcement_losses == "home_first":
                q.home_loss[y] = eq.num("home_loss", y, MIN(q.home_def[y], ml))
            else:
                q.home_loss[y] = eq.num("home_loss", y, SUM([(1, ml), (-1, MIN(own_arrivals, ml))]))

    # units each country may act with
    for x in from_node:
        home = s.units.get(x, 0)
        if s.defend_first == "all_units" and x in s.owner and len(q.sides.get(x, [])) >= 2:
            q.avail[x] = eq.num("avail", x, IF(q.battle[x], SUM([(1, q.home_def[x]), (-1, q.home_loss[x])]), home))
        else:
            q.avail[x] = home

    # the order equations
    earlier_into: dict[tuple[str, str], list[Act]] = {}
    for a in sorted(acts, key=lambda a: (a.player, a.rank)):
        if a.kind == "move":
            earlier_into.setdefault((a.target, a.player), []).append(a)
    for x, lst in sorted(from_node.items()):
        used: list[IntExpr] = []
        for a in sorted(lst, key=lambda a: a.rank):
            q.remaining[a.key] = eq.num("remaining", a.key, SUM([(1, q.avail[x])] + [(-1, u) for u in used]))
            limits: list[IntExpr] = [a.count, q.remaining[a.key]]
            unlimited = (s.attack_room == "survivors" and s.owner.get(a.target) not in (None, a.player))
            formula: IntExpr
            if a.kind == "move" and not unlimited:
                stay = (SUM([(-1, out_moves.get(a.target, 0))], s.units.get(a.target, 0))
                        if s.owner.get(a.target) == a.player else 0)
                before = [q.arrive[b.key] for b in earlier_into[a.target, a.player] if b.rank < a.rank]
                room = eq.num("room", a.key, SUM([(-1, stay)] + [(-1, b) for b in before], s.capacity[a.target]))
                q.room[a.key] = room
                limits.append(IF(_pos(room), SUM([(1, room)], a.sea), 0))
                formula = MIN(*limits)
            elif a.kind == "move":
                formula = MIN(*limits)
            else:
                formula = IF(q.engaged[a.key], MIN(*limits), 0)
            lo, hi = s.sent_domain(a)
            eq.system.define_int(sent_key(a.key), "sent", formula, lo, hi)
            used.append(sent[a.key])
    return eq.system, q


def evaluate(s: Setting, sent: dict[int, int]) -> tuple[Quantities, list[tuple[int, int, int]]]:
    """Every quantity's value for the given ``sent`` (plain Python), and every order whose
    equation does not hold: (order, sent, what its equation gives)."""
    system, q = equations(s)
    values: dict[Key, Value] = {sent_key(k): v for k, v in sent.items()}
    for k, d in system.defs.items():  # defined after what they refer to: one pass
        if k.kind != "sent":
            values[k] = _value(d, values)
    bad = []
    for a in s.acts:
        k = sent_key(a.key)
        f = value_of(system.defs[k], values)
        lo, hi = system.domains[k]
        if f != sent[a.key] or not lo <= f <= hi:
            bad.append((a.key, sent[a.key], f))
    return q.valued(values), bad


def _value(d: Definition, values: dict[Key, Value]) -> Value:
    return truth(d, values) if is_formula(d) else value_of(d, values)


@dataclass
class Readings:
    """The consistent resolutions found (each a ``sent`` vector), and whether the list is
    complete (fewer than the limit)."""

    found: list[dict[int, int]]
    complete: bool


def _verified(s: Setting, values: dict[int, int]) -> dict[int, int]:
    _, bad = evaluate(s, values)
    if bad:
        k, v, f = bad[0]
        raise SolverError(f"CP-SAT returned an inconsistent resolution (order {k}: sent {v}, its equation gives {f})")
    return values


def enumerate_readings(s: Setting, limit: int = 16, fixed: Sequence[tuple[list[int], int]] = ()) -> Readings:
    """Every consistent resolution (up to ``limit``): a round without a cycle by direct
    evaluation, any other by the CP-SAT service; each is checked against the plain-Python
    equations.  ``fixed``: extra constraints ``sum(sent of keys) == value`` (the lexicographic
    priority levels)."""
    if not s.acts:
        return Readings([{}], True)
    system, _ = equations(s)
    if not fixed:
        direct = evaluate_acyclic(system.defs, system.domains)
        if direct is not None:
            return Readings([{a.key: int(direct[sent_key(a.key)]) for a in s.acts}], True)
    from dipsat.engine import cpsat

    model, comp = cpsat.model_of(system.defs, system.domains)
    for keys, value in fixed:
        model.add(sum(comp.var(sent_key(k)) for k in keys) == value)
    found, complete = cpsat.distinct_solutions(model, {a.key: comp.var(sent_key(a.key)) for a in s.acts}, limit,
                                               "a continents round", cpsat.Params(time_limit=ROUND_TIME_LIMIT))
    return Readings([_verified(s, {k: int(v) for k, v in f.items()}) for f in found], complete)


def priority_levels(s: Setting, keep: Sequence[tuple[list[int], int]] = ()) -> list[tuple[list[int], int]]:
    """The lexicographic priority: maximise the units sent by everybody's first orders, then by
    their second orders, ...; returns the levels (the acts of each rank and their best total),
    found by :func:`dipsat.engine.cpsat.lexicographic_max` in as few solves as the weights allow."""
    from dipsat.engine import cpsat

    system, _ = equations(s)
    model, comp = cpsat.model_of(system.defs, system.domains)
    for fixed_keys, value in keep:
        model.add(sum(comp.var(sent_key(k)) for k in fixed_keys) == value)
    ranks = sorted({a.rank for a in s.acts})
    levels = [[a.key for a in s.acts if a.rank == r] for r in ranks]
    objectives = [(sum(comp.var(sent_key(k)) for k in ks), sum(system.domains[sent_key(k)][0] for k in ks),
                   sum(system.domains[sent_key(k)][1] for k in ks)) for ks in levels]
    values = cpsat.lexicographic_max(model, objectives, "a continents round's priority",
                                     cpsat.Params(time_limit=ROUND_TIME_LIMIT))
    return list(keep) + list(zip(levels, values))
