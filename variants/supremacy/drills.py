"""The three battle drills of Stage 4 (seed 002, "Battle Drills"), played with dice and as exact
outcome distributions.

Conventional Assault (steps 1-6): the attacker pays one set of resources (1 Grain, 1 Oil,
1 Mineral) per tactic selection, at least one; dice: attacker 1, defender 1, +1 to a defender
that paid to Defend, +1 to the side with the most L-Stars, +1 to the side with the most forces
participating (armies do not count in a naval battle); every 3 points rolled (rounded down)
remove one opposing army or navy, the roller's choice (a navy's armies go with it); attacking an
empty foreign territory costs the set and skips the battle; an empty home territory of another
superpower must be attacked to be entered (its owner still rolls).

The Nuclear Strike and L-Star Clash drills are in :mod:`.strikes`.

Every distribution here is exact (fractions over the finite dice space); ``tests/`` check each
against a brute-force run of the drill itself over every possible sequence of dice.
"""

from __future__ import annotations

import re
from dataclasses import field
from fractions import Fraction
from functools import cache
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from dipsat.errors import DipsatError
from dipsat.board.notation import too_long
from dipsat.records import dataclass

from .blockades import check_effects
from .board import RESOURCES, Board
from .dice import Dice
from .options import SupremacyOptions
from .state import Navy, State

OUTER_SPACE = "outer space"
Dist = dict[tuple[int, int], Fraction]  # (attacker losses, defender losses) -> probability


class DrillError(DipsatError):
    """A drill the rules do not allow (with the reason)."""


# ---------------------------------------------------------------- conventional assault --------

class Assault(BaseModel):
    model_config = ConfigDict(extra="forbid")

    drill: Literal["assault"] = "assault"
    attacker: str
    target: str
    forces: list[str] = Field(default_factory=list, description="'2 army us_west', 'navy caribbean'")
    tactics: int = Field(default=1, ge=1, description="tactic selections, one set of resources each")
    defend: bool = Field(default=False, description="the defender paid to Defend")
    attacker_removes: list[str] = Field(default_factory=list, description="the attacker's casualty choice")
    defender_removes: list[str] = Field(default_factory=list, description="the defender's casualty choice")
    occupy: list[str] = Field(default_factory=list, description="participating forces that occupy the zone")
    reinforcements: dict[str, list[str]] = Field(default_factory=dict, description="step 5: movement actions "
                                                 "per power (defender first), to the target or a zone next to it")
    counterattack: bool = False


@dataclass(frozen=True)
class Force:
    """One army or navy in a battle; a navy carries ``aboard`` armies."""

    kind: Literal["army", "navy"]
    zone: str
    aboard: int = 0
    airlift: bool = False  # an army taking part by air from a territory not next to the target

    def label(self) -> str:
        return (("airlift " if self.airlift else "") + f"{self.kind} {self.zone}"
                + (f" (+{self.aboard} armies aboard)" if self.aboard else ""))

    def losses(self) -> int:
        return 1 + self.aboard


_FORCE = re.compile(r"^\s*(airlift\s+)?(?:(\d+)\s+)?(army|armies|navy|navies)\s+(.+?)\s*$", re.I)


def parse_forces(board: Board, texts: list[str], where: str) -> list[tuple[str, str, int]]:
    return [(kind, zone, n) for kind, zone, n, _ in parse_forces_by(board, texts, where)]


def parse_forces_by(board: Board, texts: list[str], where: str) -> list[tuple[str, str, int, bool]]:
    """Forces as (kind, zone, count, by airlift): '2 army us_west', 'navy caribbean', 'airlift army us_east'."""
    out = []
    for t in texts:
        m = _FORCE.match(t) if too_long(t) is None else None
        if not m:
            raise DrillError(f"{where}: {t!r} is not a force ('2 army us_west', 'navy caribbean', 'airlift army us_east')")
        kind = "army" if m.group(3).lower().startswith("arm") else "navy"
        if m.group(1) and kind != "army":
            raise DrillError(f"{where}: {t!r}: only armies are airlifted")
        out.append((kind, board.lookup(m.group(4)), int(m.group(2) or 1), bool(m.group(1))))
    return out


