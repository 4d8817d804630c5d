"""Supremacy house rules (seed 002) — a variant room of its own.

The seed describes an economic wargame rather than a Diplomacy board: superpowers with money,
three resources, a market, bank loans and supply centers; a turn of eight stages (1-2 mandatory,
3-8 won by blind bidding); movement with costs; three battle drills decided by dice.  This
package holds all of it: the board as data (:mod:`.board`, ``world.toml``), the state
(:mod:`.state`), the rule options with every blank of the text (:mod:`.options`), set-up
(:mod:`.setup`), the market, loans, prospects and wealth (:mod:`.economy`), the notation of
actions (:mod:`.actions`), the CP-SAT joint check of a stage's actions (:mod:`.stage`), where new
forces appear (:mod:`.builds`), the drills and their exact distributions (:mod:`.drills`: the
conventional assault; :mod:`.strikes`: nuclear strikes and L-Star clashes), bidding (:mod:`.bidding`), the game runner
(:mod:`.game`), and the adapters to the core's corpus runner and CLI (:mod:`.cases`,
:mod:`.commands`, :mod:`.family`).  The core knows it only through the generic hooks of
its :class:`dipsat.variant.Variant` record and its one seam for another game family, the ``family`` hook.
"""

from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel

from dipsat.family import Family
from dipsat.variant import Variant


def family() -> Optional[Family]:
    from .family import SupremacyFamily

    return SupremacyFamily()


def reading_options(variant: Variant) -> type[BaseModel]:
    from .options import SupremacyOptions

    return SupremacyOptions


def render_file(data: Any, where: str, phase: Optional[str] = None, title: Optional[str] = None) -> Optional[str]:
    from .picture import render_file

    return render_file(data, where, phase, title)


VARIANT = Variant(
    name="supremacy",
    aliases=("supremacy-house", "seed002"),
    description="Supremacy house rules: stages, blind bidding, market, loans, movement costs, dice battle drills",
    reading_options=reading_options,
    family=family,
    render_file=render_file,
)
