"""Corrections of the peers, one per documented deviation.

Each correction makes one deviation of a peer follow DATC 3.0 and nothing else; the classifier
(:func:`benchmarks.peers.deviations.classify`) re-runs a peer with corrections applied to
confirm that a disagreement is that deviation.  MILA's are source edits of its ``Game`` methods
(recompiled in MILA's module, anchored on exact source text: an anchor not found raises
:class:`PatchError`, so a new MILA version cannot be silently mis-patched); pydip's replace
functions of ``pydip.turn.resolve``.  Written for ``diplomacy==1.1.2`` and ``pydip==0.1.8``.
"""

from __future__ import annotations

import inspect
import sys
import textwrap
from typing import Any, Callable


class PatchError(RuntimeError):
    pass


def _patch_source(func: Callable, edits: list[tuple[str, str, str]]) -> Callable:
    """``func`` recompiled in its module with ``edits`` applied to its source: (how, anchor,
    text) with how "replace" (anchor -> text), "before" or "after" (insert the lines of text
    before / after the line holding anchor, at its indentation).  Each anchor must occur
    exactly once."""
    src = textwrap.dedent(inspect.getsource(func))
    for how, anchor, text in edits:
        if src.count(anchor) != 1:
            raise PatchError(f"{func.__qualname__}: anchor {anchor!r} found {src.count(anchor)} times")
        if how == "replace":
            src = src.replace(anchor, text)
        else:
            lines = src.split("\n")
            k = next(n for n, line in enumerate(lines) if anchor in line)
            indent = lines[k][: len(lines[k]) - len(lines[k].lstrip())]
            at = k if how == "before" else k + 1
            lines[at:at] = [indent + t for t in text.split("\n")]
            src = "\n".join(lines)
    ns: dict[str, Any] = {}
    exec(compile(src, f"<patched {func.__qualname__}>", "exec"), vars(sys.modules[func.__module__]), ns)
    return ns[func.__name__]


# MILA 1.1.2 corrections, by deviation name: method -> source edits (or, as a callable
# returning it, a method to add).  Each makes one deviation follow DATC 3.0 and nothing else.
MILA_FIXES: dict[str, dict[str, Any]] = {
    # STEP 2 looks up the owner of the unit at the destination in the order's last word, which
    # is "VIA" for a convoyed move: no unit, so the supports by the defender's own power were
    # never set aside.  Read the destination before "VIA".
    "mila_self_dislodge_via_convoy": {"_resolve_moves": [
        ("replace", "other = self._unit_owner(self._occupant(coord[-1], any_coast=1))",
         "other = self._unit_owner(self._occupant(coord[-1 - (coord[-1] == 'VIA')], any_coast=1))")]},
    # STEP 6 compares both sides of a head-to-head battle without the supports given by the
    # power they attack; the defending side must keep all its supports (defend strength).
    "mila_h2h_defend_without_own_support": {"_bounce": [
        ("replace", "if our_strength or my_strength <= his_strength:",
         "if our_strength or my_strength <= self.supports[swap][0]:"),
        ("replace", "if our_strength or his_strength <= my_strength:",
         "if our_strength or his_strength <= self.supports[unit][0]:")]},
    # Convoy disruption judges the attack on a convoying fleet with the supports given by the
    # fleet's own power, which cannot help dislodge it (MILA voids them only later).  Before
    # MILA's own test (unchanged, paradox detection included), skip the area when no attack,
    # counted without those supports, can beat every other strength there -- each taken at its
    # lowest: a support given from where a convoyed army is going may yet be cut.
    "mila_convoy_disrupted_by_own_support": {
        "_check_disruptions": [
            ("before", "# Paradox Detection #1",
             "if not self._attack_can_dislodge(area, convoyer):\n    continue")],
        "_attack_can_dislodge": lambda: _mila_attack_can_dislodge},
    # STEPS 4-5 loop: a route whose fleet looks beaten is removed from the army's routes at
    # once, also on the provisional ("maybe") pass, and never put back when a convoyed army
    # later cuts the support that made the attack on that fleet strong.  Start each pass from
    # the routes of STEP 1A (strengths only fall from pass to pass: cuts remove supports).
    "mila_convoy_route_dropped_early": {"_resolve_moves": [
        ("before", "# STEPS 4 AND 5. DETERMINE CONVOY DISRUPTIONS",
         "routes_at_step_1 = {u: list(paths) for u, paths in self.convoy_paths.items()}"),
        ("before", "# STEP 4. CUT SUPPORTS MADE BY (non-maybe) CONVOYED ATTACKS",
         "for u, paths in routes_at_step_1.items():\n"
         "    self.convoy_paths[u] = list(paths)\n"
         "    if self.result[u] == [MAYBE]:\n"
         "        self.result[u] = []")]},
    # STEPS 4-5: a convoyed army that still has a route cuts supports at once, and when its
    # convoy turns out disrupted on a later pass (a cut made by another convoyed army broke
    # it), those cuts stay.  Record them, and undo them when the army gets NO_CONVOY (then
    # go round once more: strengths changed).
    "mila_convoy_cut_kept_after_disruption": {
        "_resolve_moves": [
            ("before", "# STEP 3. LET DIRECT (NON-CONVOYED) ATTACKS CUT SUPPORTS", "self._convoy_cuts = {}"),
            ("before", "for sup, help_unit in self.command.items():",
             "for cut_unit, affected, no_help in self._convoy_cuts.pop(unit, []):\n"
             "    self.result[cut_unit].remove(CUT)\n"
             "    self.supports[affected][0] += 1\n"
             "    if no_help:\n"
             "        self.supports[affected][1].append(cut_unit)\n"
             "    cut = 1")],
        "_cut_support": [
            ("after", "self.result[other_unit] += [CUT]",
             "if not direct:\n"
             "    self._convoy_cuts.setdefault(unit, []).append(\n"
             "        (other_unit, ' '.join(coord[1:3]), other_unit in self.supports[' '.join(coord[1:3])][1]))")]},
    # Convoy disruption takes a paradox for granted when a chain of supports leads from the
    # convoy's destination to a support of the convoying fleet, without looking at the
    # supports of the chain: one already cut (by another unit than the army, which only reaches
    # the first) passes nothing on, the chain is broken there.
    "mila_paradox_chain_through_cut_support": {"_detect_paradox": [
        ("after", "visited_units += [current_unit]",
         "if len(visited_units) > 1 and CUT in self.result.get(current_unit, []):\n    break")]},
    # STEP 1A drops "VIA" from a move that has no convoy route ordered, so that it goes over
    # land (DATC 2 preference); DATC 3.0: the move fails.
    "mila_via_convoy_land_fallback": {"_resolve_moves": [
        ("replace", "self.command[unit] = ' '.join(word[:-1])", "self.result[unit] += [NO_CONVOY]")]},
}


