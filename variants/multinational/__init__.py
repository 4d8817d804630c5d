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

from collections import deque
from dataclasses import dataclass
from functools import cached_property, partial
from typing import TYPE_CHECKING, Any, Literal, Optional

from dipsat.equations import AND, FALSE, NOT, OR, TRUE, Formula, Values
from dipsat.errors import DipsatError, InputFileError, PositionError
from dipsat.errors import IllegalOrder, InvalidOrder, OrderError
from dipsat.models import (Bounced, Built, Convoy, Disbanded, Lots, Move, Moved, NoPath, OrderBody, OrderRef, Outcome, Position,
                           Rejected, Support, Tally, TallyPart, Waived, register_order_kind)
from dipsat.movement import Encoding, MovementRules, Terms, decision_key, term_value
from dipsat.notation import Addition, Cursor, ParsedOrder
from dipsat.notation_additions import NationNotation, SupportsWithMove
from dipsat.orders import Geography, OrderBinder, describe_unit
from dipsat.adjustments import AdjustmentResult
from dipsat.rules import RuleOptions
from dipsat.phases import DiplomacyYear, Phases, Victory
from dipsat.variant import Variant, home_owners

if TYPE_CHECKING:
    from dipsat.render import RenderHints

KINDS: dict[str, dict[str, Any]] = {
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


@register_order_kind
class FlyOver(Move):
    """A fly-over (rule 6): a move that attacks nothing, along a written route."""

    kind: str = "flyover"
    route: tuple[str, ...] = ()  # the states it crosses, in order


@dataclass(frozen=True)
class FlyOverRoute(Addition):
    """The states a fly-over crosses, as written after ``FO``."""

    route: tuple[str, ...]


@dataclass(frozen=True)
class Allowance:
    """``AL EX [M Sas] [Mon Wyo ...]``: ``giver`` lets ``to`` fly over its states (only the power of
    ``kind`` standing on ``origin``, when one is named; only ``states``, when listed)."""

    giver: str
    to: str
    kind: Optional[str]
    origin: Optional[str]
    states: tuple[str, ...]


class MultinationalNotation(SupportsWithMove, NationNotation):
    """The core's notation with the multinationals' codes before a power (``S CC M Ida – Ore``),
    the power kinds E, M, P, fly-overs (``FO``) and supports written with a move."""

    extra_keywords = {"fo": "FO", "flyover": "FO"}

    def parse_move_tail(self, p: Cursor, order: ParsedOrder) -> None:
        """``M Clm – Mri FO Alb Mon Sda``: a fly-over names its whole route."""
        t = p.peek()
        if t is not None and t.kind == "FO":
            p.next()
            route = []
            while (t := p.peek()) is not None and t.kind == "PROV":
                route.append(p.expect_prov("a state of the route").province)
            order.additions = (*order.additions, FlyOverRoute(tuple(route)))
        super().parse_move_tail(p, order)

    kind_words = {"e": "E", "m": "M", "p": "P", "economical": "E", "economic": "E", "military": "M",
                  "political": "P", "a": "A"}  # "A" only appears as the seed's slip in example f

    def power_kind(self, word: str) -> Optional[tuple[Optional[str], Optional[str]]]:
        if word in MULTINATIONALS:
            return MULTINATIONALS[word], None
        return None

    @staticmethod
    def is_allowance(text: str) -> bool:
        words = text.split()
        return bool(words) and words[0].lower() == "al"

    def parse_allowance(self, power: str, text: str) -> Allowance:
        """``AL EX``; ``AL EX M Sas``; ``AL EX Mon Wyo``; ``AL EX M Sas Mon`` (rule 6: an
        allowance to fly over one's states, for a multinational, one of its powers, some states)."""
        words = text.replace(",", " ").split()[1:]
        if not words or words[0].lower() not in MULTINATIONALS:
            raise InvalidOrder(text, "an allowance names a multinational: 'AL EX', 'AL EX M Sas', 'AL EX Mon Wyo'")
        to = MULTINATIONALS[words[0].lower()]
        kind = origin = None
        rest = words[1:]
        if len(rest) >= 2 and rest[0].lower() in ("e", "m", "p"):
            kind = rest[0].upper()
            origin = self.map.lookup_province(rest[1])
            if origin is None:
                raise InvalidOrder(text, f"unknown state {rest[1]!r} (the state of the {kind} power allowed)")
            rest = rest[2:]
        states = []
        for w in rest:
            pid = self.map.lookup_province(w)
            if pid is None:
                raise InvalidOrder(text, f"unknown state {w!r}")
            states.append(pid)
        return Allowance(power, to, kind, origin, tuple(states))


class MultinationalGeography(Geography):
    def convoy_area(self, province: str) -> bool:
        return self.map.provinces[province].is_sea

    def convoyable(self, unit) -> bool:
        return True  # "all powers can be convoyed"

    def can_convoy(self, unit) -> bool:
        return bool(KINDS.get(unit.kind, {}).get("convoys"))

    def army_can_stand(self, province: str) -> bool:
        return not self.map.provinces[province].is_sea

    @cached_property
    def land_distance(self) -> dict[str, dict[str, int]]:
        """Distances over land edges only (the seed: second and third lines never cross a sea)."""
        out: dict[str, dict[str, int]] = {}
        g = self.map.army_graph
        for src in sorted(g.nodes):
            dist = {src: 0}
            q = deque([src])
            while q:
                x = q.popleft()
                for y in sorted(g.adj[x]):
                    if y not in dist:
                        dist[y] = dist[x] + 1
                        q.append(y)
            out[src] = dist
        return out

    def distance(self, kind: str, origin: str, target: str) -> Optional[int]:
        """How far a power of ``kind`` at ``origin`` reaches ``target`` (1, 2, 3), or None."""
        spec = KINDS.get(kind)
        if spec is None or origin == target:
            return None
        m = self.map
        sea_involved = m.provinces[origin].is_sea or m.provinces[target].is_sea
        if sea_involved:
            if not spec["seas"]:
                return None
            return 1 if target in m.fleet_neighbours(origin) else None
        if spec["seas"] and target in m.fleet_neighbours(origin):
            return 1
        d = self.land_distance.get(origin, {}).get(target)
        return d if d is not None and d in spec["attack"] else None

    def strength(self, kind: str, distance: Optional[int]) -> int:
        if distance is None:
            return 0
        return KINDS[kind]["attack"].get(distance, 0)


class MultinationalBinder(OrderBinder):
    """Order checks for powers: reach by kind and distance, convoys by M at sea, fly-overs and
    allowances."""

    geo: MultinationalGeography
    rules: MultinationalOptions

    notation: MultinationalNotation

    def bind(self, position: Position, orders: dict[str, list[str]]):
        self.allowances: list[Allowance] = []
        unit_orders: dict[str, list[str]] = {}
        refused: list[Rejected] = []
        for power, texts in orders.items():
            for t in texts:
                if self.notation.is_allowance(t):
                    try:
                        self.allowances.append(self.notation.parse_allowance(power, t))
                    except InvalidOrder as exc:
                        refused.append(Rejected(power=power, text=t, severity="invalid", reason=exc.reason))
                else:
                    unit_orders.setdefault(power, []).append(t)
        self._flyovers: dict[str, int] = {}
        bound = super().bind(position, unit_orders)
        bound.rejected.extend(refused)
        return bound

    def allowed(self, owner: str, mover_power: str, kind: str, origin: str, state: str) -> bool:
        return any(a.giver == owner and a.to == mover_power and (a.kind is None or (a.kind == kind and a.origin == origin))
                   and (not a.states or state in a.states) for a in self.allowances)

    def move_to_own_province(self, pos: Position, i: int, p: ParsedOrder) -> OrderBody:
        raise IllegalOrder(p.text, "a power cannot attack the state it stands on", unit=i)

    def check_reach(self, pos: Position, i: int, p: ParsedOrder) -> Move:
        """A power reaches by its kind's range over land (an M also by sea), else by convoy; a
        fly-over by its written route."""
        u = pos.units[i]
        text = p.text
        assert p.dest is not None
        prov = p.dest.province
        written = p.addition(FlyOverRoute)
        if written is not None:
            return self._check_flyover(pos, i, p, written.route)
        d = self.geo.distance(u.kind, u.location, prov)
        if d is not None:
            return Move.build(unit=i, dest=prov, via_convoy=False, path=())
        if not self.map.provinces[prov].is_sea and self.geo.convoy_chain_possible(u.province, prov, self._fleets):
            return Move.build(unit=i, dest=prov, via_convoy=True, path=())
        kind = KINDS.get(u.kind, {}).get("name", u.kind)
        raise IllegalOrder(text, f"a {kind} power in {self.map.provinces[u.province].name} cannot reach "
                             f"{self.map.provinces[prov].name} (range {max(KINDS[u.kind]['attack'])}, over land"
                             f"{'' if KINDS[u.kind]['seas'] else '; no seas'}) and no convoy could bring it", unit=i)

    def _check_flyover(self, pos: Position, i: int, p: ParsedOrder, route: tuple[str, ...]) -> Move:
        u = pos.units[i]
        m = self.map
        text = p.text
        assert p.dest is not None
        dest = p.dest.province
        owners = pos.owners
        occupant = {x.province: x for x in pos.units}
        n = self._flyovers.get(u.power, 0) + 1
        self._flyovers[u.power] = n
        if n > 2:
            raise IllegalOrder(text, f"{u.power} already has two fly-overs this year (at most two per multinational)", unit=i)
        chain = (u.province, *route, dest)
        for a, b in zip(chain, chain[1:]):
            if m.provinces[b].is_sea or m.provinces[a].is_sea:
                raise IllegalOrder(text, "a fly-over never crosses or ends on a sea", unit=i)
            if b not in m.army_neighbours(a):
                raise IllegalOrder(text, f"the fly-over route is broken: {m.provinces[a].name} does not border {m.provinces[b].name} "
                                     "(a fly-over names its whole route)", unit=i)
        for s in route:
            pdata = m.provinces[s]
            occ, ctrl = (occupant[s].power if s in occupant else None), owners.get(s)
            if ctrl is None and pdata.supply_centre:  # "nor can you fly over an uncontrolled SC"
                raise IllegalOrder(text, f"a fly-over cannot cross {pdata.name}: an uncontrolled capacity centre", unit=i)
            if u.power in (occ, ctrl):  # "over your own occupied or controlled states"
                continue
            parties = sorted({x for x in (occ, ctrl) if x is not None})  # none: a neutral state
            given = [x for x in parties if self.allowed(x, u.power, u.kind, u.province, s)]
            need_all = self.rules.mn_flyover_allowance_from == "all"
            if parties and (len(given) < len(parties) if need_all else not given):
                who = " and ".join(f"{x} " + " and ".join(r for r, y in (("occupies", occ), ("controls", ctrl)) if y == x)
                                   for x in parties)
                missing = [x for x in parties if x not in given]
                raise IllegalOrder(text, f"{who} {pdata.name}; no allowance to fly over it from {' or '.join(missing)}", unit=i)
        ddata = m.provinces[dest]
        if ddata.supply_centre and owners.get(dest) != u.power:
            raise IllegalOrder(text, f"a fly-over ends only on a neutral state or one {u.power} controls; {ddata.name} is not", unit=i)
        return FlyOver.build(unit=i, dest=dest, via_convoy=False, path=(), route=route)

    def check_support(self, pos: Position, i: int, p: ParsedOrder) -> Support:
        u = pos.units[i]
        text = p.text
        assert p.target is not None
        t = self.target_unit(pos, p.target, text, "support", i)
        if t == i:
            raise IllegalOrder(text, "a power cannot support itself", unit=i)
        tu = pos.units[t]
        aim = p.dest.province if p.dest is not None else tu.province
        if self.geo.distance(u.kind, u.location, aim) is None:
            raise IllegalOrder(text, f"{describe_unit(u, self.map)} cannot attack {self.map.provinces[aim].name}, so it cannot support there", unit=i)
        if p.dest is not None:
            if self.geo.distance(tu.kind, tu.location, aim) is None and not self.geo.convoy_chain_possible(tu.province, aim, self._fleets):
                raise IllegalOrder(text, f"{describe_unit(tu, self.map)} cannot reach {self.map.provinces[aim].name}", unit=i)
            return Support.build(unit=i, target=t, dest=aim, dest_coast=None, target_power=self.notation.named_power(p.target))
        return Support.build(unit=i, target=t, dest=None, dest_coast=None, target_power=self.notation.named_power(p.target))

    def check_convoy(self, pos: Position, i: int, p: ParsedOrder) -> Convoy:
        u = pos.units[i]
        text = p.text
        if not KINDS.get(u.kind, {}).get("convoys") or not self.map.provinces[u.province].is_sea:
            raise IllegalOrder(text, "only a Military power in a sea area convoys", unit=i)
        assert p.target is not None and p.dest is not None
        t = self.target_unit(pos, p.target, text, "convoy", i)
        tu = pos.units[t]
        prov = p.dest.province
        on_route = self.geo.convoy_chain_possible(tu.province, prov, self._fleets, through=u.province)
        if not on_route and (self.rules.mn_convoy_orders == "on_route"
                             or not self.geo.convoy_chain_possible(tu.province, prov, self._fleets)):
            raise IllegalOrder(text, f"{describe_unit(u, self.map)} is on no convoy route from {self.map.provinces[tu.province].name} "
                                 f"to {self.map.provinces[prov].name}", unit=i)
        return Convoy.build(unit=i, target=t, dest=prov)

    def choose_routes(self, b) -> None:
        for u, o in b.orders.items():
            if isinstance(o.body, Move):
                b.route[u] = "convoy" if o.body.via_convoy else "land"


class MultinationalRules(MovementRules):
    geo: MultinationalGeography
    rules: MultinationalOptions

    # declared through RuleOptions.choose: in one model of every reading (dipsat readings) each
    # value's formula holds under its own literal (mn_convoy_orders is read directly too, while
    # binding a convoy order off every route: it is then enumerated outside the model)
    option_formulas = MovementRules.option_formulas + (
        "mn_head_to_head", "mn_flyover_conflict", "mn_convoy_orders", "mn_defensive_strength_of")
    bound_too = ("mn_convoy_orders",)

    def is_attack(self, mv: Move) -> bool:
        return not isinstance(mv, FlyOver)  # a fly-over attacks nothing

    def path_formula(self, enc: Encoding, u: int) -> Formula:
        """A route of convoying Ms, and (``mn_convoy_orders = "all_given"``) every convoy order
        given for the move intact: "all convoy orders must be successful, if one convoy order
        fails the whole convoy fails"."""
        route = super().path_formula(enc, u)
        given = [self.C(enc, f) for f in enc.convoyers.get(u, [])]
        if not given:
            return route
        return self.rules.choose("mn_convoy_orders", lambda reading: route if reading == "on_route" else AND(route, *given))

    def label(self, pos: Position, u: int) -> str:
        loc = pos.units[u].location
        return loc.upper() if self.map.provinces[loc].is_sea else self.map.display(loc)

    def _strength(self, enc: Encoding, u: int, target: str) -> int:
        unit = enc.bound.position.units[u]
        if enc.route.get(u) == "convoy":
            return self.geo.strength(unit.kind, 1)
        return self.geo.strength(unit.kind, self.geo.distance(unit.kind, unit.location, target))

    _attacker: Optional[int] = None  # the attack being judged (for mn_defensive_strength_of)
    _defence_reading: Optional[str] = None  # its reading while a move's formula is built

    def defence_of(self, enc: Encoding, v: int) -> int:
        """The defensive strength of the power ``v`` being attacked: its own kind's, or, read
        literally ("defensive strength of the attacking power"), the attacker's kind's."""
        pos = enc.bound.position
        who = v
        if self._attacker is not None and (self._defence_reading or self.rules.mn_defensive_strength_of) == "attacking_power":
            who = self._attacker
        return KINDS[pos.units[who].kind]["defence"]

    def move_formula(self, enc: Encoding, u: int) -> Formula:
        def build(reading: str) -> Formula:
            self._attacker, self._defence_reading = u, reading
            try:
                return super(MultinationalRules, self).move_formula(enc, u)
            finally:
                self._attacker = self._defence_reading = None

        return self.rules.choose("mn_defensive_strength_of", build)

    def own_terms(self, enc: Encoding, u: int) -> Terms:
        body = enc.bound.orders[u].body
        if isinstance(body, Move):
            return [(enc.labels[u], self._strength(enc, u, enc.dest[u]), TRUE)]
        return [(enc.labels[u], self.defence_of(enc, u), TRUE)]

    def support_terms(self, enc: Encoding, supporters: list[int], exclude_power: Optional[str] = None) -> Terms:
        pos = enc.bound.position
        out: Terms = []
        for s in supporters:
            if exclude_power is not None and pos.units[s].power == exclude_power:
                continue
            body = enc.bound.orders[s].body
            assert isinstance(body, Support)
            aim = body.dest if body.dest is not None else pos.units[body.target].province
            out.append((enc.labels[s], self._strength(enc, s, aim), self.S(enc, s)))
        return out

    def failed_terms(self, enc: Encoding, v: int) -> Terms:
        return [(enc.labels[v], self.defence_of(enc, v), TRUE)]

    def head_to_head_formula(self, enc: Encoding, u: int, n: int, restricted: Terms) -> Formula:
        """A reciprocal attack (rule 7: "no reciprocal attack with the same strength"): equal
        strengths both fail; unequal ones by ``mn_head_to_head``.  Either way an attack must beat
        the defending strength (3) of the power that stays."""
        beats_defence = self._ge(restricted, self.failed_terms(enc, n), 1)
        other = self.attack_terms(enc, n, None)

        def reading(mode: str) -> Formula:
            if mode == "both_fail":
                return FALSE
            if mode == "stronger_wins":
                return AND(beats_defence, self._ge(restricted, other, 1))
            # "both_succeed": no battle; a power that leaves has no defensive strength, so unequal
            # reciprocal attacks swap (a cycle the circular-movement rule settles)
            equal = AND(self._ge(restricted, other, 0), self._ge(other, restricted, 0))
            return AND(NOT(equal), OR(self.M(n), beats_defence))

        return self.rules.choose("mn_head_to_head", reading)

    def nonattack_formula(self, enc: Encoding, u: int) -> Formula:
        """A fly-over gets through unless another order conflicts with it."""
        pos = enc.bound.position
        mv: Move = enc.moves[u]
        d = enc.dest[u]
        if any(x.province == d for x in pos.units):
            return FALSE  # one power per state: an occupied destination conflicts

        def reading(conflict: str) -> Formula:
            touched = {d}
            if conflict == "any_involvement":
                touched |= {pos.units[u].province, *(mv.route if isinstance(mv, FlyOver) else ())}
            for v, o in enc.bound.orders.items():
                if v == u:
                    continue
                body = o.body
                if isinstance(body, Move) and body.dest.split("/")[0] in touched:
                    return FALSE
                if isinstance(body, Support) and body.dest in touched:
                    return FALSE
            return TRUE

        return self.rules.choose("mn_flyover_conflict", reading)

    # the seed's own tallies of strengths -------------------------------------------------
    @staticmethod
    def seed_strength(name: Literal["attacking", "revised attacking", "defending"], terms: Terms, values: Values,
                      defence: bool = False, of: Optional[str] = None) -> Tally:
        """The seed's way: "Attacking strength: 2 (2 Clm, 0 Mon)" (a cut support shows 0),
        "Defending strength: 3 (Alb)", "Defending strength: 5 (3 Cal, 2 Bca)"."""
        parts = tuple(TallyPart.build(value=term_value(w, f, values), label=l) for l, w, f in terms)
        return Tally.build(name=name, total=sum(p.value for p in parts), parts=parts, of=of, alone=defence)

    def explain_move(self, enc: Encoding, values: Values, u: int, outcome: Outcome) -> Outcome:
        self._attacker = u
        try:
            return self._explain_move(enc, values, u, outcome)
        finally:
            self._attacker = None

    def _explain_move(self, enc: Encoding, values: Values, u: int, outcome: Outcome) -> Outcome:
        """The core's outcome of a move with the seed's tallies of the strengths involved (a
        fly-over: named as such, it attacks nothing)."""
        if not isinstance(outcome, (Moved, Bounced, NoPath)):
            return outcome
        pos = enc.bound.position
        mv: Move = enc.moves[u]
        if isinstance(mv, FlyOver):
            if isinstance(outcome, NoPath):
                return outcome
            return outcome.model_copy(update={"nonattack": "fly-over"})
        d = enc.dest[u]
        tally = [self.seed_strength("attacking", self.attack_terms(enc, u, None), values)]
        occ = [v for v in enc.occupants.get(d, []) if v != u]
        if occ:
            v = occ[0]
            vpow = pos.units[v].power
            if any(pos.units[s].power == vpow for s in enc.move_supports.get(u, [])):
                tally.append(self.seed_strength("revised attacking", self.attack_terms(enc, u, vpow), values))
            if u in enc.h2h and enc.h2h[u][0] == v:
                tally.append(self.seed_strength("defending", [(enc.labels[v], self.defence_of(enc, v), TRUE)], values, True))
                tally.append(self.seed_strength("attacking", self.attack_terms(enc, v, None), values, of=enc.labels[v]))
            elif v in enc.moves and values[decision_key("M", v)]:
                tally.append(Tally.build(name="defending", total=0, parts=(TallyPart.build(value=0, label=enc.labels[v]),),
                                         leaves=True))
            elif v in enc.moves:
                tally.append(self.seed_strength("defending", self.failed_terms(enc, v), values, True))
            else:
                tally.append(self.seed_strength("defending", self.hold_terms(enc, v), values, True))
        for r in enc.into.get(d, []):
            if r != u:
                tally.append(self.seed_strength("attacking", self.attack_terms(enc, r, None), values, of=enc.labels[r]))
        return outcome.model_copy(update={"tally": tuple(tally)})


def _even_year(year: int) -> bool:
    return year % 2 == 0  # "all even playing years, starting with 1992"


def render_hints(pos: Position) -> "RenderHints":
    """Pictures: the legend names the power kinds whose letters the unit tokens show."""
    from dipsat.render import RenderHints

    return RenderHints(notes=tuple(f"{k} {KINDS[k]['name']}" for k in sorted(KINDS)))


def build_sites(variant: Variant, pos: Position, power: str) -> list[str]:
    """Rule 8: free home centres still controlled; "only in case no home center is available",
    any other free controlled capacity centre (one build there)."""
    occupied = {u.province for u in pos.units}
    free = sorted(p for p, w in pos.owners.items() if w == power and p not in occupied)
    home = [p for p in free if p in variant.map.powers[power].home] if power in variant.map.powers else []
    return home or free


def calendar(variant: Variant, rules: RuleOptions) -> DiplomacyYear:
    """One movement a year, 1990 the placement; adjustments in "all even playing years,
    starting with 1992"; claims of a shared victory (26 centres, two players together); the
    seed's own placement, retreat and adjustment phases (rules 4 and 8)."""
    return DiplomacyYear(variant, movement_seasons=("year",), building_year=_even_year,
                         phases=Phases(placement=placement, retreat=_retreats, adjustment=_adjustments),
                         claims=partial(take_claims, variant), victory=variant.victory)


def placement(variant: Variant, rules: RuleOptions, pos: Position, orders: dict[str, list[str]]) -> AdjustmentResult:
    """1990: the placement phase (rule 4); no option reaches it."""
    return _placement(variant, pos, orders)


def take_claims(variant: Variant, orders: dict[str, list[str]], phase: str) -> tuple[dict[str, list[str]], dict[str, str]]:
    """``CLAIM SHARED WITH XX`` / ``CLAIM XX``: a claim of a shared victory this year."""
    from dipsat.api import power_name

    out: dict[str, list[str]] = {}
    claims: dict[str, str] = {}
    for power, texts in orders.items():
        for t in texts:
            words = t.replace(",", " ").split()
            if words and words[0].lower() == "claim":
                other = words[-1]
                try:
                    claims[power] = power_name(variant, other, f"claim of {power}")
                except DipsatError:
                    raise InputFileError(f"{phase}: {power}: {t!r}: name the partner, e.g. 'CLAIM SHARED WITH CC'") from None
            else:
                out.setdefault(power, []).append(t)
    return out, claims


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


# -- phases other than movement ---------------------------------------------------------------

DEFAULT_PLACEMENT = {  # the seed's table (rule 4): which home centre gets which kind
    "AT": {"M": "uta", "E": "neb", "P": "kan"}, "CC": {"M": "vir", "E": "pen", "P": "vmo"},
    "EX": {"M": "tex", "E": "nme", "P": "coa"}, "GM": {"M": "mic", "E": "wis", "P": "ils"},
    "PM": {"M": "grg", "E": "ala", "P": "flo"}, "IB": {"M": "mon", "E": "nda", "P": "alb"},
    "TW": {"M": "ore", "E": "cal", "P": "bca"},
}


def _lots(rules, pos: Position):
    """The core's seeded random source for this phase's lots (rule 8): the ``random_seed``
    option, else a seed derived from the position; ``random_draws`` replaces draws."""
    from dipsat.chance import RandomSource

    return RandomSource.for_position(rules.random_seed, pos, rules.random_draws)


def draw_key(*parts: object) -> str:
    from dipsat.chance import draw_key as key

    return key(*parts)


def _lots_drawn(m, tied: list[str], src, key: str) -> Lots:
    return Lots.build(among=tuple(m.display(t) for t in tied), seed=src.seed, key=key)


def _placement(variant, pos: Position, orders: dict[str, list[str]]) -> AdjustmentResult:
    """1990: each multinational places one E, one M and one P on its three home centres."""
    from dipsat.models import Unit

    m = variant.map
    units = list(pos.units)
    outcomes: list[Outcome] = []
    for mn in sorted(m.powers):
        home = set(m.powers[mn].home)
        placed: dict[str, str] = {}
        for text in orders.get(mn, []):
            try:
                p = variant.notation.parse(text, mn)
            except OrderError as exc:
                outcomes.append(Outcome.rejected(mn, text, "invalid", exc.reason))
                continue
            kind, prov = p.unit.kind, p.unit.loc.province
            if kind not in KINDS or prov not in home or kind in placed or prov in placed.values():
                outcomes.append(Outcome.rejected(mn, text, "illegal",
                                                 f"place one E, one M and one P on {mn}'s home centres "
                                                 f"({', '.join(sorted(m.display(h) for h in home))}), one power each"))
                continue
            placed[kind] = prov
            outcomes.append(Built.build(power=mn, text=text, order_kind="placement", built=f"{kind} {m.display(prov)}"))
        for kind, prov in DEFAULT_PLACEMENT.get(mn, {}).items():
            if kind not in placed:
                free = [prov] if prov not in placed.values() else sorted(home - set(placed.values()))
                placed[kind] = free[0]
                outcomes.append(Built.build(power=mn, text=f"(default) {kind} {m.display(free[0])}", order_kind="placement",
                                            built=f"{kind} {m.display(free[0])}", default="the seed's table"))
        units += [Unit(power=mn, kind=k, location=p) for k, p in sorted(placed.items())]
    after = pos.model_copy(update={"units": tuple(units)}).canonical()
    return AdjustmentResult(position=pos, outcomes=tuple(outcomes), after=after)


def _retreats(variant, rules, mv, orders: dict[str, list[str]]):
    """Rule 8: to bordering states (an M also to bordering seas), never occupied, never where a
    move failed this year; without an order: a neutral state, else an uncontrolled capacity
    centre that is no home centre, else a home centre; lots among equals; else off the board."""
    from dipsat.retreats import RetreatOption, RetreatResult

    m = variant.map
    pos = mv.position
    occupied = {u.province for u in mv.after.units}
    failed = set(mv.failed_into)
    homes = {h for p in m.powers.values() for h in p.home}
    options: dict[int, RetreatOption] = {}
    for u in mv.dislodged:
        unit = pos.units[u]
        nbrs = set(m.army_neighbours(unit.province))
        if KINDS[unit.kind]["seas"]:
            nbrs |= set(m.fleet_neighbours(unit.province))
        open_, closed = [], {}
        for prov in sorted(nbrs):
            name = m.provinces[prov].name
            if prov in occupied:
                closed[prov] = f"{name} is occupied"
            elif prov in failed:
                closed[prov] = f"a move into {name} failed this year"
            else:
                open_.append(prov)
        options[u] = RetreatOption(unit=u, open=tuple(open_), closed=closed)
    lots = _lots(rules, pos)
    chosen: dict[int, tuple[str, str, str]] = {}
    outcomes: list[Outcome] = []
    for power in sorted(orders):
        for text in orders[power]:
            try:
                p = variant.notation.parse(text, power)
            except OrderError as exc:
                outcomes.append(Outcome.rejected(power, text, "invalid", exc.reason))
                continue
            cands = [u for u in options if pos.units[u].province == p.unit.loc.province and pos.units[u].power == power]
            if not cands or p.action not in ("move", "disband") or cands[0] in chosen:
                outcomes.append(Outcome.rejected(power, text, "illegal", "not a retreat or disband of a dislodged power"))
                continue
            u = cands[0]
            if p.action == "disband":
                chosen[u] = ("disband", power, text)
                continue
            assert p.dest is not None  # a retreat is a move
            if p.dest.province not in options[u].open:
                why = options[u].closed.get(p.dest.province, "not a bordering state")
                outcomes.append(Outcome.rejected(power, text, "illegal", f"not a retreat option: {why}", u))
                continue
            chosen[u] = (p.dest.province, power, text)
    for u in sorted(options):
        if u in chosen:
            continue
        opts = options[u].open
        if not opts:
            continue
        def rank(prov: str) -> int:
            pd = m.provinces[prov]
            if not pd.supply_centre:
                return 0
            if prov not in homes and prov not in pos.owners:
                return 1
            # a controlled centre that is no home centre: not in the seed's list
            return 2 if prov in homes or rules.mn_default_retreat_controlled == "with_home" else 3
        best = min(rank(x) for x in opts)
        tied = sorted(x for x in opts if rank(x) == best)
        unit = pos.units[u]
        key = draw_key(pos.year, "retreat", f"{unit.kind} {m.display(unit.location)}")
        pick = lots.choice(key, tied)
        note = _lots_drawn(m, tied, lots, key).describe() if len(tied) > 1 else ""
        chosen[u] = (pick, unit.power, f"(default) {unit.kind} {m.display(unit.location)} R {m.display(pick)}{note}")
    targets: dict[str, list[int]] = {}
    for u, (dest, _, _) in chosen.items():
        if dest != "disband":
            targets.setdefault(dest, []).append(u)
    new_units = list(mv.after.units)
    for u, (dest, power, text) in sorted(chosen.items()):
        if dest == "disband":
            outcomes.append(Disbanded.build(power=power, text=text, unit=u, order_kind="disband", cause="ordered", off_board=True))
        elif len(targets[dest]) > 1:
            rivals = tuple(OrderRef.build(power=chosen[v][1], text=chosen[v][2], unit=v) for v in sorted(targets[dest]) if v != u)
            outcomes.append(Bounced.build(power=power, text=text, unit=u, order_kind="retreat", by=rivals))
        else:
            new_units.append(pos.units[u].model_copy(update={"location": dest}))
            outcomes.append(Moved.build(power=power, text=text, unit=u, order_kind="retreat", dest=m.display(dest)))
    for u in options:
        if u not in chosen:
            unit = pos.units[u]
            outcomes.append(Disbanded.build(power=unit.power, text=f"{unit.kind} {m.display(unit.location)} (no retreat)", unit=u,
                                            order_kind="disband", cause="no_retreat", off_board=True))
    after = mv.after.model_copy(update={"units": tuple(new_units)}).canonical()
    return RetreatResult(position=pos, movement=mv, options=tuple(options[u] for u in sorted(options)),
                         outcomes=tuple(outcomes), after=after, dislodged=mv.dislodged, dislodged_by=mv.dislodged_by,
                         contested=mv.contested)


def _adjustments(variant, rules, pos: Position, orders: dict[str, list[str]]) -> AdjustmentResult:
    """Building years: build on free controlled home centres (only when none is free, one on
    another free controlled centre), any kind; remove freely; too few removals: from neutral
    states, then controlled states, then home centres, lots among equals; too few builds: short."""
    from dipsat.models import Unit

    m = variant.map
    owners = pos.owners
    lots = _lots(rules, pos)
    units = list(pos.units)
    removed: set[int] = set()
    outcomes: list[Outcome] = []
    for mn in sorted(m.powers):
        mine = [i for i, u in enumerate(units) if u.power == mn]
        controlled = sorted(p for p, w in owners.items() if w == mn)
        delta = len(controlled) - len(mine)
        home = m.powers[mn].home
        done = 0
        elsewhere_used = False
        for text in orders.get(mn, []):
            t = text.strip()
            low = t.lower()
            action = "build" if low.startswith("build") else "remove" if low.split()[0] in ("remove", "disband", "d", "r") else None
            body = t.split(None, 1)[1] if action and " " in t else ""
            try:
                p = variant.notation.parse(body, mn) if action else None
            except OrderError as exc:
                outcomes.append(Outcome.rejected(mn, text, "invalid", exc.reason))
                continue
            if p is None or p.unit.kind not in KINDS:
                outcomes.append(Outcome.rejected(mn, text, "invalid", "expected 'Build E Uta' or 'Remove P Kan'"))
                continue
            prov = p.unit.loc.province
            occupied = {u.province for i, u in enumerate(units) if i not in removed}
            if action == "build":
                free_home = [h for h in home if owners.get(h) == mn and h not in occupied]
                ok_home = prov in free_home
                ok_else = (not free_home and not elsewhere_used and owners.get(prov) == mn and prov not in occupied
                           and m.provinces[prov].supply_centre)
                if delta - done <= 0 or not (ok_home or ok_else):
                    why = (f"{mn} has no build left" if delta - done <= 0 else
                           f"{m.provinces[prov].name} is not a free controlled home centre"
                           + ("" if free_home else
                              " and the one build on another controlled centre is used" if elsewhere_used else
                              " (nor a free controlled centre for the one build elsewhere)"))
                    outcomes.append(Outcome.rejected(mn, text, "illegal", why))
                    continue
                elsewhere_used |= not ok_home
                done += 1
                units.append(Unit(power=mn, kind=p.unit.kind, location=prov))
                outcomes.append(Built.build(power=mn, text=text, order_kind="build", built=f"{p.unit.kind} {m.display(prov)}"))
            else:
                idx = [i for i in mine if units[i].province == prov and i not in removed]
                if -delta - done <= 0 or not idx:
                    outcomes.append(Outcome.rejected(mn, text, "illegal", "no power there to remove, or no removal due"))
                    continue
                removed.add(idx[0])
                done += 1
                outcomes.append(Disbanded.build(power=mn, text=text, order_kind="disband", cause="removal",
                                                removed=f"{units[idx[0]].kind} {m.display(prov)}"))
        while delta < 0 and done < -delta:
            left = [i for i in mine if i not in removed]
            def rank(i: int) -> int:
                prov = units[i].province
                if not m.provinces[prov].supply_centre:
                    return 0
                return 2 if prov in home else 1
            best = min(rank(i) for i in left)
            tied = [i for i in left if rank(i) == best]
            key = draw_key(pos.year, "removal", mn, done + 1)
            pick = lots.choice(key, tied)
            drawn = _lots_drawn(m, [units[i].location for i in tied], lots, key) if len(tied) > 1 else None
            removed.add(pick)
            done += 1
            outcomes.append(Disbanded.build(power=mn, text=f"(default) Remove {units[pick].kind} {m.display(units[pick].location)}",
                                            order_kind="disband", cause="default", lots=drawn,
                                            default="neutral states first, then controlled, then home"))
        if delta > done:
            outcomes.append(Waived.build(power=mn, text=f"({mn} plays short)", order_kind="waive", short=delta - done))
    after = pos.model_copy(update={"units": tuple(u for i, u in enumerate(units) if i not in removed)}).canonical()
    return AdjustmentResult(position=pos, outcomes=tuple(outcomes), after=after, random_seed=lots.seed)



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
