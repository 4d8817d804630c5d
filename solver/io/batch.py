"""Batch adjudication: one JSON turn request per line in, one JSON result per line out.

Every non-blank input line that does not start with ``#`` gives exactly one output line, in input
order: ``{"line": N, "ok": true, ...the result...}`` or ``{"line": N, "ok": false, "error":
{"kind": ..., "message": ...}}``; an ``id`` given in the request is echoed.  Nothing a line holds
can stop the run or cost another line its result: input is read as bytes and decoded line by
line, each line is parsed within the limits of :mod:`dipsat.limits` (size, nesting, orders,
wall-clock time) and any exception while answering it becomes that line's error (kind
``internal_error`` for an unexpected one).

Lines are answered by a pool of worker processes (:func:`run_pool`) or, for a library caller,
in this process (:func:`run_batch`), or on a Dask cluster (:func:`run_dask`).  All three stream:
the input is read as results are written, with at most a fixed window of lines in memory, so
a file of any length runs in bounded memory.  When a worker process dies on a line (a crash
in native code, killed by the system or by the watchdog), the lines it held are given to
another worker; the line it was working on is tried once more and, if it kills a worker again,
answered with an error of kind ``worker_died``.

``--resume`` reads an existing output file, keeps its results (dropping a last line cut short),
and skips as many input lines as it holds results: results are written in input order, one per
line, so position alone says which lines are answered (ids may repeat); each skipped line is
checked against its result (:class:`Resume`).
"""

from __future__ import annotations

import gc
import json
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import IO, Any, BinaryIO, Literal, Optional, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dipsat.errors import DipsatError, InputFileError, InvalidRequest
from dipsat.io.files import file_access
from dipsat.limits import DEFAULT_LIMITS, LimitExceeded, Limits, TurnTimeout, check_request_size, deadline, parse_data

ISSUES = "https://github.com/dipsat/dipsat/issues"


@dataclass(frozen=True)
class BatchSettings:
    """What every line is answered with (sent to each worker process)."""

    variant: Optional[str] = None  # for lines that name none
    limits: Limits = DEFAULT_LIMITS
    explain: bool = False  # reasons and strength terms for every line (a line's "explain" field decides for it)
    allow_files: tuple[str, ...] = ()  # folders whose files (maps, boards) a line may name (--allow-files)


# -- one line -------------------------------------------------------------------------------


def answer_line(raw: bytes | str, lineno: int, settings: BatchSettings = BatchSettings()) -> dict[str, Any]:
    """The result object of one input line; never raises (but for KeyboardInterrupt)."""
    ident: Any = None
    try:
        data = parse_data(raw.strip(), "json", f"line {lineno}", settings.limits)
        if not isinstance(data, dict):
            return _error(lineno, "invalid_request", f"line {lineno}: expected a JSON object, got {_json_type(data)}")
        ident = data.pop("id", None)
        explain = data.pop("explain", settings.explain)
        if not isinstance(explain, bool):
            return _error(lineno, "invalid_request", f"line {lineno}: field explain: expected true or false, got "
                          f"{_short(json.dumps(explain))}", ident)
        check_request_size(data, f"line {lineno}", settings.limits)
        if settings.variant and "variant" not in data:
            data["variant"] = settings.variant
        # a line is no file: it names only bundled files and those in the allowed folders
        with deadline(settings.limits.turn_time_limit), \
                file_access(origin=None, allowed=settings.allow_files, max_bytes=settings.limits.max_request_bytes):
            return _adjudicate(data, lineno, ident, settings, explain)
    except LimitExceeded as exc:
        return _error(lineno, "too_large", str(exc), ident)
    except InvalidRequest as exc:
        return _error(lineno, "invalid_request", str(exc), ident)
    except InputFileError as exc:
        return _error(lineno, "invalid_json", str(exc), ident)
    except TurnTimeout as exc:
        return _error(lineno, "timeout", str(exc), ident)
    except DipsatError as exc:
        return _error(lineno, type(exc).__name__, str(exc), ident)
    except Exception as exc:  # the line is isolated: whatever went wrong is its own answer
        return _error(lineno, "internal_error", f"unexpected {type(exc).__name__} while answering this line: "
                      f"{_short(str(exc))} (please report it with the line: {ISSUES})", ident)


