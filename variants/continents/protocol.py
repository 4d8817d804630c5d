"""The continents game on the core's game protocol (:mod:`dipsat.game.protocol`).

A request is one round (units, order lists, the map it is played on) or a whole game (a saved
game, or a corpus case of kind 'game': the draw, the placement and the rounds).  A round's
result is the protocol's :class:`~dipsat.game.protocol.PhaseResult` (phase ``round``): one outcome per
order, with its kind, outcome kind, culprits (the other sides of its battle) and typed details;
a game's (phase ``game``) holds the outcomes of every phase, each order prefixed by its phase.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Mapping, Optional

from pydantic import BaseModel

from dipsat.errors import DipsatError, InputFileError, InvalidRequest
from dipsat.limits import LimitExceeded, Limits, check_request_size
from dipsat.game.protocol import ClickHooks, Culprit, Engine, Overrides, PhaseOutcome, PhaseResult
from dipsat.records import dataclass

from .board import parse_units
from .requests import DEFAULT_MAP, RoundRequest, case_data, get_map, is_game_case, read_request, rules_of, run_request
from .round import OrderOutcome, RoundResult
from .rules import ContinentsRules, choice_options, continents_preset, option_values

_KINDS = (("SA", "support_attack"), ("SD", "support_defence"), ("A", "move"), ("H", "hold"), ("HOLD", "hold"))


@dataclass(frozen=True)
class ContinentsRequest:
    """One round (``round``) or a whole game (``game``: the saved game's data), and the file it
    came from (a map's path is relative to it)."""

    where: str
    round: Optional[RoundRequest] = None
    game: Optional[dict[str, Any]] = None
    game_options: Optional[dict[str, Any]] = None  # a game's own options (a saved game's)
    game_rules: Optional[str] = None
    raw: Any = None  # the data read (pictures of saved games are drawn from it)


def order_kind(text: str) -> str:
    """The kind of a continents order, from its first word (``A``, ``SA``, ``SD``, ``H``)."""
    first = text.strip().split(maxsplit=1)[0].upper() if text.strip() else ""
    kind = dict(_KINDS).get(first)
    if kind is None and re.search(r"\bH(OLD)?$", text.strip(), re.I):
        kind = "hold"
    return kind or "unknown"


def _count(data: dict[str, Any]) -> int:
    n = 0
    for key in ("units", "orders"):
        group = data.get(key)
        if isinstance(group, dict):
            n += sum(len(v) for v in group.values() if isinstance(v, list))
    return n


class ContinentsGame(ClickHooks):
    """The continents family (seed 004)."""

    name = "continents"
    clicks_module = "dipsat.variants.continents.clicks"  # set up and ordered by clicking (dipsat serve)

    # -- requests and options -------------------------------------------------------------------
    def read(self, data: Any, where: str, limits: Limits) -> ContinentsRequest:
        if not isinstance(data, dict):
            raise InputFileError(f"{where}: expected a table of fields, got {type(data).__name__}")
        check_request_size(data, where, limits)
        game: Optional[dict[str, Any]] = None
        at = ""  # where the game's fields are
        if is_game_case(data):
            game, at = {k: v for k, v in case_data(data).items() if k != "kind"}, "data."
        elif "phases" in data:  # a saved game
            game = {k: v for k, v in data.items() if k != "variant"}
        if game is not None:
            phases, opts, rules = game.get("phases", []), game.pop("options", None) or {}, game.pop("rules", None)
            for field, value, kind in (("phases", phases, list), ("options", opts, dict)):
                if not isinstance(value, kind):  # a number where the list goes was an internal error (fuzz)
                    raise InvalidRequest(f"{where}: {at}{field}: expected {'a list' if kind is list else 'a table'}, "
                                         f"got {type(value).__name__}")
            if rules is not None and not isinstance(rules, str):
                raise InvalidRequest(f"{where}: {at}rules: expected a preset's name, got {type(rules).__name__}")
            n = sum(_count(ph) for ph in phases if isinstance(ph, dict))
            if n > limits.max_orders:
                raise LimitExceeded(f"{where}: {n:,} units and orders; the limit is {limits.max_orders:,}")
            return ContinentsRequest(where, game=game, game_options=dict(opts), game_rules=rules, raw=data)
        return ContinentsRequest(where, round=read_request(data, where), raw=data)

    def options_model(self) -> type[BaseModel]:
        return ContinentsRules

    def options(self, request: Any, rules: Optional[str] = None, overrides: Overrides = ()) -> ContinentsRules:
        if rules is not None and rules.lower() in ("continents", "datc"):
            rules = None  # the variant's own preset (a corpus expectation's 'rules')
        if request is None:
            base = RoundRequest()
        elif request.round is not None:
            base = request.round
        else:
            base = RoundRequest(rules=request.game_rules, options=dict(request.game_options or {}))
        if isinstance(overrides, Mapping):
            base = base.model_copy(update={"options": {**base.options, **overrides}})
            overrides = ()
        return rules_of(base, rules, tuple(overrides))

    def units(self, request: Any, units: dict[str, list[str]]) -> dict[str, list[str]]:
        return parse_units(self._map(request), units, "units_after").as_units(self._map(request))

    def _map(self, request: Any) -> Any:
        name = request.round.map if request.round is not None else (request.game or {}).get("map", DEFAULT_MAP)
        return get_map(str(name), request.where)

    def settings(self, options: BaseModel) -> list[tuple[str, BaseModel]]:
        assert isinstance(options, ContinentsRules)
        out: list[tuple[str, BaseModel]] = [("continents", options)]
        for name in choice_options():  # (the set-up options change a game, not a round)
            out += [(f"{name}={v}", options.with_(**{name: v})) for v in option_values(name) if v != getattr(options, name)]
        return out

    # -- a phase ----------------------------------------------------------------------------------
    def adjudicate(self, request: Any, options: BaseModel, engine: Engine = Engine()) -> PhaseResult:
        assert isinstance(options, ContinentsRules)
        if request.game is not None:
            return self._game(request, options)
        res = run_request(request.round, request.where, rules_value=options)
        return self._round(res, self._map(request))

    def _round(self, res: RoundResult, cmap: Any) -> PhaseResult:
        from .words import round_json

        battles = {b.node: b for b in res.battles}
        outcomes = tuple(outcome(o, battles.get(o.node)) for o in res.outcomes)
        details = {k: v for k, v in round_json(res).items() if k not in ("outcomes", "units_after", "rules")}
        r = PhaseResult(variant="continents", phase="round", rules=res.rules, outcomes=outcomes,
                        units_after=res.after.as_units(cmap), winners=tuple(res.winners),
                        details=details, native=res)
        return r.model_copy(update={"next_phase": self.next_phase(r)})

    def _game(self, request: ContinentsRequest, options: ContinentsRules) -> PhaseResult:
        from .game import game_json, load_game, replay

        saved = load_game({**(request.game or {}), "options": {}}, f"{request.where}: data")
        game = replay(saved, request.where, rules_value=options)
        outcomes: list[PhaseOutcome] = []
        history: list[PhaseResult] = []
        for rec in game.history:
            if rec.round is not None:
                played = self._round(rec.round, game.cmap).model_copy(update={"phase": rec.name})
            else:
                played = PhaseResult(variant="continents", phase=rec.name, rules=options.name, outcomes=tuple(
                    PhaseOutcome(power=o.player, order=o.text, kind="placement", result=o.result,
                                 succeeded=o.result == "placed", reason=o.reason, details={}) for o in rec.outcomes),
                    units_after=rec.after.as_units(game.cmap), details={"lines": list(rec.lines)})
            history.append(played)
            outcomes += [o.model_copy(update={"order": f"{rec.name}: {o.order}"}) for o in played.outcomes]
        js = game_json(game)
        r = PhaseResult(variant="continents", phase="game", rules=options.name, outcomes=tuple(outcomes),
                        units_after=game.board.as_units(game.cmap), winners=tuple(game.winners),
                        history=tuple(history), details=js, native=game)
        return r.model_copy(update={"next_phase": self.next_phase(r)})

    def without(self, request: ContinentsRequest, power: str, order: str) -> ContinentsRequest:
        if request.round is None:
            raise DipsatError("a continents game: 'why' asks about one round's orders")
        orders = {p: [t for t in ts if not (p == power and t == order)] for p, ts in request.round.orders.items()}
        return replace(request, round=request.round.model_copy(update={"orders": orders}))

    def next_phase(self, result: PhaseResult) -> Optional[str]:
        native = result.native
        if isinstance(native, RoundResult):
            if native.winners:
                return None
            return f"round {native.round + 1}" if native.round is not None else "round"
        if getattr(native, "winners", None):
            return None
        return f"round {native.rounds + 1}"

    def describe(self, result: PhaseResult) -> str:
        from .words import format_round
        from .game import format_game

        if isinstance(result.native, RoundResult):
            return format_round(result.native)
        return format_game(result.native)

    def draw(self, request: Any, result: Optional[PhaseResult], title: Optional[str] = None, crop: bool = False,
             phase: Optional[str] = None) -> str:
        from .picture import render_file

        return render_file(request.raw, request.where, phase, title)


def outcome(o: OrderOutcome, battle: Any) -> PhaseOutcome:
    """A continents order outcome as the protocol's: its culprits are the other sides of the
    battle it fought in."""
    culprits: tuple[Culprit, ...] = ()
    if battle is not None and o.result in ("lost", "support_lost", "partial", "won"):
        culprits = tuple(Culprit(power=s.player, order=f"{s.force} ({'; '.join(s.parts)})")
                         for s in battle.sides if s.player != o.player)
    details = {k: v for k, v in o.model_dump(mode="json").items()
               if k not in ("player", "text", "result", "reason", "kind") and v not in (None, "", 0, False, [], ())}
    return PhaseOutcome(power=o.player, order=o.text, kind="rejected" if o.rejected else order_kind(o.text), result=o.result, succeeded=o.succeeded,
                        culprits=culprits, by=tuple(c.power for c in culprits), details=details, reason=o.reason)
