"""MILA's random full games replayed by dipsat, and every difference classified.

:func:`run_mila_games` plays games of :mod:`benchmarks.peers.mila_games` with MILA, replays each
in dipsat phase by phase with MILA-compatible options (:func:`dipsat.io.mila.replay_mila` with
``resync``: after a difference the replay goes on from MILA's position, so every phase is
compared), and classifies each phase where the two differ (:func:`classify_phase`):

* a movement phase: the turn (MILA's position and orders) is run again on its own by MILA and
  by dipsat and explained by the documented deviations of :mod:`benchmarks.peers.deviations`
  (confirmed by re-running MILA with the deviation corrected), exactly as in the differential
  run;
* first, for any phase: a MILA reading that is another value of a dipsat rule option
  (:data:`READINGS`), confirmed by replaying the phase with that value;
* an adjustment phase: a documented MILA deviation of :data:`ADJUSTMENT_DEVIATIONS` (each with
  its minimal corpus case), confirmed by replaying the phase with dipsat following MILA's
  reading;
* anything else stays ``unclassified`` and is listed in full: a dipsat bug or a new MILA
  deviation, to study against the DATC.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from typing import Any, Callable, Iterator

from .deviations import agree, classify
from .engines import Dipsat, Mila, request_from_orders
from .mila_games import saved_game
from .turn import Turn

#: MILA readings that are other values of a dipsat rule option than :data:`dipsat.io.mila.MILA_OPTIONS`
#: gives (MILA is not consistent with one value: see there).  A difference is of class
#: ``reading:NAME=VALUE`` when replaying the phase from MILA's position with that value makes
#: dipsat agree with MILA exactly.
READINGS: list[tuple[str, Any]] = [("adjacent_convoy", "dptg")]


@contextlib.contextmanager
def _civil_disorder_ties_by_abbreviation() -> Iterator[None]:
    """dipsat's civil-disorder order with MILA's tie-break: the province abbreviation instead
    of the English name (the confirmation of ``mila_civil_disorder_ties_by_abbreviation``)."""
    from dipsat.board import adjustments as adj

    original = adj.civil_disorder_order

    def by_abbreviation(m: Any, pos: Any, units: list[int], targets: set[str], rule: str = "2023") -> list[int]:
        dist = adj._distances(m, targets)
        fleet_dist = dist if rule == "2023" else adj._fleet_distances(m, targets)

        def key(i: int) -> tuple[int, int, str]:
            u = pos.units[i]
            d = (fleet_dist if u.kind == adj.FLEET else dist).get(u.province, 10**6)
            return (-d, 0 if u.kind == adj.FLEET else 1, u.province)

        return sorted(units, key=key)

    adj.civil_disorder_order = by_abbreviation
    try:
        yield
    finally:
        adj.civil_disorder_order = original


#: MILA's documented deviations in adjustment phases: name -> (summary, DATC reference, corpus
#: case, the confirmation: a context in which dipsat follows MILA's reading).
ADJUSTMENT_DEVIATIONS: dict[str, tuple[str, str, str, Callable[[], Any]]] = {
    "mila_civil_disorder_ties_by_abbreviation": (
        "MILA breaks a civil-disorder tie (equal distance, same kind) on the unit's abbreviation "
        "('F BOT' before 'F FIN'); DATC: alphabetical order of the English names (Finland first).",
        "DATC 3.0 4.D.8, 6.J.5-6.J.7",
        "tests/corpora/peers/mila_civil_disorder_ties_by_abbreviation.toml",
        _civil_disorder_ties_by_abbreviation),
}


def _phase_agrees_with(game: Any, index: int, options: dict[str, Any]) -> bool:
    """Does dipsat, started at phase ``index`` from MILA's position with ``options``, reach
    MILA's next position?"""
    from dipsat.io.mila import MilaGame, replay_mila

    one = MilaGame(id=game.id, map=game.map, rules=game.rules, phases=game.phases[index:index + 2])
    rep = replay_mila(one, options=options)
    return bool(rep.phases) and rep.first_difference is None


def classify_phase(game: Any, index: int, dipsat: Dipsat, mila: Mila, options: dict[str, Any]) -> tuple[str, str]:
    """(class, note) of a difference found after phase ``index`` of ``game`` (a
    :class:`dipsat.io.mila.MilaGame`): a MILA reading that is another value of a dipsat option
    (:data:`READINGS`), else (movement phases) a documented deviation of MILA from DATC 3.0,
    confirmed by re-running the turn on its own with the deviation corrected, else
    ``unclassified``."""
    ph = game.phases[index]
    if ph.name.endswith("R"):
        return "unclassified", "a retreat phase"
    for name, value in READINGS:
        if options.get(name) != value and _phase_agrees_with(game, index, {**options, name: value}):
            return f"reading:{name}={value}", f"dipsat agrees with MILA under {name}={value}"
    if ph.name.endswith("A"):
        for name, (_, _, _, confirm) in ADJUSTMENT_DEVIATIONS.items():
            with confirm():
                if _phase_agrees_with(game, index, options):
                    return name, ""
        return "unclassified", "an adjustment phase"
    units = {p: list(us) for p, us in ph.state.units.items() if us}
    orders = {p: list(os) for p, os in ph.orders.items() if os}
    try:
        req = request_from_orders(units, orders, f"{game.id}:{ph.name}", options, where=ph.name)
    except ValueError as exc:
        return "unclassified", f"the turn cannot be given to the peers: {exc}"
    ds = dipsat.run(req, **options)
    alone = mila.run(req)
    if agree(ds, alone):
        return "unclassified", "MILA agrees with dipsat when the turn is played on its own"
    verdict = classify(Turn(req), mila, ds, alone)
    return verdict.label, verdict.note


