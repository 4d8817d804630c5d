"""Integer decisions beside the booleans: exact definitions, counting, cycles, verification."""

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from dipsat.engine import cpsat, equations
from dipsat.engine.equations import System, check_value, enumerate_all, enumerate_cycle, solve_system, strongly_connected
from dipsat.engine.formulas import AND, GE, IF, INT, MAX, MIN, NOT, OR, SUM, VAR, Key, variables
from dipsat.errors import SolverError

A, B, C = Key("a", 0), Key("b", 0), Key("c", 0)
X, Y, Z, W = Key("x", 0), Key("y", 0), Key("z", 0), Key("w", 0)


def brute_force(s: System) -> list[dict]:
    """Every assignment of the decisions (booleans and each integer's domain) that satisfies
    every definition, by enumeration in plain Python."""
    names = list(s.defs)
    ranges = [range(s.domains[n][0], s.domains[n][1] + 1) if s.is_int(n) else (False, True) for n in names]
    out = []
    for combo in itertools.product(*ranges):
        values = dict(zip(names, combo))
        if all(check_value(s.domains, s.defs, values, n) for n in names):
            out.append(values)
    return out


def no_backup(*args):
    return None


def test_acyclic_integers_evaluated_directly_and_by_cpsat_agree():
    s = System()
    s.define(A, "x", True)
    s.define(B, "x", False)
    s.define_int(X, "strength", SUM([(1, VAR(A)), (2, VAR(B)), (3, True)]))   # 4
    s.define_int(Y, "strength", MAX(INT(X), 6))                               # 6
    s.define_int(Z, "strength", SUM([(1, MIN(INT(X), INT(Y))), (-1, INT(Y))]))  # -2
    s.define_int(W, "losses", IF(GE([(1, INT(X)), (-1, INT(Y))], 0), 1, 5))  # x >= y? no: 5
    s.define(C, "x", GE([(1, INT(Z)), (1, INT(W))], 3))                       # 3 >= 3
    assert s.domains[X] == (3, 6) and s.domains[Y] == (6, 6) and s.domains[Z] == (-3, 0)
    direct = solve_system(s, no_backup)
    full = solve_system(s, no_backup, all_cpsat=True)
    assert direct.values == full.values == {A: True, B: False, X: 4, Y: 6, Z: -2, W: 5, C: True}
    assert direct.calls == 0 and full.calls == 1
    assert [direct.values] == brute_force(s) == enumerate_all(s)


def test_an_integer_cycle_is_counted_exactly():
    s = System()
    s.define_int(X, "count", INT(Y), 0, 3)
    s.define_int(Y, "count", INT(X), 0, 3)
    s.define_int(Z, "count", MIN(INT(X), 2))  # helpers of min/max are defined exactly: no extra solutions
    seen = {}

    def backup(members, defs, count):
        seen["count"] = count
        return ("other_cycle", "zero", {m: 0 for m in members})

    sol = solve_system(s, backup, limit=10)
    assert seen["count"] == 4 and sol.components[0].resolutions == 4
    assert sol.values == {X: 0, Y: 0, Z: 0}
    assert len(enumerate_all(s)) == len(brute_force(s)) == 4


def test_cycles_through_integers_and_booleans():
    # b <=> x >= 2, x = 1 + 2b: both readings are consistent
    s = System()
    s.define(B, "x", GE([(1, INT(X))], 2))
    s.define_int(X, "count", SUM([(2, VAR(B))], 1), 0, 5)
    assert sorted(sorted((str(k), v) for k, v in r.items()) for r in enumerate_all(s)) == [
        [("b #0", False), ("x #0", 1)], [("b #0", True), ("x #0", 3)]]
    assert len(brute_force(s)) == 2
    # b <=> x <= 1, x = 1 + 2b: no reading is consistent (a paradox through an integer)
    p = System()
    p.define(B, "x", GE([(-1, INT(X))], -1))
    p.define_int(X, "count", SUM([(2, VAR(B))], 1), 0, 5)
    counts = []
    sol = solve_system(p, lambda m, d, c: counts.append(c) or ("other_cycle", "fails", {B: False}))
    assert counts == [0] and brute_force(p) == []
    assert sol.values == {B: False, X: 1}


def test_counts_match_brute_force_on_mixed_systems():
    s = System()
    s.define(A, "x", NOT(VAR(B)))
    s.define(B, "x", GE([(1, INT(X)), (-1, INT(Y))], 1))
    s.define_int(X, "n", MAX(INT(Y), SUM([(1, VAR(A))])), 0, 3)
    s.define_int(Y, "n", IF(VAR(A), INT(X), 2), 0, 3)
    assert len(enumerate_all(s, limit=100)) == len(brute_force(s)) == 3


def test_verification_catches_a_wrong_value(monkeypatch):
    s = System()
    s.define_int(X, "count", INT(Y), 0, 3)
    s.define_int(Y, "count", SUM([(1, INT(X))]), 0, 3)
    s.define_int(Z, "count", SUM([(1, INT(X))], 1))
    real = cpsat.solve_group

    def lying(defs, domains, names, known, limit, **kw):
        sols = real(defs, domains, names, known, 1, **kw)
        return [{n: (v + 1 if n == Y else v) for n, v in sols[0].items()}]  # y = x + 1: wrong

    monkeypatch.setattr(cpsat, "solve_group", lying)
    monkeypatch.setattr(equations, "CYCLE_WORK", 0)  # the cycle to CP-SAT, not the small-cycle search
    with pytest.raises(SolverError, match="verification failed.*y #0"):
        solve_system(s, no_backup)
    assert not check_value(s.domains, s.defs, {X: 1, Y: 2}, Y)
    assert not check_value(s.domains, s.defs, {X: 4, Y: 4}, X)  # outside the domain 0..3


