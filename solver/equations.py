"""A system of boolean equations ``x_i <=> f_i(x)`` solved with CP-SAT, component by component.

Every adjudication decision (a move succeeds, a support is given, a convoy is carried out, a
path exists, ...) is a named boolean *decision* defined by exactly one formula over the other
decisions.  Formulas are small trees:

* ``("var", name)``, ``True`` / ``False``,
* ``("not", f)``, ``("and", (f, ...))``, ``("or", (f, ...))``,
* ``("ge", ((weight, f), ...), k)``: the weighted count of the true ``f`` is at least ``k``
  (strength comparisons).

Because each decision is defined by an exact equivalence, and every helper literal made while
compiling is exactly defined too, a system whose dependency graph has no cycle has exactly one
solution, and the number of solutions of a cyclic component is the number of consistent
resolutions of the rules.

:func:`solve_system` solves the system in topological order of its strongly connected components
(networkx): all acyclic parts between cycles in one CP-SAT call each, every cyclic component
counted exactly (0, 1, 2, ... up to a limit).  Where a cyclic component has not exactly one
resolution, a *backup* callback supplied by the rules replaces some definitions and the component
is solved again.  Every solution is finally checked in plain Python against the formulas.

The CP-SAT model is an implementation detail: callers speak in decisions and formulas.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional, Union

import networkx as nx
from ortools.sat.python import cp_model

from .errors import SolverError

Formula = Union[bool, tuple]

TRUE: Formula = True
FALSE: Formula = False


def VAR(name: str) -> Formula:
    return ("var", name)


def NOT(f: Formula) -> Formula:
    if f is True:
        return False
    if f is False:
        return True
    if f[0] == "not":
        return f[1]
    return ("not", f)


def AND(*fs: Formula) -> Formula:
    out = []
    for f in fs:
        if f is False:
            return False
        if f is True:
            continue
        if f[0] == "and":
            out.extend(f[1])
        else:
            out.append(f)
    if not out:
        return True
    if len(out) == 1:
        return out[0]
    return ("and", tuple(out))


def OR(*fs: Formula) -> Formula:
    out = []
    for f in fs:
        if f is True:
            return True
        if f is False:
            continue
        if f[0] == "or":
            out.extend(f[1])
        else:
            out.append(f)
    if not out:
        return False
    if len(out) == 1:
        return out[0]
    return ("or", tuple(out))


def GE(terms: Iterable[tuple[int, Formula]], k: int) -> Formula:
    """``sum(w for w, f in terms if f) >= k`` with constant folding."""
    const = 0
    live: list[tuple[int, Formula]] = []
    for w, f in terms:
        if w == 0 or f is False:
            continue
        if f is True:
            const += w
        else:
            live.append((w, f))
    k2 = k - const
    lo = sum(w for w, _ in live if w < 0)
    hi = sum(w for w, _ in live if w > 0)
    if lo >= k2:
        return True
    if hi < k2:
        return False
    if len(live) == 1 and live[0][0] > 0:
        return live[0][1]
    if all(w == 1 for w, _ in live) and k2 == 1:
        return OR(*(f for _, f in live))
    if all(w == 1 for w, _ in live) and k2 == len(live):
        return AND(*(f for _, f in live))
    return ("ge", tuple(live), k2)


def variables(f: Formula, out: Optional[set] = None) -> set:
    if out is None:
        out = set()
    if f is True or f is False:
        return out
    tag = f[0]
    if tag == "var":
        out.add(f[1])
    elif tag == "not":
        variables(f[1], out)
    elif tag in ("and", "or"):
        for g in f[1]:
            variables(g, out)
    else:
        for _, g in f[1]:
            variables(g, out)
    return out


def evaluate(f: Formula, values: dict[str, bool]) -> bool:
    if f is True or f is False:
        return f
    tag = f[0]
    if tag == "var":
        return values[f[1]]
    if tag == "not":
        return not evaluate(f[1], values)
    if tag == "and":
        return all(evaluate(g, values) for g in f[1])
    if tag == "or":
        return any(evaluate(g, values) for g in f[1])
    return sum(w for w, g in f[1] if evaluate(g, values)) >= f[2]


def substitute(f: Formula, values: dict[str, bool]) -> Formula:
    """Replace known decisions by constants and fold."""
    if f is True or f is False:
        return f
    tag = f[0]
    if tag == "var":
        v = values.get(f[1])
        return f if v is None else v
    if tag == "not":
        return NOT(substitute(f[1], values))
    if tag == "and":
        return AND(*(substitute(g, values) for g in f[1]))
    if tag == "or":
        return OR(*(substitute(g, values) for g in f[1]))
    return GE(((w, substitute(g, values)) for w, g in f[1]), f[2])


# ---------------------------------------------------------------------------------------------


@dataclass
class System:
    """Decisions and their defining formulas.  Insertion order is kept (callers add in sorted
    order), so the CP-SAT model is the same on every run."""

    defs: dict[str, Formula] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)  # decision -> "move", "support", ...

    def define(self, name: str, kind: str, f: Formula) -> None:
        if name in self.defs:
            raise ValueError(f"decision {name!r} defined twice")
        self.defs[name] = f
        self.kinds[name] = kind

    def graph(self) -> nx.DiGraph:
        g = nx.DiGraph()
        g.add_nodes_from(self.defs)
        for x, f in self.defs.items():
            for y in sorted(variables(f)):
                g.add_edge(x, y)  # x depends on y
        return g


@dataclass
class Component:
    """A cyclic component and what happened to it."""

    decisions: tuple[str, ...]
    resolutions: int  # exact count, capped at the limit
    solutions: list[dict[str, bool]]
    backup: Optional[tuple[str, str]] = None  # (kind, rule) when a backup rule was applied
    overrides: dict[str, Formula] = field(default_factory=dict)


@dataclass
class Solution:
    values: dict[str, bool]
    components: list[Component]
    defs: dict[str, Formula]  # the definitions in force (after backup overrides)
    calls: int = 0


# A backup callback: given the component's decisions, the current definitions and the count,
# return (kind, rule name, overrides) or None to leave the component unresolved (error).
Backup = Callable[[tuple[str, ...], dict[str, Formula], int], Optional[tuple[str, str, dict[str, Formula]]]]


class _Model(cp_model.CpModel):
    """CP-SAT model without the per-instance aliases of the deprecated camel-case API (building
    them costs more than solving a typical turn)."""

    def _add_pre_pep8_methods(self) -> None:
        pass


class _Compiler:
    def __init__(self, model: cp_model.CpModel):
        self.m = model
        self.vars: dict[str, cp_model.IntVar] = {}
        self.cache: dict[Formula, object] = {}

    def var(self, name: str):
        v = self.vars.get(name)
        if v is None:
            v = self.vars[name] = self.m.new_bool_var(name)
        return v

    def lit(self, f: Formula):
        if f is True or f is False:
            c = self.cache.get(f)
            if c is None:
                c = self.cache[f] = self.m.new_constant(1 if f else 0)
            return c
        tag = f[0]
        if tag == "var":
            return self.var(f[1])
        if tag == "not":
            return ~self.lit(f[1])
        hit = self.cache.get(f)
        if hit is not None:
            return hit
        m = self.m
        b = m.new_bool_var("")
        if tag == "and":
            ls = [self.lit(g) for g in f[1]]
            for l in ls:
                m.add_implication(b, l)
            m.add_bool_or([~l for l in ls] + [b])
        elif tag == "or":
            ls = [self.lit(g) for g in f[1]]
            for l in ls:
                m.add_implication(l, b)
            m.add_bool_or(ls + [~b])
        else:
            expr = sum(w * self.lit(g) for w, g in f[1])
            m.add(expr >= f[2]).only_enforce_if(b)
            m.add(expr <= f[2] - 1).only_enforce_if(~b)
        self.cache[f] = b
        return b

    def define(self, name: str, f: Formula) -> None:
        x = self.var(name)
        if f is True or f is False:
            self.m.add(x == (1 if f else 0))
            return
        l = self.lit(f)
        self.m.add(x == l)


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, names: list[str], vars_: list, limit: int):
        super().__init__()
        self.names, self.vars_, self.limit = names, vars_, limit
        self.found: list[dict[str, bool]] = []

    def on_solution_callback(self) -> None:
        self.found.append({n: bool(self.value(v)) for n, v in zip(self.names, self.vars_)})
        if len(self.found) >= self.limit:
            self.stop_search()


def _solve_group(defs: dict[str, Formula], names: list[str], known: dict[str, bool], limit: int,
                 presolve: bool = True, time_limit: float | None = None) -> list[dict[str, bool]]:
    """All solutions (up to ``limit``) of the definitions of ``names`` with ``known`` fixed."""
    model = _Model()
    comp = _Compiler(model)
    for n in names:
        comp.define(n, substitute(defs[n], known))
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers = 1
    p.random_seed = 0
    if time_limit:
        p.max_time_in_seconds = time_limit
    if not presolve:
        p.cp_model_presolve = False
    vs = [comp.var(n) for n in names]
    if limit == 1:
        status = solver.solve(model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return [{n: bool(solver.value(v)) for n, v in zip(names, vs)}]
        if status == cp_model.INFEASIBLE:
            return []
        if status == cp_model.UNKNOWN and time_limit:
            raise SolverError(f"the solver time limit of {time_limit:g} s was exceeded on a component of {len(names)} decisions")
        raise SolverError(f"CP-SAT returned {solver.status_name(status)} on a component of {len(names)} decisions")
    p.enumerate_all_solutions = True
    cb = _Collector(names, vs, limit)
    status = solver.solve(model, cb)
    if status == cp_model.UNKNOWN and len(cb.found) < limit:
        raise SolverError(f"the solver time limit of {time_limit:g} s was exceeded while counting the resolutions of a cycle of {len(names)} decisions"
                          if time_limit else f"CP-SAT stopped without an answer on a cycle of {len(names)} decisions")
    return cb.found


def solve_system(system: System, backup: Backup, limit: int = 2,
                 time_limit: float | None = None) -> Solution:
    """Solve by components; see the module docstring.

    ``limit`` caps the count of resolutions of each cyclic component (2 is enough to decide
    "exactly one"; exploration asks for more).
    """
    defs = dict(system.defs)
    values: dict[str, bool] = {}
    components: list[Component] = []
    calls = [0]

    def run(names: list[str], known: dict[str, bool], lim: int) -> list[dict[str, bool]]:
        calls[0] += 1
        sols = _solve_group(defs, names, known, lim, time_limit=time_limit)
        if not sols:  # confirm "no resolution" with presolve off
            calls[0] += 1
            sols = _solve_group(defs, names, known, lim, presolve=False, time_limit=time_limit)
        return sols

    def solve_names(names: set[str]) -> None:
        deps = {x: sorted(y for y in variables(defs[x]) if y in names) for x in sorted(names)}
        pending: list[str] = []
        for members in strongly_connected(deps):
            cyclic = len(members) > 1 or members[0] in deps[members[0]]
            if not cyclic:
                pending.extend(members)
                continue
            if pending:
                sol = run(pending, values, 1)
                if len(sol) != 1:
                    raise SolverError("an acyclic part of the turn had no solution: the rules' equations are inconsistent")
                values.update(sol[0])
                pending = []
            sols = run(members, values, limit)
            comp = Component(tuple(members), len(sols), sols)
            components.append(comp)
            if len(sols) == 1:
                values.update(sols[0])
                continue
            decision = backup(tuple(members), defs, len(sols))
            if decision is None:
                raise SolverError(f"{len(sols)} resolutions of a cycle and no backup rule for it: {', '.join(members)}")
            kind, rule, overrides = decision
            comp.backup = (kind, rule)
            comp.overrides = overrides
            defs.update(overrides)
            solve_names(set(members))
        if pending:
            sol = run(pending, values, 1)
            if len(sol) != 1:
                raise SolverError("an acyclic part of the turn had no solution: the rules' equations are inconsistent")
            values.update(sol[0])

    solve_names(set(defs))
    # independent check in plain Python
    bad = [x for x, f in defs.items() if evaluate(f, values) != values[x]]
    if bad:
        raise SolverError(f"verification failed: CP-SAT's resolution violates the equations of {', '.join(sorted(bad)[:5])}")
    return Solution(values, components, defs, calls[0])


def strongly_connected(deps: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's algorithm (iterative).  ``deps[x]`` lists what ``x`` depends on.  Components come
    out dependencies first, each sorted; the order is fixed by the (sorted) input."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in deps:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack.add(v)
            recurse = False
            children = deps[v]
            while i < len(children):
                w = children[i]
                i += 1
                if w not in index:
                    work.append((v, i))
                    work.append((w, 0))
                    recurse = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if recurse:
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
    return out


def enumerate_all(system: System, limit: int = 64) -> list[dict[str, bool]]:
    """Every consistent resolution of the whole system (no backup rule), up to ``limit``."""
    names = list(system.defs)
    return _solve_group(system.defs, names, {}, limit)
