"""A Supremacy game: set-up, then turns of eight stages (``dipsat play GAME``).

A game file (TOML or JSON) holds ``variant = "supremacy"``, ``[options]``, ``[setup]`` (see
:mod:`.setup`) and one ``[[turns]]`` entry per turn:

    bids  = { USA = { 5 = 2, 7 = 1 }, ... }      chits per optional stage (Blind Bidding)
    dice  = [ ... ]                              optional: the turn's dice for bid ties, in order
    pay   = { CSA = false }                      Stage 1: who is unwilling to pay interest
    stage1 = { USA = ["repay 500"] }             Stage 1: principal payments
    plays = [ { stage = 5, power = "USA", actions = ["march army us_west - canada"] },
              { stage = 4, power = "USA", drill = { ... }, dice = [6, 5, 4] }, ... ]

A turn runs Stage 1 (interest, salaries: option), Stage 2 (production: option), then Stages 3-8
in turn.  Each optional stage is played by the players who bid on it, highest bid first
(:mod:`.bidding`); the market is adjusted at the start of Stages 3 and 7 (option).  Within a
stage the plays of the file are taken in order while the runner walks the player order round
and round: the next play must be by the player whose turn it is, else that player passes; the
stage ends when all its players have passed consecutively, and a play after that is an error.
A Stage 4 play may be a counterattack (``drill.counterattack`` / ``counterattack_of``), made by
the defender of the drill just played, outside the rotation.  Unused chits are lost at the end
of the turn (every player starts the next with 5).
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dipsat.errors import DipsatError
from dipsat.records import dataclass

from . import blockades, economy
from .bidding import CHITS_PER_TURN, DEAL_STAGES, OPTIONAL_STAGES, check_bids, player_order
from .board import RESOURCES
from .inputs import DrillInput, file_options, load_data_file, parse_drill, run_drill
from .dice import Dice
from .drills import Assault
from .strikes import Clash, NuclearStrike
from .options import SupremacyOptions, make_options
from .setup import SetupInput, set_up
from .stage import ANY_TIME, run_stage
from .state import CAPACITY, State

STAGE_NAMES = {1: "Pay Salaries and Loans to the Bank", 2: "Transfer Production Units to Supply Center",
               3: "Sell Resources", 4: "Attack", 5: "Move Forces", 6: "Build Forces and Weapons",
               7: "Buy Resources", 8: "Prospect for Resources"}


class GameError(DipsatError):
    """A game file that breaks the turn's rules (order of play, bids, stages)."""


class Play(BaseModel):
    model_config = ConfigDict(extra="forbid")

    stage: int = Field(ge=2, le=8)
    power: str
    actions: list[str] = Field(default_factory=list)
    drill: Optional[dict[str, Any]] = None
    dice: Optional[list[int]] = None


class TurnInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bids: dict[str, dict[int, int]] = Field(default_factory=dict)
    dice: Optional[list[int]] = None
    pay: dict[str, bool] = Field(default_factory=dict)
    stage1: dict[str, list[str]] = Field(default_factory=dict)
    plays: list[Play] = Field(default_factory=list)


class GameFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    variant: str = "supremacy"
    options: dict[str, Any] = Field(default_factory=dict)
    setup: Optional[SetupInput] = None
    state: Optional[dict[str, Any]] = Field(default=None, description="a state to start from instead of a set-up")
    turns: list[TurnInput] = Field(default_factory=list)


@dataclass
class Victory:
    """How a game ended: after which turn, who won (several: a shared victory) and why."""

    turn: int
    winners: list[str]
    reason: str

    def facts(self) -> dict[str, Any]:
        return {"decided": True, "turn": self.turn, "winners": self.winners, "reason": self.reason}


def result_facts(v: Optional[Victory]) -> dict[str, Any]:
    return v.facts() if v is not None else {"decided": False}


@dataclass
class StageLog:
    stage: int
    order: list[str]
    lines: list[str] = field(default_factory=list)


@dataclass
class TurnLog:
    number: int
    stages: list[StageLog] = field(default_factory=list)
    state: Optional[State] = None


@dataclass
class GameLog:
    setup: State
    setup_dice: list[int]
    turns: list[TurnLog]
    state: State
    opts: SupremacyOptions
    result: Optional[Victory] = None


