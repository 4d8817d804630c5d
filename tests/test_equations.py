from dipsat.equations import AND, GE, NOT, OR, VAR, System, enumerate_all, evaluate, solve_system


def test_acyclic_system_has_one_solution():
    s = System()
    s.define("a", "x", True)
    s.define("b", "x", NOT(VAR("a")))
    s.define("c", "x", OR(VAR("a"), VAR("b")))
    sol = solve_system(s, lambda *a: None)
    assert sol.values == {"a": True, "b": False, "c": True}
    assert sol.components == []


def test_two_cycle_is_counted_and_backed_up():
    s = System()
    s.define("x", "move", VAR("y"))
    s.define("y", "move", VAR("x"))
    seen = {}

    def backup(members, defs, count):
        seen["count"] = count
        return ("circular_movement", "all succeed", {m: True for m in members})

    sol = solve_system(s, backup)
    assert seen["count"] == 2
    assert sol.values == {"x": True, "y": True}
    assert len(enumerate_all(s)) == 2


def test_paradox_has_no_resolution():
    s = System()
    s.define("x", "move", NOT(VAR("x")))
    calls = []
    sol = solve_system(s, lambda m, d, c: calls.append(c) or ("other_cycle", "fail", {"x": False}))
    assert calls == [0]
    assert sol.values["x"] is False


def test_ge_folds_and_evaluates():
    f = GE([(1, VAR("a")), (1, VAR("b")), (-1, VAR("c"))], 2)
    assert evaluate(f, {"a": True, "b": True, "c": False})
    assert not evaluate(f, {"a": True, "b": True, "c": True})
    assert GE([(1, True), (1, True)], 2) is True
    assert AND(True, VAR("a")) == VAR("a")
