"""batch over a slow input (issue 26): answers flow as lines arrive.  The input used to be read
in the runner's own thread, so a pipe that had sent one line and waited held that line's answer
back until more input came; each test here fails by waiting (a bounded wait, ending the test)
where that happened."""

import io
import json
import select
import subprocess
import sys
import threading

import pytest

from dipsat.io.batch import BatchSettings, Line
from dipsat.io.batch_dask import run_dask
from dipsat.io.batch_pool import run_pool

GOOD = {"units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}}
WAIT = 120.0  # seconds: only a failing run waits this long


class Signalling(io.StringIO):
    """An output that says when its first result is written."""

    def __init__(self) -> None:
        super().__init__()
        self.first = threading.Event()

    def write(self, s: str) -> int:
        n = super().write(s)
        self.first.set()
        return n


def slow_source(out: Signalling):
    """One line, then nothing until the output holds its answer."""
    yield Line(1, json.dumps({**GOOD, "id": 1}).encode())
    if not out.first.wait(WAIT):
        raise AssertionError("the first answer was not written while the input waited")
    yield Line(2, json.dumps({**GOOD, "id": 2}).encode())


def test_the_pool_writes_an_answer_while_the_input_waits():
    out = Signalling()
    report = run_pool(slow_source(out), out, BatchSettings(), jobs=2)
    assert report.ok == 2 and [json.loads(x)["id"] for x in out.getvalue().splitlines()] == [1, 2]


def test_dask_writes_an_answer_while_the_input_waits():
    pytest.importorskip("distributed", reason="the Dask extra is not installed")
    out = Signalling()
    report = run_dask(slow_source(out), out, BatchSettings(), "local", jobs=1)
    assert report.ok == 2 and [json.loads(x)["id"] for x in out.getvalue().splitlines()] == [1, 2]


def test_dipsat_batch_answers_a_line_of_a_pipe_before_the_next_comes():
    """The real command with its standard input a pipe the test holds open."""
    proc = subprocess.Popen([sys.executable, "-m", "dipsat.face.cli", "batch", "-", "-j", "2", "-q"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(json.dumps({**GOOD, "id": "first"}).encode() + b"\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], WAIT)
        assert ready, "no answer while the pipe stayed open"
        first = json.loads(proc.stdout.readline())
        assert first["id"] == "first" and first["ok"]
        rest, err = proc.communicate(json.dumps({**GOOD, "id": "second"}).encode() + b"\n", timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert [json.loads(x)["id"] for x in rest.splitlines()] == ["second"]
