"""Parse and check time of standard turns: ``python -m benchmarks.parse [TURNS] [ROUNDS]``.

The turns are the benchmarks' random standard turns (``benchmarks.workload``, seed 1).  Each round
parses every order of every turn with the notation's memos emptied first (so every text is read
from scratch), then binds every turn (parse + the legality checks), again from empty memos.
Prints the median and the best round, in ms per turn."""
from __future__ import annotations
import statistics, sys, time
from benchmarks.workload import generate
from dipsat.variants import find_variant
from dipsat.api import TurnRequest

def main(turns: int = 300, rounds: int = 5) -> None:
    v = find_variant("standard")
    reqs = generate(1, turns)
    rules = v.rules("datc")
    notation = v.notation
    orders = [r["orders"] for r in reqs]
    from dipsat.pipeline import Pipeline
    pipe = Pipeline(v, rules)
    prepared = [(p.position, p.orders) for p in (pipe.prepare(TurnRequest.model_validate({k: x for k, x in r.items() if k != "id"})) for r in reqs)]
    parse_t, bind_t = [], []
    for _ in range(rounds):
        # parse: fresh memos each round (every text parsed from scratch)
        notation._parse_memo.clear(); notation._token_memo.clear()
        t0 = time.perf_counter()
        for o in orders:
            for power, texts in o.items():
                for t in texts:
                    notation.parse(t, power)
        parse_t.append((time.perf_counter() - t0) / turns * 1e3)
        notation._parse_memo.clear(); notation._token_memo.clear()
        t0 = time.perf_counter()
        for pos, ords in prepared:
            pipe.bind(pos, ords)
        bind_t.append((time.perf_counter() - t0) / turns * 1e3)
    print(f"parse (cold memo) ms/turn: median {statistics.median(parse_t):.3f} min {min(parse_t):.3f}")
    print(f"bind = parse + check ms/turn: median {statistics.median(bind_t):.3f} min {min(bind_t):.3f}")

if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
