"""Multinational's power kinds (rule 2's table as data) and its rule options: the seed's gaps and
slips, each a named option with its default."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from dipsat.rules import RuleOptions

class PowerKind(TypedDict):
    """A row of rule 2's table: a power kind's name, defensive strength, attacking strength by
    distance (states away), whether it goes to sea and convoys."""

    name: str
    defence: int
    attack: dict[int, int]
    seas: bool
    convoys: NotRequired[bool]


KINDS: dict[str, PowerKind] = {
    "E": {"name": "Economical", "defence": 3, "attack": {1: 2, 2: 2}, "seas": False},
    "M": {"name": "Military", "defence": 3, "attack": {1: 3}, "seas": True, "convoys": True},
    "P": {"name": "Political", "defence": 3, "attack": {1: 1, 2: 1, 3: 1}, "seas": False},
}

class MultinationalOptions(RuleOptions):
    """The core's options plus the seed's gaps and slips (see the module docstring)."""

    # a reciprocal attack with UNEQUAL strengths: "stronger_wins" (the stronger gets in),
    # "both_fail", "both_succeed" (no battle, the powers swap)
    mn_head_to_head: Literal["stronger_wins", "both_fail", "both_succeed"] = "stronger_wins"
    # what conflicts with a fly-over: "destination" (another order aimed at its destination) or
    # "any_involvement" (also an order aimed at its own state or a state on its route)
    mn_flyover_conflict: Literal["destination", "any_involvement"] = "destination"
    # a state on a fly-over's route that one multinational occupies and another controls: whose
    # allowance lets a third fly over it ("either" of them, or "all": both)
    mn_flyover_allowance_from: Literal["either", "all"] = "either"
    # a convoy order of an M that is on no route of the convoyed move: "all_given" (legal; the
    # convoy fails if it fails: "all convoy orders must be successful") or "on_route" (illegal and
    # of no effect, as DATC 6.G.19 has it for standard Diplomacy)
    mn_convoy_orders: Literal["all_given", "on_route"] = "all_given"
    # the default retreat (rule 8: "to a neutral state, an uncontrolled state (not being a home
    # center of any multinational) and a home center"): a capacity centre some multinational
    # controls that is no home centre is in none of the three; it ranks "after_home" (last) or
    # "with_home" (lots drawn among it and the home centres)
    mn_default_retreat_controlled: Literal["after_home", "with_home"] = "after_home"
    # the seed's slip "defensive strength of the attacking power": whose kind's defence counts
    mn_defensive_strength_of: Literal["defending_power", "attacking_power"] = "defending_power"


MULTINATIONALS = {"at": "AT", "cc": "CC", "ex": "EX", "gm": "GM", "ib": "IB", "pm": "PM", "tw": "TW"}
