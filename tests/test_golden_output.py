"""The output of ``dipsat batch`` and ``dipsat adjudicate --json`` is byte for byte what it was
before issue 30 ("A lean turn") began (commit fdac8cd), non-ASCII text included.

The input (``tests/golden/batch_input.jsonl.gz``, written by ``tests/golden/make_golden.py``):
300 seeded standard turns of the benchmark workload (a third of them explained), every one-phase
corpus case of every variant under its first expectation's rules (half of them explained: retreats,
adjustments, Multiplomacy, Multinational, Multiplicity, continents, Supremacy), random Multinational
and Multiplicity turns, and lines of errors and non-ASCII ids and order text.  The expected outputs
were written by fdac8cd's ``dipsat``; a change of representation must not change a byte of them.
"""

import gzip
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "golden"))
import make_golden  # noqa: E402

DIPSAT = [sys.executable, "-m", "dipsat.face.cli"]


def first_difference(got: bytes, want: bytes) -> str:
    for n, (a, b) in enumerate(zip(got.split(b"\n"), want.split(b"\n")), 1):
        if a != b:
            at = next(i for i, (x, y) in enumerate(zip(a + b"\0", b + b"\0")) if x != y)
            return (f"line {n} differs at byte {at}:\n got  ...{a[max(0, at - 80):at + 120]!r}\n"
                    f" want ...{b[max(0, at - 80):at + 120]!r}")
    return f"lengths differ: {len(got)} bytes, expected {len(want)}"


def test_batch_output_is_byte_identical():
    want = gzip.decompress(make_golden.EXPECTED.read_bytes())
    got = make_golden.batch_output(DIPSAT)
    assert got == want, first_difference(got, want)


def test_the_golden_input_covers_what_it_should():
    lines = gzip.decompress(make_golden.INPUT.read_bytes()).split(b"\n")
    want = gzip.decompress(make_golden.EXPECTED.read_bytes()).decode("ascii").splitlines()
    assert len(lines) > 700 and sum(b'"explain": true' in x for x in lines) > 150
    assert any(b"\xe6\x97\xa5\xe6\x9c\xac" in x for x in lines)  # an id in Japanese
    assert sum('"ok":false' in x for x in want) > 50 and sum('"ok":true' in x for x in want) > 600
    assert any('"phase":"retreat"' in x for x in want) and any('"phase":"adjustment"' in x for x in want)
    assert any('t\\u00fcr-\\u65e5\\u672c' in x for x in want)  # the id echoed, ASCII-escaped


@pytest.mark.parametrize("name", make_golden.ADJUDICATE)
def test_adjudicate_json_is_byte_identical(name):
    want = (make_golden.HERE / f"adjudicate_{Path(name).stem}.json").read_bytes()
    got = make_golden.adjudicate_output(DIPSAT, name)
    assert got == want, first_difference(got, want)


def test_a_batch_line_written_as_text_is_its_result_object_encoded():
    """``answer_text`` writes a board's result straight from its fields (no result object); the
    text is what the json module writes of ``answer_line``'s object, on every line of the golden
    input (every variant, explained or not, errors, non-ASCII text)."""
    import io
    import json

    from dipsat.io.batch import BatchSettings, answer_line, answer_text, read_lines
    from dipsat.limits import Limits

    settings = BatchSettings(limits=Limits(turn_time_limit=600))
    lines = list(read_lines(io.BytesIO(gzip.decompress(make_golden.INPUT.read_bytes()))))
    assert len(lines) > 700
    for line in lines:
        want = json.dumps(answer_line(line.raw, line.number, settings), separators=(",", ":"))
        got = answer_text(line.raw, line.number, settings)
        assert got == want, first_difference(got.encode(), want.encode())
