"""The runners of ``dipsat batch`` on this machine: a pool of worker processes (:func:`run_pool`,
behind ``-j N`` for N of 2 or more: the default, one per core) and this process alone
(:func:`run_here`, behind ``-j 1``); a Dask cluster's is :mod:`dipsat.io.batch_dask`.  What a
line's answer is, and how the input is read and resumed, are :mod:`dipsat.io.batch`'s; this module
is about where lines are answered: chunks of lines in flight, workers that die (a line that kills
a worker twice is answered ``worker_died``), Ctrl-C (the lines in flight finish and are written),
and an input read by a thread of its own, so answers are written while the next line is awaited.
All of them stream: at most a fixed window of lines is read ahead of what is written.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import field
from typing import TYPE_CHECKING, Any, Optional

from dipsat.io.batch import (ISSUES, BatchReport, BatchSettings, Line, TextOut, answer, count_result, error_result,
                             short_text, warm_up)
from dipsat.records import dataclass

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

Handler = Callable[[Line, BatchSettings], str]


@dataclass
class _Task:
    seq: int
    line: Line
    attempts: int = 0  # deaths of a worker while this line may have been in progress


@dataclass
class _Worker:
    proc: Any  # multiprocessing.process.BaseProcess
    conn: Connection
    pending: deque[_Task] = field(default_factory=deque)  # sent, not answered, in the order sent
    chunks: deque[int] = field(default_factory=deque)  # the sizes of the messages those went in
    busy_since: float = 0.0
    answered: int = 0  # lines answered so far (the chunks grow with it)


# Lines go to a worker in messages of up to CHUNK lines (and come back as one message of
# answers), so the parent's cost per line -- pickling, pipe system calls, waking up -- is shared
# by the chunk; a worker keeps up to two chunks in flight.  A worker's first messages hold one
# line and grow with the lines it has answered, so a short batch still spreads over every worker.
CHUNK = 8


class _InterruptFlag:
    """While active (in the main thread), the first SIGINT only sets :attr:`raised`; a second
    one raises KeyboardInterrupt as usual, for a user who does not want to wait."""

    def __init__(self) -> None:
        self.raised = False
        self.busy = True  # False: nothing to finish (:func:`run_here` awaiting input), so it stops at once
        self._old: Any = None
        self._installed = False

    def _handle(self, signum: int, frame: Any) -> None:
        if self.raised or not self.busy:
            raise KeyboardInterrupt
        self.raised = True

    def __enter__(self) -> "_InterruptFlag":
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._old)
            self._installed = False


class _Feed:
    """The input's lines, read by a thread of their own, so that answers are written while the
    next line is awaited (read in the runner's own thread, a slow pipe held every answer back
    until more input came).  The runner takes what has arrived (:meth:`take`, never blocking) and
    waits on the feed's descriptor (:meth:`fileno`) beside its workers.  The thread reads at most ``window``
    lines ahead of the results written (:meth:`written`); the end of the input, or an error or
    interrupt the input raises, reaches the runner in its place after the lines before it."""

    def __init__(self, lines: Iterable[Line], window: int) -> None:
        self._source = iter(lines)
        self._window = window
        self._cond = threading.Condition()
        self._ready: deque[Line] = deque()
        self._end: Optional[BaseException] = None  # StopIteration at the end of the input
        self._read = self._written = 0
        self._closed = False
        self._r, self._w = os.pipe()  # a byte for each line that arrives: wakes the runner's wait
        os.set_blocking(self._r, False)
        os.set_blocking(self._w, False)
        self._thread = threading.Thread(target=self._run, name="dipsat-batch-input", daemon=True)

    def start(self) -> None:
        """Begin reading (what the input raises, an interrupt included, is kept for :meth:`take`)."""
        self._thread.start()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._read - self._written >= self._window and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
            try:
                line = next(self._source)
            except BaseException as exc:  # noqa: BLE001 - the end, or the input's error: the runner's to raise
                with self._cond:
                    self._end = exc
                    self._wake()
                return
            with self._cond:
                self._ready.append(line)
                self._read += 1
                self._wake()

    def _wake(self) -> None:  # under the lock, so never after close (whose fd may be reused)
        if not self._closed:
            try:
                os.write(self._w, b".")
            except BlockingIOError:  # the pipe is full: it is readable anyway
                pass

    def take(self) -> Optional[Line]:
        """The next line if it has arrived, else None; at the end StopIteration (or the input's
        own error) is raised."""
        with self._cond:
            if self._ready:
                return self._ready.popleft()
            end = self._end
        if end is not None:
            raise end
        return None

    def written(self, results: int) -> None:
        """``results`` answers are written: the thread may read that far ahead of them."""
        with self._cond:
            self._written = results
            self._cond.notify()

    def fileno(self) -> int:
        return self._r

    def drain(self) -> None:
        try:
            while os.read(self._r, 1 << 16):
                pass
        except BlockingIOError:
            pass

    def close(self) -> None:
        """Stop reading (a thread blocked in the input ends with the process: it is a daemon)."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify()
            os.close(self._r)
            os.close(self._w)


