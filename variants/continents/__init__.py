"""Continents and free cities (seed 004): a second game family on the same solver.

Not a Diplomacy map but a game of the same family: players hold countries with as many units as
the country has border connections; free cities breed units; a player wins with a majority of the
countries on three continents.  Orders are ordered lists (earlier orders have priority), battles
are fought by unit counts and every side loses.

The variant owns its whole pipeline (:class:`dipsat.family.Family`): its map format
(:mod:`dipsat.maps.continental`), notation (:mod:`.notation`), rule options (:mod:`.rules`), the
round's equations over integer unit counts solved by CP-SAT (:mod:`.equations`, :mod:`.round`),
set-up and the game (:mod:`.game`) and the research commands (:mod:`.research`).
"""

from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel

from dipsat.family import Family
from dipsat.variant import Variant


def family() -> Optional[Family]:
    from .commands import ContinentsCommands  # imported when used: starting dipsat stays cheap

    return ContinentsCommands()


def reading_options(variant: Variant) -> type[BaseModel]:
    from .rules import ContinentsRules

    return ContinentsRules


def render_file(data: Any, where: str, phase: Optional[str] = None, title: Optional[str] = None) -> Optional[str]:
    from .picture import render_file

    return render_file(data, where, phase, title)


VARIANT = Variant(
    name="continents",
    aliases=("continents-and-free-cities", "free-cities", "004"),
    description="continents and free cities (seed 004): unit counts, ordered order lists, multi-way battles",
    reading_options=reading_options,
    family=family,
    render_file=render_file,
)
