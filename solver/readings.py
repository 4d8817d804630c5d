"""Every reading of the rules at once: ``dipsat readings FILE``.

A turn is adjudicated under every assignment of the rule options that touch it, and each order's
outcome is given as a function of the options: the smallest conditions that decide it
("F Wales - English Channel: moved iff convoy_paradox_rule ≠ all_hold, else bounced"), the
number of distinct outcomes of the whole turn, and the options that never matter for it.

How (see :mod:`dipsat.option_space` for the machinery):

1. **Outside the model**, the orders are bound and the movement equations built under a scope in
   which every categorical option is free.  An option the binder or the encoder reads directly
   (coast handling, adjacent convoys, duplicate orders, the convoy path rule, ...) changes how
   orders are read or which decisions exist: the scope splits on it and the stage runs once per
   value (:func:`~dipsat.option_space.split_by_reads`).
2. **In the model**, an option the movement rules ask for through
   :meth:`~dipsat.rules.RuleOptions.choose` (they declare the formula option-dependent) becomes a
   categorical variable: one literal per value, exactly one true, each value's formula enforced
   only under its literal.  One equation system covers every value of those options.
3. Each assignment of the in-model options fixes the literals; the system specialised to them is
   the one the single-preset path builds.  Assignments whose specialised systems are identical
   are one class.  **One CP-SAT enumeration** of the system with its literals gives every
   (assignment, consistent resolution) pair; each class's cyclic components are then taken in
   dependency order, as :func:`dipsat.equations.solve_system` does for one preset, with their
   resolutions read from that class's share of the enumeration (:func:`solve_from_space`), and
   the backup rule of *its* assignment (read under a scope again, so a backup rule that consults
   an option splits on it) applied to them.  Circular movement chooses one of the consistent
   resolutions (every move of the cycle succeeds); a paradox rule (Szykman, all hold) does when
   the convoys it fails or the moves it holds are those of a consistent resolution.  Where a
   cycle has no consistent resolution (Pandin's paradox) or the rule's values match none, the
   backup rule *changes the equations*: that component, and what depends on it, is counted again
   by CP-SAT for that class only (the counts are printed: "cycles counted from the one model: n,
   re-solved: m").  The same holds where something downstream of a cycle is itself cyclic or an
   integer decision (the enumeration then need not show every resolution of the cycle).  Each
   class is explained; solutions are shared between classes whose systems and backup readings
   agree.

Phases other than movement (retreats, adjustments) are enumerated outside the model only.  A
game of another family (:mod:`dipsat.protocol`) has no one model: its request is adjudicated once
per class of the options the runs read (:func:`protocol_readings`); the output says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Callable, Optional, Sequence, TypeVar, cast

from pydantic import BaseModel

from .api import TurnRequest, adjudicate, build_owners, build_position, resolve_rules, _power_name
from .equations import Backup, Component, Solution, System, check_value, strongly_connected
from .formulas import Key, Value, evaluate, is_formula, substitute_def, value_of, variables
from .errors import DipsatError, SolverError
from .option_space import Assignment, Leaf, Scope, Wanted, literal_key, assignments, categorical_options, option_values, recording, split_by_reads
from .rules import RuleOptions

T = TypeVar("T")
MAX_ASSIGNMENTS = 20000  # full assignments of the touching options expanded into the table


@dataclass(frozen=True)
class OrderOutcome:
    order: str  # "Power: text"
    result: str
    reason: str


@dataclass
class Reading:
    """One class of readings: every assignment agreeing with ``assignment`` gives ``outcomes``."""

    assignment: Assignment
    outcomes: tuple[OrderOutcome, ...]
    after: tuple[str, ...]  # the units after the turn
    before_backup: Optional[int] = None  # consistent resolutions before any backup rule (movement)


@dataclass
class Readings:
    model: type[RuleOptions]
    candidates: list[str]  # the options enumerated
    classes: list[Reading]
    options: list[str] = field(default_factory=list)  # the options some stage read or split on
    table: list[tuple[Assignment, Reading]] = field(default_factory=list)  # full assignments of ``options``
    in_model: list[str] = field(default_factory=list)  # options the equations were split on
    outside: list[str] = field(default_factory=list)  # options binding or encoding read directly
    solves: int = 0  # distinct equation systems solved
    space_calls: int = 0  # one-model enumerations of the in-model readings
    space_capped: bool = False
    stats: "SpaceStats" = field(default_factory=lambda: SpaceStats())
    family: bool = False  # a variant of another game family: one run per class, no one model

    def orders(self) -> list[str]:
        seen: dict[str, None] = {}
        for _, r in self.table:
            for o in r.outcomes:
                seen.setdefault(o.order, None)
        return list(seen)


def outcome_rows(res: Any) -> tuple[tuple[OrderOutcome, ...], tuple[str, ...]]:
    """The outcomes of a result of any phase, and the position after it."""
    movement = getattr(res, "movement", None)
    outs = list(movement.outcomes) if movement is not None else []
    outs += list(res.outcomes)
    rows = tuple(OrderOutcome(f"{o.power}: {o.text}", o.result, o.reason) for o in outs)
    pos = res.position
    rows += tuple(OrderOutcome(f"{pos.units[r.unit].label()} may retreat to",
                               ", ".join(sorted(r.open)) or "none", "")
                  for r in getattr(res, "options", ()))
    after = tuple(sorted(u.label() for u in res.after.units))
    return rows, after


# -- the enumeration -----------------------------------------------------------------------------


def _request_parts(variant: Any, req: TurnRequest) -> tuple[Any, dict[str, list[str]]]:
    pos = build_position(variant, req)
    if req.owners:
        pos = pos.model_copy(update={"owners": build_owners(variant, req)})
    orders: dict[str, list[str]] = {}
    for power, texts in req.orders.items():
        orders.setdefault(_power_name(variant, power, "orders"), []).extend(texts)
    return pos, orders


def turn_readings(req: TurnRequest, rules: str | RuleOptions | None = None, fixed: Sequence[str] = (),
                  candidates: Optional[Sequence[str]] = None) -> Readings:
    """Every reading of the turn ``req``: the options in ``candidates`` (default every
    categorical option of the variant's model except those named in ``fixed`` or the file's
    ``options``) are enumerated; the others keep the value of ``rules``."""
    from dipsat.variants import find_variant

    variant = find_variant(req.variant)
    base = resolve_rules(variant, req, rules)
    model = type(base)
    keep = set(fixed) | set(req.options)
    cands = list(candidates) if candidates is not None else [n for n in categorical_options(model) if n not in keep]
    out = Readings(model, cands, [])
    if req.phase == "movement":
        leaves = _movement(variant, req, base, model, cands, out)
    else:
        leaves = _outside(req, base, model, cands)
    for leaf in leaves:
        out.classes.append(Reading(dict(leaf.assignment), *leaf.result))
    _tabulate(out, model)
    return out


def _tabulate(out: Readings, model: type[BaseModel]) -> None:
    """The full table of ``out``: every assignment of the options some class was split on."""
    touched = {n for r in out.classes for n in r.assignment}
    out.options = [n for n in out.candidates if n in touched]
    n_full = 1
    for n in out.options:
        n_full *= len(option_values(model, n))
    if n_full > MAX_ASSIGNMENTS:
        raise DipsatError(f"readings: {n_full} assignments of {len(out.options)} options touch this turn "
                          f"(more than {MAX_ASSIGNMENTS}); fix some with --option")
    index: dict[tuple[str, ...], dict[tuple[Any, ...], Reading]] = {}
    for r in out.classes:
        names = tuple(sorted(r.assignment))
        index.setdefault(names, {})[tuple(r.assignment[n] for n in names)] = r
    for full in assignments(model, out.options):
        hit = next(by[tuple(full[n] for n in names)] for names, by in index.items() if tuple(full[n] for n in names) in by)
        out.table.append((full, hit))


def _outside(req: TurnRequest, base: RuleOptions, model: type[RuleOptions], cands: list[str]) -> list[Leaf[Any]]:
    """Every reading enumerated outside the model: the whole phase run once per class."""
    plain = req.model_copy(update={"options": {}})

    def run(scope: Scope) -> Any:
        return outcome_rows(adjudicate(plain, rules=recording(base)))

    return split_by_reads(run, model, cands)


def _movement(variant: Any, req: TurnRequest, base: RuleOptions, model: type[RuleOptions],
              cands: list[str], out: Readings) -> list[Leaf[Any]]:
    pos, orders = _request_parts(variant, req)

    encoded: dict[str, list[tuple[Assignment, tuple[Any, list[str]]]]] = {}

    def encode(scope: Scope) -> Any:
        opts = recording(base)
        bound = variant.binder(opts).bind(pos, orders)
        impl = variant.movement_rules(opts)
        # the same bound orders, encoded with the same option reads, give the same equations
        # (with the options its formulas split on, when those are free here too)
        key = _bound_key(bound)
        for reads, (enc, split) in encoded.get(key, []):
            if all(n in scope.free for n in split) and all(scope.fixed.get(n, _MISSING) == v for n, v in reads.items()):
                for n in reads:
                    scope.read(n, None)
                for n in split:
                    scope.cases(n)
                return bound, impl, enc
        start = len(scope.log)
        enc = impl.encode(bound)
        encoded.setdefault(key, []).append(({n: scope.fixed[n] for n in scope.log[start:] if n in scope.fixed},
                                            (enc, list(scope.split))))
        return bound, impl, enc

    solved: Memo = {}
    explained: Memo = {}
    spaces: dict[int, Optional[Pools]] = {}  # id(encoding) -> literal values -> its resolutions
    leaves: list[Leaf[Any]] = []
    in_model: set[str] = set()
    outside: set[str] = set()
    for outer in split_by_reads(encode, model, cands, literals=True):
        bound, impl, enc = outer.result
        outside.update(outer.assignment)
        split = list(outer.scope.split)
        in_model.update(split)
        bkey = _bound_key(bound)
        if id(enc) not in spaces:
            spaces[id(enc)] = _space(enc.system, outer.scope, out)
        pools = spaces[id(enc)]
        for inner in assignments(model, split, outer.assignment):
            lits = outer.scope.literals(inner)
            pool = None if pools is None else pools.get(tuple(lits[k] for k in sorted(lits)), [])
            before = None if pool is None else len(pool)
            spec = {k: substitute_def(d, lits) for k, d in enc.system.defs.items()}
            system = System(spec, enc.system.kinds, enc.system.domains, enc.system.labels)
            skey = repr(tuple(spec.items()))  # hashed once

            def solve(scope: Scope, system: System = system, impl: Any = impl, pool: Any = pool) -> Solution:
                out.solves += 1
                # a backup rule reads its options here
                return solve_from_space(system, impl.backup, pool, out.stats)

            def run(scope: Scope, system: System = system, skey: Any = skey, bkey: str = bkey,
                    bound: Any = bound, impl: Any = impl, solve: Any = solve, before: Optional[int] = before) -> Any:
                def explain() -> Any:
                    sol = _memo(solved, skey, scope, lambda: solve(scope))
                    enc_here = impl.encode(bound)  # this reading's own equations: its explanations
                    res = impl.explain(enc_here, sol.values, sol.components)
                    res = res.model_copy(update={"orders": tuple(bound.orders[u] for u in sorted(bound.orders))})
                    return (*outcome_rows(res), before)

                return _memo(explained, (skey, bkey), scope, explain)

            leaves.extend(split_by_reads(run, model, cands, fixed=inner))
    out.in_model = [n for n in cands if n in in_model]
    out.outside = [n for n in cands if n in outside]
    return leaves


SPACE_LIMIT = 4096  # resolutions enumerated in the one model of a turn's in-model readings


Pools = dict[tuple[bool, ...], list[dict[Key, Value]]]


def _space(system: System, scope: Scope, out: "Readings") -> Optional[Pools]:
    """The interpretation space of one encoding, from one CP-SAT model: for each assignment of
    the options its formulas split on (their literals, in key order), every consistent
    resolution of the equations before any backup rule (``None`` when there are more than
    :data:`SPACE_LIMIT` in all: the readings are then solved one system at a time)."""
    from .cpsat import enumerate_space

    groups = [[literal_key(scope.model, n, v) for v in scope.free[n]] for n in scope.split]
    sols, capped = enumerate_space(system.defs, system.domains, groups, SPACE_LIMIT)
    out.space_calls += 1
    out.space_capped = out.space_capped or capped
    if capped:
        return None
    lits = sorted(k for g in groups for k in g)
    pools: Pools = {}
    for sol in sols:
        key = tuple(bool(sol[k]) for k in lits)
        pools.setdefault(key, []).append({k: sol[k] for k in system.defs})
    return pools

# -- backup rules applied to the one model's resolutions ----------------------------------------


@dataclass
class SpaceStats:
    """Where the cyclic components of the readings' systems got their resolutions."""

    from_model: int = 0  # counted (and, under a backup rule, chosen) from the one model's resolutions
    changed: int = 0  # solved again: a backup rule upstream changed the equations (or none is consistent)
    downstream: int = 0  # solved again: a cycle or integer decision downstream may hide resolutions
    unenumerated: int = 0  # solved again: the one model had too many resolutions to list

    @property
    def resolved(self) -> int:
        return self.changed + self.downstream + self.unenumerated


