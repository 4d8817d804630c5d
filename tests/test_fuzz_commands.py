"""Process-level fuzzing of the real commands (issues 11, 26): a few hundred hostile inputs
through ``dipsat.face.cli.main`` — damaged bytes, deep nesting, huge numbers, wrong types, unknown
names, oversize requests, and the examples and corpus cases of all six variants with any value
replaced (a malformed ``expect``, ``bids = null``, a string where a count goes) — with no
traceback, only documented exit statuses, no single-turn command past its time limit + 5 s, and
for ``batch`` exactly one output line per input line, in order; two of the files run as
separate processes.  The long run is ``python -m benchmarks.fuzz`` (see benchmarks/README.md)."""

from benchmarks.fuzz import COMMANDS, fuzz


def test_hostile_inputs_through_every_command():
    tally = fuzz(inputs=260, seed=7, batch_share=0.6, batch_size=160, processes=2)
    assert sum(tally.inputs.values()) == 260 and tally.processes == 2
    assert {"batch", *COMMANDS} <= {k.split()[0] for k in tally.inputs}
    assert tally.lines_lost == 0 and tally.slow == 0
    assert not tally.findings, "\n".join(str(f) for f in tally.findings[:5])
    # the inputs reach every outcome, not only rejections
    assert any(k.endswith(" 0") for k in tally.statuses) and any(k.endswith(" 2") for k in tally.statuses)
