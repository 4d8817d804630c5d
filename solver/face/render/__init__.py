"""Pictures of a turn: an SVG map of the position, every order drawn and coloured by outcome.

A map whose ``[layout]`` says ``shapes = true`` (the standard board) is drawn as province shapes
computed from its own points and adjacency (:mod:`dipsat.maps.shapes`; no artwork): seas pale
blue, coastal and inland provinces in two shades of land, Switzerland grey, each supply centre
tinted in its owner's colour; labels, coasts and supply-centre dots as below.  Any other map is
drawn as a schematic of its graph, not map artwork: each province is a node at the
point its map file gives in ``[layout]`` (or an automatic networkx layout for maps without one),
land and sea told apart by colour and shape, adjacency drawn as faint lines, supply centres as
small dots coloured by owner (at the opening of a game, a position of the first year that gives
no owners: each power's home centres), each province's label placed beside its node where it
meets no node, dot, coast (room for a ringed fleet), other label or edge.  On top of it:

* units as tokens in their power's colour with the unit kind's letter and, for stacks, the count;
* moves as arrows (the two of a head-to-head side by side; a move the result says went, or tried
  to go, by convoy as a long-dashed arrow through its convoying fleets, whatever its text says),
  supports as dashed lines ending on the supported move (or ringing the supported unit), convoys
  as dotted rings around the fleets on that route (a convoy of no such move: dotted lines from the
  army through the fleet to the destination), holds as rings around the unit;
* green for an order that succeeded, red for one that failed, grey for one that could not be used
  (invalid or illegal: the unit held); every order carries an SVG ``<title>`` with its text, its
  result and the reason, culprit included, which a browser shows on hover;
* dislodged units crossed in red, retreat options as purple dashed arrows, retreats, builds and
  disbands of the later phases.

The module knows no variant.  What a variant wants drawn beyond that (province badges such as
capacities, extra notes in the legend, other unit labels) it supplies through
the ``render_hints`` hook of its record, which returns a :class:`RenderHints`.

Entry points: :func:`render_svg` (a result or a position), :func:`render_request` (a request
file, adjudicated first), :func:`svg_to_png` (needs a converter: cairosvg, rsvg-convert or a
headless Chromium).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional
from xml.sax.saxutils import escape

from dipsat.models import Position
from dipsat.outcomes import Outcome
from dipsat.face.render.geometry import fit_and_spread, power_colours
from dipsat.face.render.png import find_browser, png_converters, screenshot, svg_size, svg_to_png
from dipsat.face.render.scene import COLOURS, RenderError, Scene, outcome_status, scene_of
from dipsat.game.variant import RenderHints
from dipsat.face.render.svg import base_layer, legend_svg, render_scene, shared_defs

if TYPE_CHECKING:
    from dipsat.game.variant import Variant

__all__ = ["COLOURS", "RenderError", "RenderHints", "Scene", "base_layer", "default_title", "find_browser",
           "fit_and_spread", "legend_svg", "outcome_table", "png_converters", "power_colours", "render_html",
           "render_request", "render_scene", "render_svg", "scene_of", "screenshot", "shared_defs", "svg_size",
           "svg_to_png", "variant_of"]


# -- entry points -----------------------------------------------------------------------------


def variant_of(obj: Any) -> "Variant":
    """The variant record a picture of ``obj`` is drawn by: the one a phase result was
    adjudicated by (``result.variant``); only a bare position, which names its variant and
    nothing more, is looked up by that name."""
    if not isinstance(obj, Position):
        recorded: Optional[Variant] = getattr(obj, "variant", None)
        if recorded is not None:
            return recorded
    from dipsat.game.registry import find_variant

    pos = obj if isinstance(obj, Position) else obj.position
    return find_variant(pos.variant)


def default_title(obj: Any, variant: Optional["Variant"] = None) -> str:
    pos: Position = obj if isinstance(obj, Position) else obj.position
    variant = variant or variant_of(obj)
    date = " ".join(str(x) for x in ((pos.season or "").capitalize(), pos.year) if x)
    phase = ("retreats" if hasattr(obj, "movement") else "movement" if getattr(obj, "orders", ())
             else "" if isinstance(obj, Position) else "adjustments")
    return " — ".join(x for x in (variant.map.title, date, phase) if x)


def render_svg(obj: Any, title: Optional[str] = None, crop: bool = False, shared: bool = False,
               variant: Optional["Variant"] = None) -> str:
    """An SVG picture of a position or of a movement, retreat or adjustment result; ``crop``
    shows only the part of the map its units and orders are in.  The variant is the one the
    result records (``variant`` given: that one, e.g. for a position of a game in play)."""
    variant = variant or variant_of(obj)
    scene = scene_of(obj, variant.map, title if title is not None else default_title(obj, variant))
    scene.hints = variant.render_hints(scene.position) or RenderHints()
    return render_scene(scene, variant.map.drawing().colours, crop=crop, shared=shared)


def outcome_table(obj: Any) -> str:
    """An HTML table of the orders and outcomes of a result (empty for a position)."""
    rows: list[tuple[str, Outcome]] = []
    movement = getattr(obj, "movement", None)
    if movement is not None:
        rows += [("movement", o) for o in movement.outcomes]
        rows += [("retreat", o) for o in obj.outcomes]
    elif not isinstance(obj, Position):
        rows += [("", o) for o in obj.outcomes]
    if not rows:
        return ""
    out = ['<table class="dipsat-outcomes"><thead><tr><th>power</th><th>order</th><th>result</th><th>why</th></tr></thead><tbody>']
    for phase, o in rows:
        colour = COLOURS[outcome_status(o)]
        out.append(f'<tr><td>{escape(o.power)}</td><td>{escape(o.text)}{" <i>(" + phase + ")</i>" if phase == "retreat" else ""}</td>'
                   f'<td style="color:{colour};font-weight:bold">{escape(o.result.replace("_", " "))}</td>'
                   f"<td>{escape(o.reason)}</td></tr>")
    out.append("</tbody></table>")
    return "".join(out)


def render_html(obj: Any, title: Optional[str] = None) -> str:
    """The map and, for a result, the table of its orders and outcomes (for notebooks)."""
    return f'<div class="dipsat">{render_svg(obj, title)}{outcome_table(obj)}</div>'


def render_request(path: str | Path, title: Optional[str] = None, **overrides: Any) -> str:
    """Read a request (or corpus case) file, adjudicate it and draw the result."""
    from dipsat.game.api import adjudicate, load_request

    req = load_request(path)
    for k, v in overrides.items():
        setattr(req, k, v)
    return render_svg(adjudicate(req), title)
