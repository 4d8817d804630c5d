"""One round of the continents game: unit creation, the order lists checked (allowance,
legality, conflicts), the resolution found by CP-SAT (:mod:`.equations`) and proven unique —
or the readings the rules as written leave, settled by the ``ambiguity`` option — then the
position after, victory, and a typed outcome per order (:mod:`.outcomes`).
"""

from __future__ import annotations

import math
from typing import Any, Optional

import networkx as nx

from dipsat.errors import OrderError
from dipsat.maps.continental import ContinentalMap
from dipsat.records import dataclass

from .board import Board
from .equations import Act, Quantities, Setting, enumerate_readings, evaluate, priority_levels
from .notation import Order, parse_order
from .outcomes import Battle, Creation, Foe, OrderOutcome, Result, RoundResult, Side
from .rules import ContinentsRules

__all__ = ["Battle", "Creation", "OrderOutcome", "RoundResult", "Side", "adjudicate_round"]

READING_LIMIT = 16


# --------------------------------------------------------------------------------------------
# unit creation, allowance, victory


def create_units(cmap: ContinentalMap, board: Board) -> tuple[Board, list[Creation]]:
    """"If a player has a unit on a free city, and also controls (with at least a unit on each)
    one or more bordering countries/free cities ... that player gets as many units as bordering
    countries, until there are at most six (6) units on the free city.""" 
    holdings = dict(board.holdings)
    made: list[Creation] = []
    for fc in cmap.free_cities():
        owner = board.owner(fc)
        if owner is None:
            continue
        near = [n for n in cmap.neighbours(fc) if board.owner(n) == owner]
        cap = cmap.nodes[fc].capacity
        n = min(len(near), cap - board.count(fc))
        if not near:
            continue
        names = ", ".join(cmap.display(x) for x in near)
        if n <= 0:
            made.append(Creation(node=fc, player=owner, units=0, bordering=near,
                                 reason=f"{cmap.nodes[fc].name} is full ({cap} units): no unit created"))
            continue
        holdings[fc] = (owner, board.count(fc) + n)
        made.append(Creation(node=fc, player=owner, units=n, bordering=near,
                             reason=f"{n} created in {cmap.nodes[fc].name}: {owner} holds {len(near)} bordering ({names})"
                                    + (f", capped at {cap}" if n < len(near) else "")))
    return Board(holdings=dict(sorted(holdings.items()))), made


