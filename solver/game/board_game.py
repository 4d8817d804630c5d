"""The game protocol (:mod:`dipsat.game.protocol`) for the Diplomacy boards: a request is a
:class:`dipsat.game.api.TurnRequest`, a phase is adjudicated by the :class:`dipsat.game.pipeline.Pipeline`
of the variant's record, and the result is the pipeline's typed result (movement, retreat,
adjustment, placement) seen as a :class:`~dipsat.game.protocol.PhaseResult`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Optional

from pydantic import BaseModel, ValidationError

from dipsat.errors import InputFileError, InvalidRequest
from dipsat.limits import Limits, check_request_size
from dipsat.game.protocol import Engine, Overrides

if TYPE_CHECKING:
    from dipsat.game.phase_result import PhaseResult
    from dipsat.game.request import TurnRequest
    from dipsat.rules import RuleOptions
    from dipsat.game.variant import Variant

REQUEST_FIELDS = {"variant", "phase", "units", "orders", "owners", "retreat_orders"}  # what a corpus case's turn is
BOARD_FIELDS = ("dislodged", "contested", "backups", "retreat_options", "movement")  # a board result's own JSON fields


class BoardGame:
    """A Diplomacy-board variant's game (its :class:`~dipsat.game.variant.Variant` record's hooks)."""

    def __init__(self, variant: "Variant"):
        self.variant = variant
        self.name = variant.name

    def __repr__(self) -> str:
        return f"BoardGame({self.name})"

    # -- requests and options -------------------------------------------------------------------
    def read(self, data: Any, where: str, limits: Limits) -> "TurnRequest":
        from dipsat.game.request import TurnRequest, describe_validation

        if not isinstance(data, dict):
            raise InputFileError(f"{where}: expected a table of fields, got {type(data).__name__}")
        check_request_size(data, where, limits)
        if "expect" in data:  # a corpus case: its position and orders
            data = {k: v for k, v in data.items() if k in REQUEST_FIELDS}
        try:
            return TurnRequest.model_validate({**data, "variant": self.name})
        except ValidationError as exc:
            raise InvalidRequest(f"{where}: {describe_validation(exc)}") from None

    def options_model(self) -> type[BaseModel]:
        return self.variant.options_model

    def options(self, request: Any, rules: Optional[str] = None, overrides: Overrides = ()) -> "RuleOptions":
        from dipsat.rules import parse_overrides

        opts = dict(request.options) if request is not None else {}
        if not overrides:  # (most calls: nothing to check against the Mapping ABC)
            pass
        elif isinstance(overrides, Mapping):
            opts |= dict(overrides)
        elif overrides:
            opts |= parse_overrides(list(overrides), self.variant.options_model)
        return self.variant.rules(rules or (request.rules if request is not None else None), **opts)

    def units(self, request: Any, units: dict[str, list[str]]) -> dict[str, list[str]]:
        from dipsat.game.positions import build_position
        from dipsat.game.request import TurnRequest

        pos = build_position(self.variant, TurnRequest(variant=self.name, units=units, phase="placement"))
        out: dict[str, list[str]] = {}
        for u in pos.units:
            out.setdefault(u.power, []).append(u.short())
        return out

    def settings(self, options: BaseModel) -> list[tuple[str, BaseModel]]:
        names = ["datc", "1971", "1982", "2000", "dptg"]
        return [(n, self.variant.rules(n)) for n in names]

    # -- a phase ----------------------------------------------------------------------------------
    def adjudicate(self, request: Any, options: BaseModel, engine: Engine = Engine()) -> PhaseResult:
        return self.result(self._native(request, options, engine), request.phase)

    def _native(self, request: Any, options: BaseModel, engine: Engine) -> Any:
        """The pipeline's own result of the phase."""
        from dipsat.game.pipeline import Pipeline

        pipe = Pipeline(self.variant, self.variant.rules(options))  # type: ignore[arg-type]
        return pipe.adjudicate(pipe.prepare(request), "cpsat" if engine.all_cpsat else "direct", engine.time_limit,
                               explain=engine.explain)

    def adjudicate_json(self, request: Any, options: BaseModel, engine: Engine = Engine()) -> dict[str, Any]:
        """``adjudicate(...).to_json()``, written straight from the pipeline's result: no
        :class:`PhaseResult` and no :class:`PhaseOutcome` per order is made or validated (what a
        ``batch`` line needs; optional in the protocol)."""
        return self.result_json(self._native(request, options, engine), request.phase)

    def result_json(self, native: Any, phase: str) -> dict[str, Any]:
        """A pipeline's result as :meth:`PhaseResult.to_json` writes it (the published ``result``
        schema): the same fields, in the same order, from the same values."""
        from dipsat.game.results import result_to_json

        js = result_to_json(native)
        out: dict[str, Any] = {"variant": self.name, "phase": phase, "outcomes": js["outcomes"]}
        out |= {k: js[k] for k in BOARD_FIELDS if k in js}
        out["units_after"] = js["units_after"]
        out["rules"] = native.rules.name if native.rules else ""
        out["next_phase"] = self._next(native, phase)
        return out

    def adjudicate_text(self, request: Any, options: BaseModel, engine: Engine = Engine()) -> str:
        """``json.dumps(adjudicate_json(...), separators=(",", ":"))``, written straight from the
        pipeline's result's fields (what a ``batch`` line writes; optional in the protocol)."""
        return self.result_text(self._native(request, options, engine), request.phase)

    def result_text(self, native: Any, phase: str) -> str:
        """:meth:`result_json` as compact JSON text, byte for byte what the json module writes
        of it, without the dicts in between (:func:`dipsat.game.results.result_fields_text`)."""
        from dipsat.game.results import result_fields_text, text_of

        rules = native.rules.name if native.rules else ""
        return (f'{{"variant":{text_of(self.name)},"phase":{text_of(phase)},{result_fields_text(native)},'
                f'"rules":{text_of(rules)},"next_phase":{text_of(self._next(native, phase))}}}')

    def result(self, native: Any, phase: str) -> PhaseResult:
        """A pipeline's result as the protocol's :class:`PhaseResult` (typed, validated), built
        from :meth:`result_json`."""
        from dipsat.game.phase_result import PhaseOutcome, PhaseResult

        js = self.result_json(native, phase)
        res = PhaseResult(variant=js["variant"], phase=phase, rules=js["rules"],
                          outcomes=tuple(PhaseOutcome.model_validate(o) for o in js["outcomes"]),
                          units_after=js["units_after"], next_phase=js["next_phase"],
                          board={k: js[k] for k in BOARD_FIELDS if k in js}, native=native)
        return res.with_outcomes_json(js["outcomes"])

    def without(self, request: Any, power: str, order: str) -> Any:
        orders = {p: [t for t in ts if not (p == power and t == order)] for p, ts in request.orders.items()}
        return request.model_copy(update={"orders": orders})

    def next_phase(self, result: PhaseResult) -> Optional[str]:
        """The phase that follows, named by the variant's calendar when the request gave a year
        and a season (``F1901R``), else by its kind (``retreat``)."""
        return self._next(result.native, result.phase)

    def _next(self, native: Any, phase: str) -> Optional[str]:
        kind, season, year = self.next_parts(native, phase)
        if year is None or season is None:
            return kind
        cal = self.variant.calendar(self.variant, native.rules or self.variant.rules())
        return cal.phase_name(year, season, kind)

    def next_parts(self, native: Any, phase: str) -> tuple[str, Optional[str], Optional[int]]:
        """The kind, season and year of the phase after a pipeline's result ``native`` of kind
        ``phase`` (season and year None where the request gave none)."""
        cal = self.variant.calendar(self.variant, native.rules or self.variant.rules())
        seasons = cal.seasons
        pos = native.position
        moves = [s for s in seasons[:-1]] or list(seasons)
        season, year = pos.season, pos.year
        if phase == "movement" and native.dislodged:
            kind = "retreat"
        elif phase in ("adjustment", "placement") or season not in moves:
            kind, season = "movement", moves[0]
            year = year + 1 if year is not None and phase != "placement" else year
        elif season != moves[-1]:
            kind, season = "movement", moves[moves.index(season) + 1]
        elif self._adjusts(cal, native.after, year):
            kind, season = "adjustment", seasons[-1]
        else:
            kind, season = "movement", moves[0]
            year = year + 1 if year is not None else None
        return kind, season, year

    def _adjusts(self, cal: Any, after: Any, year: Optional[int]) -> bool:
        """Does the end of this year open an adjustment phase (the calendar's own test, over
        the centres as they change hands)?"""
        building = getattr(cal, "building_year", None)
        if year is not None and building is not None and not building(year):
            return False
        need = getattr(cal, "needs_adjustment", None)
        if need is None:
            return True
        owners = dict(after.owners)
        for u in after.units:
            if self.variant.map.provinces[u.province].supply_centre:
                owners[u.province] = u.power
        counts: dict[str, int] = {}
        for p in owners.values():
            counts[p] = counts.get(p, 0) + 1
        return bool(need(after.model_copy(update={"owners": owners}), counts))

    def describe(self, result: PhaseResult) -> str:
        from dipsat.game.words import describe_board_result

        return describe_board_result(result.native)

    def adjudicate_words(self, request: Any, options: BaseModel, engine: Engine = Engine()) -> str:
        """``describe(adjudicate(...))``, written straight from the pipeline's result: no
        :class:`PhaseResult` is made (what ``adjudicate`` without ``--json`` prints; optional in
        the protocol)."""
        from dipsat.game.words import describe_board_result

        return describe_board_result(self._native(request, options, engine))

    def draw(self, request: Any, result: Optional[PhaseResult], title: Optional[str] = None, crop: bool = False,
             phase: Optional[str] = None) -> str:
        from dipsat import seams

        if result is None:
            raise InputFileError("a Diplomacy board is drawn with its orders adjudicated")
        return seams.drawers["svg"](result.native, title=title, crop=crop, variant=self.variant)
