"""A system of exact equations over boolean and integer decisions, solved component by component.

Every adjudication decision (a move succeeds, a support is given, a convoy is carried out, a
path exists, a battle's losses, ...) is a *decision* named by a typed :class:`Key` and defined
by exactly one expression over the other decisions:

* a **boolean decision** ``x <=> f`` where ``f`` is a :data:`Formula`: ``True`` / ``False``,
  :class:`Var` (another boolean decision), :class:`Not`, :class:`And`, :class:`Or`, or
  :class:`Ge` -- "the weighted sum of these terms is at least ``k``", where a term is a boolean
  formula (counting 0 or 1) or an integer expression (strength comparisons, ``x >= y``);
* an **integer decision** ``x = e`` where ``e`` is an :data:`IntExpr`: an ``int`` constant,
  :class:`IntVar` (another integer decision), :class:`Sum` (weighted terms plus a constant:
  sums and differences), :class:`Min`, :class:`Max` or :class:`If`.  Its domain is bounded:
  derived from the definition (interval arithmetic), or declared where it lies on a cycle.

The language itself (keys, formulas, integer expressions, their constructors :func:`VAR`,
:func:`AND`, :func:`GE`, :func:`SUM`, ... which fold constants as they build, and evaluation) is
:mod:`dipsat.engine.formulas`; this module is the systems of equations over it and their solving.

Because each decision is defined by an exact equivalence (or equality), and every helper made
while compiling for CP-SAT is exactly defined too, a system whose dependency graph has no cycle
has exactly one solution, and the number of solutions of a cyclic component is the number of
consistent resolutions of the rules.

:func:`solve_system` first evaluates a system directly in one depth-first walk
(:func:`evaluate_acyclic`: each decision once those it refers to are known); most turns have no
cycle, and that is all they need.  A system with a cycle is taken the general way: the strongly
connected components of the dependency graph in dependency order.  An acyclic decision is *evaluated directly* from its definition (the values it
depends on are known by then: what CP-SAT's presolve would do, without building a model).  Every
cyclic component has its resolutions counted exactly (0, 1, 2, ... up to a limit): a small one
by :func:`enumerate_cycle` (a few decisions that break every cycle of the component are tried
with each of their values, the rest evaluated directly; a try is a resolution when the tried
decisions come out as tried), any other by CP-SAT (:mod:`dipsat.engine.cpsat`, imported only then).
Where the count is not one, a *backup* callback supplied by the rules replaces some definitions
and the component is solved again.  Every value CP-SAT returns is checked in plain Python against
the definitions, and a "no resolution" verdict is confirmed with CP-SAT's presolve off.
``all_cpsat=True`` sends every part to CP-SAT: the acyclic parts (one call per run of acyclic
decisions between cycles) and every cycle, however small; both ways give the same values.

Decisions are named by keys, not strings: a :class:`Key` is ``(kind, unit, part)``, e.g.
``Key("move", 3)`` for the move of unit 3, ``Key("support", 5, 2)`` for the second supporting
unit of a stack's support order.  Keys sort by kind, then unit, so models are built in a fixed
order; a :class:`System` names them for people (``move A Par``) from its unit labels.
"""

from __future__ import annotations

from dataclasses import field
from itertools import product
from typing import Callable, Mapping, Optional, Sequence


from dipsat.errors import SolverError
from dipsat.engine.formulas import (_FORMULA_CLASSES, SUM, Definition, Formula, IntExpr, Key, Value, bounds_of, evaluate, is_formula, references, value_of,
                       variables)
from dipsat.records import dataclass


# -- systems ----------------------------------------------------------------------------------------


