"""dipsat's one CP-SAT service: every model and every solver of the project is made here.

Nothing else in dipsat constructs a ``CpModel`` or a ``CpSolver`` (a test checks): the engine's
equations (:mod:`dipsat.engine.equations`) and every variant that needs a solver of its own come
through the functions below, so the solver's parameters, the check of "no solution" with presolve
off, the growth of the costs and the debugging dump are settled once.

* :func:`new_model` -- an empty model (public OR-Tools API only).
* :func:`solver` -- a solver with explicit parameters: ``time_limit`` (seconds, ``None`` for
  none), ``workers`` (1: one thread, reproducible), ``seed`` (0), ``presolve``.
* :func:`solve` -- one solve of a model (under assumptions if the model has some), dumped when
  asked (below); raises :class:`~dipsat.errors.SolverError` when the solver neither proves nor
  refutes (time limit).
* :func:`distinct_solutions` -- every solution (up to a limit), projected on the variables the
  caller names and counted once per distinct projection; "none" is confirmed with presolve off
  (CP-SAT has had presolve soundness bugs), and the caller re-checks every answer in plain Python.
* :func:`minimal_core` -- a minimal set of assumption literals that cannot all hold (every proper
  subset can): it starts from the solver's own core (``sufficient_assumptions_for_infeasibility``)
  and shrinks it by halves (QuickXplain: about ``k log(n/k)`` solves for a core of ``k`` out of
  ``n``, instead of one solve per member).
* :func:`lexicographic_max` -- maximise objectives in priority order in as few solves as the
  model allows: consecutive objectives share one weighted objective whose weights provably keep
  the order (each weight exceeds the whole span of everything after it, within 2**52), and an
  objective the best solution so far already holds at its upper bound is fixed without a solve.

**Dumping a model.**  Set the environment variable ``DIPSAT_CPSAT_DUMP`` to a folder: every
model solved through :func:`solve` is written there in OR-Tools' text format
(``<label>-<process>-<n>.pb.txt``, ``CpModel.export_to_file``) before it is solved, with its
assumptions.  It changes nothing else; for debugging a model by hand (or sending it to OR-Tools'
own tools).

The second half of the module compiles the engine's equations into a model (see
:class:`Compiler`): a boolean decision ``x <=> f`` becomes ``x == lit(f)`` where every helper
literal of an ``and``/``or``/``>=`` is defined in both directions (two-sided reification); an
integer decision ``x = e`` becomes ``x == e`` with the decision's domain, ``min``/``max`` a helper
with ``add_min_equality``/``add_max_equality``, and ``if`` a helper equal to one branch or the
other under the condition's literal.  No helper is ever free, so solutions are counted exactly.
Variables are named after their decisions (``move #3``) and created in the callers' order, so the
model is the same on every run.

Imported only when something needs the solver (OR-Tools' ``cp_model`` pulls numpy and pandas: a
third of a second): a cycle too large for :func:`dipsat.engine.equations.enumerate_cycle`, everything sent
to CP-SAT on purpose, a research command, a variant's model.
"""

from __future__ import annotations

import itertools
import os
from typing import Callable, Generic, Hashable, Mapping, Optional, Sequence, TypeVar, Union

from ortools.sat.python import cp_model

from dipsat.engine.formulas import (And, Definition, Formula, Ge, If, IntExpr, IntVar, Key, Max, Min, Not, Or, Sum, Term, Value, Var,
                       bounds_of, is_formula, substitute_def)
from dipsat.errors import SolverError
from dipsat.limits import Expired, time_left
from dipsat.records import dataclass

Literal = Union[cp_model.IntVar, cp_model.NotBooleanVariable]  # a boolean variable or its negation
Linear = Union[cp_model.LinearExprT, int]
K = TypeVar("K", bound=Hashable)

DUMP_ENV = "DIPSAT_CPSAT_DUMP"
_dumped = itertools.count(1)  # numbers the dumped files of this process (debugging only)
FEASIBLE = ("OPTIMAL", "FEASIBLE")  # the statuses with a solution


# -- models and solvers --------------------------------------------------------------------------


def new_model() -> cp_model.CpModel:
    """An empty CP-SAT model."""
    return cp_model.CpModel()


