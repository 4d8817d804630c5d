"""Conditions on the rule options: which options an outcome depends on, and the smallest
conditions that decide it, as maximal cubes over the options' values
("convoy_paradox_rule = all_hold and convoy_path ≠ required"), in words.

Used by ``dipsat readings`` (:mod:`dipsat.research.readings`) and by the tests that check its conditions
against a brute-force table.
"""

from __future__ import annotations

from typing import Any

from dipsat.engine.option_space import (
    Assignment,
    option_values,
)
from dipsat.rules import RuleOptions

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
    ranked = sorted(cubes, key=cube_key)
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


def cube_key(c: Cube) -> tuple[Any, ...]:
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
