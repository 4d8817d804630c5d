"""Limits on hostile or runaway input, and the safe readers that enforce them.

Every command reads its input through :func:`parse_data`, which turns every way a text can be
broken (not UTF-8, not JSON/TOML, nested too deep, a number too long, too big) into an
:class:`~dipsat.errors.InputFileError` naming the place, never a Python exception.  The limits
are values, with documented defaults (docs/cli.md, "Limits"), overridable per run:

* ``max_request_bytes`` (1 MiB): one turn request, batch line or corpus case;
* ``max_file_bytes`` (64 MiB): a saved game;
* ``max_depth`` (32): nesting of arrays/objects/tables (a request needs 4);
* ``max_orders`` (5,000): units plus orders (all phases) in one request;
* ``turn_time_limit`` (10 s): the wall-clock time of one turn, parsing, checking and solving
  together (:func:`deadline`).
"""

from __future__ import annotations

import json
import math
import signal
import sys
import threading
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any

from dipsat.errors import InputFileError, SolverError


@dataclass(frozen=True)
class Limits:
    max_request_bytes: int = 1 << 20
    max_file_bytes: int = 64 << 20
    max_depth: int = 32
    max_orders: int = 5000
    turn_time_limit: float | None = 10.0

    def __post_init__(self) -> None:
        for name in ("max_request_bytes", "max_file_bytes", "max_depth", "max_orders"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
        t = self.turn_time_limit
        if t is not None and not (t > 0 and math.isfinite(t)):
            raise ValueError(f"the time limit must be a positive number of seconds, not {t}")


DEFAULT_LIMITS = Limits()


class LimitExceeded(InputFileError):
    """An input is larger or deeper than a limit allows."""


class TurnTimeout(SolverError):
    """A turn ran past its wall-clock limit."""


def parse_data(raw: bytes | str, fmt: str, where: str, limits: Limits = DEFAULT_LIMITS,
               max_bytes: int | None = None) -> Any:
    """The value of a JSON or TOML text (``fmt`` "json" or "toml"), or an InputFileError that
    starts with ``where`` (a file name, ``line 7``)."""
    cap = limits.max_request_bytes if max_bytes is None else max_bytes
    size = len(raw)
    if size > cap:
        raise LimitExceeded(f"{where}: {size:,} bytes is more than the limit of {cap:,} bytes")
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad = raw[exc.start:exc.start + 4]
            raise InputFileError(f"{where}: not UTF-8 text: byte {exc.start + 1} ({bad!r}...) {exc.reason}") from None
    else:
        text = raw
    kind = "JSON" if fmt == "json" else "TOML"
    try:
        data = json.loads(text) if fmt == "json" else tomllib.loads(text)
    except RecursionError:
        raise LimitExceeded(f"{where}: nested more than {limits.max_depth} levels deep") from None
    except json.JSONDecodeError as exc:
        raise InputFileError(f"{where}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputFileError(f"{where}: not valid TOML: {exc}") from None
    except ValueError as exc:
        if "digits" in str(exc):  # Python refuses to read integers of more than 4300 digits
            raise LimitExceeded(f"{where}: a number with more than {sys.get_int_max_str_digits()} digits") from None
        raise InputFileError(f"{where}: not valid {kind}: {_short(str(exc))}") from None
    depth = nesting_depth(data)
    if depth > limits.max_depth:
        raise LimitExceeded(f"{where}: nested {depth} levels deep; the limit is {limits.max_depth}")
    return data


def nesting_depth(value: Any) -> int:
    """How deeply lists and dicts nest in ``value`` (a scalar is 0), without recursion."""
    best = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            v = list(v.values())
        elif not isinstance(v, list):
            continue
        d += 1
        best = max(best, d)
        stack.extend((x, d) for x in v if isinstance(x, (list, dict)))
    return best


def check_request_size(data: dict[str, Any], where: str, limits: Limits = DEFAULT_LIMITS) -> None:
    """Too many units and orders in one request (counted over every list of strings)."""
    n = 0
    for key in ("units", "orders", "retreat_orders", "owners"):
        group = data.get(key)
        if isinstance(group, dict):
            n += sum(len(v) for v in group.values() if isinstance(v, list))
    if n > limits.max_orders:
        raise LimitExceeded(f"{where}: {n:,} units, orders and centres; the limit is {limits.max_orders:,}")


class Expired(BaseException):
    """Raised where a :func:`deadline` expires, and turned into :class:`TurnTimeout` as it leaves
    the deadline's block.  Not an Exception (as KeyboardInterrupt is not): a TurnTimeout raised
    at any bytecode was a ValueError, so a handler of ValueError around the point where it
    landed took it for its own error (a TOML file was reported 'not valid TOML: the turn took
    more than its time limit'; a validator's ValueError is read by pydantic as a wrong value)."""


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TurnTimeout` in this block once ``seconds`` of wall-clock time have passed.

    Uses a real-time interval timer (SIGALRM) when called on the main thread of a Unix
    process; elsewhere it does nothing (the solver's own per-call limit still applies).  The
    timer interrupts no import (it expires as soon as the import is over: see
    :func:`_importing`), and what it raises inside the block is :class:`Expired`, which no
    handler of ordinary errors catches.
    """
    usable = (seconds is not None and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable or seconds is None:
        yield
        return
    start = time.monotonic()
    armed = [True]

    def expire(signum: int, frame: FrameType | None) -> None:
        if not armed[0]:  # the block is over: its clean-up is not to be cut
            return
        if _importing(frame):  # a module is never left half made (a C extension's would stay broken): soon after
            signal.setitimer(signal.ITIMER_REAL, 0.02)
            return
        raise Expired()

    previous = signal.signal(signal.SIGALRM, expire)
    _ENDS.append(start + seconds)
    try:  # a limit shorter than the next bytecode expires here, and the handler is still restored
        signal.setitimer(signal.ITIMER_REAL, seconds)
        yield
    except Expired:
        raise TurnTimeout(f"the turn took more than its time limit of {seconds:g} s "
                          f"(parsing, checking and solving; {time.monotonic() - start:.1f} s)") from None
    finally:
        armed[0] = False  # first: a store, where no signal handler runs
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        _ENDS.pop()


def _importing(frame: FrameType | None) -> bool:
    """Whether ``frame`` runs inside an import (a module's body, an extension's initialisation).
    A time-out raised there cut a module in half: ortools' native helpers, cut while they were
    being set up, failed with 'ImportError: initialization failed' (an internal error), and a
    later import in the same process could fail on the half-made modules left behind."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


# The ends (time.monotonic()) of the deadlines in force on the main thread, innermost last.  The
# timer's signal is handled only between Python bytecodes: a long call into C (a CP-SAT solve)
# would run past the limit, so such calls take their own limit from time_left().
_ENDS: list[float] = []


def time_left() -> float | None:
    """Seconds left before the nearest deadline in force (:func:`deadline`), or None if none is."""
    if not _ENDS:
        return None
    return max(0.0, min(_ENDS) - time.monotonic())


def _short(text: str, n: int = 120) -> str:
    return text if len(text) <= n else text[:n] + "..."
