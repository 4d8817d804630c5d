"""The game protocol: what every game family implements, and all that the commands use.

dipsat adjudicates games of several families: the Diplomacy boards (the core's pipeline over a
:class:`dipsat.game.variant.Variant` record), and variants whose games have other positions, orders
and phases (units counted per country, an economy with stages and dice).  Every family is one
object with the shape of :class:`GameProtocol`:

* ``read(data, where, limits)``: a request (one phase, or a whole game for a corpus case of
  several phases) from a file's or a batch line's data, checked within the limits (units and
  orders: ``max_orders``), as the family's own typed request;
* ``options(request, rules, overrides)``: the rule options the request runs under (a preset by
  name and ``NAME=VALUE`` overrides over the request's own), an instance of ``options_model()``,
  the model ``readings``, ``compare`` and ``coverage`` enumerate;
* ``adjudicate(request, options, engine)``: the phase, as a :class:`PhaseResult`, the one
  result type of every family: typed outcomes (order kind, outcome kind, succeeded, culprits,
  details, and the words rendered from those values), the position after, the next phase;
  optionally ``adjudicate_json(request, options, engine)``: the same result's JSON
  (``adjudicate(...).to_json()``) written without the typed objects (``batch`` uses it where a
  family has it; the Diplomacy boards do), and ``adjudicate_text(request, options, engine)``: that
  JSON as compact text, byte for byte what the json module writes of it (a ``batch`` line's
  answer; the Diplomacy boards have it); and ``adjudicate_words(request, options, engine)``:
  ``describe(adjudicate(...))`` written without the typed result (``adjudicate`` without
  ``--json`` uses it where a family has it; the Diplomacy boards do);
* ``units(request, units)``: a position written in the request's terms (a corpus case's
  ``units_after``), as the result writes it;
* ``without(request, power, order)``: the request with one order left out (``why``);
* ``next_phase(result)``: what comes after the phase (None: the game is over, or the request
  was not one of a game's phases);
* ``describe(result)``: the result in words; ``draw(request, result, title, crop)``: a picture.

The commands (``adjudicate``, ``batch``, ``corpus``, ``play``, ``compare``, ``readings``,
``coverage``, ``explore``, ``why``, ``render``) take the family of a file from
:func:`find_game` and use nothing else of it: one code path each, with the same limits, errors
and ``--json`` for every family.  A Diplomacy-board variant is a :class:`~dipsat.game.variant.Variant`
record (its hooks are the board's); a variant of another family is a :class:`GameRecord`,
whose ``game`` makes its protocol object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Protocol, Sequence, Union, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from dipsat.errors import DipsatError
from dipsat.records import dataclass

if TYPE_CHECKING:
    from dipsat.limits import Limits


Overrides = Union[Sequence[str], Mapping[str, Any]]  # NAME=VALUE texts, or a table of option values


class _Edge(BaseModel):
    # built on first use: `adjudicate` in words and `batch` make none of these
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True, defer_build=True)


class Culprit(_Edge):
    """An order an outcome names as its cause."""

    power: str
    order: str = Field(description="the order as written")
    unit: Optional[str] = Field(default=None, description="'Power: unit' the order is for, when it names one")


class PhaseOutcome(_Edge):
    """The outcome of one order, of any family: typed values, and words rendered from them."""

    power: str
    order: str = Field(description="the order as written (or the implied hold)")
    unit: Optional[str] = None
    kind: str = Field(description="the order's kind: hold, move, support, convoy, retreat, build, ..., a family's own")
    result: str = Field(description="the outcome's kind: moved, bounced, cut, won, partial, lost, ...")
    succeeded: bool
    culprits: tuple[Culprit, ...] = ()
    by: tuple[str, ...] = Field(default=(), description="the culprits' texts")
    dislodged_by: Optional[str] = None
    strengths: Optional[tuple[dict[str, Any], ...]] = None
    details: Optional[dict[str, Any]] = Field(default=None, description="the typed fields of the outcome's kind beyond "
                                              "these, as JSON values (None: not explained)")
    reason: Optional[str] = Field(default=None, description="why, in words rendered from the values (None: not explained)")

    @property
    def text(self) -> str:
        """The order as written (``order``; the name a board's outcomes give it)."""
        return self.order

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"power": self.power, "order": self.order, "unit": self.unit, "kind": self.kind,
                               "result": self.result, "succeeded": self.succeeded}
        if self.reason is not None:
            out["reason"] = self.reason
        out |= {"by": list(self.by), "dislodged_by": self.dislodged_by,
                "culprits": [c.model_dump() for c in self.culprits]}
        if self.strengths is not None:
            out["strengths"] = list(self.strengths)
        if self.details is not None:
            out["details"] = self.details
        return out


