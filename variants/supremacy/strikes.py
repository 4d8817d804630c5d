"""The Nuclear Strike and L-Star Clash drills of Stage 4 (seed 002, "Battle Drills"), played
with dice and as exact outcome distributions (the Conventional Assault is in :mod:`.drills`).

Nuclear Strike (steps 1-6): nukes fired at zones or "outer space", retributive strikes only at
zones the attacker controls, the L-Star screen (a defender's chit hits on 1-5, a champion's on
1-3), the winds of fate (a 6 fails the nuke); fallout (step 6) is blank: option ``fallout``,
asked only for a nuke that strikes something it could damage.

L-Star Clash (steps 1-2): duels; the low roller loses an L-Star, a tie loses both; a group
attacking one L-Star stops when it falls.
"""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction
from functools import cache
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from .dice import Dice
from .drills import OUTER_SPACE, Dist, DrillError
from .options import SupremacyOptions
from .state import State

from dipsat.records import dataclass


# ---------------------------------------------------------------- nuclear strike --------------

class Strike(BaseModel):
    model_config = ConfigDict(extra="forbid")

    power: str
    targets: list[str] = Field(description="one zone (or 'outer space') per nuke fired")
    retributive: bool = False


class Screen(BaseModel):
    model_config = ConfigDict(extra="forbid")

    power: str
    nuke: int = Field(ge=1, description="the nuke targeted, numbered 1.. in the order fired")
    lstars: int = Field(default=1, ge=1)


class NuclearStrike(BaseModel):
    model_config = ConfigDict(extra="forbid")

    drill: Literal["nuclear"] = "nuclear"
    strikes: list[Strike]
    bidders: list[str] = Field(default_factory=list, description="players who bid a chit on Stage 4")
    champions: list[str] = Field(default_factory=list, description="players who spend a chit to champion")
    champions_before: list[str] = Field(default_factory=list, description="players who became champions earlier "
                                        "in this stage: 'This lasts for the rest of the stage' (no second chit)")
    screens: list[Screen] = Field(default_factory=list)
    counterattack: bool = False
    first_strike: bool = Field(default=False, description="a First Strike (Nuclear Strike 7: not answered by a "
                               "counterattack; the term is not defined: option first_strike)")


@dataclass
class Nuke:
    number: int
    owner: str
    target: str  # zone id or OUTER_SPACE
    victim: Optional[str]
    chits: list[tuple[str, str]] = field(default_factory=list)  # (power, "defender" | "champion")
    rolls: list[int] = field(default_factory=list)
    fate: Optional[int] = None
    result: str = "strikes"


def plan_nuclear(state: State, n: NuclearStrike) -> list[Nuke]:
    board = state.get_board()
    if not n.strikes or n.strikes[0].retributive:
        raise DrillError("a nuclear strike starts with the attacker's own (not retributive) strike")
    attacker = n.strikes[0].power
    nukes: list[Nuke] = []
    fired: dict[str, int] = {}
    for s in n.strikes:
        if s.power not in state.powers:
            raise DrillError(f"unknown superpower {s.power!r}")
        if s.retributive:
            if s.power == attacker or not any(k.victim == s.power for k in nukes if k.owner == attacker):
                raise DrillError(f"{s.power}: only a player the attacker targeted may strike back")
            if s.power not in n.bidders:
                raise DrillError(f"{s.power}: a retributive strike needs a chit bid on this stage (Nuclear Strike 2)")
        elif s is not n.strikes[0]:
            raise DrillError("only the first strike of a drill is the attacker's; the others are retributive")
        for t in s.targets:
            if t.strip().lower() == OUTER_SPACE:
                if s.retributive:
                    raise DrillError(f"{s.power}: a retributive strike cannot target outer space")
                zone, victim = OUTER_SPACE, None
            else:
                zone = board.lookup(t)
                victim = state.controller(zone)
                if s.retributive and victim != attacker:
                    raise DrillError(f"{s.power}: a retributive strike may only target zones {attacker} controls, "
                                     f"not {board.zone_name(zone)}")
            nukes.append(Nuke(len(nukes) + 1, s.power, zone, victim))
        fired[s.power] = fired.get(s.power, 0) + len(s.targets)
    for p, k in fired.items():
        if k > state.holdings(p).nukes:
            raise DrillError(f"{p} fires {k} nukes but has {state.holdings(p).nukes} in its supply center")
    used: dict[str, int] = {}
    for sc in n.screens:
        if sc.nuke > len(nukes):
            raise DrillError(f"{sc.power}'s L-Star screen: there is no nuke {sc.nuke} (fired: {len(nukes)})")
        nk = nukes[sc.nuke - 1]
        if nk.victim == sc.power:
            role = "defender"
        elif sc.power in n.champions:
            if nk.target == OUTER_SPACE:
                raise DrillError(f"{sc.power}: champions may not shoot at nukes aimed into outer space")
            role = "champion"
        else:
            raise DrillError(f"{sc.power}: nuke {sc.nuke} is not aimed at it; shooting it down needs a champion's chit")
        used[sc.power] = used.get(sc.power, 0) + sc.lstars
        nk.chits += [(sc.power, role)] * sc.lstars
    for p, k in used.items():
        if k > state.holdings(p).lstars:
            raise DrillError(f"{p} screens with {k} L-Stars but has {state.holdings(p).lstars}")
    for p in n.champions:
        if p not in n.champions_before and state.holdings(p).chits < 1:
            raise DrillError(f"{p} has no bid chit left to become a champion")
    return nukes


