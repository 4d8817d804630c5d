"""Rule interpretations as values.

:class:`RuleOptions` has one field per disputable issue of DATC 3.0 chapter 4 that changes an
adjudication.  The defaults are the DATC 3.0 preferences (2023 rulebook with the Szykman rule).
Named presets give the rulebook editions; any field can be overridden by name::

    opts = preset("1982").with_(adjacent_convoy="2000")
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Self, TypeVar, Union

from pydantic import BaseModel, ConfigDict, ValidationError

from dipsat.errors import DipsatError
from dipsat.engine.option_space import option_cases, option_cases_of, option_choose, option_pick

if TYPE_CHECKING:
    from dipsat.engine.formulas import Formula

T = TypeVar("T")


class RuleError(DipsatError):
    """An unknown preset or a bad rule option value."""


class RuleOptions(BaseModel):
    """The rule options of a run: one field per reading the rules leave open (the DATC's issues
    4.A-4.E, civil disorder, ...), ``name`` the preset they came from.  Frozen: :meth:`with_`
    gives a copy with some changed.  Get one with :func:`preset` (``datc``, ``1971``, ``1982``,
    ``2000``, ``dptg``) or a variant's ``rules(...)``; a variant's options model extends this one.
    ``dipsat rules`` lists every field with its default and values.

        >>> from dipsat import preset
        >>> preset("1982").convoy_paradox_rule
        '1982'
        >>> preset("datc").with_(convoy_paradox_rule="all_hold").convoy_paradox_rule
        'all_hold'
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "datc"

    # 4.A.1 multi-route convoy disruption: "any_route" = 1971 (one disrupted route disrupts the
    # convoy), "all_routes" = later rulebooks (disrupted only when every route is).
    multi_route_disruption: Literal["any_route", "all_routes"] = "all_routes"
    # 4.A.2 convoy disruption paradoxes.  The 1971/1982/2000 rules change when a convoyed army
    # cuts support; "szykman" applies no such rule and resolves paradoxes by failing the convoys.
    convoy_paradox_rule: Literal["1971", "1982", "2000", "szykman", "all_hold"] = "szykman"
    # Backup when a paradox remains under the 1971/1982/2000 rules (they leave some unresolved).
    paradox_fallback: Literal["szykman", "all_hold"] = "szykman"
    # 4.A.3 convoying to an adjacent province: which route does the army take?
    #  "1971": the convoy only when the unit at the destination moves the opposite way;
    #  "1982": the convoy when "via convoy" is written or a fleet of its own power convoys it;
    #  "2000": as 1982 (2000/2023 rulebook, DATC 3.0 reading: no fallback to land);
    #  "2000_fallback": as 2000, but the land route is taken when no convoy route is ordered;
    #  "dptg": the convoy only when "via convoy" (or "by convoy") is written.
    adjacent_convoy: Literal["1971", "1982", "2000", "2000_fallback", "dptg"] = "2000"
    # 4.A.4 does a convoyed attack from the target province cut the support against itself?
    convoyed_attack_from_target_cuts: bool = False
    # 4.A.5 may a unit dislodged by a convoyed attack retreat to the attacker's origin?
    retreat_to_convoyed_attacker_origin: bool = True
    # 4.A.6 convoy path specification: "ignored", "allowed" (restricts routes), "required".
    convoy_path: Literal["ignored", "allowed", "required"] = "ignored"
    # 4.A.7 a dislodged unit has no effect on its attacker's origin: "always" (a) or only when
    # the two units were in a head-to-head battle, "head_to_head" (b).
    dislodged_no_effect_on_origin: Literal["always", "head_to_head"] = "head_to_head"
    # 4.B.2 fleet move to a split province without coast, when only one coast is reachable.
    missing_coast_single: Literal["attempt", "fail"] = "attempt"
    # 4.B.3 move to a coast that cannot be reached: "illegal" or "ignore" the coast.
    impossible_coast: Literal["illegal", "ignore"] = "illegal"
    # 4.B.4 coast in a support order: "optional" (may be omitted, must be right when given:
    # DATC 3.0 face-to-face preference), "required" (webbased: must be given for split-coast
    # destinations), "ignored" (never checked).
    support_coast: Literal["optional", "required", "ignored"] = "optional"
    # 4.B.5 a wrong coast for the ordered unit: "ignore" it or "fail" the order.
    wrong_unit_coast: Literal["ignore", "fail"] = "ignore"
    # 4.B.6 unknown or irrelevant coasts (army to Spain(nc)): "ignore" them or "fail".
    irrelevant_coast: Literal["ignore", "fail"] = "ignore"
    # 4.C.2 a wrong unit kind letter: "ignore" it or "fail" the order.
    wrong_unit_kind: Literal["ignore", "fail"] = "ignore"
    # 4.D.3 several different legal orders to one unit: "hold", "first", "last".
    duplicate_orders: Literal["hold", "first", "last"] = "hold"
    # 4.D.8 civil disorder removals: "2023" (distance to the nearest owned supply centre over
    # land and sea for both kinds) or "home_centres" (older rulebooks: distance to the nearest
    # home supply centre; fleets by sea, armies over land and sea).
    civil_disorder: Literal["2023", "home_centres"] = "2023"
    # The seed of the core's random source, wherever a variant's rule draws lots or throws dice;
    # None = derived from the position, so the same position draws the same.
    random_seed: Optional[int] = None
    # Draws given instead of drawn (see dipsat.engine.chance): a list of values used in the order the
    # draws are made, or a mapping from a draw's key (printed with each draw) to its value.
    random_draws: Optional[Union[list[int], dict[str, int]]] = None
    # 4.E.1 illegal orders are ignored (the unit holds and may be supported to hold).  With
    # "move_fails", an illegal move still counts as a failed move (no hold support).
    illegal_orders: Literal["ignore", "move_fails"] = "ignore"

    def cases(self, name: str) -> list[tuple["Formula", Any]]:
        """The values of option ``name`` a formula must cover, each with the condition under which
        it is the reading: normally the one value set here (condition true); when readings are
        studied in one model (:mod:`dipsat.engine.option_space`), every value, each under its literal.
        Rules code declares through this (or :meth:`choose`) that a formula depends on an option."""
        return option_cases(self, name)

    def cases_of(self, name: str, of: Callable[[Any], T]) -> list[tuple["Formula", T]]:
        """:meth:`cases` with ``of`` applied to each value: ``(condition, of(value))``; read as
        :meth:`pick` reads (only which values ``of`` tells apart) when readings are explored."""
        return option_cases_of(self, name, of)

    def choose(self, name: str, build: "Callable[[Any], Formula]") -> "Formula":
        """The formula ``build(value)`` of option ``name``'s value: normally for the value set
        here; in one model of every reading, each value's formula enforced under its literal."""
        return option_choose(self, name, build)

    def pick(self, name: str, of: Callable[[Any], T]) -> T:
        """``of(value)`` of option ``name``'s value.  Rules code declares through this that a
        result depends on the option only as ``of`` does: where it is alike for several values,
        a study of the readings (:func:`dipsat.engine.option_space.explore_reads`) tells them apart no further."""
        return option_pick(self, name, of)

    def among(self, name: str, *values: Any) -> bool:
        """Is option ``name`` one of ``values``?  (Read as :meth:`pick` reads: only which side.)"""
        return option_pick(self, name, lambda v: v in values)

    def with_(self, **changes: Any) -> Self:
        """A copy with ``changes`` (validated; a bad name or value is a :class:`RuleError`)."""
        try:
            return type(self).model_validate({**self.model_dump(), **changes})
        except ValidationError as exc:
            raise RuleError(explain_options_error(exc)) from None

    @classmethod
    def from_preset(cls, base: "RuleOptions", **overrides: Any) -> Self:
        """This options model (a variant's, extending the core's) with the values of the core
        preset ``base`` and ``overrides`` on top; the variant's own fields keep their defaults
        unless overridden."""
        try:
            return cls.model_validate({**base.model_dump(), **overrides})
        except ValidationError as exc:
            raise RuleError(explain_options_error(exc)) from None

    def differences(self, other: "RuleOptions") -> dict[str, tuple[Any, Any]]:
        a, b = self.model_dump(), other.model_dump()
        return {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if k != "name" and a.get(k) != b.get(k)}


