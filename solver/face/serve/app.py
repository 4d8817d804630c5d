"""The sandbox's web application (Starlette): the page, its assets, and a small JSON API.

    GET  /                      the page (static/index.html; its script and style beside it)
    GET  /api/variants          the variants, their powers, unit kinds, presets and options
    GET  /api/cases             the cases a page may load by name (:mod:`dipsat.face.serve.library`)
    GET  /api/case?name=6.F.16  one case as a state (a saved game's phase: name=examples/game@F1901M)
    GET  /api/opening?variant=  a board's opening as a state
    POST /api/paste             {"text": TOML or JSON} -> a state
    POST /api/adjudicate        {"state"} -> outcomes, picture, resolutions, the next phase's state
    POST /api/readings          {"state"} -> every reading of the rules at once
    POST /api/why               {"state", "order"} -> what the order's outcome hinges on
    POST /api/legal             {"state"} -> the orders to complete from, per unit
    POST /api/units             {"state", "power", "place", "kind", "delta": 1|-1} -> the state with a
                                unit placed or removed (:mod:`dipsat.face.serve.units`)
    POST /api/order             {"state", "action", "origin", "target", "count", "ally"} -> the state with
                                an order drawn by clicking (a family that writes its own from clicks)
    POST /api/export            {"state", "format": "case"|"batch", "rules": [...], "id", "title"} -> text

Every body is read within ``--max-request-bytes`` and ``--max-depth`` (as a file is), every call
runs in the worker within ``--time-limit`` and ``--max-orders``; an error is ``{"error": message}``
with status 400 (the input), 413 (too large), 504 (out of time) or 500 (a bug).  No endpoint
takes a path: cases are named from the catalogue, which holds only bundled cases and the files
named on the command line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Awaitable, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from dipsat.errors import DipsatError
from dipsat.limits import LimitExceeded, Limits, parse_data

from dipsat.face.serve.library import Library
from dipsat.face.serve.worker import CallFailed, Runner

STATIC = Path(__file__).resolve().parent / "static"


def make_app(runner: Runner, library: Library, hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "[::1]")) -> Starlette:
    """The application over a worker pool and a catalogue of cases, answering requests addressed
    to ``hosts`` only (a page elsewhere cannot reach it through a name of its own: DNS
    rebinding), and reading a POST's body only when it says it is JSON (a page elsewhere cannot
    send one without the browser asking the server first, which it does not allow)."""
    limits: Limits = runner.limits
    cache: dict[str, Any] = {}

    async def call(name: str, *args: Any, **kwargs: Any) -> Any:
        return await run_in_threadpool(runner.call, name, *args, **kwargs)

    async def body(request: Request) -> dict[str, Any]:
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise DipsatError("the request: send the body as JSON (Content-Type: application/json)")
        raw = b""
        async for chunk in request.stream():  # counted as it comes: a huge body is never held
            raw += chunk
            if len(raw) > limits.max_request_bytes:
                raise LimitExceeded(f"the request: more than the limit of {limits.max_request_bytes:,} bytes")
        data = parse_data(raw, "json", "the request", limits)
        if not isinstance(data, dict):
            raise DipsatError("the request: expected a JSON object")
        return data

    def endpoint(fn: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
        async def handle(request: Request) -> Response:
            try:
                return JSONResponse(await fn(request))
            except LimitExceeded as exc:
                return JSONResponse({"error": str(exc)}, status_code=413)
            except CallFailed as exc:
                return JSONResponse({"error": exc.message}, status_code=exc.status)
            except DipsatError as exc:
                return JSONResponse({"error": str(exc)}, status_code=400)
        return handle

    def field(data: dict[str, Any], name: str, kind: type) -> Any:
        value = data.get(name)
        if not isinstance(value, kind):
            raise DipsatError(f"the request: field {name!r} must be a {'text' if kind is str else 'JSON ' + kind.__name__}")
        return value

    async def variants(request: Request) -> Any:
        if "variants" not in cache:
            cache["variants"] = await call("variants")
        return cache["variants"]

    async def cases(request: Request) -> Any:
        return library.listing()

    async def case(request: Request) -> Any:
        name = request.query_params.get("name", "")
        data, entry, phase = await run_in_threadpool(library.load, name)
        return await call("state_of_data", data, entry.name, phase=request.query_params.get("phase") or phase)

    async def opening(request: Request) -> Any:
        return await call("opening", request.query_params.get("variant", "standard"))

    async def paste(request: Request) -> Any:
        return await call("pasted", field(await body(request), "text", str))

    async def adjudicate(request: Request) -> Any:
        return await call("adjudicate", field(await body(request), "state", dict))

    async def readings(request: Request) -> Any:
        return await call("readings", field(await body(request), "state", dict))

    async def why(request: Request) -> Any:
        data = await body(request)
        return await call("why", field(data, "state", dict), field(data, "order", str))

    async def legal(request: Request) -> Any:
        return await call("legal", field(await body(request), "state", dict))

    async def units(request: Request) -> Any:
        data = await body(request)
        kind = data.get("kind")
        if kind is not None and not isinstance(kind, str):
            raise DipsatError("the request: field 'kind' must be a text")
        delta = data.get("delta", 1)
        if delta not in (1, -1) or isinstance(delta, bool):
            raise DipsatError("the request: field 'delta' must be 1 (place a unit) or -1 (remove one)")
        return await call("units", field(data, "state", dict), field(data, "power", str), field(data, "place", str),
                          kind or None, delta)

    async def order(request: Request) -> Any:
        data = await body(request)
        count, ally = data.get("count"), data.get("ally")
        if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 1):
            raise DipsatError("the request: field 'count' must be a number of units (1 or more)")
        if ally is not None and not isinstance(ally, str):
            raise DipsatError("the request: field 'ally' must be a text")
        return await call("order", field(data, "state", dict), field(data, "action", str), field(data, "origin", str),
                          field(data, "target", str), count, ally or None)

    async def export(request: Request) -> Any:
        data = await body(request)
        state = field(data, "state", dict)
        fmt = data.get("format", "case")
        if fmt == "batch":
            return {"format": "batch", "text": await call("export_batch", state)}
        if fmt != "case":
            raise DipsatError(f"the request: format {fmt!r} is not one of case, batch")
        rules = data.get("rules") or [state.get("rules") or "datc"]
        if not (isinstance(rules, list) and all(isinstance(r, str) for r in rules)):
            raise DipsatError("the request: field 'rules' must be a list of preset names")
        text = await call("export_case", state, rules, str(data.get("id") or ""), str(data.get("title") or ""))
        return {"format": "case", "text": text}

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    routes = [
        Route("/", page),
        Route("/api/variants", endpoint(variants)),
        Route("/api/cases", endpoint(cases)),
        Route("/api/case", endpoint(case)),
        Route("/api/opening", endpoint(opening)),
        Route("/api/paste", endpoint(paste), methods=["POST"]),
        Route("/api/adjudicate", endpoint(adjudicate), methods=["POST"]),
        Route("/api/readings", endpoint(readings), methods=["POST"]),
        Route("/api/why", endpoint(why), methods=["POST"]),
        Route("/api/legal", endpoint(legal), methods=["POST"]),
        Route("/api/units", endpoint(units), methods=["POST"]),
        Route("/api/order", endpoint(order), methods=["POST"]),
        Route("/api/export", endpoint(export), methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))])