def _adjacent(board: Board, a: str, b: str) -> bool:
    if a in board.territories and b in board.territories:
        return b in board.territories[a].adjacent
    if a in board.seas and b in board.seas:
        return b in board.seas[a].adjacent
    t, s = (a, b) if a in board.territories else (b, a)
    if t not in board.territories or s not in board.seas:
        return False
    return s in board.territories[t].ports or s in board.territories[t].coasts


def attacker_forces(state: State, a: Assault, opts: SupremacyOptions) -> list[Force]:
    board = state.get_board()
    h = state.holdings(a.attacker)
    target = board.lookup(a.target)
    used_navies: dict[str, int] = {}
    out: list[Force] = []
    for kind, zone, n, by_air in parse_forces_by(board, a.forces, f"{a.attacker}'s forces"):
        if by_air:
            opts.need("airlift_assault", f"{a.attacker}'s airlift assault on {board.zone_name(target)}")
            if target not in board.territories or zone not in board.territories:
                raise DrillError(f"{a.attacker}: an airlift assault takes armies from a territory to a territory")
        elif not _adjacent(board, zone, target):
            raise DrillError(f"{a.attacker}: {kind} {board.zone_name(zone)} is not adjacent to {board.zone_name(target)}")
        if kind == "army":
            have = h.armies.get(zone, 0) - sum(1 for f in out if f.kind == "army" and f.zone == zone)
            if n > have:
                raise DrillError(f"{a.attacker} has {have} armies in {board.zone_name(zone)}, not {n}")
            out += [Force("army", zone, 0, by_air)] * n
        else:
            navies = [nv for nv in h.navies if nv.sea == zone]
            k = used_navies.get(zone, 0)
            if k + n > len(navies):
                raise DrillError(f"{a.attacker} has {len(navies)} navies in {board.zone_name(zone)}, not {k + n}")
            out += [Force("navy", zone, nv.armies) for nv in navies[k:k + n]]
            used_navies[zone] = k + n
    if not out:
        raise DrillError(f"{a.attacker}: at least one attacker force must participate (Conventional Assault 1)")
    return out


def defender_forces(state: State, power: Optional[str], zone: str) -> list[Force]:
    if power is None:
        return []
    h = state.holdings(power)
    return [Force("army", zone)] * h.armies.get(zone, 0) + [Force("navy", zone, nv.armies) for nv in h.navies if nv.sea == zone]


@dataclass
class AssaultPlan:
    """Everything the dice do not decide: who fights, how many dice each side rolls and why."""

    attacker: str
    defender: Optional[str]
    target: str
    naval: bool
    battle: bool
    att_forces: list[Force]
    def_forces: list[Force]
    att_dice: int
    def_dice: int
    dice_reasons: dict[str, list[str]]
    cost_sets: int
    defend_sets: int = 0  # the sets of resources the defender pays to Defend (option defender_tactics)


def _count(forces: list[Force], naval: bool) -> int:
    """Forces participating; armies aboard navies are not counted in a naval battle (step 3.6)."""
    return len(forces) + (0 if naval else sum(f.aboard for f in forces))


