"""Typed outcomes at the public edge: what happened to each order and why.

An outcome is one kind of a closed union (:class:`Moved`, :class:`Bounced`, :class:`NoPath`,
:class:`Cut`, :class:`Built`, ...; the ``kind`` tag), with typed culprits (:class:`OrderRef`), the
strengths compared (:class:`Strength` of :class:`Term`s) and the details a variant registers
(:class:`Detail`, :func:`register_detail_kind`); its words are rendered from those values.  A
movement phase's result is a :class:`MovementResult` (a pydantic model, as details are).
Outcomes, culprits, obstacles, spared moves and lots are plain frozen records made in one step
(:class:`dipsat.models.DictRecord`); pydantic validates them where a result is read back from
data and writes them as JSON.  (Strengths and their terms: :mod:`dipsat.models`.)
"""

from __future__ import annotations

from dipsat.records import dataclass
from typing import Annotated, Any, ClassVar, Literal, Optional, TypeVar, Union, cast, get_args

from pydantic import BeforeValidator, Field, PlainSerializer, SerializationInfo, SerializeAsAny

from dipsat.models import (DictRecord, Drawable, Frozen, Order, Position, Rejected, Unit, VariantRecord, dislodged_units,
                           new_record, record_adapter)
from dipsat.models import Strength as Strength, Term as Term  # (re-exported: what an outcome compares)
from dipsat.rules import RuleOptions

# -- outcomes --------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class OrderRef(DictRecord):
    """A typed reference to an order of the phase (a culprit, the order a support aimed at): the
    power that wrote it, its text, and the unit it is bound to (an index into the position's
    units; None for an order that names no unit, such as a build)."""

    power: str
    text: str
    unit: Optional[int] = None

    def __str__(self) -> str:
        return self.text


def order_ref(order: "Order") -> OrderRef:
    """The reference to a bound order."""
    return new_record(OrderRef, {"power": order.power, "text": order.text, "unit": order.body.unit})


@dataclass(frozen=True, kw_only=True)
class Obstacle(DictRecord):
    """What stopped a move: its own power's unit staying there, the unit coming the other way
    (head-to-head), the unit holding there, or a rival move into the same province (``prevent``:
    its prevent strength; ``stand_off``: a rival force of sides, named by ``label``, as strong)."""

    why: Literal["own_unit", "head_to_head", "hold", "prevent", "stand_off"]
    by: OrderRef
    label: str = ""  # the unit, as it is labelled (own_unit); the side named instead of its order (prevent)
    strength: Optional[Strength] = None  # the strength that stood against the attack (None: not explained)

    def describe(self) -> str:
        why, strength = self.why, self.strength
        if why == "own_unit":
            return f"cannot dislodge its own unit {self.label}"
        against = strength.describe() if strength is not None else self.by.text
        if why == "head_to_head":
            return f"head-to-head against {against}"
        if why == "hold":
            return f"against {against}"
        word = "stood off" if why == "stand_off" else "bounced"
        return f"{word} by {self.label or self.by.text}" + (f": {against}" if strength is not None else "")


@dataclass(frozen=True, kw_only=True)
class Spared(DictRecord):
    """A move into a supporter's province that did not cut the support, and the rule why."""

    by: OrderRef
    why: str


class Detail(Frozen):
    """Base of the detail kinds: a typed fact a variant adds to an outcome of one of the core's
    kinds (a merge, a rulebook's tally, a cut budget, ...).  The outcome kinds are a closed set;
    details are the open part.  A variant defines its kinds in its own package by subclassing,
    with a new ``kind`` tag as the default, and registers them with
    :func:`register_detail_kind`, which makes them readable from data (:func:`detail_from`).

    The outcome's words are rendered from its fields and its details' hooks, each given the
    outcome: :meth:`words` (the whole of them, when this detail says them; the first detail
    that does wins), else the kind's own words with :meth:`verb` said after its verb ("moves
    and merges with ...") and :meth:`note` after the rest."""

    kind: str
    # several details of this kind on one outcome are one list in JSON (a rulebook's tallies)
    MANY: ClassVar[bool] = False

    def words(self, outcome: "Outcome") -> Optional[str]:
        return None

    def verb(self, outcome: "Outcome") -> str:
        return ""

    def note(self, outcome: "Outcome") -> str:
        return ""


