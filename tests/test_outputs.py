"""Full disks and unwritable outputs (issue 26): each is an error that names the output and the
OS's reason, exit status 2, never blamed on the input, with what was written before intact.
And inputs that never end: ``batch /dev/zero`` stops at a bound; ``play`` of an empty file is an
error; a saved game is read once, under its own limit."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from dipsat.face.cli import main

from conftest import ROOT

GOOD = {"units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}}
FULL = Path("/dev/full")
needs_full = pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full (Linux): a device that is always full")


def dipsat(*argv: str, stdout=subprocess.PIPE, file_limit: int | None = None, **kw) -> subprocess.CompletedProcess:
    def limit() -> None:
        if file_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    return subprocess.run([sys.executable, "-m", "dipsat.face.cli", *argv], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, timeout=300, preexec_fn=limit, **kw)


@pytest.fixture
def requests(tmp_path) -> Path:
    p = tmp_path / "in.jsonl"
    p.write_text("\n".join(json.dumps({**GOOD, "id": i}) for i in range(300)) + "\n")
    return p


def said(proc: subprocess.CompletedProcess, output: str, reason: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert f"dipsat: error: {output}: cannot write: {reason}" in proc.stderr, proc.stderr
    assert "cannot read" not in proc.stderr and "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr


@needs_full
def test_batch_into_a_full_device(requests):
    said(dipsat("batch", str(requests), "-o", str(FULL), "-j", "1", "-q"), str(FULL), "No space left on device")


@needs_full
def test_standard_output_on_a_full_device(requests):
    with FULL.open("w") as full:
        said(dipsat("batch", str(requests), "-j", "1", "-q", stdout=full), "standard output", "No space left on device")
        said(dipsat("adjudicate", str(ROOT / "examples" / "spring1901.toml"), stdout=full), "standard output",
             "No space left on device")
        said(dipsat("play", str(ROOT / "examples" / "game.toml"), stdout=full), "standard output",
             "No space left on device")


def test_batch_output_over_the_file_size_limit_keeps_what_it_wrote_and_resumes(requests, tmp_path):
    """The output stops at the process's file-size limit (RLIMIT_FSIZE): status 2, the output
    named; what was written is kept, and --resume without the limit finishes it to the very
    output of a run that never stopped."""
    full = tmp_path / "full.jsonl"
    assert main(["batch", str(requests), "-o", str(full), "-j", "1", "-q"]) == 0
    out = tmp_path / "out.jsonl"
    proc = dipsat("batch", str(requests), "-o", str(out), "-j", "1", "-q", file_limit=20_000)
    said(proc, str(out), "File too large")
    assert "--resume" in proc.stderr
    kept = out.read_bytes()
    assert 0 < len(kept) <= 20_000 and full.read_bytes().startswith(kept)
    assert main(["batch", str(requests), "-o", str(out), "-j", "1", "-q", "--resume"]) == 0
    assert out.read_bytes() == full.read_bytes()


def test_play_save_to_a_missing_folder_or_a_folder(tmp_path):
    game = str(ROOT / "examples" / "game.toml")
    said(dipsat("play", game, "-q", "--save", str(tmp_path / "no" / "such.json")), str(tmp_path / "no" / "such.json"),
         "No such file or directory")
    said(dipsat("play", game, "-q", "--save", str(tmp_path)), str(tmp_path), "it is a folder")
    cont = str(ROOT / "examples" / "continents_game.toml")
    said(dipsat("play", cont, "-q", "--save", str(tmp_path)), str(tmp_path), "it is a folder")


def test_a_failed_save_leaves_the_file_there_intact(tmp_path):
    old = tmp_path / "old.json"
    old.write_text("the game saved before\n")
    proc = dipsat("play", str(ROOT / "examples" / "game.toml"), "-q", "--save", str(old), file_limit=2_000)
    said(proc, str(old), "File too large")
    assert old.read_text() == "the game saved before\n"
    assert [p.name for p in tmp_path.iterdir()] == ["old.json"]  # no part-written file left beside it
    assert dipsat("play", str(ROOT / "examples" / "game.toml"), "-q", "--save", str(old)).returncode == 0
    assert json.loads(old.read_text())["phases"]


def test_render_to_a_missing_folder(tmp_path, capsys):
    assert main(["render", str(ROOT / "examples" / "spring1901.toml"), "-o", str(tmp_path / "no" / "x.svg")]) == 2
    assert "x.svg: cannot write: No such file or directory" in capsys.readouterr().err


# -- inputs that never end --------------------------------------------------------------------

def test_batch_of_an_input_without_line_ends_stops_at_a_bound(tmp_path):
    """``batch /dev/zero`` ran forever: a line longer than the request limit was skipped until a
    line end came.  With no line end within the file limit, that line is answered with an error
    and the input is read no further."""
    proc = dipsat("batch", "/dev/zero", "-j", "1", "--max-request-bytes", "1000", "--max-orders", "10")
    assert proc.returncode == 1, proc.stderr
    res = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(res) == 1 and res[0]["error"]["kind"] == "too_large"
    assert "no line end" in res[0]["error"]["message"] and "read no further" in res[0]["error"]["message"]


def test_over_long_lines_with_ends_are_reported_and_the_run_goes_on(tmp_path, capsys):
    inp = tmp_path / "in.jsonl"
    inp.write_bytes(b"x" * 5000 + b"\n" + json.dumps(GOOD).encode() + b"\n" + b"y" * 3000 + b"\n")
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(inp), "-o", str(out), "-q", "-j", "1", "--max-request-bytes", "1000"]) == 1
    res = [json.loads(x) for x in out.read_text().splitlines()]
    assert [(r["line"], r["ok"]) for r in res] == [(1, False), (2, True), (3, False)]
    assert "5,000 bytes is more than the limit of 1,000" in res[0]["error"]["message"]


def test_play_of_an_empty_file_is_an_error(tmp_path, capsys):
    for name, text in (("empty.toml", ""), ("blank.toml", "# nothing here\n"), ("nophases.json", '{"phases": []}')):
        f = tmp_path / name
        f.write_text(text)
        assert main(["play", str(f)]) == 2
        err = capsys.readouterr().err
        assert f"{f}: no phases to play" in err


def test_a_saved_game_is_read_once_under_its_own_limit(tmp_path, capsys, monkeypatch):
    """``play`` reads the file once (the variant and the game from the same data), under
    --max-file-bytes, not the request limit."""
    import dipsat.game.request as api

    reads: list[str] = []
    real = api.read_data_file

    def counting(path, *a, **k):
        reads.append(str(path))
        return real(path, *a, **k)

    monkeypatch.setattr(api, "read_data_file", counting)
    game = ROOT / "examples" / "game.toml"
    big = tmp_path / "game.toml"
    big.write_text(game.read_text() + "\n" + "#" * 1_200_000 + "\n")  # over the 1 MiB request limit
    assert main(["play", str(big), "-q"]) == 0
    assert reads == [str(big)]
    assert main(["play", str(big), "-q", "--max-file-bytes", "1000000"]) == 2
    assert "more than the limit of 1,000,000 bytes" in capsys.readouterr().err
