"""dipsat's variant-agnostic core.

Stages, each a module: :mod:`solver.notation` (text -> parsed orders), :mod:`solver.orders`
(legality, binding to units), :mod:`solver.movement` / :mod:`solver.stacks` (the rules as
boolean equations), :mod:`solver.equations` (CP-SAT, components, counting, backup rules,
verification), :mod:`solver.retreats`, :mod:`solver.adjustments`, :mod:`solver.game`; at the
edges :mod:`solver.api` (requests and results), :mod:`solver.corpus`, :mod:`solver.batch`,
:mod:`solver.research` and :mod:`solver.cli`.  Variants live in the ``variants`` package.

    >>> from solver.api import adjudicate
    >>> res = adjudicate({"units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}})
    >>> [o.result for o in res.outcomes]
    ['moved']
"""