def plan_assault(state: State, a: Assault, opts: SupremacyOptions) -> AssaultPlan:
    board = state.get_board()
    target = board.lookup(a.target)
    if a.attacker not in state.powers:
        raise DrillError(f"unknown attacker {a.attacker!r}")
    occupants = state.occupants(target)
    if a.attacker in occupants:
        raise DrillError(f"{a.attacker} already holds {board.zone_name(target)}: nothing to attack")
    defender = occupants[0] if occupants else state.controller(target)
    att = attacker_forces(state, a, opts)
    check_effects(state, opts, a.attacker, "assault", sorted({target, *(f.zone for f in att)}),
                  f"{a.attacker}'s assault on {board.zone_name(target)}")
    extra = 0
    if a.tactics > 1 and opts.need("attack_tactics", f"{a.tactics} tactic selections in one assault") == "extra_die":
        extra = a.tactics - 1
    defend_cost = 0
    if a.defend and opts.need("defender_tactics", "the defender's 'Defend'") == "defend_one_set":
        defend_cost = 1
    h = state.holdings(a.attacker)
    for r in RESOURCES:
        if h.resource(r) < a.tactics:
            raise DrillError(f"{a.attacker} cannot pay {a.tactics} set(s) of resources for the assault: has "
                             f"{h.resource(r)} {r} (each selection costs 1 Grain, 1 Oil and 1 Mineral)")
    if a.defend:
        dh = state.holdings(defender) if defender else None
        if dh is None or any(dh.resource(r) < defend_cost for r in RESOURCES):
            raise DrillError(f"{defender or 'nobody'} cannot pay one set of resources to Defend")
    naval = target in board.seas
    empty_foreign = not occupants and (target in board.seas or not board.territories[target].home
                                       or board.territories[target].home not in state.powers)
    defs = defender_forces(state, defender, target) if occupants else []
    reasons: dict[str, list[str]] = {"attacker": ["1 (attacker)"], "defender": ["1 (defender)"]}
    ad, dd = 1, 1
    if extra:
        ad += extra
        reasons["attacker"].append(f"{extra} (tactic selections after the first: attack_tactics 'extra_die')")
    if a.defend:
        dd += 1
        reasons["defender"].append("1 (paid to Defend)")
    if defender is not None:
        al, dl = h.lstars, state.holdings(defender).lstars
        if al != dl or opts.most_tie == "both":
            if al >= dl:
                ad += 1
                reasons["attacker"].append(f"1 (most L-Stars: {al} to {dl})")
            if dl >= al:
                dd += 1
                reasons["defender"].append(f"1 (most L-Stars: {dl} to {al})")
        af, df = _count(att, naval), _count(defs, naval)
        if af != df or opts.most_tie == "both":
            if af >= df:
                ad += 1
                reasons["attacker"].append(f"1 (most forces: {af} to {df}" + (", armies not counted in a naval battle)" if naval else ")"))
            if df >= af:
                dd += 1
                reasons["defender"].append(f"1 (most forces: {df} to {af}" + (", armies not counted in a naval battle)" if naval else ")"))
    return AssaultPlan(a.attacker, defender, target, naval, not empty_foreign, att, defs, ad, dd, reasons, a.tactics,
                       defend_cost)


def choose_casualties(forces: list[Force], hits: int, given: list[str], board: Board, who: str) -> list[Force]:
    """The forces removed by ``hits``: the roller's given choice, else the option ``casualties``
    ('most_damage': loaded navies, most armies first; then armies; then empty navies)."""
    hits = min(hits, len(forces))
    if hits == 0:
        return []
    pool = list(forces)
    out: list[Force] = []
    if given:
        for kind, zone, n in parse_forces(board, given, f"{who}'s casualty choice"):
            for _ in range(n):
                pick = next((f for f in sorted(pool, key=lambda f: -f.aboard) if f.kind == kind and f.zone == zone), None)
                if pick is None:
                    raise DrillError(f"{who}'s casualty choice: no {kind} {board.zone_name(zone)} left to remove")
                pool.remove(pick)
                out.append(pick)
        if len(out) != hits:
            raise DrillError(f"{who}'s casualty choice names {len(out)} forces; the dice remove {hits}")
        return out
    order = sorted(pool, key=lambda f: (0 if f.kind == "navy" and f.aboard else 1 if f.kind == "army" else 2, -f.aboard, f.zone))
    return order[:hits]


@dataclass
class AssaultResult:
    plan: AssaultPlan
    att_rolls: list[int] = field(default_factory=list)
    def_rolls: list[int] = field(default_factory=list)
    att_removed: list[Force] = field(default_factory=list)  # attacker's forces removed
    def_removed: list[Force] = field(default_factory=list)
    occupied: bool = False
    amphibious: bool = False  # the occupation landed armies from a navy
    airlifted: bool = False  # the occupation flew armies in (an airlift assault)
    reinforced: list[str] = field(default_factory=list)

    @property
    def att_losses(self) -> int:
        return sum(f.losses() for f in self.att_removed)

    @property
    def def_losses(self) -> int:
        return sum(f.losses() for f in self.def_removed)

    def facts(self) -> dict[str, object]:
        p = self.plan
        return {"battle": p.battle, "naval": p.naval, "defender": p.defender, "attacker_dice": p.att_dice,
                "defender_dice": p.def_dice, "attacker_rolls": self.att_rolls, "defender_rolls": self.def_rolls,
                "attacker_losses": self.att_losses, "defender_losses": self.def_losses,
                "attacker_removed": [f.label() for f in self.att_removed],
                "defender_removed": [f.label() for f in self.def_removed],
                "occupied": self.occupied, "sets_paid": p.cost_sets, "reinforced": self.reinforced}


