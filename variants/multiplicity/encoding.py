"""Multiplicity Plus movement: the turn's record (:class:`Enc`) and the names its equations use.

The core's :class:`dipsat.board.encoding.Encoding` plus what these rules add: the nations standing in
each space, supports of forces and of merges, implied supports (rule 4(b)), one support decision
per supporting unit (:class:`Slot`), the convoying fleets of each army and the forces refused as
unseaworthy.  :mod:`.movement` builds it and its equations; :mod:`.explain` reads a solution.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import field
from typing import Optional

from dipsat.board.encoding import Encoding
from dipsat.engine.formulas import Formula, Key
from dipsat.records import dataclass

from .details import Seaworthiness

Terms = list[tuple[str, int, Formula]]
Side = tuple[str, ...]  # nations, sorted
ForceKey = tuple[Side, str]  # (side, space)
CutTerms = list[tuple[Optional[str], int, Formula]]  # (space it cannot cut towards, weight, when)


def dkey(kind: str, u: int, part: int = 0) -> Key:
    """The key of decision ``kind`` of unit ``u`` (its ``part``: a support's j-th unit)."""
    return Key(kind, u, part)


@dataclass
class Slot:
    key: Key
    unit: int
    aim: Optional[str]  # the space the support is for (a supported move's target), None: in place
    what: str  # "written", "merge" (implied, rule 4(b) first part), "in place" (rule 4(b) second part)


@dataclass
class Enc(Encoding):
    """The core's encoding of a turn (moves, routes "land" or "convoy", occupants, forces keyed by
    side and space, supports of forces, hold supports per space, sea routes of convoyed armies,
    head-to-head forces) plus what these rules add."""

    owners: dict[str, frozenset[str]] = field(default_factory=dict)  # space -> nations standing there
    supports_of_force: dict[ForceKey, list[int]] = field(default_factory=lambda: defaultdict(list))
    hold_supports_at: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    merge_supports: dict[ForceKey, list[int]] = field(default_factory=lambda: defaultdict(list))
    inside_supports: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    merge_attacks: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))  # attack -> merging movers
    implied_merge: dict[ForceKey, list[int]] = field(default_factory=lambda: defaultdict(list))  # stationary units
    in_place: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))  # merging movers
    support_slots: dict[int, list[Slot]] = field(default_factory=dict)  # supporter -> one decision per unit
    convoyers: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    not_seaworthy: dict[ForceKey, Seaworthiness] = field(default_factory=dict)
    cut_rank: dict[Key, int] = field(default_factory=dict)  # slot -> its place in the default cutting order