DETAIL_KINDS: dict[str, type[Detail]] = {}  # tag -> detail kind (the variants' own, registered)
_D = TypeVar("_D", bound=Detail)


def register_detail_kind(cls: type[_D]) -> type[_D]:
    """Add a variant's detail kind (by its ``kind`` default) to those outcomes can carry."""
    tag = cls.model_fields["kind"].default
    if not isinstance(tag, str) or DETAIL_KINDS.get(tag, cls) is not cls:
        raise ValueError(f"detail kind {tag!r} of {cls.__name__} is not a new tag")
    DETAIL_KINDS[tag] = cls
    return cls


def detail_from(data: object) -> Detail:
    """A detail from data, by its ``kind`` tag (a detail as it is: itself)."""
    if isinstance(data, Detail):
        return data
    tag = data.get("kind") if isinstance(data, dict) else None
    cls = DETAIL_KINDS.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise ValueError(f"unknown detail kind {tag!r}; known: {', '.join(sorted(DETAIL_KINDS)) or 'none'} "
                         "(a variant registers its detail kinds when its package is imported)")
    return cls.model_validate(data)


def _details_by_tag(v: object) -> object:
    """An outcome's details read from data, each by its tag (:func:`detail_from`)."""
    return tuple(detail_from(d) for d in v) if isinstance(v, (list, tuple)) else v


# every outcome kind (the closed union below; a variant's own facts are its details)
OutcomeKind = Literal["moved", "bounced", "no_path", "held", "dislodged", "given", "cut", "void", "convoyed",
                      "disrupted", "partial", "built", "disbanded", "waived", "invalid", "illegal", "ambiguous", "duplicate"]


@dataclass(frozen=True, kw_only=True)
class Outcome(DictRecord):
    """What happened to one order: the base of a discriminated union of outcome kinds (the
    ``kind`` tag: :class:`Moved`, :class:`Bounced`, :class:`NoPath`, :class:`Held`,
    :class:`Dislodged`, :class:`Given`, :class:`Cut`, :class:`Void`, :class:`Convoyed`,
    :class:`Disrupted`, :class:`Partial`, :class:`Built`, :class:`Disbanded`, :class:`Waived`,
    :class:`Refused`).  Culprits are typed references (:class:`OrderRef`), never prose; the
    words (:attr:`reason`) are rendered from the typed values.  ``succeeded`` is derived from
    the kind."""

    kind: OutcomeKind
    power: str
    text: str  # the order as written (or the implied hold)
    unit: Optional[int] = None
    order_kind: str  # hold, move, support, convoy, retreat, build, disband, ... or "rejected"
    by: tuple[OrderRef, ...] = ()  # the culprit orders
    dislodged_by: Optional[OrderRef] = None  # the move that dislodged the unit
    strengths: tuple[Strength, ...] = ()
    # a variant's own typed facts (:class:`Detail`)
    details: Annotated[tuple[SerializeAsAny[Detail], ...], BeforeValidator(_details_by_tag)] = ()

    SUCCEEDS: ClassVar[bool] = False

    @property
    def result(self) -> OutcomeKind:
        """The kind (the name results have in JSON, corpora and ``compare``)."""
        return self.kind

    def __str__(self) -> str:
        return f"{self.power}: {self.text}: {self.kind} — {self.reason}"

    @property
    def succeeded(self) -> bool:
        return type(self).SUCCEEDS

    @property
    def reason(self) -> str:
        """Why, in words, rendered from the typed outcome."""
        return self.describe()

    def describe(self) -> str:
        return self.kind.replace("_", " ")

    def dislodged_note(self) -> str:
        return f"; dislodged by {self.dislodged_by.text}" if self.dislodged_by is not None else ""

    def details_of(self, kind: type[_D]) -> tuple[_D, ...]:
        """This outcome's details of one kind."""
        return tuple(d for d in self.details if isinstance(d, kind))

    def said_by_details(self) -> Optional[str]:
        """The words of the first detail that says the whole of them (:meth:`Detail.words`)."""
        for d in self.details:
            said = d.words(self)
            if said is not None:
                return said
        return None

    def details_verb(self) -> str:
        return "".join(d.verb(self) for d in self.details)

    def details_note(self) -> str:
        return "".join(d.note(self) for d in self.details)

    @classmethod
    def build(cls, **values: Any) -> "Outcome":
        """As :meth:`DictRecord.build`; on the base class, ``kind`` (or its older name ``result``)
        picks the outcome class.  The words are the kind's own (:meth:`describe`): there is no
        ``reason`` to give."""
        if "reason" in values:
            raise TypeError(f"an outcome's words are rendered from its typed fields; {cls.__name__}.build takes no reason")
        if cls is Outcome:
            tag = values.pop("result", None) or values.get("kind")
            target = OUTCOME_KINDS.get(tag) if isinstance(tag, str) else None
            if target is None:
                raise ValueError(f"unknown outcome kind {tag!r}; known: {', '.join(sorted(OUTCOME_KINDS))}")
            values["kind"] = tag
            return target.build(**values)
        return super().build(**values)

    @classmethod
    def rejected(cls, power: str, text: str, severity: str, reason: str, unit: Optional[int] = None) -> "Outcome":
        """An order that could not be used (invalid, illegal, ambiguous, duplicate): the unit holds."""
        return Refused.build(kind=severity, power=power, text=text, unit=unit, order_kind="rejected", message=reason)


