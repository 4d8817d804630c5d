"""Outcomes are coloured on a terminal, and plain when piped or under NO_COLOR."""

import io

from dipsat.face.cli import main
from dipsat.face.colour import colour_on, paint

from conftest import ROOT

ESC = "\x1b["


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    assert colour_on(_Tty())
    assert not colour_on(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_on(_Tty())
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert not colour_on(_Tty())


def test_paint_marks_outcomes_and_headings():
    text = "== S1901M ==\n  ok   A Par - Bur  moves\n  FAIL A Mun - Bur  fails\nokay as it is"
    out = paint(text, on=True)
    assert "\x1b[32mok\x1b[0m   A Par - Bur" in out and "\x1b[31mFAIL\x1b[0m A Mun" in out
    assert "\x1b[1m== S1901M ==\x1b[0m" in out and "okay as it is" in out  # only the marks
    assert paint(text, on=False) == text


def test_adjudicate_in_colour_when_forced_plain_when_piped(capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    turn = str(ROOT / "examples" / "pandin.toml")
    assert main(["adjudicate", turn]) == 0
    assert ESC not in capsys.readouterr().out  # captured: not a terminal
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert main(["adjudicate", turn]) == 0
    out = capsys.readouterr().out
    assert "\x1b[31mFAIL\x1b[0m" in out and "\x1b[32mok\x1b[0m" in out
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["adjudicate", turn, "--json"]) == 0 and ESC not in capsys.readouterr().out
