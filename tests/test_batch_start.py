"""The pool reads its input while its workers start (issue 30: "workers start while the first
lines are read"): the first worker's start waits for the forkserver to import what every line
needs, and the input does not wait for it."""

from __future__ import annotations

import io
import json
import threading
from typing import Any, Iterator

import pytest

from dipsat.io import batch_pool
from dipsat.io.batch import BatchSettings, Line

GOOD = {"units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}}
WAIT = 30.0  # seconds: only a failing run waits this long


def test_the_pool_reads_the_first_line_before_its_workers_are_up(monkeypatch: pytest.MonkeyPatch) -> None:
    read = threading.Event()
    started_after_reading: list[bool] = []
    real_context = batch_pool._context

    class Context:
        """The real context, whose processes start only once the first line is read (or, if
        reading waited for them, after WAIT: recorded as a failure)."""

        def __init__(self) -> None:
            self.real = real_context()

        def __getattr__(self, name: str) -> Any:
            return getattr(self.real, name)

        def Process(self, *args: Any, **kwargs: Any) -> Any:
            return Process(self.real.Process(*args, **kwargs))

    class Process:
        def __init__(self, proc: Any) -> None:
            self.proc = proc

        def __getattr__(self, name: str) -> Any:
            return getattr(self.proc, name)

        def start(self) -> None:
            started_after_reading.append(read.wait(WAIT))
            self.proc.start()

    def source() -> Iterator[Line]:
        read.set()
        yield Line(1, json.dumps({**GOOD, "id": 1}).encode())
        yield Line(2, json.dumps({**GOOD, "id": 2}).encode())

    monkeypatch.setattr(batch_pool, "_context", Context)
    out = io.StringIO()
    report = batch_pool.run_pool(source(), out, BatchSettings(), jobs=2)
    assert started_after_reading == [True, True]
    assert report.ok == 2 and [json.loads(x)["id"] for x in out.getvalue().splitlines()] == [1, 2]
