"""``batch --resume`` rests on input position (issue 26): results are written one per answered
line in input order, so an earlier run's output says how many lines are done, whatever their
ids.  Resuming after an interruption at any point gives, byte for byte, the output of a run
that was never interrupted -- on an input whose ids repeat."""

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from dipsat.io.batch import BatchSettings, read_lines
from dipsat.io.batch_pool import run_pool
from dipsat.face.cli import main

GOOD = {"units": {"France": ["A Par"], "Germany": ["A Mun"]}, "orders": {"France": ["A Par - Bur"], "Germany": ["A Mun - Bur"]}}


def request(i: int, ident: object = None) -> bytes:
    body = {**GOOD, "orders": {"France": ["A Par - Bur" if i % 2 else "A Par H"], "Germany": ["A Mun - Bur"]}}
    return json.dumps(body if ident is None else {**body, "id": ident}).encode()


def mixed_input(n: int) -> bytes:
    """Requests whose ids repeat (and some without one), with blank lines, comments and bad lines
    between them: the line numbers of the answers are not their positions."""
    lines: list[bytes] = []
    for i in range(n):
        if i % 7 == 3:
            lines.append(b"")
        if i % 11 == 5:
            lines.append(b"# a comment")
        lines.append(b"{not json" if i % 9 == 4 else request(i, None if i % 5 == 2 else i % 3))
    return b"\n".join(lines) + b"\n"


