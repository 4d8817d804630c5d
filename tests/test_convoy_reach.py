"""The per-turn convoy reachability (connected groups of fleets) answers exactly what a plain
search of the fleets' chains answers, on random fleet sets of the standard board; convoy routes
found by the engine's own search are every simple chain (as networkx enumerates them)."""

import random
from collections import deque

import networkx as nx

from dipsat.models import Unit
from dipsat.board.geography import Geography
from dipsat.variants import find_variant

GAME_MAP = find_variant("standard").map
SEAS = sorted(p for p, d in GAME_MAP.provinces.items() if d.is_sea)
LAND = sorted(p for p, d in GAME_MAP.provinces.items() if d.terrain in ("land", "coast"))
COAST = [p for p in LAND if Geography(GAME_MAP).seas_next_to(p)]


def chain_by_search(geo: Geography, origin: str, dest: str, fleets: frozenset[str]) -> bool:
    """A breadth-first search over the fleets from those next to the origin."""
    if origin == dest:
        return False
    start = set(geo.seas_next_to(origin)) & fleets
    goal = set(geo.seas_next_to(dest)) & fleets
    seen = set(start)
    todo = deque(sorted(start))
    while todo:
        x = todo.popleft()
        for y in sorted(geo.seas_next_to(x) & fleets):
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return bool(seen & goal)


def test_convoy_reach_equals_a_plain_search():
    rng = random.Random(7)
    geo = Geography(GAME_MAP)
    checked = possible = 0
    for _ in range(300):
        fleets = frozenset(rng.sample(SEAS, rng.randint(0, 15)))
        for _ in range(20):
            a, b = rng.sample(LAND if rng.random() < 0.2 else COAST, 2)
            expect = chain_by_search(geo, a, b, fleets)
            assert geo.convoy_chain_possible(a, b, fleets) == expect, (a, b, sorted(fleets))
            avoid = rng.choice(SEAS)
            assert geo.convoy_chain_possible(a, b, fleets, avoid=avoid) == chain_by_search(geo, a, b, fleets - {avoid})
            checked += 1
            possible += expect
    assert checked == 6000 and 300 < possible < 5700  # both answers are well represented


def test_convoy_routes_are_every_simple_chain():
    variant = find_variant("standard")
    rules = variant.movement_rules(variant.rules())
    rng = random.Random(11)
    found = 0
    for _ in range(600):
        seas = rng.sample(SEAS, rng.randint(3, 16))
        a, b = rng.sample(COAST, 2)
        units = [Unit(power="England", kind="A", location=a)] + [Unit(power="England", kind="F", location=s) for s in seas]

        class Enc:  # the parts of an encoding convoy_routes reads
            class bound:
                class position:
                    pass
            convoyers = {0: list(range(1, len(units)))}
            moves = {0: type("Mv", (), {"path": ()})()}
            dest = {0: b}
        Enc.bound.position.units = units  # type: ignore[attr-defined]
        got = rules.convoy_routes(Enc, 0)  # type: ignore[arg-type]
        g = nx.Graph()
        g.add_nodes_from(["src", "dst", *range(1, len(units))])
        for f in range(1, len(units)):
            if seas[f - 1] in variant.geography.seas_next_to(a):
                g.add_edge("src", f)
            if seas[f - 1] in variant.geography.seas_next_to(b):
                g.add_edge(f, "dst")
            for c in range(f + 1, len(units)):
                if seas[c - 1] in {GAME_MAP.province_of(n) for n in GAME_MAP.fleet_neighbours(seas[f - 1])}:
                    g.add_edge(f, c)
        expect = sorted({tuple(sorted(p[1:-1])) for p in nx.all_simple_paths(g, "src", "dst")})
        assert got == expect, (a, b, seas)
        found += bool(got)
    assert found > 40
