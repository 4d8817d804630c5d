"""Process-level fuzzing of the real commands (issue 11): a few hundred hostile inputs through
``dipsat.cli.main`` — damaged bytes, deep nesting, huge numbers, wrong types, unknown names,
oversize requests — with no traceback, only documented exit statuses, and for ``batch``
exactly one output line per input line, in order.  The long run (100,000 inputs) is
``python -m benchmarks.fuzz``."""

from benchmarks.fuzz import fuzz


def test_hostile_inputs_through_every_command():
    tally = fuzz(inputs=260, seed=7, batch_share=0.6, batch_size=160)
    assert sum(tally.inputs.values()) == 260
    assert {"batch", "adjudicate", "corpus", "play", "explore", "why"} <= set(tally.inputs)
    assert tally.lines_lost == 0
    assert not tally.findings, "\n".join(str(f) for f in tally.findings[:5])
    # the inputs reach every outcome, not only rejections
    assert any(k.endswith(" 0") for k in tally.statuses) and any(k.endswith(" 2") for k in tally.statuses)