def test_domains_are_derived_or_declared():
    s = System()
    with pytest.raises(ValueError, match="refers to 'y #0'.*declare lo and hi"):
        s.define_int(X, "count", INT(Y))
    s.define_int(Y, "count", 7)
    with pytest.raises(ValueError, match="defined twice"):
        s.define_int(Y, "count", 7)
    s.define_int(X, "count", SUM([(1, INT(Y))], 1), 0, 5)  # 8 is outside the declared 0..5
    for all_cpsat in (False, True):
        with pytest.raises(SolverError, match="no solution"):
            solve_system(s, no_backup, all_cpsat=all_cpsat)


# -- small cycles without CP-SAT -------------------------------------------------------------


@st.composite
def cyclic_systems(draw) -> System:
    """A random system of 2-5 decisions (booleans and integers with domains 0..2), each defined
    over the others by a random formula or expression, so that cycles, paradoxes and several
    resolutions all occur."""
    n = draw(st.integers(2, 5))
    keys = [Key("d", i) for i in range(n)]
    is_int = [draw(st.booleans()) and i > 0 for i in range(n)]

    def ref(i: int):
        return INT(keys[i]) if is_int[i] else VAR(keys[i])

    def formula():
        i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        shape = draw(st.integers(0, 4))
        lit_i = GE([(1, ref(i))], 1) if is_int[i] else VAR(keys[i])
        lit_j = GE([(1, ref(j))], 2) if is_int[j] else VAR(keys[j])
        return [NOT(lit_i), AND(lit_i, NOT(lit_j)), OR(lit_i, lit_j),
                GE([(1, ref(i)), (-1, ref(j))], draw(st.integers(-1, 1))), lit_i][shape]

    def expression():
        i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        shape = draw(st.integers(0, 3))
        return [SUM([(1, ref(i))]), MIN(SUM([(1, ref(i)), (1, ref(j))]), 2), MAX(SUM([(1, ref(i))], -1), 0),
                IF(formula(), SUM([(1, ref(j))]), draw(st.integers(0, 2)))][shape]

    s = System()
    for i, k in enumerate(keys):
        if is_int[i]:
            s.define_int(k, "n", expression(), 0, 2)
        else:
            s.define(k, "b", formula())
    return s


def _as_set(sols: list[dict]) -> set:
    return {tuple(sorted(s.items())) for s in sols}


@settings(max_examples=300, deadline=None, derandomize=True)
@given(cyclic_systems())
def test_small_cycles_are_enumerated_as_cpsat_counts_them(s):
    """Every cyclic component of a random system that depends on nothing outside it: the search
    without CP-SAT finds exactly the resolutions CP-SAT finds (and brute force); and solving the
    whole system either way gives the same values, counts and backups."""
    names = set(s.defs)
    deps = {x: sorted(y for y in variables(s.defs[x]) if y in names) for x in sorted(names)}
    for members in strongly_connected(deps):
        if len(members) == 1 and members[0] not in deps[members[0]]:
            continue
        outside = {y for k in members for y in variables(s.defs[k])} - set(members)
        if not outside:  # a source component: compare with CP-SAT and brute force directly
            small = enumerate_cycle(s.defs, s.domains, members, deps, {}, 1000, work=10**6)
            assert small is not None
            sub = {k: s.defs[k] for k in members}
            full = cpsat.solve_group(s.defs, s.domains, list(members), {}, 1000)
            assert _as_set(small) == _as_set(full)
            part = System(defs=sub, domains={k: d for k, d in s.domains.items() if k in sub})
            assert _as_set(small) == _as_set(brute_force(part))

    def backup(members, defs, count):
        return ("other_cycle", "fails", {m: (0 if m in s.domains else False) for m in members})

    fast = solve_system(s, backup, limit=3)
    slow = solve_system(s, backup, limit=3, all_cpsat=True)
    assert fast.values == slow.values
    assert [(c.decisions, c.resolutions, c.backup) for c in fast.components] == \
        [(c.decisions, c.resolutions, c.backup) for c in slow.components]
    assert fast.calls == 0


def test_a_cycle_past_the_work_budget_goes_to_cpsat():
    """Ten decisions in a ring of 'not': the breaking set is one decision, but with a budget of
    fewer tries than its values the search declines and CP-SAT counts (two resolutions)."""
    keys = [Key("r", i) for i in range(10)]
    s = System()
    for i, k in enumerate(keys):
        s.define(k, "b", NOT(VAR(keys[(i + 1) % 10])))
    deps = {k: [keys[(i + 1) % 10]] for i, k in enumerate(keys)}
    assert enumerate_cycle(s.defs, s.domains, keys, deps, {}, 2, work=10) is None
    assert len(enumerate_cycle(s.defs, s.domains, keys, deps, {}, 5, work=20) or []) == 2
    seen = []
    sol = solve_system(s, lambda m, d, c: seen.append(c) or ("other_cycle", "fails", {k: False for k in m}))
    assert seen == [2] and sol.calls == 0
