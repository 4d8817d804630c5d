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

The constructors :func:`VAR`, :func:`NOT`, :func:`AND`, :func:`OR`, :func:`GE`, :func:`INT`,
:func:`SUM`, :func:`MIN`, :func:`MAX` and :func:`IF` fold constants as they build, so a
formula is never larger than it must be.  Folding never changes the meaning of a formula.

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
decisions come out as tried), any other by CP-SAT (:mod:`dipsat.cpsat`, imported only then).
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

from dataclasses import dataclass, field
from itertools import product
from typing import Callable, Iterable, Mapping, NamedTuple, Optional, Sequence, Union

from typing_extensions import TypeIs

from .errors import SolverError


class Key(NamedTuple):
    """The id of one decision: its kind (a domain word: ``move``, ``support``, ``convoy``,
    ``path``, ``force``, or whatever a variant decides), the unit (order) it belongs to, and a
    part number where one unit has several decisions of a kind.  Immutable, hashable and sorted
    by ``(kind, unit, part)``."""

    kind: str
    unit: int
    part: int = 0

    def __str__(self) -> str:
        return f"{self.kind} #{self.unit}" + (f".{self.part}" if self.part else "")


# -- boolean formulas ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Var:
    """The value of a boolean decision."""

    key: Key


@dataclass(frozen=True, slots=True)
class Not:
    arg: "Formula"


@dataclass(frozen=True, slots=True)
class And:
    args: tuple["Formula", ...]


@dataclass(frozen=True, slots=True)
class Or:
    args: tuple["Formula", ...]


@dataclass(frozen=True, slots=True)
class Ge:
    """``sum(w * t for w, t in terms) >= k``; a term is a boolean formula (0 or 1) or an integer
    expression."""

    terms: tuple[tuple[int, "Term"], ...]
    k: int


# -- integer expressions -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IntVar:
    """The value of an integer decision."""

    key: Key


@dataclass(frozen=True, slots=True)
class Sum:
    """``const + sum(w * t for w, t in terms)``; a term is a boolean formula (0 or 1) or an
    integer expression.  Differences are sums with negative weights."""

    terms: tuple[tuple[int, "Term"], ...]
    const: int = 0


@dataclass(frozen=True, slots=True)
class Min:
    args: tuple["IntExpr", ...]


@dataclass(frozen=True, slots=True)
class Max:
    args: tuple["IntExpr", ...]


@dataclass(frozen=True, slots=True)
class If:
    """``then`` when ``cond`` holds, else ``other``."""

    cond: "Formula"
    then: "IntExpr"
    other: "IntExpr"


Formula = Union[bool, Var, Not, And, Or, Ge]
IntExpr = Union[int, IntVar, Sum, Min, Max, If]
Term = Union[Formula, IntExpr]  # inside Ge and Sum: a boolean counts 0 or 1
Definition = Union[Formula, IntExpr]
Value = Union[bool, int]
Values = Mapping["Key", Value]  # the values of decisions, by key

_BOOL_NODES = (Var, Not, And, Or, Ge)
_INT_NODES = (IntVar, Sum, Min, Max, If)

TRUE: Formula = True
FALSE: Formula = False


def is_formula(t: Term) -> TypeIs[Formula]:
    """Is this term a boolean formula (as opposed to an integer expression)?"""
    return t is True or t is False or isinstance(t, _BOOL_NODES)


# -- constructors with constant folding -------------------------------------------------------------


def VAR(name: Key) -> Formula:
    return Var(name)


def NOT(f: Formula) -> Formula:
    if f is True:
        return False
    if f is False:
        return True
    if isinstance(f, Not):
        return f.arg
    return Not(f)


def AND(*fs: Formula) -> Formula:
    out: list[Formula] = []
    for f in fs:
        if f is False:
            return False
        if f is True:
            continue
        if isinstance(f, And):
            out.extend(f.args)
        else:
            out.append(f)
    if not out:
        return True
    if len(out) == 1:
        return out[0]
    return And(tuple(out))


