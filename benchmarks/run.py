"""Time dipsat against the peer adjudicators MILA ``diplomacy`` and ``pydip`` on the same turns.

    python -m benchmarks.run --seed 1 --turns 300

The workload (:mod:`workload`: random legal standard-map movement turns with holds, moves,
supports, swaps, rings and convoys) is generated first, and converted to each engine's input
format, untimed.  Then every turn is adjudicated by every installed engine, in ONE process, turn
by turn: the order of the engines rotates from turn to turn (turn *i* starts with engine
*i* mod n), and every other round of n turns it runs backwards, so over 2n turns each engine
runs after each other one equally often: none always runs first or last after the others
warmed the caches (the two dipsat engines share dipsat's parse caches).

What is timed
-------------
``time.perf_counter()`` around exactly these calls, once per turn and engine:

* **dipsat** -- ``dipsat.adjudicate(request, explain=False)``: validation of the request dict
  (pydantic), parsing of the unit and order text, legality checks, the equations, direct
  evaluation of the acyclic parts and CP-SAT for the cycles, the plain-Python re-check, and the
  result objects (typed outcomes with their culprits, dislodgements, position after) -- what
  ``dipsat batch`` does per line, and like the peers, no explanations.
* **dipsat-explain** -- the same with ``explain=True`` (the default of the API and of
  ``dipsat adjudicate``): also every strength with its labelled terms.
* **MILA** (``diplomacy``) -- on a new ``Game()`` made *before* the timer starts (MILA caches its
  map after the first game, so a new game costs about 0.5 ms; it is not timed):
  ``game.clear_units()``, ``game.set_units(power, units)`` for each power,
  ``game.set_orders(power, orders)`` for each power (MILA parses and validates the order text
  here) and ``game.process()`` (adjudication plus MILA's own phase bookkeeping: state and
  history snapshots, retreat options, advancing the phase).
* **mila-process** -- MILA's bare ``game.process()``: the same game, set up with
  ``clear_units``/``set_units``/``set_orders`` before the timer starts.
* **pydip** -- building the ``Player`` objects (one per power, with its units) and one
  ``Command`` object per unit (pydip's order validation; it has no text parser, so territory
  names are prepared untimed by :func:`workload.pydip_spec`), and
  ``pydip.turn.resolve.resolve_turn(map, commands)`` (adjudication plus retreat options).  The
  vanilla map is built once, untimed.

Not timed: generating the workload, converting each turn to MILA strings / pydip names,
constructing MILA's ``Game``, reading the units after the turn for the agreement count.
Before the timed run each engine adjudicates ``--warmup`` turns of a different seed, untimed
(imports, OR-Tools start-up, map loading, caches).  The garbage collector is left on.

Reported
--------
Per engine: turns timed, turns failed (an exception; failures are not timed), median, p90 and
mean ms per turn, and ``dipsat/peer`` = dipsat's median divided by the peer's median (above 1:
dipsat is slower).  Orders an engine refused (MILA ``game.error``; pydip's ``AssertionError`` on
a command, replaced by a hold; dipsat's rejected orders) are counted: the workload only makes
legal orders, so any count is worth a look.  Agreement: on how many turns dipsat's units after
the turn, as a set of (power, kind, province) without the dislodged units, equal MILA's and
pydip's (over the turns both engines finished).  A peer that is not installed is reported as
such and skipped.  Results go to ``benchmarks/results/*.json``.
"""

from __future__ import annotations

if not __package__:  # run as a file: the relative imports below need the package
    raise SystemExit("run from the repository root: python -m benchmarks.run ...")

import argparse
import gc
import json
import platform
import statistics
import sys
import time
import traceback
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Optional

from . import workload

HERE = Path(__file__).resolve().parent

ENGINES = ("dipsat", "dipsat-explain", "mila", "mila-process", "pydip")


def _version(dist: str) -> Optional[str]:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:
        return None


# --------------------------------------------------------------------------------------------
# engines: prepare(turn) -> input (untimed); run(input) -> raw (timed); after(raw) -> units set


