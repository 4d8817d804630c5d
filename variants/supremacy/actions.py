"""Supremacy notation: one action per string, parsed into typed actions.

    march 2 army us_west - canada       (Stage 5; 1 Grain per army)
    sail navy caribbean - north_atlantic  (1 Oil per navy; 'navy caribbean#2': the second navy there)
    airlift army us_east - mexico       (2 Oil per army; to any controlled territory)
    board 3 army us_east - navy caribbean  (1 Oil; ports only; up to 4 armies from one territory)
    unload 3 army navy caribbean - us_east (free; ports only)
    buy 2 grain / sell 3 oil            (Stages 7 / 3, at market value)
    loan 1000 / repay 500               (millions; a loan at any time, repayment when not in default)
    transfer 500 money to CSA / transfer 2 oil to CSA   (Stages 3, 6, 7; Diplomacy)
    transfer 2 army us_west to CSA / transfer navy caribbean to CSA / transfer nuke to CSA
                                        (Stage 6: conventional and strategic forces)
    exchange 500 money for 2 oil with USA   (an immediate exchange: USA accepts the deal, even if
                                        it did not bid on the stage; both sides checked)
    exchange 2 army canada for 500 money with CSA   (Stage 6: forces, handed over where they stand)
    build 2 army us_west / build navy caribbean / build nuke / build lstar   (Stage 6)
    blockade canada [with CSA, LEN] / siege USSR [with ...] / lift blockade canada / lift siege USSR
                                        (any time; Blockades and Sieges)
    draw 2 oil from CSA                 (any time: from a captured supply center one controls; Supply
                                        Centers 5, option captured_center_use)
    prospect                            (Stage 8)
    pass

Zones by id or name; words are case-insensitive; en dashes and '->' work as '-'.  Text that is
not an action is an error quoting it.
"""

from __future__ import annotations

import re
from typing import Literal, Optional

from dipsat.errors import DipsatError
from dipsat.board.notation import shown, too_long
from dipsat.records import dataclass

from .board import RESOURCES, Board

Verb = Literal["march", "sail", "airlift", "board", "unload", "buy", "sell", "loan", "repay", "transfer",
               "build", "prospect", "pass", "blockade", "siege", "lift", "exchange", "draw"]


class ActionError(DipsatError):
    """An action that is not understood (invalid) or not allowed (illegal)."""


@dataclass(frozen=True)
class Action:
    power: str
    text: str
    verb: Verb
    count: int = 1
    item: str = ""  # army/navy/nuke/lstar/grain/oil/mineral/money
    src: str = ""
    dst: str = ""
    navy: int = 0  # which navy at src/dst sea: 1 = first in the state's list there
    to: str = ""  # transfer recipient
    group: tuple[str, ...] = ()  # blockade/siege: the other players of the declaring group
    back: int = 0  # exchange: what comes back (count of back_item)
    back_item: str = ""
    back_src: str = ""  # exchange: where the forces coming back stand
    back_navy: int = 0  # exchange: which of the other's navies there comes back

    def label(self) -> str:
        return f"{self.power}: {self.text}"


_N = r"(?:(\d+)\s+)?"
_ZONE = r"(.+?)"
_NAVY = r"navy\s+(.+?)(?:#(\d+))?"
PATTERNS: list[tuple[Verb, re.Pattern[str]]] = [
    ("march", re.compile(rf"^march\s+{_N}(?:army|armies)\s+{_ZONE}\s*-\s*{_ZONE}$")),
    ("sail", re.compile(rf"^sail\s+{_NAVY}\s*-\s*{_ZONE}$")),
    ("airlift", re.compile(rf"^airlift\s+{_N}(?:army|armies)\s+{_ZONE}\s*-\s*{_ZONE}$")),
    ("board", re.compile(rf"^board\s+{_N}(?:army|armies)\s+{_ZONE}\s*-\s*{_NAVY}$")),
    ("unload", re.compile(rf"^unload\s+{_N}(?:army|armies)\s+{_NAVY}\s*-\s*{_ZONE}$")),
    ("buy", re.compile(rf"^buy\s+{_N}(grain|oil|minerals?)$")),
    ("sell", re.compile(rf"^sell\s+{_N}(grain|oil|minerals?)$")),
    ("loan", re.compile(r"^loan\s+\$?(\d+)$")),
    ("repay", re.compile(r"^repay\s+\$?(\d+)$")),
    ("transfer", re.compile(rf"^transfer\s+{_N}(army|armies)\s+{_ZONE}\s+to\s+(.+)$")),
    ("transfer", re.compile(rf"^transfer\s+{_NAVY}\s+to\s+(.+)$")),
    ("transfer", re.compile(rf"^transfer\s+{_N}(money|grain|oil|minerals?|nukes?|l-?stars?)\s+to\s+(.+)$")),
    ("exchange", re.compile(r"^exchange\s+(.+?)\s+for\s+(.+?)\s+with\s+(.+)$")),
    ("build", re.compile(rf"^build\s+{_N}(army|armies|navy|navies|nukes?|l-?stars?)(?:\s+(.+))?$")),
    ("blockade", re.compile(r"^blockade\s+(.+?)(?:\s+with\s+(.+))?$")),
    ("siege", re.compile(r"^siege\s+(.+?)(?:\s+with\s+(.+))?$")),
    ("lift", re.compile(r"^lift\s+(blockade|siege)\s+(.+)$")),
    ("draw", re.compile(rf"^draw\s+{_N}(grain|oil|minerals?|nukes?|l-?stars?)\s+from\s+(.+)$")),
    ("prospect", re.compile(r"^prospect$")),
    ("pass", re.compile(r"^pass$")),
]


