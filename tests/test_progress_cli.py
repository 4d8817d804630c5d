"""The corpus command draws a progress bar on a terminal and nothing when piped; its output is the same."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = [str(ROOT / "tests/corpora/datc" / f"6.A.0{i}.toml") for i in (1, 2, 3)]


def _run_on_pty(args: list[str]) -> tuple[str, str]:
    """Run dipsat with standard error on a pseudo-terminal; return (stdout, what the tty saw)."""
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "100"}
    proc = subprocess.Popen([sys.executable, "-m", "dipsat.face.cli", *args], stdout=subprocess.PIPE,
                            stderr=slave, env=env, cwd=ROOT)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    stdout = proc.stdout.read().decode() if proc.stdout else ""
    proc.wait()
    os.close(master)
    return stdout, seen.decode(errors="replace")


def test_corpus_shows_a_bar_on_a_terminal_and_not_when_piped_or_quiet() -> None:
    out_tty, tty = _run_on_pty(["corpus", *CASES])
    assert "corpus" in tty and "/3" in tty
    piped = subprocess.run([sys.executable, "-m", "dipsat.face.cli", "corpus", *CASES], capture_output=True, text=True, cwd=ROOT)
    assert piped.stderr == ""
    assert piped.stdout == out_tty  # the bar never changes what is printed
