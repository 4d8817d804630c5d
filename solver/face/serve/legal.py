"""Completion for the order boxes: for each unit of a board's movement phase, every legal order
(:func:`dipsat.game.legal.legal_orders`: each text one the variant's binder accepts, convoy
routes included), to choose from as one types.  A list, not a judgement: dipsat adjudicates
whatever is written, and says why an order is illegal.  Other phases and families: no list.
"""

from __future__ import annotations

from typing import Any

from dipsat.game.legal import legal_orders as board_legal_orders
from dipsat.limits import DEFAULT_LIMITS, Limits

from dipsat.face.serve.sandbox import is_board, read_state


def legal_orders(state: Any, limits: Limits = DEFAULT_LIMITS) -> dict[str, dict[str, list[str]]]:
    """``{power: {unit: [order, ...]}}`` of a board's movement phase under the state's rules."""
    game, req, _ = read_state(state, limits)
    if not is_board(game) or req.phase != "movement":
        return {}
    return board_legal_orders(req)
