"""A figure of time per turn against the size of the turn, for dipsat and its peers: an SVG.

    python -m benchmarks.plot --seed 1 --turns 300 -o docs/images/performance.svg

The turns and timings are those of :mod:`benchmarks.run` (the same seeded workload, every engine
in one process, the engine order rotating; see its docstring for what is timed).  Two panels:

* median ms per turn against the number of units on the board (turns grouped by units: 22-25,
  26-28, 29-31, 32-34);
* median ms per turn against the size of the turn's largest cycle: the units in the largest
  cyclic component of dipsat's equations (0: no cycle; rings, swaps with convoys, paradoxes).

The SVG is written by hand (no plotting library), so the benchmark needs nothing beyond the
peers themselves.  The figure's caption states the load average: on a shared machine compare
the lines with one another, not with a figure of another run.
"""

from __future__ import annotations

if not __package__:
    raise SystemExit("run from the repository root: python -m benchmarks.plot ...")

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any, Optional
from xml.sax.saxutils import escape

from . import workload
from .run import ENGINES, Dipsat, DipsatExplain, Mila, MilaProcess, Pydip, run

COLOURS = {"dipsat": "#1f6fb4", "dipsat-explain": "#6aa7dc", "mila": "#d1495b", "mila-process": "#edae49",
           "pydip": "#2e933c"}
UNIT_BINS = [(22, 25), (26, 28), (29, 31), (32, 34)]


def cycle_size(req: dict[str, Any]) -> int:
    """Units in the largest cyclic component of dipsat's equations for the turn (0: none)."""
    from dipsat.game.api import TurnRequest
    from dipsat.game.pipeline import Pipeline

    r = TurnRequest.model_validate(workload.request_for_dipsat(req))
    pipe = Pipeline.for_request(r)
    turn = pipe.prepare(r)
    enc = pipe.encode(pipe.bind(turn.position, turn.orders))
    sol = pipe.solve(enc)
    return max((len({k.unit for k in c.decisions}) for c in sol.components), default=0)


def features(reqs: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    return {r["id"]: (sum(len(us) for us in r["units"].values()), cycle_size(r)) for r in reqs}


def panel(x0: float, y0: float, w: float, h: float, title: str, xlabels: list[str],
          series: dict[str, list[Optional[float]]], ymax: float) -> list[str]:
    out = [f'<text x="{x0 + w / 2}" y="{y0 - 12}" text-anchor="middle" font-size="14">{escape(title)}</text>',
           f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#888"/>']
    step = 1 if ymax <= 8 else 2 if ymax <= 16 else 5
    y = 0
    while y <= ymax:
        py = y0 + h - y / ymax * h
        out.append(f'<line x1="{x0}" y1="{py:.1f}" x2="{x0 + w}" y2="{py:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x0 - 6}" y="{py + 4:.1f}" text-anchor="end" font-size="11">{y}</text>')
        y += step
    n = len(xlabels)
    xs = [x0 + (i + 0.5) * w / n for i in range(n)]
    for x, label in zip(xs, xlabels):
        out.append(f'<text x="{x:.1f}" y="{y0 + h + 16}" text-anchor="middle" font-size="11">{escape(label)}</text>')
    for name, ys in series.items():
        pts = [(x, y0 + h - v / ymax * h) for x, v in zip(xs, ys) if v is not None]
        if len(pts) > 1:
            out.append(f'<polyline fill="none" stroke="{COLOURS[name]}" stroke-width="2" points="'
                       + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + '"/>')
        for x, y in pts:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{COLOURS[name]}"/>')
    return out


def svg(result: dict[str, Any], feats: dict[str, tuple[int, int]], caption: str) -> str:
    times: dict[str, dict[str, float]] = result["times_ms"]
    names = [n for n in ENGINES if n in times]
    cycles = sorted({c for _, c in feats.values()})

    def med(name: str, pick: Any) -> Optional[float]:
        xs = [t for tid, t in times[name].items() if pick(*feats[tid])]
        return statistics.median(xs) if xs else None

    by_units = {n: [med(n, lambda u, c, lo=lo, hi=hi: lo <= u <= hi) for lo, hi in UNIT_BINS] for n in names}
    by_cycle = {n: [med(n, lambda u, c, k=k: c == k) for k in cycles] for n in names}
    counts = [sum(1 for _, c in feats.values() if c == k) for k in cycles]
    ymax = max([v for s in (*by_units.values(), *by_cycle.values()) for v in s if v is not None] + [1.0]) * 1.1
    W, H = 900, 430
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
             'font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>',
             f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="16">Median ms per standard-map turn '
             f'(lower is faster)</text>']
    parts += panel(60, 60, 360, 260, "by units on the board", [f"{lo}-{hi}" for lo, hi in UNIT_BINS], by_units, ymax)
    parts += panel(510, 60, 360, 260, "by units in the largest cycle (turns)",
                   [f"{k} ({n})" for k, n in zip(cycles, counts)], by_cycle, ymax)
    parts.append(f'<text x="25" y="190" font-size="11" transform="rotate(-90 25 190)" text-anchor="middle">ms</text>')
    for i, n in enumerate(names):
        x = 60 + i * 165
        parts.append(f'<rect x="{x}" y="362" width="14" height="4" fill="{COLOURS[n]}"/>'
                     f'<text x="{x + 20}" y="368" font-size="12">{escape(n)}</text>')
    parts.append(f'<text x="60" y="400" font-size="11" fill="#555">{escape(caption)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.plot", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("-o", "--output", default="docs/images/performance.svg")
    args = ap.parse_args(argv)
    engines = [e for e in (Dipsat(), DipsatExplain(), Mila(), MilaProcess(), Pydip()) if e.available]
    load = os.getloadavg()[0]
    result = run(args.seed, args.turns, args.warmup, engines, lambda m: print(m, file=sys.stderr))
    feats = features(workload.generate(args.seed, args.turns))
    caption = (f"seed {args.seed}, {args.turns} turns, one process, engine order rotating; {os.cpu_count()} cores, "
               f"load average {load:.1f}; MILA: harness = set_units + set_orders + process(), "
               f"mila-process = process() alone")
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(svg(result, feats, caption), encoding="utf-8")
    times: dict[str, dict[str, float]] = result["times_ms"]
    cyclic = sum(1 for _, c in feats.values() if c)
    print(f"{len(feats)} turns, {cyclic} with a cycle in dipsat's equations")
    for name, s in result["stats"].items():
        if s.get("status") == "ok":
            with_cycle = [t for tid, t in times[name].items() if feats[tid][1]]
            without = [t for tid, t in times[name].items() if not feats[tid][1]]
            ratio = (f"; cyclic / acyclic turns (median) {statistics.median(with_cycle) / statistics.median(without):.2f}"
                     if with_cycle and without else "")
            print(f"{name:<15} median {s['median_ms']:.2f} ms{ratio}")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
