"""One player's actions in one stage, checked jointly with CP-SAT, then carried out.

Checks come in two layers.  Each action alone must be legal where it stands (the stage allows
its verb; adjacency, ports, controlled territory for an airlift, no entry into a zone another
power holds or into another superpower's empty home territory: those need Stage 4; loan
restrictions): every illegal action is reported, with its reason.  Then the legal actions are
checked *together*, in the order written, against everything they consume: money, Grain, Oil,
Mineral, nukes and L-Stars (0..12 in the supply center), armies in each territory, each navy's
load (0..4), the recipient's supply center for transfers.  The model (CP-SAT, integer):

    x_i            = action i is carried out (an assumption literal per action)
    b_q            = quantity q's bounds are enforced (an assumption literal per quantity)
    q_t            = q_0 + sum_{j <= t} x_j * delta_j(q),  lo_q <= q_t <= hi_q   for every t, if b_q
    market price   = an element of the value track at the step reached by the earlier buys
                     (sells) of the same resource, clamped at steps 1 and 18

With every x_i and b_q assumed, the set is feasible exactly when the
actions can all be carried out in order.  When it is not, the CP-SAT service
(:func:`dipsat.engine.cpsat.minimal_core`: the solver's own core, shrunk by halves) finds a minimal set
of actions that cannot be carried out together whatever the other actions do; a last pass over
that small set drops any action that is not needed when the other actions are not carried out
(every proper subset of the set can then be carried out alone), and the service finds the
minimal set of quantities the set breaks: ``why`` reports both.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any, Optional, cast

from dipsat.errors import DipsatError
from dipsat.records import dataclass

from . import blockades, economy
from .actions import Action, ActionError, find_navy_index, parse_actions
from .board import RESOURCES, Board, Resource
from .builds import build_zones
from .dice import Dice
from .options import SupremacyOptions
from .state import CAPACITY, MARKET_VALUES, NAVY_CAPACITY, Navy, State

if TYPE_CHECKING:  # OR-Tools (numpy, pandas: ~0.4 s) is imported only when a stage is checked
    from ortools.sat.python import cp_model

ANY_TIME = ("blockade", "siege", "lift", "draw")  # Blockades and Sieges: "at any time"; a captured center's use
STAGE_VERBS: dict[int, set[str]] = {
    1: {"repay", "loan", "pass", *ANY_TIME},
    2: {"loan", "pass", *ANY_TIME},
    3: {"sell", "transfer", "exchange", "loan", "pass", *ANY_TIME},
    4: {"loan", "pass", *ANY_TIME},
    5: {"march", "sail", "airlift", "board", "unload", "loan", "pass", *ANY_TIME},
    6: {"build", "transfer", "exchange", "loan", "pass", *ANY_TIME},
    7: {"buy", "transfer", "exchange", "loan", "pass", *ANY_TIME},
    8: {"prospect", "loan", "pass", *ANY_TIME},
}
# Diplomacy: "Transferring money and resources may be done in Stage 3 and Stage 7. Transferring money,
# conventional forces, and strategic forces may be done in Stage 6. No other transfers are allowed."
TRANSFERABLE: dict[int, set[str]] = {3: {"money", *RESOURCES}, 7: {"money", *RESOURCES},
                                     6: {"money", "army", "navy", "nuke", "lstar"}}
FORCES = ("army", "navy")
UNBOUNDED = 10 ** 9


class IllegalActions(DipsatError):
    def __init__(self, problems: list[tuple[Action, str]]):
        self.problems = problems
        super().__init__("illegal: " + "; ".join(f"{a.text!r}: {why}" for a, why in problems))


class InfeasibleStage(DipsatError):
    """The actions are each legal but cannot all be carried out; names a minimal conflicting set."""

    def __init__(self, power: str, actions: list[Action], quantities: list[str], detail: list[str]):
        self.power = power
        self.actions = actions
        self.quantities = quantities
        self.detail = detail
        super().__init__(f"{power}'s actions cannot all be carried out; a minimal conflicting set: "
                         + "; ".join(repr(a.text) for a in actions)
                         + (f" (over {', '.join(quantities)})" if quantities else ""))


@dataclass
class Quantity:
    name: str  # readable: "USA Grain", "armies in American West", "navy 1 (Caribbean Sea) load"
    start: int
    lo: int
    hi: int
    terms: list[tuple[int, Any]] = field(default_factory=list)  # (action index, delta: int or IntVar)


@dataclass
class StageCheck:
    power: str
    actions: list[Action]
    feasible: bool
    conflict: list[Action] = field(default_factory=list)
    quantities: list[str] = field(default_factory=list)
    detail: list[str] = field(default_factory=list)


def _navy_list(state: State, power: str) -> list[tuple[str, int]]:
    return [(n.sea, n.armies) for n in state.holdings(power).navies]


class _Builder:
    """Static checks and the quantities of one action list."""

    def __init__(self, state: State, power: str, stage: int, opts: SupremacyOptions, acts: list[Action]):
        self.state, self.power, self.stage, self.opts, self.acts = state, power, stage, opts, acts
        self.board: Board = state.get_board()
        self.h = state.holdings(power)
        self.q: dict[str, Quantity] = {}
        self.market: list[tuple[int, str, str, int]] = []  # (action index, resource, buy|sell, units)
        self.navy_refs: dict[int, int] = {}  # action index -> navy index
        self.problems: list[tuple[Action, str]] = []
        self.given: dict[str, int] = {}  # zone -> index of the last action handing forces over there
        self.taken: set[str] = set()  # zones whose forces an exchange brings from the other player

    def transfer_force(self, i: int, a: Action, navies: list[list[Any]]) -> None:
        """Stage 6: a conventional force changes hands (option ``force_transfer``).  With 'in_place'
        it changes owner where it stands, a navy with the armies aboard; since two superpowers may not
        share a zone, the giver must hand over every force it has there (checked after the list)."""
        self.opts.need("force_transfer", f"{a.text!r}")
        others = self.state.occupants(a.src)
        if any(o not in (self.power, a.to) for o in others):
            raise ActionError(f"{self.board.zone_name(a.src)} is shared with another power")
        if a.item == "army":
            if a.src not in self.board.territories:
                raise ActionError(f"{self.board.zone_name(a.src)} is not a territory")
            self.armies(a.src).terms.append((i, -a.count))
        else:
            k = find_navy_index([tuple(n) for n in navies], a.src, a.navy)
            if k is None:
                raise ActionError(f"{self.power} has no navy #{a.navy} in {self.board.zone_name(a.src)}")
            navies[k][0] = ""  # handed over: no later action of this list can use it
            self.navy_refs[i] = k
        self.given[a.src] = i

    def receive_forces(self, i: int, a: Action, navies: list[list[Any]]) -> None:
        """An exchange brings the other player's forces (option ``force_transfer``): with 'in_place'
        they change owner where they stand, and they must be every force it has in that zone."""
        self.opts.need("force_transfer", f"{a.text!r}")
        b, other = self.board, self.state.holdings(a.to)
        zone = a.back_src
        if zone in self.taken:
            raise ActionError(f"{a.to}'s forces in {b.zone_name(zone)} are already exchanged in this list")
        if a.back_item == "army":
            have = other.armies.get(zone, 0)
            if zone not in b.territories or have != a.back:
                raise ActionError(f"{a.to} has {have} armies in {b.zone_name(zone)}: an exchange in place takes every "
                                  f"force it has there (force_transfer 'in_place'; two superpowers may not share a zone)")
            self.armies(zone).terms.append((i, a.back))
        else:
            theirs = [nv for nv in other.navies if nv.sea == zone]
            if len(theirs) != 1 or a.back_navy != 1:
                raise ActionError(f"{a.to} has {len(theirs)} navies in {b.zone_name(zone)}: an exchange in place takes "
                                  "every force it has there, one navy per exchange (force_transfer 'in_place')")
            navies.append([zone, theirs[0].armies])
        self.taken.add(zone)

    def check_handovers(self, navies: list[list[Any]]) -> None:
        """After the list: a zone where forces were handed over holds none of the giver's forces."""
        for zone, i in sorted(self.given.items()):
            q = self.q.get(f"armies:{zone}")
            left = (q.start + sum(d for _, d in q.terms if isinstance(d, int))) if q else self.h.armies.get(zone, 0)
            left += sum(1 for sea, _ in navies if sea == zone)
            left += sum(b.count for b in self.acts if b.verb == "build" and b.item == "navy" and b.dst == zone)
            if left > 0:
                a = self.acts[i]
                self.problems.append((a, f"{self.power} would keep forces in {self.board.zone_name(zone)} beside "
                                         f"{a.to}'s: hand over every force there (force_transfer 'in_place'; two "
                                         "superpowers may not share a zone)"))

    def qty(self, key: str, name: str, start: int, lo: int = 0, hi: int = UNBOUNDED) -> Quantity:
        if key not in self.q:
            self.q[key] = Quantity(name, start, lo, hi)
        return self.q[key]

    def res(self, power: str, r: str) -> Quantity:
        h = self.state.holdings(power)
        label = {"grain": "Grain", "oil": "Oil", "mineral": "Mineral", "nuke": "nukes", "lstar": "L-Stars"}[r]
        attr = {"nuke": "nukes", "lstar": "lstars"}.get(r, r)
        return self.qty(f"{power}:{r}", f"{power} {label}", int(getattr(h, attr)), 0, CAPACITY)

    def money(self, power: str) -> Quantity:
        return self.qty(f"{power}:money", f"{power} money", self.state.holdings(power).money)

    def armies(self, zone: str) -> Quantity:
        return self.qty(f"armies:{zone}", f"{self.power} armies in {self.board.zone_name(zone)}", self.h.armies.get(zone, 0))

    def load(self, i: int) -> Quantity:
        sea, aboard = _navy_list(self.state, self.power)[i]
        return self.qty(f"navy:{i}", f"load of {self.power}'s navy {i + 1} ({self.board.zone_name(sea)})", aboard, 0,
                        NAVY_CAPACITY)

    def build(self) -> None:
        b, st, p = self.board, self.state, self.power
        navies = [list(x) for x in _navy_list(st, p)]
        where_armies = dict(self.h.armies)  # simulated, for control and airlift
        for i, a in enumerate(self.acts):
            try:
                self.one(i, a, navies, where_armies)
            except ActionError as exc:
                self.problems.append((a, str(exc)))
        self.check_handovers(navies)

    def _enterable(self, zone: str, where_armies: dict[str, int]) -> None:
        occ = [o for o in self.state.occupants(zone) if o != self.power]
        if occ:
            raise ActionError(f"{self.board.zone_name(zone)} is held by {occ[0]}: entering it needs an attack (Stage 4)")
        t = self.board.territories.get(zone)
        if t is not None and t.home and t.home != self.power and t.home in self.state.powers and not where_armies.get(zone):
            raise ActionError(f"{t.name} is an empty home territory of {t.home}: it must be attacked to be entered "
                              "(Conventional Assault 1)")

    def one(self, i: int, a: Action, navies: list[list[Any]], where: dict[str, int]) -> None:
        b = self.board
        if a.verb not in STAGE_VERBS.get(self.stage, set()):
            raise ActionError(f"Stage {self.stage} does not allow '{a.verb}'")
        if a.verb == "pass":
            return
        blockades.check_effects(self.state, self.opts, self.power, a.verb, blockades.action_zones(a), repr(a.text))
        if a.verb == "march":
            if a.src not in b.territories or a.dst not in b.territories or a.dst not in b.territories[a.src].adjacent:
                raise ActionError(f"{b.zone_name(a.src)} and {b.zone_name(a.dst)} are not adjacent territories "
                                  "(march moves an army 1 territory)")
            self._enterable(a.dst, where)
            self.armies(a.src).terms.append((i, -a.count))
            self.armies(a.dst).terms.append((i, a.count))
            self.res(self.power, "grain").terms.append((i, -a.count))
            where[a.dst] = where.get(a.dst, 0) + a.count
        elif a.verb == "airlift":
            if a.src not in b.territories or a.dst not in b.territories:
                raise ActionError("an airlift moves armies between territories")
            ctrl = self.state.controller(a.dst)
            if ctrl != self.power and not (ctrl is None and where.get(a.dst)):
                raise ActionError(f"{b.zone_name(a.dst)} is not controlled by {self.power} (an airlift goes to a "
                                  "controlled territory)")
            self.armies(a.src).terms.append((i, -a.count))
            self.armies(a.dst).terms.append((i, a.count))
            self.res(self.power, "oil").terms.append((i, -2 * a.count))
        elif a.verb == "sail":
            k = find_navy_index([tuple(n) for n in navies], a.src, a.navy)
            if k is None:
                raise ActionError(f"{self.power} has no navy #{a.navy} in {b.zone_name(a.src)}")
            if a.dst not in b.seas or a.dst not in b.seas[a.src].adjacent:
                raise ActionError(f"{b.zone_name(a.dst)} is not a sea adjacent to {b.zone_name(a.src)} (sail: 1 sea)")
            self._enterable(a.dst, where)
            navies[k][0] = a.dst
            self.navy_refs[i] = k
            self.res(self.power, "oil").terms.append((i, -1))
        elif a.verb in ("board", "unload"):
            terr, sea = (a.src, a.dst) if a.verb == "board" else (a.dst, a.src)
            k = find_navy_index([tuple(n) for n in navies], sea, a.navy)
            if k is None:
                raise ActionError(f"{self.power} has no navy #{a.navy} in {b.zone_name(sea)}")
            if terr not in b.territories or sea not in b.territories[terr].ports:
                raise ActionError(f"{b.zone_name(terr)} has no port into {b.zone_name(sea)} ({a.verb} only at ports)")
            if a.verb == "board":
                if a.count > NAVY_CAPACITY:
                    raise ActionError(f"a boarding moves up to {NAVY_CAPACITY} armies, not {a.count}")
                self.armies(terr).terms.append((i, -a.count))
                self.load(k).terms.append((i, a.count))
                self.res(self.power, "oil").terms.append((i, -1))
            else:
                self._enterable(terr, where)
                self.load(k).terms.append((i, -a.count))
                self.armies(terr).terms.append((i, a.count))
                where[terr] = where.get(terr, 0) + a.count
            self.navy_refs[i] = k
        elif a.verb in ("buy", "sell"):
            if a.verb == "buy" and self.h.loan is not None and self.h.loan.defaulted:
                raise ActionError(f"{self.power}'s loan is in default: no buying from the market until it is paid "
                                  "back down to its original value (Bank Loans)")
            if any(r == a.item and d != a.verb for _, r, d, _ in self.market):
                raise ActionError(f"both buying and selling {a.item} in one stage")
            self.market.append((i, a.item, a.verb, a.count))
            self.res(self.power, a.item).terms.append((i, a.count if a.verb == "buy" else -a.count))
        elif a.verb == "loan":
            if self.h.loan is not None or any(x.verb == "loan" for x in self.acts[:i]):
                raise ActionError(f"{self.power} already has a bank loan")
            limit = economy.loan_limit(self.state, self.power)
            if a.count > limit:
                raise ActionError(f"the limit is ${limit} million ($500 million per untapped, face-up company)")
            self.money(self.power).terms.append((i, a.count))
        elif a.verb == "repay":
            if self.h.loan is None:
                raise ActionError(f"{self.power} has no bank loan")
            if self.h.loan.defaulted:
                raise ActionError(f"{self.power}'s loan is in default: it may not pay down the principal (Bank Loans)")
            self.money(self.power).terms.append((i, -a.count))
            self.qty(f"{self.power}:loan", f"{self.power} loan principal", self.h.loan.principal).terms.append((i, -a.count))
        elif a.verb == "exchange":
            for item in (a.item, a.back_item):
                if item not in TRANSFERABLE.get(self.stage, set()):
                    raise ActionError(f"Stage {self.stage} does not allow exchanging {item} (Diplomacy)")
            if a.to == self.power or a.to not in self.state.powers:
                raise ActionError(f"cannot exchange with {a.to}")
            if a.item in FORCES:  # my forces go, as in a transfer
                self.transfer_force(i, a, navies)
            else:
                q_from = self.money(self.power) if a.item == "money" else self.res(self.power, a.item)
                q_to = self.money(a.to) if a.item == "money" else self.res(a.to, a.item)
                q_from.terms.append((i, -a.count))
                q_to.terms.append((i, a.count))
            if a.back_item in FORCES:  # the other's forces come, every one it has where they stand
                self.receive_forces(i, a, navies)
            else:
                q_from = self.money(a.to) if a.back_item == "money" else self.res(a.to, a.back_item)
                q_to = self.money(self.power) if a.back_item == "money" else self.res(self.power, a.back_item)
                q_from.terms.append((i, -a.back))
                q_to.terms.append((i, a.back))
        elif a.verb == "transfer":
            if a.item not in TRANSFERABLE.get(self.stage, set()):
                raise ActionError(f"Stage {self.stage} does not allow transferring {a.item} (Diplomacy)")
            if a.to == self.power or a.to not in self.state.powers:
                raise ActionError(f"cannot transfer to {a.to}")
            if a.item in FORCES:
                self.transfer_force(i, a, navies)
            elif a.item == "money":
                self.money(self.power).terms.append((i, -a.count))
                self.money(a.to).terms.append((i, a.count))
            else:
                self.res(self.power, a.item).terms.append((i, -a.count))
                self.res(a.to, a.item).terms.append((i, a.count))
        elif a.verb == "build":
            costs = self.opts.need("build_costs", f"{a.text!r}")
            assert isinstance(costs, dict)
            if a.item not in costs:
                raise ActionError(f"the build_costs table has no price for {a.item}")
            if a.item in ("army", "navy"):
                ok = build_zones(self.state, self.power, a.item, self.opts.need("build_placement", f"{a.text!r}"))
                if a.dst not in ok:
                    raise ActionError(f"a new {a.item} goes in {', '.join(b.zone_name(z) for z in ok) or 'no zone'}, "
                                      f"not {b.zone_name(a.dst)} (build_placement {self.opts.build_placement!r})")
                if a.item == "army":
                    self.armies(a.dst).terms.append((i, a.count))
            else:
                self.res(self.power, a.item).terms.append((i, a.count))
            for what, n in sorted(costs[a.item].items()):
                if what == "money":
                    self.money(self.power).terms.append((i, -n * a.count))
                elif what in RESOURCES:
                    self.res(self.power, what).terms.append((i, -n * a.count))
                else:
                    raise ActionError(f"build_costs: unknown cost item {what!r}")
        elif a.verb in ("blockade", "siege"):
            blockades.check_declaration(self.state, a)
        elif a.verb == "lift":
            blockades.check_lift(self.state, a)
        elif a.verb == "draw":
            blockades.check_draw(self.state, self.opts, a)
            self.res(a.to, a.item).terms.append((i, -a.count))
            self.res(self.power, a.item).terms.append((i, a.count))


