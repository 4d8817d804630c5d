"""Files named inside requests: where such a path may point, and how the file is read.

A request may name a file of its own: a map, a board (a variant's request field).  The name is
either

* a **bundled name** (letters, digits, ``_`` and ``-`` only): a file shipped with dipsat, looked
  up in the variant's own list; or
* a **path**, which resolves against the folder of the file that names it -- never the current
  directory -- and must lie in that folder (or below it) or in a folder the user allows
  (``--allow-files DIR``; a relative path is then tried in each allowed folder in turn).  A
  request that is not a file of its own (a batch line, standard input, a library call) names
  only bundled files and files in the allowed folders.

The file must be a regular file (not a device, a pipe or a folder) of at most the request size
limit.  A path outside the folders is refused with the same words whether or not it exists, and
nothing of its content is read.

The rules in force are a :class:`FileAccess` value, set for a block with :func:`file_access`
(the command line sets one per request file and per batch line; a block inside another keeps
what it does not set).  Outside any block only bundled names are read.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import replace
from pathlib import Path
from typing import Optional

from dipsat.errors import NamedFileError
from dipsat.limits import DEFAULT_LIMITS, LimitExceeded
from dipsat.records import dataclass

BUNDLED_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True)
class FileAccess:
    """Where the paths inside a request may point."""

    origin: Optional[Path] = None
    """The file whose text names the paths (resolved); None: a batch line, standard input, a call."""
    allowed: tuple[Path, ...] = ()
    """Folders the user allows (resolved)."""
    max_bytes: int = DEFAULT_LIMITS.max_request_bytes
    """The largest file read."""

    def folders(self) -> tuple[Path, ...]:
        """The folders a path may lie in: the naming file's own, then the allowed ones."""
        return ((self.origin.parent,) if self.origin is not None else ()) + self.allowed


_ACCESS: ContextVar[FileAccess] = ContextVar("dipsat_file_access", default=FileAccess())


def current_access() -> FileAccess:
    return _ACCESS.get()


_KEEP = object()


def file_access(origin: "str | Path | None | object" = _KEEP, allowed: Optional[Iterable[str | Path]] = None,
                max_bytes: Optional[int] = None) -> "AccessBlock":
    """Set the rules for the paths named by requests in this block: ``origin`` the file that
    names them (None: no file), ``allowed`` the folders the user allows, ``max_bytes`` the
    largest file; what is not given stays as it is."""
    return AccessBlock(origin, allowed, max_bytes)


class AccessBlock:
    """The block of :func:`file_access` (a class, not a generator: ``batch`` enters one a line)."""

    __slots__ = ("origin", "allowed", "max_bytes", "token")

    def __init__(self, origin: "str | Path | None | object", allowed: Optional[Iterable[str | Path]],
                 max_bytes: Optional[int]) -> None:
        self.origin, self.allowed, self.max_bytes = origin, allowed, max_bytes

    def __enter__(self) -> FileAccess:
        origin, allowed, max_bytes = self.origin, self.allowed, self.max_bytes
        keep = origin is _KEEP
        resolved = None if keep or origin is None else Path(os.path.realpath(str(origin)))
        folders = None if allowed is None else tuple(Path(os.path.realpath(str(d))) for d in allowed)
        if not keep and folders is not None and max_bytes is not None:  # every rule given
            access = FileAccess(resolved, folders, max_bytes)
        else:
            access = _ACCESS.get()
            if not keep:
                access = replace(access, origin=resolved)
            if folders is not None:
                access = replace(access, allowed=folders)
            if max_bytes is not None:
                access = replace(access, max_bytes=max_bytes)
        self.token = _ACCESS.set(access)
        return access

    def __exit__(self, *exc: object) -> None:
        _ACCESS.reset(self.token)


@dataclass(frozen=True)
class NamedFile:
    name: str  # as the request wrote it
    path: Path  # where it was read
    text: str


def read_named(name: str, what: str, bundled: Mapping[str, Path]) -> NamedFile:
    """The file a request names ``name`` (its field ``what``, e.g. "map"), by the rules in
    force; ``bundled``: the bundled names and their files.  Errors are NamedFileErrors (too
    large: LimitExceeded) that quote ``name``."""
    path = locate(name, what, bundled)
    raw = read_regular(path, f"{what} {_quote(name)}", _ACCESS.get().max_bytes)
    try:
        return NamedFile(name, path, raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise NamedFileError(f"{what} {_quote(name)}: not UTF-8 text (byte {exc.start + 1})") from None


def locate(name: str, what: str, bundled: Mapping[str, Path]) -> Path:
    """Where the file named ``name`` is, by the rules in force (nothing is opened)."""
    known = ", ".join(sorted(bundled)) or "none"
    if BUNDLED_NAME.fullmatch(name):
        if name in bundled:
            return bundled[name]
        raise NamedFileError(f"{what} {_quote(name)}: no bundled {what} of that name (bundled: {known}); a file "
                             f"of your own is named by its path, e.g. {name}.toml beside the request")
    access = _ACCESS.get()
    folders = access.folders()
    if not folders:
        raise NamedFileError(f"{what} {_quote(name)}: a request that is not a file of its own (a batch line, "
                             f"standard input) names only a bundled {what} ({known}), unless the folders its files "
                             "may be in are given with --allow-files DIR")
    refused = NamedFileError(f"{what} {_quote(name)}: a path outside the folders a request may name (the "
                             "request file's folder and below, and any --allow-files folders)")
    if not name or "\x00" in name:
        raise refused
    p = Path(name)
    tries = [p] if p.is_absolute() else [f / p for f in folders]
    inside = [real for real in (Path(os.path.realpath(t)) for t in tries)
              if any(real == f or f in real.parents for f in folders)]
    if not inside:
        raise refused
    return next((real for real in inside if os.path.exists(real)), inside[0])


def read_regular(path: Path, label: str, max_bytes: int) -> bytes:
    """The bytes of the regular file ``path`` (at most ``max_bytes``); a device, pipe or folder is
    refused without reading from it (the file is opened without blocking, then checked)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise NamedFileError(f"{label}: cannot read {path}: {exc.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NamedFileError(f"{label}: {path} is not a regular file")
        if st.st_size > max_bytes:
            raise LimitExceeded(f"{label}: {st.st_size:,} bytes is more than the limit of {max_bytes:,} bytes")
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 16, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        raw = b"".join(chunks)
    finally:
        os.close(fd)
    if len(raw) > max_bytes:
        raise LimitExceeded(f"{label}: more than the limit of {max_bytes:,} bytes")
    return raw


def _quote(name: str, n: int = 80) -> str:
    return repr(name if len(name) <= n else name[:n] + "...")
