"""The game runner is generic: a variant declares its phases (dipsat.game.variant), the runner plays them."""

from dataclasses import dataclass, replace
from typing import Any, Optional

from dipsat.game.game import Game, StartSpec
from dipsat.game.variant import DiplomacyYear, Phases
from dipsat.models import Position
from dipsat.rules import RuleOptions
from dipsat.game.variant import Variant
from dipsat.variants import find_variant

STANDARD = find_variant("standard")


def postal_year(variant: Variant, rules: RuleOptions) -> DiplomacyYear:
    """Three movement seasons a year (a calendar with other seasons)."""
    return DiplomacyYear(variant, movement_seasons=("spring", "summer", "fall"))


def PostalYear() -> Variant:
    """The standard game with a three-season year: the standard record with its calendar hook replaced."""
    return replace(STANDARD, name="postal-test", calendar=postal_year)


def test_a_three_season_year():
    game = Game(PostalYear())
    names = []
    for _ in range(3):
        names.append(game.phase_name)
        game.step({})
    assert names == ["S1901M", "U1901M", "F1901M"]
    assert game.phase_name == "S1902M"  # nothing changed hands: no adjustment phase is due
    # a fall that takes a centre: the winter adjustment follows the third season
    game = Game(PostalYear())
    game.step({})
    game.step({"France": ["A Mar - Spa"]})
    game.step({})
    assert game.phase_name == "W1901A"


def test_seasons_of_the_calendar_check_a_start():
    import pytest

    from dipsat.errors import InputFileError

    with pytest.raises(InputFileError, match="'summer' is not one of spring, fall, winter"):
        Game("standard", start=StartSpec(season="summer", units={"France": ["A Par"]}))
    game = Game(PostalYear(), start=StartSpec(season="summer", year=1905, units={"France": ["A Par"]}))
    assert game.phase_name == "U1905M"


@dataclass
class MovementOnly:
    """A calendar of its own: one movement phase a year, nothing else."""

    variant: Any

    @property
    def phases(self) -> Phases:
        return Phases()  # the core's phase adjudicators (this calendar never plays them)

    @property
    def seasons(self) -> tuple[str, ...]:
        return ("year",)

    def open(self, game: Game, start: Optional[StartSpec], given: Optional[Position] = None) -> None:
        game.position = self.variant.start_position(self.variant).model_copy(update={"season": "year"})
        game.year, game.season, game.phase = 2000, "year", "movement"

    def phase_name(self, year: int, season: str, phase: str) -> str:
        return f"round {year}"

    def play(self, game: Game, orders: dict[str, list[str]]) -> Any:
        res = game.pipeline.movement(game.position, orders)
        game.position = res.after
        game.year += 1
        return res


def OwnCalendar() -> Variant:
    return replace(STANDARD, name="own-calendar-test", calendar=lambda variant, rules: MovementOnly(variant))


def test_a_calendar_of_its_own():
    game = Game(OwnCalendar())
    rec = game.step({"France": ["A Par - Bur"]})
    assert rec.name == "round 2000"
    rec = game.step({"France": ["A Bur - Pic"]})
    assert rec.name == "round 2001" and game.phase_name == "round 2002"
    assert any(u.location == "pic" and u.power == "France" for u in game.position.units)