@dataclass(frozen=True)
class Params:
    """A solver's parameters, all explicit."""

    time_limit: Optional[float] = None  # seconds; None: no limit
    workers: int = 1  # one thread: the same search on every run
    seed: int = 0
    presolve: bool = True


def solver(params: Params = Params(), enumerate_all: bool = False) -> cp_model.CpSolver:
    """A solver with ``params`` (the only place solver parameters are set)."""
    s = cp_model.CpSolver()
    p = s.parameters
    p.num_workers = params.workers
    p.random_seed = params.seed
    limit = _limit(params)
    if limit:
        p.max_time_in_seconds = limit
    if not params.presolve:
        p.cp_model_presolve = False
    if enumerate_all:
        p.enumerate_all_solutions = True
    return s


def _limit(params: Params) -> Optional[float]:
    """The solve's time limit: its own, or what is left of the command's wall-clock limit
    (:func:`dipsat.limits.deadline`) if that is nearer (a solve is one call into C, which the
    deadline's timer cannot stop)."""
    left = time_left()
    if left is None:
        return params.time_limit
    left = max(left, 0.001)
    return left if params.time_limit is None else min(params.time_limit, left)


def _deadline_rules(params: Params) -> bool:
    """Whether a solve's limit is what is left of the command's deadline (nearer than its own)."""
    left = time_left()
    return left is not None and (params.time_limit is None or left < params.time_limit)


@dataclass
class Stats:
    """What a service call cost (for benchmarks and tests)."""

    solves: int = 0


def _dump(model: cp_model.CpModel, label: str) -> None:
    folder = os.environ.get(DUMP_ENV)
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in label) or "model"
    model.export_to_file(os.path.join(folder, f"{safe}-{os.getpid()}-{next(_dumped):05d}.pb.txt"))


@dataclass(frozen=True)
class Solved:
    """One solve: the solver (to read values from), whether a solution exists, the status name."""

    solver: cp_model.CpSolver
    feasible: bool
    status: str  # OPTIMAL, FEASIBLE, INFEASIBLE, UNKNOWN (the last only after a callback's solutions)

    def value(self, e: Linear) -> int:
        return int(self.solver.value(e))


def solve(model: cp_model.CpModel, label: str, params: Params = Params(), *,
          callback: Optional[cp_model.CpSolverSolutionCallback] = None, enumerate_all: bool = False,
          stats: Optional[Stats] = None) -> Solved:
    """Solve ``model`` (under its assumptions).  A solve that ends without a verdict (time
    limit) raises :class:`SolverError` naming ``label``, unless a callback is given (it may have
    seen solutions: the caller decides)."""
    _dump(model, label)
    by_deadline = _deadline_rules(params)
    s = solver(params, enumerate_all)
    status = s.solve(model, callback) if callback is not None else s.solve(model)
    if stats is not None:
        stats.solves += 1
    name = s.status_name(status)  # compared by name: the status enum's type differs across ortools 9.12-9.15
    if name in ("UNKNOWN", "FEASIBLE") and by_deadline and not getattr(callback, "stopped", False):
        # stopped by its limit, the deadline's share: the deadline's time-out, however little is left (CP-SAT
        # stops a little before its limit, by more under load: 0.05 s early was a SolverError in a train)
        raise Expired()  # its block turns it into TurnTimeout
    if name in FEASIBLE or name == "INFEASIBLE" or (name == "UNKNOWN" and callback is not None):
        return Solved(s, name in FEASIBLE, name)
    if name == "UNKNOWN" and params.time_limit:
        raise SolverError(f"the solver time limit of {params.time_limit:g} s was exceeded ({label})")
    raise SolverError(f"CP-SAT returned {name} ({label})")


# -- distinct solutions --------------------------------------------------------------------------


class _Collector(cp_model.CpSolverSolutionCallback, Generic[K]):
    def __init__(self, variables: Mapping[K, Linear], limit: int, booleans: frozenset[K]):
        super().__init__()
        self.variables, self.limit, self.booleans = variables, limit, booleans
        self.found: dict[tuple[int, ...], dict[K, int | bool]] = {}
        self.stopped = False

    def on_solution_callback(self) -> None:
        row = {k: int(self.value(v)) for k, v in self.variables.items()}
        sig = tuple(row.values())
        if sig not in self.found:
            self.found[sig] = {k: (bool(x) if k in self.booleans else x) for k, x in row.items()}
            if len(self.found) >= self.limit:
                self.stopped = True  # the search ended here, not at a time limit
                self.stop_search()


