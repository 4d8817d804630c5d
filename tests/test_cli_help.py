"""The command line teaches: every argument of every command has help, every core command's
--help ends with examples, and those examples run."""

import argparse
import shlex

import pytest

from dipsat.face.cli import CORE_COMMANDS, build_parser, main

from conftest import ROOT


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


SUBS = _subparsers(build_parser())


@pytest.mark.parametrize("name", sorted(SUBS))
def test_every_argument_has_help(name):
    assert SUBS[name].description
    for action in SUBS[name]._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        what = action.option_strings or [action.dest]
        assert action.help and action.help is not argparse.SUPPRESS, f"dipsat {name}: {what} has no help"


@pytest.mark.parametrize("name", sorted(SUBS))
def test_every_command_shows_examples(name, capsys):
    assert main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert "examples:" in out and f"dipsat {name}" in out.split("examples:")[1]


def _runnable():
    """The examples that read only files of the repository and write nothing."""
    for name, sub in sorted(SUBS.items()):
        for line in (sub.epilog or "").splitlines()[1:]:
            words = shlex.split(line.split("(")[0])
            if {"-o", "--save", "--report", ">", "|", "-"} & set(words) or words[0] != "dipsat":
                continue
            files = [w for w in words if w.endswith((".toml", ".json")) or w.startswith("tests/")]
            if all((ROOT / f).exists() for f in files) and files:
                yield " ".join(shlex.quote(w) for w in words)


@pytest.mark.parametrize("command", list(_runnable()))
def test_examples_run(command, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(command)[1:]) in (0, 1), capsys.readouterr().err


def test_the_core_commands_have_examples():
    assert {n for n in CORE_COMMANDS if "examples:" in (SUBS[n].epilog or "")} == CORE_COMMANDS
    assert len(list(_runnable())) >= 15


@pytest.mark.parametrize("name", sorted(CORE_COMMANDS))
def test_one_command_parser_is_the_full_ones(name):
    """``dipsat NAME ...`` builds only NAME's parser (a faster start): its help, defaults and
    arguments are those of the full parser's NAME."""
    lean = _subparsers(build_parser(variant_commands=False, only=name))
    assert list(lean) == [name]
    assert lean[name].format_help() == SUBS[name].format_help()
    assert ([(a.dest, a.option_strings, a.default, a.nargs) for a in lean[name]._actions]
            == [(a.dest, a.option_strings, a.default, a.nargs) for a in SUBS[name]._actions])
