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

from pydantic import BaseModel

from dipsat.errors import DipsatError
from dipsat.records import dataclass

if TYPE_CHECKING:
    from dipsat.game.phase_result import Culprit as Culprit, PhaseOutcome as PhaseOutcome, PhaseResult as PhaseResult
    from dipsat.limits import Limits


Overrides = Union[Sequence[str], Mapping[str, Any]]  # NAME=VALUE texts, or a table of option values


def __getattr__(name: str) -> Any:
    """The result's models (:mod:`dipsat.game.phase_result`), imported on first use: ``adjudicate``
    in words and ``batch`` make none of them."""
    if name in ("Culprit", "PhaseOutcome", "PhaseResult"):
        from dipsat.game import phase_result

        return getattr(phase_result, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
