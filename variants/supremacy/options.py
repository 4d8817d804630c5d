"""Supremacy rule options: every blank and every ambiguity of the seed text as a named value.

The seed (002) has many headings with no text.  Each such blank is an option whose default,
``"unspecified"``, refuses any action that needs it with :class:`BlankRule`, an error naming the
option, the seed section and the values a user may choose.  Ambiguities (where the text says
something, but not enough) have a documented default instead.  ``dipsat rules supremacy`` prints
this table.
"""

from __future__ import annotations

from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dipsat.errors import DipsatError

Unspecified = Literal["unspecified"]


class BlankRule(DipsatError):
    """An action needs a rule the seed leaves blank, and no value was given for it."""

    def __init__(self, option: str, needed_for: str):
        self.option = option
        f = SupremacyOptions.model_fields[option]
        values = [v for v in _values(option) if v != "unspecified"]
        section = (f.json_schema_extra or {}).get("section", "") if isinstance(f.json_schema_extra, dict) else ""
        super().__init__(f"{needed_for} needs a rule the seed leaves blank ({section}): set the rule option "
                         f"{option!r} (values: {', '.join(values) or 'a table, see dipsat rules supremacy'})")


def _blank(section: str, doc: str) -> Any:
    return Field(default="unspecified", description=doc, json_schema_extra={"section": section, "blank": True})


def _choice(default: Any, section: str, doc: str) -> Any:
    return Field(default=default, description=doc, json_schema_extra={"section": section, "blank": False})


