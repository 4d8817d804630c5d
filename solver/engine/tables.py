"""As many table constraints as possible: the assignments of a few small integer variables that
satisfy as many of a list of tables (allowed tuples of some of the variables) as any assignment
does, through the CP-SAT service (:mod:`dipsat.engine.cpsat`: one model, the count maximised by
:func:`~dipsat.engine.cpsat.lexicographic_max`, the optima listed by
:func:`~dipsat.engine.cpsat.distinct_solutions`).  A rules fingerprint's readings
(:mod:`dipsat.research.fingerprint`): an option a variable, an observation a table.
"""

from __future__ import annotations

from typing import Optional, Sequence

from dipsat.engine.cpsat import Stats, distinct_solutions, lexicographic_max, new_model, solve

Table = tuple[Sequence[int], Sequence[tuple[int, ...]]]  # (variables, allowed tuples of their values)


def most_satisfied(sizes: Sequence[int], tables: Sequence[Table], limit: int, label: str = "tables",
                   stats: Optional[Stats] = None,
                   weights: Optional[Sequence[int]] = None) -> tuple[int, list[tuple[int, ...]], list[list[int]], bool]:
    """Variable ``i`` takes ``0..sizes[i]-1``; each table allows some tuples of its variables
    (and counts ``weights[j]`` times: the observations it stands for; default once).
    Returns the most tables one assignment satisfies (weighted), the distinct assignments that do (up to
    ``limit``), each variable's values among all of them (exact even past the limit: then asked
    value by value), and whether the list of assignments is complete."""
    model = new_model()
    xs = [model.new_int_var(0, n - 1, f"var_{i}") for i, n in enumerate(sizes)]
    met = []
    for j, (names, allowed) in enumerate(tables):
        b = model.new_bool_var(f"table_{j}")
        model.add_allowed_assignments([xs[i] for i in names], [tuple(t) for t in allowed]).only_enforce_if(b)
        met.append(b)
    w = list(weights) if weights is not None else [1] * len(met)
    best = lexicographic_max(model, [(sum(k * b for k, b in zip(w, met)), 0, sum(w))], label, stats=stats)[0] if met else 0
    sols, complete = distinct_solutions(model, dict(enumerate(xs)), limit, label, stats=stats)
    found = [tuple(int(s[i]) for i in range(len(xs))) for s in sols]
    values: list[list[int]] = []
    for i, n in enumerate(sizes):
        if complete:
            values.append(sorted({t[i] for t in found}))
            continue
        mine = []
        for v in range(n):
            model.clear_assumptions()
            eq = model.new_bool_var(f"var_{i}_is_{v}")
            model.add(xs[i] == v).only_enforce_if(eq)
            model.add_assumptions([eq])
            if solve(model, f"{label}-value", stats=stats).feasible:
                mine.append(v)
        values.append(mine)
    model.clear_assumptions()
    return best, found, values, complete
