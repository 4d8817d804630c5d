"""batch --dask on a real Dask LocalCluster of worker processes: the same order, streaming and
error guarantees as the local process pool, also when a worker dies."""

import io
import json

from dipsat.io.batch import BatchSettings, Line
from dipsat.io.batch_dask import run_dask
from dipsat.io.batch_pool import run_pool

from batch_helpers import crash_on_marker

GOOD = {"units": {"France": ["A Par", "A Mar"], "Germany": ["A Mun"]},
        "orders": {"France": ["A Par - Bur", "A Mar S A Par - Bur"], "Germany": ["A Mun - Bur"]}}


def test_dask_local_cluster_same_results_in_order_and_a_dying_worker_costs_one_line():
    lines = [Line(i + 1, json.dumps({**GOOD, "id": i}).encode()) for i in range(24)]
    lines[5] = Line(6, b"{broken")
    lines[17] = Line(18, b'{"id": "CRASH"}')
    out = io.StringIO()
    report = run_dask(lines, out, BatchSettings(), "local", jobs=2, chunk=8, handler=crash_on_marker)
    res = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [r["line"] for r in res] == list(range(1, 25))
    assert res[5]["error"]["kind"] == "invalid_json"
    assert res[17]["error"]["kind"] == "worker_died" and "failed twice" in res[17]["error"]["message"]
    # the chunk of the bad line, and any other chunk that was on the dying worker, are retried line by line
    assert report.ok == 22 and report.errors == 2 and report.retried >= 8 and report.retried % 8 == 0
    local = io.StringIO()
    run_pool([ln for ln in lines if ln.number != 18], local, BatchSettings(), jobs=2)
    assert [x for i, x in enumerate(out.getvalue().splitlines()) if i != 17] == local.getvalue().splitlines()


def test_a_local_clusters_worker_settles_its_collector_after_its_first_chunk():
    """A worker of the run's own local cluster settles its collector as a pool worker does
    (:func:`dipsat.io.batch_pool.settle_gc`) once its first chunk is answered; one chunk at a
    time reaches the one worker, so the first chunk sees the collector as it was.  Its timers
    run as :data:`dipsat.io.batch_dask.QUIET` sets them."""
    from batch_helpers import gc_state
    from dipsat.io.batch_pool import GC_THRESHOLDS

    out = io.StringIO()
    run_dask([Line(n, b"{}") for n in range(1, 7)], out, BatchSettings(), "local", jobs=1, chunk=2, handler=gc_state)
    states = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [s["line"] for s in states] == list(range(1, 7))
    assert states[0]["threshold"] != list(GC_THRESHOLDS)
    assert all(s["frozen"] > 10_000 and s["threshold"] == list(GC_THRESHOLDS) for s in states[2:])
    # the run's own cluster keeps its timers quiet (batch_dask.QUIET): no profiler on the worker
    assert all(s["dask"] == {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s"}
               for s in states)
