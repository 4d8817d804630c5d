"""Where results go: standard output and the files a command writes, with errors that name them.

A full disk, a file over the size limit or a folder that is not there is the output's fault,
never the input's: every write goes through :class:`Output` (a text stream whose OS errors
become an :class:`~dipsat.errors.OutputError` naming the output and the OS's reason; the
command line exits with status 2) or :func:`write_file` (a whole file: written beside the
target and renamed over it, so what was there before stays intact when writing fails).  A
closed pipe (``| head``) is not an error: :class:`BrokenPipeError` passes through.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from dipsat.errors import OutputError


class Output:
    """A text stream whose write errors name it (``name``: a path, or "standard output")."""

    def __init__(self, stream: IO[str], name: str) -> None:
        self.stream = stream
        self.name = name

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self.error(exc) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self.error(exc) from None

    def close(self) -> None:
        try:
            self.stream.close()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self.error(exc) from None

    def error(self, exc: OSError) -> OutputError:
        return OutputError(f"{self.name}: cannot write: {exc.strerror or exc}", stdout=self.stream is sys.__stdout__)

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding, ...: the stream's own
        return getattr(self.stream, name)


@contextmanager
def guarded_stdout() -> Iterator[Output]:
    """``sys.stdout`` as an :class:`Output` for the block (print() errors name standard output);
    flushed at the end of the block, so a full disk is found while the command can still say so."""
    real = sys.stdout
    out = Output(real, "standard output")
    sys.stdout = out
    try:
        yield out
        out.flush()
    finally:
        sys.stdout = real


def discard_stdout() -> None:
    """After standard output failed (full, or a closed pipe): point it at /dev/null, so the
    interpreter's last flush of what is still buffered does not fail again at exit."""
    if sys.__stdout__ is None:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass


def write_file(path: str | Path, text: str) -> None:
    """Write ``text`` to the file ``path`` whole, or fail with an OutputError naming it and
    leave what was there intact: a regular file (or a new one) is written beside it and renamed
    over it; anything else that exists (a device, a pipe) is written directly."""
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise OutputError(f"{p}: cannot write: {exc.strerror}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{p}: cannot write: it is a folder")
    if st is not None and not stat.S_ISREG(st.st_mode):
        try:
            with open(p, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            raise OutputError(f"{p}: cannot write: {exc.strerror}") from None
        return
    tmp = p.with_name(f".{p.name}.{os.getpid()}.part")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, p)
    except OSError as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise OutputError(f"{p}: cannot write: {exc.strerror}") from None