def solve_from_space(system: System, backup: Backup, pool: Optional[list[dict[Key, Value]]],
                     stats: SpaceStats, limit: int = 2) -> Solution:
    """The single-preset solve (:func:`dipsat.equations.solve_system`: components in dependency
    order, acyclic decisions evaluated directly, each cyclic component's resolutions counted and
    the backup rule applied where there is not exactly one) with the cyclic components'
    resolutions taken from ``pool``: every consistent resolution of ``system`` (the one model's
    enumeration under this reading), or ``None`` when it is not known in full.

    A cyclic component's consistent resolutions, given the values decided before it, are the
    pool's resolutions that agree with those values, restricted to the component — provided every
    one of them extends to the rest of the system, which holds when nothing downstream of the
    component is cyclic or an integer decision (acyclic boolean decisions always have a value).
    A backup rule overrides some decisions of a component with constants; where the values it
    gives are those of consistent resolutions (it *chooses among* them — circular movement, or a
    Szykman/all-hold rule that keeps one of a paradox's resolutions), the pool narrowed to them
    goes on answering.  Where they are not (the rule *rejects* every consistent resolution or
    there is none: Pandin's paradox), the rule has changed the equations: the pool is dropped
    and what follows is counted by CP-SAT, as the single-preset path does."""
    from .cpsat import solve_group

    defs = dict(system.defs)
    domains = system.domains
    values: dict[Key, Value] = {}
    components: list[Component] = []
    checked: set[Key] = set()
    live = pool  # the pool's resolutions agreeing with ``values``
    calls = [0]

    def narrow(keys: Sequence[Key]) -> None:
        nonlocal live
        if live is not None:
            live = [s for s in live if all(s.get(k) == values[k] for k in keys)]

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

    def downstream_safe(members: list[Key]) -> bool:
        """Is nothing that depends on ``members`` cyclic or an integer decision?"""
        users: dict[Key, list[Key]] = {}
        for x, f in defs.items():
            if x not in values:
                for y in variables(f):
                    users.setdefault(y, []).append(x)
        inside = set(members)
        seen: set[Key] = set()
        work = [y for m in members for y in users.get(m, ()) if y not in inside]
        while work:
            y = work.pop()
            if y in seen:
                continue
            seen.add(y)
            if y in domains:
                return False
            work.extend(z for z in users.get(y, ()) if z not in inside)
        deps = {x: sorted(z for z in variables(defs[x]) if z in seen) for x in sorted(seen)}
        return all(len(c) == 1 and c[0] not in deps[c[0]] for c in strongly_connected(deps))

    def resolutions(members: list[Key]) -> list[dict[Key, Value]]:
        if live is None:
            stats.unenumerated += 1
        elif not live:
            stats.changed += 1
        elif not downstream_safe(members):
            stats.downstream += 1
        else:
            stats.from_model += 1
            out: dict[tuple[Value, ...], dict[Key, Value]] = {}
            for s in live:
                out.setdefault(tuple(s[m] for m in members), {m: s[m] for m in members})
            checked.update(members)
            return [out[k] for k in sorted(out)][:limit]
        calls[0] += 1
        sols = solve_group(defs, domains, members, values, limit)
        if not sols:  # confirm "no resolution" with presolve off
            calls[0] += 1
            sols = solve_group(defs, domains, members, values, limit, presolve=False)
        checked.update(members)
        return sols

    def solve_names(names: set[Key]) -> None:
        nonlocal live
        deps = {x: sorted(y for y in variables(defs[x]) if y in names) for x in sorted(names)}
        for members in strongly_connected(deps):
            cyclic = len(members) > 1 or members[0] in deps[members[0]]
            if not cyclic:
                direct(members[0])
                narrow(members)
                continue
            sols = resolutions(members)
            comp = Component(tuple(members), len(sols), sols)
            components.append(comp)
            if len(sols) == 1:
                values.update(sols[0])
                narrow(members)
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

    solve_names(set(defs))
    bad = [x for x in sorted(checked) if not check_value(domains, defs, values, x)]
    if bad:
        raise SolverError("verification failed: a resolution violates the equations of "
                          + ", ".join(system.name(x) for x in bad[:5]))
    return Solution(values, components, defs, calls[0])