def allowance(cmap: ContinentalMap, board: Board, player: str, rules: ContinentsRules) -> tuple[int, str]:
    held = board.held_by(player)
    countries = sum(1 for n in held if not cmap.nodes[n].free_city)
    if rules.order_allowance == "half_countries":
        n = max(3, math.ceil(countries / 2))
        return n, f"{countries} countries held: half, rounded up, at least 3 = {n}"
    n = max(3, len(held) // 3)
    return n, f"{len(held)} countries and free cities held: a third, rounded down, at least 3 = {n}"


def majorities(cmap: ContinentalMap, board: Board) -> dict[str, list[str]]:
    """Per player, the continents where they hold more than half of the countries."""
    out: dict[str, list[str]] = {}
    for cid, cont in cmap.continents.items():
        for p in board.players():
            n = sum(1 for c in cont.countries if board.owner(c) == p)
            if 2 * n > len(cont.countries):
                out.setdefault(p, []).append(cid)
    return {p: sorted(v) for p, v in sorted(out.items())}


def winners(cmap: ContinentalMap, board: Board, rules: ContinentsRules, needed: int = 3) -> list[str]:
    """"holding of a majority of countries (free cities do no count) on three (3) continents"."""
    w = sorted(p for p, cs in majorities(cmap, board).items() if len(cs) >= needed)
    if len(w) > 1 and rules.victory_ties == "none":
        return []
    return w


# --------------------------------------------------------------------------------------------
# checking the order lists


@dataclass
class Checked:
    """The round's orders after the static checks: the acts, and the outcome of every order
    that takes no part (rejected) keyed by (player, index)."""

    acts: list[Act]
    rejected: dict[tuple[str, int], OrderOutcome]
    orders: dict[str, list[str]]
    turned: dict[int, str]  # act key -> a support turned attack: the country whose attack it named


def check_orders(cmap: ContinentalMap, board: Board, orders: dict[str, list[str]], rules: ContinentsRules,
                 allowances: dict[str, tuple[int, str]]) -> Checked:
    rejected: dict[tuple[str, int], OrderOutcome] = {}
    parsed: dict[tuple[str, int], Order] = {}

    def reject(p: str, i: int, text: str, result: Result, reason: str) -> None:
        rejected[p, i] = OrderOutcome(player=p, text=text, result=result, message=reason)

    for p, texts in sorted(orders.items()):
        limit, why = allowances[p]
        for i, text in enumerate(texts):
            if i >= limit:
                reject(p, i, text, "beyond_allowance",
                       f"beyond the allowance of {limit} orders ({why}): the last orders are rejected first")
                continue
            try:
                o = parse_order(cmap, text)
            except OrderError as exc:
                reject(p, i, text, "invalid", exc.reason)
                continue
            d = cmap.display
            problem = None
            if board.owner(o.origin) != p:
                problem = f"{p} has no units in {d(o.origin)}"
            elif o.kind != "hold" and o.target == o.origin:
                problem = f"{d(o.origin)} cannot act towards itself"
            elif o.kind != "hold" and not cmap.adjacent(o.origin, o.target):
                problem = f"{d(o.origin)} and {d(o.target)} share no border or sea route (one border per move)"
            elif o.kind == "support_attack" and not cmap.adjacent(o.ally, o.target):
                problem = f"{d(o.ally)} and {d(o.target)} share no border or sea route: no attack there to support"
            elif o.kind == "support_attack" and o.ally == o.origin:
                problem = f"{d(o.origin)} cannot support its own attack: write 'A {o.count} {d(o.origin)}-{d(o.target)}'"
            elif o.kind == "support_defence" and board.owner(o.target) is None:
                problem = f"{d(o.target)} is empty: there is nothing to defend"
            if problem:
                reject(p, i, text, "illegal", problem)
                continue
            parsed[p, i] = o

    # one country acts towards one other country; orders from it share its units in list order
    acts_src: list[tuple[str, int, Order]] = []
    for p in sorted(orders):
        first: dict[str, tuple[int, str]] = {}
        for i in range(len(orders[p])):
            got = parsed.get((p, i))
            if got is None:
                continue
            o = got
            if o.kind == "hold":
                rejected[p, i] = OrderOutcome(player=p, text=orders[p][i], result="held", kind="hold",
                                              origin=cmap.display(o.origin), node=o.origin)
                continue
            if o.origin in first:
                j, tgt = first[o.origin]
                if rules.same_origin_orders == "first_only" or tgt != o.target:
                    reject(p, i, orders[p][i], "conflict",
                           f"{cmap.display(o.origin)} already acts towards {cmap.display(tgt)} (order {j + 1}): "
                           "a country acts towards only one other country per round"
                           + (" (rule same_origin_orders = first_only)" if tgt == o.target else ""))
                    continue
            else:
                first[o.origin] = (i, o.target)
            acts_src.append((p, i, o))

    # which attack each support backs
    attacks = {(o.origin, o.target) for p, i, o in acts_src if o.kind == "move"}
    acts_src = _own_battle_supports(cmap, board, rules, acts_src, attacks, orders, reject)
    acts: list[Act] = []
    turned: dict[int, str] = {}
    crossed: set[tuple[str, str, str]] = set()  # (player, origin, target): sea routes that paid their loss

    def sea_loss(p: str, o: Order, pays: bool) -> int:
        """'Sea crossings kill off one unit per crossing, regardless of how many units are moved':
        one loss per country's crossing of a route in the round (option sea_loss), taken from the
        first order in the list that crosses it and pays (a support pays under support_sea_loss)."""
        if cmap.edge_kind(o.origin, o.target) != "sea" or not pays:
            return 0
        if (p, o.origin, o.target) in crossed and rules.sea_loss == "per_crossing":
            return 0
        crossed.add((p, o.origin, o.target))
        return 1

    for key, (p, i, o) in enumerate(sorted(acts_src, key=lambda t: (t[0], t[1]))):
        text = orders[p][i]
        by_land = cmap.edge_kind(o.origin, o.target) != "sea"
        if o.kind == "move":
            acts.append(Act(key, p, i, text, "move", o.origin, o.target, o.count, sea_loss(p, o, True), p, by_land))
        elif o.kind == "support_defence":
            ally = board.owner(o.target)
            assert ally is not None
            sea = sea_loss(p, o, rules.support_sea_loss == "one")
            acts.append(Act(key, p, i, text, "support", o.origin, o.target, o.count, sea, ally, by_land))
        else:
            ally = board.owner(o.ally)
            if ally is not None and (o.ally, o.target) in attacks:
                sea = sea_loss(p, o, rules.support_sea_loss == "one")
                acts.append(Act(key, p, i, text, "support", o.origin, o.target, o.count, sea, ally, by_land))
            elif rules.unmatched_support == "attack":
                turned[key] = cmap.display(o.ally)
                acts.append(Act(key, p, i, text, "move", o.origin, o.target, o.count, sea_loss(p, o, True), p, by_land))
            else:
                reject(p, i, text, "cancelled", f"no attack {cmap.display(o.ally)}-{cmap.display(o.target)} was ordered "
                                                 "to support (rule unmatched_support = cancelled)")
    return Checked(acts, rejected, orders, turned)


def _own_battle_supports(cmap: ContinentalMap, board: Board, rules: ContinentsRules, acts_src: list[tuple[str, int, Order]],
                         attacks: set[tuple[str, str]], orders: dict[str, list[str]], reject: Any) -> list[tuple[str, int, Order]]:
    """A player's support for another side of a battle the player fights itself (attacking the
    country, or holding it): under option ``support_in_own_battle = "cancelled"`` the support is
    cancelled, whatever its place in the list (a player's units do not fight on two sides)."""
    fights: set[tuple[str, str]] = {(p, o.target) for p, _, o in acts_src if o.kind == "move"}
    fights |= {(p, o.target) for p, _, o in acts_src
               if o.kind == "support_attack" and (board.owner(o.ally) is None or (o.ally, o.target) not in attacks)
               and rules.unmatched_support == "attack"}  # a support without its attack attacks
    kept: list[tuple[str, int, Order]] = []
    for p, i, o in acts_src:
        side = (board.owner(o.target) if o.kind == "support_defence"
                else board.owner(o.ally) if o.kind == "support_attack" and (o.ally, o.target) in attacks else None)
        own = "attacks" if (p, o.target) in fights else "holds" if board.owner(o.target) == p else None
        if side is not None and side != p and own is not None and rules.support_in_own_battle == "cancelled":
            d = cmap.display
            reject(p, i, orders[p][i], "cancelled",
                   f"{p} {own} {d(o.target)} itself: it cannot also support {side}'s side of that battle "
                   "(a player's units fight on one side; rule support_in_own_battle = cancelled)")
            continue
        kept.append((p, i, o))
    return kept


def _supporter_losses(rules: ContinentsRules, acts: list[Act]) -> str:
    """The option supporter_losses, read only where a side has two supporters or more in one
    battle (elsewhere both values are the same, and a study of readings need not split on it)."""
    helpers: dict[tuple[str, str], int] = {}
    for a in acts:
        if a.kind == "support":
            helpers[a.target, a.beneficiary] = helpers.get((a.target, a.beneficiary), 0) + 1
    return rules.supporter_losses if any(n > 1 for n in helpers.values()) else "alternate"


def dependency_graph(s: Setting) -> nx.DiGraph:
    """Which act's equation reads which other act's units (an edge a -> b: b depends on a)."""
    g = nx.DiGraph()
    g.add_nodes_from(a.key for a in s.acts)
    for b in s.acts:
        for a in s.acts:
            if a.key == b.key:
                continue
            if (a.target == b.origin  # the battle at b's origin decides what b may send
                    or (a.origin == b.origin and a.rank < b.rank)  # priority at the origin
                    or a.target == b.target  # the battle or the room at b's target
                    or (b.kind == "move" and a.origin == b.target)):  # room freed at b's target
                g.add_edge(a.key, b.key)
    return g


def cyclic_acts(s: Setting) -> set[int]:
    g = dependency_graph(s)
    out: set[int] = set()
    for comp in nx.strongly_connected_components(g):
        if len(comp) > 1 or any(g.has_edge(k, k) for k in comp):
            out |= comp
    return out


# --------------------------------------------------------------------------------------------
# solving


@dataclass
class Solved:
    setting: Setting
    sent: dict[int, int]
    readings: list[dict[int, int]]  # of the rules as written
    complete: bool
    backup: Optional[str]
    cancelled: dict[int, str]  # act key -> why it was cancelled by the backup rule


def make_setting(cmap: ContinentalMap, board: Board, acts: list[Act], rules: ContinentsRules) -> Setting:
    return Setting(capacity={n: v.capacity for n, v in cmap.nodes.items()},
                   owner={n: p for n, (p, _) in board.holdings.items()},
                   units={n: c for n, (_, c) in board.holdings.items()},
                   acts=acts, defend_first=rules.defend_first, reinforcement_losses=rules.reinforcement_losses,
                   attack_room=rules.crowding_in_attack, supporter_losses=_supporter_losses(rules, acts),
                   land_only_support=frozenset(cmap.free_cities()) if rules.free_city_defence_support == "land_attacks_only"
                   else frozenset())


def solve(cmap: ContinentalMap, board: Board, acts: list[Act], rules: ContinentsRules) -> Solved:
    """Find the resolution: enumerate the consistent readings; one = done; several or none =
    the ``ambiguity`` rule (lexicographic priority, then cancelling the cyclic orders where the
    readings differ), solved again until one reading is left."""
    setting = make_setting(cmap, board, acts, rules)
    first = enumerate_readings(setting, READING_LIMIT)
    readings, complete = first.found, first.complete
    if len(readings) == 1 and complete:
        return Solved(setting, readings[0], readings, True, None, {})
    n = len(readings)
    what = "no consistent resolution" if n == 0 else f"{n}{'' if complete else '+'} consistent resolutions"
    if n >= 2 and rules.ambiguity == "priority":
        levels = priority_levels(setting)
        best = enumerate_readings(setting, 2, fixed=levels)
        if len(best.found) == 1:
            return Solved(setting, best.found[0], readings, complete,
                          f"{what}: the earlier orders' priority picks one (most units of everybody's first orders, "
                          "then second, ...)", {})
        pool = best.found
    else:
        pool = readings
    cancelled: dict[int, str] = {}
    current = list(acts)
    cyc = cyclic_acts(setting)
    while True:
        if pool:
            differ = {k for k in pool[0] if len({r[k] for r in pool}) > 1}
            drop = (differ & cyc) or differ
        else:
            drop = cyc or {a.key for a in current}
        why = (f"cancelled: the rules as written give {what} of this round, and this order is in the cycle where "
               "they differ; its units stay (rule ambiguity)")
        for k in drop:
            cancelled[k] = why
        current = [a for a in current if a.key not in cancelled]
        setting = make_setting(cmap, board, current, rules)
        again = enumerate_readings(setting, READING_LIMIT)
        if len(again.found) == 1 and again.complete:
            return Solved(setting, again.found[0], readings, complete,
                          f"{what}: the orders of the cycle are cancelled", cancelled)
        pool = again.found
        cyc = cyclic_acts(setting)


# --------------------------------------------------------------------------------------------
# the position after, battles and explanations


def _after(cmap: ContinentalMap, board: Board, s: Setting, sent: dict[int, int], q: Quantities, rules: ContinentsRules,
           went_back: dict[int, tuple[int, int]]) -> tuple[Board, list[Battle], dict[int, int], dict[int, int]]:
    """The position after the round; battles; per act the battle losses and the survivors."""
    per: dict[tuple[str, str], int] = {}  # (node, player) -> units at the end
    battles: list[Battle] = []
    lost: dict[int, int] = {}
    surv: dict[int, int] = {}
    moves_into: dict[str, list[Act]] = {}
    supports_at: dict[str, list[Act]] = {}
    out_all: dict[str, int] = {}
    for a in s.acts:
        (moves_into if a.kind == "move" else supports_at).setdefault(a.target, []).append(a)
        out_all[a.origin] = out_all.get(a.origin, 0) + sent[a.key]
    returning: list[Act] = []
    back: list[tuple[Act, int]] = []  # attackers over the capacity of what they took, going back

    def send_back_excess(y: str, p: str, mv: list[Act]) -> None:
        """An attacker over the capacity of the country it took (crowding_in_attack = survivors):
        the excess goes back, the last-listed order's units first."""
        excess = per.get((y, p), 0) - s.capacity[y]
        for a in sorted((a for a in mv if a.player == p), key=lambda a: -a.rank):
            if excess <= 0:
                break
            k = min(excess, surv.get(a.key, 0))
            if k:
                surv[a.key] -= k
                per[y, p] -= k
                excess -= k
                back.append((a, k))
    for y in sorted(set(s.owner) | set(moves_into)):
        owner = s.owner.get(y)
        home = s.units.get(y, 0)
        battle = bool(q.battle.get(y, False))
        mv = sorted(moves_into.get(y, []), key=lambda a: (a.player, a.rank))
        if not battle:
            if owner:
                per[y, owner] = per.get((y, owner), 0) + home - out_all.get(y, 0)
            for a in mv:
                per[y, a.player] = per.get((y, a.player), 0) + q.arrive[a.key]
                lost[a.key], surv[a.key] = 0, q.arrive[a.key]
            for p in sorted({a.player for a in mv} - {owner}):
                send_back_excess(y, p, mv)  # an attack on a country its owner left (no battle)
            continue
        sides: list[Side] = []
        winner = None
        for p in q.sides[y]:
            force = q.force[y, p]
            parts = [f"{q.arrive[a.key]} from {cmap.display(a.origin)}" for a in mv if a.player == p and q.arrive[a.key]]
            if p == owner and q.home_def[y]:
                parts.insert(0, f"{q.home_def[y]} defending")
            sups = [a for a in supports_at.get(y, []) if a.beneficiary == p and q.arrive[a.key]]
            parts += [f"support {q.arrive[a.key]} from {cmap.display(a.origin)}" + (f" ({a.player})" if a.player != p else "")
                      for a in sups]
            side_left = force - q.loss[y, p]
            holds_before = per.get((y, p), 0)
            if side_left > 0:
                winner = p
            # the side's own movers: their losses in list order, first order first
            mloss = q.main_loss[y, p]
            if p == owner:
                hl = q.home_loss[y]
                mloss -= hl
                home_left = q.home_def[y] - hl
                keep = home_left - (out_all.get(y, 0) if rules.defend_first == "all_units" else 0)
                if keep:
                    per[y, p] = per.get((y, p), 0) + keep
            for a in [a for a in mv if a.player == p]:
                l = min(q.arrive[a.key], mloss)
                mloss -= l
                lost[a.key], surv[a.key] = l, q.arrive[a.key] - l
                if surv[a.key]:
                    per[y, p] = per.get((y, p), 0) + surv[a.key]
            if force:
                home_going = sum(q.arrive[a.key] - q.support_loss.get(a.key, 0) for a in sups)
                sides.append(Side(player=p, force=force, parts=parts, lost=q.loss[y, p], survivors=side_left,
                                  holds=per.get((y, p), 0) - holds_before, supporters_home=home_going))
        for a in supports_at.get(y, []):
            l = q.support_loss.get(a.key, 0)
            lost[a.key], surv[a.key] = l, q.arrive[a.key] - l
            if surv[a.key]:
                returning.append(a)
        if len(sides) >= 2:
            battles.append(Battle(node=y, sides=sides, winner=winner))
        if winner is not None and winner != owner:
            send_back_excess(y, winner, mv)
    # surviving supporters go home ("do not move into won/occupied countries")
    for a in returning:
        others = [p for (n, p), c in per.items() if n == a.origin and p != a.player and c > 0]
        if others:  # only with defend_first = ordered_leave: their home was taken meanwhile
            lost[a.key] = lost.get(a.key, 0) + surv[a.key]
            surv[a.key] = 0
            continue
        per[a.origin, a.player] = per.get((a.origin, a.player), 0) + surv[a.key]
    for a, k in back:
        others = [p for (n, p), c in per.items() if n == a.origin and p != a.player and c > 0]
        room = 0 if others else s.capacity[a.origin] - per.get((a.origin, a.player), 0)
        home = min(k, max(room, 0))
        if home:
            per[a.origin, a.player] = per.get((a.origin, a.player), 0) + home
        went_back[a.key] = (home, k - home)
        lost[a.key] = lost.get(a.key, 0) + k - home
    holdings: dict[str, tuple[str, int]] = {}
    for (n, p), c in sorted(per.items()):
        if c <= 0:
            continue
        if n in holdings:
            raise AssertionError(f"two players in {n}: {holdings[n][0]} and {p}")
        holdings[n] = (p, c)
    return Board(holdings=holdings), battles, lost, surv


def _explain(cmap: ContinentalMap, a: Act, sent: int, q: Quantities, lost: int, surv: int, battles: dict[str, Battle],
             turned_attack: str, went_back: Optional[tuple[int, int]]) -> OrderOutcome:
    """An acted order's outcome as typed values (its words are rendered from them)."""
    d = cmap.display
    remaining = q.remaining[a.key]
    engaged = a.kind == "move" or bool(q.engaged[a.key])
    there: Optional[int] = None
    room: Optional[int] = None
    stayed = 0
    partial = False
    if sent < a.count and engaged:
        if remaining < a.count:
            there = max(remaining, 0)
        if a.kind == "move" and a.key in q.room and sent < min(a.count, max(remaining, 0)):
            room = max(q.room[a.key], 0)
            stayed = min(a.count, max(remaining, 0)) - sent
            partial = sent > 0
    at_sea = min(a.sea, sent)
    arrive = q.arrive[a.key]
    b = battles.get(a.target)
    result: Result
    if a.kind == "move":
        if sent == 0:
            result = "held_back"
        elif arrive == 0:
            result = "died_at_sea"
        elif b is None:
            result = "partial" if partial else "moved"
        elif b.winner == a.player:
            result = "partial" if partial else "won"
        else:
            result = "lost"
    elif not engaged:
        result = "no_battle"
    elif sent == 0:
        result = "held_back"
    else:
        assert b is not None
        result = "supported" if b.winner == a.beneficiary else "support_lost"
    fought = b is not None and result not in ("held_back", "died_at_sea", "no_battle")
    return OrderOutcome(
        player=a.player, text=a.text, result=result, kind="move" if a.kind == "move" else "support",
        origin=d(a.origin), target=d(a.target), node=a.target, beneficiary=a.beneficiary if a.kind != "move" else "",
        asked=a.count, there=there, after_defence=there is not None and bool(q.battle.get(a.origin, False)),
        room=room, capacity=cmap.nodes[a.target].capacity, stayed_behind=stayed, sent=sent, lost_at_sea=at_sea,
        arrived=arrive, battle=fought,
        foes=tuple(Foe(player=s.player, force=s.force) for s in b.sides if s.player != a.player) if fought and b else (),
        winner=b.winner if fought and b else None, holder=b.holder() if fought and b else None,
        lost_in_battle=lost, survivors=surv, turned_attack=turned_attack, went_back=went_back)


def adjudicate_round(cmap: ContinentalMap, board: Board, orders: dict[str, list[str]], rules: ContinentsRules,
                     create: bool = True, round_no: Optional[int] = None) -> RoundResult:
    """Creation (when ``create``), then the orders: the whole round."""
    start = board
    created: list[Creation] = []
    if create:
        board, created = create_units(cmap, board)
    players = sorted(set(board.players()) | set(orders))
    allow = {p: allowance(cmap, start, p, rules) for p in players}
    checked = check_orders(cmap, board, orders, rules, allow)
    solved = solve(cmap, board, checked.acts, rules)
    q, bad = evaluate(solved.setting, solved.sent)
    assert not bad
    went_back: dict[int, tuple[int, int]] = {}
    after, battles, lost, surv = _after(cmap, board, solved.setting, solved.sent, q, rules, went_back)
    by_node = {b.node: b for b in battles}
    outcomes: list[OrderOutcome] = []
    act_of = {(a.player, a.rank): a for a in checked.acts}
    for p in sorted(orders):
        for i, text in enumerate(orders[p]):
            if (p, i) in checked.rejected:
                outcomes.append(checked.rejected[p, i])
                continue
            a = act_of[p, i]
            if a.key in solved.cancelled:
                outcomes.append(OrderOutcome(player=p, text=text, result="cancelled", message=solved.cancelled[a.key],
                                             node=a.target, origin=cmap.display(a.origin), target=cmap.display(a.target)))
                continue
            outcomes.append(_explain(cmap, a, solved.sent[a.key], q, lost.get(a.key, 0), surv.get(a.key, 0), by_node,
                                     checked.turned.get(a.key, ""), went_back.get(a.key)))
    return RoundResult(map_title=cmap.title, continent_names={c: v.name for c, v in cmap.continents.items()}, rules=rules.name, round=round_no, created=created,
                       allowance={p: n for p, (n, _) in allow.items()}, outcomes=outcomes, battles=battles,
                       readings=len(solved.readings), readings_complete=solved.complete, backup=solved.backup,
                       before=start, after=after, majorities=majorities(cmap, after),
                       winners=winners(cmap, after, rules))
