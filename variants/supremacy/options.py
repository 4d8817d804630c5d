"""Supremacy rule options: every blank and every ambiguity of the seed text as a named value.

The seed (002) has many headings with no text.  Each such blank is an option with two kinds of
value: readings that play (the default is the one a table of players would most likely use,
with its reason taken from the seed's own text), and ``"unspecified"``, which refuses any
action that needs the rule with :class:`BlankRule` (an error naming the option, the seed
section and the values).  Two presets choose among them:

* ``table`` (the default): every blank takes its documented default, so a game file with no
  ``[options]`` plays;
* ``strict``: every blank not set explicitly is ``"unspecified"`` — the text as written, for
  research; a blank refuses only where the situation really needs it.

A preset is chosen by the option ``preset`` (``preset = "strict"`` in a file's ``[options]``,
``--option preset=strict``, or a corpus expectation's options); explicit values override it.
Ambiguities (where the text says something, but not enough) have a documented default under
both presets.  ``dipsat rules supremacy`` prints this table.
"""

from __future__ import annotations

from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from dipsat.errors import DipsatError

Unspecified = Literal["unspecified"]
PRESETS = {"table": "every blank of the seed takes the value a table of players would most likely use (the "
                    "default: a game file with no [options] plays)",
           "strict": "every blank not set explicitly is 'unspecified' and refuses an action that needs it, "
                     "naming the option (the text as written, for research)"}


class BlankRule(DipsatError):
    """An action needs a rule the seed leaves blank, and no value was given for it."""

    def __init__(self, option: str, needed_for: str):
        self.option = option
        f = SupremacyOptions.model_fields[option]
        values = [v for v in _values(option) if v != "unspecified"]
        extra = f.json_schema_extra if isinstance(f.json_schema_extra, dict) else {}
        section = extra.get("section", "")
        default = f.default if isinstance(f.default, str) else "a table"
        super().__init__(f"{needed_for} needs a rule the seed leaves blank ({section}): set the rule option "
                         f"{option!r} (values: {', '.join(values) or 'a table, see dipsat rules supremacy'}; "
                         f"the table preset's default: {default})")


def _blank(default: Any, section: str, doc: str, why: str) -> Any:
    """A blank of the seed: ``default`` is the table preset's value, ``why`` its reason."""
    return Field(default=default, description=doc,
                 json_schema_extra={"section": section, "blank": True, "why": why})


def _choice(default: Any, section: str, doc: str) -> Any:
    return Field(default=default, description=doc, json_schema_extra={"section": section, "blank": False})


WEALTH_PRICES: dict[str, dict[str, int]] = {"army": {"money": 50}, "navy": {"money": 50}, "nuke": {"money": 250},
                                            "lstar": {"money": 500}}