class PhaseResult(_Edge):
    """One adjudicated phase (or a game case played), of any family.

    ``board`` holds the fields only a Diplomacy board has (dislodged units, standoffs, backup
    rules, retreat options, the movement before a retreat phase: the published result schema
    names them); ``details`` the fields of another family's result (battles, units created,
    the readings of a round, a stage's conflict, ...) as JSON values.  ``native`` is the
    family's own result object (its words and pictures are drawn from it); it is not part of
    the JSON."""

    variant: str
    phase: str = Field(description="movement, retreat, adjustment, placement, or a family's own (round, stage, game, ...)")
    rules: str
    outcomes: tuple[PhaseOutcome, ...]
    units_after: dict[str, list[str]] = Field(description="the position after, per power")
    next_phase: Optional[str] = None
    winners: tuple[str, ...] = Field(default=(), description="who has won at the end of the phase (a game: at its end)")
    history: tuple["PhaseResult", ...] = Field(default=(), description="a game: each phase played, in turn")
    board: Optional[dict[str, Any]] = None
    details: Optional[dict[str, Any]] = None
    native: Any = Field(default=None, exclude=True, repr=False)
    _outcomes_json: Optional[list[dict[str, Any]]] = PrivateAttr(default=None)  # as the engine wrote them

    def with_outcomes_json(self, outcomes: list[dict[str, Any]]) -> "PhaseResult":
        """The result, keeping the JSON of its outcomes as the engine wrote it (to_json reuses it)."""
        self._outcomes_json = outcomes
        return self

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``adjudicate --json`` and of a ``batch`` line (the published ``result``
        schema, :mod:`dipsat.io.schemas`)."""
        outs = self._outcomes_json if self._outcomes_json is not None else [o.to_json() for o in self.outcomes]
        out: dict[str, Any] = {"variant": self.variant, "phase": self.phase, "outcomes": outs}
        out |= dict(self.board or {})
        out["units_after"] = self.units_after
        out["rules"] = self.rules
        out["next_phase"] = self.next_phase
        if self.details is not None:
            out["details"] = self.details
        return out

    def play_json(self) -> dict[str, Any]:
        """A game played as the JSON of ``play --json`` (the published ``play`` schema): each
        phase's outcomes and position, what comes next, the winners; a family's own data of the
        game in ``details``."""
        return {"phases": [{"phase": h.phase, "outcomes": [{"power": o.power, "order": o.order, "result": o.result,
                                                            "reason": o.reason or ""} for o in h.outcomes],
                            "units": h.units_after, "centres": dict((h.details or {}).get("centres") or {})}
                           for h in self.history],
                "next_phase": self.next_phase, "winner": "+".join(self.winners) or None, "winners": list(self.winners),
                "details": self.details}

    def outcome(self, order: str) -> PhaseOutcome:
        """The outcome of the order written ``order`` (``Power: order`` when several powers
        wrote it); a :class:`DipsatError` listing the orders otherwise."""
        key, power = order.strip(), None
        if ":" in key:
            head, _, rest = key.partition(":")
            if any(o.power.lower() == head.strip().lower() for o in self.outcomes):
                power, key = head.strip(), rest.strip()
        norm = " ".join(key.split()).lower()
        hits = [o for o in self.outcomes if " ".join(o.order.split()).lower() == norm
                and (power is None or o.power.lower() == power.lower())]
        if len(hits) != 1:
            known = "; ".join(f"{o.power}: {o.order}" for o in self.outcomes)
            what = "is not among the orders" if not hits else "is written by several powers (prefix it with 'Power: ')"
            raise DipsatError(f"order {order!r} {what}; the orders: {known}")
        return hits[0]


@dataclass(frozen=True)
class Engine:
    """How a phase is solved (engine settings, not rules: the outcome is the same)."""

    time_limit: Optional[float] = None
    all_cpsat: bool = False  # every part of a movement's equations to CP-SAT, not only cycles
    explain: bool = True  # reasons, strengths and details (False: outcome kinds and culprits only)


@runtime_checkable
class GameProtocol(Protocol):
    """A game family (see the module's docstring)."""

    name: str

    def read(self, data: Any, where: str, limits: "Limits") -> Any:
        """The family's typed request from a file's or a line's data; errors name ``where``."""
        ...

    def options_model(self) -> type[BaseModel]:
        """The model of the options ``readings``, ``compare`` and ``coverage`` enumerate."""
        ...

    def options(self, request: Any, rules: Optional[str] = None, overrides: Overrides = ()) -> BaseModel:
        """The options the request runs under: ``rules`` (a preset) and ``overrides``
        (``NAME=VALUE`` texts, or a table of values) over the request's own."""
        ...

    def units(self, request: Any, units: dict[str, list[str]]) -> dict[str, list[str]]:
        """A position written in the request's terms (an expectation's ``units_after``), as a
        result's ``units_after`` writes it."""
        ...

    def settings(self, options: BaseModel) -> list[tuple[str, BaseModel]]:
        """The named option settings ``compare`` runs a case under by default: the base
        ``options`` first, then each other reading the family names."""
        ...

    def adjudicate(self, request: Any, options: BaseModel, engine: Engine = Engine()) -> PhaseResult:
        """The phase (or the game of a request of several phases)."""
        ...

    def without(self, request: Any, power: str, order: str) -> Any:
        """The request with one order (``power``'s, as written) left out: a counterfactual of
        ``why``."""
        ...

    def next_phase(self, result: PhaseResult) -> Optional[str]:
        ...

    def describe(self, result: PhaseResult) -> str:
        """The result in words."""
        ...

    def draw(self, request: Any, result: Optional[PhaseResult], title: Optional[str] = None, crop: bool = False,
             phase: Optional[str] = None) -> str:
        """An SVG picture of the request (and of its result, when adjudicated)."""
        ...


class ClickHooks:
    """The optional hooks of ``dipsat serve`` (see ARCHITECTURE.md, the sandbox) for a family
    that keeps them in one module of its own, named by ``clicks_module`` and imported on first
    use: its ``CLICKS`` table and its functions ``blank``, ``edit_units`` and ``click_order``."""

    clicks_module: str

    def _clicks_hooks(self) -> Any:
        import importlib

        return importlib.import_module(self.clicks_module)

    @property
    def clicks(self) -> dict[str, Any]:
        return dict(self._clicks_hooks().CLICKS)

    def blank(self) -> dict[str, Any]:
        return dict(self._clicks_hooks().blank())

    def edit_units(self, data: dict[str, Any], power: str, place: str, kind: Optional[str], delta: int) -> dict[str, Any]:
        return dict(self._clicks_hooks().edit_units(data, power, place, kind, delta))

    def click_order(self, data: dict[str, Any], action: str, origin: str, target: str, count: Optional[int],
                    ally: Optional[str]) -> dict[str, Any]:
        return dict(self._clicks_hooks().click_order(data, action, origin, target, count, ally))


@dataclass(frozen=True, eq=False)
class GameRecord:
    """The record of a variant of another game family: its identity, and its protocol object
    (made on first use by ``game``; its package is imported then).  It has none of a
    Diplomacy board's hooks."""

    name: str
    game: Callable[[], GameProtocol]
    aliases: tuple[str, ...] = ()
    description: str = ""
    summary: str = ""  # one line for the 'dipsat rules' listing
    rules_text: Optional[Callable[[], str]] = None  # 'dipsat rules NAME': every option with its meaning
    commands: Callable[[], Sequence["VariantCommand"]] = lambda: ()


@dataclass(frozen=True)
class VariantCommand:
    """A CLI subcommand a variant contributes (``dipsat NAME ...``): a tool of its own game,
    not one of the commands every family answers."""

    name: str
    help: str
    configure: Callable[[Any], None]
    run: Callable[[Any], int]
    examples: str = ""  # command lines shown under its --help, one a line
