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

    return json.dumps({"line": line.number, "frozen": gc.get_freeze_count(), "threshold": list(gc.get_threshold())})