def OR(*fs: Formula) -> Formula:
    out: list[Formula] = []
    for f in fs:
        if f is True:
            return True
        if f is False:
            continue
        if isinstance(f, Or):
            out.extend(f.args)
        else:
            out.append(f)
    if not out:
        return False
    if len(out) == 1:
        return out[0]
    return Or(tuple(out))


def _split_terms(terms: Iterable[tuple[int, Term]]) -> tuple[int, list[tuple[int, Term]]]:
    """Constant part and live terms (constants, booleans and folded sums merged away)."""
    const = 0
    live: list[tuple[int, Term]] = []
    for w, t in terms:
        if w == 0 or t is False:
            continue
        if t is True:
            const += w
        elif isinstance(t, int):
            const += w * t
        elif isinstance(t, Sum):
            const += w * t.const
            live.extend((w * w2, t2) for w2, t2 in t.terms)
        else:
            live.append((w, t))
    return const, live


def GE(terms: Iterable[tuple[int, Term]], k: int) -> Formula:
    """``sum(w * t for w, t in terms) >= k`` with constant folding.  A term may be a boolean
    formula or an integer expression (``GE([(1, INT(x)), (-1, INT(y))], 0)`` is ``x >= y``)."""
    const, live = _split_terms(terms)
    k2 = k - const
    fs = [t for _, t in live if is_formula(t)]
    if len(fs) == len(live):
        lo = sum(w for w, _ in live if w < 0)
        hi = sum(w for w, _ in live if w > 0)
        if lo >= k2:
            return True
        if hi < k2:
            return False
        if len(live) == 1 and live[0][0] > 0:
            return fs[0]
        if all(w == 1 for w, _ in live) and k2 == 1:
            return OR(*fs)
        if all(w == 1 for w, _ in live) and k2 == len(live):
            return AND(*fs)
    return Ge(tuple(live), k2)


def INT(name: Key) -> IntExpr:
    """The value of an integer decision."""
    return IntVar(name)


def SUM(terms: Iterable[tuple[int, Term]], const: int = 0) -> IntExpr:
    """``const + sum(w * t for w, t in terms)`` (nested sums flattened, constants folded)."""
    c, live = _split_terms(terms)
    if not live:
        return const + c
    if len(live) == 1 and live[0][0] == 1 and const + c == 0:
        only = live[0][1]
        if not is_formula(only):
            return only
    return Sum(tuple(live), const + c)


def _minmax(args: Sequence[IntExpr], pick: Callable[[Iterable[int]], int], node: type[Min] | type[Max]) -> IntExpr:
    consts: list[int] = []
    rest: list[IntExpr] = []
    for a in args:
        if isinstance(a, int):
            consts.append(a)
        elif isinstance(a, node):
            rest.extend(a.args)
        else:
            rest.append(a)
    if consts:
        rest.append(pick(consts))
    if not rest:
        raise ValueError("min/max of no values")
    if len(rest) == 1:
        return rest[0]
    return node(tuple(rest))


def MIN(*args: IntExpr) -> IntExpr:
    return _minmax(args, min, Min)


def MAX(*args: IntExpr) -> IntExpr:
    return _minmax(args, max, Max)


def IF(cond: Formula, then: IntExpr, other: IntExpr) -> IntExpr:
    if cond is True:
        return then
    if cond is False or then == other:
        return other
    return If(cond, then, other)


# -- reading formulas ------------------------------------------------------------------------------


def variables(f: Definition, out: Optional[set[Key]] = None) -> set[Key]:
    """Every decision a formula or integer expression refers to."""
    if out is None:
        out = set()
    out.update(_refs(f, []))
    return out


def evaluate(f: Formula, values: Mapping[Key, Value]) -> bool:
    """The truth of a formula under known values (every decision it refers to must be known)."""
    if f is True or f is False:
        return f
    if isinstance(f, Var):
        return bool(values[f.key])
    if isinstance(f, Not):
        return not evaluate(f.arg, values)
    if isinstance(f, And):
        return all(evaluate(g, values) for g in f.args)
    if isinstance(f, Or):
        return any(evaluate(g, values) for g in f.args)
    if isinstance(f, Ge):
        return sum(w * value_of(g, values) for w, g in f.terms) >= f.k
    raise TypeError(f"not a boolean formula: {f!r}")


