"""Multinational's year: one movement a year, the 1990 placement (rule 4), rule 8's retreats and
removals with seeded lots, adjustments in building years, claims of a shared victory."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from dipsat.board.adjustments import AdjustmentResult, parse_adjustment
from dipsat.board.notation import ParsedOrder
from dipsat.board.destinations import written_build_location, written_destination, written_unit
from dipsat.errors import DipsatError, InputFileError, OrderError
from dipsat.models import Position
from dipsat.outcomes import Bounced, Built, Disbanded, Lots, Moved, OrderRef, Outcome, Waived
from dipsat.game.variant import DiplomacyYear, Phases
from dipsat.rules import RuleOptions
from dipsat.game.variant import Variant
from dipsat.variants.multinational.options import KINDS, MultinationalOptions

if TYPE_CHECKING:
    from dipsat.engine.chance import RandomSource
    from dipsat.maps import GameMap
    from dipsat.outcomes import MovementResult
    from dipsat.board.retreats import RetreatResult


def _even_year(year: int) -> bool:
    return year % 2 == 0  # "all even playing years, starting with 1992"


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
    from dipsat.game.positions import power_name

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


# -- phases other than movement ---------------------------------------------------------------

DEFAULT_PLACEMENT = {  # the seed's table (rule 4): which home centre gets which kind
    "AT": {"M": "uta", "E": "neb", "P": "kan"}, "CC": {"M": "vir", "E": "pen", "P": "vmo"},
    "EX": {"M": "tex", "E": "nme", "P": "coa"}, "GM": {"M": "mic", "E": "wis", "P": "ils"},
    "PM": {"M": "grg", "E": "ala", "P": "flo"}, "IB": {"M": "mon", "E": "nda", "P": "alb"},
    "TW": {"M": "ore", "E": "cal", "P": "bca"},
}


def _lots(rules: RuleOptions, pos: Position) -> RandomSource:
    """The core's seeded random source for this phase's lots (rule 8): the ``random_seed``
    option, else a seed derived from the position; ``random_draws`` replaces draws."""
    from dipsat.engine.chance import RandomSource

    return RandomSource.for_position(rules.random_seed, pos, rules.random_draws)


def draw_key(*parts: object) -> str:
    from dipsat.engine.chance import draw_key as key

    return key(*parts)


def _lots_drawn(m: GameMap, tied: list[str], src: RandomSource, key: str) -> Lots:
    return Lots.build(among=tuple(m.display(t) for t in tied), seed=src.seed, key=key)


def _placement(variant: Variant, pos: Position, orders: dict[str, list[str]]) -> AdjustmentResult:
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


def _retreats(variant: Variant, rules: RuleOptions, mv: MovementResult, orders: dict[str, list[str]]) -> RetreatResult:
    """Rule 8: to bordering states (an M also to bordering seas), never occupied, never where a
    move failed this year; without an order: a neutral state, else an uncontrolled capacity
    centre that is no home centre, else a home centre; lots among equals; else off the board."""
    from dipsat.board.retreats import RetreatOption, RetreatResult

    if not isinstance(rules, MultinationalOptions):
        raise TypeError(f"Multinational's retreats take its own options, not {type(rules).__name__}")
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
            try:  # the unit and the destination as written, read as in a move (the coast options)
                written_unit(m, rules, pos.units[u], p.unit, text, u)
                if p.action == "move":
                    assert p.dest is not None  # a retreat is a move
                    written_destination(m, rules, pos.units[u], p.dest, text, u)
            except OrderError as exc:
                outcomes.append(Outcome.rejected(power, text, exc.severity, exc.reason, u))
                continue
            if p.action == "disband":
                chosen[u] = ("disband", power, text)
                continue
            assert p.dest is not None
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
            new_units.append(pos.units[u].updated(location=dest))
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


def _adjustments(variant: Variant, rules: RuleOptions, pos: Position, orders: dict[str, list[str]]) -> AdjustmentResult:
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
            # the core's adjustment notation ("Build E Uta", "E Uta B", "Remove P Kan", "P Kan D")
            try:
                written, ref = parse_adjustment(variant.notation, text) if text.strip() else ("", None)
            except OrderError as exc:
                core = ("expected an adjustment order", "a build order", "a disband order")  # the core's examples name A and F
                why = "expected 'Build E Uta' or 'Remove P Kan'" if exc.reason.startswith(core) else exc.reason
                outcomes.append(Outcome.rejected(mn, text, "invalid", why))
                continue
            if ref is None or ref.kind is None or ref.kind not in KINDS:
                outcomes.append(Outcome.rejected(mn, text, "invalid", "expected 'Build E Uta' or 'Remove P Kan'"
                                                 + (" (a build not ordered is not made: nothing to waive)"
                                                    if written == "waive" else "")))
                continue
            action = "build" if written == "build" else "remove"
            kind: str = ref.kind
            p = ParsedOrder(text=text, unit=ref, action="hold")
            prov = p.unit.loc.province
            occupied = {u.province for i, u in enumerate(units) if i not in removed}
            try:  # a written coast, read as in a move: irrelevant on this board of provinces
                if action == "build":
                    written_build_location(m, rules, kind, prov, p.unit.loc.coast, text)
                else:
                    here = [units[i] for i in mine if units[i].province == prov and i not in removed]
                    if here:
                        written_unit(m, rules, here[0], p.unit, text, kind=False)
            except OrderError as exc:
                outcomes.append(Outcome.rejected(mn, text, exc.severity, exc.reason))
                continue
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
                units.append(Unit(power=mn, kind=kind, location=prov))
                outcomes.append(Built.build(power=mn, text=text, order_kind="build", built=f"{kind} {m.display(prov)}"))
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