def _stage12_order(state: State, opts: SupremacyOptions, actors: int, number: int) -> list[str]:
    """The player order of a mandatory stage (option ``stage12_order``).  Each player pays and
    produces for itself, so the order is asked for only when ``actors`` (players with actions of
    their own in the stage) are two or more."""
    players = sorted(state.powers)
    rule = opts.stage12_order
    if rule == "unspecified" and actors >= 2:
        rule = opts.need("stage12_order", "the player order of Stage 1, where two or more players act")
    if rule == "random" and len(players) > 1:
        return Dice(None, f"{opts.random_seed}:turn{number}:stages12").shuffle(players, "the order of stages 1 and 2")
    return players


def stage1(state: State, t: TurnInput, opts: SupremacyOptions, number: int = 1) -> StageLog:
    """Stage 1: each player's loan interest (Bank Loans: fully specified), then its salaries
    (option ``salaries``: blank) and its own Stage 1 actions (repayments, loans, declarations)."""
    for p in t.stage1:
        if p not in state.powers:
            raise GameError(f"stage1: unknown player {p!r}")
    log = StageLog(1, _stage12_order(state, opts, sum(1 for a in t.stage1.values() if a), number))
    for p in log.order:
        due, paid = economy.pay_interest(state, p, opts, t.pay.get(p, True))
        if due:
            h = state.powers[p]
            log.lines.append(f"{p}: interest ${due} million " + ("paid" if paid else
                             f"not paid: the loan defaults, principal now ${h.loan.principal if h.loan else 0} million"))
    for p in log.order:
        opts.need("salaries", f"Stage 1 (Pay Salaries and Loans to the Bank): {p}'s salaries")
        if t.stage1.get(p):
            for line in run_stage(state, p, 1, t.stage1[p], opts):
                log.lines.append(f"{p}: {line}")
            log.lines += blockades.review(state, opts)
    return log


def stage2(state: State, opts: SupremacyOptions, number: int = 1) -> StageLog:
    log = StageLog(2, _stage12_order(state, opts, 0, number))
    board = state.get_board()
    log.lines += blockades.stage2_control(state, opts)
    producing = [p for p in log.order if any(c.face_up and not c.tapped for c in state.powers[p].companies)]
    if not producing or opts.need("production", "Stage 2 (Transfer Production Units to Supply Center) of "
                                  + ", ".join(producing)) == "none":
        return log
    for p in log.order:
        h = state.powers[p]
        got: dict[str, int] = {}
        lost: dict[str, int] = {}
        for c in h.companies:
            if not c.face_up or c.tapped:
                continue
            company = board.company(c.id)
            blockades.production_effects(state, opts, p, company.zone, c.id)
            r = company.resource
            if h.resource(r) < CAPACITY:
                setattr(h, r, h.resource(r) + 1)
                got[r] = got.get(r, 0) + 1
            else:
                lost[r] = lost.get(r, 0) + 1
        text = ", ".join(f"{n} {r}" for r, n in sorted(got.items())) or "nothing"
        extra = (" (supply center full: " + ", ".join(f"{n} {r}" for r, n in sorted(lost.items())) + " not stored)") if lost else ""
        log.lines.append(f"{p}: +{text}{extra}")
    return log


ANY_TIME_VERBS = ("loan", *ANY_TIME)  # Bank Loans: 'may take out a loan at any time'; Blockades and Sieges


def _any_time(play: Play) -> bool:
    """A play of actions that may be made 'at any time' only (loans, blockades and sieges, their
    lifting, drawing from a captured supply center): any player may make it in any stage, bid or not."""
    return play.drill is None and bool(play.actions) and all(
        (a.split() or [""])[0].lower() in ANY_TIME_VERBS for a in play.actions)


def _any_time_play(state: State, stage: int, i: int, play: Play, opts: SupremacyOptions, turn: int) -> str:
    if not _any_time(play):
        raise GameError(f"turn {turn}, play {i + 1}: in Stage {stage} {play.power} may only do what may be done 'at any "
                        f"time' ({', '.join(ANY_TIME_VERBS)})" + (" — it did not bid on the stage" if stage > 2 else ""))
    lines = run_stage(state, play.power, stage, play.actions, opts)
    lines += blockades.review(state, opts)
    return f"{play.power} (at any time): " + "; ".join(f"{a} — {r}" for a, r in zip(play.actions, lines))