def distinct_solutions(model: cp_model.CpModel, variables: Mapping[K, Linear], limit: int, label: str,
                       params: Params = Params(), booleans: Sequence[K] = (), confirm: bool = True,
                       stats: Optional[Stats] = None) -> tuple[list[dict[K, int | bool]], bool]:
    """The solutions of ``model`` projected on ``variables`` (keys in ``booleans`` read as
    bools), each distinct projection once, up to ``limit``; and whether the list is complete
    (the search ended rather than stopping at the limit).  "None" is confirmed with presolve off
    (unless ``confirm`` is false: the caller does it); if that run finds solutions, they are
    returned (every caller re-checks them in plain Python)."""
    bools = frozenset(booleans)
    for p in (params, Params(params.time_limit, params.workers, params.seed, False)):
        cb = _Collector(variables, limit, bools)
        r = solve(model, label, p, callback=cb, enumerate_all=True, stats=stats)
        if r.status == "UNKNOWN" and len(cb.found) < limit:
            raise SolverError(f"the solver time limit of {p.time_limit:g} s was exceeded ({label})"
                              if p.time_limit else f"CP-SAT stopped without an answer ({label})")
        if cb.found or not params.presolve or not confirm:
            return list(cb.found.values()), len(cb.found) < limit
    return [], True


# -- minimal unsatisfiable cores ------------------------------------------------------------------


CORE_PARAMS = Params(presolve=False)  # see minimal_core


def minimal_core(model: cp_model.CpModel, candidates: Sequence[Literal], label: str, *,
                 fixed: Sequence[Literal] = (), params: Params = CORE_PARAMS,
                 stats: Optional[Stats] = None) -> Optional[list[int]]:
    """A minimal set of ``candidates`` (their positions, ascending) that cannot all hold together
    with ``fixed``: the model is infeasible under ``fixed`` and these, and feasible under
    ``fixed`` and any proper subset of them.  ``None`` when ``fixed`` and every candidate hold
    together; ``[]`` when ``fixed`` alone is infeasible.

    The solver's own core over the assumptions (``sufficient_assumptions_for_infeasibility``,
    not minimal in general) is shrunk by QuickXplain: split the set in halves, find what the
    second half must keep given the first, then what the first must keep given that.  Each
    check is one solve under assumptions; a set of ``k`` members out of ``n`` takes about
    ``2k log2(n/k)`` solves.  The model's own assumptions are replaced.

    By default without presolve: the checks are many solves of one model under different
    assumptions, where presolve (redone for each) costs far more than the search (25 times, on a
    stage check of 100 actions with prefix sums), and a verdict of infeasibility is the one DESIGN.md asks
    to confirm without presolve anyway."""
    pos = {c.index: i for i, c in enumerate(candidates)}

    def infeasible(chosen: Sequence[int]) -> tuple[bool, list[int]]:
        model.clear_assumptions()
        model.add_assumptions([*fixed, *(candidates[i] for i in chosen)])
        r = solve(model, label, params, stats=stats)
        if r.feasible:
            return False, []
        return True, sorted(pos[x] for x in r.solver.sufficient_assumptions_for_infeasibility() if x in pos)

    try:
        if infeasible([])[0]:
            return []
        everything = list(range(len(candidates)))
        bad, core = infeasible(everything)
        if not bad:
            return None
        shrunk = core or everything
        while len(shrunk) > 1:  # the solver's core of its own core is often smaller still
            bad, again = infeasible(shrunk)
            if not bad:  # (a core that is not one: start from every candidate)
                shrunk = everything
                break
            if not again or len(again) >= len(shrunk):
                break
            shrunk = again
        return sorted(_quickxplain(infeasible, [], shrunk, False))
    finally:
        model.clear_assumptions()


