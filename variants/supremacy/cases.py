"""Supremacy corpus cases: what a case's ``[data]`` runs (:func:`run_data`, which the game
protocol of :mod:`.protocol` adjudicates).

A Supremacy case (``variant = "supremacy"``) keeps its input in ``[data]`` and its expected
results in each expectation's ``facts`` (dotted paths into the result's details, compared for
equality; ``error`` is a text the error message must contain; :mod:`dipsat.case_check`).  ``data.kind`` says what is run:

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
from typing import Any, Optional, Union

from pydantic import TypeAdapter, ValidationError

from dipsat.errors import DipsatError

from . import blockades, economy
from .bidding import player_order
from .dice import Dice
from .drills import Assault, assault, assault_distribution
from .strikes import Clash, NuclearStrike, clash, clash_distribution, nuclear, nuclear_distribution
from .options import SupremacyOptions, make_options
from .setup import SetupInput, set_up
from .stage import StageCheck, apply_actions, check_stage
from .state import State, parse_state

DrillInput = Union[Assault, NuclearStrike, Clash]
_DRILL = TypeAdapter(DrillInput)


def parse_drill(data: object) -> DrillInput:
    if isinstance(data, dict) and "drill" not in data:
        data = {**data, "drill": "assault"}
    try:
        return _DRILL.validate_python(data)
    except ValidationError as exc:
        e = exc.errors()[0]
        raise DipsatError(f"drill: {'.'.join(str(x) for x in e['loc'])}: {e['msg']}") from None


def state_facts(state: State) -> dict[str, Any]:
    return state.clean().model_dump(mode="json", exclude_none=True)


def seed_of(opts: SupremacyOptions, data: dict[str, Any]) -> object:
    if opts.random_seed is not None:
        return opts.random_seed
    import hashlib
    import json

    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def run_drill(state: State, drill: DrillInput, opts: SupremacyOptions, dice: Dice) -> dict[str, Any]:
    if isinstance(drill, Assault):
        res = assault(state, drill, opts, dice)
        return {**res.facts(), "dice_reasons": res.plan.dice_reasons}
    if isinstance(drill, NuclearStrike):
        nukes = nuclear(state, drill, opts, dice)
        return {"nukes": [{"number": k.number, "owner": k.owner, "target": k.target, "rolls": k.rolls,
                           "fate": k.fate, "result": k.result} for k in nukes],
                "struck": sum(1 for k in nukes if k.result == "strikes")}
    duels = clash(state, drill, dice)
    return {"duels": [{"group": d.group, "target": d.target, "rolls": [d.attacker_roll, d.defender_roll],
                       "result": d.result} for d in duels]}


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
    kind = data.get("kind")
    if kind == "setup":
        state, dice = set_up(SetupInput.model_validate(data.get("setup", {})), opts)
        return {"state": state_facts(state), "dice_used": dice.used, "deck_size": len(state.deck)}
    if kind == "bids":
        dice = Dice(data.get("dice"), seed_of(opts, data))
        bids = {p: {int(k): int(v) for k, v in b.items()} for p, b in data.get("bids", {}).items()}
        return {"order": {str(k): v for k, v in player_order(bids, dice).items()}}
    if kind == "game":
        from .game import load_game, play_game, result_facts

        game = load_game({k: v for k, v in data.items() if k != "kind"}, "data")
        g = play_game(game, opts, "data")
        return {"turns": [{"stages": {str(st.stage): {"order": st.order, "lines": st.lines} for st in t.stages},
                           "state": state_facts(t.state) if t.state else None} for t in g.turns],
                "result": result_facts(g.result), "state": state_facts(g.state)}
    state = parse_state(data.get("state", {}))
    if kind == "wealth":
        return {"wealth": {p: economy.wealth(state, p) for p in sorted(state.powers)}}
    if kind == "stage":
        return stage_facts(state, data, opts)[1]
    if kind == "stage1":
        paid = {}  # Bank Loans' interest only: it never waits for the blank salaries rule
        for p in sorted(state.powers):
            due, ok = economy.pay_interest(state, p, opts, bool(data.get("pay", {}).get(p, True)))
            paid[p] = {"interest": due, "paid": ok}
        return {"interest": paid, "state": state_facts(state)}
    if kind == "stage2":
        from .game import stage2

        return {"log": stage2(state, opts).lines, "state": state_facts(state)}
    if kind in ("drill", "odds"):
        drill = parse_drill(data.get("drill", {}))
        if kind == "odds":
            return {"odds": odds(state, drill, opts)}
        dice = Dice(data.get("dice"), seed_of(opts, data))
        out = run_drill(state, drill, opts, dice)
        dice.check_all_used()
        return {**out, "dice_used": dice.used, "review": blockades.review(state, opts), "state": state_facts(state)}
    raise DipsatError(f"data.kind: {kind!r} is not one of setup, stage, stage1, stage2, drill, odds, wealth, bids, game")


def stage_facts(state: State, data: dict[str, Any], opts: SupremacyOptions) -> tuple[StageCheck, dict[str, Any]]:
    """A stage's actions checked jointly and, when feasible, carried out: the check and its facts."""
    chk = check_stage(state, str(data["power"]), int(data["stage"]), list(data.get("actions", [])), opts)
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


def load_data_file(path: str) -> dict[str, Any]:
    from dipsat.api import read_data_file

    data = read_data_file(path)
    if not isinstance(data, dict):
        raise DipsatError(f"{path}: expected a table")
    return data


def file_options(doc: dict[str, Any], extra: Optional[list[str]] = None) -> dict[str, Any]:
    opts = dict(doc.get("options", {}))
    if "expect" in doc and doc["expect"]:
        opts = {**dict(doc["expect"][0].get("options", {})), **opts}
    for item in extra or []:
        k, sep, v = item.partition("=")
        if not sep:
            raise DipsatError(f"--option {item!r}: expected NAME=VALUE")
        import json

        try:
            opts[k.strip()] = json.loads(v)
        except ValueError:
            opts[k.strip()] = v.strip()
    return opts
