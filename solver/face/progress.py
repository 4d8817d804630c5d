"""A progress bar for long commands (batch, corpus, compare, play), shared by the CLI.

On a terminal it is a Rich bar on standard error showing items done (of the total, when it is
known), the rate (items/s), the elapsed time and, with a total, the time left; when standard error is not a terminal (piped, redirected, CI) or with ``quiet``
it shows nothing at all, so machine-read output is never mixed with it.  Rich is imported only
when a bar is really drawn.

    with progress_bar("batch", total=None, unit="turns", quiet=args.quiet) as bar:
        for item in items:
            ...
            bar.advance()
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import IO, Any


class ProgressBar:
    """Counts finished items; draws them only when a terminal is watching."""

    def __init__(self, description: str, total: int | None = None, unit: str = "items",
                 quiet: bool = False, stream: IO[str] | None = None) -> None:
        self.description = description
        self.total = total
        self.unit = unit
        self.done = 0
        self._stream = stream if stream is not None else sys.stderr
        self._shown = not quiet and _is_terminal(self._stream)
        self._rich: Any = None
        self._task: Any = None

    @property
    def shown(self) -> bool:
        """Whether a bar is drawn (a terminal, not quiet)."""
        return self._shown

    def __enter__(self) -> ProgressBar:
        if self._shown:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)

            columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TextColumn("{task.fields[rate]}"), TimeElapsedColumn()]
            if self.total is not None:  # a known total: the time left too
                columns += [TextColumn("ETA"), TimeRemainingColumn()]
            self._rich = Progress(*columns, console=Console(file=self._stream), transient=False)
            self._rich.__enter__()
            self._task = self._rich.add_task(self.description, total=self.total, rate="")
        return self

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self._rich is not None:
            task = self._rich.tasks[0]
            speed = task.finished_speed or task.speed
            rate = f"{speed:,.0f} {self.unit}/s" if speed else ""
            self._rich.update(self._task, advance=n, rate=rate)

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._rich is not None:
            self._rich.__exit__(exc_type, exc, tb)
            self._rich = None


def progress_bar(description: str, total: int | None = None, unit: str = "items", quiet: bool = False,
                 stream: IO[str] | None = None) -> ProgressBar:
    """A :class:`ProgressBar` to use as a context manager; see the module docstring."""
    return ProgressBar(description, total=total, unit=unit, quiet=quiet, stream=stream)


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed or not a real file
        return False