# A worker's garbage collector once its first line is answered: what start-up built (modules, the
# map's tables, the parse caches' first entries) is frozen out of every later collection, and the
# youngest generation is collected every 10,000 net allocations instead of 700.  A turn leaves
# some cyclic garbage, so collections still run; the full ones (50-200 ms each, 5 in 2,000
# standard turns) go, and the time spent collecting falls by about two thirds.
GC_THRESHOLDS = (10_000, 10, 10)


def settle_gc() -> None:
    """Freeze what the process holds now and set :data:`GC_THRESHOLDS` (batch workers only: a
    library caller's collector is its own)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _worker_main(conn: Connection, settings: BatchSettings, handler: Handler) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides; the line in flight finishes
    warm_up(settings)
    settled = False
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        answers: list[tuple[int, str]] = []
        for seq, line in msg:
            try:
                text = handler(line, settings)
            except BaseException as exc:  # noqa: BLE001 - the worker must answer every line it takes
                text = _internal_error(line, exc)
            answers.append((seq, text))
        conn.send(answers)
        if not settled:  # after the first message: what its line imported is start-up too
            settle_gc()
            settled = True


def _internal_error(line: Line, exc: BaseException) -> str:
    """The answer of a line whose handler raised (the batch's own never does)."""
    return json.dumps(error_result(line.number, "internal_error", f"unexpected {type(exc).__name__} while answering "
                                   f"it: {short_text(str(exc))} (please report it with the line: {ISSUES})"),
                      separators=(",", ":"))


def _context() -> Any:
    import multiprocessing  # (the pool's: ``-j 1`` answers in this process without it)

    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        # what every line imports, once in the forkserver; OR-Tools only in a worker whose line needs it
        ctx.set_forkserver_preload(["dipsat.io.batch", "dipsat.io.batch_pool", "dipsat.game.api", "dipsat.variants",
                                    "dipsat.board.movement"])
        return ctx
    return multiprocessing.get_context("spawn")


def run_pool(lines: Iterable[Line], out: TextOut, settings: BatchSettings, jobs: int,
             on_result: Callable[[], None] = lambda: None, handler: Handler = answer,
             prefetch: int = 4) -> BatchReport:
    """Answer ``lines`` with ``jobs`` worker processes; results are written in input order as
    soon as they can be.  Ctrl-C stops reading, lets the lines in flight finish, writes them and
    returns with ``interrupted``; a second Ctrl-C stops at once (what was written stays).

    Lines travel in chunks (:data:`CHUNK`).  When a worker dies, the answers it sent are kept;
    the lines of the message it was working on are each counted as tried once and go to other
    workers one per message, so the line that kills a worker again is known exactly and answered
    with an error; its other lines go back to the queue as they were."""
    from multiprocessing.connection import wait

    ctx = _context()
    report = BatchReport()
    window = max(64, jobs * prefetch * 4)
    feed = _Feed(lines, window)
    watchdog = None if settings.limits.turn_time_limit is None else settings.limits.turn_time_limit * 3 + 30
    workers: list[_Worker] = []
    retry: deque[_Task] = deque()
    done: dict[int, tuple[int, str]] = {}
    next_seq = write_seq = 0
    exhausted = stopping = False

    def start() -> _Worker:
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker_main, args=(child, settings, handler), daemon=True)
        proc.start()
        child.close()
        return _Worker(proc, parent)

    def receive(w: _Worker, now: float) -> None:
        """Every answer message waiting in the worker's pipe."""
        while w.conn.poll():
            answers = w.conn.recv()
            w.chunks.popleft()
            for seq, text in answers:
                task = w.pending.popleft()
                assert task.seq == seq, "answers come back in the order sent"
                done[seq] = (task.line.number, text)
            w.answered += len(answers)
            w.busy_since = now

    def died(w: _Worker) -> None:
        report.worker_deaths += 1
        try:
            receive(w, time.monotonic())
        except (EOFError, OSError):
            pass
        if w.proc.is_alive():
            w.proc.kill()
        w.proc.join()
        code = w.proc.exitcode
        w.conn.close()
        if w.pending:
            # the lines of the message in progress: each may have killed the worker
            current = [w.pending.popleft() for _ in range(min(w.chunks[0] if w.chunks else 1, len(w.pending)))]
            again: list[_Task] = []
            for task in current:
                task.attempts += 1
                if task.attempts >= 2 and len(current) == 1:
                    msg = (f"line {task.line.number}: the worker process answering it died twice "
                           f"(exit code {code}); please report it with the line: {ISSUES}")
                    done[task.seq] = (task.line.number, json.dumps(
                        error_result(task.line.number, "worker_died", msg), separators=(",", ":")))
                else:
                    again.append(task)
                    report.retried += 1
            retry.extendleft(reversed(again))
            retry.extend(w.pending)
            w.pending.clear()
        w.chunks.clear()

    def message(w: _Worker) -> list[_Task]:
        """The next lines to send to ``w``: one line that a dying worker held (alone, so a second
        death names it), or up to the worker's chunk size of others."""
        size = min(CHUNK, 1 + w.answered // 4)
        tasks: list[_Task] = []
        while len(tasks) < size:
            if retry:
                if retry[0].attempts:
                    if tasks:
                        break
                    return [retry.popleft()]
                tasks.append(retry.popleft())
            elif not exhausted and not stopping and next_seq - write_seq < window:
                line = pull()
                if line is None:
                    break
                tasks.append(line)
            else:
                break
        return tasks

    def pull() -> Optional[_Task]:
        nonlocal next_seq, exhausted
        try:
            line = feed.take()
        except StopIteration:
            exhausted = True
            return None
        if line is None:  # not yet arrived
            return None
        task = _Task(next_seq, line)
        next_seq += 1
        return task

    def flush() -> None:
        nonlocal write_seq
        wrote = False
        while write_seq in done:
            number, text = done.pop(write_seq)
            out.write(text + "\n")
            count_result(report, text, number)
            write_seq += 1
            wrote = True
            on_result()
        if wrote:
            out.flush()
            feed.written(write_seq)

    def step() -> bool:
        """Send, wait, collect once; False when everything is answered."""
        for i, w in enumerate(workers):
            if not w.proc.is_alive() and w.proc.exitcode is not None:
                died(w)
                workers[i] = start()
        for w in sorted(workers, key=lambda w: len(w.pending)):
            while len(w.chunks) < 2:
                tasks = message(w)
                if not tasks:
                    break
                if not w.pending:
                    w.busy_since = time.monotonic()
                w.pending.extend(tasks)
                w.chunks.append(len(tasks))
                try:
                    w.conn.send([(t.seq, t.line) for t in tasks])
                except (BrokenPipeError, OSError):
                    break  # found dead at the next step
        busy = [w for w in workers if w.pending]
        awaiting = not exhausted and not stopping  # more input may come: wait for it too
        if not busy and not retry and not awaiting:
            return False
        ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy] + ([feed.fileno()] if awaiting else []),
                     timeout=1.0)
        if feed.fileno() in ready:
            feed.drain()
        now = time.monotonic()
        for i, w in enumerate(workers):
            if w.conn in ready:
                try:
                    receive(w, now)
                except (EOFError, OSError):
                    died(w)
                    workers[i] = start()
                    continue
            if w.proc.sentinel in ready and not w.proc.is_alive():
                died(w)
                workers[i] = start()
            elif watchdog is not None and w.pending and now - w.busy_since > watchdog * (w.chunks[0] if w.chunks else 1):
                w.proc.kill()  # stuck past every line's limit: counts as a death of its message's lines
                died(w)
                workers[i] = start()
        flush()
        return True

    try:
        # the input is read while the workers start (the first start waits for the forkserver to
        # import what every line needs); what the input raises reaches the loop below through take()
        feed.start()
        workers = [start() for _ in range(max(1, jobs))]
        # Ctrl-C sets a flag read between steps: a KeyboardInterrupt raised inside a step (say
        # between receiving an answer and matching it to its line) would lose that answer
        with _InterruptFlag() as interrupt:
            try:
                while step():
                    if interrupt.raised and not stopping:
                        stopping = True
                        report.interrupted = True
                        retry.clear()  # lines not yet sent are left for --resume; those sent finish
            except KeyboardInterrupt:  # raised by the input (e.g. a reader's own interrupt)
                if interrupt.raised:
                    raise  # a second Ctrl-C: stop now
                stopping = True
                report.interrupted = True
                retry.clear()
                while step():
                    pass
    except KeyboardInterrupt:  # a second Ctrl-C, or an interrupt outside the loop
        report.interrupted = True
    finally:
        feed.close()
        try:
            flush_partial(done, write_seq, out, report, on_result)  # may fail as the output did
        finally:
            for w in workers:
                try:
                    w.conn.send(None)
                except (BrokenPipeError, OSError):
                    pass
            for w in workers:
                w.proc.join(timeout=2)
                if w.proc.is_alive():
                    w.proc.kill()
                    w.proc.join()
                w.conn.close()
    return report


