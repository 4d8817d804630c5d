"""The rules of the continents-and-free-cities game where the seed text is silent or
contradicts itself: one named option each, with a documented default.

Each field's docstring quotes the seed sentence it rests on.  ``dipsat rules continents`` lists
them; any can be overridden per run (``--option NAME=VALUE``, a file's ``options``), and the
research command ``compare`` runs a corpus under each value.
"""

from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dipsat.errors import DipsatError
from dipsat.rules import explain_options_error


class ContinentsRuleError(DipsatError):
    """An unknown rule option or value for the continents variant."""


class ContinentsRules(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "continents"

    placement: Literal["spread", "own_continent"] = Field(
        default="spread", description=(
            "Seed: '[two options for this rule]'. 'spread' (option 1): a unit may go on the "
            "player's own continent or on any country bordering (land or sea) a country the "
            "player holds; 'own_continent' (option 2): only on the player's own continent."))
    placement_clash: Literal["both_refused", "lot"] = Field(
        default="both_refused", description=(
            "Seed is silent on two players choosing the same empty country in one placement "
            "round ('No single country can be occupied by two players'). 'both_refused': neither "
            "unit is placed (each stays in hand); 'lot': a seeded lot gives it to one of them."))
    draw: Literal["distinct", "with_replacement"] = Field(
        default="distinct", description=(
            "'Each player draws a starting continent': 'distinct' (no two players share one; "
            "an error when there are more players than continents) or 'with_replacement'."))
    order_allowance: Literal["half_countries", "third_holdings"] = Field(
        default="half_countries", description=(
            "Seed: 'the number of countries (not counting free cities) ... divided by two and "
            "rounded upward ... at least three' (default) OR 'combined holdings (countries and "
            "free cities) divided by three, not rounded up, with a minimum of three'."))
    defend_first: Literal["all_units", "ordered_leave"] = Field(
        default="all_units", description=(
            "Seed: 'A country under attack must first defend its own soil with any units on it, "
            "and can then realize attack or support orders with any remaining units.' "
            "'all_units': every unit of an attacked country fights there; its orders use the "
            "survivors. 'ordered_leave': the units its orders send leave first (the attack is "
            "simultaneous); only those left behind defend."))
    same_origin_orders: Literal["first_target", "first_only"] = Field(
        default="first_target", description=(
            "Seed: 'A country can only act towards one other country during a round' and 'If "
            "orders conflict (eg a player has indicated two moves from the same country), the "
            "order higher up on player's list is prioritized.' 'first_target': orders from one "
            "country towards the target of its first order share its units in list order; "
            "orders towards any other country are cancelled. 'first_only': only the first order "
            "from a country is carried out."))
    unmatched_support: Literal["attack", "cancelled"] = Field(
        default="attack", description=(
            "Seed: 'If a support order is given, but the allied player does not give an attack "
            "order, the support order is still executed, but takes the form of an attack against "
            "the third player.' 'attack' (default): it becomes an attack (its survivors occupy "
            "what they win); 'cancelled': the support is not carried out."))
    support_sea_loss: Literal["one", "none"] = Field(
        default="one", description=(
            "Seed: sea crossings 'lose one unit per country that is moving its units'; silent on "
            "supporters that fight across a sea route and come home. 'one': the crossing to the "
            "battle costs one unit (the way home is free); 'none': supports cross for free."))
    sea_loss: Literal["per_crossing", "per_order"] = Field(
        default="per_crossing", description=(
            "Seed: 'lose one unit per country that is moving its units' and 'Sea crossings kill off "
            "one unit per crossing, regardless of how many units are moved in a given crossing'. "
            "'per_crossing': a country's units crossing one sea route in a round lose one unit "
            "however many orders send them (two moves, or a move and a support, over one route: one "
            "loss, taken from the first of them in the list); 'per_order': every order crossing loses "
            "one."))
    support_in_own_battle: Literal["cancelled", "allowed"] = Field(
        default="cancelled", description=(
            "Silent on a player who fights a battle (attacks the country, or holds it) and in the same "
            "round supports another side of it; the seed: 'A country can only act towards one other "
            "country during a round' and an ally 'must specify \"support\" in order to not attack all "
            "other players competing for same country, including the player the ally is supporting'. "
            "'cancelled': the support is cancelled (the player's units cannot fight on two sides; its "
            "own attack or defence stands, whatever the list order); 'allowed': both are carried out."))
    supporter_losses: Literal["alternate", "in_turn"] = Field(
        default="alternate", description=(
            "Seed: 'Supporting units are lost in battle in the same way as attacking units, but the "
            "attacker's first unit is lost first, then a supporter's unit, then the attacker's, etc.' "
            "With several supporters: 'alternate' (the text's order: the attacker, a supporter, the "
            "attacker, the next supporter, ...), or 'in_turn' (the attacker, then every supporter once, "
            "then the attacker again).  Supporters take their turns in the order of the countries they "
            "support from (by the map's id), never by the players' names."))
    crowding_in_attack: Literal["arrivals", "survivors"] = Field(
        default="arrivals", description=(
            "Seed: 'If moving units on to a country crowds it (more units than allowed), then orders "
            "are cancelled from the bottom of the list ... only the extra units who will crowd the "
            "destination have to stay behind'; silent on attacks. 'arrivals': no more units may go "
            "into a country than it holds, battle or not (the extra stay behind); 'survivors': an "
            "attack on another player's country may bring any number, and the survivors over its "
            "capacity go back where they came from (the bottom of the list first; lost when there "
            "is no room there)."))
    reinforcement_losses: Literal["home_first", "arrivals_first"] = Field(
        default="home_first", description=(
            "Silent: when a player's units move into their own country while it is attacked, "
            "they join the defence; whose units die first? 'home_first': the units that were "
            "there (so fewer survivors may carry out that country's own order); 'arrivals_first'."))
    free_city_defence_support: Literal["always", "land_attacks_only"] = Field(
        default="always", description=(
            "Seed: 'defensive support against attacks from border country units can always be "
            "lent to the city-states'. 'always': as for any country; 'land_attacks_only': only "
            "when the free city is attacked over a land border (not when every attack comes by "
            "sea)."))
    ambiguity: Literal["priority", "cancel"] = Field(
        default="priority", description=(
            "Silent: when the rules as written give several consistent resolutions of a round "
            "(attacks in a ring, full countries swapping units), which one? 'priority': the one "
            "that carries out most units of everybody's first orders, then second orders, and so "
            "on (a lexicographic objective over list ranks, the seed's 'earlier orders have "
            "priority'); where that still ties, and under 'cancel', the cyclic orders on which the "
            "readings differ are cancelled (their units stay) and the round is solved again."))
    victory_ties: Literal["shared", "none"] = Field(
        default="shared", description=(
            "Silent: two players meet the victory condition at the end of the same round. "
            "'shared': both win; 'none': nobody wins yet."))
    random_seed: Optional[int] = Field(
        default=None, description=(
            "The seed of the random source (continent draw, placement lots). None: derived from "
            "the game's players and map, so a replay draws the same."))

    def with_(self, **changes: Any) -> "ContinentsRules":
        try:
            return ContinentsRules.model_validate({**self.model_dump(), **changes})
        except ValidationError as exc:
            raise ContinentsRuleError(explain_options_error(exc, "continents rule option")) from None

    def differences(self, other: "ContinentsRules") -> dict[str, tuple[Any, Any]]:
        a, b = self.model_dump(), other.model_dump()
        return {k: (a[k], b[k]) for k in a if k != "name" and a[k] != b[k]}


DEFAULT = ContinentsRules()


def option_values(name: str) -> tuple[Any, ...]:
    """The values an option may take (for ``compare``); empty for free-valued options."""
    ann = ContinentsRules.model_fields[name].annotation
    return tuple(getattr(ann, "__args__", ())) if getattr(ann, "__origin__", None) is Literal else ()


def choice_options() -> list[str]:
    return [n for n in ContinentsRules.model_fields if n != "name" and option_values(n)]


def continents_preset(name: Optional[str] = None, **overrides: Any) -> ContinentsRules:
    """The rules by name: ``None`` or ``"continents"`` = the defaults; ``"OPTION=VALUE"`` (or
    several joined by ``,``) = the defaults with those options changed."""
    base = DEFAULT
    if name and name.strip().lower() not in ("continents", "default"):
        changes: dict[str, Any] = {}
        for item in name.split(","):
            key, sep, value = item.partition("=")
            key = key.strip()
            if not sep or key not in ContinentsRules.model_fields or key == "name":
                raise ContinentsRuleError(
                    f"continents rules {name!r}: expected 'continents' or OPTION=VALUE with OPTION one of "
                    f"{', '.join(n for n in ContinentsRules.model_fields if n != 'name')}")
            changes[key] = _coerce(key, value.strip())
        base = base.with_(name=name.strip(), **changes)
    if overrides:
        base = base.with_(**{k: _coerce(k, v) if isinstance(v, str) else v for k, v in overrides.items()})
    return base


def _coerce(key: str, value: str) -> Any:
    if key == "random_seed":
        if value.lower() in ("none", ""):
            return None
        try:
            return int(value)
        except ValueError:
            raise ContinentsRuleError(f"continents rule option 'random_seed': expected a whole number, got {value!r}") from None
    return value


def describe(rules: ContinentsRules) -> str:
    lines = []
    for name, f in ContinentsRules.model_fields.items():
        if name == "name":
            continue
        values = option_values(name)
        other = ", ".join(repr(v) for v in values if v != f.default) if values else "any whole number"
        lines.append(f"{name} = {getattr(rules, name)!r}  (default {f.default!r}; other values: {other})")
        lines.append(f"    {f.description}")
    return "\n".join(lines)
