"""Setting Up (seed 002, "Setting Up" 1-7): from the players' choices and the dice to the first
state.

* Money: $7 billion, or d5+4 billion for a player who gives that up (``money = "d5+4"``).
* Companies: each player draws 4 from its superpower's pile and is dealt 2 from the shuffled
  non-superpower pile; when two or more players hold companies in the same zone, all of those
  are returned and redrawn (in player order) until no zone is shared: from the undealt
  non-superpower companies with the returned ones shuffled in (option ``redraw_from``).  The
  companies nobody holds then make up the resource deck (``State.deck``).  Given ``companies`` replace the draw and are checked against the same rules.
* Forces: one army in each home territory and each foreign territory holding one of the player's
  companies, plus 9 chosen armies and/or navies: armies in occupied territories, navies only in
  light-blue seas where the player is the only superpower (in the game) with port access (option
  ``navy_start_ports``), no army on board.
* Resources: 3 Grain, 3 Oil, 3 Mineral plus 9 chosen (at most 12 of each, Supply Centers 2).
* Market: each resource starts at step 2d6 of the track, unless given.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from dipsat.errors import DipsatError

from .board import RESOURCES, Board, Resource, board_named
from .dice import Dice
from .options import SupremacyOptions
from .state import CAPACITY, CompanyCard, Holdings, Navy, State

CHOSEN_FORCES = 9
CHOSEN_RESOURCES = 9
START_EACH = 3
OWN_DRAW, OTHER_DEAL = 4, 2


class SetupError(DipsatError):
    """A set-up choice breaks the Setting Up rules."""


class PlayerSetup(BaseModel):
    model_config = ConfigDict(extra="forbid")

    money: Literal["standard", "d5+4"] = "standard"
    companies: Optional[list[str]] = None  # given instead of drawn
    armies: dict[str, int] = Field(default_factory=dict)  # the chosen armies, per territory
    navies: dict[str, int] = Field(default_factory=dict)  # the chosen navies, per sea
    resources: dict[Resource, int] = Field(default_factory=dict)  # the 9 chosen, on top of 3/3/3


class SetupInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    board: Optional[str] = None
    players: dict[str, PlayerSetup]  # superpower -> its choices, in player order
    market: Optional[dict[Resource, int]] = None  # given instead of rolled
    dice: Optional[list[int]] = None


def _draw_companies(board: Board, players: list[str], dice: Dice) -> dict[str, list[str]]:
    hands: dict[str, list[str]] = {}
    for p in players:
        pile = [c.id for c in board.companies if c.superpower == p]
        if len(pile) < OWN_DRAW:
            raise SetupError(f"{p}'s company pile has {len(pile)} cards; the draw needs {OWN_DRAW}")
        hands[p] = dice.shuffle(pile, f"{p}'s company pile")[:OWN_DRAW]
    pile = dice.shuffle([c.id for c in board.companies if not c.superpower], "non-superpower companies")
    for _ in range(OTHER_DEAL):
        for p in players:
            if not pile:
                raise SetupError("the non-superpower pile ran out while dealing")
            hands[p].append(pile.pop(0))
    for _round in range(100):
        clash = _clashes(board, hands)
        if not clash:
            return hands
        returned: dict[str, int] = {}
        for p, cid in clash:
            hands[p].remove(cid)
            pile.append(cid)
            returned[p] = returned.get(p, 0) + 1
        pile = dice.shuffle(sorted(pile), "redraw pile")
        for p in players:
            for _ in range(returned.get(p, 0)):
                hands[p].append(pile.pop(0))
    raise SetupError("the company redraw did not settle in 100 rounds")


def _clashes(board: Board, hands: dict[str, list[str]]) -> list[tuple[str, str]]:
    """(player, company) pairs in zones where two or more players hold companies."""
    zone_players: dict[str, set[str]] = {}
    for p, cids in hands.items():
        for cid in cids:
            zone_players.setdefault(board.company(cid).zone, set()).add(p)
    shared = {z for z, ps in zone_players.items() if len(ps) > 1}
    return sorted((p, cid) for p, cids in hands.items() for cid in cids if board.company(cid).zone in shared)


def _check_given(board: Board, p: str, cids: list[str]) -> None:
    own = [c for c in cids if board.company(c).superpower == p]
    other = [c for c in cids if not board.company(c).superpower]
    foreign_pile = [c for c in cids if board.company(c).superpower not in ("", p)]
    if foreign_pile or len(own) != OWN_DRAW or len(other) != OTHER_DEAL:
        raise SetupError(f"{p}: given companies {cids} must be {OWN_DRAW} from its own pile and {OTHER_DEAL} "
                         "non-superpower companies")


def navy_seas(board: Board, state: State, power: str, opts: SupremacyOptions) -> list[str]:
    """Light-blue seas where ``power`` is the only superpower in the game with port access."""
    def access(p: str) -> set[str]:
        h = state.powers[p]
        terrs = set(board.homes(p))
        if opts.navy_start_ports == "controlled":
            terrs |= {board.company(c.id).zone for c in h.companies if board.company(c.id).zone in board.territories}
        return {s for t in terrs for s in board.territories[t].ports}
    mine = access(power)
    others = set().union(*(access(p) for p in state.powers if p != power)) if len(state.powers) > 1 else set()
    return sorted(s for s in mine - others if board.seas[s].light_blue)


def set_up(inp: SetupInput, opts: SupremacyOptions) -> tuple[State, Dice]:
    board = board_named(inp.board)
    players = [board.lookup_power(p) for p in inp.players]
    choices = dict(zip(players, inp.players.values()))
    seed = opts.random_seed if opts.random_seed is not None else "setup:" + ",".join(players)
    dice = Dice(inp.dice, seed)
    # 2. money
    money = {p: 7000 if c.money == "standard" else (dice.roll(5, f"{p}'s d5 money") + 4) * 1000
             for p, c in choices.items()}
    # 3. companies
    if all(c.companies is not None for c in choices.values()):
        hands = {p: list(c.companies or []) for p, c in choices.items()}
        for p, cids in hands.items():
            _check_given(board, p, cids)
        clash = _clashes(board, hands)
        if clash:
            raise SetupError(f"given companies share zones between players: {clash}; they must be redrawn")
    elif any(c.companies is not None for c in choices.values()):
        raise SetupError("give companies for every player or for none (then they are drawn)")
    else:
        hands = _draw_companies(board, players, dice)
    state = State(board=inp.board, powers={p: Holdings(money=money[p],
                                                       companies=[CompanyCard(id=c) for c in hands[p]])
                                           for p in players})
    # 4. "All remaining companies are shuffled into the resource deck."
    dealt = {c for cs in hands.values() for c in cs}
    state.deck = sorted(c.id for c in board.companies if c.id not in dealt)
    # 5. armies and navies
    for p, c in choices.items():
        h = state.powers[p]
        start = {t: 1 for t in board.homes(p)}
        for cid in hands[p]:
            z = board.company(cid).zone
            if z in board.territories and board.territories[z].home != p:
                start[z] = 1
        chosen = sum(c.armies.values()) + sum(c.navies.values())
        if chosen != CHOSEN_FORCES or any(n < 0 for n in [*c.armies.values(), *c.navies.values()]):
            raise SetupError(f"{p}: choose exactly {CHOSEN_FORCES} armies and/or navies, not {chosen}")
        for t, n in c.armies.items():
            t = board.lookup(t)
            if t not in start:
                raise SetupError(f"{p}: chosen armies in {board.zone_name(t)!r}, which {p} does not occupy "
                                 f"(armies may be placed in any occupied territory: {', '.join(sorted(start))})")
            start[t] += n
        h.armies = dict(sorted(start.items()))
    for p, c in choices.items():
        ok = navy_seas(board, state, p, opts)
        for s, n in c.navies.items():
            s = board.lookup(s)
            if s not in ok:
                others = [q for q in state.powers if q != p and s in navy_seas(board, state, q, opts)]
                why = ("it is not a light-blue sea" if s in board.seas and not board.seas[s].light_blue else
                       f"{p} is not the only superpower with port access to it" if s not in ok else "")
                raise SetupError(f"{p}: no navy may start in {board.zone_name(s)}: {why} "
                                 f"(allowed: {', '.join(ok) or 'none'})" + (f"; {others}" if others else ""))
            state.powers[p].navies.extend(Navy(sea=s) for _ in range(n))
    # 6. resources
    for p, c in choices.items():
        extra = sum(c.resources.values())
        if extra != CHOSEN_RESOURCES or any(v < 0 for v in c.resources.values()):
            raise SetupError(f"{p}: choose exactly {CHOSEN_RESOURCES} more resources, not {extra}")
        for r in RESOURCES:
            v = START_EACH + c.resources.get(r, 0)
            if v > CAPACITY:
                raise SetupError(f"{p}: {v} {r} exceed the supply center's {CAPACITY}")
            setattr(state.powers[p], r, v)
    # 7. market
    if inp.market is not None:
        state.market = dict(inp.market)
    else:
        state.market = {r: dice.roll(6, f"market {r} die 1") + dice.roll(6, f"market {r} die 2") for r in RESOURCES}
    return state.check(), dice
