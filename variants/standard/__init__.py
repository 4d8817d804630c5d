"""Standard Diplomacy (the 1901 map, seven powers) under the DATC 3.0 rule options."""

from __future__ import annotations

from dipsat.variant import Variant

VARIANT = Variant(
    name="standard",
    aliases=("classic", "classical", "diplomacy"),
    description="Standard Diplomacy, DATC 3.0 preferences by default; editions 1971, 1982, 2000, dptg as presets",
    map_name="standard",
    default_rules="datc",
)