def _quickxplain(infeasible: Callable[[Sequence[int]], tuple[bool, list[int]]], base: list[int],
                 rest: list[int], changed: bool) -> list[int]:
    """The members of ``rest`` that a minimal core keeps, given that ``base`` is kept and
    ``base + rest`` is infeasible (QuickXplain; ``changed``: ``base`` grew since the last check)."""
    if changed and infeasible(base)[0]:
        return []
    if len(rest) == 1:
        return rest
    half = len(rest) // 2
    first, second = rest[:half], rest[half:]
    keep2 = _quickxplain(infeasible, base + first, second, True)
    keep1 = _quickxplain(infeasible, base + keep2, first, bool(keep2))
    return keep1 + keep2


# -- lexicographic optimisation -------------------------------------------------------------------

WEIGHT_CAP = 2 ** 52  # the span of one weighted objective (exact in a double, far from int64)


def lexicographic_max(model: cp_model.CpModel, objectives: Sequence[tuple[Linear, int, int]], label: str,
                      params: Params = Params(), stats: Optional[Stats] = None) -> list[int]:
    """Maximise ``objectives`` (expression, lower bound, upper bound) in priority order: the
    best value of the first, then of the second among those, ...; returns the values and leaves
    each fixed in ``model`` (``expression == value``), so the model's solutions are then exactly
    the lexicographic optima.

    One solve serves as many consecutive objectives as fit one weighted objective (weights from
    the last: 1, then each one more than the weighted span of all after it: an increase of an
    earlier objective outweighs any change of the later ones, so the weighted optimum is the
    lexicographic one).  After a solve, an objective whose value in that solution is its upper
    bound is already at its best: it is fixed without a solve."""
    values: list[int] = []
    best: Optional[Solved] = None
    i = 0
    while i < len(objectives):
        expr, lo, hi = objectives[i]
        if lo == hi or (best is not None and int(best.value(expr)) == hi):
            values.append(hi)
            model.add(expr == hi)
            i += 1
            continue
        block: list[tuple[Linear, int, int]] = []
        span = 0
        for e, a, b in objectives[i:]:
            if block and (span + 1) * (b - a + 1) > WEIGHT_CAP:
                break
            block.append((e, a, b))
            span = (span + 1) * (b - a + 1) - 1
        weights = [1] * len(block)
        after = 0
        for j in range(len(block) - 1, -1, -1):
            weights[j] = after + 1
            after += weights[j] * (block[j][2] - block[j][1])
        model.maximize(sum(w * e for w, (e, _, _) in zip(weights, block)))
        r = solve(model, f"{label}-priority-{i + 1}", params, stats=stats)
        model.clear_objective()
        if r.status != "OPTIMAL":
            raise SolverError(f"CP-SAT could not optimise the priority level {i + 1} ({label}): {r.status}")
        for e, _, _ in block:
            v = r.value(e)
            values.append(v)
            model.add(e == v)
        best = r
        i += len(block)
    return values


# -- the engine's equations as a model ------------------------------------------------------------


