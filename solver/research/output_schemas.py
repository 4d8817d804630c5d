"""JSON Schemas of what the research commands print as JSON (``dipsat readings --json``,
``dipsat coverage --json``, ``dipsat fingerprint --json``), published by ``dipsat schema
readings|coverage|fingerprint`` and in
``docs/schemas/``.

As :mod:`dipsat.io.schemas`, the models describe the output (they do not build it), with
``extra="forbid"`` everywhere: a test validates real outputs of every game family against them.
"""

from __future__ import annotations

from typing import Any, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, RootModel

# a rule option's value as JSON (a preset name or reading, a number, a yes/no)
OptionValue = Union[str, int, float, bool, None]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReadingOutcomeJSON(_Out):
    result: str = Field(description="the outcome (a Diplomacy board: moved, bounced, given, cut, ...; another "
                                    "family: the value at a dotted path of its result's details)")
    when: str = Field(description="the readings under which the order has this outcome, as conditions on the "
                                  "options ('always', 'adjacent_convoy=1971', 'a=x and b!=y', ...)")


class OrderReadingsJSON(_Out):
    order: str = Field(description="'Power: order' (a board) or a dotted path into the result (another family)")
    depends_on: list[str] = Field(description="the options its outcome depends on")
    outcomes: list[ReadingOutcomeJSON]


class CyclesResolvedJSON(_Out):
    after_backup_changed_equations: int
    downstream_cycle_or_integer: int
    beyond_enumeration_limit: int


class AssignmentJSON(_Out):
    options: dict[str, OptionValue] = Field(description="one value of every option that touches the turn")
    outcomes: dict[str, str] = Field(description="order (or result path) -> its outcome under these values")
    after: list[str] = Field(description="the position after (a board's units), or empty")
    resolutions_before_backup: Optional[int] = Field(
        description="consistent resolutions of the equations before any backup rule (a board's movement)")


class ReadingsJSON(_Out):
    """``dipsat readings --json``: every order's outcome as a function of the rule options."""

    options: list[str] = Field(description="the options some stage of the adjudication read or split on")
    in_model: list[str] = Field(description="the options the equations were split on (in one model)")
    cycles_from_model: int = Field(description="cycles whose readings came from the one model")
    cycles_resolved: CyclesResolvedJSON
    never_matter: list[str] = Field(description="options the variant has that change no outcome of this turn")
    distinct_outcomes: int = Field(description="the number of distinct tables of outcomes over every reading")
    orders: list[OrderReadingsJSON]
    table: list[AssignmentJSON] = Field(description="every assignment of the options that touch the turn")


class PairJSON(_Out):
    option: str
    a: OptionValue
    b: OptionValue
    cases: list[str] = Field(default_factory=list, description="ids of the cases whose expectations tell a from b")


class OptionChangeJSON(_Out):
    option: str
    a: OptionValue
    b: OptionValue


class JointJSON(_Out):
    case: str
    options: list[OptionChangeJSON] = Field(description="options whose values differ together in the case's "
                                                        "expectations")


class UntestedJSON(_Out):
    option: str
    a: OptionValue
    b: OptionValue


class VariantCoverageJSON(_Out):
    variant: str
    cases: int
    expectations: int
    pairs: list[PairJSON] = Field(description="every pair of values of every option, with the cases telling them apart")
    joint: list[JointJSON]
    untested: list[UntestedJSON] = Field(description="the pairs no case tells apart")
    errors: list[str]


class CoverageJSON(RootModel[list[VariantCoverageJSON]]):
    """``dipsat coverage --json``: per variant, which cases tell each pair of option values apart."""


class FingerprintObservationJSON(_Out):
    id: str = Field(description="the batch line's id (else 'line N'), the case id, or the game and phase")
    where: str = Field(description="the file and line, case file, or game file and phase")
    phase: str = Field(description="movement, retreat, adjustment, game, or a saved game's phase (S1901M)")
    orders: dict[str, list[str]] = Field(description="its orders per power (retreat orders and a game's phases prefixed)")
    diff: list[str] = Field(description="what differs from the observation under the nearest preset with its changes")


class FingerprintPresetJSON(_Out):
    name: str
    distance: int = Field(description="options whose value must differ from the preset's")
    changes: list[dict[str, Any]] = Field(description="every smallest set of changes (option -> value)")


class FingerprintAssignmentsJSON(_Out):
    count: int = Field(description="the consistent assignments of the decided options listed")
    complete: bool = Field(description="false: more than were listed")
    when: Optional[str] = Field(description="the same as conditions on the options (null: too many to state)")
    all: list[dict[str, Any]] = Field(description="each consistent assignment of the decided options")


class FingerprintErrorJSON(_Out):
    where: str
    message: str


class FingerprintPeerJSON(_Out):
    name: str = Field(description="the peer adjudicator: mila or pydip")
    package: str = Field(description="its PyPI package (diplomacy, pydip)")
    version: Optional[str] = Field(description="the installed version")
    summary: str = Field(description="one sentence: the preset it follows, except the options that differ")
    turns: int = Field(description="turns the peer adjudicated")
    left_out: list[str] = Field(description="orders dipsat reads as illegal, given to no one (the unit held)")
    refused: list[str] = Field(description="orders the peer refused (the unit held)")


class FingerprintJSON(_Out):
    """``dipsat fingerprint --json``: the readings of the rules the observations admit."""

    variant: str
    observations: int = Field(description="observations read and adjudicated")
    explained: int = Field(description="observations the consistent assignments explain")
    options: dict[str, list[Any]] = Field(description="every categorical option: its values consistent with the "
                                          "observations (those that explain the most, when none explains all)")
    decided: list[str] = Field(description="the options some observation constrains")
    assignments: FingerprintAssignmentsJSON
    nearest_preset: Optional[str] = Field(description="the preset the fewest options must differ from (the first of ties)")
    nearest_presets: list[str] = Field(description="every nearest preset (ties)")
    changes: dict[str, Any] = Field(description="a smallest set of changes from the nearest preset")
    smallest_changes: list[dict[str, Any]] = Field(description="every smallest set of changes from it")
    presets: list[FingerprintPresetJSON] = Field(description="every preset, nearest first")
    unexplained: list[FingerprintObservationJSON] = Field(description="observations no consistent assignment explains")
    unexplained_count: int
    contested: list[str] = Field(description="observations some consistent assignments explain and others do not")
    errors: list[FingerprintErrorJSON] = Field(description="items that could not be read or adjudicated")
    peer: Optional[FingerprintPeerJSON] = Field(default=None, description="with --peer: the peer fingerprinted")


MODELS: dict[str, type[BaseModel]] = {"readings": ReadingsJSON, "coverage": CoverageJSON, "fingerprint": FingerprintJSON}

SCHEMAS = {
    "readings": "the output of readings --json (outcomes as a function of the rule options)",
    "coverage": "the output of coverage --json (which cases tell option values apart)",
    "fingerprint": "the output of fingerprint --json (which readings recorded results follow)",
}


def schema(what: str) -> dict[str, Any]:
    return MODELS[what].model_json_schema()
