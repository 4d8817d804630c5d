"""Seeded workload of random, legal standard-map movement turns, and converters to peer engines.

A *turn* is a dipsat turn request (a dict: ``variant``, ``rules``, ``year``, ``season``,
``units``, ``orders``, and an ``id``), so a workload written with ``-o`` is directly usable by
``dipsat batch``::

    python -m benchmarks.workload --seed 1 --turns 200 -o /tmp/turns.jsonl
    dipsat batch /tmp/turns.jsonl -o /tmp/results.jsonl

Each turn is generated from its own ``random.Random(f"dipsat-bench:{seed}:{index}")`` stream
(never the global random state; sets are always sorted before a choice), so turn *i* of seed *s* is the
same whatever ``--turns`` is and whatever ``PYTHONHASHSEED`` is.

How a turn is made
------------------
*Position*: 22-34 units (uniform), at most one unit per province, never Switzerland.  First
0-2 convoy set-ups are planted (an army on a coast, a minimal chain of 1-3 fleets on sea
provinces leading to another coastal province, 80% of the time one the army cannot reach by
land); then the other units are placed on random free provinces: an army on inland
provinces, a fleet on seas, on coasts an army (55%) or a fleet (45%, on a random coast of a
split province such as ``spa/nc``).  A unit's power is drawn with
weight ``0.35 ** d`` where ``d`` is the distance from the province to the power's nearest home
centre, so powers cluster around home but mix at the borders.

*Orders* (every unit gets one, all legal in the position):

* the planted convoys: ``F Nth C A Lon - Nwy`` for each fleet, ``A Lon - Nwy via convoy``;
* 0-2 head-to-head swaps (two units that can each move into the other's province);
* 0-2 rings of 3 or 4 units each moving into the next one's province;
* every other unit: hold (12%), move to a random reachable province (50%, fleets name the
  coast, e.g. ``F Mao - Spa/nc``) or support (38%).  Supports are given last so that they mostly
  match real orders: support of a move (65%) whose destination the supporter can reach
  (convoyed moves included), or support of a non-moving unit's hold whose province the
  supporter can reach; same-power targets are three times as likely; 5% of supports are
  "mismatched" (they support a move the target was not ordered to make, or the hold of a
  unit that moves): legal, but void.  A supporter with nothing to support moves instead.

Order text is the canonical dipsat/DATC short form (``A Par - Bur``, ``A Par S A Mar - Bur``,
``A Par S A Mar``, ``F Nth C A Lon - Nwy``, ``A Lon - Nwy via convoy``, ``A Par H``,
``F Mao - Spa/nc``).  :func:`parse_request` reads that form back into a structure, from which
:func:`to_mila` (MILA ``diplomacy`` strings) and :func:`pydip_spec` /
:func:`build_pydip_commands` (``pydip`` objects) are derived.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import deque
from pathlib import Path
from typing import Any, Iterable, Optional

from dipsat.io.peers import PeerTurn, PeerUnit, loc_text, mila_input, unit_text
from dipsat.io.peers import order_text as _order_text
from dipsat.maps import load_map

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")

MIN_UNITS, MAX_UNITS = 22, 34


# --------------------------------------------------------------------------------------------
# structures


BUnit = PeerUnit  # (power, "A"/"F", location such as "spa/nc"), .province


# Orders, per unit index:
#   ("H",)                       hold
#   ("M", dest_loc, via)         move (via: bool, convoyed)
#   ("S", target, dest_prov)     support; dest_prov None = support to hold
#   ("C", army, dest_prov)       convoy


class _Board:
    """The standard map, pre-digested for the generator (sorted lists: no set-order effects)."""

    def __init__(self) -> None:
        m = load_map("standard")
        self.m = m
        self.provinces = [p for p in m.provinces.values() if p.passable]
        self.pids = [p.id for p in self.provinces]
        self.terrain = {p.id: p.terrain for p in self.provinces}
        self.seas = [p for p in self.pids if self.terrain[p] == "sea"]
        self.coasts = [p for p in self.pids if self.terrain[p] == "coast"]
        # unit moves: location -> sorted reachable locations
        self.army_moves = {p: sorted(n for n in m.army_neighbours(p) if m.passable(n))
                           for p in self.pids if self.terrain[p] in ("land", "coast")}
        self.fleet_moves = {}
        for p in self.pids:
            for loc in m.fleet_locations_in(p):
                self.fleet_moves[loc] = sorted(n for n in m.fleet_neighbours(loc) if m.passable(m.province_of(n)))
        # sea -> coastal provinces a convoyed army may start from / land in
        self.sea_coasts = {s: sorted({m.province_of(n) for n in m.fleet_neighbours(s)
                                      if self.terrain[m.province_of(n)] == "coast"}) for s in self.seas}
        self.sea_seas = {s: sorted(n for n in m.fleet_neighbours(s) if self.terrain.get(n) == "sea") for s in self.seas}
        # distance (any unit adjacency) from each power's home centres
        adj: dict[str, set[str]] = {p: set() for p in self.pids}
        for p in self.pids:
            for n in self.army_moves.get(p, []):
                adj[p].add(n)
            for loc in m.fleet_locations_in(p):
                for n in self.fleet_moves[loc]:
                    adj[p].add(m.province_of(n))
        self.dist: dict[str, dict[str, int]] = {}
        for power in POWERS:
            d = {h: 0 for h in m.powers[power].home}
            q = deque(sorted(d))
            while q:
                x = q.popleft()
                for n in sorted(adj[x]):
                    if n not in d:
                        d[n] = d[x] + 1
                        q.append(n)
            self.dist[power] = d

    def moves_of(self, u: BUnit) -> list[str]:
        return self.army_moves[u.loc] if u.kind == "A" else self.fleet_moves[u.loc]

    def reach_provinces(self, u: BUnit) -> list[str]:
        return sorted({self.m.province_of(x) for x in self.moves_of(u)})

    def can_reach(self, u: BUnit, province: str) -> bool:
        return province != u.province and self.m.can_reach_province(u.kind, u.loc, province)

    def move_locs_into(self, u: BUnit, province: str) -> list[str]:
        return [x for x in self.moves_of(u) if self.m.province_of(x) == province]


_BOARD: Optional[_Board] = None


def board() -> _Board:
    global _BOARD
    if _BOARD is None:
        _BOARD = _Board()
    return _BOARD


# --------------------------------------------------------------------------------------------
# generation


def _pick_power(rng: random.Random, b: _Board, province: str) -> str:
    weights = [0.35 ** b.dist[p].get(province, 12) for p in POWERS]
    return rng.choices(POWERS, weights=weights)[0]


def _plant_convoy(rng: random.Random, b: _Board, occupied: dict[str, int], units: list[BUnit],
                  orders: dict[int, tuple]) -> bool:
    k = rng.choices((1, 2, 3), weights=(6, 3, 1))[0]
    path = [rng.choice(b.seas)]
    while len(path) < k:
        nxt = [s for s in b.sea_seas[path[-1]] if s not in path]
        if not nxt:
            break
        path.append(rng.choice(nxt))
    if any(s in occupied for s in path):
        return False
    # only minimal chains: no chord between non-consecutive seas, origin and destination touch
    # only the first and last sea (MILA refuses a convoy order from a fleet on no minimal path)
    if any(path[j] in b.sea_seas[path[i]] for i in range(len(path)) for j in range(i + 2, len(path))):
        return False
    origins = [c for c in b.sea_coasts[path[0]] if c not in occupied
               and not any(c in b.sea_coasts[s] for s in path[1:])]
    if not origins:
        return False
    origin = rng.choice(origins)
    dests = [c for c in b.sea_coasts[path[-1]] if c != origin
             and not any(c in b.sea_coasts[s] for s in path[:-1])]
    far = [c for c in dests if c not in b.army_moves[origin]]
    if far and rng.random() < 0.8:  # mostly across water; sometimes to an adjacent province
        dests = far
    if not dests:
        return False
    dest = rng.choice(dests)
    power = _pick_power(rng, b, origin)
    a = len(units)
    units.append(BUnit(power, "A", origin))
    occupied[origin] = a
    orders[a] = ("M", dest, True)
    for s in path:
        fp = power if rng.random() < 0.8 else _pick_power(rng, b, s)
        i = len(units)
        units.append(BUnit(fp, "F", s))
        occupied[s] = i
        orders[i] = ("C", a, dest)
    return True


def _find_ring(rng: random.Random, b: _Board, units: list[BUnit], free: list[int],
               length: int) -> Optional[list[int]]:
    at = {units[i].province: i for i in free}
    starts = list(free)
    rng.shuffle(starts)
    for s in starts[:12]:
        # depth-first search for a cycle s -> ... -> s of exactly `length` units
        stack = [(s, [s])]
        while stack:
            x, path = stack.pop()
            nxt = [at[p] for p in b.reach_provinces(units[x]) if p in at]
            rng.shuffle(nxt)
            for y in nxt:
                if y == s and len(path) == length:
                    return path
                if y not in path and len(path) < length:
                    stack.append((y, path + [y]))
    return None


def _move_to(rng: random.Random, b: _Board, u: BUnit, province: str) -> tuple:
    return ("M", rng.choice(b.move_locs_into(u, province)), False)


def generate_turn(seed: int, index: int) -> dict[str, Any]:
    """One turn request (dipsat format) for ``(seed, index)``."""
    rng = random.Random(f"dipsat-bench:{seed}:{index}")
    b = board()
    n_units = rng.randint(MIN_UNITS, MAX_UNITS)
    units: list[BUnit] = []
    occupied: dict[str, int] = {}
    orders: dict[int, tuple] = {}

    # planted convoys
    n_convoys = rng.choices((0, 1, 2), weights=(35, 45, 20))[0]
    planted = tries = 0
    while planted < n_convoys and tries < 40:
        tries += 1
        planted += _plant_convoy(rng, b, occupied, units, orders)

    # the other units
    free_provs = [p for p in b.pids if p not in occupied]
    rng.shuffle(free_provs)
    for p in free_provs[: max(0, n_units - len(units))]:
        t = b.terrain[p]
        if t == "land" or (t == "coast" and rng.random() < 0.55):
            kind, loc = "A", p
        else:
            kind, loc = "F", rng.choice(b.m.fleet_locations_in(p))
        occupied[p] = len(units)
        units.append(BUnit(_pick_power(rng, b, p), kind, loc))

    free = [i for i in range(len(units)) if i not in orders]

    # head-to-head swaps
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        pairs = [(i, j) for i in free for j in free if i < j
                 and b.can_reach(units[i], units[j].province) and b.can_reach(units[j], units[i].province)]
        if not pairs:
            break
        i, j = rng.choice(pairs)
        orders[i] = _move_to(rng, b, units[i], units[j].province)
        orders[j] = _move_to(rng, b, units[j], units[i].province)
        free = [x for x in free if x not in (i, j)]

    # rings
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        ring = _find_ring(rng, b, units, free, rng.choice((3, 3, 4)))
        if not ring:
            break
        for a, c in zip(ring, ring[1:] + ring[:1]):
            orders[a] = _move_to(rng, b, units[a], units[c].province)
        free = [x for x in free if x not in ring]

    # everything else: holds and moves first, supports last
    supporters = []
    for i in free:
        r = rng.random()
        if r < 0.12:
            orders[i] = ("H",)
        elif r < 0.62:
            orders[i] = ("M", rng.choice(b.moves_of(units[i])), False)
        else:
            supporters.append(i)
    for i in supporters:
        orders[i] = _support_order(rng, b, units, orders, i)

    return to_request(units, orders, ident=f"s{seed}-t{index}")


def _support_order(rng: random.Random, b: _Board, units: list[BUnit], orders: dict[int, tuple], i: int) -> tuple:
    u = units[i]
    moving = {j: o for j, o in orders.items() if o[0] == "M"}
    if rng.random() < 0.05:  # mismatched (void) support: legal, but not what the target does
        cands = []
        for j, t in enumerate(units):
            if j == i:
                continue
            if j in moving:
                if b.can_reach(u, t.province):
                    cands.append((j, None))
            for p in b.reach_provinces(t):
                if b.can_reach(u, p) and not (j in moving and b.m.province_of(moving[j][1]) == p):
                    cands.append((j, p))
        if cands:
            j, p = rng.choice(cands)
            return ("S", j, p)
    move_c, hold_c = [], []
    for j, t in enumerate(units):
        if j == i:
            continue
        w = 3 if t.power == u.power else 1
        o = orders.get(j)
        if o is not None and o[0] == "M":
            dest = b.m.province_of(o[1])
            if b.can_reach(u, dest):
                move_c.append(((j, dest), w))
        elif b.can_reach(u, t.province):
            hold_c.append(((j, None), w))
    pool = move_c if (move_c and (not hold_c or rng.random() < 0.65)) else hold_c
    if not pool:
        return ("M", rng.choice(b.moves_of(u)), False)
    (j, p), = rng.choices([c for c, _ in pool], weights=[w for _, w in pool])
    return ("S", j, p)


def generate(seed: int, turns: int, start: int = 0) -> list[dict[str, Any]]:
    """``turns`` turn requests for ``seed`` (turn indices ``start`` .. ``start + turns - 1``)."""
    return [generate_turn(seed, i) for i in range(start, start + turns)]


# --------------------------------------------------------------------------------------------
# dipsat text (canonical short form) <-> structure


def _unit_text(u: BUnit) -> str:
    return unit_text(u)


def order_text(units: list[BUnit], i: int, o: tuple) -> str:
    return _order_text(PeerTurn(units, {i: o}), i)


def to_request(units: list[BUnit], orders: dict[int, tuple], ident: Optional[str] = None) -> dict[str, Any]:
    req: dict[str, Any] = {}
    if ident is not None:
        req["id"] = ident
    req.update({"variant": "standard", "rules": "datc", "year": 1901, "season": "spring",
                "units": {}, "orders": {}})
    for i, u in enumerate(units):
        req["units"].setdefault(u.power, []).append(_unit_text(u))
        if i in orders:
            req["orders"].setdefault(u.power, []).append(order_text(units, i, orders[i]))
    req["units"] = {p: req["units"][p] for p in POWERS if p in req["units"]}
    req["orders"] = {p: req["orders"][p] for p in POWERS if p in req["orders"]}
    return req


def request_for_dipsat(req: dict[str, Any]) -> dict[str, Any]:
    """The request without its ``id`` (``adjudicate`` forbids unknown fields; ``batch`` pops it)."""
    return {k: v for k, v in req.items() if k != "id"}


def parse_request(req: dict[str, Any]) -> tuple[list[BUnit], dict[int, tuple]]:
    """Read a request written in the canonical form above back into (units, orders)."""
    units: list[BUnit] = []
    at: dict[str, int] = {}
    for power, specs in req["units"].items():
        for spec in specs:
            kind, loc = spec.split()
            at[loc.lower().split("/")[0]] = len(units)
            units.append(BUnit(power, kind.upper(), loc.lower()))
    orders: dict[int, tuple] = {}
    for power, texts in req.get("orders", {}).items():
        for text in texts:
            w = text.split()
            i = at[w[1].lower().split("/")[0]]
            rest = w[2:]
            if rest[0].upper() == "H":
                o: tuple = ("H",)
            elif rest[0] == "-":
                o = ("M", rest[1].lower(), len(rest) > 2 and rest[2].lower() == "via")
            elif rest[0].upper() == "S":
                j = at[rest[2].lower().split("/")[0]]
                o = ("S", j, rest[4].lower().split("/")[0] if len(rest) > 3 else None)
            elif rest[0].upper() == "C":
                o = ("C", at[rest[2].lower()], rest[4].lower())
            else:
                raise ValueError(f"cannot read order {text!r}")
            orders[i] = o
    return units, orders


# --------------------------------------------------------------------------------------------
# the peers (MILA's diplomacy 1.1.2, pydip 0.1.8): their adapters are the package's
# (dipsat.io.peers, dipsat.io.peers_pydip); these read a workload request for them


def peer_turn(req: dict[str, Any]) -> PeerTurn:
    """A request of this workload as the peers' turn (:class:`dipsat.io.peers.PeerTurn`)."""
    return PeerTurn(*parse_request(req))


