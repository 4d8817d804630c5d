"""The CP-SAT side of :mod:`dipsat.equations`: compiling definitions into a model and solving it.

Imported only when a turn has a cycle too large for :func:`dipsat.equations.enumerate_cycle`, when
everything is sent to CP-SAT on purpose, or when a research command runs (OR-Tools' ``cp_model`` pulls numpy and pandas: a third of a second).

Compilation keeps the exactness of the equations: a boolean decision ``x <=> f`` becomes
``x == lit(f)`` where every helper literal of an ``and``/``or``/``>=`` is defined in both
directions (two-sided reification); an integer decision ``x = e`` becomes ``x == e`` with the
decision's domain, ``min``/``max`` a helper with ``add_min_equality``/``add_max_equality``, and
``if`` a helper equal to one branch or the other under the condition's literal.  No helper is
ever free, so solutions are counted exactly.  Variables are named after their decisions
(``move #3``) and created in the callers' order, so the model is the same on every run.
"""

from __future__ import annotations

from typing import Mapping, Sequence, Union

from ortools.sat.python import cp_model

from .equations import (And, Definition, Formula, Ge, If, IntExpr, IntVar, Key, Max, Min, Not, Or, Sum, Term, Value,
                        Var, bounds_of, is_formula, substitute_def)
from .errors import SolverError

Literal = Union[cp_model.IntVar, cp_model.NotBooleanVariable]  # a boolean variable or its negation
Linear = Union[cp_model.LinearExprT, int]


class Model(cp_model.CpModel):
    """CP-SAT model without the per-instance aliases of the deprecated camel-case API (building
    them costs more than solving a typical turn)."""

    def _add_pre_pep8_methods(self) -> None:
        pass


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
        return sum((w * self.term(t) for w, t in terms), const)

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
        if isinstance(e, Min):
            self.m.add_min_equality(t, [self.integer(a) for a in e.args])
        elif isinstance(e, Max):
            self.m.add_max_equality(t, [self.integer(a) for a in e.args])
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


def new_solver(presolve: bool = True, time_limit: float | None = None) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers = 1
    p.random_seed = 0
    if time_limit:
        p.max_time_in_seconds = time_limit
    if not presolve:
        p.cp_model_presolve = False
    return solver


def _read(solver: cp_model.CpSolver | cp_model.CpSolverSolutionCallback, names: list[Key],
          vs: list[cp_model.IntVar], domains: Mapping[Key, tuple[int, int]]) -> dict[Key, Value]:
    return {n: (int(solver.value(v)) if n in domains else bool(solver.value(v))) for n, v in zip(names, vs)}


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, names: list[Key], vars_: list[cp_model.IntVar], domains: Mapping[Key, tuple[int, int]], limit: int):
        super().__init__()
        self.names, self.vars_, self.domains, self.limit = names, vars_, domains, limit
        self.found: list[dict[Key, Value]] = []

    def on_solution_callback(self) -> None:
        self.found.append(_read(self, self.names, self.vars_, self.domains))
        if len(self.found) >= self.limit:
            self.stop_search()