def via_words(via_convoy: bool, backup_rule: Optional[str]) -> str:
    """" via convoy (the backup rule)": how a move went, as its words say it."""
    return (" via convoy" if via_convoy else "") + (f" ({backup_rule})" if backup_rule else "")


def rule_words(rule: str) -> str:
    """" (rule 5(b))": the rule as the rulebook cites it, when one is cited."""
    return f" ({rule})" if rule else ""


def against_words(strengths: tuple[Strength, ...]) -> str:
    """" — attack … against defence …": an attack and what stood against it."""
    return (" — " + " against ".join(s.describe() for s in strengths[:2])) if strengths else ""


@dataclass(frozen=True, kw_only=True)
class Moved(Outcome):
    """The move (or retreat) succeeded.  A variant's details may say the whole of the words, or
    add to them (:class:`Detail`)."""

    kind: Literal["moved"] = "moved"
    via_convoy: bool = False
    backup_rule: Optional[str] = None  # the backup rule that settled its cycle, when one did
    dest: Optional[str] = None  # where a retreat went (display name)
    SUCCEEDS: ClassVar[bool] = True

    def describe(self) -> str:
        verb = note = ""
        if self.details:
            said = self.said_by_details()
            if said is not None:
                return said
            verb, note = self.details_verb(), self.details_note()
        if self.order_kind == "retreat":
            return f"retreats to {self.dest}{verb}" + note
        attack = f" — {self.strengths[0].describe()}" if self.strengths else ""
        return f"moves{verb}{via_words(self.via_convoy, self.backup_rule)}{attack}" + note


@dataclass(frozen=True, kw_only=True)
class Bounced(Outcome):
    """The move (or retreat) failed against the :attr:`obstacles`; ``by`` names their orders.  A
    variant's details may say the whole of the words (:class:`Detail`)."""

    kind: Literal["bounced"] = "bounced"
    via_convoy: bool = False
    backup_rule: Optional[str] = None
    obstacles: tuple[Obstacle, ...] = ()
    dest: Optional[str] = None  # a retreat destroyed in a retreat battle there (display name)

    def describe(self) -> str:
        said = self.said_by_details() if self.details else None
        if said is not None:
            return said
        if self.order_kind == "retreat" and self.dest is not None:
            return f"destroyed: another nation retreated more units into {self.dest}, or as many"
        if self.order_kind == "retreat":
            return "fails: " + ", ".join([r.text for r in self.by]) + " retreats there too; both are disbanded"
        attack = self.strengths[0].describe() if self.strengths else ""
        text = f"fails{via_words(self.via_convoy, self.backup_rule)} — {attack} " + "; ".join([o.describe() for o in self.obstacles])
        return text.strip() + self.dislodged_note()


@dataclass(frozen=True, kw_only=True)
class NoPath(Outcome):
    """A convoyed move without a convoy path; ``by``: the fleets that convoy it, ``broken``:
    those whose convoy failed."""

    kind: Literal["no_path"] = "no_path"
    broken: tuple[OrderRef, ...] = ()

    def path_words(self) -> str:
        """Why there is no path."""
        if not self.by:
            return "no convoy path: no fleet convoys it"
        if self.broken:
            return "no convoy path: " + "; ".join(f"{t.text} fails" for t in self.broken)
        return "no convoy path: the fleets do not form a chain"

    def describe(self) -> str:
        said = self.said_by_details()
        return said if said is not None else self.path_words() + self.dislodged_note()


