"""Blind Bidding and Player Order (seed 002): 5 chits a turn, at most 3 of the optional stages
3-8, highest bid first, ties broken by the random source; a player who bids nothing on a stage
does not take part in it (except to accept deals in Stages 3, 6 and 7)."""

from __future__ import annotations

from dipsat.errors import DipsatError

from .dice import Dice

CHITS_PER_TURN = 5
MAX_STAGES = 3
OPTIONAL_STAGES = (3, 4, 5, 6, 7, 8)
DEAL_STAGES = (3, 6, 7)


class BidError(DipsatError):
    """Bids that break the bidding rules."""


def check_bids(bids: dict[str, dict[int, int]], chits: dict[str, int] | None = None) -> None:
    for p, b in sorted(bids.items()):
        for st, n in sorted(b.items()):
            if st not in OPTIONAL_STAGES:
                raise BidError(f"{p} bids on stage {st}; only stages 3-8 are bid on (1 and 2 are mandatory)")
            if n < 0:
                raise BidError(f"{p} bids {n} chits on stage {st}")
        have = CHITS_PER_TURN if chits is None else chits.get(p, CHITS_PER_TURN)
        if sum(b.values()) > have:
            raise BidError(f"{p} bids {sum(b.values())} chits in all; it has {have} this turn")
        played = [st for st, n in b.items() if n > 0]
        if len(played) > MAX_STAGES:
            raise BidError(f"{p} bids on {len(played)} stages ({', '.join(map(str, sorted(played)))}); "
                           f"a player may only play {MAX_STAGES} stages a turn")


def player_order(bids: dict[str, dict[int, int]], dice: Dice) -> dict[int, list[str]]:
    """Per optional stage, the players who bid on it, highest bid first; ties in random order
    (one shuffle per tied group, groups in descending bid, players of a group sorted by name
    before the shuffle, so the result does not depend on the order of the input)."""
    check_bids(bids)
    out: dict[int, list[str]] = {}
    for st in OPTIONAL_STAGES:
        by_bid: dict[int, list[str]] = {}
        for p in sorted(bids):
            n = bids[p].get(st, 0)
            if n > 0:
                by_bid.setdefault(n, []).append(p)
        order: list[str] = []
        for n in sorted(by_bid, reverse=True):
            group = by_bid[n]
            order += dice.shuffle(group, f"stage {st} tie at {n} chits") if len(group) > 1 else group
        out[st] = order
    return out
