"""Multiplicity Plus's own facts about outcomes (detail kinds, :class:`dipsat.outcomes.Detail`):
merges (rules 2-4, 6) and supports of a merge, attacks on a component of a multinational unit (rule 5(b)), seaworthiness
(rules 7, 10), cut budgets (rule 6), the implied support of a merge, retreat battles (rule 11),
a force of sides, the part of a split (rule 10), and an attacker's priority not understood
(rule 6).  Each is registered when the package is
imported, and says its part of the outcome's words (the core's outcome kinds know none of them).
"""

from __future__ import annotations

from typing import Literal, Optional

from dipsat.outcomes import (Bounced, Cut, Detail, Dislodged, Given, Held, Moved, Outcome, Partial, against_words,
                             register_detail_kind, rule_words, via_words)


@register_detail_kind
class Merge(Detail):
    """A move that joins units into one force: the nations of the force (several: a merge of
    nations) and the units it merges with, as labelled."""

    kind: str = "merge"
    nations: tuple[str, ...] = ()
    with_units: tuple[str, ...] = ()

    def describe(self) -> str:
        return "merges" + (f" ({' and '.join(self.nations)})" if len(self.nations) > 1 else "") + \
            (" with " + ", ".join(self.with_units) if self.with_units else "")

    def verb(self, outcome: Outcome) -> str:
        return f" and {self.describe()}" if isinstance(outcome, Moved) else ""


@register_detail_kind
class OfMerge(Detail):
    """A support of every unit of a nation merging into a province."""

    kind: str = "of_merge"

    def words(self, outcome: Outcome) -> Optional[str]:
        return outcome.given_words("merge support given") if isinstance(outcome, Given) else None


@register_detail_kind
class ComponentAttack(Detail):
    """An attack inside a shared space on the component of another nation in a unit: the
    attacked nation (its adjective), the rule that settles it as the rulebook cites it, and
    ``joined``: the order is a move that merges in and supports the attack rather than the
    attack itself.  The attack's strengths are the outcome's first two."""

    kind: str = "component_attack"
    victim: str
    rule: str = ""
    joined: bool = False

    def words(self, outcome: Outcome) -> Optional[str]:
        if outcome.order_kind == "retreat":
            return None
        if isinstance(outcome, Bounced):
            return f"fails, so the attacking component must retreat{rule_words(self.rule)}{against_words(outcome.strengths)}"
        if isinstance(outcome, Moved) and not self.joined:
            return f"the {self.victim} component must retreat{rule_words(self.rule)}{against_words(outcome.strengths)}"
        return None

    def note(self, outcome: Outcome) -> str:
        if not (isinstance(outcome, Moved) and self.joined and outcome.order_kind != "retreat"):
            return ""
        text = f"; supports the attack on the {self.victim} component"
        if outcome.dislodged_by is not None:
            text += f", which fails, so it retreats with the attacking component{rule_words(self.rule)}"
        return text


@register_detail_kind
class Seaworthiness(Detail):
    """Armies at sea that would outnumber the fleets carrying them: ``count``: the force would
    be ``armies`` armies and ``fleets`` fleets in ``where``; ``leaving``: the fleets cannot
    leave, as the armies left behind would outnumber those staying; ``retreat``: the retreating
    army and fleet would not be seaworthy."""

    kind: str = "sea"
    case: Literal["count", "leaving", "retreat"]
    rule: str = ""
    armies: int = 0
    fleets: int = 0
    where: str = ""

    def describe(self) -> str:
        rule = rule_words(self.rule)
        if self.case == "count":
            return f"not seaworthy: {self.armies} army(ies) and {self.fleets} fleet(s) in {self.where}{rule}"
        if self.case == "leaving":
            return f"the armies left at sea would outnumber the fleets, so the fleets cannot leave{rule}"
        return f"the retreating A/F would not be seaworthy{rule}"

    def words(self, outcome: Outcome) -> Optional[str]:
        if isinstance(outcome, Bounced) and outcome.order_kind == "retreat":
            return f"fails and disbands: {self.describe()}"
        return None


