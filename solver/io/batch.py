"""Batch adjudication: one JSON turn request per line in, one JSON result per line out.

Every non-blank input line that does not start with ``#`` gives exactly one output line, in input
order: ``{"line": N, "ok": true, ...the result...}`` or ``{"line": N, "ok": false, "error":
{"kind": ..., "message": ...}}``; an ``id`` given in the request is echoed.  Nothing a line holds
can stop the run or cost another line its result: input is read as bytes and decoded line by
line, each line is parsed within the limits of :mod:`dipsat.limits` (size, nesting, orders,
wall-clock time) and any exception while answering it becomes that line's error (kind
``internal_error`` for an unexpected one).

Lines are answered in this process (:func:`run_batch`, for a library caller), or by a pool of
worker processes or a Dask cluster (:mod:`dipsat.io.batch_pool`, behind ``-j N`` and
``--dask``).  All stream: the input is read as results are written, with at most a fixed window
of lines in memory, so a file of any length runs in bounded memory.

``--resume`` reads an existing output file, keeps its results (dropping a last line cut short),
and skips as many input lines as it holds results: results are written in input order, one per
line, so position alone says which lines are answered (ids may repeat); each skipped line is
checked against its result (:class:`Resume`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, BinaryIO, Optional, Protocol


from dipsat.errors import DipsatError, InputFileError, InvalidRequest
from dipsat.io.files import file_access
from dipsat.limits import DEFAULT_LIMITS, LimitExceeded, Limits, TurnTimeout, check_request_size, deadline, parse_data
from dipsat.records import dataclass

ISSUES = "https://github.com/dipsat/dipsat/issues"

# ``json.dumps(obj, separators=(",", ":"))`` without a new encoder per call, and without its
# check for circular references (an answer is made of values read from JSON and the result's
# own fresh containers: it holds no cycle); the same text
_dumps = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


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
    out = _answer(raw, lineno, settings, False)
    assert isinstance(out, dict)
    return out


def _answer(raw: bytes | str, lineno: int, settings: BatchSettings, text: bool) -> dict[str, Any] | tuple[Any, str]:
    """:func:`answer_line`; ``text``: a result may come as its id and its JSON text
    (:func:`answer_text` writes it without the result object)."""
    ident: Any = None
    try:
        data = parse_data(raw.strip(), "json", f"line {lineno}", settings.limits)
        if not isinstance(data, dict):
            return error_result(lineno, "invalid_request", f"line {lineno}: expected a JSON object, got {_json_type(data)}")
        ident = data.pop("id", None)
        explain = data.pop("explain", settings.explain)
        if not isinstance(explain, bool):
            return error_result(lineno, "invalid_request", f"line {lineno}: field explain: expected true or false, got "
                          f"{short_text(json.dumps(explain))}", ident)
        check_request_size(data, f"line {lineno}", settings.limits)
        if settings.variant and "variant" not in data:
            data["variant"] = settings.variant
        # a line is no file: it names only bundled files and those in the allowed folders
        with deadline(settings.limits.turn_time_limit), \
                file_access(origin=None, allowed=settings.allow_files, max_bytes=settings.limits.max_request_bytes):
            return _adjudicate(data, lineno, ident, settings, explain, text)
    except LimitExceeded as exc:
        return error_result(lineno, "too_large", str(exc), ident)
    except InvalidRequest as exc:
        return error_result(lineno, "invalid_request", str(exc), ident)
    except InputFileError as exc:
        return error_result(lineno, "invalid_json", str(exc), ident)
    except TurnTimeout as exc:
        return error_result(lineno, "timeout", str(exc), ident)
    except DipsatError as exc:
        return error_result(lineno, type(exc).__name__, str(exc), ident)
    except Exception as exc:  # the line is isolated: whatever went wrong is its own answer
        return error_result(lineno, "internal_error", f"unexpected {type(exc).__name__} while answering this line: "
                      f"{short_text(str(exc))} (please report it with the line: {ISSUES})", ident)


def _adjudicate(data: dict[str, Any], lineno: int, ident: Any, settings: BatchSettings, explain: bool,
                text: bool = False) -> dict[str, Any] | tuple[Any, str]:
    """One line through its family's game protocol (:mod:`dipsat.game.protocol`); an unknown variant,
    or a time-out while it is looked up, is the line's error like any other.  ``text``: the id and
    the result's JSON text, when the family writes it (``adjudicate_text``)."""
    from dipsat.game.families import find_game, variant_of
    from dipsat.game.protocol import Engine

    game = find_game(variant_of(data))
    req = game.read(data, f"line {lineno}", settings.limits)
    engine = Engine(time_limit=settings.limits.turn_time_limit, explain=explain)
    write = getattr(game, "adjudicate_text", None) if text else None
    if write is not None:
        return ident, write(req, game.options(req), engine)
    fast = getattr(game, "adjudicate_json", None)  # a family may write the JSON without the typed result
    js = fast(req, game.options(req), engine) if fast is not None else game.adjudicate(req, game.options(req), engine).to_json()
    out: dict[str, Any] = {"line": lineno, "ok": True}
    if ident is not None:
        out["id"] = ident
    out.update(js)
    return out


