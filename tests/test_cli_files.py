"""Every command that reads one file reads standard input for ``-``; a command given the wrong
kind of file says what kind it is and which command takes it (no schema field list)."""

import io
import json
import sys
import tomllib

import pytest

from dipsat.face.cli import main
from dipsat.io.file_kinds import file_kind

from conftest import ROOT

EX = ROOT / "examples"


def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.mark.parametrize("as_json", [False, True])
def test_adjudicate_reads_standard_input(as_json, monkeypatch, capsys):
    raw = (EX / "pandin.toml").read_bytes()
    if as_json:
        raw = json.dumps(tomllib.loads(raw.decode())).encode()
    assert main(["adjudicate", str(EX / "pandin.toml")]) == 0
    from_file = capsys.readouterr().out
    _stdin(monkeypatch, raw)
    assert main(["adjudicate", "-"]) == 0
    assert capsys.readouterr().out == from_file


@pytest.mark.parametrize("command,example", [("play", "game.toml"), ("render", "pandin.toml"),
                                             ("explore", "pandin.toml")])
def test_other_commands_read_standard_input(command, example, monkeypatch, capsys):
    assert main([command, str(EX / example)]) == 0
    from_file = capsys.readouterr().out
    _stdin(monkeypatch, (EX / example).read_bytes())
    assert main([command, "-"]) == 0
    assert capsys.readouterr().out == from_file


def test_bad_standard_input_is_named(monkeypatch, capsys):
    _stdin(monkeypatch, b"units = [")
    assert main(["adjudicate", "-"]) == 2
    assert "standard input: not valid TOML" in capsys.readouterr().err


@pytest.mark.parametrize("command,file,said", [
    ("play", "spring1901.toml", "is a turn (a position and its orders), not a dipsat saved game: try dipsat adjudicate"),
    ("play", "mila_game.json", "is a game saved by MILA's diplomacy package, not a dipsat saved game: "
                               "try dipsat play --from mila"),
    ("adjudicate", "game.toml", "is a saved game, not a turn: try dipsat play"),
    ("why", "game.toml", "is a saved game, not a turn: try dipsat play"),
    ("play", "../tests/corpora/datc/6.F.14.toml", "is a corpus case, not a dipsat saved game: try dipsat corpus"),
])
def test_the_wrong_kind_of_file_says_so(command, file, said, capsys):
    args = [command, str(EX / file)] + (["--order", "A Par - Bur"] if command == "why" else [])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert said in err and "Extra inputs" not in err and "field" not in err


def test_corpus_names_the_kind_of_a_file_that_is_no_case(capsys):
    assert main(["corpus", str(EX / "spring1901.toml")]) == 1
    out = capsys.readouterr().out
    assert "is a turn (a position and its orders), not a corpus case: try dipsat adjudicate" in out


def test_a_real_error_of_the_right_kind_is_kept(tmp_path, capsys):
    bad = tmp_path / "game.toml"
    bad.write_text('variant = "standard"\nphases = [{ orders = 3 }]\n', encoding="utf-8")
    assert main(["play", str(bad)]) == 2
    assert "not a" not in capsys.readouterr().err  # a saved game with a bad phase: the field error


def test_file_kind_of_each_example():
    kinds = {p.name: (k.name if (k := file_kind(tomllib.loads(p.read_text()) if p.suffix == ".toml"
                                                 else json.loads(p.read_text()))) else None)
             for p in EX.iterdir()}
    assert kinds["spring1901.toml"] == kinds["pandin.toml"] == "a turn (a position and its orders)"
    assert kinds["game.toml"] == kinds["supremacy_game.toml"] == kinds["continents_game.toml"] == "a saved game"
    assert kinds["mila_game.json"] == "a game saved by MILA's diplomacy package"
