"""The peers' whole-process loops that :mod:`benchmarks.instructions` counts beside ``dipsat batch``.

    python -m benchmarks.peers.loops pydip TURNS.json
    python -m benchmarks.peers.loops mila TURNS.json

Each reads a JSON list of turns already in the peer's own terms (prepared beforehand by
``benchmarks.instructions``, as a caller of the peer would keep its data: pydip territory names
and commands as tuples, MILA order strings), then adjudicates them one by one and prints one
line per turn (the number of units after it).  pydip: the vanilla map once, per turn the
``Player`` and ``Command`` objects and ``resolve_turn``.  MILA: per turn a new ``Game()``,
``clear_units``, ``set_units``/``set_orders`` per power, ``process()``.  This module imports
only the standard library and the peer, so its start-up is the peer's.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def pydip_loop(turns: list[Any]) -> list[int]:
    from pydip.map.predefined import vanilla_dip
    from pydip.turn.resolve import resolve_turn

    from dipsat.io.peers_pydip import build_pydip_commands  # the adapter's (it imports no more of dipsat)

    game_map = vanilla_dip.generate_map()
    after = []
    for spec in turns:
        commands, _ = build_pydip_commands(spec, game_map)  # a command pydip refuses: the unit holds
        out = resolve_turn(game_map, commands)
        after.append(sum(len(units) for units in out.values()))
    return after


def mila_loop(turns: list[Any]) -> list[int]:
    from diplomacy import Game

    after = []
    for units, orders in turns:
        game = Game()
        game.clear_units()
        for power, us in units.items():
            game.set_units(power, us)
        for power, os in orders.items():
            game.set_orders(power, os)
        game.process()
        after.append(sum(len(p.units) for p in game.powers.values()))
    return after


LOOPS = {"pydip": pydip_loop, "mila": mila_loop}


def main(argv: list[str]) -> int:
    peer, path = argv
    with open(path, encoding="utf-8") as f:
        turns = json.load(f)
    sys.stdout.write("".join(f"{n}\n" for n in LOOPS[peer](turns)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