class SupremacyOptions(BaseModel):
    """The rule options of the Supremacy variant (a frozen value)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    preset: str = _choice(
        "table", "all blanks", "which values the blanks take when not set: 'table' (default) each blank's "
        "documented default; 'strict' every blank not set is 'unspecified' and refuses where it is needed "
        "(a preset of the readings, not a reading: 'dipsat readings' and 'coverage' look at the blanks)")

    @field_validator("preset")
    @classmethod
    def _known_preset(cls, v: str) -> str:
        if v not in PRESETS:
            raise ValueError(f"unknown preset {v!r}; presets: {', '.join(PRESETS)}")
        return v

    # ---- blanks: the seed's headings without text -------------------------------------------
    salaries: Literal["unspecified", "none"] = _blank(
        "none", "Stage 1", "what salaries Stage 1 charges; 'none': no salaries (loan interest is still due). "
        "Stage 1's interest is fully specified and never waits for this rule",
        "the seed names nothing that draws a salary (no cost per force, company or turn anywhere in the text); "
        "the one payment it sends to Stage 1 is the loan interest of Bank Loans")
    production: Literal["unspecified", "none", "one_per_untapped_company"] = _blank(
        "one_per_untapped_company", "Stage 2", "what Stage 2 transfers; 'one_per_untapped_company': each "
        "untapped face-up company adds one unit of its resource to its owner's supply center (up to 12); "
        "'none': nothing",
        "the only producers the seed has are companies, each in a zone with a resource; the supply center "
        "'is used to track ... resources', and only 'untapped, face up' companies count elsewhere")
    market_adjustment: Literal["unspecified", "none", "reroll"] = _blank(
        "none", "Market 2", "how the market 'is adjusted automatically at the start of Stage 3 and Stage 7' (a "
        "stage someone bid on); 'none': values stay where trades left them; 'reroll': each resource is priced "
        "again as at set-up, at the 2d6th position (Setting Up 7), from the random source",
        "the text gives no rule for the automatic adjustment, while the same sentence makes every trade move "
        "the market; a table plays with trade-driven prices")
    build_costs: Union[Unspecified, dict[str, dict[str, int]]] = _blank(
        WEALTH_PRICES, "Stage 6", "the price list of Stage 6: a table {army|navy|nuke|lstar: "
        "{money|grain|oil|mineral: n}}; default: the Wealth Table's value, in money",
        "the Wealth Table values an army or navy at $50 million, a nuke at $250 million and an L-Star at "
        "$500 million: building at that price turns money into equal wealth")
    build_placement: Literal["unspecified", "home", "occupied"] = _blank(
        "home", "Stage 6", "where new forces appear; 'home': armies in a home territory the player controls, "
        "navies in a light-blue sea one of those has a port into; 'occupied': armies in any territory the "
        "player occupies, navies in a light-blue sea one of its controlled territories has a port into "
        "(Setting Up 5's placement)",
        "forces and weapons come out of the supply center, which belongs to the superpower's home")
    force_transfer: Literal["unspecified", "in_place"] = _blank(
        "in_place", "Diplomacy", "how a conventional force changes hands in Stage 6 ('Transferring money, "
        "conventional forces, and strategic forces may be done in Stage 6'; where it goes is not said); "
        "'in_place': it changes owner where it stands, a navy with the armies aboard, and the giver hands over "
        "every force it has in that zone (two superpowers never share one)",
        "the text moves nothing in a transfer, and no rule lets two superpowers share a zone")
    prospecting: Literal["unspecified", "draw", "no_find"] = _blank(
        "draw", "Stage 8", "what a prospect does; 'draw': it draws one card at random from the resource deck "
        "(Setting Up 4: the companies nobody was dealt), and the company found joins the prospector's hand "
        "face up and untapped (nothing if the deck is empty; given dice: one d<deck size> per prospect); "
        "'no_find': it uses its chit and finds nothing",
        "Setting Up 4 shuffles every remaining company 'into the resource deck', and nothing else in the "
        "text draws from it: Stage 8 'Prospect for Resources' is what the deck is for")
    attack_tactics: Literal["unspecified", "cost_only", "extra_die"] = _blank(
        "cost_only", "Conventional Assault 1", "the tactics list is missing; 'cost_only': a repeated selection "
        "is paid and has no further effect (one selection is always allowed: it is the assault); "
        "'extra_die': each selection after the first gives the attacker one more die",
        "step 3 lists every die of the battle and none comes from the attacker's selections")
    defender_tactics: Literal["unspecified", "defend_one_set", "defend_free"] = _blank(
        "defend_one_set", "Conventional Assault 2", "the defender's tactics list is missing; "
        "'defend_one_set': 'Defend' costs one set of resources, like an attack tactic, and gives the die of "
        "step 3.3; 'defend_free': Defend costs nothing",
        "step 3.3 says the defender 'paid to Defend', and the one price the drill names is a set of resources")
    fallout: Literal["unspecified", "none", "destroy_forces", "forces_and_companies"] = _blank(
        "forces_and_companies", "Nuclear Strike 6", "the damage of a nuke that strikes a zone (outer space "
        "has none); 'forces_and_companies': every force in the zone is removed and every company there turned "
        "face down; 'destroy_forces': every force removed, nothing else; 'none': no effect beyond the spent nuke",
        "'Assess the damage' implies damage; companies are called 'face up' three times and no other rule "
        "turns one face down")
    blockade_effects: Literal["unspecified", "none", "no_port_traffic"] = _blank(
        "no_port_traffic", "Blockades and Sieges", "the effects of a blockade ('A blockade has these effects:' "
        "— the list is missing); 'no_port_traffic': no boarding or unloading there, nothing else; 'none': no "
        "effect. Unspecified: asked by every action touching a blockaded territory (forces moving in or out, "
        "boarding, landing, builds, hand-overs, assaults, Stage 2 production there)",
        "a blockade is made by controlling every light-blue sea the territory 'has port access to': what it "
        "cuts is that port access")
    siege_effects: Literal["unspecified", "none", "no_port_traffic"] = _blank(
        "no_port_traffic", "Blockades and Sieges", "the effects of a siege (the list is missing); "
        "'no_port_traffic': no boarding or unloading at the besieged player's home territories, nothing else; "
        "'none': no effect. Unspecified: asked by every action touching its home territories, its Stage 2 "
        "production and its trades",
        "a siege is made by controlling every light-blue sea the home territories 'have port access to': "
        "what it cuts is that port access")
    blockade_lapse: Literal["unspecified", "until_lifted", "with_control"] = _blank(
        "with_control", "Blockades and Sieges", "whether a blockade or siege ends by itself when its declarers "
        "no longer control every light-blue sea (or the territory is no longer another player's); the text "
        "only says they 'may declare (or lift)' it; 'with_control': it lapses at once; 'until_lifted': it "
        "stands until lifted",
        "control of every sea is the blockade's only condition; a table does not keep one nobody enforces")
    captured_supply_center: Literal["unspecified", "none", "majority"] = _blank(
        "majority", "Supply Centers 3", "who controls a removed player's supply center ('depends on the state "
        "of their home territories during Stage 2:' — the rest is missing); 'majority': the player controlling "
        "more than half of its home territories in Stage 2, else nobody; 'none': nobody",
        "Supply Centers 4 says a controller loses it with 'the last home territory (not just the majority)': "
        "the majority is what wins it")
    captured_center_use: Literal["unspecified", "none", "draw"] = _blank(
        "draw", "Supply Centers 5", "how a player uses a captured supply center that is not frozen ('a player "
        "may use it as so:' — the list is missing); 'draw': at any time its controller may move its nukes, "
        "L-Stars and resources into its own supply center ('draw 2 oil from CSA'); 'none': it cannot be used",
        "a supply center 'is used to track nukes, L-Stars, and resources' (Supply Centers 1): using one is "
        "taking what it holds")
    tapping: Literal["unspecified", "never", "loan_collateral"] = _blank(
        "loan_collateral", "Setting Up 3; Bank Loans; Wealth Table", "what taps (and untaps) a company: the "
        "seed says only that all 'begin face up and untapped', that a loan is 'up to a maximum of $500 million "
        "per untapped, face up company' and that each 'untapped, face up company' is worth $100 million; "
        "'loan_collateral': a loan taps one untapped face-up company per $500 million (the first listed), "
        "untapped when it is repaid in full; 'never': nothing taps a company (tapped flags stay as given). "
        "A loan's legality never depends on it; carrying a loan out does",
        "the one place 'untapped' limits anything is the loan limit: the companies behind a loan are the ones "
        "it taps")
    loan_beyond_table: Literal["unspecified", "extend", "last_row"] = _blank(
        "extend", "Bank Loans table", "the interest of a loan above $12 billion, where the table ends (a loan "
        "gets there only by unpaid interest); 'extend': each further billion adds $600 million, the table's "
        "last step ($12 billion: $3000 million, $13 billion: $3600 million, ...); 'last_row': the $12 billion "
        "row's $3000 million",
        "'Unpaid interest is added to the principal of the loan, which itself may cause higher interest "
        "payments down the line': the interest keeps growing with the loan")
    airlift_assault: Literal["unspecified", "occupy_by_airlift"] = _blank(
        "occupy_by_airlift", "Conventional Assault 5", "what an 'airlift assault' is (named only in the "
        "Reinforcements step); 'occupy_by_airlift': armies in any territory the attacker controls may take "
        "part in an assault on a territory ('airlift 2 army us_east' among the forces); like every force they "
        "pay a movement cost only to occupy — the airlift's 2 Oil per army — and cannot be withdrawn afterwards",
        "Stage 5's airlift moves an army 'to any controlled territory'; an airlift assault is that move into "
        "an attacked territory, as an amphibious assault is an unload")
    victory: Literal["unspecified", "richest", "last_standing"] = _blank(
        "richest", "Victory Conditions", "when the game ends and who wins (the section holds only the wealth "
        "table); 'richest': the richest player(s) by the wealth table when the game ends (after turn "
        "victory_turn, else after the game file's last turn: the players declared it over); 'last_standing': "
        "the game ends after a turn that leaves one player not removed (Supply Centers 3: controlling a home "
        "territory). Unspecified: dipsat play reports the result as undecided",
        "the Victory Conditions section is a wealth table, and a wealth table ranks players")
    first_strike: Literal["unspecified", "no_counterattack"] = _blank(
        "no_counterattack", "Nuclear Strike 7", "'If this was not itself a counterattack or First Strike' — the "
        "term First Strike is never defined; 'no_counterattack': a strike declared a First Strike "
        "(drill.first_strike) is one the defenders may not answer with a counterattack, and nothing else",
        "the one sentence that names a First Strike says only that it is not answered")
    stage12_order: Literal["unspecified", "alphabetical", "random"] = _blank(
        "alphabetical", "Blind Bidding", "the player order of the mandatory stages 1-2, which are not bid on; "
        "'alphabetical': by superpower id; 'random': a fresh random order each turn (the random source). "
        "Asked only when the order matters: two or more players act in Stage 1",
        "in Stages 1 and 2 each player pays and produces for itself, so any fixed order plays the same; "
        "alphabetical is the one every player can check")

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

    @model_validator(mode="before")
    @classmethod
    def _preset(cls, data: Any) -> Any:
        """Preset 'strict': every blank not given is 'unspecified'."""
        if isinstance(data, dict) and data.get("preset") == "strict":
            data = {**{n: "unspecified" for n in blank_names() if n not in data}, **data}
        return data

    def need(self, option: str, needed_for: str) -> Any:
        """The value of a blank option, or :class:`BlankRule` when it is unspecified."""
        value = getattr(self, option)
        if value == "unspecified":
            raise BlankRule(option, needed_for)
        return value


def blank_names() -> list[str]:
    """The options that stand for a blank of the seed, in declaration order."""
    return [n for n, f in SupremacyOptions.model_fields.items()
            if isinstance(f.json_schema_extra, dict) and f.json_schema_extra.get("blank")]


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
        vals = list(PRESETS) if name == "preset" else _values(name)
        raise DipsatError(f"rule option {name!r}: bad value {e.get('input')!r}; values: "
                          f"{', '.join(vals) or 'see dipsat rules supremacy'}") from None


def describe_options() -> str:
    """The options table, as ``dipsat rules supremacy`` prints it: per option its default under
    the table preset (with the reason, for a blank) and under the strict preset."""
    lines = ["Supremacy rule options (override in the file's [options] or with --option NAME=VALUE).",
             "Presets (option 'preset'):"]
    lines += [f"  {name}: {text}" for name, text in PRESETS.items()]
    lines.append("")
    for name, f in SupremacyOptions.model_fields.items():
        extra = f.json_schema_extra if isinstance(f.json_schema_extra, dict) else {}
        blank = bool(extra.get("blank"))
        vals = _values(name) or ["any integer or text"]
        if name == "build_costs":
            vals = ["unspecified", "a table"]
        elif name == "victory_turn":
            vals = ["a turn number"]
        elif name == "preset":
            vals = list(PRESETS)
        default = "(not set)" if f.default is None else _show(f.default)
        where = f"[{'blank' if blank else 'choice'}; {extra.get('section', '')}]"
        strict = "; strict: 'unspecified'" if blank else ""
        lines.append(f"{name} = {default}{strict}  {where}  values: {', '.join(vals)}")
        if blank:
            lines.append(f"    default because {extra.get('why', '')}")
        lines.append(f"    {f.description}")
    return "\n".join(lines)


def _show(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = " + _show(x) for k, x in v.items()) + "}"
    return repr(v)
