"""dipsat's variant-agnostic core.

Stages, each a module: :mod:`dipsat.notation` (text -> parsed orders), :mod:`dipsat.orders`
(legality, binding to units), :mod:`dipsat.movement` / :mod:`dipsat.stacks` (the rules as
boolean equations), :mod:`dipsat.equations` (CP-SAT, components, counting, backup rules,
verification), :mod:`dipsat.retreats`, :mod:`dipsat.adjustments`, :mod:`dipsat.game`; at the
edges :mod:`dipsat.api` (requests and results), :mod:`dipsat.corpus`, :mod:`dipsat.batch`,
:mod:`dipsat.research` and :mod:`dipsat.cli`.  Variants live in :mod:`dipsat.variants` (the ``variants/`` folder), maps in :mod:`dipsat.maps`.

    >>> from dipsat import adjudicate
    >>> res = adjudicate({"units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}})
    >>> [o.result for o in res.outcomes]
    ['moved']
"""

from typing import Any

# The public API, imported on first use (importing dipsat stays cheap, and the core's modules
# can import each other without going through this file).
_API = {
    "adjudicate": "dipsat.api",
    "load_request": "dipsat.api",
    "result_to_json": "dipsat.api",
    "TurnRequest": "dipsat.api",
    "load_case": "dipsat.corpus",
    "run_corpus": "dipsat.corpus",
    "explore": "dipsat.research",
    "compare": "dipsat.research",
    "why": "dipsat.research",
    "preset": "dipsat.rules",
    "RuleOptions": "dipsat.rules",
    "DipsatError": "dipsat.errors",
    "find_variant": "dipsat.variants",
    "Game": "dipsat.game",
}

__all__ = sorted(_API)


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'dipsat' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