def value_of(e: Term, values: Mapping[Key, Value]) -> int:
    """The value of an integer expression (a boolean formula counts 0 or 1)."""
    if isinstance(e, int):  # constants, True and False
        return int(e)
    if isinstance(e, IntVar):
        return int(values[e.key])
    if isinstance(e, Sum):
        return e.const + sum(w * value_of(g, values) for w, g in e.terms)
    if isinstance(e, Min):
        return min(value_of(g, values) for g in e.args)
    if isinstance(e, Max):
        return max(value_of(g, values) for g in e.args)
    if isinstance(e, If):
        return value_of(e.then if evaluate(e.cond, values) else e.other, values)
    return int(evaluate(e, values))


def substitute(f: Formula, values: Mapping[Key, Value]) -> Formula:
    """Replace known decisions by constants and fold."""
    if isinstance(f, bool):
        return f
    if isinstance(f, Var):
        v = values.get(f.key)
        return f if v is None else bool(v)
    if isinstance(f, Not):
        return NOT(substitute(f.arg, values))
    if isinstance(f, And):
        return AND(*(substitute(g, values) for g in f.args))
    if isinstance(f, Or):
        return OR(*(substitute(g, values) for g in f.args))
    return GE(((w, substitute_term(g, values)) for w, g in f.terms), f.k)


def substitute_int(e: IntExpr, values: Mapping[Key, Value]) -> IntExpr:
    """Replace known decisions by constants and fold (integer expressions)."""
    if isinstance(e, int):
        return e
    if isinstance(e, IntVar):
        v = values.get(e.key)
        return e if v is None else int(v)
    if isinstance(e, Sum):
        return SUM(((w, substitute_term(g, values)) for w, g in e.terms), e.const)
    if isinstance(e, Min):
        return MIN(*(substitute_int(g, values) for g in e.args))
    if isinstance(e, Max):
        return MAX(*(substitute_int(g, values) for g in e.args))
    return IF(substitute(e.cond, values), substitute_int(e.then, values), substitute_int(e.other, values))


def substitute_term(t: Term, values: Mapping[Key, Value]) -> Term:
    return substitute(t, values) if is_formula(t) else substitute_int(t, values)


def substitute_def(d: Definition, values: Mapping[Key, Value]) -> Definition:
    return substitute_term(d, values)


def bounds_of(e: Term, domains: Mapping[Key, tuple[int, int]]) -> tuple[int, int]:
    """Interval bounds of an integer expression (a boolean formula: 0..1, or its constant)."""
    if e is True or e is False:
        return int(e), int(e)
    if isinstance(e, int):
        return e, e
    if isinstance(e, IntVar):
        d = domains.get(e.key)
        if d is None:
            raise KeyError(e.key)
        return d
    if isinstance(e, Sum):
        lo = hi = e.const
        for w, g in e.terms:
            a, b = bounds_of(g, domains)
            lo += min(w * a, w * b)
            hi += max(w * a, w * b)
        return lo, hi
    if isinstance(e, (Min, Max)):
        bs = [bounds_of(g, domains) for g in e.args]
        pick = min if isinstance(e, Min) else max
        return pick(b[0] for b in bs), pick(b[1] for b in bs)
    if isinstance(e, If):
        then, other = bounds_of(e.then, domains), bounds_of(e.other, domains)
        return min(then[0], other[0]), max(then[1], other[1])
    return 0, 1


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
        if name in self.defs:
            raise ValueError(f"decision {self.name(name)!r} defined twice")
        if not is_formula(f):
            raise TypeError(f"decision {self.name(name)!r}: a boolean decision needs a formula, not {f!r}")
        self.defs[name] = f
        self.kinds[name] = kind

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


