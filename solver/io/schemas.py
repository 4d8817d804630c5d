"""JSON Schemas of what dipsat prints as JSON, published by ``dipsat schema``.

The models here describe the output (they are not used to build it): ``adjudicate --json``
(:class:`TurnResultJSON`), a ``batch`` output line (:data:`BatchLineJSON`) and ``play --json``
(:class:`PlayJSON`).  ``extra="forbid"`` everywhere, so a test that validates real outputs
against them fails as soon as the output and its published schema drift apart.
"""

from __future__ import annotations

from typing import Any, Literal, Optional, Union, get_args

from pydantic import BaseModel, ConfigDict, Field, RootModel

from dipsat.outcomes import OutcomeKind


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TermJSON(_Out):
    label: str = Field(description="what the term counts, e.g. 'A Par' or 'support A Mar'")
    weight: int


class StrengthJSON(_Out):
    name: str = Field(description="attack, hold, defend, prevent, or a variant's own strength")
    owner: str = Field(description="the unit or province it belongs to")
    value: int = Field(description="the sum of the terms")
    terms: list[TermJSON] = Field(description="the terms that count (the active ones)")


class OrderRefJSON(_Out):
    power: str
    order: str = Field(description="the order as written")
    unit: Optional[str] = Field(default=None, description="'Power: unit' the order is for; null when it names no unit")


class OutcomeJSON(_Out):
    power: str
    order: str = Field(description="the order as written, or the implied hold")
    unit: Optional[str] = Field(description="'Power: unit' the order is for; null when it names no unit")
    kind: str = Field(description="hold, move, support, convoy, retreat, build, disband, ..., or rejected")
    result: str = Field(description="the outcome's kind: on a Diplomacy board exactly one of the examples (a closed "
                                    "set, dipsat.outcomes.OutcomeKind); another game family's own (won, lost, ...)",
                        examples=list(get_args(OutcomeKind)))
    succeeded: bool
    reason: Optional[str] = Field(default=None, description="why, in words: the culprit orders and the strengths "
                                  "compared (left out of a batch line unless explanations are asked for)")
    by: list[str] = Field(description="the culprit orders or units (their texts; typed in 'culprits')")
    culprits: list[OrderRefJSON] = Field(default_factory=list, description="the culprit orders, as typed references")
    dislodged_by: Optional[str]
    strengths: Optional[list[StrengthJSON]] = Field(default=None, description="the strengths compared, with their "
                                                    "terms (left out of a batch line unless explanations are asked for)")
    details: Optional[dict[str, Any]] = Field(default=None, description="the typed fields of the outcome's kind "
                                              "beyond these (a move's obstacles, a rulebook's tallies, lots drawn, a "
                                              "merge, a cut budget, ...), those not at their default; culprits and "
                                              "strengths as above (left out of a batch line unless explanations are "
                                              "asked for)")


class DislodgedJSON(_Out):
    unit: str
    by: Optional[str]


class BackupJSON(_Out):
    kind: Literal["circular_movement", "convoy_paradox", "other_cycle"]
    resolutions: int = Field(description="consistent resolutions before the backup rule (0, or 2 and more)")
    rule: str
    orders: list[str]


class RetreatOptionJSON(_Out):
    unit: str
    open: list[str] = Field(description="where it may retreat")
    closed: dict[str, str] = Field(description="every other neighbour, with why it is closed")