def _adjudicate(data: dict[str, Any], lineno: int, ident: Any, settings: BatchSettings, explain: bool) -> dict[str, Any]:
    """One line through its family's game protocol (:mod:`dipsat.game.protocol`); an unknown variant,
    or a time-out while it is looked up, is the line's error like any other."""
    from dipsat.game.families import find_game, variant_of
    from dipsat.game.protocol import Engine

    game = find_game(variant_of(data))
    req = game.read(data, f"line {lineno}", settings.limits)
    res = game.adjudicate(req, game.options(req), Engine(time_limit=settings.limits.turn_time_limit, explain=explain))
    out: dict[str, Any] = {"line": lineno, "ok": True}
    if ident is not None:
        out["id"] = ident
    out.update(res.to_json())
    return out


def adjudicate_line(line: str | bytes, lineno: int, time_limit: float | None = None,
                    variant: str | None = None, explain: bool = False) -> dict[str, Any]:
    """One line's result object (the library form of a batch line)."""
    limits = DEFAULT_LIMITS if time_limit is None else Limits(**{**DEFAULT_LIMITS.__dict__, "turn_time_limit": time_limit})
    return answer_line(line, lineno, BatchSettings(variant=variant, limits=limits, explain=explain))


def answer_text(raw: bytes, lineno: int, settings: BatchSettings) -> str:
    """One output line (JSON, no newline) for one input line: what a worker sends back."""
    res = answer_line(raw, lineno, settings)
    try:
        return json.dumps(res, separators=(",", ":"))
    except (TypeError, ValueError) as exc:  # an unprintable id (NaN is printable; a huge float too)
        return json.dumps(_error(lineno, "internal_error", f"the result could not be written as JSON: {exc}"),
                          separators=(",", ":"))


def _error(lineno: int, kind: str, message: str, ident: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"line": lineno, "ok": False}
    if ident is not None:
        out["id"] = ident
    out["error"] = {"kind": kind, "message": message}
    return out


def _json_type(v: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number",
            type(None): "null"}.get(type(v), type(v).__name__)


def _short(text: str, n: int = 200) -> str:
    return text if len(text) <= n else text[:n] + "..."


# -- reading and resuming -------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    number: int
    raw: bytes  # empty when the line is longer than the limit
    too_long: int = 0  # its length then
    unended: bool = False  # no line end within the file limit: the input is read no further


def read_lines(stream: BinaryIO, limits: Limits = DEFAULT_LIMITS) -> Iterator[Line]:
    """The lines to answer (not blank, not ``#`` comments), numbered from 1, as bytes; a line
    longer than the request limit is not kept in memory, only its length.  A line with no end
    within ``max_file_bytes`` (``/dev/zero``, a binary file) is the last: it is answered with an
    error that says the rest of the input is not read."""
    cap = limits.max_request_bytes
    bound = max(limits.max_file_bytes, cap + 2)
    n = 0
    while True:
        chunk = stream.readline(cap + 2)
        if not chunk:
            return
        n += 1
        if len(chunk) > cap + 1 or (len(chunk) == cap + 1 and not chunk.endswith(b"\n")):
            size = len(chunk)
            while not chunk.endswith(b"\n") and size <= bound:
                chunk = stream.readline(1 << 20)
                if not chunk:
                    break
                size += len(chunk)
            if size > bound and not chunk.endswith(b"\n"):
                yield Line(n, b"", size, unended=True)
                return
            yield Line(n, b"", size - (1 if chunk.endswith(b"\n") else 0))
            continue
        s = chunk.strip()
        if not s or s.startswith(b"#"):
            continue
        yield Line(n, s)


def answer(line: Line, settings: BatchSettings) -> str:
    if line.unended:
        return json.dumps(_error(line.number, "too_large", f"line {line.number}: no line end within "
                                 f"{line.too_long - 1:,} bytes (is the input a JSON Lines file?); the input is "
                                 "read no further"), separators=(",", ":"))
    if line.too_long:
        cap = settings.limits.max_request_bytes
        return json.dumps(_error(line.number, "too_large", f"line {line.number}: {line.too_long:,} bytes is more "
                                 f"than the limit of {cap:,} bytes"), separators=(",", ":"))
    return answer_text(line.raw, line.number, settings)


