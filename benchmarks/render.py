"""How long pictures take: ``python -m benchmarks.render [PATH...]``.

For every corpus case of the paths (default: ``tests/corpora``) that is drawn on a map, it
adjudicates the case once, then times drawing it as a full-map SVG, as a cropped SVG, and as a
picture for the HTML report (shared board); finally it times writing the whole report page.
Prints medians and totals; the figures are machine-dependent (quote them with the machine).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from dipsat.game.api import TurnRequest, adjudicate
from dipsat.io.corpus import case_files, load_case, run_corpus
from dipsat.face.render import render_svg
from dipsat.face.report import corpus_report
from dipsat.game.variant import Variant
from dipsat.variants import find_record, variant_names


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=["tests/corpora"])
    ap.add_argument("--repeat", type=int, default=3, help="times each picture is drawn (the median is kept)")
    args = ap.parse_args()
    results = []
    for f in case_files(args.paths):
        case = load_case(f)
        if case.variant not in variant_names():
            continue
        v = find_record(case.variant)
        if not isinstance(v, Variant) or case.phase == "game":  # game cases: several phases, not one picture
            continue
        exp = case.expect[0]
        results.append(adjudicate(TurnRequest(variant=case.variant, rules=exp.rules[0], options=dict(exp.options),
                                              phase=case.phase, units=case.units, orders=case.orders,
                                              owners=case.owners, retreat_orders=case.retreat_orders)))
    print(f"{len(results)} corpus cases drawn on a map")
    for label, kw in (("full map", {}), ("cropped", {"crop": True}), ("report picture", {"crop": True, "shared": True})):
        times, sizes = [], []
        for res in results:
            best = []
            for _ in range(args.repeat):
                t = time.perf_counter()
                svg = render_svg(res, **kw)
                best.append(time.perf_counter() - t)
            times.append(statistics.median(best))
            sizes.append(len(svg.encode()))
        print(f"{label:>15}: median {statistics.median(times) * 1000:.1f} ms, total {sum(times):.2f} s, "
              f"median size {statistics.median(sizes) / 1024:.1f} KiB")
    t = time.perf_counter()
    runs = run_corpus(args.paths)
    t_run = time.perf_counter() - t
    t = time.perf_counter()
    page = corpus_report(runs)
    t_page = time.perf_counter() - t
    print(f"report: {len(runs)} runs adjudicated in {t_run:.2f} s, page written in {t_page:.2f} s, "
          f"{len(page.encode()) / 1024 / 1024:.2f} MiB")


if __name__ == "__main__":
    main()
