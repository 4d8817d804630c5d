from dipsat.engine.equations import System, enumerate_all, evaluate_acyclic, solve_system
from dipsat.engine.formulas import AND, GE, NOT, OR, VAR, Key, evaluate

A, B, C, X, Y = (Key("x", i) for i in range(5))


def test_acyclic_system_has_one_solution():
    s = System()
    s.define(A, "x", True)
    s.define(B, "x", NOT(VAR(A)))
    s.define(C, "x", OR(VAR(A), VAR(B)))
    for all_cpsat in (False, True):
        sol = solve_system(s, lambda *a: None, all_cpsat=all_cpsat)
        assert sol.values == {A: True, B: False, C: True}
        assert sol.components == []
        assert sol.calls == (1 if all_cpsat else 0)


def test_one_pass_meets_every_cycle_even_one_evaluation_would_skip():
    """The one-pass evaluation of an acyclic system gives up on any cycle of the definitions,
    also one behind a decision whose value would not need it (B is false, so A is false whatever
    C is): the general way then takes the system, and reports the cycle as a component."""
    s = System()
    s.define(B, "x", False)
    s.define(A, "x", AND(VAR(B), VAR(C)))
    s.define(C, "x", VAR(A))
    assert evaluate_acyclic(s.defs, s.domains) is None
    sol = solve_system(s, lambda *a: None)
    assert sol.values == {A: False, B: False, C: False}
    assert [c.decisions for c in sol.components] == [(A, C)] and sol.components[0].resolutions == 1
    s2 = System()
    s2.define(A, "x", True)
    s2.define(B, "x", NOT(VAR(A)))
    s2.define(C, "x", OR(VAR(B), VAR(A)))
    assert evaluate_acyclic(s2.defs, s2.domains) == {A: True, B: False, C: True}


def test_two_cycle_is_counted_and_backed_up():
    s = System()
    s.define(X, "move", VAR(Y))
    s.define(Y, "move", VAR(X))
    seen = {}

    def backup(members, defs, count):
        seen["count"] = count
        return ("circular_movement", "all succeed", {m: True for m in members})

    sol = solve_system(s, backup)
    assert seen["count"] == 2
    assert sol.values == {X: True, Y: True}
    assert len(enumerate_all(s)) == 2


def test_paradox_has_no_resolution():
    s = System()
    s.define(X, "move", NOT(VAR(X)))
    calls = []
    sol = solve_system(s, lambda m, d, c: calls.append(c) or ("other_cycle", "fail", {X: False}))
    assert calls == [0]
    assert sol.values[X] is False


def test_ge_folds_and_evaluates():
    f = GE([(1, VAR(A)), (1, VAR(B)), (-1, VAR(C))], 2)
    assert evaluate(f, {A: True, B: True, C: False})
    assert not evaluate(f, {A: True, B: True, C: True})
    assert GE([(1, True), (1, True)], 2) is True
    assert AND(True, VAR(A)) == VAR(A)


def test_keys_sort_by_kind_then_unit_and_are_named_by_the_system():
    assert sorted([Key("support", 0), Key("move", 2), Key("move", 1), Key("convoy", 9)]) == [
        Key("convoy", 9), Key("move", 1), Key("move", 2), Key("support", 0)]
    s = System(labels=["A Par", "F Lon"])
    assert s.name(Key("move", 0)) == "move A Par"
    assert s.name(Key("support", 1, 2)) == "support F Lon #2"
    assert str(Key("move", 7)) == "move #7"