def _drill_defender(state: State, drill: DrillInput) -> list[str]:
    if isinstance(drill, Assault):
        b = state.get_board()
        z = b.lookup(drill.target)
        occ = state.occupants(z)
        c = occ[0] if occ else state.controller(z)
        return [c] if c else []
    if isinstance(drill, NuclearStrike):
        out = []
        for s in drill.strikes[:1]:
            for t in s.targets:
                if t.strip().lower() != "outer space":
                    c = state.controller(state.get_board().lookup(t))
                    if c and c not in out:
                        out.append(c)
        return out
    return sorted({g.target for g in drill.groups})


def _is_counter(drill: DrillInput) -> bool:
    if isinstance(drill, Clash):
        return drill.counterattack_of is not None
    return drill.counterattack


def optional_stage(state: State, stage: int, order: list[str], plays: list[tuple[int, Play]], opts: SupremacyOptions,
                   turn: int, bidders: dict[str, int]) -> StageLog:
    log = StageLog(stage, order)
    for i, pl in plays:
        if pl.power not in order and not (pl.drill is not None and _is_counter(parse_drill(pl.drill))) \
                and not _any_time(pl):
            raise GameError(f"turn {turn}, play {i + 1}: {pl.power} did not bid on Stage {stage}, so it may not take "
                            "part (Blind Bidding: a non-bidder may only accept deals made by a bidder in Stages 3, 6 "
                            "and 7 — an 'exchange' written by the bidder)")
    if not order:
        for i, pl in plays:
            log.lines.append(_any_time_play(state, stage, i, pl, opts, turn))
        return log
    if stage in (3, 7):  # Market 2: 'adjusted automatically at the start of Stage 3 and Stage 7' (a stage played)
        rule = opts.need("market_adjustment", f"the start of Stage {stage} (the market is adjusted automatically)")
        if rule == "reroll":  # Setting Up 7: 'Each resource starts at the 2d6th position from the left'
            dice = Dice(None, f"{opts.random_seed}:turn{turn}:market{stage}")
            for r in RESOURCES:
                state.market[r] = dice.roll(6, f"{r} die 1") + dice.roll(6, f"{r} die 2")
            log.lines.append("market re-priced (market_adjustment 'reroll'): "
                             + ", ".join(f"{r} step {state.market[r]}" for r in RESOURCES))
    queue = list(plays)
    passes = 0
    pos = 0
    last: Optional[tuple[str, list[str]]] = None  # the drill just played, if it may be answered: attacker, defenders
    prospects: dict[str, int] = {}
    champions: set[str] = set()  # Nuclear Strike 3: a champion's chit 'lasts for the rest of the stage'
    while passes < len(order):
        nxt = queue[0][1] if queue else None
        if nxt is not None and nxt.power not in order and _any_time(nxt):  # a non-bidder, out of the rotation
            i, play = queue.pop(0)
            log.lines.append(_any_time_play(state, stage, i, play, opts, turn))
            continue
        if nxt is not None and nxt.drill is not None and _is_counter(parse_drill(nxt.drill)):
            i, play = queue.pop(0)
            assert play.drill is not None
            drill = parse_drill(play.drill)
            if last is None or play.power not in last[1]:
                raise GameError(f"turn {turn}, play {i + 1}: {play.power}'s counterattack answers no drill it defended "
                                "just before (a counterattack follows the drill it answers, and a counterattack or "
                                "First Strike is not answered)")
            if play.power not in bidders and opts.counterattack_bid == "needed":
                raise GameError(f"turn {turn}, play {i + 1}: {play.power} did not bid on Stage 4; under "
                                "counterattack_bid = 'needed' it may not counterattack")
            if isinstance(drill, Clash) and drill.counterattack_of != last[0]:
                raise GameError(f"turn {turn}, play {i + 1}: the counterattack answers {last[0]}'s drill, not "
                                f"{drill.counterattack_of}'s")
            log.lines.append(f"{play.power}: " + _play_drill(state, drill, play, i, opts, turn, bidders, champions))
            log.lines += blockades.review(state, opts)
            last = None  # 'If this was not itself a counterattack'
            passes = 0
            continue
        p = order[pos % len(order)]
        pos += 1
        if nxt is None or nxt.power != p:
            passes += 1
            log.lines.append(f"{p}: pass")
            continue
        i, play = queue.pop(0)
        last = None
        if play.drill is not None:
            if stage != 4:
                raise GameError(f"turn {turn}, play {i + 1}: a drill is played in Stage 4, not {stage}")
            drill = parse_drill(play.drill)
            if getattr(drill, "attacker", p) != p and not isinstance(drill, NuclearStrike):
                raise GameError(f"turn {turn}, play {i + 1}: {p}'s drill names attacker {getattr(drill, 'attacker')}")
            if isinstance(drill, NuclearStrike) and drill.strikes and drill.strikes[0].power != p:
                raise GameError(f"turn {turn}, play {i + 1}: {p}'s nuclear strike starts with {drill.strikes[0].power}'s")
            defenders = _drill_defender(state, drill)
            first_strike = isinstance(drill, NuclearStrike) and drill.first_strike
            log.lines.append(f"{p}: " + _play_drill(state, drill, play, i, opts, turn, bidders, champions))
            log.lines += blockades.review(state, opts)
            passes = 0
            if not first_strike:
                last = (p, defenders)
            continue
        if play.actions == ["pass"] or not play.actions:
            passes += 1
            log.lines.append(f"{p}: pass")
            continue
        if stage == 8:
            n = prospects.get(p, 0) + sum(1 for a in play.actions if a.strip().lower() == "prospect")
            limit = bidders.get(p, 0) if opts.prospect_limit == "chits_bid" else state.powers[p].chits
            if n > limit:
                raise GameError(f"turn {turn}, play {i + 1}: {p} prospects {n} times in Stage 8; its bid chits allow "
                                f"{limit} (prospect_limit {opts.prospect_limit!r})")
            if opts.prospect_limit == "chits_left":
                state.powers[p].chits -= n - prospects.get(p, 0)
            prospects[p] = n
        draws = Dice(play.dice, f"{opts.random_seed}:turn{turn}:play{i + 1}")  # prospects' draws
        for text, line in zip(play.actions, run_stage(state, p, stage, play.actions, opts, draws)):
            log.lines.append(f"{p}: {text} — {line}")
        log.lines += blockades.review(state, opts)
        passes = 0
    while queue and queue[0][1].power not in order and _any_time(queue[0][1]):
        i, play = queue.pop(0)
        log.lines.append(_any_time_play(state, stage, i, play, opts, turn))
    if queue:
        i, play = queue[0]
        raise GameError(f"turn {turn}, play {i + 1} ({play.power}, Stage {stage}): the stage is over — all its players "
                        f"({', '.join(order)}) passed consecutively")
    return log