def to_mila(req: dict[str, Any]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(units, orders) per MILA power name (``'FRANCE'``): ``'F SPA/NC'``, ``'A PAR - BUR'``."""
    return mila_input(peer_turn(req))


def pydip_spec(req: dict[str, Any]) -> tuple[dict[str, list[tuple[str, str]]], list[tuple]]:
    """The turn for pydip by name (:func:`dipsat.io.peers_pydip.pydip_spec`: armies routed the DATC 3.0 way)."""
    from dipsat.io.peers_pydip import pydip_spec as spec

    return spec(peer_turn(req))


def pydip_territory_to_province() -> dict[str, str]:
    """pydip territory name -> dipsat province id."""
    from dipsat.io.peers_pydip import pydip_territory_to_location

    return {t: loc.split("/")[0] for t, loc in pydip_territory_to_location().items()}


def check_pydip_names(game_map) -> list[str]:
    from dipsat.io.peers_pydip import check_pydip_names as check

    return check(game_map)


def build_pydip_commands(spec: tuple[dict, list[tuple]], game_map) -> tuple[list, list[tuple[tuple, str]]]:
    from dipsat.io.peers_pydip import build_pydip_commands as build

    return build(spec, game_map)


# --------------------------------------------------------------------------------------------


def write_jsonl(turns: Iterable[dict[str, Any]], path: str | Path) -> int:
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for t in turns:
            f.write(json.dumps(t, separators=(",", ":")) + "\n")
            n += 1
    return n


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Generate random legal standard-map movement turns (JSONL for dipsat batch).")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("-o", "--output", help="JSONL file to write (default: stdout)")
    ap.add_argument("--format", choices=("dipsat", "mila"), default="dipsat",
                    help="dipsat: turn requests (default); mila: MILA units and order strings per turn")
    args = ap.parse_args(argv)
    turns = generate(args.seed, args.turns)
    if args.format == "mila":
        turns = [dict(zip(("id", "units", "orders"), (t["id"], *to_mila(t)))) for t in turns]
    if args.output:
        n = write_jsonl(turns, args.output)
        print(f"wrote {n} turns to {args.output}", file=sys.stderr)
    else:
        for t in turns:
            sys.stdout.write(json.dumps(t, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