@dataclass(frozen=True, kw_only=True)
class Held(Outcome):
    """The unit held (a variant's details add to the words)."""

    kind: Literal["held"] = "held"
    SUCCEEDS: ClassVar[bool] = True

    def describe(self) -> str:
        said = self.said_by_details() if self.details else None
        return said if said is not None else "holds" + self.details_note()


# the rulebook's word for a unit forced out of its province: DATC's "dislodged", or "displaced"
# (the word of rulebooks with stacks, e.g. seed 001)
Dislodging = Literal["dislodged", "displaced"]


@dataclass(frozen=True, kw_only=True)
class Dislodged(Outcome):
    """A unit that did not move was dislodged (``dislodged_by``); ``term``: the rulebook's word
    (a variant's details add to the words)."""

    kind: Literal["dislodged"] = "dislodged"
    term: Dislodging = "dislodged"

    def describe(self) -> str:
        said = self.said_by_details()
        if said is not None:
            return said
        return f"{self.term} by {self.dislodged_by.text if self.dislodged_by else '?'}" + self.details_note()


@dataclass(frozen=True, kw_only=True)
class Given(Outcome):
    """The support was given; ``spared``: the moves into its province that did not cut it."""

    kind: Literal["given"] = "given"
    spared: tuple[Spared, ...] = ()
    units: int = 1  # how many units give it (a support order of a stack's units)
    SUCCEEDS: ClassVar[bool] = True

    def describe(self) -> str:
        said = self.said_by_details() if self.details else None
        return said if said is not None else self.given_words("support given")

    def given_words(self, what: str) -> str:
        """``what`` ("support given"), by how many units, and the moves that did not cut it."""
        units, spared = self.units, self.spared
        return what + (f" by all {units}" if units > 1 else "") + "".join([f"; not cut by {s.by.text}: {s.why}" for s in spared])


@dataclass(frozen=True, kw_only=True)
class Cut(Outcome):
    """The support was cut by the moves ``by`` (or by the one that dislodged the supporter; a
    variant's details add to the words of a cut by moves)."""

    kind: Literal["cut"] = "cut"

    def describe(self) -> str:
        if self.dislodged_by is not None:
            return f"cut: dislodged by {self.dislodged_by.text}"
        return "cut by " + ", ".join([r.text for r in self.by]) + (self.details_note() if self.details else "")


@dataclass(frozen=True, kw_only=True)
class Void(Outcome):
    """A support or convoy that matches no order of the unit it names (``by``: that order)."""

    kind: Literal["void"] = "void"
    wanted: Optional[str] = None  # support: the province of the move it offered (None: a hold)
    unordered: Optional[str] = None  # support: the label of the unit it named, which had no order
    several: bool = False  # it named several units (a stack; a force): none has a matching order

    def describe(self) -> str:
        if self.several:
            return "void: no matching " + ("convoyed move" if self.order_kind == "convoy" else "order of the supported units")
        target = self.by[0].text if self.by else "?"
        if self.order_kind == "convoy":
            return f"void: no matching convoyed move ({target})"
        want = "hold" if self.wanted is None else f"move to {self.wanted}"
        has = f"{self.unordered} (no order, holds)" if self.unordered is not None else target
        return f"void: the supported unit was not ordered to {want} ({has})"


@dataclass(frozen=True, kw_only=True)
class Convoyed(Outcome):
    kind: Literal["convoyed"] = "convoyed"
    SUCCEEDS: ClassVar[bool] = True

    def describe(self) -> str:
        return "convoys"


@dataclass(frozen=True, kw_only=True)
class Disrupted(Outcome):
    """A convoy that carried nothing: settled by a backup rule, its army had no path, or the
    fleet was dislodged."""

    kind: Literal["disrupted"] = "disrupted"
    cause: Literal["backup", "no_path", "dislodged"] = "dislodged"
    backup_rule: Optional[str] = None
    term: Dislodging = "dislodged"  # the rulebook's word for the fleet's dislodgement

    def describe(self) -> str:
        if self.cause == "backup":
            return f"fails: {self.backup_rule}"
        if self.cause == "no_path":
            return f"not carried out: {self.by[0].text if self.by else 'the army'} has no convoy path"
        return f"disrupted: {self.term} by {self.dislodged_by.text if self.dislodged_by else None}"