def nuclear(state: State, n: NuclearStrike, opts: SupremacyOptions, dice: Dice) -> list[Nuke]:
    if n.first_strike:
        opts.need("first_strike", "a nuclear strike declared a First Strike")
    nukes = plan_nuclear(state, n)
    for k in nukes:
        state.holdings(k.owner).nukes -= 1
    for p in n.champions:
        if p not in n.champions_before:
            state.holdings(p).chits -= 1
    for k in nukes:  # L-Star screen: one die per chit on each nuke
        for power, role in k.chits:
            r = dice.roll(6, f"{power}'s L-Star on nuke {k.number}")
            k.rolls.append(r)
            if k.result == "strikes" and r <= (5 if role == "defender" else 3):
                k.result = f"shot down by {power} ({role})"
    for k in nukes:  # winds of fate
        if k.result == "strikes":
            k.fate = dice.roll(6, f"winds of fate, nuke {k.number}")
            if k.fate == 6:
                k.result = "failed (winds of fate)"
    fallout(state, [k for k in nukes if k.result == "strikes"], opts)
    return nukes


def fallout(state: State, hits: list[Nuke], opts: SupremacyOptions) -> None:
    """Nuclear Strike 6 (blank; option ``fallout``): the damage of the nukes that strike.  A nuke
    that strikes outer space, or a zone with no force and no face-up company in it, has nothing to
    damage, so the rule is asked only for a nuke that strikes something."""
    board = state.get_board()

    def exposed(zone: str) -> bool:
        return any(h.armies.get(zone) or any(nv.sea == zone for nv in h.navies)
                   or any(c.face_up and board.company(c.id).zone == zone for c in h.companies)
                   for h in state.powers.values())

    damaged = [k for k in hits if k.target != OUTER_SPACE and exposed(k.target)]
    if not damaged:
        return
    effect = opts.need("fallout", f"nuke {damaged[0].number} striking {board.zone_name(damaged[0].target)}")
    if effect == "none":
        return
    for zone in sorted({k.target for k in damaged}):
        for h in state.powers.values():
            h.armies.pop(zone, None)
            h.navies = [nv for nv in h.navies if nv.sea != zone]
            if effect == "forces_and_companies":
                for c in h.companies:
                    if board.company(c.id).zone == zone:
                        c.face_up = False


def nuke_probability(chits: list[tuple[str, str]]) -> Fraction:
    """P(a nuke strikes) = P(every screen die misses) * P(no 6 on the winds of fate)."""
    p = Fraction(1)
    for _, role in chits:
        p *= Fraction(1, 6) if role == "defender" else Fraction(1, 2)
    return p * Fraction(5, 6)


