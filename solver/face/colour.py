"""Colour for outcomes on a terminal: ``ok`` green, ``FAIL`` red, phase headings bold — and
plain text when standard output is not a terminal (piped, redirected, a file), when ``NO_COLOR``
is set (https://no-color.org) or when ``TERM`` is ``dumb``; ``FORCE_COLOR`` forces it on.
Plain ANSI escapes: nothing is imported, so a command starts as fast either way.

    >>> paint("  ok   A Par - Bur", on=True) == "  \\x1b[32mok\\x1b[0m   A Par - Bur"
    True
"""

from __future__ import annotations

import os
import re
import sys
from typing import IO, Optional

_GREEN, _RED, _BOLD, _RESET = "\x1b[32m", "\x1b[31m", "\x1b[1m", "\x1b[0m"
_MARK = re.compile(r"^(\s*)(ok|pass|FAIL)(?=\s)", re.M)
_HEADING = re.compile(r"^(== .* ==)$", re.M)


def colour_on(stream: Optional[IO[str]] = None) -> bool:
    """Whether to colour what goes to ``stream`` (default standard output)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    stream = sys.stdout if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def paint(text: str, on: Optional[bool] = None) -> str:
    """``text`` with its outcome marks and headings coloured, when colour is on."""
    if not (colour_on() if on is None else on):
        return text
    text = _MARK.sub(lambda m: f"{m.group(1)}{_RED if m.group(2) == 'FAIL' else _GREEN}{m.group(2)}{_RESET}", text)
    return _HEADING.sub(lambda m: f"{_BOLD}{m.group(1)}{_RESET}", text)