def _play_drill(state: State, drill: DrillInput, play: Play, i: int, opts: SupremacyOptions, turn: int,
                bidders: dict[str, int], champions: set[str]) -> str:
    if isinstance(drill, NuclearStrike):
        drill = drill.model_copy(update={"bidders": sorted(bidders), "champions_before": sorted(champions)})
    dice = Dice(play.dice, f"{opts.random_seed}:turn{turn}:play{i + 1}")
    facts = run_drill(state, drill, opts, dice)
    paid = ""
    if isinstance(drill, NuclearStrike) and drill.champions:
        paid = " (champions: " + ", ".join(p + (" already" if p in champions else ", 1 chit") for p in drill.champions) + ")"
        champions.update(drill.champions)
    return f"{_drill_text(drill)}{paid} — {_drill_result(facts)}"


def _drill_text(d: DrillInput) -> str:
    if isinstance(d, Assault):
        return f"assault on {d.target} with {', '.join(d.forces)}" + (" (counterattack)" if d.counterattack else "")
    if isinstance(d, NuclearStrike):
        return "nuclear strike at " + ", ".join(t for s in d.strikes for t in s.targets)
    return f"L-Star clash ({sum(g.attackers for g in d.groups)} L-Stars)"


def _drill_result(f: dict[str, Any]) -> str:
    if "attacker_losses" in f:
        if not f["battle"]:
            return "no battle (empty foreign territory)" + ("; occupied" if f["occupied"] else "")
        return (f"dice {f['attacker_rolls']} against {f['defender_rolls']}; attacker loses {f['attacker_losses']}, "
                f"defender loses {f['defender_losses']}" + ("; occupied" if f["occupied"] else ""))
    if "nukes" in f:
        return "; ".join(f"nuke {k['number']} {k['result']}" for k in f["nukes"])
    return "; ".join(f"{d['rolls'][0]} v {d['rolls'][1]}: {d['result']}" for d in f["duels"])