class Compiler:
    """Definitions into one CP-SAT model (see the module docstring)."""

    def __init__(self, model: cp_model.CpModel, domains: Mapping[Key, tuple[int, int]]):
        self.m = model
        self.domains = domains
        self.vars: dict[Key, cp_model.IntVar] = {}
        self.cache: dict[Term, Literal] = {}
        self.int_cache: dict[IntExpr, Linear] = {}

    def var(self, name: Key) -> cp_model.IntVar:
        v = self.vars.get(name)
        if v is None:
            d = self.domains.get(name)
            v = self.m.new_bool_var(str(name)) if d is None else self.m.new_int_var(d[0], d[1], str(name))
            self.vars[name] = v
        return v

    def constant(self, value: bool) -> Literal:
        c = self.cache.get(value)
        if c is None:
            c = self.cache[value] = self.m.new_constant(1 if value else 0)
        return c

    def lit(self, f: Formula) -> Literal:
        if f is True or f is False:
            return self.constant(f)
        if isinstance(f, Var):
            return self.var(f.key)
        if isinstance(f, Not):
            return self.negate(self.lit(f.arg))
        hit = self.cache.get(f)
        if hit is not None:
            return hit
        m = self.m
        b = m.new_bool_var("")
        if isinstance(f, And):
            ls = [self.lit(g) for g in f.args]
            for x in ls:
                m.add_implication(b, x)
            m.add_bool_or([~x for x in ls] + [b])
        elif isinstance(f, Or):
            ls = [self.lit(g) for g in f.args]
            for x in ls:
                m.add_implication(x, b)
            m.add_bool_or(ls + [~b])
        elif isinstance(f, Ge):
            expr = self.linear(f.terms, 0)
            m.add(expr >= f.k).only_enforce_if(b)
            m.add(expr <= f.k - 1).only_enforce_if(~b)
        else:
            raise TypeError(f"not a boolean formula: {f!r}")
        self.cache[f] = b
        return b

    @staticmethod
    def negate(x: Literal) -> Literal:
        n = ~x
        assert isinstance(n, (cp_model.IntVar, cp_model.NotBooleanVariable))
        return n

    def term(self, t: Term) -> Linear:
        """A boolean formula as its 0/1 literal, an integer expression as a linear expression."""
        return self.lit(t) if is_formula(t) else self.integer(t)

    def linear(self, terms: Sequence[tuple[int, Term]], const: int) -> Linear:
        """A weighted sum with one coefficient per variable (nested sums flattened, a negated
        literal written ``1 - x``): ``x - x`` is 0 here, not left to the solver (ortools 9.12
        mishandles a variable repeated in one linear constraint)."""
        coefs: dict[int, int] = {}
        by_index: dict[int, cp_model.IntVar] = {}
        const += self._collect(terms, 1, coefs, by_index)
        live = [i for i in sorted(coefs) if coefs[i]]
        if not live:
            return const
        return cp_model.LinearExpr.weighted_sum([by_index[i] for i in live], [coefs[i] for i in live]) + const

    def _collect(self, terms: Sequence[tuple[int, Term]], scale: int, coefs: dict[int, int],
                 by_index: dict[int, cp_model.IntVar]) -> int:
        const = 0
        for w, t in terms:
            w *= scale
            if isinstance(t, Sum):
                const += w * t.const + self._collect(t.terms, w, coefs, by_index)
                continue
            x = self.lit(t) if is_formula(t) else self.integer(t)
            if isinstance(x, int):
                const += w * x
                continue
            if isinstance(x, cp_model.NotBooleanVariable):  # 1 - x
                const += w
                w, x = -w, self.negate(x)
            assert isinstance(x, cp_model.IntVar)
            coefs[x.index] = coefs.get(x.index, 0) + w
            by_index[x.index] = x
        return const

    def bare(self, e: IntExpr) -> Linear:
        """An integer expression as a variable or a constant: a sum gets a helper equal to it
        (ortools 9.12 loses the constant of a sum inside ``add_min_equality``)."""
        x = self.integer(e)
        if isinstance(x, (int, cp_model.IntVar)):
            return x
        lo, hi = bounds_of(e, self.domains)
        h = self.m.new_int_var(lo, hi, "")
        self.m.add(h == x)
        return h

    def integer(self, e: IntExpr) -> Linear:
        if isinstance(e, int):
            return e
        if isinstance(e, IntVar):
            return self.var(e.key)
        if isinstance(e, Sum):
            return self.linear(e.terms, e.const)
        hit = self.int_cache.get(e)
        if hit is not None:
            return hit
        lo, hi = bounds_of(e, self.domains)
        t = self.m.new_int_var(lo, hi, "")
        if isinstance(e, (Min, Max)):
            args = [self.bare(a) for a in e.args]
            if isinstance(e, Min):
                self.m.add_min_equality(t, args)
            else:
                self.m.add_max_equality(t, args)
        else:
            c = self.lit(e.cond)
            self.m.add(t == self.integer(e.then)).only_enforce_if(c)
            self.m.add(t == self.integer(e.other)).only_enforce_if(~c)
        self.int_cache[e] = t
        return t

    def define(self, name: Key, d: Definition) -> None:
        x = self.var(name)
        if name in self.domains:
            self.m.add(x == self.term(d))
        elif d is True or d is False:
            self.m.add(x == (1 if d else 0))
        elif is_formula(d):
            self.m.add(x == self.lit(d))
        else:
            self.m.add(x == self.integer(d))


def _read(values: Mapping[Key, int | bool], domains: Mapping[Key, tuple[int, int]]) -> dict[Key, Value]:
    return {n: (int(v) if n in domains else bool(v)) for n, v in values.items()}


