"""Continents and free cities (seed 004): a second game family on the same solver.

Not a Diplomacy map but a game of the same family: players hold countries with as many units as
the country has border connections; free cities breed units; a player wins with a majority of the
countries on three continents.  Orders are ordered lists (earlier orders have priority), battles
are fought by unit counts and every side loses.

Its record is a :class:`dipsat.game.protocol.GameRecord` (none of a Diplomacy board's hooks); its
game is :class:`.protocol.ContinentsGame`, the core's game protocol over its map format
(:mod:`dipsat.maps.continental`), notation (:mod:`.notation`), rule options (:mod:`.rules`), the
round's equations over integer unit counts solved by CP-SAT (:mod:`.equations`, :mod:`.round`),
set-up and the game (:mod:`.game`).
"""

from __future__ import annotations

from dipsat.game.protocol import GameProtocol, GameRecord


def game() -> GameProtocol:
    from .protocol import ContinentsGame  # imported when used: starting dipsat stays cheap

    return ContinentsGame()


def rules_text() -> str:
    from .rules import continents_preset, describe

    return describe(continents_preset(None))


VARIANT = GameRecord(
    name="continents",
    aliases=("continents-and-free-cities", "free-cities", "004"),
    description="continents and free cities (seed 004): unit counts, ordered order lists, multi-way battles",
    summary="the continents variant's own rules (seed 004): 'continents' or OPTION=VALUE; see 'dipsat rules continents'",
    game=game,
    rules_text=rules_text,
)