class Resume:
    """``--resume``: the input lines whose results an earlier run already wrote are skipped.

    A batch writes exactly one result per answered line, in input order, so the earlier run's
    output is a prefix of the answers: its k-th result answers the input's k-th line to answer.
    Resume rests on that position alone (ids may repeat, or be missing); each result skipped is
    checked against its line (same line number, same id when it has one), so the output of
    another input is refused instead of silently mixed in.  The results are read from ``path``
    as the input is, so memory stays bounded."""

    def __init__(self, path: Optional[Path], count: int, settings: BatchSettings) -> None:
        self.path = path
        self.count = count  # results already written (complete lines)
        self.settings = settings
        self.skipped = 0

    def filter(self, lines: Iterable[Line]) -> Iterator[Line]:
        if self.path is None or not self.count:
            yield from lines
            return
        source = iter(lines)
        with self.path.open("rb") as done:
            for k in range(1, self.count + 1):
                obj = json.loads(done.readline())
                line = next(source, None)
                if line is None:
                    raise DipsatError(f"{self.path}: holds {self.count:,} results but the input has only {k - 1:,} "
                                      "lines to answer; --resume needs the output of an earlier run on the same input")
                self._check(obj, line, k)
                self.skipped += 1
        yield from source

    def _check(self, obj: dict[str, Any], line: Line, k: int) -> None:
        where = f"{self.path}: result {k:,} answers input line {obj['line']}"
        if obj["line"] != line.number:
            raise DipsatError(f"{where} but the input's line {k:,} to answer is line {line.number}; --resume needs "
                              "the output of an earlier run on the same input")
        if "id" in obj:
            try:
                data = None if line.too_long else parse_data(line.raw, "json", "", self.settings.limits)
            except InputFileError:
                data = None
            if not isinstance(data, dict) or json.dumps(data.get("id")) != json.dumps(obj["id"]):
                raise DipsatError(f"{where} with id {_short(json.dumps(obj['id']), 60)}, which that line does not "
                                  "hold; --resume needs the output of an earlier run on the same input")


def load_done(path: Path) -> tuple[int, int]:
    """How many complete results ``path`` holds, and its size up to the end of the last one (a
    line cut short by an interruption is dropped, to be overwritten).  Every line must be a
    batch result, numbered in increasing order."""
    count = good = last = 0
    with path.open("rb") as f:
        for chunk in iter(lambda: f.readline(), b""):
            if not chunk.endswith(b"\n"):
                break
            try:
                obj = json.loads(chunk)
            except ValueError:
                obj = None
            if (not isinstance(obj, dict) or not isinstance(obj.get("line"), int) or not isinstance(obj.get("ok"), bool)
                    or obj["line"] <= last):
                raise InputFileError(f"{path}: line {count + 1} is not a batch result in input order; "
                                     "--resume needs the output of an earlier run")
            last = obj["line"]
            count += 1
            good += len(chunk)
    return count, good


# -- the runners ----------------------------------------------------------------------------


class TextOut(Protocol):
    """Where the runners write results: a text file, or a :class:`dipsat.io.outputs.Output`."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


@dataclass
class BatchReport:
    ok: int = 0
    errors: int = 0
    skipped: int = 0  # already answered (resume)
    last_line: int = 0  # the input line of the last result written
    interrupted: bool = False
    retried: int = 0  # lines given to a new worker after one died
    worker_deaths: int = 0


def _count(report: BatchReport, text: str, number: int) -> None:
    if text.startswith('{"line":') and '"ok":true' in text[:40]:
        report.ok += 1
    else:
        report.errors += 1
    report.last_line = number


def run_batch(lines: IO[str] | IO[bytes] | Iterable[str | bytes], out: IO[str], time_limit: float | None = None,
              variant: str | None = None, explain: bool = False) -> tuple[int, int]:
    """Answer every line in this process, in order; returns (adjudicated, errors)."""
    limits = DEFAULT_LIMITS if time_limit is None else Limits(**{**DEFAULT_LIMITS.__dict__, "turn_time_limit": time_limit})
    settings = BatchSettings(variant=variant, limits=limits, explain=explain)
    warm_up(settings)
    report = BatchReport()
    for n, raw in enumerate(lines, start=1):
        b = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else raw
        s = b.strip()
        if not s or s.startswith(b"#"):
            continue
        text = answer(Line(n, s), settings)
        _count(report, text, n)
        out.write(text + "\n")
        out.flush()
    return report.ok, report.errors


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


def warm_up(settings: BatchSettings) -> None:
    """Load what every line needs (the default variant's map) once, before any line's time limit
    starts counting.  Not OR-Tools: an acyclic turn never needs it, and the line with a cycle
    past the small search imports it the first time (about 0.2 s, inside that line's limit)."""
    try:
        from dipsat.game.registry import find_record

        find_record(settings.variant or "standard")
    except Exception:  # noqa: BLE001 - a broken default shows up as each line's own error
        pass


class _InterruptFlag:
    """While active (in the main thread), the first SIGINT only sets :attr:`raised`; a second
    one raises KeyboardInterrupt as usual, for a user who does not want to wait."""

    def __init__(self) -> None:
        self.raised = False
        self._old: Any = None
        self._installed = False

    def _handle(self, signum: int, frame: Any) -> None:
        if self.raised:
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
        """Begin reading (once the runner handles an interrupt the input may raise)."""
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
                text = json.dumps(_error(line.number, "internal_error", f"unexpected {type(exc).__name__} in the worker: "
                                         f"{_short(str(exc))} (please report it with the line: {ISSUES})"), separators=(",", ":"))
            answers.append((seq, text))
        conn.send(answers)
        if not settled:  # after the first message: what its line imported is start-up too
            settle_gc()
            settled = True


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        # what every line imports, once in the forkserver; OR-Tools only in a worker whose line needs it
        ctx.set_forkserver_preload(["dipsat.io.batch", "dipsat.game.api", "dipsat.variants", "dipsat.board.movement"])
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
                        _error(task.line.number, "worker_died", msg), separators=(",", ":")))
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
            _count(report, text, number)
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
        workers = [start() for _ in range(max(1, jobs))]
        # Ctrl-C sets a flag read between steps: a KeyboardInterrupt raised inside a step (say
        # between receiving an answer and matching it to its line) would lose that answer
        with _InterruptFlag() as interrupt:
            feed.start()
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


