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

import gc
import json
import math
import os
import signal
import _signal  # type: ignore[import-not-found]  # signal.signal's C core (no stub)
import sys
import threading
import time
import weakref
from types import FrameType, ModuleType
from typing import Any

from dipsat.errors import InputFileError, SolverError
from dipsat.records import dataclass


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


def _toml() -> ModuleType:
    """The TOML reader, imported when first needed (a batch of JSON lines never is)."""
    import tomllib

    return tomllib


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
        data = json.loads(text) if fmt == "json" else _toml().loads(text)
    except RecursionError:
        raise LimitExceeded(f"{where}: nested more than {limits.max_depth} levels deep") from None
    except json.JSONDecodeError as exc:
        raise InputFileError(f"{where}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except _toml().TOMLDecodeError as exc:  # (looked up only when something was raised)
        raise InputFileError(f"{where}: not valid TOML: {exc}") from None
    except ValueError as exc:
        if "digits" in str(exc):  # Python refuses to read integers of more than 4300 digits
            raise LimitExceeded(f"{where}: a number with more than {sys.get_int_max_str_digits()} digits") from None
        raise InputFileError(f"{where}: not valid {kind}: {_short(str(exc))}") from None
    # Each array or object of a JSON text opens with a bracket of its own, so a text with no more
    # brackets than the limit (inside strings or not) nests no deeper: no walk (most requests)
    if fmt == "json" and text.count("[") + text.count("{") <= limits.max_depth:
        return data
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
    for key in _COUNTED:
        group = data.get(key)
        if isinstance(group, dict):
            for v in group.values():
                if isinstance(v, list):
                    n += len(v)
    if n > limits.max_orders:
        raise LimitExceeded(f"{where}: {n:,} units, orders and centres; the limit is {limits.max_orders:,}")


_COUNTED = ("units", "orders", "retreat_orders", "owners")  # the lists check_request_size counts


class Expired(BaseException):
    """Raised where a :func:`deadline` expires, and turned into :class:`TurnTimeout` as it leaves
    the deadline's block.  Not an Exception (as KeyboardInterrupt is not): a TurnTimeout raised
    at any bytecode was a ValueError, so a handler of ValueError around the point where it
    landed took it for its own error (a TOML file was reported 'not valid TOML: the turn took
    more than its time limit'; a validator's ValueError is read by pydantic as a wrong value)."""


# Seconds between the timer's signals once a deadline has passed.  One signal is not enough: the
# handler runs wherever the interpreter checks for signals, C code included, and some C code drops
# what the handler raised.  int("x") formats its error message twice (CPython 3.11,
# PyLong_FromUnicodeObject): a signal handled inside the first message's repr() raises Expired, and
# the second message clears it; a loop of int() on bad text then ran past its deadline for good
# (about one run in four; the suite's run hung 16 minutes).  The timer repeats until the block ends,
# so an Expired lost that way comes again.
RETRY = 0.05
_SOON = 0.001  # a time already past, as the timer takes it (0 would switch the timer off)

# The ends (time.monotonic()) of the deadlines in force on the main thread, innermost last.  The
# timer's signal is handled only between Python bytecodes: a long call into C (a CP-SAT solve)
# would run past the limit, so such calls take their own limit from time_left().
_ENDS: list[float] = []


def deadline(seconds: float | None) -> "_Deadline":
    """Raise :class:`TurnTimeout` in this block once ``seconds`` of wall-clock time have passed.

    Uses a real-time interval timer (SIGALRM) when called on the main thread of a Unix
    process; elsewhere it does nothing (the solver's own per-call limit still applies).  The
    timer interrupts no import (it expires as soon as the import is over: see
    :func:`_sheltered`), and what it raises inside the block is :class:`Expired`, which no
    handler of ordinary errors catches; it raises it again every :data:`RETRY` seconds until the
    block ends; a block that ends past its limit before any of them landed is a time-out too, so
    the outcome does not depend on where the signal fell.  Deadlines nest: the timer is set for the nearest end of those in force, and when
    an inner block ends the outer one's timer goes on with the time it has left (a deadline that
    found a timer of someone else's running puts it back as it leaves, with what it has left).
    """
    return _Deadline(seconds)


class _Deadline:
    """The context manager of :func:`deadline` (a class: the timer's handler knows its frames, so
    no time-out lands inside the code that sets the timer up or takes it down)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.active = False

    def __enter__(self) -> None:
        seconds = self.seconds
        if (seconds is None or not hasattr(signal, "setitimer")
                or threading.current_thread() is not threading.main_thread()):
            return
        self.pid = os.getpid()
        self.start = time.monotonic()
        self.end = self.start + seconds
        self.previous = _set_handler(signal.SIGALRM, _expire)
        nearest = min([*_ENDS, self.end])
        # a limit shorter than what is left of this method expires in the block, RETRY from now
        self.foreign = signal.setitimer(signal.ITIMER_REAL, max(nearest - self.start, _SOON), RETRY)
        _ENDS.append(self.end)
        self.active = True

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        if not self.active or os.getpid() != self.pid:  # never armed, or a forked child's copy
            return
        self.active = False
        now = time.monotonic()
        nearest = min(_ENDS)
        _ENDS.pop()
        # its time-out: the timer's, if this block's end is the nearest (else an outer deadline's, for its
        # block); or none came, but the block ended past its limit (the signal is handled at the next
        # bytecode, or RETRY s later where it came at a sheltered point: the block can end first)
        mine = (kind is Expired and self.end <= nearest) or (kind is None and now >= self.end)
        if _ENDS:  # the outer deadline's timer goes on with what it has left
            left = RETRY if kind is Expired and not mine else max(min(_ENDS) - now, _SOON)
            signal.setitimer(signal.ITIMER_REAL, left, RETRY)
            if self.previous is not None:
                _set_handler(signal.SIGALRM, self.previous)
        else:  # off first, then the previous handler, then a timer that was running before
            signal.setitimer(signal.ITIMER_REAL, 0)
            if self.previous is not None:  # None: a handler not set from Python (left as it is)
                _set_handler(signal.SIGALRM, self.previous)
            delay, interval = self.foreign
            if delay > 0:
                signal.setitimer(signal.ITIMER_REAL, max(delay - (now - self.start), _SOON), interval)
        if mine:
            raise TurnTimeout(f"the turn took more than its time limit of {self.seconds:g} s "
                              f"(parsing, checking and solving; {now - self.start:.1f} s)") from None


# ``signal.signal`` without its wrapper, which looks the handlers up as enum members (for a
# function: an enum's ValueError raised and caught, twice a deadline, every batch line).  The
# previous handler comes back as it is (an int for the defaults, not the ``Handlers`` member),
# which is what it is given back as.
_set_handler = _signal.signal


def _expire(signum: int, frame: FrameType | None) -> None:
    """The timer's handler: Expired, unless no deadline is in force (a late signal), the nearest end
    is not reached, or the signal came where no time-out may land (:func:`_sheltered`; the timer
    comes again in :data:`RETRY` s)."""
    if _ENDS and time.monotonic() >= min(_ENDS) and not _sheltered(frame):
        raise Expired()


def _sheltered(frame: FrameType | None) -> bool:
    """Whether ``frame`` runs inside an import (a module's body, an extension's initialisation) or
    inside a deadline's own set-up or clean-up, or where what it raises cannot reach the block: a
    collector's callback (``gc.callbacks``), a finaliser (``__del__``, ``weakref.finalize``).  A
    time-out raised in an import cut a module in half: ortools' native helpers, cut while they were
    being set up, failed with 'ImportError: initialization failed' (an internal error), and a later
    import in the same process could fail on the half-made modules left behind.  One raised in a
    deadline's clean-up would leave its timer and handler in force.  One raised in a collector's
    callback (a library's, run at any allocation) was printed as 'Exception ignored in ...' and lost:
    the block's own time-out came only at its end."""
    callbacks = {getattr(getattr(cb, "__func__", cb), "__code__", None) for cb in gc.callbacks} if gc.callbacks else ()
    while frame is not None:
        code = frame.f_code
        if (code is _ENTER or code is _EXIT or code.co_filename.startswith("<frozen importlib")
                or code.co_name == "__del__" or code is _FINALIZE or code in callbacks):
            return True
        frame = frame.f_back
    return False


_ENTER = _Deadline.__enter__.__code__
_EXIT = _Deadline.__exit__.__code__
_FINALIZE = weakref.finalize.__call__.__code__

os.register_at_fork(after_in_child=_ENDS.clear)  # a child's timer is not its parent's


def time_left() -> float | None:
    """Seconds left before the nearest deadline in force (:func:`deadline`), or None if none is."""
    if not _ENDS:
        return None
    return max(0.0, min(_ENDS) - time.monotonic())


def _short(text: str, n: int = 120) -> str:
    return text if len(text) <= n else text[:n] + "..."
