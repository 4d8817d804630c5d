"""Blockades and Sieges (seed 002), and the captured supply centers of Supply Centers 3-5: the
standing conditions a state carries between actions.

What the text gives:

* "If a player (or group of players) control all light blue seas a player-controlled foreign
  territory has port access to, they may declare (or lift) a blockade at any time. Home
  territories may not be blockaded."  The same for a siege of a player's home territories.
  Declaring and lifting are actions (``blockade mexico with CSA``, ``lift siege USSR``); the state
  keeps what is in force (:class:`~.state.Blockade`, :class:`~.state.Siege`).
* "A blockade has these effects:" and "A siege has these effects:" end without a list.  So every
  action a blockade or siege could touch asks the options ``blockade_effects`` /
  ``siege_effects`` (the table preset cuts port traffic; unspecified, they refuse): a force
  moving into or out of, landing at, boarding at, being built in, changing hands in or attacking a zone under blockade (for a siege: the
  besieged player's home territories), the production of a company there in Stage 2, and for a
  siege every trade of the besieged player.  Whether a blockade ends by itself when its
  declarers no longer control the seas is not said either (option ``blockade_lapse``).
* Supply Centers 3: a player "removed from the game (controlling none of their home
  territories)"; who then controls its supply center "depends on the state of their home
  territories during Stage 2:" (blank; option ``captured_supply_center``).  Supply Centers 4: "If
  a player who controls a captured supply center loses the last home territory (not just the
  majority) for that supply center, it is frozen until the next turn."  Supply Centers 5: "If a
  captured supply center is not frozen, a player may use it as so:" (blank; option
  ``captured_center_use``).
"""

from __future__ import annotations

from typing import Iterable, Optional

from .actions import Action, ActionError
from .options import SupremacyOptions
from .state import Blockade, CapturedCenter, Siege, State

PORT_VERBS = ("board", "unload")
TRADE_VERBS = ("buy", "sell", "transfer", "exchange", "draw")


def check_declaration(state: State, a: Action) -> None:
    """The conditions of a declaration: the declaring player (or group) controls every light-blue
    sea the foreign, player-controlled territory (blockade) or the superpower's home territories
    (siege) have port access to; home territories may not be blockaded."""
    b = state.get_board()
    group = {a.power, *a.group}
    if a.verb == "blockade":
        t = b.territories.get(a.dst)
        if t is None:
            raise ActionError(f"{b.zone_name(a.dst)} is not a territory")
        if t.home:
            raise ActionError(f"{t.name} is a home territory of {t.home}: home territories may not be blockaded")
        holder = state.controller(a.dst)
        if holder is None or holder in group:
            raise ActionError(f"{t.name} is not controlled by another player (a blockade targets a player-controlled "
                              "foreign territory)")
        if state.blockade_of(a.dst):
            raise ActionError(f"{t.name} is already blockaded")
    else:
        if a.dst in group or a.dst not in state.powers:
            raise ActionError(f"cannot besiege {a.dst}")
        if state.siege_of(a.dst):
            raise ActionError(f"{a.dst} is already besieged")
    missing, seas = _uncontrolled(state, a.verb, a.dst, group)
    if not seas:
        raise ActionError(f"{_what(state, a.verb, a.dst)}: no port access to any light-blue sea")
    if missing:
        raise ActionError(f"the {a.verb} needs control of every light-blue sea with port access "
                          f"({', '.join(b.zone_name(s) for s in seas)}); not controlled: "
                          f"{', '.join(b.zone_name(s) for s in missing)}")


def check_lift(state: State, a: Action) -> None:
    standing = state.blockade_of(a.dst) if a.item == "blockade" else state.siege_of(a.dst)
    if standing is None:
        raise ActionError(f"no {a.item} of {_what(state, a.item, a.dst)} is in force")
    if a.power not in standing.by:
        raise ActionError(f"the {a.item} of {_what(state, a.item, a.dst)} was declared by {', '.join(standing.by)}: "
                          f"only they may lift it")


