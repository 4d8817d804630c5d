"""Random full games played by MILA's ``diplomacy`` engine, for replay by dipsat.

:func:`random_game` plays one standard game with MILA from 1901 until a year limit (or until
MILA ends it): movement, retreats and adjustments, every order drawn from MILA's own list of
possible orders (``Game.get_all_possible_orders``), so that every order is one MILA accepts.
The draw is shaped so that the games have battles worth adjudicating:

* movement: each unit moves (50 %; 5 % more "via convoy" where MILA offers it), supports
  (30 %), holds (10 %) or convoys (5 %, when it can);
  supports are drawn second, 80 % of them among those that match an order already drawn (a
  support of an ordered move, or of a unit that does not move), so that most supports count;
  a fleet offered a convoy of an army that was ordered "via convoy" along it takes it (80 %);
* retreats: a random retreat or disband per dislodged unit; 10 % of the time a power gives no
  retreat orders at all (MILA then disbands its units);
* adjustments: a power with builds builds at random free home centres (sometimes fewer than
  allowed: an implicit waive); a power with too many units disbands the right number at random,
  except that 15 % of the time it orders nothing (civil disorder: the engine picks the units).

Every choice comes from ``random.Random(f"dipsat-mila-game:{seed}:{index}")`` over sorted lists,
so game *i* of seed *s* is always the same game (MILA's own processing is deterministic).
:func:`saved_game` returns MILA's saved-game JSON (``to_saved_game_format``), which
``dipsat play --from mila`` reads.
"""

from __future__ import annotations

import random
from typing import Any

MOVE, VIA, SUPPORT, HOLD, CONVOY = "move", "via", "support", "hold", "convoy"
WEIGHTS = {MOVE: 50, VIA: 5, SUPPORT: 30, HOLD: 10, CONVOY: 5}


def _kind(order: str) -> str:
    w = order.split()
    if len(w) < 3:
        return HOLD
    if w[2] == "-":
        return VIA if w[-1] == "VIA" else MOVE
    return {"S": SUPPORT, "H": HOLD, "C": CONVOY}.get(w[2], HOLD)


def _movement_orders(rng: random.Random, game: Any, possible: dict[str, list[str]]) -> dict[str, list[str]]:
    chosen: dict[str, str] = {}  # location -> order
    supporters: list[tuple[str, list[str]]] = []
    convoyers: list[tuple[str, list[str]]] = []
    for power in sorted(game.powers):
        for loc in sorted(game.get_orderable_locations(power)):
            opts = sorted(possible.get(loc, []))
            if not opts:
                continue
            by_kind: dict[str, list[str]] = {}
            for o in opts:
                by_kind.setdefault(_kind(o), []).append(o)
            kinds = [k for k in WEIGHTS if k in by_kind]
            weights = [WEIGHTS[k] for k in kinds]
            k = rng.choices(kinds, weights=weights)[0]
            if k == SUPPORT:
                supporters.append((loc, by_kind[SUPPORT]))
            elif k == CONVOY:
                convoyers.append((loc, by_kind[CONVOY]))
            else:
                chosen[loc] = rng.choice(by_kind[k])
    # convoys: follow an army ordered "via convoy" when one can be carried here
    moves = {o.split()[1]: o for o in chosen.values() if _kind(o) == VIA}
    for loc, opts in convoyers:
        matching = [o for o in opts if moves.get(o.split()[4]) == " ".join(o.split()[3:]) + " VIA"]
        chosen[loc] = rng.choice(matching) if matching and rng.random() < 0.8 else rng.choice(opts)
    # supports: mostly of the orders drawn
    ordered = {o.split()[1]: o for o in chosen.values()}
    for loc, opts in supporters:
        matching = []
        for o in opts:
            w = o.split()
            target = w[4]
            if len(w) == 5:  # support to hold: the target does not move
                if _kind(ordered.get(target, "x x H")) not in (MOVE, VIA):
                    matching.append(o)
            else:
                t = ordered.get(target)
                if t is not None and _kind(t) in (MOVE, VIA) and t.split()[3] == w[6]:
                    matching.append(o)
        chosen[loc] = rng.choice(matching) if matching and rng.random() < 0.8 else rng.choice(opts)
    out: dict[str, list[str]] = {}
    for power in sorted(game.powers):
        locs = set(game.get_orderable_locations(power))
        out[power] = [chosen[loc] for loc in sorted(chosen) if loc in locs]
    return out


def _retreat_orders(rng: random.Random, game: Any, possible: dict[str, list[str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for power in sorted(game.powers):
        locs = sorted(game.get_orderable_locations(power))
        if not locs or rng.random() < 0.1:
            continue
        out[power] = [rng.choice(sorted(possible[loc])) for loc in locs if possible.get(loc)]
    return out


def _adjustment_orders(rng: random.Random, game: Any, possible: dict[str, list[str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for power_name in sorted(game.powers):
        power = game.powers[power_name]
        diff = len(power.centers) - len(power.units)
        locs = sorted(game.get_orderable_locations(power_name))
        if diff > 0:
            builds = [rng.choice(sorted(o for o in possible.get(loc, []) if o.endswith(" B")))
                      for loc in locs if any(o.endswith(" B") for o in possible.get(loc, []))]
            rng.shuffle(builds)
            out[power_name] = builds[: rng.choice(range(max(0, diff - 1), diff + 1))]
        elif diff < 0:
            if rng.random() < 0.15:
                continue  # civil disorder: the engine chooses
            disbands = sorted(o for loc in locs for o in possible.get(loc, []) if o.endswith(" D"))
            out[power_name] = rng.sample(disbands, min(-diff, len(disbands)))
    return out


def random_game(seed: int, index: int, last_year: int = 1906) -> Any:
    """MILA game ``index`` of ``seed``: random orders until the end of ``last_year`` (or the end
    of the game).  Returns MILA's ``Game``."""
    from diplomacy import Game

    rng = random.Random(f"dipsat-mila-game:{seed}:{index}")
    game = Game(game_id=f"mila-s{seed}-g{index}")
    while not game.is_game_done:
        phase = game.get_current_phase()
        if phase[1:5].isdigit() and int(phase[1:5]) > last_year:
            break
        possible = game.get_all_possible_orders()
        kind = phase[-1]
        if kind == "M":
            orders = _movement_orders(rng, game, possible)
        elif kind == "R":
            orders = _retreat_orders(rng, game, possible)
        else:
            orders = _adjustment_orders(rng, game, possible)
        for power, os in orders.items():
            if os:
                game.set_orders(power, os)
        game.process()
    return game


def saved_game(seed: int, index: int, last_year: int = 1906) -> dict[str, Any]:
    """MILA's saved-game JSON (a dict) of :func:`random_game`."""
    from diplomacy.utils.export import to_saved_game_format

    return to_saved_game_format(random_game(seed, index, last_year))