Memo = dict[Any, list[tuple[Assignment, Any]]]


def _memo(memo: Memo, key: Any, scope: Scope, fn: Callable[[], T]) -> T:
    """``fn()``, or the result of an earlier call with the same ``key`` whose option reads the
    scope's fixed values agree with (a run is determined by its key and the options it reads)."""
    entries = memo.setdefault(key, [])
    for reads, result in entries:
        if all(scope.fixed.get(n, _MISSING) == v for n, v in reads.items()):
            for n, v in reads.items():
                scope.read(n, v)
            if isinstance(result, Wanted):
                if result.name in scope.fixed:
                    continue  # it read that option next; here it has a value: run it
                scope.read(result.name, None)  # raises Wanted
            return cast(T, result)
    start = len(scope.log)
    try:
        result = fn()
    except Wanted as w:
        entries.append(({n: scope.fixed[n] for n in scope.log[start:] if n in scope.fixed}, w))
        raise
    entries.append(({n: scope.fixed[n] for n in scope.log[start:] if n in scope.fixed}, result))
    return result


def _bound_key(b: Any) -> str:
    """Bound orders as a key: every field of the record but the position (the same for every
    reading), a variant's own fields included (e.g. the written order of supports that a cutting
    order reads), so two bindings share equations only when everything bound is the same."""
    from dataclasses import fields

    def norm(v: Any) -> Any:
        if isinstance(v, dict):
            return sorted(((repr(k), norm(x)) for k, x in v.items()))
        if isinstance(v, (set, frozenset)):
            return sorted(map(repr, v))
        return v

    return repr(tuple((f.name, norm(getattr(b, f.name))) for f in fields(b) if f.name != "position"))