def solve_group(defs: Mapping[Key, Definition], domains: Mapping[Key, tuple[int, int]], names: list[Key],
                known: Mapping[Key, Value], limit: int, presolve: bool = True,
                time_limit: float | None = None) -> list[dict[Key, Value]]:
    """All solutions (up to ``limit``) of the definitions of ``names`` with ``known`` fixed."""
    model = Model()
    comp = Compiler(model, domains)
    for n in names:
        comp.define(n, substitute_def(defs[n], known))
    solver = new_solver(presolve, time_limit)
    vs = [comp.var(n) for n in names]
    if limit == 1:
        status = solver.solve(model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return [_read(solver, names, vs, domains)]
        if status == cp_model.INFEASIBLE:
            return []
        if status == cp_model.UNKNOWN and time_limit:
            raise SolverError(f"the solver time limit of {time_limit:g} s was exceeded on a component of {len(names)} decisions")
        raise SolverError(f"CP-SAT returned {solver.status_name(status)} on a component of {len(names)} decisions")
    solver.parameters.enumerate_all_solutions = True
    cb = _Collector(names, vs, domains, limit)
    status = solver.solve(model, cb)
    if status == cp_model.UNKNOWN and len(cb.found) < limit:
        raise SolverError(f"the solver time limit of {time_limit:g} s was exceeded while counting the resolutions of a cycle of {len(names)} decisions"
                          if time_limit else f"CP-SAT stopped without an answer on a cycle of {len(names)} decisions")
    return cb.found


def forcing_core(defs: Mapping[Key, Definition], domains: Mapping[Key, tuple[int, int]], values: Mapping[Key, Value],
                 key: Key, keep: Sequence[Key] = ()) -> list[Key] | None:
    """A minimal set of other decisions whose values force the value of ``key``.

    The model holds the definition of ``key`` (and of the decisions in ``keep``, e.g. the rest
    of its cycle); every other decision it refers to is free, tied to its value by an assumption
    literal.  ``key`` is required to differ from its value; if that is infeasible without any
    assumption, the definition alone forces it (``[]``); if it is feasible under all the
    assumptions, nothing forces it (``None``).  Otherwise CP-SAT's core over the assumptions
    (``sufficient_assumptions_for_infeasibility``) is shrunk to a minimal one by leaving out one
    assumption at a time, in key order.
    """
    model = Model()
    comp = Compiler(model, domains)
    inside = [key] + [k for k in keep if k != key]
    for n in inside:
        comp.define(n, defs[n])
    target = comp.var(key)
    model.add(target != int(values[key]))
    others = sorted(n for n in comp.vars if n not in inside)
    flags: dict[Key, cp_model.IntVar] = {}
    for n in others:
        b = flags[n] = model.new_bool_var(f"assume {n}")
        model.add(comp.var(n) == int(values[n])).only_enforce_if(b)

    def infeasible(assumed: Sequence[Key]) -> tuple[bool, list[Key]]:
        model.clear_assumptions()
        model.add_assumptions([flags[n] for n in assumed])
        solver = new_solver()
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            core = set(solver.sufficient_assumptions_for_infeasibility())
            return True, [n for n in assumed if flags[n].index in core]
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return False, []
        raise SolverError(f"CP-SAT returned {solver.status_name(status)} while explaining {key}")

    if infeasible([])[0]:
        return []
    ok, core = infeasible(others)
    if not ok:
        return None
    keep_core = core or list(others)
    for n in list(keep_core):
        trial = [x for x in keep_core if x != n]
        if infeasible(trial)[0]:
            keep_core = trial
    return keep_core


def enumerate_space(defs: Mapping[Key, Definition], domains: Mapping[Key, tuple[int, int]],
                    groups: Sequence[Sequence[Key]], limit: int, time_limit: float | None = None) -> tuple[list[dict[Key, Value]], bool]:
    """Every reading of the rules and every consistent resolution under it, from ONE model.

    ``defs`` may refer to option literals (keys in ``groups``, one group per option, one literal
    per value) that no definition defines: they are the model's categorical variables, exactly
    one literal of each group true, and a definition that depends on an option holds each
    value's formula under that value's literal.  Each solution is one assignment of the options
    (its literals) and one consistent resolution of the equations under it, before any backup
    rule.  Returns the solutions (up to ``limit``) and whether the limit cut the enumeration."""
    model = Model()
    comp = Compiler(model, domains)
    names = list(defs)
    for n in names:
        comp.define(n, defs[n])
    lits = [k for g in groups for k in g]
    for g in groups:
        model.add_exactly_one([comp.var(k) for k in g])
    keys = names + lits
    solver = new_solver(time_limit=time_limit)
    solver.parameters.enumerate_all_solutions = True
    cb = _Collector(keys, [comp.var(k) for k in keys], domains, limit + 1)
    status = solver.solve(model, cb)
    if status == cp_model.UNKNOWN and len(cb.found) <= limit:
        raise SolverError("CP-SAT stopped without an answer while enumerating the readings of a turn")
    return cb.found[:limit], len(cb.found) > limit
