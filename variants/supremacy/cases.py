"""Supremacy corpus cases: what a case's ``[data]`` runs (:func:`run_data`, which the game
protocol of :mod:`.protocol` adjudicates).

A Supremacy case (``variant = "supremacy"``) keeps its input in ``[data]`` and its expected
results in each expectation's ``facts`` (dotted paths into the result's details, compared for
equality; ``error`` is a text the error message must contain; :mod:`dipsat.io.case_check`).  ``data.kind`` says what is run:

    setup    data.setup (players' choices, dice)           -> the state after set-up
    stage    data.state, data.power, data.stage, data.actions -> feasible, conflict, quantities,
                                                               the state after (when feasible)
    stage1   data.state, data.pay {power: true|false}      -> interest, defaults, state after
    stage2   data.state                                    -> production log, state after
    drill    data.state, data.drill, data.dice             -> the drill's facts, state after
    odds     data.state, data.drill                        -> exact probabilities (fractions as text)
    wealth   data.state                                    -> the wealth table
    bids     data.bids {power: {stage: chits}}, data.dice   -> player order per stage
    game     data.state (or data.setup), data.turns (as in a game file) -> per turn the stages (order,
             log lines) and the state after; the game's result (winners); the final state
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dipsat.errors import DipsatError

from . import blockades, economy
from .bidding import player_order
from .dice import Dice
from .drills import Assault, assault_distribution
from .strikes import NuclearStrike, clash_distribution, nuclear_distribution
from .options import SupremacyOptions
from .setup import SetupInput, set_up
from .stage import StageCheck, apply_actions, check_stage
from .state import State, parse_state
from .inputs import DrillInput, _shown, invalid, parse_drill, run_drill

KINDS = ("setup", "stage", "stage1", "stage2", "drill", "odds", "wealth", "bids", "game")


class CaseData(BaseModel):
    """The fields of a Supremacy case's ``[data]`` (or a request's), typed, so a field of the
    wrong type is an error naming it rather than a failure further in; which fields a kind reads
    is in the module's docstring."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["setup", "stage", "stage1", "stage2", "drill", "odds", "wealth", "bids", "game"]
    variant: str = "supremacy"
    options: dict[str, Any] = Field(default_factory=dict)
    rules: Optional[Union[str, list[str]]] = None
    state: Optional[dict[str, Any]] = None
    setup: Optional[dict[str, Any]] = None
    power: str = ""
    stage: int = 0
    actions: list[str] = Field(default_factory=list)
    pay: dict[str, bool] = Field(default_factory=dict)
    drill: Optional[dict[str, Any]] = None
    dice: Optional[list[int]] = None
    bids: dict[str, dict[int, int]] = Field(default_factory=dict)
    turns: list[Any] = Field(default_factory=list)


def case_data(data: Any, where: str = "data") -> CaseData:
    if not isinstance(data, dict):
        raise DipsatError(f"{where}: expected a table, got {_shown(data)}")
    if "kind" not in data:
        raise DipsatError(f"{where}.kind: missing; one of {', '.join(KINDS)}")
    try:
        return CaseData.model_validate(data)
    except ValidationError as exc:
        raise invalid(exc, where) from None


def state_facts(state: State) -> dict[str, Any]:
    return state.clean().model_dump(mode="json", exclude_none=True)


