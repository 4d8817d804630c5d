"""``dipsat odds`` and ``dipsat wealth``, Supremacy's subcommands (declared by :mod:`.family`).

Each reads a file whose fields are a case's ``data`` (a corpus case file works too: its
``[data]`` and its first expectation's options are used).
"""

from __future__ import annotations

import argparse
from typing import Any

from dipsat.errors import DipsatError

from .cases import file_options, load_data_file, odds, parse_drill
from .drills import Assault, plan_assault
from .strikes import NuclearStrike
from .economy import format_wealth
from .options import make_options
from .state import parse_state


def _data(doc: dict[str, Any]) -> dict[str, Any]:
    d = doc.get("data", doc)
    if not isinstance(d, dict):
        raise DipsatError("expected a [data] table")
    return d


def cmd_odds(args: argparse.Namespace) -> int:
    doc = load_data_file(args.file)
    data = _data(doc)
    opts = make_options(file_options(doc, args.option))
    state = parse_state(data.get("state", {}))
    drill = parse_drill(data.get("drill", {}))
    o = odds(state, drill, opts)
    board = state.get_board()
    if isinstance(drill, Assault):
        plan = plan_assault(state, drill, opts)
        print(f"Conventional assault: {drill.attacker} on {board.zone_name(plan.target)} "
              f"(defender {plan.defender or 'none'}){'' if plan.battle else ' — no battle (empty foreign territory)'}")
        print(f"  attacker dice {plan.att_dice}: {' + '.join(plan.dice_reasons['attacker'])}")
        print(f"  defender dice {plan.def_dice}: {' + '.join(plan.dice_reasons['defender'])}")
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
    doc = load_data_file(args.file)
    print(format_wealth(parse_state(_data(doc).get("state", {}))))
    return 0