@dataclass
class System:
    """Decisions and their definitions.  Insertion order is kept (callers add in sorted order), so
    the CP-SAT model is the same on every run.  ``domains`` holds the bounds of the integer
    decisions; ``labels`` (unit -> "A Par"), when given, names decisions for people."""

    defs: dict[Key, Definition] = field(default_factory=dict)
    kinds: dict[Key, str] = field(default_factory=dict)  # decision -> "move", "support", ...
    domains: dict[Key, tuple[int, int]] = field(default_factory=dict)
    labels: Sequence[str] = ()

    def define(self, name: Key, kind: str, f: Formula) -> None:
        """A boolean decision ``name <=> f``."""
        defs = self.defs
        if name in defs:
            raise ValueError(f"decision {self.name(name)!r} defined twice")
        if f.__class__ not in _FORMULA_CLASSES and not is_formula(f):
            raise TypeError(f"decision {self.name(name)!r}: a boolean decision needs a formula, not {f!r}")
        defs[name] = f
        self.kinds[name] = kind

    def define_all(self, kind: str, pairs: Sequence[tuple[Key, Definition]]) -> None:
        """``define(name, kind, f)`` for each ``(name, f)`` of ``pairs`` (boolean decisions), in
        their order."""
        defs, kinds = self.defs, self.kinds
        new = dict(pairs)
        if (len(new) == len(pairs) and defs.keys().isdisjoint(new)
                and _FORMULA_CLASSES.issuperset(map(type, new.values()))):  # (the usual case: in one step)
            defs.update(new)
            kinds.update(dict.fromkeys(new, kind))
            return
        for name, f in pairs:
            if name in defs:
                raise ValueError(f"decision {self.name(name)!r} defined twice")
            if f.__class__ not in _FORMULA_CLASSES and not is_formula(f):
                raise TypeError(f"decision {self.name(name)!r}: a boolean decision needs a formula, not {f!r}")
            defs[name] = f
            kinds[name] = kind

    def define_int(self, name: Key, kind: str, e: IntExpr, lo: Optional[int] = None, hi: Optional[int] = None) -> None:
        """An integer decision ``name = e`` with the domain ``lo..hi``.  Without bounds they are
        derived from ``e``, whose integer decisions must be defined already (a decision on a
        cycle needs declared bounds)."""
        if name in self.defs:
            raise ValueError(f"decision {self.name(name)!r} defined twice")
        if is_formula(e):
            e = SUM([(1, e)])
        if lo is None or hi is None:
            try:
                dlo, dhi = bounds_of(e, self.domains)
            except KeyError as exc:
                raise ValueError(f"integer decision {self.name(name)!r} refers to {self.name(exc.args[0])!r}, "
                                 "which has no domain yet: define it first or declare lo and hi") from None
            lo = dlo if lo is None else lo
            hi = dhi if hi is None else hi
        if lo > hi:
            raise ValueError(f"integer decision {self.name(name)!r}: empty domain {lo}..{hi}")
        self.defs[name] = e
        self.kinds[name] = kind
        self.domains[name] = (lo, hi)

    def is_int(self, name: Key) -> bool:
        return name in self.domains

    def name(self, key: Key) -> str:
        """``move A Par``, ``support F Lon #2``: the kind and the unit's label."""
        if 0 <= key.unit < len(self.labels):
            return f"{key.kind} {self.labels[key.unit]}" + (f" #{key.part}" if key.part else "")
        return str(key)


@dataclass
class Component:
    """A cyclic component and what happened to it."""

    decisions: tuple[Key, ...]
    resolutions: int  # exact count, capped at the limit
    solutions: list[dict[Key, Value]]
    backup: Optional[tuple[str, str]] = None  # (kind, rule) when a backup rule was applied
    overrides: dict[Key, Definition] = field(default_factory=dict)


@dataclass
class Solution:
    values: dict[Key, Value]
    components: list[Component]
    defs: dict[Key, Definition]  # the definitions in force (after backup overrides)
    calls: int = 0  # CP-SAT calls made


# A backup callback: given the component's decisions, the current definitions and the count,
# return (kind, rule name, overrides) or None to leave the component unresolved (error).
Backup = Callable[[tuple[Key, ...], dict[Key, Definition], int],
                  Optional[tuple[str, str, dict[Key, Definition]]]]


def check_value(system_domains: Mapping[Key, tuple[int, int]], defs: Mapping[Key, Definition],
                values: Mapping[Key, Value], x: Key) -> bool:
    """Does the value of ``x`` satisfy its definition (and its domain)?"""
    f = defs[x]
    d = system_domains.get(x)
    if d is None:
        return is_formula(f) and evaluate(f, values) == values[x]
    v = values[x]
    return d[0] <= v <= d[1] and value_of(f, values) == v


