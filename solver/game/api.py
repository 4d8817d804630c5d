"""The public entry points: a turn request in, a result out.

:func:`adjudicate` takes a request (a :class:`TurnRequest` or its dict; see
:mod:`dipsat.game.request` for its fields) of any game family and returns its
:class:`~dipsat.game.protocol.PhaseResult`; :func:`result_to_json` is the published JSON of a
result, :func:`load_request` reads a request file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union

from pydantic import ValidationError

from dipsat.errors import InputFileError
from dipsat.game.positions import build_owners, build_position, power_name, resolve_rules
from dipsat.game.request import TurnRequest, describe_validation, load_model, load_request, read_data_file
from dipsat.game.results import result_to_json
from dipsat.limits import DEFAULT_LIMITS
from dipsat.rules import RuleOptions

if TYPE_CHECKING:
    from dipsat.board.adjustments import AdjustmentResult
    from dipsat.board.retreats import RetreatResult
    from dipsat.game.protocol import PhaseResult
    from dipsat.outcomes import MovementResult

# what adjudicate gives: a Diplomacy board's phase (its outcomes are typed :class:`Outcome`s), or
# another game family's :class:`PhaseResult`
TurnResult = Union["MovementResult", "RetreatResult", "AdjustmentResult", "PhaseResult"]

__all__ = ["TurnRequest", "adjudicate", "build_owners", "build_position", "describe_validation", "load_model",
           "load_request", "power_name", "read_data_file", "resolve_rules", "result_to_json"]


def adjudicate(req: TurnRequest | dict[str, Any], rules: str | RuleOptions | None = None,
               time_limit: float | None = None, all_cpsat: bool = False, explain: bool = True) -> TurnResult:
    """Adjudicate one turn.  ``all_cpsat`` is an engine setting, not a rule: every part of the
    movement equations goes to CP-SAT instead of only the cycles (the outcome is the same).
    ``explain=False`` skips what only explanations need: a movement result then has the outcome
    kinds and their culprits but no strength terms (``explained`` is False, and
    :func:`result_to_json` leaves out reasons and strengths); the outcomes are the same."""
    from dipsat.game.registry import find_record
    from dipsat.game.variant import Variant

    if isinstance(req, dict) and isinstance(req.get("variant"), str):
        record = find_record(req["variant"])
        if not isinstance(record, Variant):  # another game family: its game protocol's PhaseResult
            from dipsat.game.families import game_of
            from dipsat.game.protocol import Engine

            game = game_of(record)
            request = game.read(req, "request", DEFAULT_LIMITS)
            return game.adjudicate(request, game.options(request, rules if isinstance(rules, str) else None),
                                   Engine(time_limit=time_limit, all_cpsat=all_cpsat, explain=explain))
    if isinstance(req, dict):
        try:
            req = TurnRequest.model_validate(req)
        except ValidationError as exc:
            raise InputFileError(describe_validation(exc)) from None
    from dipsat.game.pipeline import Pipeline

    pipe = Pipeline.for_request(req, rules)
    result: TurnResult = pipe.adjudicate(pipe.prepare(req), "cpsat" if all_cpsat else "direct", time_limit, explain=explain)
    return result
