"""Variants: one package each (``variants/<name>/``), registered here and found by name or alias.

A variant is a :class:`dipsat.variant.Variant` subclass: which map it uses, its options model and
rule preset, and the hooks it changes (notation, order kinds, unit kinds, geography, movement
rules, phases; see ``ARCHITECTURE.md``).  The core never asks which variant it is running.
"""

from __future__ import annotations

from dipsat.errors import DipsatError
from dipsat.variant import Variant

from .continents import Continents
from .multinational import Multinational
from .multiplomacy import Multiplomacy
from .standard import Standard
from .supremacy import Supremacy

VARIANTS: list[type[Variant]] = [Standard, Multiplomacy, Multinational, Supremacy, Continents]


class UnknownVariant(DipsatError):
    pass


def find_variant(name: str | None = None) -> Variant:
    """The variant called ``name`` (case-insensitive; aliases accepted).  Default: standard."""
    key = (name or "standard").strip().lower()
    for cls in VARIANTS:
        if key == cls.name or key in cls.aliases:
            return cls.instance()
    known = ", ".join(sorted(c.name for c in VARIANTS))
    raise UnknownVariant(f"unknown variant {name!r}; known variants: {known}")


def variant_names() -> list[str]:
    return [c.name for c in VARIANTS]
