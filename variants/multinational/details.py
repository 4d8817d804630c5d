"""Multinational's own facts about outcomes (detail kinds, :class:`dipsat.outcomes.Detail`): the
seed's tallies of strengths ("Attacking strength: 5 (3 Sas, 2 Wyo)") and moves that attack
nothing (fly-overs), registered when the package is imported; each says a move's words (the
core's outcome kinds know none of them).
"""

from __future__ import annotations

from typing import ClassVar, Literal, Optional

from dipsat.models import Frozen
from dipsat.outcomes import Bounced, Detail, Moved, NoPath, Outcome, register_detail_kind


class TallyPart(Frozen):
    value: int  # what the part counts for (0: a support that was cut)
    label: str


@register_detail_kind
class Tally(Detail):
    """A strength as the seed tallies it, every part shown with what it counts for:
    "Attacking strength: 2 (2 Clm, 0 Mon)", "Revised attacking strength: 3 (3 Sas)",
    "Defending strength: 3 (Alb)" (``alone``: one part shown by its label), "Defending
    strength: 0 (Cal leaves)" (``leaves``), "Attacking strength Cal: 3 (3 Cal)" (``of``: another
    unit's).  A move's tallies (several) say its words: "succeeds — " or "fails — " and each."""

    kind: str = "tally"
    MANY: ClassVar[bool] = True
    name: Literal["attacking", "revised attacking", "defending"]
    total: int
    parts: tuple[TallyPart, ...] = ()
    of: Optional[str] = None
    alone: bool = False
    leaves: bool = False

    def describe(self) -> str:
        title = f"{self.name.capitalize()} strength" + (f" {self.of}" if self.of else "")
        if self.leaves and self.parts:
            return f"{title}: {self.total} ({self.parts[0].label} leaves)"
        if self.alone and len(self.parts) == 1:
            return f"{title}: {self.total} ({self.parts[0].label})"
        return f"{title}: {self.total} ({', '.join(f'{p.value} {p.label}' for p in self.parts) or 'none'})"

    def words(self, outcome: Outcome) -> Optional[str]:
        if not isinstance(outcome, (Moved, Bounced, NoPath)):
            return None
        tallies = "; ".join(t.describe() for t in outcome.details_of(Tally))
        if isinstance(outcome, NoPath):
            return f"fails: {outcome.path_words()} — {tallies}" + outcome.dislodged_note()
        return f"{'succeeds' if outcome.succeeded else 'fails'} — {tallies}" + outcome.dislodged_note()


@register_detail_kind
class NonAttack(Detail):
    """A move that attacks nothing (a fly-over, by its ``name``): it succeeds unless another
    order conflicts with it."""

    kind: str = "nonattack"
    name: str

    def words(self, outcome: Outcome) -> Optional[str]:
        if isinstance(outcome, Moved):
            return f"{self.name} succeeds" + outcome.dislodged_note()
        if isinstance(outcome, Bounced):
            return f"{self.name} fails: it conflicts with another order" + outcome.dislodged_note()
        return None