def acyclic_value(system: System, defs: Mapping[Key, Definition], values: Mapping[Key, Value], x: Key) -> Value:
    """The value of ``x``, none of whose inputs depends on it, from the values of its inputs; an
    integer outside its domain means the rules' equations have no solution (``SolverError``)."""
    f = defs[x]
    d = system.domains.get(x)
    if d is None:
        return evaluate(f, values) if is_formula(f) else bool(value_of(f, values))
    v = value_of(f, values)
    if not d[0] <= v <= d[1]:
        raise SolverError(f"an acyclic part of the turn had no solution: {system.name(x)} = {v} "
                          f"is outside its domain {d[0]}..{d[1]}")
    return v


def solve_system(system: System, backup: Backup, limit: int = 2, time_limit: float | None = None,
                 all_cpsat: bool = False) -> Solution:
    """Solve by components; see the module docstring.

    ``limit`` caps the count of resolutions of each cyclic component (2 is enough to decide
    "exactly one"; exploration asks for more).  ``all_cpsat`` sends the acyclic parts to CP-SAT
    too instead of evaluating them directly.
    """
    defs = dict(system.defs)
    domains = system.domains
    values: dict[Key, Value] = {}
    names: set[Key] | None = None  # the decisions left to the general way (None: all)
    if not all_cpsat:
        found, blocked = _walk(defs, domains)
        if found is not None:
            if not blocked:  # no cycle anywhere (most turns): one pass, nothing left to do
                return Solution(found, [], defs, 0)
            # what the walk valued depends on no cycle: the general way takes only the rest (the
            # components among them come in the same order: those valued had none below them)
            values, names = found, blocked
    components: list[Component] = []
    from_solver: set[Key] = set()
    calls = [0]

    def run(names: list[Key], known: dict[Key, Value], lim: int) -> list[dict[Key, Value]]:
        from dipsat.engine.cpsat import solve_group

        calls[0] += 1
        sols = solve_group(defs, domains, names, known, lim, time_limit=time_limit)
        if not sols:  # confirm "no resolution" with presolve off
            calls[0] += 1
            sols = solve_group(defs, domains, names, known, lim, presolve=False, time_limit=time_limit)
        from_solver.update(names)
        return sols

    def flush(pending: list[Key]) -> None:
        sol = run(pending, values, 1)
        if len(sol) != 1:
            raise SolverError("an acyclic part of the turn had no solution: the rules' equations are inconsistent")
        values.update(sol[0])

    def direct(x: Key) -> None:
        values[x] = acyclic_value(system, defs, values, x)

    def solve_names(names: set[Key]) -> None:
        deps = {x: sorted(y for y in variables(defs[x]) if y in names) for x in sorted(names)}
        pending: list[Key] = []
        for members in strongly_connected(deps):
            cyclic = len(members) > 1 or members[0] in deps[members[0]]
            if not cyclic:
                if all_cpsat:
                    pending.extend(members)
                else:
                    direct(members[0])
                continue
            if pending:
                flush(pending)
                pending = []
            small = None if all_cpsat else enumerate_cycle(defs, domains, members, deps, values, limit, CYCLE_WORK)
            sols = run(members, values, limit) if small is None else small
            comp = Component(tuple(members), len(sols), sols)
            components.append(comp)
            if len(sols) == 1:
                values.update(sols[0])
                continue
            decision = backup(tuple(members), defs, len(sols))
            if decision is None:
                raise SolverError(f"{len(sols)} resolutions of a cycle and no backup rule for it: "
                                  + ", ".join(system.name(m) for m in members))
            kind, rule, overrides = decision
            comp.backup = (kind, rule)
            comp.overrides = overrides
            defs.update(overrides)
            if not all_cpsat and all(defs[m].__class__ in _CONSTANTS for m in members):
                for m in members:  # (the usual backup: constants, so no cycle is left)
                    direct(m)
            else:
                solve_names(set(members))
        if pending:
            flush(pending)

    solve_names(set(defs) if names is None else names)
    # independent check in plain Python of everything CP-SAT decided
    bad = [x for x in sorted(from_solver) if not check_value(domains, defs, values, x)]
    if bad:
        raise SolverError("verification failed: CP-SAT's resolution violates the equations of "
                          + ", ".join(system.name(x) for x in bad[:5]))
    return Solution(values, components, defs, calls[0])


