"""The random source of a Supremacy adjudication: dice and draws.

Dice come either from the input (a list of rolls, used in order; every case in the corpus gives
them, so each replays exactly) or from the core's seeded random source (:class:`dipsat.engine.chance.RandomSource`, seeded by the rule
option ``random_seed``, else by a digest of the input; each roll keyed by its number and
purpose), never from the process' own randomness.
Given rolls are checked against the die (a d6 roll of 7 is an error quoting it), and running out
of given rolls is an error saying which roll was missing.
"""

from __future__ import annotations

from typing import Optional, Sequence, TypeVar

from dipsat.engine.chance import RandomSource, derive_seed
from dipsat.errors import DipsatError

T = TypeVar("T")


class DiceError(DipsatError):
    """Given dice are missing or impossible."""


class Dice:
    def __init__(self, rolls: Optional[Sequence[int]] = None, seed: object = None):
        self.given = list(rolls) if rolls is not None else None
        self.used: list[int] = []
        self._src = RandomSource(derive_seed(f"supremacy:{seed}")) if self.given is None else None

    def roll(self, sides: int, what: str) -> int:
        if self.given is not None:
            i = len(self.used)
            if i >= len(self.given):
                raise DiceError(f"the given dice ran out: roll {i + 1} ({what}, a d{sides}) is missing")
            v = self.given[i]
            if not isinstance(v, int) or not 1 <= v <= sides:
                raise DiceError(f"die roll {i + 1} ({what}) is {v!r}, not a d{sides} result (1..{sides})")
        else:
            assert self._src is not None
            v = self._src.roll(f"{len(self.used) + 1}/{what}", sides)
        self.used.append(v)
        return v

    def rolls(self, n: int, what: str, sides: int = 6) -> list[int]:
        return [self.roll(sides, f"{what} #{k + 1}") for k in range(n)]

    def shuffle(self, items: Sequence[T], what: str) -> list[T]:
        """A random order of ``items`` (given dice: one d(len) draw per position, Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.roll(i + 1, f"{what}, shuffle step") - 1
            out[i], out[j] = out[j], out[i]
        return out

    def check_all_used(self) -> None:
        if self.given is not None and len(self.used) < len(self.given):
            raise DiceError(f"{len(self.given) - len(self.used)} given dice were not used "
                            f"(used {len(self.used)} of {len(self.given)}: {self.given[len(self.used):]} left)")