def model_of(defs: Mapping[Key, Definition], domains: Mapping[Key, tuple[int, int]],
             names: Optional[Sequence[Key]] = None) -> tuple[cp_model.CpModel, Compiler]:
    """A model of the definitions of ``names`` (all of ``defs`` by default), and its compiler
    (``compiler.var(key)`` is a decision's variable), for a caller that adds constraints or
    objectives of its own before solving through this service."""
    model = new_model()
    comp = Compiler(model, domains)
    for n in (defs if names is None else names):
        comp.define(n, defs[n])
    return model, comp


def solve_group(defs: Mapping[Key, Definition], domains: Mapping[Key, tuple[int, int]], names: list[Key],
                known: Mapping[Key, Value], limit: int, presolve: bool = True,
                time_limit: float | None = None) -> list[dict[Key, Value]]:
    """All solutions (up to ``limit``) of the definitions of ``names`` with ``known`` fixed (with
    ``presolve``: a "none" is confirmed by the caller, who may want to know)."""
    model = new_model()
    comp = Compiler(model, domains)
    for n in names:
        comp.define(n, substitute_def(defs[n], known))
    vs = {n: comp.var(n) for n in names}
    params = Params(time_limit=time_limit, presolve=presolve)
    label = f"component of {len(names)} decisions"
    if limit == 1:
        r = solve(model, label, params)
        return [_read({n: r.value(v) for n, v in vs.items()}, domains)] if r.feasible else []
    found, _ = distinct_solutions(model, vs, limit, f"cycle of {len(names)} decisions",
                                  Params(time_limit=time_limit, presolve=presolve), confirm=False)
    return [_read(f, domains) for f in found]


def forcing_core(defs: Mapping[Key, Definition], domains: Mapping[Key, tuple[int, int]], values: Mapping[Key, Value],
                 key: Key, keep: Sequence[Key] = ()) -> list[Key] | None:
    """A minimal set of other decisions whose values force the value of ``key``.

    The model holds the definition of ``key`` (and of the decisions in ``keep``, e.g. the rest
    of its cycle); every other decision it refers to is free, tied to its value by an assumption
    literal.  ``key`` is required to differ from its value; if that is infeasible without any
    assumption, the definition alone forces it (``[]``); if it is feasible under all the
    assumptions, nothing forces it (``None``).  Otherwise :func:`minimal_core` over the
    assumptions, in key order."""
    model = new_model()
    comp = Compiler(model, domains)
    inside = [key] + [k for k in keep if k != key]
    for n in inside:
        comp.define(n, defs[n])
    target = comp.var(key)
    model.add(target != int(values[key]))
    others = sorted(n for n in comp.vars if n not in inside)
    flags: list[cp_model.IntVar] = []
    for n in others:
        b = model.new_bool_var(f"assume {n}")
        model.add(comp.var(n) == int(values[n])).only_enforce_if(b)
        flags.append(b)
    core = minimal_core(model, flags, f"why {key}")
    return None if core is None else [others[i] for i in core]


def enumerate_space(defs: Mapping[Key, Definition], domains: Mapping[Key, tuple[int, int]],
                    groups: Sequence[Sequence[Key]], limit: int, time_limit: float | None = None) -> tuple[list[dict[Key, Value]], bool]:
    """Every reading of the rules and every consistent resolution under it, from ONE model.

    ``defs`` may refer to option literals (keys in ``groups``, one group per option, one literal
    per value) that no definition defines: they are the model's categorical variables, exactly
    one literal of each group true, and a definition that depends on an option holds each
    value's formula under that value's literal.  Each solution is one assignment of the options
    (its literals) and one consistent resolution of the equations under it, before any backup
    rule.  Returns the solutions (up to ``limit``) and whether the limit cut the enumeration."""
    model = new_model()
    comp = Compiler(model, domains)
    names = list(defs)
    for n in names:
        comp.define(n, defs[n])
    lits = [k for g in groups for k in g]
    for g in groups:
        model.add_exactly_one([comp.var(k) for k in g])
    keys = names + lits
    found, complete = distinct_solutions(model, {k: comp.var(k) for k in keys}, limit + 1,
                                         "the readings of a turn", Params(time_limit=time_limit))
    return [_read(f, domains) for f in found[:limit]], len(found) > limit