def run_here(lines: Iterable[Line], out: TextOut, settings: BatchSettings,
             on_result: Callable[[], None] = lambda: None, handler: Handler = answer) -> BatchReport:
    """Answer ``lines`` in this process, in order, each result written and flushed when made
    (``dipsat batch -j 1``): no worker to start, no line sent to one and back.  The pool's answers,
    each line under its own time limit (the turn's timer); what it gives up is the pool's shelter
    from a line that kills the interpreter (a crash in native code, the out-of-memory killer),
    which ends the run with every result before it written.  Ctrl-C: the line in progress is
    finished and written, and the run returns ``interrupted``; a second Ctrl-C stops at once."""
    report = BatchReport()
    warm_up(settings)
    settled = False
    with _InterruptFlag() as interrupt:
        interrupt.busy = False
        try:
            for line in lines:
                interrupt.busy = True  # a Ctrl-C now waits for this line's answer to be written
                try:
                    text = handler(line, settings)
                except Exception as exc:  # noqa: BLE001 - as a worker: the line's own answer
                    text = _internal_error(line, exc)
                out.write(text + "\n")
                out.flush()
                interrupt.busy = False
                count_result(report, text, line.number)
                on_result()
                if not settled:  # what the first line imported is start-up too (as in a worker)
                    settle_gc()
                    settled = True
                if interrupt.raised:
                    report.interrupted = True
                    break
        except KeyboardInterrupt:  # a second Ctrl-C, or the input's own interrupt
            report.interrupted = True
    return report


def flush_partial(done: dict[int, tuple[int, str]], write_seq: int, out: TextOut, report: BatchReport,
                  on_result: Callable[[], None]) -> None:
    """Write the answered lines that directly follow what is written (after an interruption)."""
    while write_seq in done:
        number, text = done.pop(write_seq)
        out.write(text + "\n")
        count_result(report, text, number)
        write_seq += 1
        on_result()
    out.flush()