def _reference(d: Path, n: int) -> tuple[Path, bytes]:
    inp = d / "in.jsonl"
    inp.write_bytes(mixed_input(n))
    out = d / "full.jsonl"
    assert main(["batch", str(inp), "-o", str(out), "-q", "-j", "2"]) == 1  # the bad lines are errors
    return inp, out.read_bytes()


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An input of 80 requests and the output of one uninterrupted run."""
    return _reference(tmp_path_factory.mktemp("resume"), 80)


@pytest.fixture(scope="module")
def long_reference(tmp_path_factory):
    """An input of 800 requests and the output of one uninterrupted run: long enough that an
    interrupt at the 30th answer stops the run before its end on a loaded machine too."""
    return _reference(tmp_path_factory.mktemp("resume_long"), 800)


def test_the_issue_example_answers_every_line_of_a_repeated_id(tmp_path, capsys):
    """ids 1, 2, 1, 3; interrupted after one answer; resume answers the three left (it answered
    two: the third line's id 1 was taken for done)."""
    lines = [json.dumps({**json.loads(request(i)), "id": ident}).encode() for i, ident in enumerate([1, 2, 1, 3])]
    inp = tmp_path / "in.jsonl"
    inp.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "out.jsonl"
    first = io.StringIO()

    def one_then_interrupt():
        for k, line in enumerate(read_lines(io.BytesIO(inp.read_bytes()))):
            if k == 1:
                raise KeyboardInterrupt
            yield line

    report = run_pool(one_then_interrupt(), first, BatchSettings(), jobs=1)
    assert report.interrupted and report.ok == 1
    out.write_text(first.getvalue())
    assert main(["batch", str(inp), "-o", str(out), "--resume", "-j", "1"]) == 0
    assert "3 adjudicated, 0 errors, 1 already done" in capsys.readouterr().err
    res = [json.loads(x) for x in out.read_text().splitlines()]
    assert [(r["line"], r["id"]) for r in res] == [(1, 1), (2, 2), (3, 1), (4, 3)]


@pytest.mark.parametrize("done", [0, 1, 4, 17, 79, 80])
def test_resume_from_any_prefix_reproduces_the_output(reference, tmp_path, done):
    """The output cut after ``done`` results (and a result cut short after them) resumes to the
    uninterrupted output, byte for byte."""
    inp, full = reference
    results = full.splitlines(keepends=True)
    assert len(results) == 80
    out = tmp_path / "out.jsonl"
    out.write_bytes(b"".join(results[:done]) + (results[done][:25] if done < 80 else b""))
    assert main(["batch", str(inp), "-o", str(out), "--resume", "-q", "-j", "1"]) in (0, 1)
    assert out.read_bytes() == full


def test_resume_refuses_the_output_of_another_input(reference, tmp_path, capsys):
    inp, full = reference
    other = tmp_path / "other.jsonl"
    other.write_bytes(b"\n".join(request(i, 100 + i) for i in range(40)) + b"\n")  # same lines, other ids
    out = tmp_path / "out.jsonl"
    kept = b"".join(full.splitlines(keepends=True)[:10])
    out.write_bytes(kept)
    assert main(["batch", str(other), "-o", str(out), "--resume", "-q"]) == 2
    err = capsys.readouterr().err
    assert "out.jsonl: result 1 answers input line 1 with id 0" in err and "same input" in err
    assert out.read_bytes() == kept
    shifted = tmp_path / "shifted.jsonl"
    shifted.write_bytes(b"\n" + inp.read_bytes())  # every line one further down
    assert main(["batch", str(shifted), "-o", str(out), "--resume", "-q"]) == 2
    assert "is line 2" in capsys.readouterr().err and out.read_bytes() == kept
    short = tmp_path / "short.jsonl"
    short.write_bytes(b"\n".join(inp.read_bytes().splitlines()[:5]) + b"\n")
    assert main(["batch", str(short), "-o", str(out), "--resume", "-q"]) == 2
    assert "holds 10 results but the input has only" in capsys.readouterr().err


def test_resume_refuses_a_file_that_is_not_batch_output(tmp_path, capsys):
    inp = tmp_path / "in.jsonl"
    inp.write_bytes(request(0) + b"\n")
    out = tmp_path / "out.jsonl"
    for text in ('{"a": 1}\n', '{"line": 2, "ok": true}\n{"line": 1, "ok": true}\n', "[]\n"):
        out.write_text(text)
        assert main(["batch", str(inp), "-o", str(out), "--resume", "-q"]) == 2
        assert "is not a batch result in input order" in capsys.readouterr().err
        assert out.read_text() == text


# The child runs the real ``dipsat batch`` with one addition: as it writes result AT it tells
# the test (a byte on a pipe) and waits for the test's answer, so the test sends its SIGINT at a
# point it chooses, not after some time.  (The input is read by a thread of its own, ahead of
# what is written: the point is the output's.)
CHILD = """
import os, sys
import dipsat.io.batch_pool as b
from dipsat.face.cli import main
at, tell, wait = (int(x) for x in sys.argv[1:4])
real = b.count_result
written = 0
def count(report, text, number):
    global written
    real(report, text, number)
    written += 1
    if written == at:
        os.write(tell, b"!")
        os.read(wait, 1)  # the SIGINT arrives while this waits
b.count_result = count
sys.exit(main(sys.argv[4:]))
"""


def interrupt_at(inp: Path, out: Path, at: int) -> subprocess.CompletedProcess:
    """Run ``dipsat batch inp -o out``; as it writes result ``at``, send it a real SIGINT;
    return how it ended."""
    tell_r, tell_w = os.pipe()
    wait_r, wait_w = os.pipe()
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(at), str(tell_w), str(wait_r),
                             "batch", str(inp), "-o", str(out), "-j", "2", "-q"],
                            pass_fds=(tell_w, wait_r), stderr=subprocess.PIPE)
    os.close(tell_w)
    os.close(wait_r)
    try:
        assert os.read(tell_r, 1) == b"!", "the child ended before reaching the request"
        os.kill(proc.pid, signal.SIGINT)
        os.write(wait_w, b"!")
        err = proc.communicate(timeout=300)[1].decode()
    finally:
        os.close(tell_r)
        os.close(wait_w)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, b"", err)


@pytest.mark.parametrize("at", [1, 30])
def test_a_real_sigint_then_resume_reproduces_the_output(long_reference, tmp_path, at):
    """A real Ctrl-C (SIGINT to the process) at a point the test chooses by a signal from the
    child, not by time; then ``--resume`` gives the uninterrupted output byte for byte.  After
    the signal the child writes the answers it has and finishes the lines it has sent, so it
    stops before the end of the input (on a loaded machine the workers can run well ahead of
    the writer: an input of 80 requests was once answered whole before the signal landed)."""
    inp, full = long_reference
    out = tmp_path / "out.jsonl"
    proc = interrupt_at(inp, out, at)
    assert proc.returncode == 130, proc.stderr
    assert "interrupted after input line" in proc.stderr and "--resume" in proc.stderr
    assert "Traceback" not in proc.stderr
    first = out.read_bytes()
    assert at <= first.count(b"\n") < full.count(b"\n") and full.startswith(first)
    assert main(["batch", str(inp), "-o", str(out), "--resume", "-q", "-j", "2"]) == 1
    assert out.read_bytes() == full
