"""Every reading of the rules at once: ``dipsat readings FILE``.

A turn is adjudicated under every assignment of the rule options that touch it, and each order's
outcome is given as a function of the options: the smallest conditions that decide it
("F Wales - English Channel: moved iff convoy_paradox_rule ≠ all_hold, else bounced"), the
number of distinct outcomes of the whole turn, and the options that never matter for it.

How (see :mod:`dipsat.engine.option_space` for the machinery):

1. **Outside the model**, the orders are bound and the movement equations built under a scope in
   which every categorical option is free.  An option the binder or the encoder reads directly
   (coast handling, adjacent convoys, duplicate orders, the convoy path rule, ...) changes how
   orders are read or which decisions exist: the scope splits on it and the stage runs once per
   value (:func:`~dipsat.engine.option_space.split_by_reads`).
2. **In the model**, an option the movement rules ask for through
   :meth:`~dipsat.rules.RuleOptions.choose` (they declare the formula option-dependent) becomes a
   categorical variable: one literal per value, exactly one true, each value's formula enforced
   only under its literal.  One equation system covers every value of those options.
3. Each assignment of the in-model options fixes the literals; the system specialised to them is
   the one the single-preset path builds.  Assignments whose specialised systems are identical
   are one class.  **One CP-SAT enumeration** of the system with its literals gives every
   (assignment, consistent resolution) pair; each class's cyclic components are then taken in
   dependency order, as :func:`dipsat.engine.equations.solve_system` does for one preset, with their
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
game of another family (:mod:`dipsat.game.protocol`) has no one model: its request is adjudicated once
per class of the options the runs read (:func:`protocol_readings`); the output says so.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, Optional, Sequence, TypeVar, cast

from pydantic import BaseModel

from dipsat.game.api import adjudicate
from dipsat.game.positions import _power_name, build_owners, build_position, resolve_rules
from dipsat.game.request import TurnRequest
from dipsat.engine.equations import (
    Backup,
    Component,
    Solution,
    System,
    acyclic_value,
    check_value,
    strongly_connected,
)
from dipsat.errors import DipsatError, SolverError
from dipsat.engine.formulas import (
    Key,
    Value,
    substitute_def,
    variables,
)
from dipsat.engine.option_space import (
    Assignment,
    Leaf,
    Scope,
    Wanted,
    assignments,
    categorical_options,
    literal_key,
    option_values,
    recording,
    split_by_reads,
)
from dipsat.records import dataclass
from dipsat.rules import RuleOptions

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
    family: bool = False  # no one model (another game family, or a game of several phases): one run per class
    runs_note: str = "a game of its own family: its phases are not one equation system"  # why, when ``family``

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
    from dipsat.game.registry import find_variant

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
    from dipsat.engine.cpsat import enumerate_space

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
    """The single-preset solve (:func:`dipsat.engine.equations.solve_system`: components in dependency
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
    from dipsat.engine.cpsat import solve_group

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
        values[x] = acyclic_value(system, defs, values, x)

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
    (:mod:`dipsat.game.protocol`): there is no one model, so the request is adjudicated once per
    class of assignments, splitting only on the options a run actually reads
    (:func:`dipsat.engine.option_space.split_by_reads`: brute force over a decision tree of the options
    consulted).  The options the file (``data``: its ``options`` table) or ``options`` set are
    not enumerated.  An error or refusal is that reading's outcome."""
    from dipsat.game.protocol import Engine

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
    from dipsat.game.registry import find_variant

    variant = find_variant(req.variant)
    base = resolve_rules(variant, req, rules)
    plain = req.model_copy(update={"options": {}})
    todo = list(only) if only is not None else assignments(type(base), list(options))
    return [(a, outcome_rows(adjudicate(plain, rules=base.with_(**a)))) for a in todo]