class Engine:
    name = ""
    available = False
    missing = ""
    version: Optional[str] = None

    def prepare(self, req: dict[str, Any]) -> Any:
        raise NotImplementedError

    def run(self, inp: Any) -> Any:
        raise NotImplementedError

    def after(self, raw: Any) -> frozenset:
        raise NotImplementedError

    def rejected(self, raw: Any) -> list[str]:
        return []


class Dipsat(Engine):
    name = "dipsat"

    explain = False

    def __init__(self) -> None:
        try:
            from dipsat.game.api import adjudicate
        except ImportError as exc:
            self.missing = f"not installed ({exc})"
            return
        self._adjudicate = adjudicate
        self.available = True
        self.version = _version("dipsat") or "checkout"

    def prepare(self, req):
        return workload.request_for_dipsat(req)

    def run(self, inp):
        return self._adjudicate(inp, explain=self.explain)

    def after(self, res):
        return frozenset((u.power, u.kind, u.province) for u in res.after.units)

    def rejected(self, res):
        return [f"{r.power}: {r.text}: {r.severity}: {r.reason}" for r in res.rejected]


class DipsatExplain(Dipsat):
    name = "dipsat-explain"
    explain = True


class Mila(Engine):
    name = "mila"

    def __init__(self) -> None:
        try:
            from diplomacy import Game
        except ImportError as exc:
            self.missing = f"not installed ({exc})"
            return
        self._Game = Game
        Game()  # loads and caches the standard map
        self.available = True
        self.version = _version("diplomacy")

    def prepare(self, req):
        units, orders = workload.to_mila(req)
        return self._Game(), units, orders  # the Game is made here, untimed

    def run(self, inp):
        game, units, orders = inp
        game.clear_units()
        for power, us in units.items():
            game.set_units(power, us)
        for power, os in orders.items():
            game.set_orders(power, os)
        errors = [str(e) for e in game.error]  # process() clears them
        game.process()
        return game, errors

    def after(self, raw):
        game, _ = raw
        return frozenset((p.name.title(), u[0], u[2:5].lower()) for p in game.powers.values() for u in p.units)

    def rejected(self, raw):
        return raw[1]


class MilaProcess(Mila):
    """MILA's bare ``process()``: units and orders are set before the timer starts."""

    name = "mila-process"

    def prepare(self, req):
        game, units, orders = super().prepare(req)
        game.clear_units()
        for power, us in units.items():
            game.set_units(power, us)
        for power, os in orders.items():
            game.set_orders(power, os)
        return game, [str(e) for e in game.error]

    def run(self, inp):
        game, errors = inp
        game.process()
        return game, errors


class Pydip(Engine):
    name = "pydip"

    def __init__(self) -> None:
        try:
            from pydip.map.predefined import vanilla_dip
            from pydip.player.unit import UnitTypes
            from pydip.turn.resolve import resolve_turn
        except ImportError as exc:
            self.missing = f"not installed ({exc})"
            return
        self._map = vanilla_dip.generate_map()
        problems = workload.check_pydip_names(self._map)
        if problems:
            self.missing = "name mapping broken: " + "; ".join(problems[:3])
            return
        self._resolve = resolve_turn
        self._fleet = UnitTypes.FLEET
        self._to_prov = workload.pydip_territory_to_province()
        self.available = True
        self.version = _version("pydip")

    def prepare(self, req):
        return workload.pydip_spec(req)

    def run(self, spec):
        commands, rejected = workload.build_pydip_commands(spec, self._map)
        return self._resolve(self._map, commands), rejected

    def after(self, raw):
        res, _ = raw
        return frozenset((power, "F" if unit.unit_type == self._fleet else "A", self._to_prov[unit.position])
                         for power, units in res.items() for unit, retreats in units.items() if retreats is None)

    def rejected(self, raw):
        return [f"{c[1]}: {c}: {msg}" for c, msg in raw[1]]


