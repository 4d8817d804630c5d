"""Variants: one package each (``variants/<name>/``), registered here and found by name or alias.

A variant is a :class:`dipsat.variant.Variant` subclass: which map it uses, its options model and
rule preset, and the hooks it changes (notation, order kinds, unit kinds, geography, movement
rules, phases; see ``ARCHITECTURE.md``).  The core never asks which variant it is running.

The registry names each variant's package and class without importing it: a package is
imported when its variant is first asked for (``find_variant``), so ``dipsat adjudicate`` of a
standard turn loads neither the other variants nor what they import.  ``VARIANTS`` (every
class, in registry order) imports them all; a test checks the registry's names and aliases
against the classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from dipsat.errors import DipsatError

if TYPE_CHECKING:
    from dipsat.variant import Variant

    VARIANTS: list[type[Variant]]  # provided by __getattr__ below


@dataclass(frozen=True)
class Entry:
    """One registered variant: its name, aliases, and where its class lives."""

    name: str
    aliases: tuple[str, ...]
    module: str  # a subpackage of dipsat.variants
    cls: str

    def load(self) -> type[Variant]:
        loaded: type[Variant] = getattr(import_module(f"{__name__}.{self.module}"), self.cls)
        return loaded


REGISTRY: tuple[Entry, ...] = (
    Entry("standard", ("classic", "classical", "diplomacy"), "standard", "Standard"),
    Entry("multiplomacy", ("multi", "cb13/07", "hemming"), "multiplomacy", "Multiplomacy"),
    Entry("multinational", ("kooy",), "multinational", "Multinational"),
    Entry("supremacy", ("supremacy-house", "seed002"), "supremacy", "Supremacy"),
    Entry("continents", ("continents-and-free-cities", "free-cities", "004"), "continents", "Continents"),
    Entry("multiplicity", ("multiplicity-plus", "multiplicity plus", "rn42"), "multiplicity", "Multiplicity"),
)


class UnknownVariant(DipsatError):
    pass


def find_variant(name: str | None = None) -> Variant:
    """The variant called ``name`` (case-insensitive; aliases accepted).  Default: standard."""
    key = (name or "standard").strip().lower()
    for entry in REGISTRY:
        if key == entry.name or key in entry.aliases:
            return entry.load().instance()
    known = ", ".join(sorted(e.name for e in REGISTRY))
    raise UnknownVariant(f"unknown variant {name!r}; known variants: {known}")


def variant_names() -> list[str]:
    return [e.name for e in REGISTRY]


def __getattr__(name: str) -> Any:
    if name == "VARIANTS":  # every variant class (imports every variant package)
        return [e.load() for e in REGISTRY]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