@dataclass(frozen=True, kw_only=True)
class Partial(Outcome):
    """Partly carried out: a stack's support partly cut (``kept`` of ``total`` units give it;
    ``published``: the order as the rulebook publishes such a split, when it does), a retreat
    partly destroyed (``kept`` of ``total`` pieces reach ``dest``).  ``by``: the moves that cut
    the support, when named (a variant's details add to the words of a partly cut support)."""

    kind: Literal["partial"] = "partial"
    kept: Optional[int] = None
    total: Optional[int] = None
    dest: Optional[str] = None
    published: Optional[str] = None

    def describe(self) -> str:
        if self.order_kind == "retreat":
            return f"{self.kept} of {self.total} reach {self.dest}; the rest are destroyed in the retreat battle"
        if self.order_kind == "support" and self.kept is not None and self.total is not None:
            return (f"partly cut: {self.kept} of {self.total} give support, {self.total - self.kept} cut"
                    + (" by " + ", ".join(r.text for r in self.by) if self.by else "")
                    + self.details_note()
                    + (f" — published as {self.published!r}" if self.published is not None else ""))
        return "partly carried out"


@dataclass(frozen=True, kw_only=True)
class Lots(DictRecord):
    """Lots drawn from the seeded random source: among what (display names), the seed, the key
    of the draw."""

    among: tuple[str, ...]
    seed: int
    key: str

    def describe(self) -> str:
        return f" (lots drawn among {', '.join(self.among)}; seed {self.seed}, draw {self.key!r})"


@dataclass(frozen=True, kw_only=True)
class Built(Outcome):
    """A build, or a unit placed in a placement phase (``order_kind`` "placement"); ``built``: the
    unit, as it is written; ``default``: the rule that placed it when no order did."""

    kind: Literal["built"] = "built"
    built: str = ""
    default: Optional[str] = None
    SUCCEEDS: ClassVar[bool] = True

    def describe(self) -> str:
        if self.default is not None:
            return f"placed by default ({self.default})"
        return f"{'places' if self.order_kind == 'placement' else 'builds'} {self.built}"


@dataclass(frozen=True, kw_only=True)
class Disbanded(Outcome):
    """A unit disbanded: as ordered (a retreat phase), with no retreat order or nowhere to go, by
    an adjustment order (``removed``: what it removed), by a removal order (the word of
    rulebooks that "remove"), by the rule for removals nobody ordered (``default``: that rule,
    ``lots``: when lots chose), or by the civil-disorder rule.  ``off_board``: the rulebook says
    a disbanded unit goes off the board."""

    kind: Literal["disbanded"] = "disbanded"
    cause: Literal["ordered", "no_retreat_order", "no_retreat", "adjustment", "removal", "default",
                   "civil_disorder"] = "ordered"
    removed: str = ""
    off_board: bool = False
    default: Optional[str] = None
    lots: Optional[Lots] = None
    place: Literal["province", "space"] = "province"  # the rulebook's word for a province
    SUCCEEDS: ClassVar[bool] = True

    def describe(self) -> str:
        if self.off_board and self.cause in ("ordered", "no_retreat"):
            return "disbanded off the board" + (f": no {self.place} to retreat to" if self.cause == "no_retreat" else "")
        return {"ordered": "disbanded as ordered",
                "no_retreat_order": "disbanded: no retreat order",
                "no_retreat": f"disbanded: no {self.place} to retreat to",
                "adjustment": f"disbands {self.removed}",
                "removal": f"removes {self.removed}",
                "default": f"removed by default ({self.default})" + (self.lots.describe() if self.lots else ""),
                "civil_disorder": "disbanded by the civil-disorder rule (farthest from an owned centre)"}[self.cause]


@dataclass(frozen=True, kw_only=True)
class Waived(Outcome):
    """A build not made: waived by an order, or ``short`` builds the power could not make (it
    plays short)."""

    kind: Literal["waived"] = "waived"
    short: Optional[int] = None
    SUCCEEDS: ClassVar[bool] = True

    def describe(self) -> str:
        if self.short is not None:
            return f"{self.short} build(s) not made: {self.power} plays short"
        return "build waived"


Refusal = Literal["invalid", "illegal", "ambiguous", "duplicate"]  # the kinds of a refused order


