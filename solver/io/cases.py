"""A corpus case: a position, its orders and what its expectations say (the corpus format,
``tests/corpora/FORMAT.md``), read from a file within the limits; a case's run; the facts a
case states about a result.  Running cases is :mod:`dipsat.io.corpus`; a case of another game
family is checked through its game protocol by :mod:`dipsat.io.case_check`."""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any, Callable, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from dipsat.errors import DipsatError
from dipsat.game.request import PhaseOrders
from dipsat.game.request import load_model
from dipsat.limits import Limits
from dipsat.records import dataclass


Expected = Literal["succeeds", "fails", "illegal", "partial"]


class Expectation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rules: list[str] = Field(default_factory=lambda: ["datc"], description="rule presets this expectation holds under")
    options: dict[str, object] = Field(default_factory=dict, description="rule option overrides on top of each preset")
    orders: dict[str, Expected] = Field(default_factory=dict, description="order text -> expected outcome")
    dislodged: list[str] = Field(default_factory=list, description="'Power: unit' dislodged this turn")
    units_after: Optional[dict[str, list[str]]] = Field(default=None, description="the whole position after the turn")
    retreats: dict[str, Expected] = Field(default_factory=dict, description="retreat order text -> expected outcome")
    reasons: dict[str, Union[str, list[str]]] = Field(default_factory=dict, description="order text -> text(s) its explanation must contain")
    retreat_options: dict[str, list[str]] = Field(default_factory=dict, description="'Power: unit' -> the provinces it may retreat to")
    backup: Optional[Literal["circular_movement", "convoy_paradox", "other_cycle", "none"]] = None
    facts: dict[str, object] = Field(default_factory=dict, description="variant-owned expected results "
                                     "(dotted path -> value) into a result's details, or error: a text the error must contain")
    readings: Optional[int] = Field(default=None, description="consistent resolutions of the rules as written, before any backup rule")
    winners: Optional[list[str]] = Field(default=None, description="the players who have won at the end of the phase")
    phases: Optional[list[str]] = Field(default=None, description="game cases: the names of the phases the steps played, in turn")
    next_phase: Optional[str] = Field(default=None, description="game cases: the phase the game is at after the last step")

    @field_validator("rules", mode="before")
    @classmethod
    def _one_or_many(cls, v: object) -> object:
        return [v] if isinstance(v, str) else v


class CorpusCase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    title: str = ""
    source: str = ""
    url: str = ""
    variant: str = "standard"
    phase: Literal["movement", "retreat", "adjustment", "placement", "game"] = "movement"
    notes: str = ""
    units: dict[str, list[str]] = Field(default_factory=dict)
    owners: dict[str, list[str]] = Field(default_factory=dict, description="supply centres owned per power")
    orders: dict[str, list[str]] = Field(default_factory=dict)
    retreat_orders: dict[str, list[str]] = Field(default_factory=dict)
    year: Optional[int] = Field(default=None, ge=1, le=9999, description="game cases: the year the game starts in "
                                "(default: the map's first)")
    season: Optional[str] = Field(default=None, description="game cases: the season the game starts in (default: "
                                  "the calendar's first)")
    steps: list[PhaseOrders] = Field(default_factory=list, description="game cases: the phases played in turn "
                                     "by the variant's calendar, each with its orders (and optionally its name and "
                                     "the position after it, checked under every expectation)")
    data: dict[str, object] = Field(default_factory=dict, description="variant-owned input (e.g. a state and "
                                    "actions), read by the variant's game (dipsat.game.protocol)")
    expect: list[Expectation] = Field(min_length=1)

    @model_validator(mode="after")
    def _game_fields(self) -> "CorpusCase":
        if self.phase == "game":
            if not self.steps:
                raise ValueError("phase 'game': give the phases to play as [[steps]]")
            if self.orders or self.retreat_orders:
                raise ValueError("phase 'game': orders go in each of [[steps]], not in [orders] or [retreat_orders]")
        elif self.steps or self.year is not None or self.season is not None:
            raise ValueError(f"steps, year and season are for phase 'game', not {self.phase!r}")
        return self


@dataclass
class CaseRun:
    case_id: str
    rules: str
    path: str
    passed: bool
    problems: list[str] = field(default_factory=list)
    skipped: str = ""  # reason when the case cannot be run yet (phase not supported)
    case: Optional["CorpusCase"] = field(default=None, repr=False, compare=False)  # for reports
    result: Any = field(default=None, repr=False, compare=False)  # the adjudication, when one was made
    expectation: Optional["Expectation"] = field(default=None, repr=False, compare=False)


def load_case(path: str | Path, limits: Optional[Limits] = None) -> CorpusCase:
    """A corpus case file, read within ``limits`` (size, nesting, units and orders)."""
    from dipsat.game.request import read_data_file
    from dipsat.limits import DEFAULT_LIMITS, check_request_size

    limits = limits or DEFAULT_LIMITS
    data = read_data_file(path, limits)
    if isinstance(data, dict):
        check_request_size(data, str(path), limits)
    from dipsat.io.file_kinds import reading

    with reading("corpus", str(path), data):  # a turn or a saved game says what it is
        return load_model(path, CorpusCase, data)


def fact_at(data: Any, path: str) -> Any:
    """The value at a dotted ``path`` of a result's data (``"result.winners"``, ``"state.powers.USA.money"``,
    list items by index); KeyError when there is none."""
    cur = data
    for part in path.split("."):
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        elif isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            raise KeyError(path)
    return cur


def check_facts(run: Callable[[], Any], facts: dict[str, Any], ran: str = "the case ran") -> list[str]:
    """The differences between a run's data and an expectation's ``facts`` (for variants whose
    cases state facts about their own results): each dotted path's value, or with ``error`` the
    text the run's error must mention."""
    try:
        result = run()
    except DipsatError as exc:
        want = facts.get("error")
        if want is None:
            return [f"error: {exc}"]
        return [] if str(want) in str(exc) else [f"error: expected it to mention {want!r}, got {exc}"]
    if "error" in facts:
        return [f"expected an error mentioning {facts['error']!r}; {ran}"]
    problems = []
    for path, want in facts.items():
        try:
            got = fact_at(result, path)
        except KeyError:
            problems.append(f"{path}: not in the result")
            continue
        if got != want:
            problems.append(f"{path}: expected {want!r}, got {got!r}")
    return problems
