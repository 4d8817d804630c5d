"""The one CP-SAT service (dipsat.engine.cpsat): minimal cores, lexicographic optima, distinct
solutions and the model dump, each against a plain-Python reference on small random models."""

from __future__ import annotations

import random

import pytest

from dipsat.engine import cpsat


def _subset_sum_model(rng: random.Random, n: int):
    """n items with weights; literal i = item i is taken; the taken weight must stay <= cap."""
    weights = [rng.randint(1, 6) for _ in range(n)]
    cap = rng.randint(3, 12)
    m = cpsat.new_model()
    xs = [m.new_bool_var(f"x{i}") for i in range(n)]
    m.add(sum(w * x for w, x in zip(weights, xs)) <= cap)
    return m, xs, weights, cap


@pytest.mark.parametrize("seed", range(25))
def test_minimal_core_is_a_minimal_infeasible_subset(seed):
    rng = random.Random(seed)
    m, xs, weights, cap = _subset_sum_model(rng, rng.randint(1, 9))
    stats = cpsat.Stats()
    core = cpsat.minimal_core(m, xs, "test", stats=stats)
    if sum(weights) <= cap:
        assert core is None
        return
    assert core is not None and core == sorted(core)
    assert sum(weights[i] for i in core) > cap  # infeasible together
    for i in core:  # every proper subset is feasible: dropping any one member is enough to see it
        assert sum(weights[j] for j in core if j != i) <= cap
    assert stats.solves >= 2


def test_minimal_core_with_fixed_literals_and_an_empty_core():
    m = cpsat.new_model()
    a, b, c = (m.new_bool_var(n) for n in "abc")
    m.add_bool_or([~a, ~b])  # a and b exclude each other
    m.add_implication(c, a)
    assert cpsat.minimal_core(m, [b, c], "t") == [0, 1]  # b and c (c forces a) cannot both hold
    assert cpsat.minimal_core(m, [c], "t", fixed=[b]) == [0]
    assert cpsat.minimal_core(m, [c], "t", fixed=[a, b]) == []  # the fixed ones alone fail
    assert cpsat.minimal_core(m, [a, c], "t") is None


@pytest.mark.parametrize("seed", range(15))
def test_lexicographic_max_equals_one_solve_per_rank(seed):
    rng = random.Random(seed)
    n, k = rng.randint(2, 6), rng.randint(1, 5)

    def build():
        m = cpsat.new_model()
        xs = [m.new_int_var(0, rng2.randint(1, 4), f"x{i}") for i in range(n)]
        for _ in range(3):
            m.add(sum(rng2.randint(0, 2) * x for x in xs) <= rng2.randint(2, 8))
        objs = [[rng2.randint(0, 3) for _ in xs] for _ in range(k)]
        return m, xs, objs

    rng2 = random.Random(seed)
    m, xs, objs = build()
    his = [sum(c * x.proto.domain[1] for c, x in zip(o, xs)) for o in objs]
    fast = cpsat.lexicographic_max(m, [(sum(c * x for c, x in zip(o, xs)), 0, hi) for o, hi in zip(objs, his)], "t")
    rng2 = random.Random(seed)
    m2, xs2, objs2 = build()
    slow = []
    for o in objs2:  # the reference: one solve per rank, fixing each optimum
        e = sum(c * x for c, x in zip(o, xs2))
        m2.maximize(e)
        r = cpsat.solve(m2, "t")
        slow.append(r.value(e))
        m2.add(e == slow[-1])
    assert fast == slow


def test_distinct_solutions_project_and_count():
    m = cpsat.new_model()
    x = m.new_int_var(0, 3, "x")
    y = m.new_int_var(0, 3, "y")  # free: each x appears with four y, counted once
    m.add(x != 2)
    found, complete = cpsat.distinct_solutions(m, {"x": x}, 10, "t")
    assert sorted(f["x"] for f in found) == [0, 1, 3] and complete
    found, complete = cpsat.distinct_solutions(m, {"x": x, "y": y}, 5, "t")
    assert len(found) == 5 and not complete
    m.add(x == 2)
    assert cpsat.distinct_solutions(m, {"x": x}, 10, "t") == ([], True)


def test_the_dump_writes_every_model_solved(tmp_path, monkeypatch):
    monkeypatch.setenv(cpsat.DUMP_ENV, str(tmp_path))
    m = cpsat.new_model()
    x = m.new_int_var(0, 3, "x")
    m.add(x >= 2)
    assert cpsat.solve(m, "a test/model").feasible
    files = sorted(tmp_path.iterdir())
    assert len(files) == 1 and files[0].name.startswith("a_test_model-") and files[0].suffix == ".txt"
    assert 'name: "x"' in files[0].read_text()


def test_solver_parameters_are_explicit():
    s = cpsat.solver(cpsat.Params(time_limit=2.5, workers=3, seed=7, presolve=False))
    p = s.parameters
    assert (p.max_time_in_seconds, p.num_workers, p.random_seed, p.cp_model_presolve) == (2.5, 3, 7, False)


def _pigeons(n: int):
    """n pigeons in n - 1 holes: infeasible, and slow to prove without presolve's symmetry."""
    m = cpsat.new_model()
    x = [[m.new_bool_var(f"x{i}_{j}") for j in range(n - 1)] for i in range(n)]
    for row in x:
        m.add_bool_or(row)
    for j in range(n - 1):
        m.add_at_most_one(x[i][j] for i in range(n))
    return m


def test_a_solve_ends_at_the_commands_deadline():
    """A solve is one call into C, which the deadline's timer cannot interrupt: it takes what is
    left of the command's limit as its own (a 12-pigeon proof, unlimited, ran past 120 s under a
    1 s deadline before)."""
    import time

    from dipsat.limits import TurnTimeout, deadline, time_left

    assert time_left() is None
    t = time.monotonic()
    with pytest.raises(TurnTimeout):
        with deadline(1.0):
            assert 0 < (time_left() or 0) <= 1.0
            cpsat.solve(_pigeons(12), "pigeons", cpsat.Params(presolve=False))
    assert time.monotonic() - t < 3.0
    assert time_left() is None