def _mila_attack_can_dislodge(self, area: str, convoyer: str) -> bool:
    """Added to MILA's Game by the correction of ``mila_convoy_disrupted_by_own_support``: can
    an attack on ``area``, counted without the supports of ``convoyer``'s power, beat every other
    strength there, each taken at its lowest (less the supports a convoyed army may yet cut)?"""
    targets = set()  # where the armies with a convoy route (at STEP 1A) are going
    for u in self.convoy_paths:
        w = self.command.get(u, "").split()
        if w[:1] == ["-"]:
            targets.add(w[-1 - (w[-1] == "VIA")][:3])

    def cuttable(unit: str) -> int:
        return sum(1 for s, o in self.command.items()
                   if o.split()[:1] == ["S"] and " ".join(o.split()[1:3]) == unit and s[2:5] in targets
                   and not {"cut", "void"} & {str(r) for r in self.result.get(s, [])})

    entries = [(k, u, nh) for k, lst in self.combat[area].items() for u, nh in lst]
    owner = self._unit_owner(convoyer)
    return any(all(k - len(nh) > k2 - cuttable(u2) for k2, u2, _ in entries if u2 != u)
               for k, u, nh in entries if self._unit_owner(u) is not owner)


def _pydip_same_place(command_map, a: str, b: str) -> bool:
    name = command_map._game_map.relevant_name_for_territory
    return name(a) == name(b)


def _pydip_indirect_non_convoy_attackers(command_map, command):
    return [c for c in command_map.get_attackers(command.unit.position)
            if not _pydip_same_place(command_map, c.unit.position, command.destination) and c.player != command.player]


def _pydip_indirect_convoy_attackers(command_map, command):
    return [c for c in command_map.get_convoy_attackers(command.unit.position)
            if not _pydip_same_place(command_map, c.unit.position, command.destination)
            and c.player.name != command.player.name]


# pydip 0.1.8 corrections, by deviation name: function of pydip.turn.resolve -> replacement.
PYDIP_FIXES: dict[str, dict[str, Callable]] = {
    # A support is not cut by the unit in the province it supports into; pydip compares the
    # territory names, so "Spain" (the support's destination) is not "Spain North Coast" (the
    # fleet attacking from there), nor "Rome" "Rome Coast".  Compare the provinces.
    "pydip_support_cut_by_coast_name": {
        "_indirect_non_convoy_attackers": _pydip_indirect_non_convoy_attackers,
        "_indirect_convoy_attackers": _pydip_indirect_convoy_attackers,
    },
}
