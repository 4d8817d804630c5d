"""Standard Diplomacy (the 1901 map, seven powers) under the DATC 3.0 rule options."""

from __future__ import annotations

from dipsat.board.notation_additions import SupportsWithMove
from dipsat.game.variant import Variant


class StandardNotation(SupportsWithMove):
    """The core's DATC and MILA notation plus supports written with a move (``A Tyo-Mun sup by
    A Boh``), the form seed 001 uses for its regular-Diplomacy analogies
    (``tests/corpora/multiplomacy/m6_iv_analogy.toml`` runs one on the standard board)."""


VARIANT = Variant(
    name="standard",
    aliases=("classic", "classical", "diplomacy"),
    description="Standard Diplomacy, DATC 3.0 preferences by default; editions 1971, 1982, 2000, dptg as presets",
    map_name="standard",
    default_rules="datc",
    notation_class=StandardNotation,
)
