"""dipsat: a CP-SAT adjudicator for Diplomacy and its variants.

The package is layers, each importing only those below it (``ARCHITECTURE.md``, "Layers"):
the root modules :mod:`dipsat.errors`, :mod:`dipsat.limits`, :mod:`dipsat.seams`;
:mod:`dipsat.engine` (formulas, exact equation systems, the CP-SAT service, the option space,
chance); the shared models :mod:`dipsat.rules`, :mod:`dipsat.models`, :mod:`dipsat.outcomes`;
:mod:`dipsat.board` (the Diplomacy board's rules: notation, orders, movement, stacks, retreats,
adjustments); :mod:`dipsat.game.game` (the board variant record, calendars, the phase pipeline, the
game protocol, the registry of variants, :mod:`dipsat.game.api`); :mod:`dipsat.io` (corpus,
batch, saved games, files, schemas); :mod:`dipsat.research.research` (readings, explore, why, compare,
coverage); :mod:`dipsat.face` (the command line, pictures, the report).  Variants live in
:mod:`dipsat.variants` (the ``variants/`` folder), above the core; maps in :mod:`dipsat.maps`.

This file is the composition root: it plugs the variant rooms and the pictures into the slots
of :mod:`dipsat.seams` (each imported on first use) and names the public API, also imported on
first use (importing dipsat stays cheap).

    >>> from dipsat import adjudicate
    >>> res = adjudicate({"units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}})
    >>> [o.result for o in res.outcomes]
    ['moved']
"""

from typing import TYPE_CHECKING, Any, Sequence

from dipsat import seams as _seams
from dipsat.pydantic_plugins import defer_if_plugins_off as _defer_if_plugins_off

if TYPE_CHECKING:  # a type checker sees the public API's real types, re-exported (at run time: imported on first use)
    from dipsat.errors import DipsatError as DipsatError
    from dipsat.game.api import TurnRequest as TurnRequest, adjudicate as adjudicate
    from dipsat.game.api import load_request as load_request, result_to_json as result_to_json
    from dipsat.game.game import Game as Game
    from dipsat.game.legal import legal_orders as legal_orders
    from dipsat.game.registry import find_variant as find_variant
    from dipsat.io.corpus import load_case as load_case, run_corpus as run_corpus
    from dipsat.research.research import compare as compare, explore as explore, why as why
    from dipsat.rules import RuleOptions as RuleOptions, preset as preset

_API = {
    "adjudicate": "dipsat.game.api",
    "load_request": "dipsat.game.api",
    "result_to_json": "dipsat.game.api",
    "TurnRequest": "dipsat.game.api",
    "load_case": "dipsat.io.corpus",
    "run_corpus": "dipsat.io.corpus",
    "explore": "dipsat.research.research",
    "compare": "dipsat.research.research",
    "why": "dipsat.research.research",
    "preset": "dipsat.rules",
    "RuleOptions": "dipsat.rules",
    "DipsatError": "dipsat.errors",
    "find_variant": "dipsat.game.registry",
    "Game": "dipsat.game.game",
    "legal_orders": "dipsat.game.legal",
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


def _rooms() -> Sequence[Any]:
    from dipsat.variants import REGISTRY

    return REGISTRY


def _svg(obj: Any, **options: Any) -> str:
    from dipsat.face.render import render_svg

    return render_svg(obj, **options)


def _html(obj: Any, **options: Any) -> str:
    from dipsat.face.render import render_html

    return render_html(obj, **options)


_seams.rooms = _rooms
_seams.drawers.update(svg=_svg, html=_html)
_defer_if_plugins_off()  # (where the environment switches pydantic's plugins off: dipsat.pydantic_plugins)
