"""Worker handlers for the batch tests: they run in worker processes, so they live in a module."""

import os

from dipsat.io.batch import BatchSettings, Line, answer


def crash_on_marker(line: Line, settings: BatchSettings) -> str:
    """Kill the worker process (as a crash in native code would) on a line holding CRASH."""
    if b"CRASH" in line.raw:
        os._exit(9)
    return answer(line, settings)


def raise_on_marker(line: Line, settings: BatchSettings) -> str:
    if b"RAISE" in line.raw:
        raise RuntimeError("a bug in the handler")
    return answer(line, settings)


def gc_state(line: Line, settings: BatchSettings) -> str:
    """The worker's garbage-collector settings when it takes the line (no adjudication)."""
    import gc
    import json

    import sys

    state = {"line": line.number, "frozen": gc.get_freeze_count(), "threshold": list(gc.get_threshold())}
    if "distributed" in sys.modules:  # a Dask worker: its timers' configuration too
        import dask

        state["dask"] = {k: dask.config.get(k) for k in ("distributed.worker.profile.enabled", "distributed.admin.tick.interval")}
    return json.dumps(state)


def spin_in_the_turn(line: Line, settings: BatchSettings) -> str:
    """Answer the line as batch does, its turn first spending up to 5 s in a loop of int() on bad
    text: the loop in which the deadline's one signal was lost (CPython's int() dropped what the
    handler raised).  Within the line's time limit, every such line is answered 'timeout'."""
    import time

    import dipsat.io.batch as batch

    if not getattr(batch, "spin_26", False):
        real = batch._adjudicate

        def spin(*args, **kwargs):
            t = time.monotonic()
            while time.monotonic() - t < 5:
                try:
                    int("x")
                except ValueError:
                    pass
            return real(*args, **kwargs)

        batch._adjudicate = spin
        batch.spin_26 = True
    return answer(line, settings)
