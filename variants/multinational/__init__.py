"""Multinational (Rien Kooy) — seed 000.

A USA/Canada/Mexico map (``maps/multinational.toml``: 52 states, 5 seas; derived, with its
judgement calls J1–J17 recorded in the file).  Seven multinationals (AT, CC, EX, GM, IB, PM, TW)
with three kinds of *power* instead of armies and fleets.  A kind is data (:data:`KINDS`):
defensive strength, attacking strength per distance (bordering, second line, third line,
counted over LAND only), and whether it may enter seas and convoy.

Movement (rule 7), through the core's hooks:

* attacking strength = the power's strength at its distance from the target (a convoyed attack
  counts as an attack on a bordering state) + each successful supporter's own attacking strength
  against that state; the *revised* attacking strength leaves out the supports of the defender's
  multinational (the core's restricted attack);
* defending strength = 3 + hold supports; none when the occupant moves out successfully; a power
  whose attack fails defends with 3;
* the highest attack must be unique; equal reciprocal attacks both fail (unequal ones:
  rule option ``mn_head_to_head``); never a success against one's own multinational;
  self-standoffs allowed;
* a support is cut by any attack from another multinational except from the state it supports
  an attack on; a convoy needs every convoying M (any route broken breaks it, "if one convoy
  order fails the whole convoy fails");
* a fly-over (``M Clm – Mri FO Alb Mon Sda Neb Kan``) is no attack: it crosses no sea, no
  uncontrolled capacity centre, only neutral, own or allowed states (``AL`` orders), ends on a
  neutral or own controlled state, at most two per multinational a year, and fails on a conflict
  (rule option ``mn_flyover_conflict``).

The seed's slips: the "military power" of ``E Mai – Nca`` is a wrong kind letter, which DATC
4.C.2's ``wrong_unit_kind = "ignore"`` (default; ``"fail"`` makes such orders illegal) reads
past; "defensive strength of the attacking power" reads as the defending power's
(``mn_defensive_strength_of = "defending_power"``; every kind defends with 3, so with the seed's
kind table the literal reading, ``"attacking_power"``, gives the same results).  Example f's ``E Clm S A Sas –
Alb`` contradicts the seed's own figures, which count Clm for Alb's attack on Sas: the corpus
runs the corrected order (``mn_f``) and, separately, the text as written with the wrong letter
read past (``mn_f_as_written``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dipsat.errors import PositionError
from dipsat.models import Position
from dipsat.game.variant import Victory
from dipsat.game.variant import Variant, home_owners
from dipsat.variants.multinational.movement import MultinationalRules
from dipsat.variants.multinational.notation import FlyOver, MultinationalNotation
from dipsat.variants.multinational.options import KINDS, MultinationalOptions
from dipsat.variants.multinational.orders import (
    MultinationalBinder,
    MultinationalGeography,
)
from dipsat.variants.multinational.phases import build_sites, calendar

if TYPE_CHECKING:
    from dipsat.face.render import RenderHints


def render_hints(pos: Position) -> "RenderHints":
    """Pictures: the legend names the power kinds whose letters the unit tokens show."""
    from dipsat.face.render import RenderHints

    return RenderHints(notes=tuple(f"{k} {KINDS[k]['name']}" for k in sorted(KINDS)))


def check_position(variant: Variant, pos: Position) -> None:
    m = variant.map
    seen: dict[str, str] = {}
    for u in pos.units:
        if u.kind not in KINDS:
            raise PositionError(f"{u.label()}: Multinational powers are E, M or P, not {u.kind!r}")
        p = m.provinces.get(u.province)
        if p is None:
            raise PositionError(f"{u.label()}: unknown state {u.province!r}")
        if p.is_sea and not KINDS[u.kind]["seas"]:
            raise PositionError(f"{u.label()}: only a Military power may be in a sea area")
        if u.power not in m.powers:
            raise PositionError(f"{u.label()}: unknown multinational {u.power!r}; known: {', '.join(m.powers)}")
        if u.province in seen:
            raise PositionError(f"two powers in {p.name}: only one power at a time can stay in a state")
        seen[u.province] = u.power


VARIANT = Variant(
    name="multinational",
    aliases=("kooy",),
    description="Multinational (Rien Kooy): powers E, M, P with ranges, fly-overs, allowances",
    map_name="multinational",
    unit_kinds=tuple(KINDS),
    check_position=check_position,
    # Rule 4: "The seven Multinationals control each at the start of the game three capacity
    # centers, which are their home centers" - the control of a position given without [owners]
    default_owners=home_owners,
    build_sites=build_sites,
    options_model=MultinationalOptions,
    default_rules="datc",
    rule_overrides={
        "multi_route_disruption": "any_route",  # "if one convoy order fails the whole convoy fails"
        "adjacent_convoy": "2000",
    },
    readings=(
        "Control without [owners]: each multinational controls its three home centres (rule 4: 'The seven "
        "Multinationals control each at the start of the game three capacity centers, which are their home centers').",
        "1990 placement: a power the orders do not place goes on the home centre the seed's table names for its "
        "kind (rule 4: 'H Uta (MP), Neb (EP), Kan (PP)'), or the first free home centre; it is reported "
        "'placed by default' ('They are free to decide to divide these powers over their home center').",
        "A fly-over may cross a state its multinational controls though another occupies it, and never an "
        "uncontrolled capacity centre, even one it occupies (rule 6: 'over your own occupied or controlled states'; "
        "'nor can you fly over an uncontrolled SC').",
        "When no home centre is free, one build on another free controlled centre, and the game opens the "
        "adjustment phase for it (rule 8: 'only in case no home center is available ... only one power can be "
        "build this way').",
        "A convoy order whose power has no convoy path is reported not carried out, though the M stays "
        "(rule 7: 'A convoy order itself always succeeds ... but the actual convoy can always fail').",
    ),
    order_kinds=(FlyOver,),
    notation_class=MultinationalNotation,
    geography_class=MultinationalGeography,
    binder_class=MultinationalBinder,
    movement_rules_class=MultinationalRules,
    calendar=calendar,
    victory=Victory(centres=18, shared=26),  # two players together, both claiming in the same year
    render_hints=render_hints,
)