@dataclass(frozen=True, kw_only=True)
class Refused(Outcome):
    """An order that could not be used: invalid (not understood), illegal (not allowed here),
    ambiguous (several readings), or duplicate (one of several orders to one unit)."""

    kind: Refusal
    message: str = ""

    def describe(self) -> str:
        return f"{self.kind}: {self.message}"


OUTCOME_CLASSES: tuple[type[Outcome], ...] = (Moved, Bounced, NoPath, Held, Dislodged, Given, Cut, Void, Convoyed,
                                              Disrupted, Partial, Built, Disbanded, Waived, Refused)
OUTCOME_KINDS: dict[str, type[Outcome]] = {  # kind tag -> outcome class (the discriminator of the union)
    **{cast(str, cls.__dataclass_fields__["kind"].default): cls for cls in OUTCOME_CLASSES if cls is not Refused},
    **dict.fromkeys(get_args(Refusal), Refused)}

AnyOutcome = Annotated[Union[Moved, Bounced, NoPath, Held, Dislodged, Given, Cut, Void, Convoyed, Disrupted,
                             Partial, Built, Disbanded, Waived, Refused], Field(discriminator="kind")]


def outcome_from(data: object) -> Outcome:
    """An outcome from data (``model_dump`` of one), by its ``kind`` tag (an outcome as it is: itself)."""
    if isinstance(data, Outcome):
        return data
    tag = data.get("kind") if isinstance(data, dict) else None
    cls = OUTCOME_KINDS.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise ValueError(f"unknown outcome kind {tag!r}; known: {', '.join(sorted(OUTCOME_KINDS))}")
    return cls.model_validate(data)


def _dump_outcome(o: Outcome, info: SerializationInfo) -> Any:
    """An outcome as pydantic writes one of its class (as "any" value, a strength's sum too)."""
    return record_adapter(type(o)).dump_python(o, mode=info.mode, exclude_none=info.exclude_none)


TaggedOutcome = Annotated[Outcome, BeforeValidator(outcome_from), PlainSerializer(_dump_outcome)]


class Backup(Frozen):
    """A component of the turn whose equations did not have exactly one solution."""

    kind: Literal["circular_movement", "convoy_paradox", "other_cycle"]
    resolutions: int  # consistent resolutions before the backup rule (0, 1 = n/a, 2+)
    rule: str  # the backup rule applied
    orders: tuple[str, ...]  # the orders of the component


class MovementResult(Drawable, Frozen):
    position: Position
    outcomes: tuple[TaggedOutcome, ...]  # read from data by their kind tags, each written as its class writes it
    dislodged: tuple[int, ...]  # unit indices of the position before
    dislodged_by: dict[int, int] = Field(default_factory=dict)  # dislodged unit -> attacker unit
    after: Position
    backups: tuple[Backup, ...] = ()
    rejected: tuple[Rejected, ...] = ()
    contested: tuple[str, ...] = ()  # provinces left empty by a standoff
    convoyed: tuple[int, ...] = ()  # units that moved by convoy
    failed_into: tuple[str, ...] = ()  # provinces some move tried and failed to enter this turn
    orders: tuple[Order, ...] = ()  # the orders as bound to the units (implicit holds included), for drawing
    rules: Optional[SerializeAsAny[RuleOptions]] = None  # the rules it was adjudicated under (name, every value)
    # the variant record it was adjudicated by (not in its JSON): pictures and printing take the
    # variant from here, never look it up again by the position's variant name
    variant: Optional[VariantRecord] = Field(default=None, exclude=True, repr=False)
    # False: adjudicated without explanations (outcome kinds and culprits only; no strength
    # terms, and the JSON output leaves out reasons): see ``adjudicate(..., explain=False)``
    explained: bool = True

    @property
    def dislodged_units(self) -> tuple[Unit, ...]:
        """The units dislodged (``dislodged`` holds their indices in ``position``)."""
        return tuple(u for _, u in dislodged_units(self.position, self.dislodged))

    def __str__(self) -> str:
        """Each order's outcome and why, the units dislodged and the position after."""
        lines = [str(o) for o in self.outcomes] + [f"dislodged: {u.label()}" for u in self.dislodged_units]
        return "\n".join(lines + ["after: " + ", ".join(u.label() for u in self.after.units)])
