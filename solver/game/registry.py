"""Finding a variant's record by name: the core's side of the seam to the variant rooms.

The rooms (``dipsat.variants``) sit above the whole core: no module of the core imports them.
They hand the core their table of :class:`Entry` values — each a name, its aliases and the
module whose ``VARIANT`` is the record — through the ``rooms`` slot of :mod:`dipsat.seams`,
which the package root (``dipsat/__init__.py``, the composition root) fills with a loader of
that table.  A room's
package is imported only when its variant is first asked for, so adjudicating a standard turn
loads no other variant.
"""

from __future__ import annotations

import sys
import copyreg
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Callable, Sequence

from dipsat import seams
from dipsat.errors import DipsatError
from dipsat.records import dataclass

if TYPE_CHECKING:
    from dipsat.game.protocol import GameRecord
    from dipsat.game.variant import Variant


@dataclass(frozen=True)
class Entry:
    """One registered variant: its name, aliases, and the module whose ``VARIANT`` is its record."""

    name: str
    aliases: tuple[str, ...]
    module: str  # a fully dotted module name

    def load(self) -> Variant | GameRecord:
        from dipsat.game.protocol import GameRecord
        from dipsat.game.variant import Variant

        record = getattr(import_module(self.module), "VARIANT", None)
        if not isinstance(record, (Variant, GameRecord)):
            raise TypeError(f"{self.module}.VARIANT is not a Variant or GameRecord record")
        if isinstance(record, Variant):
            copyreg.pickle(Variant, _pickled_by_name)
        return record


def _pickled_by_name(record: Variant) -> tuple[Callable[..., Variant], tuple[str]]:
    """How a variant record pickles: by its name, as the registered record (a result names its
    variant, so a result pickles and comes back with that record).  A record made outside the
    registry cannot be pickled: it has no name another process could find it by."""
    try:
        registered = find_record(record.name) is record
    except DipsatError:
        registered = False
    if not registered:
        raise TypeError(f"the variant record {record.name!r} is not the registered one: only a registered variant "
                        "pickles (by its name)")
    return (find_variant, (record.name,))


class UnknownVariant(DipsatError):
    pass


class NotABoard(DipsatError):
    """A Diplomacy board was needed, and the variant is a game of another family."""


def entries() -> Sequence[Entry]:
    """The registered variants (the rooms' table, through :data:`dipsat.seams.rooms`)."""
    if seams.rooms is None:
        raise DipsatError("no variant rooms are installed (dipsat/__init__.py installs dipsat.variants)")
    return [e for e in seams.rooms() if isinstance(e, Entry)]


def find_record(name: str | None = None) -> Variant | GameRecord:
    """The record of the variant called ``name`` (case-insensitive; aliases accepted): a
    Diplomacy board's :class:`~dipsat.game.variant.Variant`, or another family's
    :class:`~dipsat.game.protocol.GameRecord`.  Default: standard."""
    key = (name or "standard").strip().lower()
    table = seams.rooms() if seams.rooms is not None else None
    hit = _FOUND.get(key)
    # (the same table of rooms, its module still the one imported, still holding that record)
    if hit is not None and hit[0] is table and sys.modules.get(hit[1].__name__) is hit[1] \
            and getattr(hit[1], "VARIANT", None) is hit[2]:
        found: Variant | GameRecord = hit[2]
        return found
    for entry in entries():
        if key == entry.name or key in entry.aliases:
            record = entry.load()
            module = sys.modules.get(entry.module)
            if module is not None:
                _FOUND[key] = (table, module, record)
            return record
    known = ", ".join(sorted(e.name for e in entries()))
    raise UnknownVariant(f"unknown variant {name!r}; known variants: {known}")


# a name as looked up -> (the rooms' table it was found in, the module, its record): a memo of
# :func:`find_record`, checked on every use (names are those of the registered variants)
_FOUND: dict[str, tuple[object, ModuleType, "Variant | GameRecord"]] = {}


def find_variant(name: str | None = None) -> Variant:
    """The Diplomacy-board variant called ``name`` (see :func:`find_record`); a variant of
    another game family is an error here (the commands reach it through ``dipsat.game.protocol``)."""
    from dipsat.game.variant import Variant

    record = find_record(name)
    if not isinstance(record, Variant):
        raise NotABoard(f"the {record.name} variant is a game of its own family, not a Diplomacy board")
    return record


def variant_names() -> list[str]:
    return [e.name for e in entries()]


def all_records() -> list[Variant | GameRecord]:
    """Every variant's record, in registry order (imports every room)."""
    return [e.load() for e in entries()]