def _price_table(r_values: tuple[int, ...], units: int, sell: bool, per_unit: bool) -> list[int]:
    """Index = market step (0 unused): the money for ``units`` units traded from that step."""
    top = len(r_values)
    out = [0]
    for p in range(1, top + 1):
        if not per_unit:
            out.append(units * r_values[p - 1])
            continue
        s, pos = 0, p
        for _ in range(units):
            s += r_values[pos - 1]
            pos = max(pos - 1, 1) if sell else min(pos + 1, top)
        out.append(s)
    return out


def _model(bld: _Builder) -> tuple[cp_model.CpModel, list[cp_model.IntVar], dict[str, cp_model.IntVar]]:
    from dipsat.engine import cpsat

    m = cpsat.new_model()
    x = [m.new_bool_var(f"act_{i}") for i in range(len(bld.acts))]
    top = len(MARKET_VALUES)
    per_unit = bld.opts.market_step == "per_unit"
    # market: the money of each trade
    done: dict[str, list[tuple[int, int, bool]]] = {}
    for i, r, verb, units in bld.market:
        sell = verb == "sell"
        earlier = done.setdefault(r, [])
        m0 = bld.state.market[cast(Resource, r)]
        raw = m.new_int_var(-10 * top, 10 * top, f"raw_{r}_{i}")
        m.add(raw == m0 + sum((-1 if s else 1) * (u if per_unit else 1) * x[j] for j, u, s in earlier))
        pos = m.new_int_var(1, top, f"pos_{r}_{i}")
        if sell:
            m.add_max_equality(pos, [raw, 1])
        else:
            m.add_min_equality(pos, [raw, top])
        price = m.new_int_var(0, UNBOUNDED, f"price_{r}_{i}")
        m.add_element(pos, _price_table(MARKET_VALUES, units, sell, per_unit), price)
        money = m.new_int_var(0, UNBOUNDED, f"money_{r}_{i}")
        m.add(money == price).only_enforce_if(x[i])
        m.add(money == 0).only_enforce_if(x[i].negated())
        bld.money(bld.power).terms.append((i, -money if not sell else money))
        earlier.append((i, units, sell))
    b = {}
    for key in sorted(bld.q):
        q = bld.q[key]
        lit = b[key] = m.new_bool_var(f"bound_{key}")
        terms = sorted(q.terms, key=lambda z: z[0])
        for t in range(len(terms)):
            expr = q.start + sum(d * x[j] if isinstance(d, int) else d for j, d in terms[:t + 1])
            m.add(expr >= q.lo).only_enforce_if(lit)
            if q.hi < UNBOUNDED:
                m.add(expr <= q.hi).only_enforce_if(lit)
    return m, x, b


