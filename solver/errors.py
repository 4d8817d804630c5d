"""The project's documented errors.  All are ``ValueError`` subclasses whose message quotes the
offending input and says what was expected, and where (file, line, field) when known."""

from __future__ import annotations

from typing import ClassVar, Literal


class DipsatError(ValueError):
    """Base class of every error dipsat raises on bad input."""


class OrderError(DipsatError):
    """An order that cannot be used.  ``unit``: the unit of the position it was meant for, when
    known (the binder then reports the rejection against that unit)."""

    severity: ClassVar[Literal["invalid", "illegal", "ambiguous"]] = "invalid"

    def __init__(self, text: str, reason: str, column: int | None = None, unit: int | None = None,
                 quote: str | None = None):
        self.text = text
        self.reason = reason
        self.column = column
        self.unit = unit
        where = f" (at column {column + 1})" if column is not None else ""
        # ``quote``: the text as the message shows it, when not whole (a text too long to repeat)
        super().__init__(f"{self.severity} order {text if quote is None else quote!r}{where}: {reason}")


class InvalidOrder(OrderError):
    """The text is not understood as an order."""

    severity = "invalid"


class IllegalOrder(OrderError):
    """The order is understood but not allowed here (no such unit, unreachable, ...)."""

    severity = "illegal"


class AmbiguousOrder(OrderError):
    """The order has several readings (e.g. a missing coast with two choices)."""

    severity = "ambiguous"


class PositionError(DipsatError):
    """A position is impossible or malformed (unknown province, unit where it cannot stand...)."""


class InputFileError(DipsatError):
    """A file (position, corpus case, batch line) is broken."""


class NamedFileError(DipsatError):
    """A file named inside a request (a map, a board) is refused or cannot be read: outside the
    folders a request may name, not a regular file, or not there (:mod:`dipsat.io.files`)."""


class InvalidRequest(InputFileError):
    """A request whose fields are not those of its game (a missing or unknown field, a wrong type)."""


class OutputError(DipsatError):
    """An output cannot be written (a full disk, a file over the size limit, a folder that is not
    there): the output's fault, never the input's.  ``stdout``: it was the process's standard
    output (:mod:`dipsat.io.outputs`)."""

    def __init__(self, message: str, stdout: bool = False) -> None:
        super().__init__(message)
        self.stdout = stdout


class SolverError(DipsatError):
    """The solver could not adjudicate (time limit, inconsistent verification)."""
