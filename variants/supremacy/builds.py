"""Stage 6 - Build Forces and Weapons (seed 002): a heading without text.  What a build costs
(option ``build_costs``) and where a new force appears (option ``build_placement``) are the
blanks; this module answers the second."""

from __future__ import annotations

from .state import State


def build_zones(state: State, power: str, item: str, rule: str) -> list[str]:
    """Where a new army or navy may appear (option ``build_placement``): 'home' — a home territory
    the player controls, or a light-blue sea one of those has a port into; 'occupied' — a
    territory the player occupies (Setting Up 5: 'Armies may be placed in any occupied
    territory'), or a light-blue sea a territory it controls has a port into."""
    b = state.get_board()
    if rule == "home":
        land = [t for t in b.homes(power) if state.controller(t) == power]
    else:
        land = sorted(t for t in b.territories if state.controller(t) == power)
    if item == "army":
        return land if rule == "home" else [t for t in land if state.holdings(power).armies.get(t)]
    return sorted({s for t in land for s in b.territories[t].ports if b.seas[s].light_blue})
