"""The README's example outputs are real: each ``$ dipsat ...`` block is run and every line it
shows (except ``...``) must appear in the output."""

import re
import shlex

import pytest

from solver.cli import main

from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```\n\$ (dipsat [^\n]+)\n(.*?)```", README, re.S)


def test_readme_has_examples():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("command,shown", BLOCKS, ids=[b[0] for b in BLOCKS])
def test_readme_example_output(command, shown, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    main(shlex.split(command)[1:])
    out = [" ".join(x.split()) for x in capsys.readouterr().out.splitlines()]
    for line in shown.splitlines():
        want = " ".join(line.split())  # column padding may differ
        if want and want != "...":
            assert any(want in got for got in out), f"README line not in the output of {command!r}: {line!r}"