def _remove(state: State, power: str, forces: list[Force]) -> None:
    h = state.holdings(power)
    for f in forces:
        if f.kind == "army":
            h.armies[f.zone] -= 1
        else:
            nv = next(n for n in h.navies if n.sea == f.zone and n.armies == f.aboard)
            h.navies.remove(nv)
    h.armies = {z: n for z, n in sorted(h.armies.items()) if n}


def assault(state: State, a: Assault, opts: SupremacyOptions, dice: Dice) -> AssaultResult:
    """Play one conventional assault on ``state`` (changed in place)."""
    board = state.get_board()
    plan = plan_assault(state, a, opts)
    h = state.holdings(a.attacker)
    for r in RESOURCES:
        setattr(h, r, h.resource(r) - plan.cost_sets)
        if a.defend and plan.defender:
            dh = state.holdings(plan.defender)
            setattr(dh, r, dh.resource(r) - plan.defend_sets)
    res = AssaultResult(plan)
    if plan.battle:
        res.att_rolls = dice.rolls(plan.att_dice, "attacker's die")
        res.def_rolls = dice.rolls(plan.def_dice, "defender's die")
        res.def_removed = choose_casualties(plan.def_forces, sum(res.att_rolls) // 3, a.attacker_removes, board,
                                            a.attacker)
        res.att_removed = choose_casualties(plan.att_forces, sum(res.def_rolls) // 3, a.defender_removes, board,
                                            plan.defender or "defender")
        if plan.defender is not None:
            _remove(state, plan.defender, res.def_removed)
        _remove(state, a.attacker, res.att_removed)
    if a.occupy:
        occupy(state, a, plan, res)
    if a.reinforcements:
        reinforce(state, a, plan, res, opts)
    return res


def reinforce(state: State, a: Assault, plan: AssaultPlan, res: AssaultResult, opts: SupremacyOptions) -> None:
    """Step 5: movement by the standard rules (costs as normal), only into the targeted zone (if
    the mover still controls / now occupies it) or a zone next to it; armies landed by an
    amphibious assault may not be withdrawn.  The defender moves first."""
    from .actions import parse_actions
    from .stage import run_stage

    board = state.get_board()
    target = plan.target
    sides = [p for p in (plan.defender, a.attacker) if p is not None and p in a.reinforcements]
    for p in a.reinforcements:
        if p not in (plan.defender, a.attacker):
            raise DrillError(f"reinforcements: {p} is neither the attacker nor the defender of this assault")
    for p in sides:
        holds = state.controller(target) == p
        landed = state.landings.get(p, []) if p == a.attacker else []
        allowed = {z for z in [*board.territories, *board.seas] if _adjacent(board, z, target)} | ({target} if holds else set())
        for act in parse_actions(board, p, a.reinforcements[p]):
            dst = act.dst
            if dst not in allowed and not (dst in landed and act.verb in ("march", "airlift", "unload")):
                why = "the target, which it does not hold," if dst == target else board.zone_name(dst)
                raise DrillError(f"reinforcement {act.text!r}: {p} may only move to the targeted zone (if it holds "
                                 f"it), a zone next to it, or an enemy territory its armies hold from an airlift or "
                                 f"amphibious assault; not to {why}")
            if act.src in landed and act.verb in ("march", "airlift", "board"):
                raise DrillError(f"reinforcement {act.text!r}: armies in an enemy territory due to an airlift or "
                                 "amphibious assault may not be withdrawn")
        for line in run_stage(state, p, 5, a.reinforcements[p], opts):
            res.reinforced.append(f"{p}: {line}")