_MISSING = object()


# -- other game families: one run per class of readings -----------------------------------------


def protocol_readings(game: Any, request: Any, data: Any, rules: Optional[str] = None,
                      options: Sequence[str] = ()) -> Readings:
    """Every reading of a request of a game family whose phases are not one equation system
    (:mod:`dipsat.protocol`): there is no one model, so the request is adjudicated once per
    class of assignments, splitting only on the options a run actually reads
    (:func:`dipsat.option_space.split_by_reads`: brute force over a decision tree of the options
    consulted).  The options the file (``data``: its ``options`` table) or ``options`` set are
    not enumerated.  An error or refusal is that reading's outcome."""
    from .protocol import Engine

    model = game.options_model()
    base = game.options(request, rules, tuple(options))
    doc = data if isinstance(data, dict) else {}
    keep = set(doc.get("options") or {}) if isinstance(doc.get("options") or {}, dict) else set()
    keep |= {o.partition("=")[0].strip().replace("-", "_") for o in options}
    cands = [n for n in categorical_options(model) if n not in keep]
    out = Readings(model, cands, [], family=True)

    def run(scope: Scope) -> tuple[tuple[OrderOutcome, ...], tuple[str, ...]]:
        try:
            res = game.adjudicate(request, recording(base), Engine())
        except DipsatError as exc:
            return (OrderOutcome("error", str(exc), ""),), ()
        out.solves += 1
        return tuple(OrderOutcome(k, v, "") for k, v in _flatten(phase_data(res))), ()

    for leaf in split_by_reads(run, model, cands):
        out.classes.append(Reading(dict(leaf.assignment), *leaf.result))
    _tabulate(out, model)
    return out