def play_turn(state: State, t: TurnInput, opts: SupremacyOptions, number: int) -> TurnLog:
    log = TurnLog(number)
    bids = {p: dict(b) for p, b in t.bids.items()}
    for p in bids:
        if p not in state.powers:
            raise GameError(f"turn {number}: bids of unknown player {p!r}")
    for p in state.powers:
        state.powers[p].chits = CHITS_PER_TURN
    check_bids(bids)
    for p, b in bids.items():
        state.powers[p].chits -= sum(b.values())
    dice = Dice(t.dice, f"{opts.random_seed}:turn{number}:bids")
    order = player_order(bids, dice)
    for pl in t.plays:
        if pl.power not in state.powers:
            raise GameError(f"turn {number}: a play by unknown player {pl.power!r}")
    log.stages.append(stage1(state, t, opts, number))
    log.stages.append(stage2(state, opts, number))
    plays = list(enumerate(t.plays))
    for i, pl in plays:  # Stage 2 takes only what may be done 'at any time', after the production
        if pl.stage == 2:
            log.stages[-1].lines.append(_any_time_play(state, 2, i, pl, opts, number))
    for st in OPTIONAL_STAGES:
        mine = [(i, pl) for i, pl in plays if pl.stage == st]
        bidders = {p: bids[p].get(st, 0) for p in bids if bids[p].get(st, 0) > 0}
        log.stages.append(optional_stage(state, st, order[st], mine, opts, number, bidders))
        if st == 4:
            state.landings = {}  # airlift and amphibious landings matter only in Stage 4's reinforcements
    for p in state.powers:
        state.powers[p].chits = 0  # unused chits are lost at the end of the turn
    state.turn += 1
    log.state = state.clean()
    return log


def remaining_players(state: State) -> list[str]:
    """The players not removed from the game: those controlling a home territory (Supply Centers 3)."""
    board = state.get_board()
    return [p for p in sorted(state.powers) if any(state.controller(t) == p for t in board.homes(p))]


def richest(state: State, among: str = "all") -> tuple[list[str], int]:
    """The richest player(s) by the wealth table and their wealth; ``among = 'remaining'``: of the
    players not removed from the game (of every player if all were removed)."""
    players = (remaining_players(state) if among == "remaining" else []) or sorted(state.powers)
    totals = {p: economy.wealth(state, p)["total"] for p in players}
    top = max(totals.values())
    return [p for p, v in totals.items() if v == top], top


def check_victory(state: State, opts: SupremacyOptions, turn: int, last: bool) -> Optional[Victory]:
    """Whether the game is over after ``turn`` (``last``: the file's last turn), and who won
    (option ``victory``; the seed's Victory Conditions section holds only the wealth table)."""
    if opts.victory == "unspecified":
        return None
    if opts.victory == "last_standing":
        left = remaining_players(state)
        if len(left) > 1:
            return None
        return Victory(turn, left, "the last player not removed from the game (controlling a home territory)"
                       if left else "every player has been removed from the game")
    if (opts.victory_turn is None and not last) or (opts.victory_turn is not None and turn < opts.victory_turn):
        return None
    winners, top = richest(state, opts.richest_among)
    when = f"after turn {opts.victory_turn} (victory_turn)" if opts.victory_turn else "when the players declared it over (the file's last turn)"
    among = " among the players not removed from the game (richest_among 'remaining')" \
        if opts.richest_among == "remaining" and set(remaining_players(state)) != set(state.powers) else ""
    return Victory(turn, winners, f"richest by the wealth table (${top} million){among}, {when}"
                   + ("; a shared victory (victory_tie 'shared')" if len(winners) > 1 else ""))


