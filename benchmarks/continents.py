"""Continents and free cities (seed 004): time to resolve seeded random rounds on the demo map.

    python -m benchmarks.continents [--rounds 300] [--seed 1]

Each round: 2-4 players, 4-12 holdings, up to 4 orders each (attacks, moves, supports). Prints
the median and 90th percentile time per round (creation, checks, CP-SAT readings and uniqueness
proof, verification, explanations) and how many rounds needed the ambiguity rule.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dipsat.maps.continental import load_continental_map
from dipsat.variants.continents.board import parse_units
from dipsat.variants.continents.round import adjudicate_round
from dipsat.variants.continents.rules import continents_preset


def random_round(rng: random.Random, cmap) -> tuple:
    nodes = sorted(cmap.nodes)
    players = ["P1", "P2", "P3", "P4"][: rng.randint(2, 4)]
    units: dict[str, list[str]] = {}
    for n in rng.sample(nodes, rng.randint(4, 12)):
        units.setdefault(rng.choice(players), []).append(f"{rng.randint(1, cmap.nodes[n].capacity)} {n}")
    board = parse_units(cmap, units)
    orders: dict[str, list[str]] = {}
    for p in players:
        held = board.held_by(p)
        for _ in range(rng.randint(0, 4) if held else 0):
            x = rng.choice(held)
            y = rng.choice(cmap.neighbours(x))
            k = rng.randint(1, 6)
            r = rng.random()
            ally = rng.choice(cmap.neighbours(y))
            text = (f"A {k} {x}-{y}" if r < 0.6 or ally == x else f"SA {ally}-{y} {k} {x}" if r < 0.8 else f"SD {y} {k} {x}")
            orders.setdefault(p, []).append(text)
    return board, orders


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cmap = load_continental_map("continents_demo")
    rules = continents_preset()
    rng = random.Random(args.seed)
    rounds = [random_round(rng, cmap) for _ in range(args.rounds)]
    adjudicate_round(cmap, *rounds[0], rules)  # warm up (imports)
    import dipsat.engine.cpsat  # noqa: F401  OR-Tools too: an acyclic round, as the first may be, needs no solver
    times, ambiguous, battles = [], 0, 0
    for board, orders in rounds:
        t0 = time.perf_counter()
        res = adjudicate_round(cmap, board, orders, rules)
        times.append(time.perf_counter() - t0)
        ambiguous += res.readings != 1
        battles += len(res.battles)
    times.sort()
    print(f"{args.rounds} random rounds (seed {args.seed}): median {statistics.median(times) * 1000:.1f} ms, "
          f"p90 {times[int(0.9 * len(times))] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms per round; "
          f"{battles} battles; {ambiguous} rounds with several readings (settled by the ambiguity rule)")


if __name__ == "__main__":
    main()