def evaluate_acyclic(defs: Mapping[Key, Definition], domains: Mapping[Key, tuple[int, int]]) -> Optional[dict[Key, Value]]:
    """Every decision's value, each evaluated from its definition once those it refers to are
    known (one depth-first walk: what :func:`solve_system` does to a system's acyclic
    components, without building the dependency graph and its components first); ``None`` when
    the walk meets a cycle or an integer outside its domain, for :func:`solve_system`'s
    general way to take the system (it then counts the cycles' resolutions, or says what is
    wrong).  Without a cycle the values are the system's one solution, in whatever order found."""
    values, blocked = _walk(defs, domains)
    return None if blocked else values


def _walk(defs: Mapping[Key, Definition],
          domains: Mapping[Key, tuple[int, int]]) -> tuple[Optional[dict[Key, Value]], set[Key]]:
    """The depth-first walk of :func:`evaluate_acyclic`, on past cycles: the value of every
    decision that depends on no cycle, and the set of those that do (on a cycle, or on one
    that is: *blocked*); ``(None, ...)`` when an integer falls outside its domain."""
    values: dict[Key, Value] = {}
    open_: dict[Key, bool] = {}  # decisions on the walk's current path (True), or blocked (False)
    plain = not domains  # no integer decision: every one is a boolean formula
    for root, f in defs.items():
        if root in values or root in open_:
            continue
        if plain and f.__class__ is bool:  # a constant (many decisions of a turn: nothing to beat)
            values[root] = f
            continue
        open_[root] = True
        stack: list[tuple[Key, list[Key]]] = [(root, references(f, []))]
        while stack:
            x, refs = stack[-1]
            while refs:  # the next decision it refers to that is not known yet
                y = refs.pop()
                if y not in values and y in defs:
                    g = defs[y]
                    if plain and g.__class__ is bool:
                        values[y] = g
                        continue
                    break
            else:  # all known: its value
                stack.pop()
                del open_[x]
                f = defs[x]
                if plain and f.__class__ in _FORMULA_CLASSES:
                    values[x] = evaluate(f, values)  # type: ignore[arg-type]
                    continue
                v = _value_in_domain(f, domains.get(x), values)
                if v is None:
                    return None, set(open_)
                values[x] = v
                continue
            if y in open_:
                # a cycle (or a decision below one): nothing on the path has a value before the
                # cycle is solved
                for z, _ in stack:
                    open_[z] = False
                break
            open_[y] = True
            stack.append((y, references(defs[y], [])))
    return values, set(open_)  # (what is left is blocked)


def _value_in_domain(f: Definition, d: Optional[tuple[int, int]], values: Mapping[Key, Value]) -> Optional[Value]:
    """A decision's value from its definition (a boolean one without a domain ``d``); ``None``
    when an integer falls outside its domain."""
    if d is None:
        return evaluate(f, values) if is_formula(f) else bool(value_of(f, values))
    v = value_of(f, values)
    return v if d[0] <= v <= d[1] else None


_CONSTANTS = (bool, int)  # the classes of a definition that refers to nothing

# The most work :func:`enumerate_cycle` takes on: tries (the product of the breaking decisions'
# domain sizes) times the component's decisions.  A try evaluates each decision once, a few
# microseconds; CP-SAT takes about a millisecond for the smallest model, so past this budget the
# solver is the cheaper way.
CYCLE_WORK = 512


def breaking_set(members: Sequence[Key], deps: Mapping[Key, Sequence[Key]],
                 domains: Mapping[Key, tuple[int, int]], max_tries: int) -> Optional[tuple[list[Key], list[Key]]]:
    """A set of decisions whose removal leaves the component without a cycle (a feedback vertex
    set, chosen greedily: from each remaining cycle the decision with the most edges in and out
    of it, boolean decisions before integer ones, then by key), and the other decisions in an
    order where each comes after what it depends on.  ``None`` when trying every value of the
    set would take more than ``max_tries`` tries."""
    remaining = set(members)
    chosen: list[Key] = []
    tries = 1
    first = True
    while True:
        sub = {x: [y for y in deps[x] if y in remaining] for x in members if x in remaining}
        if first:  # the component itself: one strongly connected component, as it comes
            comps = [sorted(members)] if len(members) > 1 else [list(members)]
            first = False
        else:
            comps = strongly_connected(sub)
        cyclic = [c for c in comps if len(c) > 1 or c[0] in sub[c[0]]]
        if not cyclic:
            return chosen, [c[0] for c in comps]
        for comp in cyclic:
            inside = set(comp)
            indeg = {x: 0 for x in comp}
            for x in comp:
                for y in sub[x]:
                    if y in inside:
                        indeg[y] += 1
            best = min(comp, key=lambda x: (x in domains, -indeg[x] * sum(1 for y in sub[x] if y in inside), x))
            d = domains.get(best)
            tries *= 2 if d is None else d[1] - d[0] + 1
            if tries > max_tries:
                return None
            chosen.append(best)
            remaining.discard(best)