@register_detail_kind
class Sides(Detail):
    """The move was one side's force: its obstacles (a force that would not be seaworthy first)
    are listed after a colon."""

    kind: str = "sides"

    def words(self, outcome: Outcome) -> Optional[str]:
        if not isinstance(outcome, Bounced):
            return None
        parts = [d.describe() for d in outcome.details_of(Seaworthiness)] + [o.describe() for o in outcome.obstacles]
        return (f"fails{via_words(outcome.via_convoy, outcome.backup_rule)}{against_words(outcome.strengths[:1])}"
                + (": " + "; ".join(parts) if parts else "") + outcome.dislodged_note() + outcome.details_note())


@register_detail_kind
class CutBudget(Detail):
    """How far a support was cut where an attack cuts only up to its strength: the strongest
    attack's cutting ``strength``, its ``nations`` and the province it goes ``into`` (display
    name), and ``excluded``: the province the support is aimed at, whose attackers do not count
    (None: nothing excluded)."""

    kind: str = "budget"
    strength: int
    nations: tuple[str, ...]
    into: str
    excluded: Optional[str] = None
    rule: str = ""

    def describe(self) -> str:
        extra = f"; what comes from {self.excluded}, where this support is aimed, does not count" if self.excluded else ""
        return (f" ({self.rule + ': ' if self.rule else ''}cut up to the strength of the strongest attack, "
                f"{' + '.join(self.nations)} into {self.into}: {self.strength}{extra})")

    def note(self, outcome: Outcome) -> str:
        return self.describe() if isinstance(outcome, (Cut, Partial)) else ""


@register_detail_kind
class UnreadPriority(Detail):
    """An attacker's order of supports to cut first (rule 6) whose words were not understood: the
    ``written`` parts, and the rule that gives the default order.  The attack went ahead in that
    default order (rule 6: "In the absence of any clear indication of priority ... the order in
    which the support orders are written ... will be taken")."""

    kind: str = "unread_priority"
    written: tuple[str, ...]
    rule: str = ""

    def describe(self) -> str:
        parts = ", ".join(repr(w) for w in self.written)
        return f"; the priority to cut {parts} is not understood: supports were cut in the default order{rule_words(self.rule)}"

    def note(self, outcome: Outcome) -> str:
        return self.describe() if isinstance(outcome, (Moved, Bounced)) and outcome.order_kind == "move" else ""


@register_detail_kind
class ImpliedSupport(Detail):
    """The support a unit staying in its province gives its own units merging into it: how many
    of its ``total`` units gave it."""

    kind: str = "implied"
    given: int
    total: int

    def describe(self) -> str:
        return f"; implied support of the merge: {self.given} of {self.total} given"

    def note(self, outcome: Outcome) -> str:
        return self.describe() if isinstance(outcome, (Held, Dislodged)) else ""


@register_detail_kind
class RetreatBattle(Detail):
    """Retreats of several sides into one province: this side's ``result`` against the others,
    the ``strength`` of the strongest side, the rule as the rulebook cites it."""

    kind: str = "retreat_battle"
    result: Literal["stronger", "weaker", "equal"]
    strength: int
    rule: str = ""

    def describe(self) -> str:
        if self.result == "stronger":
            return f"; stronger ({self.strength}) than the other retreats there"
        rule = rule_words(self.rule)
        if self.result == "weaker":
            return f"fails and disbands: a stronger retreat ({self.strength}) goes there{rule}"
        return f"fails and disbands: retreats of equal strength ({self.strength}) meet there{rule}"

    def words(self, outcome: Outcome) -> Optional[str]:
        return self.describe() if isinstance(outcome, Bounced) and outcome.order_kind == "retreat" else None

    def note(self, outcome: Outcome) -> str:
        return self.describe() if isinstance(outcome, Moved) and outcome.order_kind == "retreat" else ""


@register_detail_kind
class SplitPart(Detail):
    """A unit read as a part of a split (rule 10): the split's header, as it is written."""

    kind: str = "part_of"
    header: str

    def note(self, outcome: Outcome) -> str:
        return f" (read as a part of {self.header} (the split's header))" if isinstance(outcome, Held) else ""