class SupremacyOptions(BaseModel):
    """The rule options of the Supremacy variant (a frozen value)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # ---- blanks: the seed's headings without text -------------------------------------------
    salaries: Literal["unspecified", "none"] = _blank(
        "Stage 1", "what salaries Stage 1 charges; 'none': no salaries (loan interest is still due)")
    production: Literal["unspecified", "none", "one_per_untapped_company"] = _blank(
        "Stage 2", "what Stage 2 transfers; 'one_per_untapped_company': each untapped face-up company "
        "adds one unit of its resource (the published game's reading, not the seed's)")
    market_adjustment: Literal["unspecified", "none"] = _blank(
        "Market 2", "how the market 'is adjusted automatically at the start of Stage 3 and Stage 7'; "
        "'none': values stay where they are")
    build_costs: Union[Unspecified, dict[str, dict[str, int]]] = _blank(
        "Stage 6", "the price list of Stage 6: a table {army|navy|nuke|lstar: {money|grain|oil|mineral: n}}")
    build_placement: Literal["unspecified", "home"] = _blank(
        "Stage 6", "where new forces appear; 'home': armies in a home territory the player controls, navies "
        "in a light-blue sea one of those has a port into")
    force_transfer: Literal["unspecified", "in_place"] = _blank(
        "Diplomacy", "how a conventional force changes hands in Stage 6 ('Transferring money, conventional forces, "
        "and strategic forces may be done in Stage 6'; where it goes is not said); 'in_place': it changes owner "
        "where it stands, a navy with the armies aboard, and the giver hands over every force it has in that "
        "zone (two superpowers never share one)")
    prospecting: Literal["unspecified", "no_find"] = _blank(
        "Stage 8", "what a prospect does; 'no_find': it uses its chit and finds nothing")
    attack_tactics: Literal["unspecified", "cost_only"] = _blank(
        "Conventional Assault 1", "the tactics list is missing; 'cost_only': a repeated selection is paid and "
        "has no further effect (one selection is always allowed: it is the assault)")
    defender_tactics: Literal["unspecified", "defend_one_set"] = _blank(
        "Conventional Assault 2", "the defender's tactics list is missing; 'defend_one_set': 'Defend' costs "
        "one set of resources, like an attack tactic, and gives the die of step 3.3")
    fallout: Literal["unspecified", "none", "destroy_forces"] = _blank(
        "Nuclear Strike 6", "the damage of a nuke that strikes; 'none': no effect beyond the spent nuke; "
        "'destroy_forces': every force in the zone is removed")
    blockade_effects: Literal["unspecified", "none", "no_port_traffic"] = _blank(
        "Blockades and Sieges", "the effects of a blockade ('A blockade has these effects:' — the list is missing); "
        "asked by every action touching a blockaded territory (forces moving in or out, boarding, landing, "
        "builds, hand-overs, assaults, Stage 2 production there); 'none': no effect; 'no_port_traffic': no "
        "boarding or unloading there, nothing else")
    siege_effects: Literal["unspecified", "none", "no_port_traffic"] = _blank(
        "Blockades and Sieges", "the effects of a siege (the list is missing); asked by every action touching the "
        "besieged player's home territories, its Stage 2 production and its trades; 'none': no effect; "
        "'no_port_traffic': no boarding or unloading at its home territories, nothing else")
    blockade_lapse: Literal["unspecified", "until_lifted", "with_control"] = _blank(
        "Blockades and Sieges", "whether a blockade or siege ends by itself when its declarers no longer control "
        "every light-blue sea (or the territory is no longer another player's); the text only says they 'may "
        "declare (or lift)' it; 'until_lifted': it stands until lifted; 'with_control': it lapses at once")
    captured_supply_center: Literal["unspecified", "none", "majority"] = _blank(
        "Supply Centers 3", "who controls a removed player's supply center ('depends on the state of their home "
        "territories during Stage 2:' — the rest is missing); 'none': nobody; 'majority': the player controlling "
        "more than half of its home territories in Stage 2 (Supply Centers 4's 'not just the majority' suggests "
        "it), else nobody")
    captured_center_use: Literal["unspecified", "none", "draw"] = _blank(
        "Supply Centers 5", "how a player uses a captured supply center that is not frozen ('a player may use it "
        "as so:' — the list is missing); 'none': it cannot be used; 'draw': at any time its controller may move "
        "its nukes, L-Stars and resources into its own supply center ('draw 2 oil from CSA')")
    tapping: Literal["unspecified", "never", "loan_collateral"] = _blank(
        "Setting Up 3; Bank Loans; Wealth Table", "what taps (and untaps) a company: the seed says only that all "
        "'begin face up and untapped', that a loan is 'up to a maximum of $500 million per untapped, face up "
        "company' and that each 'untapped, face up company' is worth $100 million; asked by every loan; "
        "'never': nothing taps a company (tapped flags stay as given); 'loan_collateral': a loan taps one "
        "untapped face-up company per $500 million (the first listed), untapped when it is repaid in full")
    airlift_assault: Literal["unspecified", "occupy_by_airlift"] = _blank(
        "Conventional Assault 5", "what an 'airlift assault' is (named only in the Reinforcements step); "
        "'occupy_by_airlift': armies in any territory the attacker controls may take part in an assault on a "
        "territory ('airlift 2 army us_east' among the forces); like every force they pay a movement cost "
        "only to occupy — the airlift's 2 Oil per army — and cannot be withdrawn afterwards")
    victory: Literal["unspecified", "richest", "last_standing"] = _blank(
        "Victory Conditions", "when the game ends and who wins (the section holds only the wealth table); "
        "'richest': the richest player(s) by the wealth table when the game ends (after turn victory_turn, "
        "else after the game file's last turn: the players declared it over); 'last_standing': the game ends "
        "after a turn that leaves one player not removed (Supply Centers 3: controlling a home territory). "
        "Unspecified: dipsat play reports the result as undecided")
    first_strike: Literal["unspecified", "no_counterattack"] = _blank(
        "Nuclear Strike 7", "'If this was not itself a counterattack or First Strike' — the term First Strike is "
        "never defined; 'no_counterattack': a strike declared a First Strike (drill.first_strike) is one the "
        "defenders may not answer with a counterattack, and nothing else")
    stage12_order: Literal["unspecified", "alphabetical"] = _blank(
        "Blind Bidding", "the player order of the mandatory stages 1-2, which are not bid on; 'alphabetical': "
        "by superpower id")

    # ---- ambiguities: the text says something, not enough; documented defaults ---------------
    control: Literal["forces"] = _choice(
        "forces", "Terms (blank)", "a zone is controlled by the one power with forces in it; an empty home "
        "territory by its superpower (as the Caribbean set-up example reads 'control')")
    most_tie: Literal["nobody", "both"] = _choice(
        "nobody", "Conventional Assault 3.4-3.5", "'the side with the most' L-Stars / forces on a tie")
    market_step: Literal["per_unit", "per_transaction"] = _choice(
        "per_unit", "Market 2", "the market moves one step per unit bought or sold, each unit priced at the "
        "value then current; 'per_transaction': one step per buy or sell action, every unit at the old value")
    loan_interest_rounding: Literal["up", "down"] = _choice(
        "up", "Bank Loans table", "interest of a loan between two rows of the table: 'up' the next row "
        "at or above it, 'down' the row at or below (none below $1 billion)")
    redraw_from: Literal["non_superpower_pile"] = _choice(
        "non_superpower_pile", "Setting Up 3-4", "companies in a shared zone 'are returned to the resource deck and "
        "redrawn', but the resource deck is only made in step 4: they are redrawn from the undealt non-superpower "
        "companies (the pile step 3 deals from) with the returned ones shuffled in.  Redrawing from every undealt "
        "company is not offered: it can deal a company in another superpower's home territory, whose starting "
        "army would share that territory with its owner's")
    navy_start_ports: Literal["controlled", "home"] = _choice(
        "controlled", "Setting Up 5", "which territories count for 'the only superpower with port access': "
        "all it controls at set-up (homes and company territories) or its home territories only")
    casualties: Literal["most_damage"] = _choice(
        "most_damage", "Conventional Assault 3.7", "the roller's choice when the input does not give it: "
        "navies carrying the most armies first, then armies, then empty navies")
    victory_turn: Optional[int] = Field(
        default=None, ge=1, description="with victory = 'richest': the turn after which the game ends (default: "
        "the game file's last turn)", json_schema_extra={"section": "Victory Conditions", "blank": False})
    richest_among: Literal["remaining", "all"] = _choice(
        "remaining", "Victory Conditions; Supply Centers 3", "with victory = 'richest': who may be the richest "
        "winner. Supply Centers 3 says a player controlling none of its home territories has been 'removed from "
        "the game', yet the wealth table still counts what it owns: 'remaining' (default) only players not "
        "removed (all of them if every player was removed); 'all': every player on the wealth table")
    victory_tie: Literal["shared"] = _choice(
        "shared", "Victory Conditions", "players tied for the richest share the victory")
    counterattack_bid: Literal["not_needed", "needed"] = _choice(
        "not_needed", "Blind Bidding; drills' Counterattack steps", "whether a defender who did not bid on Stage 4 "
        "may counterattack: 'not_needed' (default) because the drills say 'the defender may now counterattack' "
        "and, where a bid is needed (Retributive Strike), say so; 'needed': a non-bidder 'may not take part'")
    prospect_limit: Literal["chits_bid", "chits_left"] = _choice(
        "chits_bid", "Blind Bidding", "'Bid chits ... determine the number of times a player can prospect during "
        "Stage 8' — which chits is not said; 'chits_bid': at most as many prospects as chits bid on Stage 8; 'chits_left': each "
        "prospect spends one of the player's remaining chits")
    random_seed: Optional[Union[int, str]] = _choice(
        None, "Setting Up, Blind Bidding, drills", "the seed of the random source (dice, draws, ties); "
        "default: derived from the input")

    def need(self, option: str, needed_for: str) -> Any:
        """The value of a blank option, or :class:`BlankRule` when it is unspecified."""
        value = getattr(self, option)
        if value == "unspecified":
            raise BlankRule(option, needed_for)
        return value


def _values(option: str) -> list[str]:
    ann = SupremacyOptions.model_fields[option].annotation
    out: list[str] = []

    def walk(t: Any) -> None:
        args = getattr(t, "__args__", ())
        origin = getattr(t, "__origin__", None)
        if origin is Literal:
            out.extend(str(a) for a in args)
        elif origin is Union or type(t).__name__ == "UnionType":
            for a in args:
                walk(a)
    walk(ann)
    return out


def make_options(values: dict[str, Any] | None = None) -> SupremacyOptions:
    """Options from a plain dict (a file's ``options`` table); errors name the option."""
    try:
        return SupremacyOptions.model_validate(values or {})
    except ValidationError as exc:
        e = exc.errors()[0]
        name = str(e["loc"][0]) if e["loc"] else "?"
        if name not in SupremacyOptions.model_fields:
            raise DipsatError(f"unknown Supremacy rule option {name!r}; options: "
                              f"{', '.join(SupremacyOptions.model_fields)}") from None
        raise DipsatError(f"rule option {name!r}: bad value {e.get('input')!r}; values: "
                          f"{', '.join(_values(name)) or 'see dipsat rules supremacy'}") from None


def describe_options() -> str:
    """The options table, as ``dipsat rules supremacy`` prints it."""
    lines = ["Supremacy rule options (override in the file's [options] or with --option NAME=VALUE).",
             "Blank rules: the default 'unspecified' refuses an action that needs the rule.", ""]
    for name, f in SupremacyOptions.model_fields.items():
        extra = f.json_schema_extra if isinstance(f.json_schema_extra, dict) else {}
        kind = "blank" if extra.get("blank") else "choice"
        vals = _values(name) or ["any integer or text"]
        if name == "build_costs":
            vals = ["unspecified", "a table"]
        elif name == "victory_turn":
            vals = ["a turn number"]
        default = "(not set)" if f.default is None else repr(f.default)
        lines.append(f"{name} = {default}  [{kind}; {extra.get('section', '')}]  values: {', '.join(vals)}")
        lines.append(f"    {f.description}")
    return "\n".join(lines)
