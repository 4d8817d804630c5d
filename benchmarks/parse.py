"""Parse and check time of standard turns: ``python -m benchmarks.parse [TURNS] [ROUNDS]``.

The turns are the benchmarks' random standard turns (``benchmarks.workload``, seed 1).  Each round
parses every order of every turn with the notation's memos emptied first (so every text is read
from scratch), then binds every turn (parse + the legality checks), again from empty memos.
Prints the median and the best round, in ms per turn."""
from __future__ import annotations
import statistics
import sys
import time
from typing import Any

from benchmarks.workload import generate
from dipsat.variants import find_variant
from dipsat.game.api import TurnRequest

def _forget(notation: Any) -> None:
    """Empty the notation's memos of texts (and of words, where it keeps one)."""
    for name in ("_parse_memo", "core_memo", "_token_memo", "_word_memo", "_placed_memo"):
        memo = getattr(notation, name, None)
        if isinstance(memo, dict):
            memo.clear()


def main(turns: int = 300, rounds: int = 5) -> None:
    from dipsat.game.pipeline import Pipeline

    v = find_variant("standard")
    reqs = generate(1, turns)
    notation = v.notation
    pipe = Pipeline(v, v.rules("datc"))
    prepared = [pipe.prepare(TurnRequest.model_validate({k: x for k, x in r.items() if k != "id"})) for r in reqs]
    parse_t: list[float] = []
    bind_t: list[float] = []
    for _ in range(rounds):
        _forget(notation)
        t0 = time.perf_counter()
        for p in prepared:
            for power, texts in p.orders.items():
                for t in texts:
                    notation.parse(t, power)
        parse_t.append((time.perf_counter() - t0) / turns * 1e3)
        _forget(notation)
        t0 = time.perf_counter()
        for p in prepared:
            pipe.bind(p.position, p.orders)
        bind_t.append((time.perf_counter() - t0) / turns * 1e3)
    print(f"parse, memos emptied: ms/turn median {statistics.median(parse_t):.3f}, best {min(parse_t):.3f}")
    print(f"bind (parse + checks), memos emptied: ms/turn median {statistics.median(bind_t):.3f}, best {min(bind_t):.3f}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