def apply_declaration(state: State, a: Action) -> str:
    by = sorted({a.power, *a.group})
    if a.verb == "blockade":
        state.blockades.append(Blockade(zone=a.dst, by=by))
    elif a.verb == "siege":
        state.sieges.append(Siege(power=a.dst, by=by))
    elif a.item == "blockade":
        state.blockades = [x for x in state.blockades if x.zone != a.dst]
    else:
        state.sieges = [x for x in state.sieges if x.power != a.dst]
    if a.verb == "lift":
        return f"the {a.item} of {_what(state, a.item, a.dst)} is lifted"
    return f"{_what(state, a.verb, a.dst)} {'blockaded' if a.verb == 'blockade' else 'besieged'} by {', '.join(by)}"


def _what(state: State, kind: str, target: str) -> str:
    return state.get_board().zone_name(target) if kind == "blockade" else target


def _uncontrolled(state: State, kind: str, target: str, group: Iterable[str]) -> tuple[list[str], list[str]]:
    b = state.get_board()
    terrs = [target] if kind == "blockade" else b.homes(target)
    seas = sorted({s for t in terrs for s in b.territories[t].ports if b.seas[s].light_blue})
    members = set(group)
    return [s for s in seas if state.controller(s) not in members], seas


# ---------------------------------------------------------------- effects ---------------------

def action_zones(a: Action) -> list[str]:
    """The zones an action moves a force into or out of, builds in or hands over."""
    if a.verb in ("march", "airlift"):
        return [a.src, a.dst]
    if a.verb == "board":
        return [a.src]
    if a.verb == "unload":
        return [a.dst]
    if a.verb == "transfer" and a.item == "army":
        return [a.src]
    if a.verb == "build" and a.item == "army":
        return [a.dst]
    if a.verb == "exchange":
        return [z for item, z in ((a.item, a.src), (a.back_item, a.back_src)) if item == "army"]
    return []


def check_effects(state: State, opts: SupremacyOptions, power: str, verb: str, zones: list[str], what: str) -> None:
    """Raise when a blockade or siege in force decides what happens to this action: the blank
    effect options refuse when unspecified (the strict preset); 'none' has no effect; 'no_port_traffic' refuses boarding
    and unloading at the cut-off territories."""
    b = state.get_board()
    for bl in state.blockades:
        if bl.zone in zones:
            rule = opts.need("blockade_effects", f"{what} (touching {b.zone_name(bl.zone)}, blockaded by "
                             f"{', '.join(bl.by)})")
            if rule == "no_port_traffic" and verb in PORT_VERBS:
                raise ActionError(f"{b.zone_name(bl.zone)} is blockaded by {', '.join(bl.by)}: no boarding or "
                                  "unloading there (blockade_effects 'no_port_traffic')")
    for sg in state.sieges:
        homes = set(b.homes(sg.power))
        touched = homes & set(zones)
        if touched or (power == sg.power and verb in TRADE_VERBS):
            rule = opts.need("siege_effects", f"{what} ({sg.power} besieged by {', '.join(sg.by)})")
            if rule == "no_port_traffic" and verb in PORT_VERBS and touched:
                raise ActionError(f"{sg.power} is besieged by {', '.join(sg.by)}: no boarding or unloading at its "
                                  "home territories (siege_effects 'no_port_traffic')")


def production_effects(state: State, opts: SupremacyOptions, power: str, zone: str, company: str) -> None:
    """Stage 2: a company in a blockaded territory, or of a besieged player, asks the effect option."""
    check_effects(state, opts, power, "produce", [zone], f"Stage 2 production of company {company}")
    sg = state.siege_of(power)
    if sg is not None and zone not in state.get_board().homes(power):
        opts.need("siege_effects", f"Stage 2 production of company {company} ({power} besieged by {', '.join(sg.by)})")


# ---------------------------------------------------------------- review ----------------------