def nuclear_distribution(state: State, n: NuclearStrike) -> dict[int, Fraction]:
    """Exact distribution of the number of nukes that strike."""
    d: dict[int, Fraction] = {0: Fraction(1)}
    for k in plan_nuclear(state, n):
        p = nuke_probability(k.chits)
        nd: dict[int, Fraction] = {}
        for c, q in d.items():
            nd[c + 1] = nd.get(c + 1, Fraction(0)) + q * p
            nd[c] = nd.get(c, Fraction(0)) + q * (1 - p)
        d = nd
    return dict(sorted(d.items()))


# ---------------------------------------------------------------- L-Star clash ----------------

class ClashGroup(BaseModel):
    model_config = ConfigDict(extra="forbid")

    target: str = Field(description="the superpower owning the attacked L-Star")
    attackers: int = Field(default=1, ge=1, description="L-Stars attacking this one L-Star")


class Clash(BaseModel):
    model_config = ConfigDict(extra="forbid")

    drill: Literal["clash"] = "clash"
    attacker: str
    groups: list[ClashGroup]
    counterattack_of: Optional[str] = Field(default=None, description="in a counterattack: the original attacker")


@dataclass
class Duel:
    group: int
    target: str
    attacker_roll: int
    defender_roll: int
    result: str


def check_clash(state: State, c: Clash) -> None:
    h = state.holdings(c.attacker)
    total = sum(g.attackers for g in c.groups)
    if total > h.lstars:
        raise DrillError(f"{c.attacker} attacks with {total} L-Stars but has {h.lstars}")
    per: dict[str, int] = {}
    for g in c.groups:
        if g.target == c.attacker:
            raise DrillError(f"{c.attacker} cannot attack its own L-Stars")
        if c.counterattack_of and g.target != c.counterattack_of:
            raise DrillError(f"in a counterattack only the original attacker's ({c.counterattack_of}) L-Stars can be attacked")
        per[g.target] = per.get(g.target, 0) + 1
    for p, k in per.items():
        if k > state.holdings(p).lstars:
            raise DrillError(f"{c.attacker} targets {k} of {p}'s L-Stars; {p} has {state.holdings(p).lstars}")


def clash(state: State, c: Clash, dice: Dice) -> list[Duel]:
    check_clash(state, c)
    duels: list[Duel] = []
    for i, g in enumerate(c.groups, 1):
        for _ in range(g.attackers):
            a = dice.roll(6, f"{c.attacker}'s L-Star, group {i}")
            d = dice.roll(6, f"{g.target}'s L-Star, group {i}")
            if a == d:
                result = "both lose an L-Star"
            else:
                result = f"{c.attacker if a < d else g.target} loses an L-Star"
            if a <= d:
                state.holdings(c.attacker).lstars -= 1
            if d <= a:
                state.holdings(g.target).lstars -= 1
            duels.append(Duel(i, g.target, a, d, result))
            if d <= a:
                break  # the defending L-Star fell: the rest of the group does nothing
    return duels


@cache
def group_distribution(k: int) -> dict[tuple[int, int], Fraction]:
    """(attacker L-Stars lost, defender L-Stars lost) of ``k`` L-Stars attacking one."""
    win, lose, tie = Fraction(15, 36), Fraction(15, 36), Fraction(6, 36)  # attacker higher / lower / equal
    out: dict[tuple[int, int], Fraction] = {}
    p_alive = Fraction(1)
    for i in range(k):
        # duel i+1 happens with probability p_alive (all previous attackers lost)
        out[(i, 1)] = out.get((i, 1), Fraction(0)) + p_alive * win
        out[(i + 1, 1)] = out.get((i + 1, 1), Fraction(0)) + p_alive * tie
        p_alive *= lose
    out[(k, 0)] = out.get((k, 0), Fraction(0)) + p_alive
    return out


def clash_distribution(state: State, c: Clash) -> Dist:
    check_clash(state, c)
    d: Dist = {(0, 0): Fraction(1)}
    for g in c.groups:
        nd: Dist = {}
        for (a1, d1), p in d.items():
            for (a2, d2), q in group_distribution(g.attackers).items():
                key = (a1 + a2, d1 + d2)
                nd[key] = nd.get(key, Fraction(0)) + p * q
        d = nd
    return dict(sorted(d.items()))
