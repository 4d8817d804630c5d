"""Where the sandbox's calls run: a worker process, within the command line's limits.

Every call of the page (adjudicate, readings, why, export, ...) runs in a worker process, on its
main thread, under the command's wall-clock limit (``--time-limit``, :func:`dipsat.limits.deadline`:
parsing, checking and solving together, as a command's turn), with the request limits
(``--max-request-bytes``, ``--max-orders``, ``--max-depth``) and the file rules of the command
line (only bundled map names, and ``--allow-files`` folders).  A call that does not come back a
few seconds after its limit (stuck where the alarm cannot reach, e.g. inside a solver) has its
worker killed and replaced: the server keeps answering.  An error of the input comes back as
its message; a bug as an internal error naming where, never a traceback.
"""

from __future__ import annotations

import multiprocessing
import threading
import traceback
from pathlib import Path
from typing import Any, Callable, Optional

from dipsat.errors import DipsatError
from dipsat.limits import DEFAULT_LIMITS, Limits

GRACE = 5.0  # seconds past the limit before a worker is killed
STARTUP = 300.0  # seconds a new worker may take to start and import dipsat


class CallFailed(Exception):
    """A call's input was refused (``status`` 400), ran out of time (504), or hit a bug (500)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.message = message
        self.status = status


def _calls() -> dict[str, Callable[..., Any]]:
    from dipsat.face.serve import export, legal, sandbox, units

    return {"units": units.edit_units, "order": units.click_order, "adjudicate": sandbox.adjudicate, "readings": sandbox.readings, "why": sandbox.why,
            "opening": lambda variant, limits: sandbox.opening(variant), "pasted": sandbox.pasted,
            "state_of_data": sandbox.state_of_data, "variants": lambda limits: sandbox.variants(),
            "export_case": export.corpus_case, "export_batch": export.batch_line, "legal": legal.legal_orders}


def warm_up() -> None:
    """A worker's first act: import what the calls use, load the standard board and adjudicate a
    turn on it, before any call's clock runs (a call's time limit then measures its own work)."""
    import dipsat.research.readings
    import dipsat.research.readings_format
    import dipsat.face.render
    import dipsat.research.research
    import dipsat.research.research_games
    import dipsat.game.legal  # noqa: F401
    from dipsat.game.registry import find_variant

    from dipsat.face.serve import export, legal, sandbox, units  # noqa: F401

    find_variant("standard").map
    # one small turn, so that what a first adjudication loads (the solver, the picture's layout)
    # is loaded here: measured 2.3 s for the first call without it, 0.06 s for the next ones
    sandbox.adjudicate({"variant": "standard", "units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}})


def start_worker(setup: Optional[Callable[[], None]] = None) -> None:
    """A worker's initializer: :func:`warm_up`, then ``setup`` (a caller's own preparation, run
    in each worker process: the tests make a call stall there, as one stuck in native code)."""
    warm_up()
    if setup is not None:
        setup()


def _ready() -> bool:
    return True


def run_call(name: str, args: tuple[Any, ...], kwargs: dict[str, Any], limits: Limits,
             allowed: tuple[str, ...]) -> tuple[str, Any]:
    """One call, in the worker: ``("ok", value)``, ``("refused", message)``, ``("timeout",
    message)`` or ``("bug", message)``."""
    from dipsat.io.files import file_access
    from dipsat.limits import TurnTimeout, deadline

    try:
        with file_access(origin=None, allowed=allowed, max_bytes=limits.max_request_bytes), \
                deadline(limits.turn_time_limit):
            return "ok", _calls()[name](*args, limits=limits, **kwargs)
    except TurnTimeout as exc:
        return "timeout", str(exc)
    except DipsatError as exc:
        return "refused", str(exc)
    except RecursionError:
        return "refused", f"the input is nested more than {limits.max_depth} levels deep"
    except Exception as exc:  # a bug: say where, without a traceback
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return "bug", (f"internal error: {type(exc).__name__}: {str(exc)[:300]} (at {Path(where.filename).name}:"
                       f"{where.lineno}); please report it with the position that caused it")


class Runner:
    """Calls run in a pool of worker processes (``jobs``), each within the limits; a worker that
    overruns its limit by ``grace`` seconds (:data:`GRACE`) is killed and the pool made anew.
    ``setup``, a function importable by name, runs in each worker after it has warmed up."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS, allowed: tuple[str, ...] = (), jobs: int = 1, *,
                 grace: float = GRACE, setup: Optional[Callable[[], None]] = None):
        self.limits = limits
        self.allowed = allowed
        self.jobs = jobs
        self.grace = grace
        self.setup = setup
        self._pool: Optional[Any] = None
        self._lock = threading.Lock()
        self._ctx = multiprocessing.get_context("spawn")  # no fork of a threaded server

    def _get_pool(self) -> Any:
        with self._lock:
            if self._pool is None:
                pool = self._ctx.Pool(self.jobs, initializer=start_worker, initargs=(self.setup,))
                try:  # started and warmed up before a call's clock runs (under load, seconds)
                    pool.apply_async(_ready).get(timeout=STARTUP)
                except multiprocessing.TimeoutError:
                    pool.terminate()
                    raise CallFailed(f"the worker process did not start within {STARTUP:g} s", 500) from None
                self._pool = pool
            return self._pool

    def start(self) -> None:
        """Start the workers now (and have them import dipsat), not on the first call."""
        self.call("variants")

    def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        pool = self._get_pool()
        pending = pool.apply_async(run_call, (name, args, kwargs, self.limits, self.allowed))
        wait = (self.limits.turn_time_limit or 3600.0) + self.grace
        try:
            status, value = pending.get(timeout=wait)
        except multiprocessing.TimeoutError:
            self._restart(pool)
            limit = f"its time limit of {self.limits.turn_time_limit:g} s" if self.limits.turn_time_limit else "an hour"
            raise CallFailed(f"the call took more than {limit} and did not stop: its worker process was "
                             "stopped and a new one started; try again, or with fewer orders or a longer "
                             "--time-limit", 504) from None
        if status == "ok":
            return value
        raise CallFailed(value, {"refused": 400, "timeout": 504}.get(status, 500))

    def _restart(self, pool: Any) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.terminate()

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()
            pool.join()
