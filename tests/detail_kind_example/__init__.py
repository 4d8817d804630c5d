"""A package outside dipsat that adds a detail kind of its own, as a variant's package does
(tests/test_detail_kinds.py): an omen read before a move, which says its part of the words."""

from __future__ import annotations

from typing import Optional

from dipsat.outcomes import Bounced, Detail, Moved, Outcome, register_detail_kind


@register_detail_kind
class Omen(Detail):
    """An omen read before the move: ``sign``, and ``binding``: the omen decides the whole of a
    failed move's words."""

    kind: str = "omen"
    sign: str
    binding: bool = False

    def words(self, outcome: Outcome) -> Optional[str]:
        return f"fails: the omen was {self.sign}" if self.binding and isinstance(outcome, Bounced) else None

    def verb(self, outcome: Outcome) -> str:
        return f" under a {self.sign} omen" if isinstance(outcome, Moved) else ""

    def note(self, outcome: Outcome) -> str:
        return "; the augurs were consulted"