def phase_data(res: Any) -> dict[str, Any]:
    """What a reading of a phase of another family tells apart: each order's outcome kind, the
    position after, and the result's own details."""
    return {"outcomes": {f"{o.power}: {o.order}": o.result for o in res.outcomes},
            "units_after": res.units_after, "details": res.details or {}}


def _flatten(x: Any, prefix: str = "") -> list[tuple[str, str]]:
    """A result's JSON data as (path, value) items: dicts opened, other values as compact JSON."""
    import json

    if isinstance(x, dict) and x:
        return [kv for k in sorted(x, key=str) for kv in _flatten(x[k], f"{prefix}.{k}" if prefix else str(k))]
    return [(prefix or "result", x if isinstance(x, str) else json.dumps(x, sort_keys=True, default=str))]


# -- brute force (the reference the tests and the benchmark compare against) ---------------------


def brute_force(req: TurnRequest, options: Sequence[str], rules: str | RuleOptions | None = None,
                only: Optional[Sequence[Assignment]] = None) -> list[tuple[Assignment, tuple[tuple[OrderOutcome, ...], tuple[str, ...]]]]:
    """The turn adjudicated separately under every assignment of ``options`` (or those in
    ``only``), each through the single-preset path."""
    from dipsat.variants import find_variant

    variant = find_variant(req.variant)
    base = resolve_rules(variant, req, rules)
    plain = req.model_copy(update={"options": {}})
    todo = list(only) if only is not None else assignments(type(base), list(options))
    return [(a, outcome_rows(adjudicate(plain, rules=base.with_(**a)))) for a in todo]


