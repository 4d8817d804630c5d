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


def test_a_finding_is_saved_and_replayed(tmp_path, monkeypatch, capsys):
    """Each finding's input and command line go to the findings folder; --replay runs them again
    (here a request that passes now, and the same one with the command made to crash)."""
    import benchmarks.fuzz as fz

    tally = fz.Tally(findings_dir=tmp_path, seed=7)
    req = b'{"units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}}'
    tally.add(fz.Finding("adjudicate", "crash (status 3): ...", req), ["adjudicate", fz.INPUT, "--json"], ".json", 12)
    assert (tmp_path / "0001-adjudicate.input.json").read_bytes() == req
    meta = (tmp_path / "0001-adjudicate.finding.json").read_text()
    assert '"input_number": 12' in meta and '"seed": 7' in meta
    assert fz.main(["--replay", str(tmp_path)]) == 0 and "passes now" in capsys.readouterr().out
    monkeypatch.setattr(fz, "run_command", lambda argv: (3, "", "dipsat: internal error: X"))
    assert fz.main(["--replay", str(tmp_path)]) == 1 and "still fails" in capsys.readouterr().out


def test_a_process_reports_its_processor_time_and_its_wait_for_a_processor():
    """The slow check counts wall time less the time the run waited, runnable, for a processor (a
    machine loaded by others held 2 s processes for 40 s): both are read from the ended child before
    it is reaped, and a hang (sleeping, not waiting for a processor) still counts in full."""
    import sys
    import time

    import benchmarks.fuzz as fz

    assert isinstance(fz.run_queue_wait("self"), float) or not sys.platform.startswith("linux")
    t = time.monotonic()
    code, out, err, cpu, waited = fz.run_process(["--version"], timeout=120)
    wall = time.monotonic() - t
    assert code == 0 and 0 < cpu < wall + 1 and 0 <= waited <= wall
    t = time.monotonic()
    proc = fz._Timed([sys.executable, "-c", "import time; time.sleep(0.5)"])
    proc.communicate()
    assert time.monotonic() - t - proc.waited >= 0.5  # the sleep is no wait for a processor