def flush_partial(done: dict[int, tuple[int, str]], write_seq: int, out: TextOut, report: BatchReport,
                  on_result: Callable[[], None]) -> None:
    """Write the answered lines that directly follow what is written (after an interruption)."""
    while write_seq in done:
        number, text = done.pop(write_seq)
        out.write(text + "\n")
        _count(report, text, number)
        write_seq += 1
        on_result()
    out.flush()


def _answer_chunk(lines: list[Line], settings: BatchSettings, handler: Handler = answer) -> list[str]:
    warm_up(settings)
    return [handler(line, settings) for line in lines]


def run_dask(lines: Iterable[Line], out: TextOut, settings: BatchSettings, address: str, jobs: int,
             on_result: Callable[[], None] = lambda: None, chunk: int = 32, handler: Handler = answer) -> BatchReport:
    """Answer ``lines`` on a Dask cluster (``address``, or ``"local"``: a LocalCluster of ``jobs``
    worker processes), streaming as :func:`run_pool` does.  Lines go out in chunks; a chunk that
    fails (its worker died) is tried again line by line, and a line that fails alone is answered
    with a ``worker_died`` error."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise DipsatError("--dask needs the Dask extra: pip install 'dipsat[dask]'") from None
    import dask

    report = BatchReport()
    cluster = None
    if address == "local":
        # A task whose worker dies is not retried by the scheduler: this runner retries it itself,
        # line by line, so that a line is tried exactly twice.
        with dask.config.set({"distributed.scheduler.allowed-failures": 0, "logging.distributed": "error"}):
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
    feed = _Feed(lines, limit * chunk)
    arrived: list[Line] = []
    exhausted = False
    written = 0

    def fill() -> None:
        """Send the lines that have arrived, in chunks; a part chunk only when nothing else is out
        and no line came for 0.1 s (a slow input's line waits no longer)."""
        nonlocal exhausted
        while len(window) < limit:
            while len(arrived) < chunk and not exhausted:
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
            if len(arrived) < chunk and not exhausted:
                if window:
                    return  # a part chunk goes out only when nothing else is
                if wait([feed.fileno()], timeout=0.1):  # more lines on their way: fill the chunk first
                    feed.drain()
                    continue
            batch = arrived[:]
            arrived.clear()
            window.append((batch, client.submit(_answer_chunk, batch, settings, handler, pure=False)))

    def write(texts: list[str], batch: list[Line]) -> None:
        nonlocal written
        for line, text in zip(batch, texts):
            out.write(text + "\n")
            _count(report, text, line.number)
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
                        texts += client.submit(_answer_chunk, [line], settings, handler, pure=False).result()
                    except KeyboardInterrupt:
                        raise
                    except Exception as exc:
                        msg = (f"line {line.number}: the Dask worker answering it failed twice "
                               f"({type(exc).__name__}: {_short(str(exc))}); please report it with the line: {ISSUES}")
                        texts.append(json.dumps(_error(line.number, "worker_died", msg), separators=(",", ":")))
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


# -- the JSON Schema of an output line ------------------------------------------------------


class BatchError(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: str = Field(description="invalid_json, invalid_request, too_large, timeout, worker_died, internal_error, "
                                  "or the name of a dipsat error (PositionError, RuleError, UnknownVariant, ...)")
    message: str = Field(description="what is wrong and where (line, field), quoting the bad text")


class BatchFailure(BaseModel):
    model_config = ConfigDict(extra="forbid")

    line: int = Field(description="the input line (from 1)")
    ok: Literal[False]
    id: Any = Field(default=None, description="the request's id, when it could be read")
    error: BatchError
