"""The cases a page may load by name: the corpora and examples that ship with dipsat (the DATC
by its numbers, ``6.F.16``; the others as ``corpus/file``, ``examples/pandin``), and the files
and folders named on ``dipsat serve``'s command line.  Nothing else: a page names a case, never a
path, and the server reads only the files of this catalogue.

The bundled files are package data: in an installed dipsat they are ``dipsat/corpora/`` and
``dipsat/examples/`` (pyproject.toml maps ``tests/corpora`` and ``examples`` there); from a
source tree (an editable install) they are read where they are.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Optional

from dipsat.errors import DipsatError, InputFileError
from dipsat.limits import DEFAULT_LIMITS, Limits
from dipsat.records import dataclass


@dataclass(frozen=True)
class Entry:
    name: str  # what a page asks for
    path: Path
    title: str = ""
    variant: str = ""
    group: str = ""  # "datc", a corpus's name, "examples", "command line"


def bundled_folder(which: str) -> Optional[Path]:
    """Where the bundled ``corpora`` or ``examples`` are (None: not shipped with this install)."""
    here = Path(__file__).resolve().parents[2]  # the package dipsat (solver/ in a source tree)
    source = {"corpora": here.parent / "tests" / "corpora", "examples": here.parent / "examples"}[which]
    for folder in (here / which, source):
        if folder.is_dir():
            return folder
    return None


class Library:
    """The catalogue: every loadable case by name, with its title and variant."""

    def __init__(self, named: Iterable[str] = (), bundled: bool = True, limits: Limits = DEFAULT_LIMITS):
        self.limits = limits
        self.entries: dict[str, Entry] = {}
        if bundled:
            corpora = bundled_folder("corpora")
            for folder in sorted(corpora.iterdir()) if corpora else ():
                if folder.is_dir():
                    for f in sorted(folder.glob("*.toml")):
                        self._add(f, folder.name, f.stem if folder.name == "datc" else f"{folder.name}/{f.stem}")
            examples = bundled_folder("examples")
            for f in sorted(examples.glob("*.toml")) if examples else ():
                self._add(f, "examples", f"examples/{f.stem}")
        for given in named:
            p = Path(given)
            if p.is_dir():
                files = sorted(x for x in p.rglob("*") if x.suffix.lower() in (".toml", ".json") and x.is_file())
                for f in files:
                    self._add(f, "command line", str(f), strict=False)
            elif p.is_file():
                self._add(p, "command line", given, strict=True)
            else:
                raise DipsatError(f"{given}: no such file or folder")

    def _add(self, path: Path, group: str, name: str, strict: bool = False) -> None:
        """A case file in the catalogue, its id and title read now (a game of several phases or
        an unreadable file is left out, or refused when named on its own)."""
        try:
            data = self._read(path)
        except DipsatError:
            if strict:
                raise
            return
        if not isinstance(data, dict) or data.get("phase") == "game":
            if strict:
                raise DipsatError(f"{path}: a corpus case of several phases; the sandbox takes one phase "
                                  "(a saved game's phases load one by one)")
            return
        if "phases" in data:
            group = "games" if group != "command line" else group
        title = f"{data.get('id', '')} {data.get('title', '')}".strip()
        if group == "datc" and isinstance(data.get("id"), str):
            name = data["id"]  # 6.F.16, as the DATC numbers it (the file is 6.F.16.toml, or 6.A.01.toml)
        self.entries[name] = Entry(name, path, title, str(data.get("variant") or "standard"), group)

    def _read(self, path: Path) -> Any:
        from dipsat.game.request import read_data_file

        return read_data_file(path, self.limits)

    def listing(self) -> list[dict[str, str]]:
        return [{"name": e.name, "title": e.title, "variant": e.variant, "group": e.group} for e in self.entries.values()]

    def load(self, name: str) -> tuple[Any, Entry, Optional[str]]:
        """The data of the case called ``name`` (read now, within the limits), and the phase it
        names (a saved game's: ``examples/game@F1901M``)."""
        phase = None
        if isinstance(name, str) and name.strip() not in self.entries and "@" in name:
            name, _, phase = name.strip().rpartition("@")
        entry = self.entries.get(name.strip()) if isinstance(name, str) else None
        if entry is None:
            near = [n for n in self.entries if isinstance(name, str) and name.strip().lower() in n.lower()][:8]
            raise InputFileError(f"no case called {name!r}" + (f"; did you mean: {', '.join(near)}" if near else
                                                               " (the DATC by number, e.g. 6.F.16; others as corpus/file)"))
        return self._read(entry.path), entry, phase