def check_stage(state: State, power: str, stage: int, texts: list[str], opts: SupremacyOptions) -> StageCheck:
    """Check one player's action list; raise :class:`IllegalActions` for actions illegal alone."""
    from dipsat.engine import cpsat

    board = state.get_board()
    acts = parse_actions(board, power, texts)
    bld = _Builder(state, power, stage, opts, acts)
    bld.build()
    if bld.problems:
        raise IllegalActions(bld.problems)
    m, x, b = _model(bld)
    bkeys = sorted(b)
    all_b = [b[k] for k in bkeys]
    label = f"{power}'s stage {stage}"
    core = cpsat.minimal_core(m, x, label, fixed=all_b)
    if core is None:
        return StageCheck(power, acts, True)
    # the core holds whatever the other actions do; with the others not carried out, a smaller
    # set may already fail: drop each member that is not needed then (a few solves: the core is small)
    conflict = core or list(range(len(acts)))
    for i in list(conflict):
        trial = [j for j in conflict if j != i]
        m.clear_assumptions()
        m.add_assumptions([*(x[j] if j in trial else x[j].negated() for j in range(len(acts))), *all_b])
        if not cpsat.solve(m, label, cpsat.CORE_PARAMS).feasible:
            conflict = trial
    on_off: list[Any] = [x[j] if j in conflict else x[j].negated() for j in range(len(acts))]
    kept = cpsat.minimal_core(m, all_b, label, fixed=on_off) or []
    keys = [bkeys[k] for k in kept]
    names = [bld.q[key].name for key in keys]
    detail = [f"{bld.q[key].name}: starts at {bld.q[key].start}, must stay within {bld.q[key].lo}.."
              + (str(bld.q[key].hi) if bld.q[key].hi < UNBOUNDED else "") for key in keys]
    return StageCheck(power, acts, False, [acts[i] for i in conflict], names, detail)