def enumerate_cycle(defs: Mapping[Key, Definition], domains: Mapping[Key, tuple[int, int]], members: Sequence[Key],
                    deps: Mapping[Key, Sequence[Key]], known: Mapping[Key, Value], limit: int,
                    work: int = CYCLE_WORK) -> Optional[list[dict[Key, Value]]]:
    """Every resolution (up to ``limit``) of a small cyclic component, without CP-SAT; ``None``
    when the component is too large for it (more than ``work`` decision evaluations).

    Exact: the component's decisions are split into a breaking set (:func:`breaking_set`) and
    the rest, which has no cycle.  Each assignment of the breaking set (in a fixed order) fixes
    the rest by direct evaluation, dependencies first; the assignment is a resolution when every
    decision of the breaking set then satisfies its own definition and every integer decision
    lies in its domain.  Each resolution of the component is found exactly once (its values of
    the breaking set are one assignment, which determines the rest), so counts are exact, as
    CP-SAT's are."""
    found = breaking_set(members, deps, domains, max(1, work // max(1, len(members))))
    if found is None:
        return None
    breaking, order = found
    base: dict[Key, Value] = {}
    inside = set(members)
    for x in members:
        for y in variables(defs[x]):
            if y not in inside:
                base[y] = known[y]
    choices = [(False, True) if (d := domains.get(b)) is None else range(d[0], d[1] + 1) for b in breaking]
    sols: list[dict[Key, Value]] = []
    for assignment in product(*choices):
        trial = dict(base)
        trial.update(zip(breaking, assignment))
        if _consistent(defs, domains, order, breaking, trial):
            sols.append({x: trial[x] for x in members})
            if len(sols) >= limit:
                break
    return sols


def _consistent(defs: Mapping[Key, Definition], domains: Mapping[Key, tuple[int, int]], order: list[Key],
                breaking: list[Key], trial: dict[Key, Value]) -> bool:
    """Evaluate ``order`` into ``trial`` under the tried values of ``breaking``; do the tried
    values satisfy their definitions and every integer its domain?"""
    for x in order:
        v = _value_in_domain(defs[x], domains.get(x), trial)
        if v is None:
            return False
        trial[x] = v
    for b in breaking:
        f = defs[b]
        if b in domains:
            if value_of(f, trial) != trial[b]:
                return False
        elif (evaluate(f, trial) if is_formula(f) else bool(value_of(f, trial))) != trial[b]:
            return False
    return True


def strongly_connected(deps: Mapping[Key, Sequence[Key]]) -> list[list[Key]]:
    """Tarjan's algorithm (iterative).  ``deps[x]`` lists what ``x`` depends on.  Components come
    out dependencies first, each sorted; the order is fixed by the (sorted) input."""
    index: dict[Key, int] = {}
    low: dict[Key, int] = {}
    on_stack: set[Key] = set()
    stack: list[Key] = []
    out: list[list[Key]] = []
    for root in deps:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(deps[root]))]  # the walk's path: each decision and its deps still to see
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:  # go down into w first
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(deps[w])))
                    break
                if w in on_stack and index[w] < low[v]:
                    low[v] = index[w]
            else:  # every dependency of v seen
                work.pop()
                lv = low[v]
                if lv == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    out.append(comp if len(comp) == 1 else sorted(comp))
                if work:
                    u = work[-1][0]
                    if lv < low[u]:
                        low[u] = lv
    return out


def enumerate_all(system: System, limit: int = 64) -> list[dict[Key, Value]]:
    """Every consistent resolution of the whole system (no backup rule), up to ``limit``."""
    from dipsat.engine.cpsat import solve_group

    return solve_group(system.defs, system.domains, list(system.defs), {}, limit)