def explain_options_error(exc: ValidationError, what: str = "rule option") -> str:
    """A validation error of rule options in words: each bad option, what was wrong, what was given."""
    parts = []
    for e in exc.errors():
        field = ".".join(str(x) for x in e["loc"])
        parts.append(f"{what} {field!r}: {e['msg']} (got {e.get('input')!r})")
    return "; ".join(parts)


# The phases whose orders an option reads, where it is not only the movement's (``dipsat rules``
# prints them).  The coast options read every written place through one function
# (:mod:`dipsat.board.destinations`), so they govern retreats and builds as they govern moves.
GOVERNS: dict[str, str] = {
    "missing_coast_single": "moves and retreats (and builds, on a province of one coast)",
    "impossible_coast": "moves and retreats",
    "wrong_unit_coast": "the ordered unit in every phase: moves, supports, convoys, retreats, disbands",
    "irrelevant_coast": "every written place in every phase: moves, retreats, builds, disbands",
    "wrong_unit_kind": "the ordered unit of movement and retreat orders",
    "retreat_to_convoyed_attacker_origin": "retreats",
    "civil_disorder": "adjustments",
}

DATC = RuleOptions()

PRESETS: dict[str, RuleOptions] = {
    "datc": DATC,
    # 2023 rulebook as DATC 3.0 prefers it: same as the default.
    "2023": DATC.with_(name="2023"),
    "1971": DATC.with_(
        name="1971",
        civil_disorder="home_centres",
        multi_route_disruption="any_route",
        convoy_paradox_rule="1971",
        adjacent_convoy="1971",
        retreat_to_convoyed_attacker_origin=False,
    ),
    "1982": DATC.with_(
        name="1982",
        civil_disorder="home_centres",
        convoy_paradox_rule="1982",
        adjacent_convoy="1982",
        retreat_to_convoyed_attacker_origin=False,
    ),
    "2000": DATC.with_(
        name="2000",
        civil_disorder="home_centres",
        convoy_paradox_rule="2000",
        retreat_to_convoyed_attacker_origin=False,
    ),
    "dptg": DATC.with_(name="dptg", adjacent_convoy="dptg"),
}