# -- conditions ----------------------------------------------------------------------------------


Cube = tuple[frozenset[Any], ...]


def depends_on(model: type[RuleOptions], names: list[str], table: list[tuple[Assignment, Any]]) -> list[str]:
    """The options among ``names`` on which the values in ``table`` (a function over the full
    product of their values) depend."""
    out = []
    for n in names:
        groups: dict[tuple[Any, ...], set[Any]] = {}
        for a, v in table:
            groups.setdefault(tuple(a[m] for m in names if m != n), set()).add(v)
        if any(len(vs) > 1 for vs in groups.values()):
            out.append(n)
    return out


def conditions(model: type[RuleOptions], names: list[str], table: list[tuple[Assignment, Any]]) -> tuple[list[str], dict[Any, list[Cube]]]:
    """The options the table depends on, and for each value a small cover of the assignments
    giving it by cubes (one set of values per option)."""
    deps = depends_on(model, names, table)
    points: dict[Any, set[tuple[Any, ...]]] = {}
    for a, v in table:
        points.setdefault(v, set()).add(tuple(a[n] for n in deps))
    return deps, {v: _cover(model, deps, pts) for v, pts in points.items()}


def _cover(model: type[RuleOptions], deps: list[str], pts: set[tuple[Any, ...]]) -> list[Cube]:
    """Maximal cubes inside ``pts`` (merging cubes equal but in one option), then a greedy cover."""
    cubes: set[Cube] = {tuple(frozenset([x]) for x in p) for p in pts}
    while True:
        merged, used = _merge_pairs(cubes, len(deps))
        new = (cubes - used) | merged if merged else cubes
        new = _maximal(new)
        if new == cubes:
            break
        cubes = new
    remaining = set(pts)
    chosen: list[Cube] = []
    ranked = sorted(cubes, key=_cube_key)
    while remaining:
        best = max(ranked, key=lambda c: sum(1 for p in remaining if _inside(p, c)))
        chosen.append(best)
        remaining = {p for p in remaining if not _inside(p, best)}
    order = [option_values(model, n) for n in deps]
    return sorted(chosen, key=lambda c: tuple(tuple(sorted(vals.index(x) for x in s)) for vals, s in zip(order, c)))


def _merge_pairs(cubes: set[Cube], width: int) -> tuple[set[Cube], set[Cube]]:
    """Every two cubes that differ in exactly one option, merged there (the union of their values
    for that option), and the cubes that took part.  Two cubes differ only in option ``i`` exactly
    when they fall in the same bucket of the cubes keyed by all their other options."""
    merged: set[Cube] = set()
    used: set[Cube] = set()
    for i in range(width):
        buckets: dict[Cube, list[Cube]] = {}
        for c in cubes:
            buckets.setdefault(c[:i] + c[i + 1:], []).append(c)
        for group in buckets.values():
            for j, c1 in enumerate(group):
                for c2 in group[j + 1:]:
                    merged.add(c1[:i] + (c1[i] | c2[i],) + c1[i + 1:])
                    used.update((c1, c2))
    return merged, used


