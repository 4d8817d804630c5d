"""The ``dipsat`` program loads no pydantic plugins, unless asked to, and pays nothing for that.

Pydantic looks for plugins (the ``pydantic`` entry points of every installed distribution) when it
builds its first schema: it imports :mod:`importlib.metadata` (with :mod:`email`, :mod:`csv`,
:mod:`zipfile`, ...) and reads every distribution's metadata, about 60 M instructions -- 7 % of
a cold ``dipsat adjudicate`` -- to find none.  A pydantic plugin observes validations (for
tracing); the program has no use for one.  So :func:`skip_pydantic_plugins`, called by
:func:`dipsat.face.cli.run` (the program, not ``import dipsat``: a library user's process keeps
pydantic's own behaviour), sets pydantic's documented switch ``PYDANTIC_DISABLE_PLUGINS=__all__``
unless the environment sets that variable already (``PYDANTIC_DISABLE_PLUGINS=`` -- empty -- runs
the program with whatever plugins are installed, as pydantic does by default).

With plugins switched off, pydantic's plugin loader (``pydantic.plugin._loader``) still imports
``entry_points`` from :mod:`importlib.metadata` when it is first imported.  While the switch is
off, that one import is deferred (:func:`defer_if_plugins_off`): the loader is given a stand-in
``entry_points`` that imports the real module when it is called (with the switch off, it never
is); :mod:`importlib.metadata` itself is untouched, and any other importer gets the real module.
``import dipsat`` defers it too where the environment switches plugins off -- the processes the
program starts (a batch's forkserver and workers, Dask's) inherit the switch -- which changes
nothing but when that module is imported.
"""

from __future__ import annotations

import os
import sys
import types
from typing import Any, Optional, Sequence

SWITCH = "PYDANTIC_DISABLE_PLUGINS"
_ALL_OFF = ("__all__", "1", "true")  # the values by which pydantic loads no plugin at all
_LOADER = "pydantic.plugin._loader"
_METADATA = "importlib.metadata"


def skip_pydantic_plugins() -> None:
    """Switch pydantic's plugins off for this process (and the processes it starts) unless the
    environment says otherwise, and, if they are off, defer the import that only looking for
    them needs."""
    os.environ.setdefault(SWITCH, "__all__")
    defer_if_plugins_off()


def defer_if_plugins_off() -> None:
    """If the environment switches pydantic's plugins off, defer the import that only looking
    for them needs (until pydantic's plugin loader is imported: then it is too late)."""
    if os.environ.get(SWITCH) in _ALL_OFF and _LOADER not in sys.modules and _DeferredMetadata not in sys.meta_path:
        sys.meta_path.insert(0, _DeferredMetadata)


def _entry_points(**params: Any) -> Any:
    """:func:`importlib.metadata.entry_points`, imported when it is called."""
    from importlib.metadata import entry_points

    return entry_points(**params)


class _DeferredMetadata:
    """A finder of one module, pydantic's plugin loader: found by the other finders, and run with
    a stand-in for :mod:`importlib.metadata` that has only ``entry_points`` (the one name it
    imports), unless the real module is imported already.  It removes itself when it is used."""

    @classmethod
    def find_spec(cls, name: str, path: Optional[Sequence[str]] = None, target: Any = None) -> Any:
        if name != _LOADER:
            return None
        if cls in sys.meta_path:
            sys.meta_path.remove(cls)
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find is not None else None
            if spec is not None:
                break
        else:
            return None
        if spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _Loader(spec.loader)
        return spec


class _Loader:
    """The plugin loader's own loader, running it with the stand-in module in place."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: Any) -> Any:
        return self.loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__loader__ = self.loader  # (the module's own loader from now on: source, reloading)
        if module.__spec__ is not None:
            module.__spec__.loader = self.loader
        if _METADATA in sys.modules:
            self.loader.exec_module(module)
            return
        stand_in = types.ModuleType(_METADATA, "importlib.metadata as pydantic's plugin loader imports it: "
                                               "only entry_points, imported when called")
        setattr(stand_in, "entry_points", _entry_points)
        sys.modules[_METADATA] = stand_in
        try:
            self.loader.exec_module(module)
        finally:
            if sys.modules.get(_METADATA) is stand_in:
                del sys.modules[_METADATA]
