"""A continents game: the continent draw, the placement rounds, then rounds until somebody
holds a majority of the countries on three continents.

A saved game (TOML or JSON) names the players, the number of units each places (6-10, decided
by the players) and the phases in turn::

    variant = "continents"
    players = ["Amber", "Blue", "Coral"]
    units_to_place = 6
    options = { random_seed = 7 }

    [[phases]]
    phase = "draw"                 # seeded; or give it: continents = { Amber = "ast", ... }

    [[phases]]
    phase = "placement"            # per player one country per unit, in the order placed
    orders = { Amber = ["Yug", "Yug", "Tar", ...], ... }

    [[phases]]
    phase = "round"
    orders = { Amber = ["A 3 Yug-Mor", ...], ... }

Placement runs in simultaneous rounds: each player's next listed country takes their next unit.
A choice is refused (the unit stays in hand, the player's next listed country is tried in the
next placement round) when it is a free city, held by another player, full, outside what the
placement rule allows, or chosen by another player in the same placement round
(``placement_clash``).  Every phase may carry ``expect_units`` (the position after it), which a
replay checks; ``--save`` writes the game back with them.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dipsat.engine.chance import RandomSource, derive_seed, draw_key
from dipsat.errors import InputFileError
from dipsat.maps.continental import ContinentalMap
from dipsat.io.outputs import write_file

from .board import Board, parse_units
from .words import format_round, round_json
from .requests import DEFAULT_MAP, describe_validation, get_map
from .round import OrderOutcome, RoundResult, adjudicate_round, majorities
from .rules import ContinentsRules, continents_preset


class GamePhase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    phase: str = Field(description="'draw', 'placement' or 'round'")
    continents: dict[str, str] = Field(default_factory=dict, description="draw: the continents drawn, given instead of the lot")
    orders: dict[str, list[str]] = Field(default_factory=dict)
    expect_units: Optional[dict[str, list[str]]] = None


class SavedGame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    variant: str = "continents"
    map: str = DEFAULT_MAP
    rules: Optional[str] = None
    options: dict[str, Any] = Field(default_factory=dict)
    players: list[str] = Field(min_length=2)
    units_to_place: int = Field(default=6, ge=6, le=10, description="the seed: 6-10, decided by the players")
    phases: list[GamePhase] = Field(default_factory=list)


class PhaseRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    lines: list[str]  # what happened, for the text output
    outcomes: list[OrderOutcome] = Field(default_factory=list)
    after: Board
    round: Optional[RoundResult] = None


class Game:
    """A game in progress: the board, the continents drawn, the round number, the winners."""

    def __init__(self, saved: SavedGame, where: str, rules_value: Optional[ContinentsRules] = None) -> None:
        self.saved = saved
        self.cmap: ContinentalMap = get_map(saved.map, where)
        self.rules: ContinentsRules = rules_value or continents_preset(saved.rules, **saved.options)
        if len(set(saved.players)) != len(saved.players):
            raise InputFileError(f"{where}: players: a name is listed twice")
        self.players = sorted(saved.players)
        self.board = Board(holdings={})
        self.continent: dict[str, str] = {}
        self.rounds = 0
        self.winners: list[str] = []
        self.history: list[PhaseRecord] = []
        seed = self.rules.random_seed
        if seed is None:  # derived from the map and the players: a replay draws the same
            seed = derive_seed(f"{self.cmap.name}|{','.join(self.players)}")
        self.seed = seed
        self.chance = RandomSource(seed)  # the core's keyed draws ("draw/Amber", "placement/2/pie")

    # -- phases ------------------------------------------------------------------------------
    def draw(self, given: dict[str, str], where: str) -> PhaseRecord:
        conts = sorted(self.cmap.continents)
        if given:
            for p, c in given.items():
                if p not in self.players:
                    raise InputFileError(f"{where}: continents: {p!r} is not a player ({', '.join(self.players)})")
                cid = next((k for k, v in self.cmap.continents.items() if c.lower() in (k, v.name.lower())), None)
                if cid is None:
                    raise InputFileError(f"{where}: continents.{p}: unknown continent {c!r}; continents: {', '.join(conts)}")
                self.continent[p] = cid
            missing = [p for p in self.players if p not in self.continent]
            if missing:
                raise InputFileError(f"{where}: continents: no continent for {', '.join(missing)}")
            how = "as given"
        elif self.rules.draw == "distinct":
            if len(self.players) > len(conts):
                raise InputFileError(f"{where}: {len(self.players)} players but {len(conts)} continents to draw "
                                     "(rule draw = distinct; use draw = with_replacement)")
            left = list(conts)
            for p in self.players:  # in name order, each from the continents still in the bag
                self.continent[p] = left.pop(self.chance.index(draw_key("draw", p), len(left)))
            how = f"seeded lot, seed {self.seed}"
        else:
            for p in self.players:
                self.continent[p] = self.chance.choice(draw_key("draw", p), conts)
            how = f"seeded lot with replacement, seed {self.seed}"
        if self.rules.draw == "distinct" and len(set(self.continent.values())) < len(self.players):
            raise InputFileError(f"{where}: two players drew the same continent (rule draw = distinct)")
        lines = [f"continents drawn ({how}): "
                 + ", ".join(f"{p} {self.cmap.continents[c].name}" for p, c in sorted(self.continent.items()))]
        return PhaseRecord(name="draw", lines=lines, after=self.board)

    def _may_place(self, p: str, node: str, board: Board) -> Optional[str]:
        n = self.cmap.nodes[node]
        if n.free_city:
            return f"{n.name} is a free city: no placement on free cities"
        owner = board.owner(node)
        if owner is not None and owner != p:
            return f"{n.name} is held by {owner} (one player per country)"
        if board.count(node) >= n.capacity:
            return f"{n.name} is full ({n.capacity} units)"
        own = n.continent == self.continent[p]
        if self.rules.placement == "own_continent" and not own:
            return f"{n.name} is not on {self.cmap.continents[self.continent[p]].name} (rule placement = own_continent)"
        if self.rules.placement == "spread" and not own and owner != p:
            if not any(board.owner(x) == p for x in self.cmap.neighbours(node)):
                return (f"{n.name} is off {self.cmap.continents[self.continent[p]].name} and borders no country "
                        f"{p} holds (rule placement = spread)")
        return None

    def place(self, orders: dict[str, list[str]], where: str) -> PhaseRecord:
        for p in orders:
            if p not in self.players:
                raise InputFileError(f"{where}: orders: {p!r} is not a player ({', '.join(self.players)})")
        queues: dict[str, list[tuple[str, str]]] = {}
        for p in self.players:
            items = []
            for text in orders.get(p, []):
                node = self.cmap.lookup(text)
                if node is None:
                    raise InputFileError(f"{where}: orders.{p}: unknown country {text!r}")
                items.append((text, node))
            queues[p] = items
        in_hand = {p: self.saved.units_to_place for p in self.players}
        outcomes: list[OrderOutcome] = []
        lines: list[str] = []
        board = self.board
        k = 0
        while any(in_hand[p] and queues[p] for p in self.players):
            k += 1
            picks = {p: queues[p].pop(0) for p in self.players if in_hand[p] and queues[p]}
            chosen: dict[str, list[str]] = {}
            refused: dict[str, str] = {}
            for p, (text, node) in sorted(picks.items()):
                why = self._may_place(p, node, board)
                if why:
                    refused[p] = why
                else:
                    chosen.setdefault(node, []).append(p)
            holdings = dict(board.holdings)
            for node, ps in sorted(chosen.items()):
                if len(ps) > 1:
                    if self.rules.placement_clash == "lot":
                        keep = self.chance.choice(draw_key("placement", k, node), sorted(ps))
                        for p in ps:
                            if p != keep:
                                refused[p] = f"{', '.join(ps)} chose {self.cmap.nodes[node].name} together: the lot gave it to {keep}"
                        ps = [keep]
                    else:
                        for p in ps:
                            refused[p] = (f"{', '.join(ps)} chose {self.cmap.nodes[node].name} in the same placement round: "
                                          "both refused (rule placement_clash = both_refused)")
                        continue
                p = ps[0]
                holdings[node] = (p, holdings.get(node, (p, 0))[1] + 1)
                in_hand[p] -= 1
            board = Board(holdings=dict(sorted(holdings.items())))
            for p, (text, node) in sorted(picks.items()):
                if p in refused:
                    outcomes.append(OrderOutcome(player=p, text=text, result="refused", placement=k, message=refused[p]))
                else:
                    outcomes.append(OrderOutcome(player=p, text=text, result="placed", placement=k))
        short = [f"{p}: {n} unit{'s' if n > 1 else ''} not placed" for p, n in sorted(in_hand.items()) if n]
        if short:
            raise InputFileError(f"{where}: placement: {'; '.join(short)} — list more countries (refused choices do not "
                                 "place a unit)")
        for p, q in sorted(queues.items()):  # spare choices (a refusal or a lot may need them)
            outcomes.extend(OrderOutcome(player=p, text=text, result="unused", message="all units were placed")
                            for text, _ in q)
        self.board = board
        lines.append(f"{k} placement rounds, {self.saved.units_to_place} units each")
        return PhaseRecord(name="placement", lines=lines, outcomes=outcomes, after=board)

    def play_round(self, orders: dict[str, list[str]], where: str) -> PhaseRecord:
        for p in orders:
            if p not in self.players:
                raise InputFileError(f"{where}: orders: {p!r} is not a player ({', '.join(self.players)})")
        self.rounds += 1
        res = adjudicate_round(self.cmap, self.board, orders, self.rules, create=True, round_no=self.rounds)
        self.board = res.after
        self.winners = res.winners
        return PhaseRecord(name=f"round {self.rounds}", lines=[], outcomes=res.outcomes, after=res.after, round=res)


def load_game(data: Any, where: str) -> SavedGame:
    if not isinstance(data, dict):
        raise InputFileError(f"{where}: expected a table of fields")
    try:
        return SavedGame.model_validate(data)
    except ValidationError as exc:
        raise InputFileError(f"{where}: {describe_validation(exc)}") from None


def replay(saved: SavedGame, where: str, check: bool = True, rules_value: Optional[ContinentsRules] = None) -> Game:
    game = Game(saved, where, rules_value)
    expected = ["draw", "placement"]
    for i, ph in enumerate(saved.phases):
        at = f"{where}: phases[{i}] ({ph.phase})"
        kind = ph.phase.split()[0].lower() if ph.phase.strip() else ""
        want = expected[i] if i < len(expected) else "round"
        if kind != want:
            raise InputFileError(f"{at}: expected a {want!r} phase here (draw, then placement, then rounds)")
        if game.winners:
            raise InputFileError(f"{at}: the game ended after round {game.rounds}: {', '.join(game.winners)} won")
        if kind != "draw" and ph.continents:
            raise InputFileError(f"{at}: 'continents' belongs to the draw phase")
        if kind == "draw":
            if ph.orders:
                raise InputFileError(f"{at}: the draw has no orders")
            rec = game.draw(ph.continents, at)
        elif kind == "placement":
            rec = game.place(ph.orders, at)
        else:
            rec = game.play_round(ph.orders, at)
        if check and ph.expect_units is not None:
            want_board = parse_units(game.cmap, ph.expect_units, f"{at}: expect_units")
            if want_board.holdings != rec.after.holdings:
                diff = sorted(set(want_board.holdings) | set(rec.after.holdings))
                shown = "; ".join(f"{n}: saved {want_board.holdings.get(n)}, now {rec.after.holdings.get(n)}"
                                  for n in diff if want_board.holdings.get(n) != rec.after.holdings.get(n))
                raise InputFileError(f"{at}: the position differs from the saved one: {shown}")
        game.history.append(rec)
    return game


def game_json(game: Game) -> dict[str, Any]:
    """A played game as data (``play --json``; the facts a corpus case of kind 'game' states)."""
    return {
        "seed": game.seed,
        "continents": game.continent,
        "phases": [{"phase": r.name, "lines": r.lines,
                    "outcomes": [o.model_dump() for o in r.outcomes] if r.round is None else round_json(r.round)["outcomes"],
                    "units": r.after.as_units(game.cmap)} for r in game.history],
        "majorities": majorities(game.cmap, game.board),
        "winners": game.winners,
    }


def play_command(data: Any, where: str, check: bool = True, save: Optional[str] = None, as_json: bool = False,
                 quiet: bool = False) -> str:
    saved = load_game(data, where)
    game = replay(saved, where, check=check)
    if save:
        out = saved.model_copy(update={"phases": [ph.model_copy(update={"expect_units": rec.after.as_units(game.cmap)})
                                                  for ph, rec in zip(saved.phases, game.history)]})
        write_file(save, json.dumps(out.model_dump(exclude_none=True), indent=2))
    if as_json:
        return json.dumps(game_json(game), indent=2)
    return format_game(game, quiet)


def format_game(game: Game, quiet: bool = False) -> str:
    """A played game in words: each phase, the majorities, the winners."""
    lines: list[str] = []
    for r in game.history:
        lines.append(f"== {r.name} ==")
        lines.extend(f"  {x}" for x in r.lines)
        if r.round is not None:
            if not quiet:
                body = format_round(r.round).split("\nPosition after:")[0].splitlines()[1:]
                lines.extend(f"  {x}" if x else "" for x in body)
                if r.round.winners:
                    lines.append(f"  Victory: {', '.join(r.round.winners)}")
        elif not quiet:
            for o in r.outcomes:
                lines.append(f"  {'ok  ' if o.result == 'placed' else 'FAIL'} {o.player}: {o.text}  — {o.result}: {o.reason}")
        if r.name != "draw":
            lines.append("  holdings: " + "; ".join(f"{p} {', '.join(u)}" for p, u in r.after.as_units(game.cmap, tuple(game.players)).items()))
    lines.append("")
    maj = majorities(game.cmap, game.board)
    lines.append("Majorities: " + ("; ".join(f"{p} on {', '.join(game.cmap.continents[c].name for c in cs)}"
                                             for p, cs in maj.items()) or "none"))
    if game.winners:
        lines.append(f"Victory after round {game.rounds}: {', '.join(game.winners)} (a majority of the countries on three continents)")
    else:
        lines.append(f"No winner after round {game.rounds}: a majority of the countries on three continents is needed")
    return "\n".join(lines)
