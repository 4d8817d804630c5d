"""The convoy-paradox rules of DATC Diplomacy: when a move into a supporter's province does not cut
the support (:func:`cut_exemption`: its own power's, from the province the support is aimed at,
or a convoyed army under an edition's rule, DATC 4.A.2), and the backup rules for a cycle of
decisions that has not exactly one resolution (circular movement, Szykman or all-hold for a convoy
paradox, every order of any other cycle failing).  The movement rules
(:mod:`dipsat.board.movement`) ask them through their hooks ``cut_exemption``,
``paradox_exemption`` and ``backup``, which a variant may override.
"""

from __future__ import annotations

from typing import Any, Optional, Protocol

from dipsat.board.encoding import Encoding, _name
from dipsat.engine.formulas import FALSE, NOT, TRUE, Definition, Formula, Key
from dipsat.engine.option_space import guarded
from dipsat.maps import GameMap
from dipsat.models import FLEET, Support
from dipsat.rules import RuleOptions


class ExemptionHooks(Protocol):
    """What :func:`cut_exemption` asks of the movement rules (their hooks)."""

    rules: RuleOptions

    def via(self, route: dict[int, str], u: int) -> Formula: ...
    def paradox_exemption(self, enc: Any, s: int, body: Support, m: int, rule: Optional[str] = None) -> str: ...


def cut_exemption(impl: ExemptionHooks, enc: Encoding, s: int, body: Support, m: int) -> tuple[Formula, str, bool]:
    """The core's :meth:`MovementRules.cut_exemption`: when the move ``m`` into the supporter's
    province does not cut the support ``s`` (order ``body``), why, and whether that holds even
    when ``m`` dislodges the supporter."""
    pos = enc.bound.position
    if pos.units[m].power == pos.units[s].power:
        return TRUE, "a unit does not cut the support of its own power", False
    via = impl.via(enc.route, m)
    if body.dest is not None and pos.units[m].province == body.dest:
        cuts = impl.rules.cases("convoyed_attack_from_target_cuts")  # in one model: every value
        when = guarded([(g, NOT(via) if c else TRUE) for g, c in cuts])
        if not any(c for _, c in cuts):
            return when, "the attack comes from the province the support is aimed at", False
        return when, "the attack comes over land from the province the support is aimed at", False
    if via is not FALSE:
        rules = impl.rules.cases_of("convoy_paradox_rule", lambda rule: impl.paradox_exemption(enc, s, body, m, rule))
        why = next((w for _, w in rules if w), "")
        if why:
            return guarded([(g, via if w else FALSE) for g, w in rules]), why, True
    return FALSE, "", False


def paradox_exemption(game_map: GameMap, enc: Encoding, s: int, body: Support, m: int, rule: str) -> str:
    """Why the convoyed move ``m`` does not cut the support ``s`` (order ``body``) under the
    edition's convoy-paradox ``rule`` (``1971``, ``1982``, ``2000``; DATC 4.A.2 a-c), or ``""``."""
    pos = enc.bound.position
    fleets = {pos.units[f].province for f in enc.convoyers.get(m, [])}
    if rule == "2000":
        # "the fleets necessary for the army to convoy": those on every route (DATC 6.F.19)
        routes = enc.routes.get(m, [])
        needed = set.intersection(*(set(r) for r in routes)) if routes else set()
        if body.dest is not None and body.dest in {pos.units[f].province for f in needed}:
            return "2000 rule: a convoyed army does not cut support against its convoying fleets"
    elif rule == "1971":
        if (pos.units[s].kind == FLEET and body.dest is not None
                and pos.units[body.target].kind == FLEET and body.dest in fleets):
            return "1971 rule: a convoyed army does not cut a fleet's support of a fleet attacking its convoy"
    elif rule == "1982":
        aim = body.dest if body.dest is not None else pos.units[body.target].province
        convoying = {pos.units[f].province for fl in enc.convoyers.values() for f in fl}
        if pos.units[s].kind == FLEET and game_map.provinces[aim].is_sea and aim in convoying:
            return "1982 rule: a convoyed army does not cut support of an action in a body of water with a convoying fleet"
    return ""


def backup_rule(rules: RuleOptions, members: tuple[Key, ...]) -> Optional[tuple[str, str, dict[Key, Definition]]]:
    """The backup rule of a cyclic component (its decisions ``members``) that has not exactly one
    resolution: ``(kind, rule in words, the decisions it overrides with constants)``."""
    kinds = {n.kind for n in members}
    if "convoy" in kinds or "path" in kinds:
        rule = rules.convoy_paradox_rule
        if rule in ("1971", "1982", "2000"):
            rule = rules.paradox_fallback
        over: dict[Key, Definition]
        if rule == "all_hold":
            over = {n: FALSE for n in members if n.kind == "move"}
            over.update({_name("M", n.unit): FALSE for n in members if n.kind == "path"})
            return ("convoy_paradox", "all hold: the moves of the paradox fail", over)
        return ("convoy_paradox", "Szykman rule: the convoys of the paradox fail (the fleets hold)",
                {n: FALSE for n in members if n.kind == "convoy"})
    if kinds == {"move"}:
        return ("circular_movement", "circular movement: all moves succeed", {n: TRUE for n in members})
    return ("other_cycle", "all orders of the cycle fail", {n: FALSE for n in members})
