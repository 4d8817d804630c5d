"""Every reading in one enumeration against brute force, on whole corpora.

For each Diplomacy-family case of the corpora given (default: the DATC corpus), ``dipsat
readings`` enumerates every assignment of the rule options that touch the case; brute force then
adjudicates the case separately under every one of those assignments (the single-preset path).
The run checks that both give the same outcome for every order under every assignment (result,
reason, position after) and times both.  Prints one line per case with ``-v``, and the totals::

    python -m benchmarks.readings                      # the DATC corpus
    python -m benchmarks.readings tests/corpora/multiplomacy tests/corpora/multinational
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from dipsat.game.api import TurnRequest
from dipsat.io.corpus import case_files, load_case
from dipsat.research.readings import brute_force, turn_readings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", default=["tests/corpora/datc"])
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    t_readings = t_brute = 0.0
    cases = assignments = mismatches = from_model = changed = downstream = 0
    turn_readings(TurnRequest(units={"France": ["A Par"]}))  # warm up: imports
    for f in case_files([Path(p) for p in args.paths]):
        if f.suffix != ".toml":
            continue
        c = load_case(f)
        if c.variant in ("continents", "supremacy") or c.data or c.phase == "game":
            continue  # games of their own family, and game cases (several phases): no one turn's readings
        req = TurnRequest(variant=c.variant, phase=c.phase, units=c.units, orders=c.orders, owners=c.owners,
                          retreat_orders=c.retreat_orders)
        t0 = time.perf_counter()
        rd = turn_readings(req)
        t1 = time.perf_counter()
        bf = brute_force(req, rd.options)
        t2 = time.perf_counter()
        mine = {tuple(sorted(a.items())): (r.outcomes, r.after) for a, r in rd.table}
        bad = [a for a, got in bf if mine[tuple(sorted(a.items()))] != got]
        mismatches += len(bad)
        cases += 1
        assignments += len(bf)
        from_model += rd.stats.from_model
        changed += rd.stats.changed + rd.stats.unenumerated
        downstream += rd.stats.downstream
        t_readings += t1 - t0
        t_brute += t2 - t1
        if args.verbose or bad:
            print(f"{c.id}: {len(rd.options)} options, {len(bf)} assignments, {rd.solves} systems solved; "
                  f"readings {1000 * (t1 - t0):.0f} ms, brute force {1000 * (t2 - t1):.0f} ms"
                  + (f"; {len(bad)} DIFFER, e.g. {bad[0]}" if bad else ""))
    print(f"{cases} cases, {assignments} assignments of the options that touch them; "
          f"{mismatches} assignments differ")
    print(f"cycles of the readings' systems: {from_model} counted (and settled by their backup rules) from the "
          f"one model's resolutions; solved again: {changed} where no resolution is consistent or a backup rule "
          f"changed the equations (or beyond the enumeration limit), {downstream} with a cycle or integer decision downstream")
    print(f"readings (one enumeration per case): {t_readings:.2f} s; brute force: {t_brute:.2f} s; "
          f"brute force / readings = {t_brute / t_readings:.1f}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