def review(state: State, opts: SupremacyOptions) -> list[str]:
    """After every play: blockades and sieges whose conditions no longer hold (option
    ``blockade_lapse``), and captured supply centers whose controller lost the last home
    territory (frozen until the next turn).  Returns what changed."""
    log: list[str] = []
    b = state.get_board()
    standing: list[tuple[str, str, Blockade | Siege]] = [("blockade", x.zone, x) for x in state.blockades]
    standing += [("siege", x.power, x) for x in state.sieges]
    for kind, target, cond in standing:
        missing, _ = _uncontrolled(state, kind, target, cond.by)
        gone = ""
        if missing:
            gone = f"{', '.join(cond.by)} no longer control {', '.join(b.zone_name(s) for s in missing)}"
        elif kind == "blockade" and state.controller(target) in (None, *cond.by):
            gone = f"{b.zone_name(target)} is no longer held by another player"
        if not gone:
            continue
        rule = opts.need("blockade_lapse", f"the {kind} of {_what(state, kind, target)} ({gone})")
        if rule == "with_control":
            if isinstance(cond, Blockade):
                state.blockades.remove(cond)
            else:
                state.sieges.remove(cond)
            log.append(f"the {kind} of {_what(state, kind, target)} lapses: {gone} (blockade_lapse 'with_control')")
    for removed, cc in sorted(state.captured.items()):
        if cc.controller is None or cc.frozen(state.turn):
            continue
        if not any(state.controller(t) == cc.controller for t in b.homes(removed)):
            cc.frozen_until = state.turn + 1
            log.append(f"{removed}'s captured supply center is frozen until turn {state.turn + 1}: {cc.controller} "
                       "lost the last of its home territories (Supply Centers 4)")
    return log


def removed_players(state: State) -> list[str]:
    b = state.get_board()
    return [p for p in sorted(state.powers) if not any(state.controller(t) == p for t in b.homes(p))]


def stage2_control(state: State, opts: SupremacyOptions) -> list[str]:
    """Stage 2, Supply Centers 3: who controls each removed player's supply center."""
    b = state.get_board()
    removed = removed_players(state)
    log: list[str] = []
    for p in sorted(state.captured):
        if p not in removed:
            del state.captured[p]
            log.append(f"{p} controls a home territory again: its supply center is its own")
    if not removed:
        return log
    rule = opts.need("captured_supply_center", f"Stage 2 with {', '.join(removed)} removed from the game")
    for p in removed:
        cc = state.captured.setdefault(p, CapturedCenter())
        if cc.frozen(state.turn):
            log.append(f"{p}'s captured supply center stays frozen (until turn {cc.frozen_until})")
            continue
        cc.frozen_until = None
        winner: Optional[str] = None
        if rule == "majority":
            homes = b.homes(p)
            counts: dict[str, int] = {}
            for t in homes:
                c = state.controller(t)
                if c is not None:
                    counts[c] = counts.get(c, 0) + 1
            winner = next((q for q, n in sorted(counts.items()) if 2 * n > len(homes)), None)
        cc.controller = winner
        log.append(f"{p} is removed from the game: its supply center is controlled by "
                   + (f"{winner} (a majority of its home territories)" if winner else "nobody")
                   + f" (captured_supply_center {rule!r})")
    return log


def check_draw(state: State, opts: SupremacyOptions, a: Action) -> None:
    """Supply Centers 5: using a captured supply center (option ``captured_center_use``)."""
    opts.need("captured_center_use", f"{a.text!r}")
    if opts.captured_center_use == "none":
        raise ActionError("a captured supply center cannot be used (captured_center_use 'none')")
    cc = state.captured.get(a.to)
    if cc is None or cc.controller != a.power:
        raise ActionError(f"{a.power} does not control {a.to}'s supply center")
    if cc.frozen(state.turn):
        raise ActionError(f"{a.to}'s captured supply center is frozen until turn {cc.frozen_until} (Supply Centers 4)")