def _item(word: str) -> str:
    w = word.lower().replace("-", "")
    for canon in ("army", "navy", "nuke", "lstar", "money", *RESOURCES):
        if w.startswith(canon[:4]) or (canon == "army" and w == "armies") or (canon == "navy" and w == "navies"):
            return canon
    return w


_GOODS = re.compile(r"^(?:(\d+)\s+)?(money|grain|oil|minerals?|nukes?|l-?stars?)$")
_ARMY_GOODS = re.compile(rf"^{_N}(?:army|armies)\s+(.+)$")
_NAVY_GOODS = re.compile(rf"^{_NAVY}$")


def _goods(board: Board, side: str, text: str) -> tuple[int, str, str, int]:
    """One side of an exchange: (count, item, zone of the forces, which navy there)."""
    if m := _GOODS.match(side):
        return int(m.group(1) or 1), _item(m.group(2)), "", 0
    if m := _NAVY_GOODS.match(side):
        return 1, "navy", board.lookup(m.group(1)), int(m.group(2) or 1)
    if m := _ARMY_GOODS.match(side):
        return int(m.group(1) or 1), "army", board.lookup(m.group(2)), 0
    raise ActionError(f"{side!r} is not money, a resource, nukes, L-Stars or forces "
                      "('2 army canada', 'navy caribbean')")


def parse_action(board: Board, power: str, text: str) -> Action:
    why = too_long(text)
    if why is not None:
        raise ActionError(f"invalid action {shown(text)!r}: {why}")
    norm = " ".join(text.replace("–", "-").replace("—", "-").replace("->", "-").split())
    low = norm.lower()
    for verb, pat in PATTERNS:
        m = pat.match(low)
        if not m:
            continue
        g = m.groups()
        try:
            if verb in ("march", "airlift"):
                return Action(power, text, verb, int(g[0] or 1), "army", board.lookup(g[1]), board.lookup(g[2]))
            if verb == "sail":
                return Action(power, text, verb, 1, "navy", board.lookup(g[0]), board.lookup(g[2]), navy=int(g[1] or 1))
            if verb == "board":
                return Action(power, text, verb, int(g[0] or 1), "army", board.lookup(g[1]), board.lookup(g[2]),
                              navy=int(g[3] or 1))
            if verb == "unload":
                return Action(power, text, verb, int(g[0] or 1), "army", board.lookup(g[1]), board.lookup(g[3]),
                              navy=int(g[2] or 1))
            if verb in ("buy", "sell"):
                return Action(power, text, verb, int(g[0] or 1), _item(g[1]))
            if verb in ("loan", "repay"):
                return Action(power, text, verb, int(g[0]), "money")
            if verb == "transfer" and (g[1] is None or g[1].isdigit()):  # 'transfer navy SEA[#n] to P'
                return Action(power, text, verb, 1, "navy", src=board.lookup(g[0]), navy=int(g[1] or 1),
                              to=board.lookup_power(g[2]))
            if verb == "transfer" and g[1] in ("army", "armies"):
                return Action(power, text, verb, int(g[0] or 1), "army", src=board.lookup(g[2]),
                              to=board.lookup_power(g[3]))
            if verb == "transfer":
                return Action(power, text, verb, int(g[0] or 1), _item(g[1]), to=board.lookup_power(g[2]))
            if verb == "exchange":
                n, item, src, nth = _goods(board, g[0], text)
                bn, bitem, bsrc, bnth = _goods(board, g[1], text)
                return Action(power, text, verb, n, item, src=src, navy=nth, to=board.lookup_power(g[2]),
                              back=bn, back_item=bitem, back_src=bsrc, back_navy=bnth)
            if verb == "build":
                item = _item(g[1])
                where = board.lookup(g[2]) if g[2] else ""
                if item in ("army", "navy") and not where:
                    raise ActionError(f"invalid action {text!r}: say where the {item} is built")
                return Action(power, text, verb, int(g[0] or 1), item, dst=where)
            if verb == "draw":
                return Action(power, text, verb, int(g[0] or 1), _item(g[1]), to=board.lookup_power(g[2]))
            if verb in ("blockade", "siege"):
                group = tuple(board.lookup_power(x) for x in re.split(r"\s*,\s*|\s+and\s+", g[1])) if g[1] else ()
                where = board.lookup(g[0]) if verb == "blockade" else board.lookup_power(g[0])
                return Action(power, text, verb, dst=where, group=group)
            if verb == "lift":
                where = board.lookup(g[1]) if g[0] == "blockade" else board.lookup_power(g[1])
                return Action(power, text, verb, item=g[0], dst=where)
            return Action(power, text, verb)
        except DipsatError as exc:
            raise ActionError(f"invalid action {text!r}: {exc}") from None
    raise ActionError(f"invalid action {text!r}: not understood (march, sail, airlift, board, unload, buy, sell, "
                      "loan, repay, transfer, exchange, build, blockade, siege, lift, draw, prospect, pass)")


