"""Variants: one package each (``variants/<name>/``), registered here and found by name or alias.

A variant is a *record*, not a class: one frozen :class:`dipsat.game.variant.Variant` value that its
package builds as ``VARIANT = Variant(name=..., ...)`` from its own functions and classes — which
map it uses, its options model and rule preset, and the hooks it changes (unit kinds and position
checks, notation, order kinds, geography, binder, movement rules, the calendar with each phase's
adjudicator, victory, pictures, commands of another game family; see ``ARCHITECTURE.md``).  Every
field it leaves out is the core's DATC Diplomacy default.  The core never asks which variant it
is running, and no class under ``variants/`` subclasses ``Variant``.

The registry names each variant's package without importing it: a package is imported when its
variant is first asked for (``find_record``, ``find_variant``), so ``dipsat adjudicate`` of a standard turn loads
neither the other variants nor what they import.  ``VARIANTS`` (every record, in registry order)
imports them all; a test checks the registry's names and aliases against the records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dipsat.game.registry import (
    Entry,
    NotABoard,
    UnknownVariant,
    all_records,
    find_record,
    find_variant,
    variant_names,
)

if TYPE_CHECKING:
    from dipsat.game.protocol import GameRecord
    from dipsat.game.variant import Variant

    VARIANTS: list[Variant | GameRecord]  # provided by __getattr__ below

__all__ = ["REGISTRY", "Entry", "NotABoard", "UnknownVariant", "find_record", "find_variant", "variant_names"]


def _room(name: str, aliases: tuple[str, ...]) -> Entry:
    return Entry(name, aliases, f"{__name__}.{name}")


# (the core's registry reads this table: dipsat/__init__.py puts it in dipsat.seams.rooms)
REGISTRY: tuple[Entry, ...] = (
    _room("standard", ("classic", "classical", "diplomacy")),
    _room("multiplomacy", ("multi", "cb13/07", "hemming")),
    _room("multinational", ("kooy",)),
    _room("supremacy", ("supremacy-house", "seed002")),
    _room("continents", ("continents-and-free-cities", "free-cities", "004")),
    _room("multiplicity", ("multiplicity-plus", "multiplicity plus", "rn42")),
)


def __getattr__(name: str) -> Any:
    if name == "VARIANTS":  # every variant record (imports every variant package)
        return all_records()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
