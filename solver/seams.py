"""Where the package root plugs the upper parts into the lower ones (dependency inversion).

The core is layers, each importing only those below it (ARCHITECTURE.md, "Layers").  Two things
a lower part needs live above it: the variant rooms (``dipsat.variants``, above the whole core),
which the registry (``dipsat.game.registry``) looks names up in, and the pictures
(``dipsat.face.render``), which the shared models' notebook display (``_repr_svg_``) draws.
This module holds a slot for each; the package root (``dipsat/__init__.py``, the composition
root, above everything) fills them with functions that import what they need on first use.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

# () -> the registered variants' entries (dipsat.game.registry.Entry values)
rooms: Callable[[], Sequence[Any]] | None = None

# picture kind ("svg", "html") -> function drawing a position or a result as that text (keyword
# options: those of dipsat.face.render.render_svg / render_html)
drawers: dict[str, Callable[..., str]] = {}
