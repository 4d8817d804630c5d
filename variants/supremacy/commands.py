"""``dipsat odds`` and ``dipsat wealth``, Supremacy's subcommands (declared by :mod:`.family`).

Each reads a file whose fields are a case's ``data`` (a corpus case file works too: its
``[data]`` and its first expectation's options are used).
"""

from __future__ import annotations

import argparse
from typing import Any

from dipsat.errors import DipsatError

from .cases import odds
from .inputs import file_options, load_data_file, parse_drill
from .drills import Assault, plan_assault
from .strikes import NuclearStrike
from .economy import format_wealth
from .options import make_options
from .state import parse_state


def _data(doc: dict[str, Any], path: str, command: str) -> dict[str, Any]:
    """The file's data table, after checking the file is a Supremacy file."""
    variant = doc.get("variant", "supremacy")
    if not isinstance(variant, str) or variant.lower() not in ("supremacy", "supremacy-house", "seed002"):
        raise DipsatError(f"{path}: a file of variant {variant!r}: dipsat {command} takes Supremacy files "
                          "(variant = \"supremacy\")")
    d = doc.get("data", doc)
    if not isinstance(d, dict):
        raise DipsatError(f"{path}: data: expected a table, got {type(d).__name__}")
    return d


def cmd_odds(args: argparse.Namespace) -> int:
    doc = load_data_file(args.file)
    data = _data(doc, args.file, "odds")
    if not isinstance(data.get("drill"), dict):
        raise DipsatError(f"{args.file}: holds no battle drill ([drill], or [data.drill] in a case): dipsat odds "
                          "gives the exact outcomes of one")
    opts = make_options(file_options(doc, args.option))
    state = parse_state(data.get("state", {}), "state")
    drill = parse_drill(data["drill"])
    o = odds(state, drill, opts)
    board = state.get_board()
    if isinstance(drill, Assault):
        plan = plan_assault(state, drill, opts)
        print(f"Conventional assault: {drill.attacker} on {board.zone_name(plan.target)} "
              f"(defender {plan.defender or 'none'}){'' if plan.battle else ' — no battle (empty foreign territory)'}")
        print(f"  attacker dice {plan.att_dice}: {' + '.join(plan.dice_reasons['attacker'])}")
        print(f"  defender dice {plan.def_dice}: {' + '.join(plan.dice_reasons['defender'])}")
        aboard = sum(f.aboard for f in (*plan.att_forces, *plan.def_forces))
        if aboard:
            print(f"  {aboard} armies aboard navies: a navy removed takes its armies with it (Conventional Assault "
                  "3.7), and the losses below count them")
    elif isinstance(drill, NuclearStrike):
        print(f"Nuclear strike: {sum(len(s.targets) for s in drill.strikes)} nukes")
    else:
        print(f"L-Star clash: {drill.attacker}, {sum(g.attackers for g in drill.groups)} L-Stars in "
              f"{len(drill.groups)} groups")
    print("Exact distribution (every dice outcome enumerated):")
    if "struck" in o:
        for k, p in o["struck"].items():
            print(f"  P(nukes striking = {k}) = {p}")
        for k, p in o["struck_at_least"].items():
            print(f"  P(nukes striking >= {k}) = {p}")
        return 0
    for side in ("attacker", "defender"):
        for k, p in o[f"{side}_loses"].items():
            print(f"  P({side} loses {k}) = {p}")
    for side in ("attacker", "defender"):
        for k, p in o[f"{side}_loses_at_least"].items():
            if k != "0":
                print(f"  P({side} loses >= {k}) = {p}")
    return 0


def cmd_wealth(args: argparse.Namespace) -> int:
    """The wealth table of a state (a state file or a case's ``[data.state]``), or of the state a
    game file ends in (``[setup]`` or ``[state]`` with ``[[turns]]``: the game is played first)."""
    doc = load_data_file(args.file)
    data = _data(doc, args.file, "wealth")
    if "turns" in doc or "setup" in doc or data.get("kind") == "game":
        from .game import load_game, play_file, play_game

        if data is doc:
            g = play_file(args.file, args.option)
        else:  # a corpus case of kind 'game'
            game = load_game({k: v for k, v in data.items() if k not in ("kind", "rules")}, f"{args.file}: data")
            g = play_game(game, make_options(file_options(doc, args.option)), args.file)
        print(f"After turn {len(g.turns)} of {args.file}:" if g.turns else f"After the set-up of {args.file}:")
        print(format_wealth(g.state))
        return 0
    if not isinstance(data.get("state"), dict):
        raise DipsatError(f"{args.file}: holds no Supremacy state ([state], or [data.state] in a case) and is no "
                          "game file ([setup] or [state] with [[turns]]): dipsat wealth takes one of those")
    print(format_wealth(parse_state(data["state"], "state")))
    return 0
