"""Benchmark: Multiplicity Plus turns of 60+ units (seed 003).

Random positions on the standard board: the powers hold multiple units (1-3 armies; on some
coasts fleets or an A/F) in land and coastal spaces, and each part of each unit gets a random
order (move to a neighbour, support a neighbour's move or hold, stand).  Each turn is bound and
adjudicated from scratch through the public API; the figure is the median wall-clock time per
turn over the runs, and the turns' unit counts.

    python -m benchmarks.multiplicity [--turns 50] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from dipsat import adjudicate
from dipsat.variants import find_variant


def random_turn(rng: random.Random, min_units: int = 60) -> dict[str, Any]:
    v = find_variant("multiplicity")
    m = v.map
    land = sorted(p for p, d in m.provinces.items() if d.passable and d.terrain in ("land", "coast"))
    rng.shuffle(land)
    powers = sorted(m.powers)
    units: dict[str, list[str]] = {p: [] for p in powers}
    where: dict[str, tuple[str, int, int]] = {}  # province -> (power, armies, fleets)
    total = 0

    def part(n: int, kind: str) -> str:
        return f"{n if n > 1 else ''}{kind}"

    for i, prov in enumerate(land):
        if total >= min_units:
            break
        power = powers[i % len(powers)]
        n, f = rng.randint(1, 3), 0
        if m.provinces[prov].terrain == "coast" and not m.provinces[prov].coasts and rng.random() < 0.3:
            n, f = rng.randint(0, 2), rng.randint(1, 2)  # fleets or an A/F on a coast
        make_up = "/".join(part(k, kind) for k, kind in ((n, "A"), (f, "F")) if k)
        units[power].append(f"{make_up}({prov})")
        where[prov] = (power, n, f)
        total += n + f
    orders: dict[str, list[str]] = {p: [] for p in powers}
    for prov, (power, n, f) in sorted(where.items()):
        nbrs = sorted(m.army_neighbours(prov))
        for _ in range(n):
            r = rng.random()
            if r < 0.5 and nbrs:
                orders[power].append(f"A({prov})-{rng.choice(nbrs)}")
            elif r < 0.8 and nbrs:
                t = rng.choice(nbrs)
                if t in where:
                    sub = rng.choice([x for x in sorted(m.army_neighbours(t)) if x != prov] or [t])
                    orders[power].append(f"A({prov}) S A({t})-{sub}" if sub != t else f"A({prov}) S A({t})")
                else:
                    orders[power].append(f"A({prov}) Std")
            else:
                orders[power].append(f"A({prov}) Std")
        seas = sorted({m.province_of(x) for x in m.fleet_neighbours(prov)})
        for _ in range(f):
            orders[power].append(f"F({prov})-{rng.choice(seas)}" if seas and rng.random() < 0.5 else f"F({prov}) Std")
    return {"variant": "multiplicity", "units": units, "orders": orders}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    v = find_variant("multiplicity")
    adjudicate(random_turn(random.Random(0)))  # warm: imports, map, notation
    times, sizes, backups = [], [], 0
    for _ in range(args.turns):
        req = random_turn(rng)
        sizes.append(sum(u.count for p, lst in req["units"].items() for s in lst for u in v.notation.unit_specs(p, s)))
        t0 = time.perf_counter()
        res = adjudicate(req)
        times.append(time.perf_counter() - t0)
        backups += len(res.backups)
    print(f"{args.turns} Multiplicity turns, {min(sizes)}-{max(sizes)} units each "
          f"({statistics.median(sizes):.0f} median), {backups} backup rules applied")
    print(f"median {statistics.median(times) * 1000:.1f} ms per turn, max {max(times) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