def solve_system(system: System, backup: Backup, limit: int = 2, time_limit: float | None = None,
                 all_cpsat: bool = False) -> Solution:
    """Solve by components; see the module docstring.

    ``limit`` caps the count of resolutions of each cyclic component (2 is enough to decide
    "exactly one"; exploration asks for more).  ``all_cpsat`` sends the acyclic parts to CP-SAT
    too instead of evaluating them directly.
    """
    defs = dict(system.defs)
    domains = system.domains
    if not all_cpsat:
        found = evaluate_acyclic(defs, domains)
        if found is not None:  # no cycle anywhere (most turns): one pass, nothing left to do
            return Solution(found, [], defs, 0)
    values: dict[Key, Value] = {}
    components: list[Component] = []
    from_solver: set[Key] = set()
    calls = [0]

    def run(names: list[Key], known: dict[Key, Value], lim: int) -> list[dict[Key, Value]]:
        from .cpsat import solve_group

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
        f = defs[x]
        d = domains.get(x)
        if d is None:
            values[x] = evaluate(f, values) if is_formula(f) else bool(value_of(f, values))
            return
        v = value_of(f, values)
        if not d[0] <= v <= d[1]:
            raise SolverError(f"an acyclic part of the turn had no solution: {system.name(x)} = {v} "
                              f"is outside its domain {d[0]}..{d[1]}")
        values[x] = v

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
            solve_names(set(members))
        if pending:
            flush(pending)

    solve_names(set(defs))
    # independent check in plain Python of everything CP-SAT decided
    bad = [x for x in sorted(from_solver) if not check_value(domains, defs, values, x)]
    if bad:
        raise SolverError("verification failed: CP-SAT's resolution violates the equations of "
                          + ", ".join(system.name(x) for x in bad[:5]))
    return Solution(values, components, defs, calls[0])


def evaluate_acyclic(defs: Mapping[Key, Definition], domains: Mapping[Key, tuple[int, int]]) -> Optional[dict[Key, Value]]:
    """Every decision's value, each evaluated from its definition once those it refers to are
    known (one depth-first walk: what :func:`solve_system` does to a system's acyclic
    components, without building the dependency graph and its components first); ``None`` as
    soon as the walk meets a cycle or an integer outside its domain, for :func:`solve_system`'s
    general way to take the system (it then counts the cycles' resolutions, or says what is
    wrong).  Without a cycle the values are the system's one solution, in whatever order found."""
    values: dict[Key, Value] = {}
    open_: set[Key] = set()  # the decisions on the walk's current path
    for root in defs:
        if root in values:
            continue
        open_.add(root)
        stack: list[tuple[Key, list[Key]]] = [(root, _refs(defs[root], []))]
        while stack:
            x, refs = stack[-1]
            while refs:  # refers to a decision not known yet: take it first
                y = refs.pop()
                if y in values or y not in defs:
                    continue
                if y in open_:
                    return None  # a cycle
                open_.add(y)
                stack.append((y, _refs(defs[y], [])))
                break
            else:
                stack.pop()
                open_.discard(x)
                v = _value_in_domain(defs[x], domains.get(x), values)
                if v is None:
                    return None
                values[x] = v
    return values


def _value_in_domain(f: Definition, d: Optional[tuple[int, int]], values: Mapping[Key, Value]) -> Optional[Value]:
    """A decision's value from its definition (a boolean one without a domain ``d``); ``None``
    when an integer falls outside its domain."""
    if d is None:
        return evaluate(f, values) if is_formula(f) else bool(value_of(f, values))
    v = value_of(f, values)
    return v if d[0] <= v <= d[1] else None


def _refs(f: Definition, out: list[Key]) -> list[Key]:
    """The decisions a definition refers to, in a list (with repeats, in an order fixed by the
    definition; :func:`variables` is their set)."""
    if f is True or f is False or isinstance(f, int):
        return out
    if isinstance(f, (Var, IntVar)):
        out.append(f.key)
    elif isinstance(f, Not):
        _refs(f.arg, out)
    elif isinstance(f, (And, Or, Min, Max)):
        for g in f.args:
            _refs(g, out)
    elif isinstance(f, (Ge, Sum)):
        for _, g in f.terms:
            _refs(g, out)
    elif isinstance(f, If):
        _refs(f.cond, out)
        _refs(f.then, out)
        _refs(f.other, out)
    return out


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
    while True:
        sub = {x: [y for y in deps[x] if y in remaining] for x in members if x in remaining}
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
    from .cpsat import solve_group

    return solve_group(system.defs, system.domains, list(system.defs), {}, limit)
