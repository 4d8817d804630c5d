"""The core's strength comparisons made from the supporters alone (DATC 5.B.5-5.B.8, every unit
of strength one): the formula :meth:`MovementRules._ge` makes of an attack's terms and another
strength's, without making the terms.

The terms (labelled, for the explanation) are made only when an explanation in full asks for
them (:meth:`MovementRules.attack_terms` ...); a plain one finds the culprits of the moves that
failed by counting the supports given (:func:`attack_value`, :func:`given`).  The rules use these where every strength hook
is the core's (:data:`STRENGTH_HOOKS`); the formulas are the same either way (a test compares).
"""

from __future__ import annotations

from typing import Any, Optional

from dipsat.board.encoding import Encoding, _name, _var
from dipsat.engine.formulas import GE, Formula, Term, Values

# the hooks whose core versions these comparisons stand for
STRENGTH_HOOKS = ("unit_weight", "own_terms", "support_terms", "support_given", "attack_terms", "hold_terms",
                  "defend_terms", "prevent_terms", "failed_terms", "beats_prevent", "head_to_head_formula", "_ge")


def beats(enc: Encoding, u: int, restricted_by: Optional[str], against: Optional[list[int]]) -> Formula:
    """``_ge(attack_terms(enc, u, restricted_by), own_terms(enc, v) + support_terms(enc, against), 1)``
    with the core's hooks: does the attack of ``u`` (its supports of ``restricted_by``'s power left
    out; none at all against a unit of its own power) beat a strength of one unit and the
    supporters ``against``?  A support counts where its order matches (its decision), as
    :meth:`MovementRules.support_given` says."""
    units = enc.bound.position.units
    matched = enc.matched
    live: list[tuple[int, Term]]
    if restricted_by is not None and units[u].power == restricted_by:
        k, live = 2, []  # (an attack of strength 0 against at least 1)
    else:
        k = 1
        supporters = enc.move_supports.get(u)
        live = [(1, _var("S", s)) for s in supporters if matched.get(s)
                and (restricted_by is None or units[s].power != restricted_by)] if supporters else []
    if against:
        live += [(-1, _var("S", s)) for s in against if matched.get(s)]
    return GE(live, k) if live else k <= 0


def given(enc: Encoding, values: Values, supporters: Optional[list[int]], restricted_by: Optional[str] = None) -> int:
    """How many of ``supporters`` gave their support in a solved turn (those of ``restricted_by``'s
    power left out): what the core's :meth:`MovementRules.support_terms` of them count."""
    if not supporters:
        return 0
    units, matched = enc.bound.position.units, enc.matched
    return sum(1 for s in supporters if matched.get(s) and (restricted_by is None or units[s].power != restricted_by)
               and values[_name("S", s)])


def attack_value(enc: Encoding, values: Values, u: int, restricted_by: Optional[str]) -> int:
    """What the core's :meth:`MovementRules.attack_terms` count in a solved turn."""
    if restricted_by is not None and enc.bound.position.units[u].power == restricted_by:
        return 0
    return 1 + given(enc, values, enc.move_supports.get(u), restricted_by)


def is_core(cls: type, core: Any) -> bool:
    """Does the rules class ``cls`` keep every strength hook of ``core`` (the core's rules class)?"""
    return all(getattr(cls, name) is getattr(core, name) for name in STRENGTH_HOOKS)
