"""``dipsat fingerprint --peer mila|pydip``: the observations' turns adjudicated by a peer
adjudicator, each turned into an observation of what the peer did, then fingerprinted.

Every observation's position and orders go to the peer (:mod:`dipsat.io.peers`); what it makes
of them -- the units after the turn and the units dislodged -- replaces the observation's
expectation, in the corpus vocabulary.  The orders the observation keeps are those the peer was
given, in dipsat's notation: an order dipsat reads as illegal under the observation's rules is
given to no one (the unit holds), and counted.  The fingerprint of those observations says which
readings of the rule options the peer follows; the turns no reading explains are the peer's
deviations from every reading dipsat knows (its bugs, or rules dipsat lacks).

Only standard-board movement phases can be given to a peer: any other observation (another
variant, a retreat or adjustment phase, a saved game's phases played in turn) is an error naming
it, as is a turn the peer crashes on; none of them costs another observation.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Iterable, Iterator, Optional

from dipsat.errors import DipsatError
from dipsat.io.corpus import Expectation
from dipsat.io.peers import PEERS, TITLES, Peer, observed, peer_turn, turn_texts
from dipsat.records import dataclass
from dipsat.research.fingerprint import Fingerprint
from dipsat.research.fingerprint_inputs import InputProblem, Item, Observation

#: how the presets are named in a sentence
PRESET_TITLES = {"datc": "DATC 3.0", "1971": "the 1971 rulebook", "1982": "the 1982 rulebook",
                 "2000": "the 2000 rulebook", "dptg": "the DPTG"}


@dataclass
class PeerFeed:
    """A peer adjudicating the observations' turns, and what it left out on the way."""

    peer: Peer
    # per observation's place, what was left out and refused (a second pass over the input,
    # as a streaming fingerprint may make, counts nothing twice)
    _notes: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)

    @property
    def turns(self) -> int:
        """The turns the peer adjudicated."""
        return len(self._notes)

    @property
    def left_out(self) -> list[str]:
        """``where: power: order: reason`` for each order dipsat read as illegal (given to no one)."""
        return [x for lo, _ in self._notes.values() for x in lo]

    @property
    def refused(self) -> list[str]:
        """``where: message`` for each order the peer refused."""
        return [x for _, rf in self._notes.values() for x in rf]

    @property
    def title(self) -> str:
        return TITLES.get(self.peer.name, self.peer.name)

    @property
    def label(self) -> str:
        """``MILA (diplomacy 1.1.2)``"""
        package = PEERS[self.peer.name][0] if self.peer.name in PEERS else self.peer.name
        return f"{self.title} ({package} {self.peer.version or 'version unknown'})"

    def observations(self, items: Iterable[Item]) -> Iterator[Item]:
        for it in items:
            yield it if isinstance(it, InputProblem) else self.observe(it)

    def observe(self, obs: Observation) -> Item:
        """The peer's result on ``obs``'s turn as an observation (or the problem that stops it)."""
        title = self.title
        if obs.variant != "standard":
            return InputProblem(obs.where, f"{title} adjudicates the standard board only; this observation is of the "
                                           f"{obs.variant} variant")
        if obs.case.phase != "movement":
            return InputProblem(obs.where, f"the {title} adapter adjudicates movement phases only; this observation is "
                                           f"{'several phases played in turn' if obs.case.phase == 'game' else _article(obs.phase) + ' phase'}")
        case = obs.case
        try:
            turn, left_out = peer_turn(case.units, case.orders, obs.rules, obs.fixed, where=obs.where)
        except DipsatError as exc:
            return InputProblem(obs.where, str(exc))
        try:
            run = self.peer.run(turn)
        except Exception as exc:  # the peer's own failure, named with the turn
            return InputProblem(obs.where, f"{title} failed on this turn: {type(exc).__name__}: {exc}")
        self._notes[obs.where] = ([f"{obs.where}: {x}" for x in left_out], [f"{obs.where}: {x}" for x in run.refused])
        units, orders = turn_texts(turn)
        exp = Expectation(rules=[], **observed(run))
        one = case.model_copy(update={"units": units, "orders": orders, "retreat_orders": {}, "expect": [exp]})
        return Observation(obs.id, obs.where, one, rules=obs.rules, fixed=dict(obs.fixed), checks_dislodged=True,
                           phase_name=obs.phase_name)


def _article(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _changes(ch: dict[str, Any]) -> str:
    from dipsat.research.option_conditions import _w

    return ", ".join(f"{n} = {_w(v)}" for n, v in ch.items())


def peer_summary(fp: Fingerprint, feed: PeerFeed) -> str:
    """One sentence: "MILA (diplomacy 1.1.2) follows DATC 3.0 except … on N turns; M no reading explains"."""
    near = fp.nearest
    if not near:
        head = f"{feed.label}: no preset to compare with"
    else:
        best = next((p for p in near if p.name == "datc"), near[0])
        name = PRESET_TITLES.get(best.name, f"preset {best.name}")
        if not best.distance:
            head = f"{feed.label} follows {name}"
        elif len(best.changes) == 1:
            head = f"{feed.label} follows {name} except {_changes(best.changes[0])}"
        else:
            head = f"{feed.label} follows {name} except one of: " + " | ".join(_changes(c) for c in best.changes)
        datc = next((p for p in fp.presets if p.name == "datc"), None)
        if best.name != "datc" and datc is not None and datc.changes:
            head += f" (DATC 3.0 except {_changes(datc.changes[0])})"
    n, un = fp.observations, len(fp.unexplained)
    tail = f" on {n} turn{'s' if n != 1 else ''}"
    if un:
        tail += (f"; {un} turn{'s' if un != 1 else ''} no reading explains (its deviations from every reading "
                 f"dipsat knows: listed below)")
    notes = []
    if feed.left_out:
        notes.append(f"{len(feed.left_out)} order{'s' if len(feed.left_out) != 1 else ''} dipsat reads as illegal "
                     f"given to no one (the unit held)")
    if feed.refused:
        notes.append(f"{len(feed.refused)} order{'s' if len(feed.refused) != 1 else ''} {feed.title} refused")
    return head + tail + (f" ({'; '.join(notes)})" if notes else "") + "."


def peer_json(fp: Fingerprint, feed: PeerFeed) -> dict[str, Any]:
    return {"name": feed.peer.name, "package": PEERS.get(feed.peer.name, (feed.peer.name,))[0],
            "version": feed.peer.version, "summary": peer_summary(fp, feed), "turns": feed.turns,
            "left_out": feed.left_out, "refused": feed.refused}


def load_feed(name: Optional[str]) -> Optional[PeerFeed]:
    """The peer called ``name`` ready to adjudicate (None: no peer asked for)."""
    if not name:
        return None
    from dipsat.io.peers import load_peer

    return PeerFeed(load_peer(name))
