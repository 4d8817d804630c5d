"""Supremacy house rules (seed 002) — a variant room of its own.

The seed describes an economic wargame rather than a Diplomacy board: superpowers with money,
three resources, a market, bank loans and supply centers; a turn of eight stages (1-2 mandatory,
3-8 won by blind bidding); movement with costs; three battle drills decided by dice.  This
package holds all of it: the board as data (:mod:`.board`, ``world.toml``), the state
(:mod:`.state`), the rule options with every blank of the text (:mod:`.options`), set-up
(:mod:`.setup`), the market, loans and wealth (:mod:`.economy`), the notation of actions
(:mod:`.actions`), the CP-SAT joint check of a stage's actions (:mod:`.stage`), the drills and
their exact distributions (:mod:`.drills`), bidding (:mod:`.bidding`), the game runner
(:mod:`.game`), and the adapters to the core's corpus runner and CLI (:mod:`.cases`,
:mod:`.commands`).  The core knows it only through the generic hooks of
:class:`dipsat.variant.Variant`.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable, Optional, Sequence

from pydantic import BaseModel

from dipsat.variant import Variant, VariantCommand


class Supremacy(Variant):
    name = "supremacy"
    aliases = ("supremacy-house", "seed002")
    description = "Supremacy house rules: stages, blind bidding, market, loans, movement costs, dice battle drills"

    def run_case(self, case: Any, rules: str, expectation: Any) -> Optional[list[str]]:
        from .cases import check_facts

        return check_facts(dict(case.data), dict(expectation.options), dict(expectation.facts))

    def commands(self) -> Sequence[VariantCommand]:
        # Collected whenever dipsat starts: the arguments are declared here and the command
        # module (state models, OR-Tools) is imported only when one of these commands runs.
        return (
            VariantCommand("odds", "Supremacy: the exact outcome distribution of a battle drill", _file_args, _lazy("cmd_odds")),
            VariantCommand("wealth", "Supremacy: the wealth table of a state", _file_args, _lazy("cmd_wealth")),
        )

    def command_for(self, name: str) -> Optional[Callable[[argparse.Namespace], int]]:
        from . import commands as c

        return {"why": c.cmd_why, "compare": c.cmd_compare, "play": c.cmd_play, "adjudicate": c.cmd_adjudicate}.get(name)

    def render_file(self, data: Any, where: str, phase: Optional[str] = None, title: Optional[str] = None) -> Optional[str]:
        from .picture import render_file

        return render_file(data, where, phase, title)

    def reading_options(self) -> type[BaseModel]:
        from .options import SupremacyOptions

        return SupremacyOptions

    def rules_text(self) -> Optional[str]:
        from .options import describe_options

        return describe_options()


def _file_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("file")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a Supremacy rule option")


def _lazy(name: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        from . import commands

        fn: Callable[[argparse.Namespace], int] = getattr(commands, name)
        return fn(args)

    return run
