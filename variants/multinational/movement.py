"""Multinational's movement rules (rule 7) on the core's hooks: strengths by land distance, the
revised attacking strength, supports cut by any foreign attack, fly-overs; the seed's tallies in
explanations."""

from __future__ import annotations

from typing import Literal, Optional

from dipsat.engine.formulas import AND, FALSE, NOT, OR, TRUE, Formula, Values
from dipsat.models import Move, Position, Support
from dipsat.outcomes import Bounced, Moved, NoPath, Outcome
from dipsat.board.encoding import Encoding, Terms, decision_key, term_value
from dipsat.board.movement import MovementRules
from dipsat.variants.multinational.details import NonAttack, Tally, TallyPart
from dipsat.variants.multinational.notation import FlyOver
from dipsat.variants.multinational.options import KINDS, MultinationalOptions
from dipsat.variants.multinational.orders import MultinationalGeography


class MultinationalRules(MovementRules[Encoding]):
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
        given = [self.convoy_given(enc, f) for f in enc.convoyers.get(u, [])]
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
            out.append((enc.labels[s], self._strength(enc, s, aim), self.support_given(enc, s)))
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
            return AND(NOT(equal), OR(self.move_succeeds(n), beats_defence))

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
            return outcome.updated(details=outcome.details + (NonAttack(name="fly-over"),))
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
        return outcome.updated(details=outcome.details + tuple(tally))
