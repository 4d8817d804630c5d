"""``dipsat batch --dask``: lines answered on a Dask cluster (:func:`run_dask`), streaming, in
order, with the pool's guarantees (:mod:`dipsat.io.batch_pool`): a chunk whose worker died is
tried again line by line, and a line that fails alone is answered ``worker_died``.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Callable, Iterable
from multiprocessing.connection import wait
from typing import Any

from dipsat.errors import DipsatError
from dipsat.io.batch import (ISSUES, BatchReport, BatchSettings, Line, TextOut, answer, count_result, error_result,
                             short_text, warm_up)
from dipsat.io.batch_pool import Handler, _Feed, settle_gc


def _answer_chunk(lines: list[Line], settings: BatchSettings, handler: Handler = answer, own: bool = False) -> list[str]:
    """A chunk's answers, on a Dask worker.  ``own``: the worker is a process of this run's own
    local cluster, so its collector is settled after its first chunk as a pool worker's is
    (:func:`settle_gc`); a worker of someone else's cluster keeps the collector it has."""
    global _SETTLED
    warm_up(settings)
    texts = [handler(line, settings) for line in lines]
    if own and not _SETTLED:
        settle_gc()
        _SETTLED = True
    return texts


_SETTLED = False  # this process's collector is settled (a Dask worker of a local cluster)

# A task costs the scheduler and this client about as much as a few lines cost a worker, and on a
# small machine they share the workers' cores: the chunks grow with the lines answered, from
# ``chunk`` (the first answers come soon) to GROWTH times it (a long run pays that cost rarely).
GROWTH = 8

# A local cluster's own timers, made rarer.  Idle, the default cluster of two workers keeps about a
# fifth of a core busy (measured: the process of the scheduler, client and nannies 8.7 % of a core,
# each worker 5.5 %), on a machine whose cores the workers need: the workers' statistical profiler
# samples the running task every 10 ms (for a dashboard this run has none), the event loops time
# themselves every 20 ms, the nannies read their workers' memory every 100 ms and the scheduler
# balances work by stealing every 100 ms (chunks of one size, a bounded window: nothing to balance).
# With these: 1.3 % and 0.5 %.  The memory limit still holds (checked every second, not every tenth);
# a cluster of the user's own (an address) keeps its configuration.
QUIET = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.scheduler.work-stealing": False,
}


def run_dask(lines: Iterable[Line], out: TextOut, settings: BatchSettings, address: str, jobs: int,
             on_result: Callable[[], None] = lambda: None, chunk: int = 32, handler: Handler = answer) -> BatchReport:
    """Answer ``lines`` on a Dask cluster (``address``, or ``"local"``: a LocalCluster of ``jobs``
    worker processes), streaming as :func:`run_pool` does.  Lines go out in chunks (of ``chunk``
    lines at first, growing with the lines answered to :data:`GROWTH` times that); a chunk that
    fails (its worker died) is tried again line by line, and a line that fails alone is answered
    with a ``worker_died`` error."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise DipsatError("--dask needs the Dask extra: pip install 'dipsat[dask]'") from None
    import dask

    report = BatchReport()
    cluster = None
    own = address == "local"
    if own:
        # A task whose worker dies is not retried by the scheduler: this runner retries it itself,
        # line by line, so that a line is tried exactly twice.
        with dask.config.set({"distributed.scheduler.allowed-failures": 0, "logging.distributed": "error", **QUIET}):
            cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.ERROR)
        client = Client(cluster)
    else:
        try:
            client = Client(address, timeout="20s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise DipsatError(f"--dask {address!r}: cannot reach the scheduler: {exc}") from None
    window: deque[tuple[list[Line], Any]] = deque()
    limit = max(4, 4 * max(1, len(client.scheduler_info().get("workers", {})) or jobs))
    most = GROWTH * chunk
    feed = _Feed(lines, limit * most)
    arrived: list[Line] = []
    exhausted = False
    written = 0

    def fill() -> None:
        """Send the lines that have arrived, in chunks; a part chunk only when nothing else is out
        and no line came for 0.1 s (a slow input's line waits no longer)."""
        nonlocal exhausted
        while len(window) < limit:
            size = min(most, max(chunk, written // 4))
            while len(arrived) < size and not exhausted:
                try:
                    line = feed.take()
                except StopIteration:
                    exhausted = True
                    break
                if line is None:
                    break
                arrived.append(line)
            if not arrived:
                return
            if len(arrived) < size and not exhausted:
                if window:
                    return  # a part chunk goes out only when nothing else is
                if wait([feed.fileno()], timeout=0.1):  # more lines on their way: fill the chunk first
                    feed.drain()
                    continue
            batch = arrived[:]
            arrived.clear()
            window.append((batch, client.submit(_answer_chunk, batch, settings, handler, own, pure=False)))

    def write(texts: list[str], batch: list[Line]) -> None:
        nonlocal written
        for line, text in zip(batch, texts):
            out.write(text + "\n")
            count_result(report, text, line.number)
            on_result()
        out.flush()
        written += len(batch)
        feed.written(written)

    try:
        feed.start()
        fill()
        while window or not exhausted:
            if not window:  # every answer is written: wait for more input
                wait([feed.fileno()], timeout=1.0)
                feed.drain()
                fill()
                continue
            batch, fut = window.popleft()
            try:
                texts = fut.result()
            except KeyboardInterrupt:
                raise
            except Exception:
                texts = []
                for line in batch:
                    report.retried += 1
                    try:
                        texts += client.submit(_answer_chunk, [line], settings, handler, own, pure=False).result()
                    except KeyboardInterrupt:
                        raise
                    except Exception as exc:
                        msg = (f"line {line.number}: the Dask worker answering it failed twice "
                               f"({type(exc).__name__}: {short_text(str(exc))}); please report it with the line: {ISSUES}")
                        texts.append(json.dumps(error_result(line.number, "worker_died", msg), separators=(",", ":")))
            write(texts, batch)
            fill()
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        feed.close()
        for _, fut in window:
            fut.cancel()
        client.close()
        if cluster is not None:
            cluster.close()
    return report