def run_mila_games(seed: int, games: int, last_year: int = 1906, start: int = 0,
                   progress: Callable[[str], None] = lambda s: None, examples: int = 3) -> dict[str, Any]:
    from dipsat.io.mila import MILA_OPTIONS, read_mila_game, replay_mila

    dipsat, mila = Dipsat(), Mila()
    options = dict(MILA_OPTIONS)
    totals: Counter = Counter()
    by_kind: dict[str, Counter] = {k: Counter() for k in "MRA"}
    classes: Counter = Counter()
    class_examples: dict[str, list[dict[str, Any]]] = {}
    unclassified: list[dict[str, Any]] = []
    first_phase: Counter = Counter()
    t0 = time.perf_counter()
    for g in range(start, start + games):
        data = saved_game(seed, g, last_year)
        game = read_mila_game(data, f"game {g}")
        rep = replay_mila(game, options=options, resync=True)
        totals["games"] += 1
        totals["phases"] += rep.total
        totals["phases_compared"] += len(rep.phases)
        totals["phases_agreeing"] += rep.agreed
        totals["phases_skipped"] += len(rep.skipped)
        if rep.first_difference is None and not rep.skipped:
            totals["games_agreeing"] += 1
        else:
            first_phase[rep.first_difference.phase[-1] if rep.first_difference else "?"] += 1
        index = {p.name: i for i, p in enumerate(game.phases)}
        for c in rep.phases:
            by_kind[c.phase[-1]]["compared"] += 1
            by_kind[c.phase[-1]]["agree"] += c.agree
            if c.agree:
                continue
            label, note = classify_phase(game, index[c.phase], dipsat, mila, options)
            classes[label] += 1
            ex = {"game": game.id, "seed": seed, "index": g, "phase": c.phase, "class": label, "note": note,
                  "difference": c.to_json()}
            if label == "unclassified":
                ex["state"] = game.phases[index[c.phase]].state.model_dump()
                ex["orders"] = game.phases[index[c.phase]].orders
                unclassified.append(ex)
            else:
                lst = class_examples.setdefault(label, [])
                if len(lst) < examples:
                    lst.append(ex)
        if (g - start + 1) % 25 == 0:
            progress(f"  {g - start + 1}/{games} games ({time.perf_counter() - t0:.0f} s)")
    return {
        "config": {"seed": seed, "games": games, "start": start, "last_year": last_year, "options": options},
        "engines": {"dipsat": dipsat.version, "mila": mila.version},
        "totals": dict(totals),
        "phases_by_kind": {k: dict(v) for k, v in by_kind.items()},
        "first_difference_kind": dict(first_phase),
        "classes": dict(sorted(classes.items(), key=lambda kv: (-kv[1], kv[0]))),
        "examples": class_examples,
        "unclassified": unclassified,
        "seconds": round(time.perf_counter() - t0, 1),
    }


def format_mila_report(res: dict[str, Any]) -> str:
    c, t = res["config"], res["totals"]
    names = {"M": "movement", "R": "retreat", "A": "adjustment"}
    out = [f"MILA full games: seed {c['seed']}, {t.get('games', 0)} games from {c['start']} (to {c['last_year']}), "
           f"{res['seconds']} s; dipsat options {c['options']}",
           f"games with every phase agreeing: {t.get('games_agreeing', 0)}/{t.get('games', 0)}",
           f"phases agreeing: {t.get('phases_agreeing', 0)}/{t.get('phases_compared', 0)} compared "
           f"({t.get('phases', 0)} in the games, {t.get('phases_skipped', 0)} not comparable)"]
    for k, st in res["phases_by_kind"].items():
        if st.get("compared"):
            out.append(f"   {names[k]:10s} {st.get('agree', 0)}/{st['compared']}")
    out.append("differences by class:")
    for label, n in res["classes"].items():
        out.append(f"   {n:6d}  {label}")
    for label, exs in res["examples"].items():
        for ex in exs[:1]:
            out.append(f"   -- {label}: e.g. {ex['game']} {ex['phase']}")
    for ex in res["unclassified"]:
        d = ex["difference"]
        out.append(f"   !! UNCLASSIFIED {ex['game']} {ex['phase']}: {ex['note']}")
        for key in ("units_mila_only", "units_dipsat_only", "dislodged_mila_only", "dislodged_dipsat_only"):
            if d.get(key):
                out.append(f"      {key}: {', '.join(d[key])}")
        if d.get("owners_differ"):
            out.append(f"      owners: {d['owners_differ']}")
        if d["mila_next"] != d["dipsat_next"]:
            out.append(f"      next phase: MILA {d['mila_next']}, dipsat {d['dipsat_next']}")
        out.append(f"      orders: {ex['orders']}")
    return "\n".join(out)
