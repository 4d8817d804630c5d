"""``dipsat odds``, ``dipsat wealth`` and Supremacy's own ``why``, ``compare`` and ``play``.

Each reads a file whose fields are a case's ``data`` (a corpus case file works too: its
``[data]`` and its first expectation's options are used).
"""

from __future__ import annotations

import argparse
from typing import Any

from dipsat.errors import DipsatError

from .cases import (blank_options, file_options, load_data_file, odds, outcome_summary, parse_drill)
from .drills import Assault, NuclearStrike, plan_assault
from .economy import format_wealth
from .options import make_options
from .stage import check_stage
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


def cmd_why(args: argparse.Namespace) -> int:
    doc = load_data_file(args.file)
    data = _data(doc)
    opts = make_options(file_options(doc, args.option))
    state = parse_state(data.get("state", {}))
    power, stage = str(data.get("power", "")), int(data.get("stage", 0))
    chk = check_stage(state, power, stage, list(data.get("actions", [])), opts)
    if chk.feasible:
        print(f"{power}, Stage {stage}: all {len(chk.actions)} actions can be carried out, in the order written.")
        return 0
    print(f"{power}, Stage {stage}: the actions cannot all be carried out.")
    print("A minimal conflicting set (every proper subset can be carried out):")
    for a in chk.conflict:
        print(f"  - {a.text}")
    print("It hinges on these resources:")
    for d in chk.detail:
        print(f"  - {d}")
    rest = [a.text for a in chk.actions if a not in chk.conflict]
    if rest:
        print("Not involved: " + "; ".join(rest))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from dipsat.corpus import case_files

    files = case_files(args.paths)
    opts = blank_options()
    n_diff = 0
    lines: list[str] = []
    for f in files:
        doc = load_data_file(str(f))
        if str(doc.get("variant", "")).lower() != "supremacy":
            continue
        data = _data(doc)
        base = file_options(doc)
        for name, values in opts:
            if name in base:
                continue
            seen = {v: outcome_summary(data, {**base, name: v}) for v in values}
            if len(set(seen.values())) > 1:
                n_diff += 1
                lines.append(f"{doc.get('id', f.stem)}: {name}")
                for v, s in seen.items():
                    lines.append(f"    {v}: {s[:150]}")
    print(f"{len(files)} cases, each under every value of {len(opts)} Supremacy rule options: "
          f"{n_diff} (case, option) pairs differ")
    for line in lines:
        print(line)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    import json

    from .cases import state_facts
    from .game import format_game, play_file, result_facts

    g = play_file(args.file)
    if getattr(args, "json", False):
        print(json.dumps({"setup": state_facts(g.setup), "turns": [
            {"turn": t.number, "stages": [{"stage": s.stage, "order": s.order, "log": s.lines} for s in t.stages],
             "state": state_facts(t.state) if t.state else None} for t in g.turns],
            "state": state_facts(g.state), "result": result_facts(g.result)}, indent=2))
        return 0
    print(format_game(g, quiet=getattr(args, "quiet", False)))
    return 0


def cmd_adjudicate(args: argparse.Namespace) -> int:
    """Run a file's data (a stage, a drill, a set-up, ...) and print the result as JSON."""
    import json

    from .cases import run_data

    doc = load_data_file(args.file)
    opts = make_options(file_options(doc, getattr(args, "option", None)))
    print(json.dumps(run_data(_data(doc), opts), indent=2, default=str))
    return 0
