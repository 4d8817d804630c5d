"""The encoding of one turn's movement: the record a turn's equations are built into and explained
from (:class:`Encoding`), its decision keys by letter, and strengths as labelled terms.

Shared by the core's movement rules (:mod:`dipsat.board.movement`), their explanation
(:mod:`dipsat.board.explain`) and every variant's rules.
"""

from __future__ import annotations

from dataclasses import field
from functools import lru_cache
from typing import Any, Optional, Sequence, TypeVar

from dipsat.engine.equations import System
from dipsat.engine.formulas import (
    Formula,
    IntExpr,
    Key,
    VAR,
    Values,
    evaluate,
    is_formula,
    value_of,
)
from dipsat.models import (
    Move,
)
from dipsat.board.orders import BoundOrders
from dipsat.records import dataclass

# a strength as labelled terms: (label, weight, when it counts) — a boolean formula counts 0 or 1, an
# integer expression (e.g. an integer support decision) counts its value
Terms = list[tuple[str, int, "Formula | IntExpr"]]


def term_value(weight: int, f: "Formula | IntExpr", values: Values) -> int:
    """What one strength term counts in a solved turn."""
    if is_formula(f):
        return weight if evaluate(f, values) else 0
    return weight * value_of(f, values)


KINDS = {"M": "move", "S": "support", "C": "convoy", "P": "path", "F": "force"}


def decision_key(prefix: str, u: int) -> Key:
    """The key of a decision of unit ``u`` by its letter (M move, S support, C convoy, P path,
    F force): ``decision_key("M", 3)`` is ``Key("move", 3)``.  Public for variants' rules."""
    return Key(KINDS[prefix], u)


# the core's short name for it; keys are immutable values, so the few of a turn are made once
_name = lru_cache(maxsize=4096)(decision_key)


@lru_cache(maxsize=4096)
def _var(prefix: str, u: int) -> Formula:
    """``VAR(_name(prefix, u))``, made once (a formula is a value, never changed)."""
    return VAR(_name(prefix, u))


def _unit_of(name: Key) -> int:
    return name.unit


# A force's key: (its side, the province it moves to).  The side is the nation for the core's
# rules (:attr:`MovementRules.merge_moves`); a variant's rules may join nations into one side.
ForceKey = tuple[Any, str]


@dataclass
class Encoding:
    """The equations of one turn and what is needed to explain their solution."""

    bound: BoundOrders
    system: System
    moves: dict[int, Move]
    dest: dict[int, str]  # mover -> destination province
    route: dict[int, str]  # mover -> "land", "convoy" or "either" (DATC 4.A.3)
    occupants: dict[str, list[int]]  # province -> units in it
    labels: Sequence[str] = field(default_factory=list)  # unit -> "A Par" (the core's: made when read)
    # the supports and convoys, (unit, order body) by unit, when the core's collect found them
    others: Optional[list[tuple[int, Any]]] = None
    # what :meth:`MovementRules.plan` finds (DATC Diplomacy)
    into: dict[str, list[int]] = field(default_factory=dict)  # province -> movers into it
    h2h: dict[int, tuple[int, Formula]] = field(default_factory=dict)  # mover -> (unit moving the opposite way, condition of a battle)
    move_supports: dict[int, list[int]] = field(default_factory=dict)  # mover -> supporters (matched)
    hold_supports: dict[int, list[int]] = field(default_factory=dict)  # unit -> supporters (matched)
    convoyers: dict[int, list[int]] = field(default_factory=dict)  # convoyed army -> fleets with matched convoys
    routes: dict[int, list[tuple[Any, ...]]] = field(default_factory=dict)  # convoyed army -> fleet chains (a variant's: e.g. seas)
    matched: dict[int, bool] = field(default_factory=dict)  # supporter/convoyer -> does its order match
    cutters: dict[int, list[int]] = field(default_factory=dict)  # supporter -> moves that cut it when they have a path
    exempt: dict[int, list[tuple[int, Formula, str]]] = field(default_factory=dict)  # supporter -> (mover, when not cut, why)
    # rules that merge moves (:attr:`MovementRules.merge_moves`): the moves of one power into one
    # province are one force, with one decision ``Key("force", first member)``
    forces: dict[ForceKey, list[int]] = field(default_factory=dict)  # (nation, province) -> movers
    force_of: dict[int, ForceKey] = field(default_factory=dict)  # mover -> its force
    supports_of_force: dict[ForceKey, list[int]] = field(default_factory=dict)  # force -> supporters
    hold_supports_at: dict[str, list[int]] = field(default_factory=dict)  # province -> its hold supporters
    slots: dict[int, list[tuple[Key, int]]] = field(default_factory=dict)  # supporter -> [(decision, cut rank)]
    force_h2h: dict[ForceKey, tuple[ForceKey, list[int]]] = field(default_factory=dict)  # force -> (opposing force, its units)
    # the strengths' terms the core's hooks made (``("attack", mover, restricted_by)``,
    # ``("hold", unit, None)``, ...): made once, shared by the equations and the explanation
    terms: dict[tuple[str, int, Any], Terms] = field(default_factory=dict)
    zero: dict[int, Formula] = field(default_factory=dict)  # mover -> "its prevent strength is 0"
    # explain the solution in full (strength terms of every move); False: outcome kinds and
    # culprits only (strengths are still compared to find the culprits, but not kept)
    detail: bool = True


# the encoding type a movement rules class is generic over
E = TypeVar("E", bound=Encoding)