def occupy(state: State, a: Assault, plan: AssaultPlan, res: AssaultResult) -> None:
    """Step 4: no defender left and at least one attacker left; standard movement costs."""
    board = state.get_board()
    left = list(plan.att_forces)
    for f in res.att_removed:
        left.remove(f)
    if len(res.def_removed) < len(plan.def_forces) or not left:
        raise DrillError(f"{a.attacker} cannot occupy {board.zone_name(plan.target)}: "
                         + ("defender forces remain" if len(res.def_removed) < len(plan.def_forces) else "no attacker force remains"))
    h = state.holdings(a.attacker)
    grain = oil = 0
    moves = parse_forces_by(board, a.occupy, f"{a.attacker}'s occupation")
    for kind, zone, n, by_air in moves:
        for _ in range(n):
            found = next((x for x in left if x.kind == kind and x.zone == zone and x.airlift == by_air), None)
            if found is None:
                raise DrillError(f"{a.attacker}'s occupation: no surviving participating "
                                 f"{'airlifted ' if by_air else ''}{kind} {board.zone_name(zone)}")
            f = found
            left.remove(f)
            if kind == "army":
                if plan.target not in board.territories:
                    raise DrillError("an army cannot occupy a sea")
                if f.airlift:
                    oil += 2  # airlift
                    res.airlifted = True
                else:
                    grain += 1  # march
                h.armies[zone] -= 1
                h.armies[plan.target] = h.armies.get(plan.target, 0) + 1
            elif plan.target in board.seas:
                oil += 1  # sail
                nv = next(x for x in h.navies if x.sea == zone and x.armies == f.aboard)
                nv.sea = plan.target
            else:  # a navy's armies land: unload, free, ports only
                if zone not in board.territories[plan.target].ports:
                    raise DrillError(f"armies aboard a navy in {board.zone_name(zone)} cannot unload into "
                                     f"{board.zone_name(plan.target)}: it has no port into that sea")
                nv = next(x for x in h.navies if x.sea == zone and x.armies == f.aboard)
                h.armies[plan.target] = h.armies.get(plan.target, 0) + nv.armies
                nv.armies = 0
                res.amphibious = True
    if h.grain < grain or h.oil < oil:
        raise DrillError(f"{a.attacker} cannot pay the occupation: {grain} Grain and {oil} Oil needed, has "
                         f"{h.grain} Grain and {h.oil} Oil")
    h.grain -= grain
    h.oil -= oil
    h.armies = {z: n for z, n in sorted(h.armies.items()) if n}
    res.occupied = True
    if res.amphibious or res.airlifted:  # Reinforcements 5.2: these armies stay, and may be reinforced
        zones = state.landings.setdefault(a.attacker, [])
        if plan.target not in zones:
            zones.append(plan.target)


@cache
def sum_dist(n: int) -> dict[int, Fraction]:
    """The exact distribution of the sum of ``n`` six-sided dice."""
    d: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(n):
        nd: dict[int, Fraction] = {}
        for s, p in d.items():
            for k in range(1, 7):
                nd[s + k] = nd.get(s + k, Fraction(0)) + p / 6
        d = nd
    return d


def assault_distribution(state: State, a: Assault, opts: SupremacyOptions) -> Dist:
    """Exact distribution of (attacker forces lost, defender forces lost) of one assault, with the
    default casualty choice (or the given one, when it fits every roll)."""
    plan = plan_assault(state, a, opts)
    board = state.get_board()
    if not plan.battle:
        return {(0, 0): Fraction(1)}
    out: Dist = {}
    for sa, pa in sum_dist(plan.att_dice).items():
        dl = sum(f.losses() for f in choose_casualties(plan.def_forces, sa // 3, [], board, a.attacker))
        for sd, pd in sum_dist(plan.def_dice).items():
            al = sum(f.losses() for f in choose_casualties(plan.att_forces, sd // 3, [], board, "defender"))
            out[(al, dl)] = out.get((al, dl), Fraction(0)) + pa * pd
    return dict(sorted(out.items()))
