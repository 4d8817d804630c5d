"""Supremacy timings (``python -m benchmarks.supremacy``): the CP-SAT joint stage check
(feasible, and infeasible with the minimal conflicting set), exact drill odds, and the
brute-force enumeration the tests compare them with, and the example game played whole.  Seeded,
single process."""

from __future__ import annotations

import random
import statistics
import time
from typing import Callable

from dipsat.variants.supremacy.dice import Dice, DiceError
from dipsat.variants.supremacy.drills import Assault, assault, assault_distribution
from dipsat.variants.supremacy.strikes import Clash, clash_distribution
from dipsat.variants.supremacy.options import make_options
from dipsat.variants.supremacy.stage import check_stage
from dipsat.variants.supremacy.state import parse_state

OPTS = make_options({"tapping": "never"})  # the pool takes a loan: whether it taps a company is a blank rule
POOL = ["march army us_west - canada", "march 2 army us_east - canada", "march army canada - us_east",
        "airlift army us_west - us_east", "board 2 army us_east - navy caribbean", "sail navy gulf_of_alaska - east_pacific",
        "march army us_east - us_west", "board 1 army us_east - navy caribbean", "loan 500"]


def timed(fn: Callable[[], object], n: int) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> None:
    rng = random.Random(1)
    feas, infeas, sizes = [], [], []
    for _ in range(200):
        state = parse_state({"powers": {"USA": {"grain": rng.randint(0, 6), "oil": rng.randint(0, 6),
                                                "armies": {"us_west": 3, "us_east": 3, "canada": 1},
                                                "navies": [{"sea": "caribbean"}, {"sea": "gulf_of_alaska"}],
                                                "companies": ["usw_grain"]}}})
        texts = rng.sample(POOL, rng.randint(3, len(POOL)))
        t = time.perf_counter()
        chk = check_stage(state, "USA", 5, texts, OPTS)
        ms = (time.perf_counter() - t) * 1000
        (feas if chk.feasible else infeas).append(ms)
        if not chk.feasible:
            sizes.append(len(chk.conflict))
    print(f"stage check, 3-9 of 9 actions (moves, boardings, a loan), 200 seeded lists: feasible {len(feas)} (median {statistics.median(feas):.2f} ms), "
          f"infeasible {len(infeas)} (median {statistics.median(infeas):.2f} ms incl. the minimal set; "
          f"set sizes {min(sizes)}-{max(sizes)})")
    state = parse_state({"powers": {"USA": {"grain": 1, "oil": 1, "mineral": 1, "lstars": 2, "armies": {"us_west": 6}},
                                    "CSA": {"armies": {"mexico": 4}, "grain": 1, "oil": 1, "mineral": 1}}})
    a = Assault(attacker="USA", target="mexico", forces=["6 army us_west"])
    print(f"exact assault odds (3 v 1 dice): {timed(lambda: assault_distribution(state, a, OPTS), 50):.2f} ms")

    def brute() -> None:
        stack: list[list[int]] = [[]]
        while stack:
            prefix = stack.pop()
            try:
                assault(state.model_copy(deep=True), a, OPTS, Dice(prefix))
            except DiceError:
                stack.extend(prefix + [k] for k in range(1, 7))
    print(f"brute force of the same drill over every dice sequence: {timed(brute, 3):.0f} ms")
    s2 = parse_state({"powers": {"USA": {"lstars": 8}, "USSR": {"lstars": 4}}})
    c = Clash(attacker="USA", groups=[{"target": "USSR", "attackers": 2}] * 4)
    print(f"exact L-Star clash odds (8 L-Stars in 4 groups): {timed(lambda: clash_distribution(s2, c), 50):.2f} ms")
    from dipsat.variants.supremacy.game import play_file

    print(f"the example game (set-up and two turns, every stage checked): "
          f"{timed(lambda: play_file('examples/supremacy_game.toml'), 5):.0f} ms")


if __name__ == "__main__":
    main()