class TurnResultJSON(_Out):
    """One adjudicated phase of any game family (:class:`dipsat.game.protocol.PhaseResult`): a
    Diplomacy board's movement, retreat (with the movement before it), adjustment or placement,
    or another family's phase (a round of unit counts, a stage of an economy, ...)."""

    variant: Optional[str] = Field(default=None, description="the variant (absent: the movement before a retreat phase)")
    phase: Optional[str] = Field(default=None, description="movement, retreat, adjustment, placement, or another "
                                 "family's own (round, stage, game, ...)")
    outcomes: list[OutcomeJSON]
    dislodged: Optional[list[DislodgedJSON]] = Field(default=None, description="Diplomacy boards")
    contested: Optional[list[str]] = Field(default=None, description="Diplomacy boards: provinces left empty by a standoff")
    backups: Optional[list[BackupJSON]] = Field(default=None, description="Diplomacy boards: cycles settled by a backup rule")
    units_after: dict[str, list[str]] = Field(description="the position after, per power")
    retreat_options: Optional[list[RetreatOptionJSON]] = Field(default=None, description="retreat phase only")
    movement: Optional[TurnResultJSON] = Field(default=None, description="retreat phase only: the movement before")
    rules: Optional[str] = Field(default=None, description="the rules the phase was adjudicated under")
    next_phase: Optional[str] = Field(default=None, description="the phase that follows (null: none, or not known)")
    details: Optional[dict[str, Any]] = Field(default=None, description="another family's own result fields "
                                              "(battles, units created, readings, a stage's conflict, ...)")


# the kinds of a batch line's error besides the names of dipsat's errors
BATCH_ERROR_KINDS = ("invalid_json", "invalid_request", "too_large", "timeout", "worker_died", "internal_error")


class BatchErrorJSON(_Out):
    kind: str = Field(description="invalid_json, invalid_request, too_large, timeout, worker_died, internal_error, "
                                  "or the name of a dipsat error (PositionError, RuleError, UnknownVariant, ...)",
                      json_schema_extra={"anyOf": [{"enum": list(BATCH_ERROR_KINDS)}, {"pattern": "^[A-Z][A-Za-z]+$"}]})
    message: str = Field(description="what is wrong and where (line, field), quoting the bad text")


class BatchFailureJSON(_Out):
    line: int = Field(description="the input line, from 1")
    ok: Literal[False]
    id: Any = Field(default=None, description="the request's id, when it could be read")
    error: BatchErrorJSON


class BatchSuccessJSON(TurnResultJSON):
    line: int = Field(description="the input line, from 1")
    ok: Literal[True]
    id: Any = Field(default=None, description="the request's id, echoed")


class BatchLineJSON(RootModel[Union[BatchSuccessJSON, BatchFailureJSON]]):
    """One line of ``dipsat batch`` output."""


class PlayOutcomeJSON(_Out):
    power: str
    order: str
    result: str
    reason: str


class PlayPhaseJSON(_Out):
    phase: str = Field(description="e.g. S1901M, F1901R, W1901A")
    outcomes: list[PlayOutcomeJSON]
    units: dict[str, list[str]] = Field(description="the position after the phase")
    centres: dict[str, int] = Field(description="supply centres per power after the phase")


class PlayJSON(_Out):
    """``dipsat play --json``: every phase played, and what comes next."""

    phases: list[PlayPhaseJSON]
    next_phase: Optional[str]
    winner: Optional[str]
    winners: list[str]
    details: Optional[dict[str, Any]] = Field(default=None, description="another family's own data of the game "
                                              "(what was drawn before the first phase, the state of an economy, ...)")


def schema(what: str) -> dict[str, Any]:
    """The JSON Schema called ``what`` (see :data:`SCHEMAS`)."""
    from dipsat.game.request import TurnRequest
    from dipsat.io.corpus import corpus_schema

    if what == "corpus":
        return corpus_schema()
    models: dict[str, type[BaseModel]] = {"turn": TurnRequest, "result": TurnResultJSON, "batch": BatchLineJSON,
                                          "play": PlayJSON}
    model = models[what]
    return model.model_json_schema()


SCHEMAS = {
    "corpus": "a corpus case file",
    "turn": "a turn request (adjudicate FILE, one batch line)",
    "result": "the output of adjudicate --json (one phase)",
    "batch": "one output line of batch",
    "play": "the output of play --json",
}