def _maximal(cubes: set[Cube]) -> set[Cube]:
    """The cubes not inside another one.  A cube is inside another exactly when its points are
    among the other's, so each cube is its set of points as a bit mask, compared only with the
    larger cubes holding one of its points (the result does not depend on which, nor on the
    order the points are numbered in)."""
    from itertools import product

    masks: dict[Cube, int] = {}
    holding: dict[tuple[Any, ...], list[int]] = {}  # a point -> the masks of the cubes holding it
    index: dict[tuple[Any, ...], int] = {}
    for c in cubes:
        m = 0
        for p in product(*c):
            m |= 1 << index.setdefault(p, len(index))
        masks[c] = m
    out: set[Cube] = set()
    for c in sorted(cubes, key=lambda c: -masks[c].bit_count()):
        m = masks[c]
        first = tuple(next(iter(s)) for s in c)  # any one of its points
        if not any(d != m and m & d == m for d in holding.get(first, ())):
            out.add(c)
        for p in product(*c):
            holding.setdefault(p, []).append(m)
    return out


def _inside(p: tuple[Any, ...], c: Cube) -> bool:
    return all(x in s for x, s in zip(p, c))


def _cube_key(c: Cube) -> tuple[Any, ...]:
    return tuple(sorted(map(repr, s)) for s in c)


def _w(x: Any) -> str:
    return str(x).lower() if isinstance(x, bool) else str(x)


def describe_cube(model: type[RuleOptions], deps: list[str], cube: Cube) -> str:
    parts = []
    for n, s in zip(deps, cube):
        values = option_values(model, n)
        if len(s) == len(values):
            continue
        if len(s) == 1:
            parts.append(f"{n} = {_w(next(iter(s)))}")
        elif len(s) == len(values) - 1:
            parts.append(f"{n} ≠ {_w(next(v for v in values if v not in s))}")
        else:
            parts.append(f"{n} ∈ {{{', '.join(_w(v) for v in values if v in s)}}}")
    return " and ".join(parts) or "always"


def describe_condition(model: type[RuleOptions], deps: list[str], cubes: list[Cube]) -> str:
    texts = [describe_cube(model, deps, c) for c in cubes]
    if len(texts) == 1:
        return texts[0]
    return " or ".join(f"({t})" if " and " in t else t for t in texts)


# -- output ---------------------------------------------------------------------------------------


@dataclass
class OrderReading:
    order: str
    depends: list[str]
    outcomes: list[tuple[str, str]]  # (result, condition), the most frequent last


def order_readings(rd: Readings, order: Optional[str] = None) -> list[OrderReading]:
    out = []
    names = rd.orders()
    if order is not None:
        want = " ".join(order.lower().split())
        hits = [n for n in names if " ".join(n.lower().split()) == want
                or " ".join(n.split(": ", 1)[-1].lower().split()) == want]
        if not hits:
            raise DipsatError(f"order {order!r} is not one of the turn's orders: " + "; ".join(names))
        names = hits
    for name in names:
        absent = "(absent)" if rd.family else "(not ordered)"
        table = [(a, next((o.result for o in r.outcomes if o.order == name), absent)) for a, r in rd.table]
        deps, covers = conditions(rd.model, rd.options, table)
        counts = {v: sum(1 for _, x in table if x == v) for v in covers}
        ordered = sorted(covers, key=lambda v: (counts[v], str(v)))
        out.append(OrderReading(name, deps, [(v, describe_condition(rd.model, deps, covers[v])) for v in ordered]))
    return out


def turn_classes(rd: Readings) -> tuple[list[str], list[tuple[str, str, Reading]]]:
    """The distinct outcomes of the whole turn: (options the turn depends on, [(summary, condition, reading)])."""
    def sig(r: Reading) -> tuple[Any, ...]:
        return tuple((o.order, o.result) for o in r.outcomes) + r.after

    table = [(a, sig(r)) for a, r in rd.table]
    deps, covers = conditions(rd.model, rd.options, table)
    rows = []
    for s, cubes in sorted(covers.items(), key=lambda kv: _cube_key(kv[1][0]) if kv[1] and kv[1][0] else ()):
        reading = next(r for a, r in rd.table if sig(r) == s)
        rows.append((s, describe_condition(rd.model, deps, cubes), reading))
    return deps, [(str(i + 1), cond, r) for i, (_, cond, r) in enumerate(rows)]