def seed_of(opts: SupremacyOptions, data: dict[str, Any]) -> object:
    if opts.random_seed is not None:
        return opts.random_seed
    import hashlib
    import json

    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def fmt_p(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


def odds(state: State, drill: DrillInput, opts: SupremacyOptions) -> dict[str, Any]:
    """Exact distributions: per outcome, and the tails P(side loses >= k)."""
    if isinstance(drill, NuclearStrike):
        dn = nuclear_distribution(state, drill)
        return {"struck": {str(k): fmt_p(p) for k, p in dn.items()},
                "struck_at_least": {str(k): fmt_p(sum((p for j, p in dn.items() if j >= k), Fraction(0))) for k in dn}}
    d = assault_distribution(state, drill, opts) if isinstance(drill, Assault) else clash_distribution(state, drill)
    att: dict[int, Fraction] = {}
    dfn: dict[int, Fraction] = {}
    for (a, b), p in d.items():
        att[a] = att.get(a, Fraction(0)) + p
        dfn[b] = dfn.get(b, Fraction(0)) + p

    def tail(m: dict[int, Fraction]) -> dict[str, str]:
        return {str(k): fmt_p(sum((p for j, p in m.items() if j >= k), Fraction(0))) for k in sorted(m)}

    return {"joint": {f"{a},{b}": fmt_p(p) for (a, b), p in d.items()},
            "attacker_loses": {str(k): fmt_p(p) for k, p in sorted(att.items())},
            "defender_loses": {str(k): fmt_p(p) for k, p in sorted(dfn.items())},
            "attacker_loses_at_least": tail(att), "defender_loses_at_least": tail(dfn)}


def run_data(data: dict[str, Any], opts: SupremacyOptions) -> dict[str, Any]:
    """Run one case's data; the result as plain data (the facts a case may check)."""
    d = case_data(data)
    kind = d.kind
    if kind == "setup":
        try:
            inp = SetupInput.model_validate(d.setup or {})
        except ValidationError as exc:
            raise invalid(exc, "data.setup") from None
        state, dice = set_up(inp, opts)
        return {"state": state_facts(state), "dice_used": dice.used, "deck_size": len(state.deck)}
    if kind == "bids":
        dice = Dice(d.dice, seed_of(opts, data))
        return {"order": {str(k): v for k, v in player_order(d.bids, dice).items()}}
    if kind == "game":
        from .game import load_game, play_game, result_facts

        game = load_game({k: v for k, v in data.items() if k not in ("kind", "rules")}, "data")
        g = play_game(game, opts, "data")
        return {"turns": [{"stages": {str(st.stage): {"order": st.order, "lines": st.lines} for st in t.stages},
                           "state": state_facts(t.state) if t.state else None} for t in g.turns],
                "result": result_facts(g.result), "state": state_facts(g.state)}
    state = parse_state(d.state or {}, "data.state")
    if kind == "wealth":
        return {"wealth": {p: economy.wealth(state, p) for p in sorted(state.powers)}}
    if kind == "stage":
        return stage_facts(state, data, opts)[1]
    if kind == "stage1":
        paid = {}  # Bank Loans' interest only: it never waits for the blank salaries rule
        for p in sorted(state.powers):
            due, ok = economy.pay_interest(state, p, opts, d.pay.get(p, True))
            paid[p] = {"interest": due, "paid": ok}
        return {"interest": paid, "state": state_facts(state)}
    if kind == "stage2":
        from .game import stage2

        return {"log": stage2(state, opts).lines, "state": state_facts(state)}
    if kind in ("drill", "odds"):
        if d.drill is None:
            raise DipsatError(f"data.drill: missing: a case of kind {kind!r} runs a battle drill")
        drill = parse_drill(d.drill)
        if kind == "odds":
            return {"odds": odds(state, drill, opts)}
        dice = Dice(d.dice, seed_of(opts, data))
        out = run_drill(state, drill, opts, dice)
        dice.check_all_used()
        return {**out, "dice_used": dice.used, "review": blockades.review(state, opts), "state": state_facts(state)}
    raise AssertionError(kind)  # CaseData admits only the kinds above


def stage_facts(state: State, data: dict[str, Any], opts: SupremacyOptions) -> tuple[StageCheck, dict[str, Any]]:
    """A stage's actions checked jointly and, when feasible, carried out: the check and its facts."""
    d = case_data(data)
    chk = check_stage(state, d.power, d.stage, d.actions, opts)
    out: dict[str, Any] = {"feasible": chk.feasible, "conflict": [a.text for a in chk.conflict],
                           "quantities": chk.quantities}
    if chk.feasible:
        out["log"] = apply_actions(state, chk.power, chk.actions, opts)
        out["review"] = blockades.review(state, opts)
        out["state"] = state_facts(state)
    return chk, out


def blank_options() -> list[tuple[str, list[Any]]]:
    from .options import _values

    out = []
    for name, f in SupremacyOptions.model_fields.items():
        vals = _values(name)
        if len(vals) > 1 and name != "random_seed":
            out.append((name, vals))
    return out
