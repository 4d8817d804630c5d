"""The one seam for variants that answer commands themselves (another game family).

A Diplomacy variant changes the core's hooks (notation, geography, movement rules, phases).  A
variant whose game has different positions, orders and phases altogether — units counted per
country, ordered order lists, battles fought by numbers, an economy with stages and dice —
instead answers the commands itself: its record's ``family`` hook returns a :class:`Family`, and
every command (adjudicate, batch, corpus, play, explore, compare, why, rules, and the extra
subcommands it contributes) hands it the file's data unchanged.  The core only routes; it knows
nothing of the variant's rules.

A family implements the commands its game has; the others keep the base class's answer, a clear
error naming the variant and the command.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, NoReturn, Optional, Sequence

from .errors import DipsatError

if TYPE_CHECKING:
    from .corpus import CaseRun, CorpusCase, Expectation


@dataclass(frozen=True)
class VariantCommand:
    """A CLI subcommand a variant contributes (``dipsat NAME ...``), collected from the registry."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


class Family:
    """A variant's own answers to the commands, for files that name the variant."""

    variant: str = "this"  # the variant's name, for messages

    def _none(self, command: str) -> NoReturn:
        raise DipsatError(f"the {self.variant} variant has no '{command}' command")

    def commands(self) -> Sequence[VariantCommand]:
        """Extra CLI subcommands (declared cheaply: ``dipsat`` collects them when it starts a
        command that is not one of the core's)."""
        return ()

    def adjudicate(self, data: Any, where: str, rules: Optional[str] = None, options: tuple[str, ...] = ()) -> Any:
        """One phase (or step) from request data (a dict); the variant's own result object."""
        self._none("adjudicate")

    def format_result(self, result: Any, as_json: bool = False) -> str:
        """The text (or JSON text) ``dipsat adjudicate`` prints."""
        self._none("adjudicate")

    def result_json(self, result: Any) -> dict[str, Any]:
        """The JSON object of a result (``--json``, ``dipsat batch``)."""
        self._none("batch")

    def play(self, data: Any, where: str, check: bool = True, save: Optional[str] = None, as_json: bool = False,
             quiet: bool = False) -> str:
        """Play or replay a saved game; the text ``dipsat play`` prints."""
        self._none("play")

    def run_case(self, case: "CorpusCase", rules: str, exp: "Expectation", path: str) -> "CaseRun":
        """One expectation of a corpus case."""
        self._none("corpus")

    def explore(self, data: Any, where: str, rules: Optional[str], options: tuple[str, ...], limit: int) -> str:
        self._none("explore")

    def why(self, data: Any, where: str, order: Optional[str], rules: Optional[str], options: tuple[str, ...]) -> str:
        """What an outcome hinges on (``order``: the order asked about, when the game has orders)."""
        self._none("why")

    def compare(self, files: list[Path], presets: list[str]) -> tuple[str, int]:
        """Run corpus files under several rule readings; the report and the number of errors."""
        self._none("compare")

    def reading_base(self, data: Any, where: str, rules: Optional[str], options: tuple[str, ...]) -> Any:
        """``dipsat readings``: the options the file runs under (its own and ``--option``), an
        instance of the variant's reading-options model; the options it sets are not enumerated."""
        self._none("readings")

    def reading_run(self, data: Any, where: str, opts: Any) -> dict[str, Any]:
        """``dipsat readings``: the file's data run once under ``opts`` (an instance of the
        reading-options model that records which options the run reads), its result as JSON
        data (an error is raised as a :class:`DipsatError`, and is a reading's outcome too)."""
        self._none("readings")

    def describe_rules(self, preset: Optional[str] = None) -> str:
        """``dipsat rules NAME``: every rule option with its value and what it means."""
        self._none("rules")

    def summary(self) -> str:
        """One line for the ``dipsat rules`` listing."""
        return f"the {self.variant} variant's own rules"
