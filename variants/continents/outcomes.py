"""What a continents round did, as typed values: each order's outcome (:class:`OrderOutcome`,
whose words are rendered from its values by :func:`outcome_words`), the battles and their sides,
the units created in free cities, and the round's result."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, computed_field

from .board import Board

Result = Literal["moved", "won", "partial", "lost", "died_at_sea", "held_back", "supported", "support_lost",
                 "no_battle", "held", "invalid", "illegal", "beyond_allowance", "conflict", "cancelled",
                 "placed", "refused", "unused"]
REJECTED: tuple[str, ...] = ("invalid", "illegal", "beyond_allowance", "conflict", "cancelled")
SUCCEEDED: tuple[str, ...] = ("moved", "won", "partial", "supported", "held")


class Foe(BaseModel):
    """Another side of a battle: its player and its force."""

    model_config = ConfigDict(frozen=True)

    player: str
    force: int


class OrderOutcome(BaseModel):
    """What one order did, as typed values; its words (:attr:`reason`) are rendered from them.

    An order that acted (``kind`` move or support) records where its units came from and went
    (``origin``, ``target``: the countries' names; ``node``: the target's id), how many were
    asked (``asked``), how many were there to act when fewer (``there``; ``after_defence``: its
    country fought first), crowding (``room`` in the target of ``capacity``; ``stayed_behind``),
    how many were sent, lost at sea and arrived, the battle (``battle``, the other sides
    ``foes``, its ``winner`` — None: everybody annihilated — and who ``holder``s the country
    after), its losses and survivors, a support turned attack (``turned_attack``: the country
    whose attack it named) and survivors over the capacity going back (``went_back``: home,
    lost).  An order that did not act has its ``message``: why it was refused, cancelled or not
    used (the check's own words); a placement its round (``placement``)."""

    model_config = ConfigDict(frozen=True)

    player: str
    text: str
    result: Result
    message: str = ""
    placement: Optional[int] = None
    kind: Literal["", "move", "support", "hold"] = ""
    origin: str = ""
    target: str = ""
    node: str = ""
    beneficiary: str = ""
    asked: int = 0
    there: Optional[int] = None
    after_defence: bool = False
    room: Optional[int] = None
    capacity: int = 0
    stayed_behind: int = 0
    sent: int = 0
    lost_at_sea: int = 0
    arrived: int = 0
    battle: bool = False
    foes: tuple[Foe, ...] = ()
    winner: Optional[str] = None
    holder: Optional[str] = None
    lost_in_battle: int = 0
    survivors: int = 0
    turned_attack: str = ""
    went_back: Optional[tuple[int, int]] = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def reason(self) -> str:
        """Why, in words rendered from the values alone."""
        return outcome_words(self)

    @property
    def succeeded(self) -> bool:
        return self.result in SUCCEEDED

    @property
    def rejected(self) -> bool:
        return self.result in REJECTED



class Side(BaseModel):
    model_config = ConfigDict(frozen=True)

    player: str
    force: int
    parts: list[str]  # "4 from Yug", "2 home", "support 2 from Ciu (Blue)"
    lost: int
    survivors: int  # the side's survivors (supporters among them go home)
    holds: int = 0  # of them, the player's own units that stay in (or take) the country
    supporters_home: int = 0  # of them, supporting units (the player's or an ally's) that go home


class Battle(BaseModel):
    model_config = ConfigDict(frozen=True)

    node: str
    sides: list[Side]
    winner: Optional[str]  # None: everybody annihilated

    def holder(self) -> Optional[str]:
        """Who holds the country after the battle (None: left empty)."""
        return next((s.player for s in self.sides if s.player == self.winner and s.holds), None)


class Creation(BaseModel):
    model_config = ConfigDict(frozen=True)

    node: str
    player: str
    units: int
    bordering: list[str]
    reason: str


def outcome_words(o: OrderOutcome) -> str:
    """An outcome's words (:attr:`OrderOutcome.reason`), from its typed values."""
    if o.result in ("placed", "refused"):
        return f"placement {o.placement}" + (f": {o.message}" if o.message else "")
    if o.kind == "":
        return o.message
    if o.kind == "hold":
        return f"{o.origin} holds (the default)"
    bits: list[str] = []
    if o.turned_attack:
        bits.append(f"no attack {o.turned_attack}-{o.target} was ordered: the support is an attack on {o.target}")
    if o.went_back is not None:
        home, gone = o.went_back
        bits.append(f"crowding: {home + gone} survivors over the capacity of {o.target} ({o.capacity}) go back: "
                    f"{home} to {o.origin}" + (f", {gone} lost (no room there)" if gone else ""))
    if o.there is not None:
        bits.append(f"only {o.there} of the {o.asked} asked were there to act" + (" after its defence" if o.after_defence else ""))
    if o.room is not None:
        bits.append(f"crowding: room for {o.room} in {o.target} (capacity {o.capacity}); {o.stayed_behind} stayed behind "
                    "(cancelled from the bottom of the list)")
    if o.kind == "move":
        head = f"sent {o.sent} from {o.origin}"
        if o.lost_at_sea:
            head += f", {o.lost_at_sea} lost at sea, {o.arrived} arrive"
        bits.insert(0, head)
        if o.result == "died_at_sea":
            bits.append("every unit sent was lost at sea")
        elif o.result != "held_back" and not o.battle:
            bits.append(f"{o.survivors} in {o.target}")
        elif o.result != "held_back":
            foes = ", ".join(f"{f.player} {f.force}" for f in o.foes)
            bits.append(f"battle at {o.target} against {foes}: lost {o.lost_in_battle}")
            if o.winner == o.player and o.survivors:
                bits.append(f"{o.survivors} {'survives and holds' if o.survivors == 1 else 'survive and hold'} {o.target}")
            elif o.winner == o.player and o.holder:
                bits.append(f"none of these units survives; {o.player}'s other units hold {o.target}")
            elif o.winner == o.player:
                bits.append(f"{o.player}'s side wins, but none of its own units is left: {o.target} is left empty")
            else:
                bits.append("annihilated" if o.winner is None else f"{o.winner} keeps {o.target}" if o.holder else
                            f"{o.winner}'s side wins, but none of {o.winner}'s own units is left: {o.target} is empty")
    elif o.result == "no_battle":
        bits.append(f"no battle at {o.target} for {o.beneficiary} to join: the units stay in {o.origin}")
    elif o.result != "held_back":
        head = f"sent {o.sent} from {o.origin} for {o.beneficiary}"
        if o.lost_at_sea:
            head += f", {o.lost_at_sea} lost at sea"
        bits.insert(0, head)
        won = o.winner == o.beneficiary
        bits.append(f"battle at {o.target}: lost {o.lost_in_battle}; {o.beneficiary} {'wins' if won else 'loses'}"
                    + ("" if not won or o.holder else f" but has no unit left there: {o.target} is empty")
                    + (f"; {o.survivors} return to {o.origin}" if o.survivors else ""))
    return "; ".join(bits)


class RoundResult(BaseModel):
    """What a round did; ``after`` is the position at its end."""

    model_config = ConfigDict(frozen=True)

    map_title: str
    continent_names: dict[str, str] = Field(default_factory=dict)
    rules: str
    round: Optional[int] = None
    created: list[Creation] = Field(default_factory=list)
    allowance: dict[str, int] = Field(default_factory=dict)
    outcomes: list[OrderOutcome]
    battles: list[Battle] = Field(default_factory=list)
    readings: int  # consistent resolutions of the rules as written (before any backup rule)
    readings_complete: bool = True
    backup: Optional[str] = None  # how several (or no) readings were settled
    before: Board
    after: Board
    majorities: dict[str, list[str]] = Field(default_factory=dict)  # player -> continents
    winners: list[str] = Field(default_factory=list)
