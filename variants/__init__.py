"""Variants: one package each (``variants/<name>/``), registered here and found by name or alias.

A variant is a *record*, not a class: one frozen :class:`dipsat.variant.Variant` value that its
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

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from dipsat.errors import DipsatError

if TYPE_CHECKING:
    from dipsat.protocol import GameRecord
    from dipsat.variant import Variant

    VARIANTS: list[Variant | GameRecord]  # provided by __getattr__ below


@dataclass(frozen=True)
class Entry:
    """One registered variant: its name, aliases, and the package whose ``VARIANT`` is its record."""

    name: str
    aliases: tuple[str, ...]
    module: str  # a subpackage of dipsat.variants

    def load(self) -> Variant | GameRecord:
        from dipsat.protocol import GameRecord
        from dipsat.variant import Variant

        record = getattr(import_module(f"{__name__}.{self.module}"), "VARIANT", None)
        if not isinstance(record, (Variant, GameRecord)):
            raise TypeError(f"dipsat.variants.{self.module}.VARIANT is not a Variant or GameRecord record")
        return record


REGISTRY: tuple[Entry, ...] = (
    Entry("standard", ("classic", "classical", "diplomacy"), "standard"),
    Entry("multiplomacy", ("multi", "cb13/07", "hemming"), "multiplomacy"),
    Entry("multinational", ("kooy",), "multinational"),
    Entry("supremacy", ("supremacy-house", "seed002"), "supremacy"),
    Entry("continents", ("continents-and-free-cities", "free-cities", "004"), "continents"),
    Entry("multiplicity", ("multiplicity-plus", "multiplicity plus", "rn42"), "multiplicity"),
)


class UnknownVariant(DipsatError):
    pass


class NotABoard(DipsatError):
    """A Diplomacy board was needed, and the variant is a game of another family."""


def find_record(name: str | None = None) -> Variant | GameRecord:
    """The record of the variant called ``name`` (case-insensitive; aliases accepted): a
    Diplomacy board's :class:`~dipsat.variant.Variant`, or another family's
    :class:`~dipsat.protocol.GameRecord`.  Default: standard."""
    key = (name or "standard").strip().lower()
    for entry in REGISTRY:
        if key == entry.name or key in entry.aliases:
            return entry.load()
    known = ", ".join(sorted(e.name for e in REGISTRY))
    raise UnknownVariant(f"unknown variant {name!r}; known variants: {known}")


def find_variant(name: str | None = None) -> Variant:
    """The Diplomacy-board variant called ``name`` (see :func:`find_record`); a variant of
    another game family is an error here (the commands reach it through ``dipsat.protocol``)."""
    from dipsat.variant import Variant

    record = find_record(name)
    if not isinstance(record, Variant):
        raise NotABoard(f"the {record.name} variant is a game of its own family, not a Diplomacy board")
    return record


def variant_names() -> list[str]:
    return [e.name for e in REGISTRY]


def __getattr__(name: str) -> Any:
    if name == "VARIANTS":  # every variant record (imports every variant package)
        return [e.load() for e in REGISTRY]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