def format_readings(rd: Readings, order: Optional[str] = None) -> str:
    lines = []
    deps, classes = turn_classes(rd)
    for orr in order_readings(rd, order):
        if len(orr.outcomes) == 1:
            lines.append(f"{orr.order}: {orr.outcomes[0][0]} under every reading")
            continue
        head = "; ".join(f"{res} iff {cond}" for res, cond in orr.outcomes[:-1])
        lines.append(f"{orr.order}: {head}; else {orr.outcomes[-1][0]}")
    if order is None and rd.table and rd.table[0][1].before_backup is not None:
        table = [(a, r.before_backup) for a, r in rd.table]
        deps_b, covers = conditions(rd.model, rd.options, table)
        capped = "+" if rd.space_capped else ""
        parts = sorted(covers, key=lambda v: -1 if v is None else v)
        text = ("; ".join(f"{_count(v)}{capped} iff {describe_condition(rd.model, deps_b, covers[v])}" for v in parts[:-1])
                + ("; else " if len(parts) > 1 else "") + f"{_count(parts[-1])}{capped}" + (" under every reading" if len(parts) == 1 else ""))
        lines.append(f"Consistent resolutions before any backup rule: {text}")
    if order is None and rd.family:
        lines.append(f"Distinct outcomes: {len(classes)}" + (f" (depending on {', '.join(deps)})" if deps else ""))
        if len(classes) > 1:
            for i, cond, r in classes:
                lines.append(f"  #{i} when {cond}")
        never = [n for n in rd.candidates if n not in deps]
        lines.append(f"Options that never matter for this file ({len(never)} of {len(rd.candidates)}): " + ", ".join(never))
        lines.append(f"Enumerated: {len(rd.options)} options touch the file, {len(rd.table)} assignments; "
                     f"no one model (a game of its own family: its phases are not one equation system): "
                     f"{len(rd.classes)} runs, one per class of the options each run read")
        return "\n".join(lines)
    if order is None:
        lines.append(f"Distinct outcomes of the whole turn: {len(classes)}"
                     + (f" (depending on {', '.join(deps)})" if deps else ""))
        if len(classes) > 1:
            for i, cond, r in classes:
                lines.append(f"  #{i} when {cond}")
        never = [n for n in rd.candidates if n not in deps]
        lines.append(f"Options that never matter for this turn ({len(never)} of {len(rd.candidates)}): " + ", ".join(never))
        lines.append(f"Enumerated: {len(rd.options)} options touch the turn, {len(rd.table)} assignments; "
                     f"in the model: {', '.join(rd.in_model) or 'none'} ({rd.space_calls} one-model enumeration{'s' if rd.space_calls != 1 else ''}); "
                     f"{rd.solves} distinct equation systems solved with their backup rules; "
                     f"cycles counted from the one model: {rd.stats.from_model}, re-solved: {rd.stats.resolved}"
                     + (f" ({_resolved(rd.stats)})" if rd.stats.resolved else ""))
    return "\n".join(lines)


def _resolved(st: SpaceStats) -> str:
    parts = [(st.changed, "where no resolution is consistent or a backup rule changed the equations"),
             (st.downstream, "with a cycle or integer decision downstream"),
             (st.unenumerated, "beyond the one model's enumeration limit")]
    return ", ".join(f"{n} {why}" for n, why in parts if n)


def _count(v: Optional[int]) -> str:
    return f"not counted (more than {SPACE_LIMIT} in the one model)" if v is None else str(v)


def readings_json(rd: Readings) -> dict[str, Any]:
    deps, classes = turn_classes(rd)
    return {
        "options": rd.options,
        "in_model": rd.in_model,
        "cycles_from_model": rd.stats.from_model,
        "cycles_resolved": {"after_backup_changed_equations": rd.stats.changed,
                            "downstream_cycle_or_integer": rd.stats.downstream,
                            "beyond_enumeration_limit": rd.stats.unenumerated},
        "never_matter": [n for n in rd.candidates if n not in deps],
        "distinct_outcomes": len(classes),
        "orders": [{"order": o.order, "depends_on": o.depends,
                    "outcomes": [{"result": r, "when": c} for r, c in o.outcomes]} for o in order_readings(rd)],
        "table": [{"options": a, "outcomes": {o.order: o.result for o in r.outcomes}, "after": list(r.after),
                   "resolutions_before_backup": r.before_backup} for a, r in rd.table],
    }
