"""Supremacy house rules (seed 002) — a variant room of its own.

The seed describes an economic wargame rather than a Diplomacy board: superpowers with money,
three resources, a market, bank loans and supply centers; a turn of eight stages (1-2 mandatory,
3-8 won by blind bidding); movement with costs; three battle drills decided by dice.  This
package holds all of it: the board as data (:mod:`.board`, ``world.toml``), the state
(:mod:`.state`), the rule options with every blank of the text (:mod:`.options`), set-up
(:mod:`.setup`), the market, loans, prospects and wealth (:mod:`.economy`), the notation of
actions (:mod:`.actions`), the CP-SAT joint check of a stage's actions (:mod:`.stage`), where new
forces appear (:mod:`.builds`), the drills and their exact distributions (:mod:`.drills`: the
conventional assault; :mod:`.strikes`: nuclear strikes and L-Star clashes), bidding
(:mod:`.bidding`), the game runner (:mod:`.game`), the corpus cases' data (:mod:`.cases`) and the
subcommands of its own (:mod:`.commands`: ``odds``, ``wealth``).  The core knows it only through
its record, a :class:`dipsat.game.protocol.GameRecord`, whose game (:mod:`.protocol`) is the core's
game protocol.
"""

from __future__ import annotations

import argparse
from typing import Callable, Sequence

from dipsat.game.protocol import GameProtocol, GameRecord, VariantCommand


def game() -> GameProtocol:
    from .protocol import SupremacyGame

    return SupremacyGame()


def rules_text() -> str:
    from .options import describe_options

    return describe_options()


def _file_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a Supremacy file: a drill case (odds), a state or a game (wealth); TOML or JSON")
    p.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="set one Supremacy rule option, e.g. preset=strict (repeatable; dipsat rules supremacy lists them)")


def _lazy(name: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        from importlib import import_module

        fn: Callable[[argparse.Namespace], int] = getattr(import_module(f"{__name__}.commands"), name)
        return fn(args)

    return run


def own_commands() -> Sequence[VariantCommand]:
    # Collected when dipsat starts a command that is not the core's: the arguments are declared
    # here, the command module (state models, OR-Tools) is imported when one runs.
    return (
        VariantCommand("odds", "Supremacy: the exact outcome distribution of a battle drill", _file_args, _lazy("cmd_odds"),
                      examples="dipsat odds tests/corpora/supremacy/odds_assault.toml"),
        VariantCommand("wealth", "Supremacy: the wealth table of a state, or of a game file after its turns", _file_args, _lazy("cmd_wealth"),
                      examples="dipsat wealth examples/supremacy_game.toml"),
    )


VARIANT = GameRecord(
    name="supremacy",
    aliases=("supremacy-house", "seed002"),
    description="Supremacy house rules: stages, blind bidding, market, loans, movement costs, dice battle drills",
    summary="the Supremacy house rules' own options (seed 002); see 'dipsat rules supremacy'",
    game=game,
    rules_text=rules_text,
    commands=own_commands,
)
