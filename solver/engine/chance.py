"""A seeded random source for the rules that draw lots or roll dice.

Every draw is named by a *key* that says what is being decided -- for example
``"1992/retreat/M Sas"`` (year, purpose, unit) or ``"1992/removal/GM/2"`` -- and its value is a
pure function of the source's seed and that key: ``sha256("<seed>:<key>")`` seeds Python's
Mersenne Twister (``random.Random``), which then draws the value.  So

* the same seed and key always give the same value, on every machine, in every run, whatever
  ``PYTHONHASHSEED`` is (no use of ``hash()``, no global random state);
* a draw does not depend on how many other draws were made before it, nor in which order;
* the seed comes from the input (a rule option such as ``random_seed``) or, when none is given,
  from the position itself (:meth:`RandomSource.for_position`: the year and the sorted units),
  so the same position always draws the same;
* the input may replace draws by given values (:attr:`RandomSource.given`): a mapping from key
  to value, or a list of values used in the order the draws are made.  A given value is checked
  against the choices (an index ``0 .. n-1`` for :meth:`~RandomSource.index` and
  :meth:`~RandomSource.choice`, a face ``1 .. sides`` for :meth:`~RandomSource.roll`).

Every draw is recorded (:attr:`RandomSource.drawn`) so results can report what was drawn and how.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import field
from typing import Mapping, Optional, Protocol, Sequence, TypeVar, Union

from dipsat.errors import DipsatError
from dipsat.records import dataclass


class _Piece(Protocol):
    @property
    def power(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def location(self) -> str: ...
    @property
    def count(self) -> int: ...


class Placed(Protocol):
    """What a seed is derived from: a year and its pieces, e.g. a :class:`dipsat.models.Position`
    (the engine knows no board: any value with these fields will do)."""

    @property
    def year(self) -> Optional[int]: ...
    @property
    def units(self) -> Sequence[_Piece]: ...


T = TypeVar("T")

GivenDraws = Union[Sequence[int], Mapping[str, int]]


class DrawError(DipsatError):
    """A given draw does not fit the choices it is used for."""


@dataclass(frozen=True)
class Draw:
    key: str
    choices: int  # the number of choices (index draws) or faces (dice)
    value: int
    given: bool  # taken from the input instead of drawn


def draw_key(*parts: object) -> str:
    """A draw's key from its parts (year, purpose, unit, ...); parts that are None are left out:
    ``draw_key(1992, "retreat", "M Sas")`` is ``"1992/retreat/M Sas"``."""
    return "/".join(str(p) for p in parts if p is not None)


def derive_seed(text: str) -> int:
    """A 48-bit seed from text (stable across runs and machines)."""
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:12], 16)


def position_seed(position: "Placed") -> int:
    """The seed a position draws with when the input gives none: its year and its units."""
    units = sorted((u.power, u.kind, u.location, u.count) for u in position.units)
    return derive_seed(repr((position.year, units)))


@dataclass
class RandomSource:
    """Keyed, seeded draws (see the module docstring).  One source serves one phase."""

    seed: int
    given: Optional[GivenDraws] = None
    drawn: list[Draw] = field(default_factory=list)
    _next_given: int = field(default=0, init=False, repr=False)

    @classmethod
    def for_position(cls, seed: Optional[int], position: "Placed", given: Optional[GivenDraws] = None) -> "RandomSource":
        """A source with the input's seed, else one derived from the position."""
        return cls(position_seed(position) if seed is None else seed, given)

    def _given(self, key: str) -> Optional[int]:
        g = self.given
        if g is None:
            return None
        if isinstance(g, Mapping):
            return g.get(key)
        if self._next_given < len(g):
            self._next_given += 1
            return g[self._next_given - 1]
        return None

    def _draw(self, key: str, lo: int, hi: int) -> int:
        """A value in ``lo..hi`` for ``key``: given, or drawn from the seed and the key."""
        v = self._given(key)
        if v is not None:
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise DrawError(f"given draw for {key!r} is {v!r}; it must be a whole number from {lo} to {hi}")
            self.drawn.append(Draw(key, hi - lo + 1, v, True))
            return v
        rng = random.Random(derive_seed(f"{self.seed}:{key}"))
        v = rng.randint(lo, hi)
        self.drawn.append(Draw(key, hi - lo + 1, v, False))
        return v

    def index(self, key: str, n: int) -> int:
        """Lots among ``n`` choices: an index ``0 .. n-1`` (no draw when ``n == 1``)."""
        if n < 1:
            raise ValueError(f"lots among no choices ({key!r})")
        return 0 if n == 1 else self._draw(key, 0, n - 1)

    def choice(self, key: str, options: Sequence[T]) -> T:
        """Lots among ``options`` (in the order given: callers sort them)."""
        return options[self.index(key, len(options))]

    def roll(self, key: str, sides: int = 6) -> int:
        """A die: ``1 .. sides``."""
        if sides < 1:
            raise ValueError(f"a die with {sides} sides ({key!r})")
        return self._draw(key, 1, sides)
