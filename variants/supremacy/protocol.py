"""Supremacy on the core's game protocol (:mod:`dipsat.game.protocol`).

A request is a case's ``[data]`` (a stage's actions, a drill, a set-up, bids, a game of several
turns, ...; :mod:`.cases`) or a game file.  Its result is the protocol's
:class:`~dipsat.game.protocol.PhaseResult`, phase = the data's kind.  A stage's actions are its
outcomes: each is carried out (the stage is feasible), or is one of a minimal conflicting set
(kind ``conflict``: its culprits are the other actions of the set, its details the quantities
the set breaks and their bounds), or is not involved in the conflict (``not_carried_out``: the stage is not
played).  The other kinds' facts are the result's ``details``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Mapping, Optional

from pydantic import BaseModel

from dipsat.errors import DipsatError, InputFileError
from dipsat.limits import LimitExceeded, Limits
from dipsat.game.protocol import ClickHooks, Culprit, Engine, Overrides, PhaseOutcome, PhaseResult
from dipsat.records import dataclass

from .options import SupremacyOptions, make_options

STAGES = 8


@dataclass(frozen=True)
class SupremacyRequest:
    where: str
    doc: dict[str, Any]  # the file's fields (a case: id, options, expect, data)
    data: dict[str, Any]  # what is run: a case's [data], or a game file
    game_file: bool = False


def _items(value: Any) -> int:
    """The items of every list in a request (actions, units, dice, turns...), counted for the
    ``max_orders`` limit."""
    n, stack = 0, [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
            n += sum(1 for x in v.values() if isinstance(x, int) and not isinstance(x, bool)) if v is not value else 0
        elif isinstance(v, list):
            n += len(v)
            stack.extend(v)
    return n


class SupremacyGame(ClickHooks):
    """The Supremacy house rules (seed 002)."""

    name = "supremacy"
    clicks_module = "dipsat.variants.supremacy.clicks"

    def read(self, data: Any, where: str, limits: Limits) -> SupremacyRequest:
        if not isinstance(data, dict):
            raise InputFileError(f"{where}: expected a table of fields, got {type(data).__name__}")
        game_file = "turns" in data or ("setup" in data and "data" not in data)
        inner = data if game_file else data.get("data", data)
        if not isinstance(inner, dict):
            raise InputFileError(f"{where}: data: expected a table")
        n = _items(inner.get("actions", [])) + _items(inner.get("turns", [])) + _items(inner.get("state", {}))
        if n > limits.max_orders:
            raise LimitExceeded(f"{where}: {n:,} actions, units and dice; the limit is {limits.max_orders:,}")
        return SupremacyRequest(where, data, inner, game_file)

    def options_model(self) -> type[BaseModel]:
        return SupremacyOptions

    def options(self, request: Any, rules: Optional[str] = None, overrides: Overrides = ()) -> SupremacyOptions:
        from .inputs import file_options

        from .options import PRESETS

        doc = request.doc if request is not None else {}
        if request is not None and request.game_file:
            doc = {"options": doc.get("options", {})}
        base = file_options(doc) if isinstance(overrides, Mapping) else file_options(doc, list(overrides) or None)
        if rules is not None and rules.lower() in PRESETS:  # 'table' or 'strict': the option preset
            base = {**base, "preset": rules.lower()}
        elif rules is not None and rules.lower() not in ("supremacy", "supremacy-house", "seed002", "datc"):
            raise DipsatError(f"--rules {rules!r}: the supremacy variant's presets are {', '.join(PRESETS)} "
                              "(or set its options with --option NAME=VALUE)")
        return make_options({**base, **overrides} if isinstance(overrides, Mapping) else base)

    def units(self, request: Any, units: dict[str, list[str]]) -> dict[str, list[str]]:
        raise DipsatError("a supremacy case states facts of the state (facts), not units_after")

    def settings(self, options: BaseModel) -> list[tuple[str, BaseModel]]:
        from .cases import blank_options

        base = options.model_dump(exclude_unset=True)
        out: list[tuple[str, BaseModel]] = [("supremacy", options)]
        for name, values in blank_options():
            if name in base:
                continue
            out += [(f"{name}={v}", make_options({**base, name: v})) for v in values if v != getattr(options, name)]
        return out

    def adjudicate(self, request: Any, options: BaseModel, engine: Engine = Engine()) -> PhaseResult:
        assert isinstance(options, SupremacyOptions)
        if request.game_file:
            from .game import load_game, play_game, result_facts
            from .cases import state_facts

            g = play_game(load_game(request.doc, request.where), options, request.where)
            turns: list[dict[str, Any]] = [
                {"turn": t.number, "stages": [{"stage": s.stage, "order": s.order, "log": s.lines} for s in t.stages],
                 "state": state_facts(t.state) if t.state else None} for t in g.turns]
            result: dict[str, Any] = result_facts(g.result)
            facts = {"setup": state_facts(g.setup), "turns": turns, "state": state_facts(g.state), "result": result}
            history = tuple(self._result(f"turn {t['turn']}", (), {"stages": t["stages"], "state": t["state"]}, None, None)
                            for t in turns)
            res = self._result("game", (), facts, g.state, g)
            return res.model_copy(update={"history": history, "winners": tuple(result.get("winners") or ())})
        from .cases import run_data, stage_facts
        from .state import parse_state

        kind = str(request.data.get("kind", ""))
        outcomes: tuple[PhaseOutcome, ...] = ()
        if kind == "stage":
            chk, facts = stage_facts(parse_state(request.data.get("state", {})), request.data, options)
            outcomes = stage_outcomes(chk)
        else:
            facts = run_data(request.data, options)
        return self._result(kind, outcomes, facts, None, facts)

    def _result(self, phase: str, outcomes: tuple[PhaseOutcome, ...], facts: dict[str, Any], state: Any,
                native: Any) -> PhaseResult:
        units: dict[str, list[str]] = {}
        st = facts.get("state")
        if isinstance(st, dict):
            for p, h in sorted((st.get("powers") or {}).items()):
                units[p] = ([f"{n} army {z}" for z, n in sorted((h.get("armies") or {}).items())]
                            + [f"navy {nv.get('sea')}" for nv in h.get("navies") or []])
        r = PhaseResult(variant=self.name, phase=phase or "data", rules="supremacy", outcomes=outcomes,
                        units_after=units, details=facts, native=native)
        return r.model_copy(update={"next_phase": self.next_phase(r)})

    def without(self, request: SupremacyRequest, power: str, order: str) -> SupremacyRequest:
        actions = request.data.get("actions")
        if request.game_file or not isinstance(actions, list):
            raise DipsatError("'why' asks about a stage's actions (data.kind = 'stage')")
        kept = list(actions)
        if order in kept:
            kept.remove(order)
        return replace(request, data={**request.data, "actions": kept})

    def next_phase(self, result: PhaseResult) -> Optional[str]:
        details = result.details or {}
        if result.phase == "stage" and details.get("feasible"):
            return None  # a stage of one power: the next is the next power's, or the next stage
        if result.phase in ("stage1", "stage2"):
            return f"stage {int(result.phase[-1]) + 1}"
        if result.phase == "game":
            res = details.get("result") or {}
            return None if res.get("winners") else "next turn"
        return None

    def describe(self, result: PhaseResult) -> str:
        from .game import GameLog, format_game

        if result.phase == "game" and isinstance(result.native, GameLog):  # a game file (a case's game: its facts)
            return format_game(result.native)
        lines = [f"Supremacy — {result.phase} — rules: {result.rules}"]
        for o in result.outcomes:
            lines.append(f"  {'ok  ' if o.succeeded else 'FAIL'} {o.power}: {o.order}  — {o.reason}")
        if result.next_phase:
            lines.append(f"Next: {result.next_phase}")
        lines.append("Facts:")
        lines.append(json.dumps(result.details, indent=2, default=str))
        return "\n".join(lines)

    def draw(self, request: Any, result: Optional[PhaseResult], title: Optional[str] = None, crop: bool = False,
             phase: Optional[str] = None) -> str:
        from .picture import render_file

        return render_file(request.doc, request.where, phase, title)

    # -- a battle drill set up and ordered by clicking the picture (dipsat serve): see .clicks ----
    @property
    def clicks(self) -> dict[str, Any]:
        from .board import load_board
        from .clicks import CLICKS

        return CLICKS | {"players": list(load_board().superpowers)}


def stage_outcomes(chk: Any) -> tuple[PhaseOutcome, ...]:
    """A stage's actions as outcomes (see the module's docstring)."""
    out: list[PhaseOutcome] = []
    conflict = {id(a) for a in chk.conflict}
    for a in chk.actions:
        verb = str(a.verb)
        if chk.feasible:
            out.append(PhaseOutcome(power=chk.power, order=a.text, kind=verb, result="carried_out", succeeded=True,
                                    details={}, reason="carried out, in the order written"))
        elif id(a) in conflict:
            others = tuple(Culprit(power=chk.power, order=b.text) for b in chk.conflict if b is not a)
            out.append(PhaseOutcome(
                power=chk.power, order=a.text, kind=verb, result="conflict", succeeded=False, culprits=others,
                by=tuple(c.order for c in others), details={"quantities": list(chk.quantities), "bounds": list(chk.detail)},
                reason=(f"cannot be carried out with {'; '.join(c.order for c in others) or 'the stage'}"
                        + (f" (over {', '.join(chk.quantities)})" if chk.quantities else ""))))
        else:
            out.append(PhaseOutcome(power=chk.power, order=a.text, kind=verb, result="not_carried_out", succeeded=False,
                                    details={}, reason="not in the conflict, but the stage's actions are not carried out"))
    return tuple(out)