PRESET_HELP = {
    "datc": "DATC 3.0 preferences: 2023 rulebook with the Szykman paradox rule (default)",
    "2023": "alias of datc",
    "1971": "1971 rulebook: any disrupted route breaks a convoy; 1971 paradox rule; adjacent convoy only for swaps",
    "1982": "1982 rulebook: 1982 paradox rule; adjacent convoy by intent (own fleet or 'via convoy')",
    "2000": "2000 rulebook: 2000 paradox rule; 'via convoy' or own fleet; no land fallback",
    "dptg": "DPTG: as DATC, but a convoy to an adjacent province must be written 'via/by convoy'",
}


def preset(name: str | RuleOptions | None = None, **overrides: Any) -> RuleOptions:
    """A preset by name (``None`` = datc) with optional field overrides."""
    if isinstance(name, RuleOptions):
        base = name
    else:
        key = (name or "datc").lower()
        if key not in PRESETS:
            raise RuleError(f"unknown rules preset {name!r}; known: {', '.join(PRESETS)}")
        base = PRESETS[key]
    return base.with_(**overrides) if overrides else base


def parse_overrides(items: list[str], model: type[RuleOptions] = RuleOptions) -> dict[str, Any]:
    """``["convoy_paradox_rule=1982", "convoyed_attack_from_target_cuts=true"]`` -> dict.
    ``model``: the options model whose fields may be named (a variant's extends the core's)."""
    out: dict[str, Any] = {}
    fields = model.model_fields
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in fields or key == "name":
            raise RuleError(f"rule option {item!r}: expected NAME=VALUE with NAME one of {', '.join(f for f in fields if f != 'name')}")
        v: Any = value.strip()
        if fields[key].annotation is bool:
            if v.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise RuleError(f"rule option {item!r}: expected true or false")
            v = v.lower() in ("true", "yes", "1")
        out[key] = v
    return out
