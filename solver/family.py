"""The seam for variants of another game family.

A Diplomacy variant changes the core's hooks (notation, geography, movement rules, phases).  A
variant whose game has different positions, orders and phases altogether — units counted per
country, ordered order lists, battles fought by numbers — instead answers the commands itself:
its :meth:`Variant.own_commands` returns an object of this shape, and the commands (adjudicate,
batch, corpus, play, explore, compare, why, rules) hand it the file's data unchanged.  The core
only routes; it knows nothing of the variant's rules.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Protocol

if TYPE_CHECKING:
    from .corpus import CaseRun, CorpusCase, Expectation


class OwnCommands(Protocol):
    def adjudicate(self, data: Any, where: str, rules: Optional[str] = None, options: tuple[str, ...] = ()) -> Any:
        """One phase from request data (a dict); the variant's own result object."""

    def format_result(self, result: Any, as_json: bool = False) -> str:
        """The text (or JSON text) ``dipsat adjudicate`` prints."""

    def result_json(self, result: Any) -> dict[str, Any]:
        """The JSON object of a result (``--json``, ``dipsat batch``)."""

    def play(self, data: Any, where: str, check: bool = True, save: Optional[str] = None, as_json: bool = False,
             quiet: bool = False) -> str:
        """Replay a saved game; the text ``dipsat play`` prints."""

    def run_case(self, case: "CorpusCase", rules: str, exp: "Expectation", path: str) -> "CaseRun":
        """One expectation of a corpus case."""

    def explore(self, data: Any, where: str, rules: Optional[str], options: tuple[str, ...], limit: int) -> str: ...

    def why(self, data: Any, where: str, order: str, rules: Optional[str], options: tuple[str, ...]) -> str: ...

    def compare(self, files: list[Path], presets: list[str]) -> tuple[str, int]:
        """Run corpus files under several rule presets; the report and the number of errors."""

    def describe_rules(self, preset: Optional[str] = None) -> str:
        """``dipsat rules NAME``: every rule option with its value and what it means."""

    def summary(self) -> str:
        """One line for the ``dipsat rules`` listing."""