def adjudicate_line(line: str | bytes, lineno: int, time_limit: float | None = None,
                    variant: str | None = None, explain: bool = False) -> dict[str, Any]:
    """One line's result object (the library form of a batch line)."""
    limits = DEFAULT_LIMITS if time_limit is None else Limits(**{**DEFAULT_LIMITS.__dict__, "turn_time_limit": time_limit})
    return answer_line(line, lineno, BatchSettings(variant=variant, limits=limits, explain=explain))


def answer_text(raw: bytes, lineno: int, settings: BatchSettings) -> str:
    """One output line (JSON, no newline) for one input line: what a worker sends back (the
    text of :func:`answer_line`'s object, a result written without the object where its family
    can)."""
    res = _answer(raw, lineno, settings, True)
    try:
        if type(res) is tuple:  # the id, and the result's own text ('{"variant":...}')
            ident, body = res
            return (f'{{"line":{lineno},"ok":true' + ("" if ident is None else ',"id":' + _dumps(ident))
                    + "," + body[1:])
        return _dumps(res)
    except (TypeError, ValueError) as exc:  # an unprintable id (NaN is printable; a huge float too)
        return json.dumps(error_result(lineno, "internal_error", f"the result could not be written as JSON: {exc}"),
                          separators=(",", ":"))


def error_result(lineno: int, kind: str, message: str, ident: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"line": lineno, "ok": False}
    if ident is not None:
        out["id"] = ident
    out["error"] = {"kind": kind, "message": message}
    return out


def _json_type(v: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number",
            type(None): "null"}.get(type(v), type(v).__name__)


def short_text(text: str, n: int = 200) -> str:
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
        return json.dumps(error_result(line.number, "too_large", f"line {line.number}: no line end within "
                                 f"{line.too_long - 1:,} bytes (is the input a JSON Lines file?); the input is "
                                 "read no further"), separators=(",", ":"))
    if line.too_long:
        cap = settings.limits.max_request_bytes
        return json.dumps(error_result(line.number, "too_large", f"line {line.number}: {line.too_long:,} bytes is more "
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
                raise DipsatError(f"{where} with id {short_text(json.dumps(obj['id']), 60)}, which that line does not "
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


def count_result(report: BatchReport, text: str, number: int) -> None:
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
        count_result(report, text, n)
        out.write(text + "\n")
        out.flush()
    return report.ok, report.errors


def warm_up(settings: BatchSettings) -> None:
    """Load what every line needs (the default variant's map) once, before any line's time limit
    starts counting.  Not OR-Tools: an acyclic turn never needs it, and the line with a cycle
    past the small search imports it the first time (about 0.2 s, inside that line's limit)."""
    try:
        from dipsat.game.registry import find_record

        find_record(settings.variant or "standard")
    except Exception:  # noqa: BLE001 - a broken default shows up as each line's own error
        pass
