"""Batch adjudication: one JSON turn request per line in, one JSON result per line out.

Lines are answered in order.  A bad line (not JSON, wrong fields, unknown province, illegal
position, solver failure) gives ``{"line": N, "ok": false, "error": {...}}`` and the run goes on.
Blank lines and lines starting with ``#`` are skipped (no output).
"""

from __future__ import annotations

import json
from typing import IO, Any

from pydantic import ValidationError

from .api import TurnRequest, adjudicate, describe_validation, result_to_json
from .errors import DipsatError


def adjudicate_line(line: str, lineno: int, time_limit: float | None = None, variant: str | None = None) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return _error(lineno, "invalid_json", f"not valid JSON at column {exc.colno}: {exc.msg}")
    if not isinstance(data, dict):
        return _error(lineno, "invalid_request", f"expected a JSON object, got {type(data).__name__}")
    ident = data.pop("id", None)
    if variant and "variant" not in data:
        data["variant"] = variant
    try:
        req = TurnRequest.model_validate(data)
    except ValidationError as exc:
        return _error(lineno, "invalid_request", describe_validation(exc), ident)
    try:
        res = adjudicate(req, time_limit=time_limit)
    except DipsatError as exc:
        return _error(lineno, type(exc).__name__, str(exc), ident)
    out = {"line": lineno, "ok": True}
    if ident is not None:
        out["id"] = ident
    out.update(result_to_json(res))
    return out


def _error(lineno: int, kind: str, message: str, ident: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"line": lineno, "ok": False}
    if ident is not None:
        out["id"] = ident
    out["error"] = {"kind": kind, "message": message}
    return out


def run_batch(lines: IO[str], out: IO[str], time_limit: float | None = None, variant: str | None = None) -> tuple[int, int]:
    ok = err = 0
    for n, line in enumerate(lines, start=1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        res = adjudicate_line(s, n, time_limit, variant)
        if res["ok"]:
            ok += 1
        else:
            err += 1
        out.write(json.dumps(res, separators=(",", ":")) + "\n")
        out.flush()
    return ok, err
