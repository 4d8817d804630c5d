"""Documented deviations of the peers from DATC 3.0, and the classifier of disagreements.

A deviation has

* a trigger: a small predicate that inspects the turn (and dipsat's result) and returns the
  orders that set the peer's deviation off, with the provinces they concern.  Every deviation
  triggered anywhere in the turn is a candidate -- effects travel (a support wrongly cut
  changes a battle three provinces away) -- and the evidence on the provinces where the
  results differ is listed first;
* a confirmation: the peer is run again with the deviation taken away -- its own code
  corrected (:mod:`benchmarks.peers.fixes`: one small patch per deviation), or the turn
  rewritten into one with the same DATC outcome on which the deviation cannot occur
  (``Deviation.neutralise``).  The smallest set of candidates whose confirmation makes the
  peer agree with dipsat *exactly* is the class of the disagreement (:func:`classify`).  When
  no set does, the disagreement stays *unclassified*, even if deviations were triggered;
* a minimal corpus case (``tests/corpora/peers/<name>.toml``) whose expectation is the DATC 3.0
  result and whose notes give the DATC reasoning and the peer's deviation; the test suite runs
  it for dipsat and checks that the peer still deviates on it (``tests/test_differential.py``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable, Optional

from .. import workload
from .engines import Run
from .turn import Evidence, Loc, Turn


def trigger_mila_self_dislodge_via_convoy(t: Turn) -> Evidence:
    out = []
    for a in range(len(t.units)):
        if not t.convoyed(a):
            continue
        d = t.dest(a)
        v = t.at.get(d)
        if v is None or t.power(v) == t.power(a):
            continue
        own = [s for s in t.supporters(a, d) if t.power(s) == t.power(v)]
        if own:
            out.append((f"{t.text(a)} is convoyed and supported by {'; '.join(t.text(s) for s in own)}: "
                        f"{t.power(v)} support must not help dislodge {t.unit(v)}", {d, t.prov(a)}))
    return out


def trigger_mila_h2h_defend_without_own_support(t: Turn) -> Evidence:
    out = []
    for i in range(len(t.units)):
        pj = t.dest(i)
        j = t.at.get(pj) if pj else None
        if j is None or j < i or t.convoyed(i) or t.convoyed(j) or t.dest(j) != t.prov(i):
            continue
        if t.power(i) == t.power(j):
            continue
        nh = [s for s in t.supporters(i, pj) if t.power(s) == t.power(j)] + \
             [s for s in t.supporters(j, t.prov(i)) if t.power(s) == t.power(i)]
        if nh:
            out.append((f"head-to-head {t.text(i)} / {t.text(j)}; support for an attack on the supporter's own unit: "
                        f"{'; '.join(t.text(s) for s in nh)} (counts for defence, not for dislodging)",
                        {t.prov(i), pj}))
    return out


def trigger_mila_convoy_disrupted_by_own_support(t: Turn) -> Evidence:
    out = []
    for f, o in t.orders.items():
        if o[0] != "C":
            continue
        a, sea = o[1], t.prov(f)
        for x in range(len(t.units)):
            if t.dest(x) != sea or t.power(x) == t.power(f):
                continue
            own = [s for s in t.supporters(x, sea) if t.power(s) == t.power(f)]
            if own:
                out.append((f"convoying {t.text(f)} attacked by {t.text(x)} with support of its own power: "
                            f"{'; '.join(t.text(s) for s in own)}", {sea, t.prov(a), o[2], t.prov(x)}))
    return out


def trigger_mila_via_convoy_land_fallback(t: Turn) -> Evidence:
    out = []
    for a in range(len(t.units)):
        if t.convoyed(a) and t.b.can_reach(t.units[a], t.dest(a)) and not t.ordered_route(a):
            out.append((f"{t.text(a)}: no convoy route is ordered; the land route is no fallback",
                        {t.prov(a), t.dest(a)}))
    return out


def trigger_mila_convoy_route_dropped_early(t: Turn) -> Evidence:
    out = []
    goes_to = {t.dest(b): b for b in range(len(t.units)) if t.convoyed(b)}
    for f, o in t.orders.items():
        if o[0] != "C" or not t.convoyed(o[1]):
            continue
        a, sea = o[1], t.prov(f)
        for x in range(len(t.units)):
            if t.dest(x) != sea:
                continue
            for s in t.supporters(x, sea):
                b = goes_to.get(t.prov(s))
                if b is not None and b != a:
                    out.append((f"{t.text(f)} is attacked by {t.text(x)} with a support that a convoyed army may cut: "
                                f"{t.text(s)} / {t.text(b)}", {sea, t.prov(a), t.dest(a), t.prov(s)}))
    return out


def trigger_mila_convoy_cut_kept_after_disruption(t: Turn) -> Evidence:
    out = []
    armies = [a for a in range(len(t.units)) if t.convoyed(a)]
    cutters = {a: t.at[t.dest(a)] for a in armies if t.dest(a) in t.at and t.order(t.at[t.dest(a)])[0] == "S"}
    for a, sup in cutters.items():
        attacked = [t.prov(f) for f, o in t.orders.items() if o[0] == "C" and o[1] == a
                    and any(t.dest(x) == t.prov(f) for x in range(len(t.units)))]
        others = [b for b in cutters if b != a]
        if attacked and others:
            out.append((f"{t.text(a)} may cut {t.text(sup)} before its convoy, attacked in {', '.join(attacked)}, "
                        f"is found disrupted after {'; '.join(t.text(b) for b in others)} cut(s) a support",
                        {t.dest(a), *attacked, *(t.dest(b) for b in others)}))
    return out


def trigger_mila_paradox_chain_through_cut_support(t: Turn) -> Evidence:
    out = []
    for f, o in t.orders.items():
        if o[0] != "C" or not t.convoyed(o[1]) or t.dest(o[1]) != o[2]:
            continue
        a, sea = o[1], t.prov(f)
        node, chain = o[2], []
        while node in t.at and t.at[node] not in chain:  # MILA's walk: each order's last province
            u = t.at[node]
            chain.append(u)
            ou = t.order(u)
            if len(chain) > 1 and ou[0] == "S" and ou[2] is None and ou[1] == f:
                out.append((f"a chain of supports from {t.text(a)}'s destination to the convoying fleet: "
                            + " -> ".join(t.text(x) for x in chain), {sea, *(t.prov(x) for x in chain)}))
                break
            if ou[0] == "S":
                node = ou[2] or t.prov(ou[1])
            elif ou[0] == "C":
                node = ou[2]
            else:
                break
    return out


def trigger_pydip_support_cut_by_coast_name(t: Turn) -> Evidence:
    out = []
    cmds = workload.pydip_spec(t.req)[1]  # one per unit, in the order of t.units
    for s, o in t.orders.items():
        if o[0] != "S" or o[2] is None:
            continue
        k = t.at.get(o[2])
        if k is None or k == o[1] or t.dest(k) != t.prov(s) or t.power(k) == t.power(s):
            continue
        support_into, attacker_at = cmds[s][7], cmds[k][3]
        if support_into != attacker_at:
            out.append((f"{t.text(k)} attacks the supporter from the province it supports into, "
                        f"but pydip compares {attacker_at!r} with {support_into!r}: {t.text(s)}",
                        {t.prov(s), o[2]}))
    return out


def trigger_pydip_convoy_paradox_missed(t: Turn) -> Evidence:
    out = []
    for b in (t.dipsat.detail.backups if t.dipsat else ()):
        if b.kind == "convoy_paradox":
            out.append((f"a convoy paradox ({b.resolutions} consistent resolutions; dipsat applies the Szykman "
                        f"rule): {'; '.join(b.orders)}", {x.split()[1].lower().split("/")[0] for x in b.orders}))
    return out


def szykman_by_hand(t: Turn) -> Optional[dict[str, Any]]:
    """The turn with the convoy orders of dipsat's convoy paradoxes replaced by holds: the
    Szykman rule ("the convoying fleets part of the paradox execute a hold order", DATC 4.A.2 f)
    applied to the orders, so that a peer no longer has a paradox to resolve."""
    fleets = set()
    for b in (t.dipsat.detail.backups if t.dipsat else ()):
        if b.kind == "convoy_paradox":
            for text in b.orders:
                w = text.split()
                if len(w) > 2 and w[2] == "C":
                    fleets.add(t.at[w[1].lower().split("/")[0]])
    if not fleets:
        return None
    orders = {i: (("H",) if i in fleets else o) for i, o in t.orders.items()}
    req = workload.to_request(t.units, orders, ident=t.id)
    return req


@dataclass(frozen=True)
class Deviation:
    name: str
    peer: str
    summary: str  # one sentence: what the peer does, and what DATC 3.0 says
    datc: str  # where DATC 3.0 settles it
    corpus: str  # the minimal case, relative to the repository
    trigger: Callable[[Turn], Evidence]
    # How the confirmation takes the deviation away: by default the peer's code is corrected
    # (MILA_FIXES / PYDIP_FIXES under the same name); otherwise ``neutralise`` rewrites the
    # turn into one with the same DATC 3.0 outcome on which the deviation cannot occur.
    neutralise: Optional[Callable[[Turn], Optional[dict[str, Any]]]] = None


DEVIATIONS: list[Deviation] = [
    Deviation(
        "mila_self_dislodge_via_convoy", "mila",
        "MILA lets a power's support help dislodge its own unit when the attacker moves by convoy "
        "(a convoyed order ends in VIA, and MILA looks for the attacked unit there); DATC: a support "
        "given by the power of the attacked unit never counts for dislodging it.",
        "DATC 3.0 5.B.8 (attack strength), 6.D.12, 6.D.16, 6.E.3",
        "tests/corpora/peers/mila_self_dislodge_via_convoy.toml",
        trigger_mila_self_dislodge_via_convoy),
    Deviation(
        "mila_h2h_defend_without_own_support", "mila",
        "In a head-to-head battle MILA leaves out of the defending side's strength the supports "
        "given by the power it attacks; DATC: those supports do not count for dislodging, but the "
        "defend strength counts every support of the defender's move.",
        "DATC 3.0 5.B.7 (defend strength), 5.B.8, 6.E.12",
        "tests/corpora/peers/mila_h2h_defend_without_own_support.toml",
        trigger_mila_h2h_defend_without_own_support),
    Deviation(
        "mila_convoy_disrupted_by_own_support", "mila",
        "MILA decides that a convoying fleet is dislodged (and so the convoy disrupted) counting "
        "supports given by the fleet's own power, which it voids only afterwards; DATC: such a support "
        "cannot help dislodge the fleet, so the fleet stays and the convoy goes through.",
        "DATC 3.0 5.B.3 (convoy), 5.B.8, 6.D.12, 6.F.4",
        "tests/corpora/peers/mila_convoy_disrupted_by_own_support.toml",
        trigger_mila_convoy_disrupted_by_own_support),
    Deviation(
        "mila_via_convoy_land_fallback", "mila",
        "MILA moves an army ordered 'via convoy' over land when no convoy route is ordered (the DATC 2 "
        "preference); DATC 3.0 prefers no fallback: the move fails.",
        "DATC 3.0 4.A.3, 6.G.8",
        "tests/corpora/peers/mila_via_convoy_land_fallback.toml",
        trigger_mila_via_convoy_land_fallback),
    Deviation(
        "mila_convoy_route_dropped_early", "mila",
        "MILA drops a convoy route as soon as one of its fleets looks beaten, before the supports that "
        "convoyed armies will cut are taken away, and never restores it: an army whose route in fact "
        "survives is taken as disrupted and does not cut the support it attacks; DATC: a convoy fails "
        "only when every route is broken by a fleet actually dislodged.",
        "DATC 3.0 5.B.2, 5.B.3, 5.B.4, 4.A.1 (6.F.9)",
        "tests/corpora/peers/mila_convoy_route_dropped_early.toml",
        trigger_mila_convoy_route_dropped_early),
    Deviation(
        "mila_convoy_cut_kept_after_disruption", "mila",
        "MILA lets a convoyed army cut a support while its convoy still looks safe and keeps that cut when "
        "the convoy is found disrupted on a later pass (after another convoyed army's cut made the attack "
        "on the fleet succeed); DATC: only a move with a successful path cuts a support.",
        "DATC 3.0 5.B.2, 5.B.4, 6.F.6",
        "tests/corpora/peers/mila_convoy_cut_kept_after_disruption.toml",
        trigger_mila_convoy_cut_kept_after_disruption),
    Deviation(
        "mila_paradox_chain_through_cut_support", "mila",
        "MILA takes a convoy for a paradox (and disrupts it) when a chain of support orders leads from the "
        "convoy's destination to a hold support of the convoying fleet, even when a support of the chain is "
        "already cut, so that the orders have a single resolution in which the convoy succeeds; DATC: a "
        "single consistent resolution must be taken, the paradox rule applies only to zero or two.",
        "DATC 3.0 4.A.2, 5.B.9 (6.F.22-6.F.24 are the real second-order paradoxes)",
        "tests/corpora/peers/mila_paradox_chain_through_cut_support.toml",
        trigger_mila_paradox_chain_through_cut_support),
    Deviation(
        "pydip_support_cut_by_coast_name", "pydip",
        "pydip lets the unit in the province a support is given into cut that support when its "
        "territory name differs from the support's destination (a fleet on 'Rome Coast' or "
        "'Spain North Coast' against a support into 'Rome' or 'Spain'); DATC: a support is never cut "
        "from the province it is directed into, whatever the coast.",
        "DATC 3.0 5.B.2 (support), 6.D.15, 6.B.6",
        "tests/corpora/peers/pydip_support_cut_by_coast_name.toml",
        trigger_pydip_support_cut_by_coast_name),
    Deviation(
        "pydip_convoy_paradox_missed", "pydip",
        "pydip's guess algorithm (the first version in DATC 5.F) takes an order as independent of the "
        "guesses when the list of cycle orders did not grow while adjudicating it, so an order that "
        "depends on a guess already in the list keeps the result computed on that guess; in Pandin's "
        "paradox the paradox is missed and the convoying fleet is dislodged.  DATC: the Szykman rule "
        "makes the convoy fail, the support stands and the attacks on the fleet bounce.",
        "DATC 3.0 5.D, 5.F, 6.F.16, 6.F.17",
        "tests/corpora/peers/pydip_convoy_paradox_missed.toml",
        trigger_pydip_convoy_paradox_missed, neutralise=szykman_by_hand),
]
DEVIATION = {d.name: d for d in DEVIATIONS}


def difference(ds: Run, peer: Run) -> dict[str, list[Loc]]:
    return {"after_dipsat_only": sorted(ds.after - peer.after), "after_peer_only": sorted(peer.after - ds.after),
            "dislodged_dipsat_only": sorted(ds.dislodged - peer.dislodged),
            "dislodged_peer_only": sorted(peer.dislodged - ds.dislodged)}


def agree(a: Run, b: Run) -> bool:
    return a.after == b.after and a.dislodged == b.dislodged


@dataclass
class Verdict:
    turn: str
    peer: str
    classes: list[str]  # the deviations that explain it ([] = unclassified)
    evidence: dict[str, list[str]]  # deviation -> trigger descriptions (also for unclassified)
    diff: dict[str, list[Loc]]
    note: str = ""

    @property
    def label(self) -> str:
        return "+".join(self.classes) if self.classes else "unclassified"


def classify(turn: Turn, peer: Any, ds: Run, run: Run) -> Verdict:
    """Explain one disagreement by the peer's documented deviations.

    Every deviation whose trigger occurs in the turn is a candidate (an effect can travel far:
    a support cut or not cut changes a battle elsewhere); the evidence that concerns a province
    where the results differ is listed first, the rest is marked "[elsewhere]".  The verdict is
    the smallest set of candidates whose corrections make the peer agree with dipsat exactly;
    when none does, the disagreement is unclassified."""
    diff = difference(ds, run)
    turn.dipsat = ds
    touched = {loc.split("/")[0] for xs in diff.values() for _, _, loc in xs}
    evidence: dict[str, list[str]] = {}
    for dev in DEVIATIONS:
        if dev.peer == peer.name:
            ev = dev.trigger(turn)
            if ev:
                ev = sorted(ev, key=lambda e: not (e[1] & touched))
                evidence[dev.name] = [text + ("" if provs & touched else " [elsewhere]") for text, provs in ev]
    if not evidence:
        return Verdict(turn.id, peer.name, [], {}, diff, "no documented deviation is triggered here")
    names = sorted(evidence)
    subsets = [list(c) for k in range(1, len(names) + 1) for c in itertools.combinations(names, k)]
    for subset in subsets:
        t, req = turn, turn.req
        for n in subset:
            if DEVIATION[n].neutralise:
                req = DEVIATION[n].neutralise(t) or req
                t = Turn(req)
                t.dipsat = ds
        fixed = peer.run(req, fixes=frozenset(n for n in subset if not DEVIATION[n].neutralise))
        if agree(ds, fixed):
            return Verdict(turn.id, peer.name, subset, {n: evidence[n] for n in subset}, diff)
    return Verdict(turn.id, peer.name, [], evidence, diff,
                   f"triggered {', '.join(names)}, but the corrected {peer.name} still disagrees")