def format_action(action: Action) -> str:
    """An action's canonical text (zones and superpowers by id, counts written, a navy's
    ``#n`` when it is not the first there): :func:`parse_action` reads it back to an equal
    action (but for ``text``)."""
    a = action
    navy = f"navy {a.src}" + (f"#{a.navy}" if a.navy != 1 else "")
    if a.verb in ("march", "airlift"):
        return f"{a.verb} {a.count} army {a.src} - {a.dst}"
    if a.verb == "sail":
        return f"sail {navy} - {a.dst}"
    if a.verb == "board":
        return f"board {a.count} army {a.src} - navy {a.dst}" + (f"#{a.navy}" if a.navy != 1 else "")
    if a.verb == "unload":
        return f"unload {a.count} army {navy} - {a.dst}"
    if a.verb in ("buy", "sell"):
        return f"{a.verb} {a.count} {a.item}"
    if a.verb in ("loan", "repay"):
        return f"{a.verb} {a.count}"
    if a.verb == "transfer":
        if a.item == "navy":
            return f"transfer {navy} to {a.to}"
        if a.item == "army":
            return f"transfer {a.count} army {a.src} to {a.to}"
        return f"transfer {a.count} {a.item} to {a.to}"
    if a.verb == "exchange":
        give = _goods_text(a.count, a.item, a.src, a.navy)
        back = _goods_text(a.back, a.back_item, a.back_src, a.back_navy)
        return f"exchange {give} for {back} with {a.to}"
    if a.verb == "build":
        return f"build {a.count} {a.item}" + (f" {a.dst}" if a.dst else "")
    if a.verb == "draw":
        return f"draw {a.count} {a.item} from {a.to}"
    if a.verb in ("blockade", "siege"):
        return f"{a.verb} {a.dst}" + (f" with {', '.join(a.group)}" if a.group else "")
    if a.verb == "lift":
        return f"lift {a.item} {a.dst}"
    return a.verb  # prospect, pass


def _goods_text(count: int, item: str, src: str, nth: int) -> str:
    """One side of an exchange, as :func:`_goods` reads it."""
    if item == "navy":
        return f"navy {src}" + (f"#{nth}" if nth != 1 else "")
    if item == "army":
        return f"{count} army {src}"
    return f"{count} {item}"


def parse_actions(board: Board, power: str, texts: list[str]) -> list[Action]:
    out = [parse_action(board, power, t) for t in texts]
    for a in out:
        if a.count < 1:
            raise ActionError(f"invalid action {a.text!r}: the number must be at least 1")
        if max(a.count, a.back) > 10 ** 6:
            raise ActionError(f"invalid action {a.text!r}: numbers above 1,000,000 are not understood")
    return out


def find_navy_index(navies: list[tuple[str, int]], sea: str, nth: int) -> Optional[int]:
    """Index (in the power's navy list) of the ``nth`` navy in ``sea``."""
    k = 0
    for i, (s, _) in enumerate(navies):
        if s == sea:
            k += 1
            if k == nth:
                return i
    return None