def load_game(doc: dict[str, Any], where: str) -> GameFile:
    try:
        game = GameFile.model_validate(doc)
    except ValidationError as exc:
        e = exc.errors()[0]
        raise GameError(f"{where}: {'.'.join(str(x) for x in e['loc'])}: {e['msg']}") from None
    if (game.setup is None) == (game.state is None):
        raise GameError(f"{where}: a game starts from [setup] or from [state] (exactly one of them)")
    return game


def play_game(game: GameFile, opts: SupremacyOptions, where: str) -> GameLog:
    """Set up (or take the given state), then play the turns until the file or the game ends."""
    from .state import parse_state

    if opts.random_seed is None:
        opts = opts.model_copy(update={"random_seed": "game"})
    if game.setup is not None:
        state, dice = set_up(game.setup, opts)
        used = dice.used
    else:
        state, used = parse_state(game.state, f"{where}: state"), []
    if not state.powers:
        raise GameError(f"{where}: a game needs at least one player (the set-up's players, or the state's powers)")
    first = state.clean()
    turns = []
    result: Optional[Victory] = None
    for n, t in enumerate(game.turns, 1):
        if result is not None:
            raise GameError(f"{where}: turn {n}: the game is over — it ended after turn {result.turn} "
                            f"({', '.join(result.winners) or 'nobody'} won: {result.reason})")
        try:
            turns.append(play_turn(state, t, opts, n))
        except DipsatError as exc:  # the turn is named once
            text = str(exc)
            raise GameError(f"{where}: {text}" if text.startswith(f"turn {n}") else f"{where}: turn {n}: {text}") from None
        result = check_victory(state, opts, n, n == len(game.turns))
    return GameLog(first, used, turns, state.clean(), opts, result)


def play_file(path: str, extra_options: Optional[list[str]] = None) -> GameLog:
    doc = load_data_file(path)
    game = load_game(doc, path)
    opts = make_options(file_options({"options": game.options}, extra_options))
    return play_game(game, opts, path)


def _holdings_line(state: State, p: str) -> str:
    h = state.powers[p]
    b = state.get_board()
    forces = ", ".join(f"{n} army {z}" for z, n in sorted(h.armies.items()))
    navies = ", ".join(f"navy {nv.sea}" + (f" (+{nv.armies})" if nv.armies else "") for nv in h.navies)
    loan = f", loan ${h.loan.principal}M" if h.loan else ""
    del b
    return (f"  {p}: ${h.money}M, grain {h.grain}, oil {h.oil}, mineral {h.mineral}, nukes {h.nukes}, "
            f"L-Stars {h.lstars}{loan}; {forces}" + (f"; {navies}" if navies else ""))


def format_game(g: GameLog, quiet: bool = False) -> str:
    out = ["== Set-up ==", f"  market: " + ", ".join(f"{r} step {g.setup.market[r]}" for r in RESOURCES)]
    out += [_holdings_line(g.setup, p) for p in sorted(g.setup.powers)]
    for t in g.turns:
        out.append(f"== Turn {t.number} ==")
        for s in t.stages:
            who = f" ({', '.join(s.order)})" if s.stage > 2 else ""
            if s.stage > 2 and not s.order:
                out.append(f"  Stage {s.stage} {STAGE_NAMES[s.stage]}: nobody bid")
                continue
            out.append(f"  Stage {s.stage} {STAGE_NAMES[s.stage]}{who}")
            if not quiet:
                out += [f"    {line}" for line in s.lines]
        if t.state is not None:
            out += [_holdings_line(t.state, p) for p in sorted(t.state.powers)]
    out.append("== Wealth ==")
    out.append(economy.format_wealth(g.state))
    out.append("== Result ==")
    if g.result is not None:
        won = " and ".join(g.result.winners) or "nobody"
        out.append(f"  The game is over after turn {g.result.turn}: {won} won — {g.result.reason}")
    elif g.opts.victory == "unspecified":
        out.append("  Undecided: the seed's Victory Conditions hold only the wealth table; set option 'victory'")
    else:
        out.append(f"  The game goes on (victory = {g.opts.victory!r})")
    return "\n".join(out)
