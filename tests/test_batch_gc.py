"""A batch worker freezes what start-up built and collects its young objects less often, once its
first message is answered (:func:`dipsat.io.batch_pool.settle_gc`); the answers do not change."""

import io
import json

from batch_helpers import gc_state

from benchmarks.workload import generate
from dipsat.io.batch import BatchSettings, Line, answer_line
from dipsat.io.batch_pool import GC_THRESHOLDS, run_pool


def test_worker_settles_its_collector_after_the_first_message():
    out = io.StringIO()
    run_pool([Line(n, b"{}") for n in range(1, 5)], out, BatchSettings(), jobs=1, handler=gc_state)
    states = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [s["line"] for s in states] == [1, 2, 3, 4]
    assert states[0]["frozen"] == 0 and states[0]["threshold"] != list(GC_THRESHOLDS)
    for s in states[1:]:  # start-up (the modules, the standard map) is frozen
        assert s["frozen"] > 10_000 and s["threshold"] == list(GC_THRESHOLDS)


def test_settled_workers_answer_as_the_process_does():
    turns = generate(3, 12)
    out = io.StringIO()
    run_pool([Line(i + 1, json.dumps(t).encode()) for i, t in enumerate(turns)], out, BatchSettings(), jobs=1)
    here = [json.loads(json.dumps(answer_line(json.dumps(t), i + 1))) for i, t in enumerate(turns)]
    assert [json.loads(x) for x in out.getvalue().splitlines()] == here


def test_one_job_settles_its_collector_after_the_first_line():
    """``-j 1`` (:func:`run_here`, this process) settles the collector as a worker does, once its
    first line is answered."""
    import gc

    from dipsat.io.batch_pool import run_here

    before = gc.get_threshold()
    out = io.StringIO()
    try:
        run_here([Line(n, b"{}") for n in range(1, 4)], out, BatchSettings(), handler=gc_state)
        states = [json.loads(x) for x in out.getvalue().splitlines()]
        assert [s["threshold"] for s in states[1:]] == [list(GC_THRESHOLDS)] * 2 and states[2]["frozen"] > 10_000
    finally:  # the test process's own collector as it was
        gc.unfreeze()
        gc.set_threshold(*before)