# --------------------------------------------------------------------------------------------


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return float("nan")
    k = (len(s) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def _short_error(exc: BaseException) -> str:
    msg = f"{type(exc).__name__}: {exc}".strip()
    return msg if len(msg) <= 400 else msg[:400] + "..."


def run(seed: int, turns: int, warmup: int, engines: list[Engine], progress: Callable[[str], None]) -> dict[str, Any]:
    avail = [e for e in engines if e.available]
    # warm-up, untimed, on turns of another seed
    for req in workload.generate(seed + 1_000_003, warmup):
        for e in avail:
            try:
                e.run(e.prepare(req))
            except Exception:
                pass

    t0 = time.perf_counter()
    reqs = workload.generate(seed, turns)
    gen_s = time.perf_counter() - t0
    progress(f"generated {len(reqs)} turns (seed {seed}) in {gen_s:.2f} s")

    times: dict[str, dict[str, float]] = {e.name: {} for e in avail}
    failures: dict[str, list[dict[str, Any]]] = {e.name: [] for e in avail}
    rejections: dict[str, list[dict[str, Any]]] = {e.name: [] for e in avail}
    afters: dict[str, dict[str, frozenset]] = {e.name: {} for e in avail}
    started = time.perf_counter()
    for i, req in enumerate(reqs):
        tid = req["id"]
        # the order rotates, and every other round runs backwards: over 2n turns each engine
        # follows each other one equally often (the two dipsat engines share parse caches)
        k = i % len(avail) if avail else 0
        base = avail if (i // max(1, len(avail))) % 2 == 0 else avail[::-1]
        for e in base[k:] + base[:k]:
            try:
                inp = e.prepare(req)
            except Exception as exc:
                failures[e.name].append({"turn": tid, "stage": "convert", "error": _short_error(exc),
                                         "traceback": traceback.format_exc(limit=6)})
                continue
            t = time.perf_counter()
            try:
                raw = e.run(inp)
            except Exception as exc:
                failures[e.name].append({"turn": tid, "stage": "adjudicate", "error": _short_error(exc),
                                         "traceback": traceback.format_exc(limit=6)})
                continue
            finally:
                dt = time.perf_counter() - t
            times[e.name][tid] = dt * 1000.0
            try:
                afters[e.name][tid] = e.after(raw)
                for r in e.rejected(raw):
                    rejections[e.name].append({"turn": tid, "order": r})
            except Exception as exc:
                failures[e.name].append({"turn": tid, "stage": "read result", "error": _short_error(exc)})
            del raw, inp
        if (i + 1) % 100 == 0:
            progress(f"  {i + 1}/{len(reqs)} turns ({time.perf_counter() - started:.1f} s)")

    stats: dict[str, Any] = {}
    for e in engines:
        if not e.available:
            stats[e.name] = {"status": e.missing or "not installed"}
            continue
        xs = list(times[e.name].values())
        stats[e.name] = {
            "status": "ok", "version": e.version, "turns": len(xs), "failed": len(failures[e.name]),
            "rejected_orders": len(rejections[e.name]),
            "median_ms": statistics.median(xs) if xs else None,
            "p90_ms": _pct(xs, 0.9) if xs else None,
            "mean_ms": statistics.fmean(xs) if xs else None,
            "max_ms": max(xs) if xs else None,
            "total_s": sum(xs) / 1000.0,
        }
    ratios = {}
    d = stats.get("dipsat", {})
    for e in avail:
        if e.name != "dipsat" and d.get("median_ms") and stats[e.name].get("median_ms"):
            ratios[e.name] = d["median_ms"] / stats[e.name]["median_ms"]

    def agree(a: str, b: str) -> Optional[dict[str, Any]]:
        if a not in afters or b not in afters:
            return None
        both = sorted(set(afters[a]) & set(afters[b]), key=lambda t: int(t.split("-t")[1]))
        same = [t for t in both if afters[a][t] == afters[b][t]]
        return {"agree": len(same), "compared": len(both),
                "disagreeing_turns": [t for t in both if afters[a][t] != afters[b][t]]}

    agreement = {f"{a}~{b}": agree(a, b) for a, b in (("dipsat", "mila"), ("dipsat", "pydip"), ("mila", "pydip"))}
    agreement = {k: v for k, v in agreement.items() if v is not None}

    by_id = {r["id"]: r for r in reqs}
    for name, fl in failures.items():
        for f in fl[:10]:
            f["request"] = by_id.get(f["turn"])
    return {
        "config": {"seed": seed, "turns": turns, "warmup": warmup, "generation_s": gen_s,
                   "engine_order": "rotating per turn", "workload": "benchmarks/workload.py"},
        "environment": {"python": sys.version.split()[0], "platform": platform.platform(),
                        "machine": platform.machine(), "ortools": _version("ortools"),
                        "pydantic": _version("pydantic")},
        "stats": stats, "ratios_dipsat_over_peer_median": ratios, "agreement": agreement,
        "failures": failures, "rejected_orders": {k: v[:50] for k, v in rejections.items()},
        "times_ms": times,
    }


def format_table(result: dict[str, Any]) -> str:
    stats, ratios = result["stats"], result["ratios_dipsat_over_peer_median"]
    head = ("engine", "version", "turns", "failed", "median ms", "p90 ms", "mean ms", "dipsat/peer")
    rows = []
    for name in ENGINES:
        s = stats.get(name)
        if s is None:
            continue
        if s["status"] != "ok":
            rows.append((name, "-", "-", "-", "-", "-", "-", s["status"].split(" (")[0]))
            continue
        f = lambda x: "-" if x is None else f"{x:.2f}"  # noqa: E731
        ratio = "1 (ref)" if name == "dipsat" else (f"{ratios[name]:.2f}x" if name in ratios else "-")
        rows.append((name, str(s["version"]), str(s["turns"]), str(s["failed"]), f(s["median_ms"]),
                     f(s["p90_ms"]), f(s["mean_ms"]), ratio))
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    line = lambda r: "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))  # noqa: E731
    return "\n".join([line(head), line(tuple("-" * w for w in widths)), *map(line, rows)])


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Time dipsat against MILA diplomacy and pydip on the same random turns.")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=5, help="untimed warm-up turns per engine (another seed)")
    ap.add_argument("--engines", default=",".join(ENGINES), help="comma-separated subset of " + ",".join(ENGINES))
    ap.add_argument("-o", "--output", help="JSON results file (default: benchmarks/results/run-...json)")
    ap.add_argument("--show", type=int, default=5, help="how many failures / refused orders to print per engine")
    args = ap.parse_args(argv)

    wanted = [x.strip() for x in args.engines.split(",") if x.strip()]
    unknown = [x for x in wanted if x not in ENGINES]
    if unknown:
        ap.error(f"unknown engine(s) {unknown}; choose from {ENGINES}")
    say = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731
    engines: list[Engine] = []
    for name in ENGINES:
        if name in wanted:
            e = {"dipsat": Dipsat, "dipsat-explain": DipsatExplain, "mila": Mila, "mila-process": MilaProcess,
                 "pydip": Pydip}[name]()
            if not e.available:
                say(f"{name}: {e.missing} -- skipped")
            engines.append(e)

    gc.collect()
    result = run(args.seed, args.turns, args.warmup, engines, say)

    out = Path(args.output) if args.output else (
        HERE / "results" / f"run-seed{args.seed}-turns{args.turns}-{datetime.now():%Y%m%d-%H%M%S}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1, default=str) + "\n", encoding="utf-8")

    print()
    print(f"seed {args.seed}, {args.turns} turns, same turns for every engine, engine order rotating per turn")
    print(format_table(result))
    if result["ratios_dipsat_over_peer_median"]:
        print("dipsat/peer = dipsat median / peer median (above 1: dipsat slower)")
    print()
    for key, a in result["agreement"].items():
        x, y = key.split("~")
        print(f"agreement {x} vs {y}: same units after the turn on {a['agree']}/{a['compared']} turns"
              + (f" (first differing: {', '.join(a['disagreeing_turns'][:5])})" if a["disagreeing_turns"] else ""))
    for name, rej in result["rejected_orders"].items():
        n = result["stats"][name]["rejected_orders"]
        if n:
            print(f"\n{name} refused {n} order(s) (the workload only makes legal orders); first {min(n, args.show)}:")
            for r in rej[: args.show]:
                print(f"  {r['turn']}: {r['order']}")
    for name, fl in result["failures"].items():
        if fl:
            print(f"\n{name} failed on {len(fl)} turn(s); first {min(len(fl), args.show)}:")
            for f in fl[: args.show]:
                print(f"  {f['turn']} ({f['stage']}): {f['error']}")
                if f.get("request"):
                    print(f"    request: {json.dumps(f['request'], separators=(',', ':'))}")
    print(f"\nresults: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