def apply_actions(state: State, power: str, acts: list[Action], opts: SupremacyOptions,
                  dice: Optional[Dice] = None) -> list[str]:
    """Carry out a checked action list on ``state`` (in place); returns what happened, per action
    (``dice``: the random source of prospects' draws)."""
    h = state.holdings(power)
    log: list[str] = []
    navies = h.navies
    positions = [(n.sea, n.armies) for n in navies]
    for a in acts:
        if a.verb == "pass":
            log.append("pass")
        elif a.verb in ("march", "airlift"):
            h.armies[a.src] = h.armies.get(a.src, 0) - a.count
            h.armies[a.dst] = h.armies.get(a.dst, 0) + a.count
            if a.verb == "march":
                h.grain -= a.count
            else:
                h.oil -= 2 * a.count
            log.append(f"{a.count} army -> {a.dst}")
        elif a.verb == "sail":
            k = find_navy_index(positions, a.src, a.navy)
            assert k is not None
            navies[k].sea = a.dst
            positions[k] = (a.dst, positions[k][1])
            h.oil -= 1
            log.append(f"navy -> {a.dst}")
        elif a.verb == "board":
            k = find_navy_index(positions, a.dst, a.navy)
            assert k is not None
            h.armies[a.src] = h.armies.get(a.src, 0) - a.count
            navies[k].armies += a.count
            h.oil -= 1
            log.append(f"{a.count} army aboard navy {k + 1}")
        elif a.verb == "unload":
            k = find_navy_index(positions, a.src, a.navy)
            assert k is not None
            navies[k].armies -= a.count
            h.armies[a.dst] = h.armies.get(a.dst, 0) + a.count
            log.append(f"{a.count} army -> {a.dst}")
        elif a.verb == "buy":
            t = economy.buy(state, power, cast(Resource, a.item), a.count, opts)
            log.append(f"paid ${t.money} million; market step {t.steps[0]} -> {t.steps[1]}")
        elif a.verb == "sell":
            t = economy.sell(state, power, cast(Resource, a.item), a.count, opts)
            log.append(f"received ${t.money} million" + (f" (${t.to_bank} million to the bank)" if t.to_bank else "")
                       + f"; market step {t.steps[0]} -> {t.steps[1]}")
        elif a.verb == "loan":
            tapped = economy.take_loan(state, power, a.count, opts)
            log.append(f"borrowed ${a.count} million" + (f"; tapped {', '.join(tapped)}" if tapped else ""))
        elif a.verb == "repay":
            economy.repay(state, power, a.count)
            log.append(f"repaid ${a.count} million")
        elif a.verb == "exchange":
            other = state.holdings(a.to)
            if a.item == "army":
                h.armies[a.src] -= a.count
                other.armies[a.src] = other.armies.get(a.src, 0) + a.count
            elif a.item == "navy":
                k = find_navy_index(positions, a.src, a.navy)
                assert k is not None
                positions.pop(k)
                other.navies.append(navies.pop(k))
            if a.back_item == "army":
                other.armies.pop(a.back_src)
                h.armies[a.back_src] = h.armies.get(a.back_src, 0) + a.back
            elif a.back_item == "navy":
                nv = next(x for x in other.navies if x.sea == a.back_src)
                other.navies.remove(nv)
                navies.append(nv)
                positions.append((nv.sea, nv.armies))
            for src, dst, item, n in ((h, other, a.item, a.count), (other, h, a.back_item, a.back)):
                if item not in FORCES:
                    attr = {"nuke": "nukes", "lstar": "lstars"}.get(item, item)
                    setattr(src, attr, getattr(src, attr) - n)
                    setattr(dst, attr, getattr(dst, attr) + n)
            log.append(f"{_goods_text(a.count, a.item, a.src)} for {_goods_text(a.back, a.back_item, a.back_src)} "
                       f"with {a.to}")
        elif a.verb == "transfer" and a.item == "army":
            other = state.holdings(a.to)
            h.armies[a.src] -= a.count
            other.armies[a.src] = other.armies.get(a.src, 0) + a.count
            log.append(f"{a.count} army in {a.src} now {a.to}'s")
        elif a.verb == "transfer" and a.item == "navy":
            k = find_navy_index(positions, a.src, a.navy)
            assert k is not None
            other = state.holdings(a.to)
            nv = navies.pop(k)
            positions.pop(k)
            other.navies.append(nv)
            log.append(f"navy in {a.src}" + (f" (+{nv.armies} armies aboard)" if nv.armies else "") + f" now {a.to}'s")
        elif a.verb == "transfer":
            other = state.holdings(a.to)
            attr = {"nuke": "nukes", "lstar": "lstars"}.get(a.item, a.item)
            setattr(h, attr, getattr(h, attr) - a.count)
            setattr(other, attr, getattr(other, attr) + a.count)
            log.append(f"{a.count} {a.item} to {a.to}")
        elif a.verb == "build":
            costs = opts.need("build_costs", a.text)
            assert isinstance(costs, dict)
            for what, n in costs[a.item].items():
                setattr(h, what, getattr(h, what) - n * a.count)
            if a.item == "army":
                h.armies[a.dst] = h.armies.get(a.dst, 0) + a.count
            elif a.item == "navy":
                h.navies.extend(Navy(sea=a.dst) for _ in range(a.count))
            else:
                attr = {"nuke": "nukes", "lstar": "lstars"}[a.item]
                setattr(h, attr, getattr(h, attr) + a.count)
            log.append(f"built {a.count} {a.item}")
        elif a.verb == "prospect":
            log.append(economy.prospect(state, power, opts, dice))
        elif a.verb in ("blockade", "siege", "lift"):
            log.append(blockades.apply_declaration(state, a))
        elif a.verb == "draw":
            other = state.holdings(a.to)
            attr = {"nuke": "nukes", "lstar": "lstars"}.get(a.item, a.item)
            setattr(other, attr, getattr(other, attr) - a.count)
            setattr(h, attr, getattr(h, attr) + a.count)
            log.append(f"{a.count} {a.item} from {a.to}'s captured supply center")
    h.armies = {z: n for z, n in sorted(h.armies.items()) if n}
    for p, hh in state.powers.items():
        for r in (*RESOURCES, "nukes", "lstars"):
            v = getattr(hh, r)
            if not 0 <= v <= CAPACITY or hh.money < 0:
                raise DipsatError(f"internal: {p} {r} = {v} after a checked stage (the joint check missed it)")
    return log


def _goods_text(n: int, item: str, zone: str) -> str:
    return f"{n} {item}" + (f" {zone}" if item in FORCES else "")


def run_stage(state: State, power: str, stage: int, texts: list[str], opts: SupremacyOptions,
              dice: Optional[Dice] = None) -> list[str]:
    chk = check_stage(state, power, stage, texts, opts)
    if not chk.feasible:
        raise InfeasibleStage(power, chk.conflict, chk.quantities, chk.detail)
    return apply_actions(state, power, chk.actions, opts, dice)
