"""Movement adjudication: the equations of DATC 3.0 chapter 5, as CP-SAT constraints.

Decisions (one boolean each, defined by an exact equivalence; see :mod:`solver.equations`),
keyed ``Key(kind, u)``:

* ``move`` the move of unit ``u`` succeeds;
* ``support`` the support given by ``u`` is not cut (only for supports that match an order);
* ``convoy`` the convoy of fleet ``u`` is carried out (only for convoys that match a move);
* ``path`` the convoyed move of ``u`` has a path (a chain of successful convoys).

Strengths (DATC 5.B.5-5.B.8) are lists of labelled terms ``(label, weight, formula)``; the same
list builds the comparison in the model and the explanation of the outcome ("attack 2 (A Bur +
support A Mar)").  Comparisons are split on the events that change a strength (the unit at the
destination leaving, a head-to-head opponent succeeding), so each equation stays linear.

Nothing here assumes a strength of one per unit: a unit's own weight is :meth:`unit_weight`.
Rule differences come in through the methods of :class:`MovementRules`, which variants subclass.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import chain
from typing import Any, ClassVar, Generic, Optional, Sequence, cast

from dipsat.maps import GameMap

from dipsat.board.encoding import E, Encoding, Terms, _name, _var
from dipsat.engine.equations import Component, System
from dipsat.board.explain import (SolvedTurn, dislodged_by, explain, explain_convoy_outcome, explain_hold_outcome,
                                  explain_move_outcome, explain_support_outcome)
from dipsat.engine.formulas import (AND, FALSE, GE, NOT, OR, TRUE, VAR, Definition, Formula, Key, Values,
                                    is_formula)
from dipsat.models import Convoy, Move, Position, Support
from dipsat.outcomes import MovementResult, Outcome
from dipsat.board.geography import Geography, UnitLabels, fleet_chains
from dipsat.board.paradoxes import backup_rule, cut_exemption, paradox_exemption
from dipsat.board.strengths import beats, is_core
from dipsat.board.orders import BoundOrders, describe_unit
from dipsat.rules import RuleOptions


_NONE: list[int] = []  # (read only)


class MovementRules(Generic[E]):
    """DATC 3.0 chapter 5 movement rules.  Variants override the hooks they change.  A turn is
    adjudicated by :class:`dipsat.game.pipeline.Pipeline` (encode here, solve, explain here).

    Generic over the encoding its :meth:`collect` makes: a variant whose turn needs more than
    :class:`Encoding` holds subclasses it, overrides :meth:`collect` to make it, and declares
    ``class ItsRules(MovementRules[ItsEncoding])``, so that every hook is handed that type."""

    # The options whose formulas these rules declare through ``RuleOptions.choose``/``cases``:
    # in one model of every reading (``dipsat readings``) each value's formula holds under its
    # own literal.  The backup rules read theirs per reading.  A subclass that reads one of them
    # directly must leave it out (it is then enumerated outside the model); a test checks both.
    option_formulas: ClassVar[tuple[str, ...]] = (
        "multi_route_disruption", "convoy_paradox_rule", "convoyed_attack_from_target_cuts",
        "dislodged_no_effect_on_origin")
    backup_options: ClassVar[tuple[str, ...]] = ("convoy_paradox_rule", "paradox_fallback")
    # Options of ``option_formulas`` that binding also reads directly in some turns (then those
    # turns enumerate them outside the model).
    bound_too: ClassVar[tuple[str, ...]] = ()

    def __init__(self, game_map: GameMap, rules: RuleOptions, geography: Optional[Geography] = None):
        self.map = game_map
        self.rules = rules
        self.geo = geography or Geography(game_map)

    def explain(self, enc: E, values: Values, components: Sequence[Component]) -> MovementResult:
        """The result of a solved turn (shared: :func:`explain`, with the explanation hooks)."""
        return explain(self, enc, values, components, self._core_routes, self._core_strengths, self._core_outcomes)

    # -- hooks ----------------------------------------------------------------------------
    # The encoding and the explanation are shared (:meth:`encode`, :meth:`explain`); a variant
    # says how its rules differ through these hooks and the strength terms below:
    #   unit_weight the strength of a unit by itself (a stack's count, a kind's strength)
    #   merge_moves moves of one power into one province move in unison (one force decision)
    #   plan        how orders relate (matching supports and convoys, head-to-head meetings)
    #   battle      when a move (a force) gets in: single winner, numeric battles, ...
    #   cuts        the support decisions: what cuts a support and how much (boolean or integer)
    #   decisions   decisions of the variant's own (strengths as integers, conditions of its rules)
    #   dislodgers, move_outcome, support_outcome, convoy_outcome, hold_outcome, contested:
    #               the explanation of a solved turn in the variant's terms
    head_to_head_battles = True  # units swapping places over land fight each other (DATC 5.B.1)
    merge_moves = False  # DATC: every move is decided on its own
    # the class keeps the core's unit_weight (every unit 1) / is_attack (every move attacks):
    # the encoding then need not ask them unit by unit
    _weight_one: ClassVar[bool] = True
    _all_attack: ClassVar[bool] = True
    _core_terms: ClassVar[bool] = True  # support_terms too (no supporter, no term)
    # via and path_open too (a move by land goes by land, and has a path)
    _core_routes: ClassVar[bool] = True
    _core_battle: ClassVar[bool] = True  # battle too, and every move attacks (a move's formula is move_formula's)
    _core_cuts: ClassVar[bool] = True  # cuts and support_formula too (every support decision a boolean)
    # every strength hook (:data:`dipsat.board.strengths.STRENGTH_HOOKS`): the equations compare
    # strengths from the supporters (:func:`~dipsat.board.strengths.beats`), the terms are made
    # only when an explanation asks for them
    _core_strengths: ClassVar[bool] = True
    _core_outcomes: ClassVar[bool] = True  # move_outcome, explain_move, convoy_outcome and hold_outcome

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._weight_one = cls.unit_weight is MovementRules.unit_weight
        cls._all_attack = cls.is_attack is MovementRules.is_attack
        cls._core_terms = cls.support_terms is MovementRules.support_terms
        cls._core_routes = cls.via is MovementRules.via and cls.path_open is MovementRules.path_open
        cls._core_battle = cls.battle is MovementRules.battle and cls._all_attack
        cls._core_cuts = cls.cuts is MovementRules.cuts and cls.support_formula is MovementRules.support_formula
        cls._core_strengths = is_core(cls, MovementRules)
        cls._core_outcomes = all(getattr(cls, n) is getattr(MovementRules, n)
                                 for n in ("move_outcome", "explain_move", "convoy_outcome", "hold_outcome"))

    def unit_weight(self, pos: Position, u: int) -> int:
        """Hook: the strength a unit brings by itself, to an attack, a hold or a support."""
        return 1

    def is_attack(self, mv: Move) -> bool:
        """Does this move attack its destination?  (A variant's own kind of move may not.)"""
        return True

    def nonattack_formula(self, enc: E, u: int) -> Formula:
        """When a move that is not an attack gets through (variants that have such moves)."""
        return FALSE

    def head_to_head_formula(self, enc: E, u: int, n: int, restricted: Terms) -> Formula:
        """Head-to-head: ``u`` beats the unit ``n`` coming the other way (DATC 5.B.1: its attack
        beats n's defend strength)."""
        return self._ge(restricted, self.defend_terms(enc, n), 1)

    def explain_move(self, enc: E, values: Values, u: int, outcome: Outcome) -> Outcome:
        """A variant may rewrite a move's explanation in its own words."""
        return outcome

    def label(self, pos: Position, u: int) -> str:
        return describe_unit(pos.units[u], self.map)

    # -- encoding: shared parts, in a fixed order ---------------------------------------------
    def encode(self, b: BoundOrders) -> E:
        """The equations of a turn.  Shared by every variant: what the orders are
        (:meth:`collect`), then the decisions in a fixed order — paths of convoyed moves
        (:meth:`path_formula`), moves (:meth:`battle`, per force when :attr:`merge_moves`), supports
        (:meth:`cuts`), convoys (:meth:`convoy_formula`); a variant's own decisions
        (:meth:`decisions`) come before the moves.  How the orders relate (who supports, convoys
        or meets whom) is :meth:`plan`."""
        enc = self.collect(b)
        self.plan(enc)
        sysm = enc.system
        define = sysm.define
        moves = sorted(enc.moves)
        route = enc.route
        for u in moves:
            if route[u] != "land":
                enc.routes[u] = self.convoy_routes(enc, u)
                define(_name("P", u), "path", self.path_formula(enc, u))
        for key, kind, definition in self.decisions(enc):
            if is_formula(definition):
                sysm.define(key, kind, definition)
            else:
                sysm.define_int(key, kind, definition)
        if self.merge_moves:
            for k in sorted(enc.forces, key=lambda k: enc.forces[k][0]):
                members = enc.forces[k]
                force = Key("force", members[0])
                sysm.define(force, "force", self.battle(enc, members))
                for u in members:
                    sysm.define(_name("M", u), "move", AND(VAR(force), self.path_open(enc, u)))
        elif self._core_battle:  # (every move an attack: its formula, without asking battle)
            move = self.move_formula
            sysm.define_all("move", [(_name("M", u), move(enc, u)) for u in moves])
        else:
            battle = self.battle
            sysm.define_all("move", [(_name("M", u), battle(enc, [u])) for u in moves])
        if self._core_cuts:  # (booleans only)
            sysm.define_all("support", self.cuts(enc))
        else:
            for key, definition in self.cuts(enc):
                if is_formula(definition):
                    define(key, "support", definition)
                else:
                    sysm.define_int(key, "support", definition)
        matched, orders = enc.matched, b.orders
        for c in sorted(matched):
            if matched[c] and isinstance(orders[c].body, Convoy):
                define(_name("C", c), "convoy", self.convoy_formula(enc, c))
        return enc

    def collect(self, b: BoundOrders) -> E:
        """What every variant's encoding starts from: the moves and their destinations, the
        units in each province, the route of each move, the labels; with :attr:`merge_moves`,
        the forces (the moves of one power into one province)."""
        pos = b.position
        moves: dict[int, Move] = {}
        dest: dict[int, str] = {}
        route: dict[int, str] = {}
        others: list[tuple[int, Any]] = []  # the supports and convoys, for plan
        routes = b.route
        for u, o in sorted(b.orders.items()):
            body = o.body
            if isinstance(body, Move):
                moves[u] = body
                d = body.dest
                dest[u] = d.split("/")[0] if "/" in d else d
                route[u] = routes.get(u, "land")
            elif isinstance(body, (Support, Convoy)):
                others.append((u, body))
        provinces = b.provinces
        occupants = {prov: [i] for i, prov in enumerate(provinces)}
        if len(occupants) < len(provinces):  # some province holds more than one unit
            occupants = {}
            for i, prov in enumerate(provinces):
                hit = occupants.get(prov)
                if hit is None:
                    occupants[prov] = [i]
                else:
                    hit.append(i)
        # the core's own encoding: a subclass whose encoding is another type overrides collect
        enc = cast(E, Encoding(bound=b, system=System(), moves=moves, dest=dest, route=route, occupants=occupants))
        enc.others = others
        if self.merge_moves:
            forces: dict[tuple[str, str], list[int]] = defaultdict(list)
            for u in sorted(moves):
                forces[(pos.units[u].power, dest[u])].append(u)
            enc.forces = dict(forces)
            enc.force_of = {u: k for k, us in enc.forces.items() for u in us}
        if type(self).label is MovementRules.label:  # the core's labels (:func:`describe_unit`), when read
            enc.labels = UnitLabels(pos.units, self.geo)
        else:
            enc.labels = [self.label(pos, i) for i in range(len(pos.units))]
        enc.system.labels = enc.labels
        return enc

    def plan(self, enc: E) -> None:
        """Hook: how the orders relate — which moves attack which province, which supports and
        convoys match a move, which moves meet head-on.  DATC Diplomacy: one unit per
        province, supports matched per unit."""
        moves, dest, route, occupants = enc.moves, enc.dest, enc.route, enc.occupants
        provinces = enc.bound.provinces
        into: dict[str, list[int]] = {}
        attacks = sorted(moves) if self._all_attack else [u for u in sorted(moves) if self.is_attack(moves[u])]
        for u in attacks:
            hit = into.get(dest[u])
            if hit is None:
                into[dest[u]] = [u]
            else:
                hit.append(u)
        if self.head_to_head_battles:
            attacking = moves if self._all_attack else set(attacks)
            for u in moves:
                for v in occupants.get(dest[u], ()):  # (a unit there moving here, over land, each an attack)
                    if (dest.get(v) == provinces[u] and route[u] != "convoy" and route[v] != "convoy"
                            and u in attacking and v in attacking):
                        enc.h2h[u] = (v, AND(NOT(self.via(route, u)), NOT(self.via(route, v))))
        move_supports: dict[int, list[int]] = defaultdict(list)
        hold_supports: dict[int, list[int]] = defaultdict(list)
        convoyers: dict[int, list[int]] = defaultdict(list)
        others = enc.others if enc.others is not None else [(s, o.body) for s, o in sorted(enc.bound.orders.items())]
        for s, body in others:
            if isinstance(body, Support):
                t = body.target
                if body.dest is None:
                    ok = t not in moves and not (t in enc.bound.illegal_moves and self.rules.illegal_orders == "move_fails")
                    if ok:
                        hold_supports[t].append(s)
                else:
                    ok = t in moves and dest[t] == body.dest and (
                        body.dest_coast is None or moves[t].dest == body.dest_coast or "/" not in moves[t].dest)
                    if ok:
                        move_supports[t].append(s)
                enc.matched[s] = ok
            elif isinstance(body, Convoy):
                t = body.target
                ok = t in moves and route[t] != "land" and dest[t] == body.dest
                enc.matched[s] = ok
                if ok:
                    convoyers[t].append(s)
        enc.into, enc.move_supports, enc.hold_supports = into, dict(move_supports), dict(hold_supports)
        enc.convoyers = dict(convoyers)

    def battle(self, enc: E, movers: list[int]) -> Formula:
        """Hook: when a move (or, with :attr:`merge_moves`, a force: the moves of one power
        into one province) gets into its destination.  DATC 5.B: the attack beats the hold,
        defend or failed-move strength there and every prevent strength."""
        u = movers[0]
        if self._all_attack or self.is_attack(enc.moves[u]):
            return self.move_formula(enc, u)
        return self.nonattack_formula(enc, u)

    def decisions(self, enc: E) -> list[tuple[Key, str, Definition]]:
        """Hook: decisions of the variant's own, as (key, kind, definition), defined after the
        paths and before the moves (an integer one only over decisions defined before it, or
        booleans).  DATC: none."""
        return []

    def cuts(self, enc: E) -> list[tuple[Key, Definition]]:
        """Hook: the support decisions of the turn and their definitions — what cuts a support,
        and how much of it.  A boolean decision is "given / cut"; an integer one says how much
        support is given (a partial cut), and :meth:`support_terms` counts it.  DATC: one
        boolean per matched support (:meth:`support_formula`)."""
        matched, orders = enc.matched, enc.bound.orders
        return [(_name("S", s), self.support_formula(enc, s)) for s in sorted(matched)
                if matched[s] and isinstance(orders[s].body, Support)]

    # formulas of decisions ----------------------------------------------------------------
    def path_open(self, enc: E, u: int) -> Formula:
        """The move can be made at all: by land, or along a successful convoy."""
        return _var("P", u) if enc.route[u] == "convoy" else TRUE

    @staticmethod
    def via(route: dict[int, str], u: int) -> Formula:
        """The move goes by convoy this turn ("either": by convoy when the convoy succeeds,
        else by land, as DATC 4.A.3 reads the 1971 rulebook)."""
        r = route[u]
        return FALSE if r == "land" else TRUE if r == "convoy" else _var("P", u)

    def move_succeeds(self, u: int) -> Formula:
        return _var("M", u)

    def support_given(self, enc: E, s: int) -> Formula:
        return _var("S", s) if enc.matched.get(s) else FALSE

    def convoy_given(self, enc: E, f: int) -> Formula:
        return _var("C", f) if enc.matched.get(f) else FALSE

    def convoy_routes(self, enc: E, u: int) -> list[tuple[Any, ...]]:
        """Chains of convoying fleets from the army's province to its destination."""
        pos = enc.bound.position
        fleets = enc.convoyers.get(u, [])
        mv = enc.moves[u]
        if mv.path and not self.rules.among("convoy_path", "ignored"):
            fleets = [f for f in fleets if pos.units[f].province in mv.path]
        if not fleets:
            return []
        return fleet_chains(self.geo, {f: pos.units[f] for f in fleets}, pos.units[u].province, enc.dest[u])

    def path_formula(self, enc: E, u: int) -> Formula:
        routes = enc.routes[u]
        if not routes:
            return FALSE

        def disrupted_by(rule: str) -> Formula:
            if rule == "any_route":
                fleets = sorted(set(chain.from_iterable(routes)))
                return AND(*(self.convoy_given(enc, f) for f in fleets))
            return OR(*(AND(*(self.convoy_given(enc, f) for f in r)) for r in routes))

        return self.rules.choose("multi_route_disruption", disrupted_by)

    # strengths ----------------------------------------------------------------------------
    def own_terms(self, enc: E, u: int) -> Terms:
        return [(enc.labels[u], 1 if self._weight_one else self.unit_weight(enc.bound.position, u), TRUE)]

    def support_terms(self, enc: E, supporters: list[int], exclude_power: Optional[str] = None) -> Terms:
        if not supporters:  # most units: no support
            return []
        pos = enc.bound.position
        one, labels = self._weight_one, enc.labels
        return [(f"support {labels[s]}", 1 if one else self.unit_weight(pos, s), self.support_given(enc, s))
                for s in supporters if exclude_power is None or pos.units[s].power != exclude_power]

    # (the strengths below are made once per turn, in ``enc.terms``, for the equations and the
    # explanation alike: the lists are shared, never changed)
    def attack_terms(self, enc: E, u: int, restricted_by: Optional[str]) -> Terms:
        """Attack strength given the path; ``restricted_by`` = power of a unit that stays at the
        destination (its supports are not counted; attacking one's own unit has strength 0)."""
        key = ("attack", u, restricted_by)
        terms = enc.terms.get(key)
        if terms is None:
            pos = enc.bound.position
            if restricted_by is not None and pos.units[u].power == restricted_by:
                terms = []
            else:
                supporters = enc.move_supports.get(u)
                terms = self.own_terms(enc, u)
                if supporters or not self._core_terms:
                    terms = terms + self.support_terms(enc, supporters or [], restricted_by)
            enc.terms[key] = terms
        return terms

    def hold_terms(self, enc: E, v: int) -> Terms:
        key = ("hold", v, None)
        terms = enc.terms.get(key)
        if terms is None:
            terms = enc.terms[key] = self.own_terms(enc, v) + self.support_terms(enc, enc.hold_supports.get(v, []))
        return terms

    def defend_terms(self, enc: E, v: int) -> Terms:
        key = ("defend", v, None)
        terms = enc.terms.get(key)
        if terms is None:
            terms = enc.terms[key] = self.own_terms(enc, v) + self.support_terms(enc, enc.move_supports.get(v, []))
        return terms

    def prevent_terms(self, enc: E, u: int) -> Terms:
        key = ("prevent", u, None)
        terms = enc.terms.get(key)
        if terms is None:
            terms = enc.terms[key] = self.own_terms(enc, u) + self.support_terms(enc, enc.move_supports.get(u, []))
        return terms

    def prevent_zero(self, enc: E, u: int) -> Formula:
        """Prevent strength is 0: no path, or beaten by the unit it swaps with (DATC 4.A.7);
        made once per turn, like the strengths' terms."""
        if u in enc.zero:
            return enc.zero[u]
        pos = enc.bound.position

        def zero(reading: str) -> Formula:
            conds = [NOT(self.path_open(enc, u))]
            if reading == "head_to_head":
                if u in enc.h2h:
                    v, battle = enc.h2h[u]
                    conds.append(AND(battle, self.move_succeeds(v)))
            else:
                here = pos.units[u].province
                for n in enc.into.get(here, []):
                    if pos.units[n].province == enc.dest[u]:
                        conds.append(self.move_succeeds(n))
            return OR(*conds)

        f = enc.zero[u] = self.rules.choose("dislodged_no_effect_on_origin", zero)
        return f

    @staticmethod
    def _ge(plus: Terms, minus: Terms, k: int) -> Formula:
        live: list[tuple[int, Any]] = []  # (what GE would fold: the constant terms, here as they are read)
        for _, w, f in plus:
            if f is True:
                k -= w
            elif f is not False:
                live.append((w, f))
        for _, w, f in minus:
            if f is True:
                k += w
            elif f is not False:
                live.append((-w, f))
        return GE(live, k) if live else k <= 0

    def beats_prevent(self, enc: E, attack: Terms, other: int) -> Formula:
        return OR(self.prevent_zero(enc, other), self._ge(attack, self.prevent_terms(enc, other), 1))

    def move_formula(self, enc: E, u: int) -> Formula:
        d = enc.dest[u]
        into = enc.into.get(d)
        rivals = [m for m in into if m != u] if into is not None and (len(into) > 1 or into[0] != u) else _NONE
        here = enc.occupants.get(d)
        occ = here if here is None or (len(here) == 1 and here[0] != u) else [v for v in here if v != u]
        if self._core_routes:
            path = _var("P", u) if enc.route[u] == "convoy" else TRUE
        else:
            path = self.path_open(enc, u)
        if not occ:
            if not rivals:  # nothing to beat (the strength only explains)
                return path
            return AND(path, *[self._beats_prevent(enc, u, None, r) for r in rivals])
        v = occ[0]  # the standard board has one unit per province; stacks override this hook
        by = enc.bound.position.units[v].power  # (the attack restricted: a unit stays there)
        beat_rivals = [self._beats_prevent(enc, u, by, r) for r in rivals] if rivals else _NONE
        if v not in enc.moves:
            return AND(path, self._beats(enc, u, by, v, "hold"), *beat_rivals)
        # the unit at the destination moves: it leaves, or it fails and holds with strength 1
        moved = self.move_succeeds(v)
        stays = AND(NOT(moved), self._beats(enc, u, by, v, "failed"), *beat_rivals)
        left = AND(moved, *[self._beats_prevent(enc, u, None, r) for r in rivals]) if rivals else moved
        not_battle = OR(left, stays)
        h2h = enc.h2h.get(u)
        if h2h is not None:
            n, battle = h2h
            fight = AND(self._beats(enc, u, by, n, "defend"), *beat_rivals)
            return AND(path, OR(AND(battle, fight), AND(NOT(battle), not_battle)))
        return AND(path, not_battle)

    def _beats(self, enc: E, u: int, by: Optional[str], v: int, what: str) -> Formula:
        """The attack of ``u`` (restricted by ``by``) beats ``v``'s ``what`` strength: hold, failed
        (a failed move's) or defend (head-to-head: :meth:`head_to_head_formula`)."""
        if self._core_strengths:
            return beats(enc, u, by, None if what == "failed" else (
                enc.hold_supports if what == "hold" else enc.move_supports).get(v))
        attack = self.attack_terms(enc, u, by)
        if what == "defend":
            return self.head_to_head_formula(enc, u, v, attack)
        return self._ge(attack, self.hold_terms(enc, v) if what == "hold" else self.failed_terms(enc, v), 1)

    def _beats_prevent(self, enc: E, u: int, by: Optional[str], r: int) -> Formula:
        """:meth:`beats_prevent` of the attack of ``u`` (restricted by ``by``) and the rival ``r``."""
        if self._core_strengths:
            return OR(self.prevent_zero(enc, r), beats(enc, u, by, enc.move_supports.get(r)))
        return self.beats_prevent(enc, self.attack_terms(enc, u, by), r)

    def failed_terms(self, enc: E, v: int) -> Terms:
        key = ("failed", v, None)
        terms = enc.terms.get(key)
        if terms is None:
            terms = enc.terms[key] = [(f"{enc.labels[v]}, whose move failed",
                                       1 if self._weight_one else self.unit_weight(enc.bound.position, v), TRUE)]
        return terms

    # supports and convoys -------------------------------------------------------------------
    def support_formula(self, enc: E, s: int) -> Formula:
        here = enc.bound.provinces[s]
        movers = enc.into.get(here)
        if not movers:  # (most supports: no move into the supporter's province)
            enc.cutters[s] = []
            enc.exempt[s] = []
            return TRUE
        body = enc.bound.orders[s].body
        assert isinstance(body, Support)
        cut: list[Formula] = []
        dislodge: list[Formula] = []
        cutters: list[int] = []
        exempt: list[tuple[int, Formula, str]] = []
        for m in movers:
            when, why, also_dislodge = self.cut_exemption(enc, s, body, m)
            if when is not FALSE:
                exempt.append((m, when, why))
            if when is not TRUE:
                cutters.append(m)
                cut.append(AND(self.path_open(enc, m), NOT(when)))
            # a unit that dislodges the supporter cuts the support, except where an edition's
            # paradox rule says the convoyed army does not cut it (it "takes precedence over
            # the dislodge rule", DATC 6.F.17)
            dislodge.append(AND(self.move_succeeds(m), NOT(when)) if also_dislodge else self.move_succeeds(m))
        enc.cutters[s] = cutters
        enc.exempt[s] = exempt
        return AND(NOT(OR(*cut)), NOT(OR(*dislodge)))

    def cut_exemption(self, enc: E, s: int, body: Support, m: int) -> tuple[Formula, str, bool]:
        """When the move ``m`` into the supporter's province does not cut its support, why, and
        whether that holds even when ``m`` dislodges the supporter."""
        return cut_exemption(self, enc, s, body, m)

    def paradox_exemption(self, enc: E, s: int, body: Support, m: int, rule: Optional[str] = None) -> str:
        """The edition's convoy-paradox rule (DATC 4.A.2 a-c): when a convoyed army does not cut
        (``rule``: the edition's; default the options' value)."""
        return paradox_exemption(self.map, enc, s, body, m, self.rules.convoy_paradox_rule if rule is None else rule)

    def convoy_formula(self, enc: E, f: int) -> Formula:
        here = enc.bound.position.units[f].province
        return NOT(OR(*(self.move_succeeds(m) for m in enc.into.get(here, []))))

    # -- explanation hooks (see :func:`explain`) --------------------------------------------
    def dislodgers(self, r: "SolvedTurn[E]") -> dict[int, int]:
        """Hook: unit -> the unit that dislodged it (the core's: :func:`dislodged_by`)."""
        return dislodged_by(r)

    def move_outcome(self, r: "SolvedTurn[E]", u: int) -> Outcome:
        """Hook: what happened to a move, with the strengths compared."""
        out = explain_move_outcome(self, r, u, self._core_routes, self._core_strengths)
        return out if type(self).explain_move is MovementRules.explain_move else self.explain_move(r.enc, r.values, u, out)

    def support_outcome(self, r: "SolvedTurn[E]", u: int) -> Outcome:
        """Hook: what happened to a support order (the core's: :func:`explain_support_outcome`)."""
        return explain_support_outcome(self, r, u)

    def convoy_outcome(self, r: "SolvedTurn[E]", u: int) -> Outcome:
        """Hook: what happened to a convoy order (the core's: :func:`explain_convoy_outcome`)."""
        return explain_convoy_outcome(r, u)

    def hold_outcome(self, r: "SolvedTurn[E]", u: int) -> Outcome:
        """Hook: what happened to a unit that holds, ordered to or without a usable order (the
        core's: :func:`explain_hold_outcome`)."""
        return explain_hold_outcome(r, u)

    def contested(self, r: "SolvedTurn[E]", occupied_after: set[str]) -> list[str]:
        """Hook: the provinces left empty by a standoff: nothing entered and some move into it
        kept a prevent strength above zero (sorted)."""
        enc, moved, val, zero = r.enc, r.moved, r.val, self.prevent_zero
        return sorted([p for p, movers in enc.into.items() if p not in occupied_after and moved.isdisjoint(movers)
                       and any(not val(zero(enc, x)) for x in movers)])

    # backup rules -------------------------------------------------------------------------
    def backup(self, members: tuple[Key, ...], defs: dict[Key, Definition], count: int) -> Optional[tuple[str, str, dict[Key, Definition]]]:
        """DATC's backup rules of a cycle without exactly one resolution (:func:`backup_rule`)."""
        return backup_rule(self.rules, members)
