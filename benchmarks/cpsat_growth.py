"""How the CP-SAT service's costs grow with the size of the problem (``python -m benchmarks.cpsat_growth``).

Two workloads, each at growing sizes, seeded:

* **Supremacy: the minimal conflicting set of a stage.**  One power's stage-5 list of ``N``
  marches of one army back and forth between two territories, with Grain for 12 of them.  The
  joint check finds the list infeasible and shrinks the conflict to a minimal set.
* **Continents: the lexicographic priority of a round.**  A grid map of ``N`` countries
  (continents of 10), four players holding full countries, each ordering its full neighbours to
  swap (the rule 20 position, many times over) and a few attacks: the rules as written give
  several readings, and the default ambiguity rule maximises the units sent by everybody's first
  orders, then second, ... (one priority level per rank of the longest list).

Each size is timed once (wall clock, one process, after a warm-up of the smallest size).  Run the
same script on two commits in the same minutes to compare them (``--json`` writes the figures).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from dipsat.maps.continental import build_continental_map
from dipsat.variants.continents.board import parse_units
from dipsat.variants.continents.round import adjudicate_round
from dipsat.variants.continents.rules import continents_preset
from dipsat.variants.supremacy.options import make_options
from dipsat.variants.supremacy.stage import check_stage
from dipsat.variants.supremacy.state import parse_state


def supremacy_stage(n: int) -> tuple[float, int]:
    """Seconds to check (and explain) an infeasible list of ``n`` actions; the conflict's size."""
    state = parse_state({"powers": {"USA": {"grain": 12, "armies": {"us_west": 3}}}})
    marches = ["march army us_west - canada", "march army canada - us_west"]
    texts = [marches[i % 2] for i in range(n)]
    t = time.perf_counter()
    chk = check_stage(state, "USA", 5, texts, make_options({}))
    took = time.perf_counter() - t
    assert not chk.feasible
    return took, len(chk.conflict)


def grid_map(n: int) -> Any:
    width = 10
    rows = (n + width - 1) // width
    ids = [f"c{i}" for i in range(n)]
    land = []
    for i in range(n):
        r, c = divmod(i, width)
        if c + 1 < width and i + 1 < n:
            land.append(f"c{i}-c{i + 1}")
        if r + 1 < rows and i + width < n:
            land.append(f"c{i}-c{i + width}")
    raw = {"format": "continents", "name": f"grid{n}", "title": f"A grid of {n} countries",
           "continents": {f"k{j}": {"name": f"Continent {j}"} for j in range(rows)},
           "countries": {x: {"name": f"Country {i}", "continent": f"k{i // width}"} for i, x in enumerate(ids)},
           "borders": {"land": land}}
    return build_continental_map(raw)


def continents_round(n: int, seed: int = 1) -> tuple[float, int, int]:
    """Seconds to adjudicate one round on an ``n``-country grid; readings; the longest list."""
    rng = random.Random(f"{seed}:{n}")
    cmap = grid_map(n)
    players = ["P1", "P2", "P3", "P4"]
    owner = {x: rng.choice(players) for x in sorted(cmap.nodes)}
    units = {p: [f"{cmap.nodes[x].capacity} {x}" for x in sorted(cmap.nodes) if owner[x] == p] for p in players}
    board = parse_units(cmap, units)
    orders: dict[str, list[str]] = {p: [] for p in players}
    used: set[str] = set()
    for x in sorted(cmap.nodes):
        if x in used:
            continue
        for y in cmap.neighbours(x):
            if y in used or y == x:
                continue
            p = owner[x]
            if owner[y] == p:  # a swap of two full countries: several readings
                orders[p] += [f"A {cmap.nodes[x].capacity} {x}-{y}", f"A {cmap.nodes[y].capacity} {y}-{x}"]
            elif rng.random() < 0.3:  # an attack
                orders[p].append(f"A {max(1, cmap.nodes[x].capacity - 1)} {x}-{y}")
            else:
                continue
            used.update((x, y))
            break
    for p in players:
        rng.shuffle(orders[p])
    rules = continents_preset()
    t = time.perf_counter()
    res = adjudicate_round(cmap, board, orders, rules)
    took = time.perf_counter() - t
    return took, res.readings, max(len(v) for v in orders.values())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--stage-sizes", default="25,50,100,200")
    ap.add_argument("--map-sizes", default="100,200,400,700,1000")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args()
    supremacy_stage(20)
    continents_round(20)
    out: dict[str, list[dict[str, float]]] = {"supremacy": [], "continents": []}
    for n in (int(x) for x in args.stage_sizes.split(",")):
        s, k = supremacy_stage(n)
        out["supremacy"].append({"actions": n, "seconds": s})
        print(f"supremacy stage of {n} actions: {s:.3f} s (minimal conflict of {k})", flush=True)
    for n in (int(x) for x in args.map_sizes.split(",")):
        s, readings, longest = continents_round(n)
        out["continents"].append({"countries": n, "seconds": s})
        print(f"continents round on {n} countries: {s:.3f} s ({readings} readings, longest list {longest})", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
