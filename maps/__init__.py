"""Map data: provinces, coasts, terrain, adjacency, supply centres, home centres, start position.

Maps are TOML files in this folder (format: ``maps/FORMAT.md``).  :func:`load_map` reads one,
validates it (symmetric adjacency, no unknown ids, no dangling coasts, terrain-consistent
adjacency) and returns a :class:`GameMap` holding the adjacency of armies and fleets (as sets,
and as networkx graphs built on first use: networkx is not imported to adjudicate a turn).

A *location* is where a unit stands: a province id (``"par"``) or, on a province with several
coasts, a coast id (``"spa/nc"``).  Armies always stand on province ids; fleets stand on sea
provinces, single-coast provinces or coast ids.

This package knows nothing of orders, rules or the solver.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Iterable, Optional

from pydantic import BaseModel, ValidationError

from dipsat.records import dataclass

if TYPE_CHECKING:
    import networkx as nx

MAP_DIR = Path(__file__).resolve().parent

TERRAINS = ("land", "coast", "sea", "impassable")


class MapError(ValueError):
    """A map file is broken; the message names the file and the offending entry."""


@dataclass(frozen=True)
class Coast:
    id: str  # "spa/nc"
    province: str  # "spa"
    name: str  # "north coast"


@dataclass(frozen=True)
class Province:
    id: str
    name: str
    terrain: str
    aliases: tuple[str, ...] = ()
    supply_centre: bool = False
    coasts: tuple[str, ...] = ()  # coast location ids, empty for single-coast provinces
    # the variant's own per-province fields (continents, capacities, ports...), validated by the
    # schema the variant supplies to :func:`load_map`; None when the map has none
    extra: Any = None

    @property
    def is_sea(self) -> bool:
        return self.terrain == "sea"

    @property
    def passable(self) -> bool:
        return self.terrain != "impassable"


@dataclass(frozen=True)
class Power:
    name: str
    adjective: str
    home: tuple[str, ...]
    start: tuple[tuple[str, str], ...]  # (kind letter, location)


@dataclass(frozen=True)
class Layout:
    """Where a map is drawn: a point per province (and per coast), in a ``size`` = (width,
    height) drawing with the origin at the top left.  ``automatic`` marks a layout computed by
    :func:`auto_layout` rather than read from the map file."""

    size: tuple[float, float]
    at: dict[str, tuple[float, float]]
    automatic: bool = False
    colours: dict[str, str] = field(default_factory=dict)  # power -> "#rrggbb"
    shapes: bool = False  # the points are a planar drawing that province shapes are computed from

    def point(self, location: str) -> tuple[float, float]:
        """The point of a location; a coast without its own point is drawn at its province."""
        hit = self.at.get(location)
        if hit is None:
            hit = self.at[location.split("/", 1)[0]]
        return hit


@dataclass(frozen=True)
class Source:
    """Where a map's facts come from: a name (title, author, licence) and a URL when it has one.
    Never a path on someone's machine."""

    name: str
    url: str = ""


@dataclass
class GameMap:
    """A validated map.  Read-only after :func:`load_map`."""

    name: str
    title: str
    start_year: int
    provinces: dict[str, Province]
    coasts: dict[str, Coast]
    powers: dict[str, Power]
    army_nodes: tuple[str, ...]  # provinces an army may be in (land, coast, impassable)
    army_edges: tuple[tuple[str, str], ...]  # in the order of the file
    fleet_nodes: tuple[str, ...]  # fleet locations: seas, single-coast provinces, coasts
    fleet_edges: tuple[tuple[str, str], ...]
    source: str = ""  # the file it was loaded from
    sources: tuple[Source, ...] = ()  # where its facts come from (the file's [[sources]])
    layout: Optional[Layout] = None  # drawing coordinates from the file's [layout], if any
    _army_adj: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    _fleet_adj: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    _names: dict[str, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._army_adj = _adjacency(self.army_nodes, self.army_edges)
        self._fleet_adj = _adjacency(self.fleet_nodes, self.fleet_edges)
        names: dict[str, str] = {}
        for p in self.provinces.values():
            for key in (p.id, p.name, *p.aliases):
                names.setdefault(normalise_name(key), p.id)
        self._names = names

    @cached_property
    def army_graph(self) -> nx.Graph:
        """Army adjacency as a networkx graph (built, and networkx imported, on first use)."""
        return _graph(self.army_nodes, self.army_edges)

    @cached_property
    def fleet_graph(self) -> nx.Graph:
        return _graph(self.fleet_nodes, self.fleet_edges)

    # -- locations -----------------------------------------------------------------------
    @staticmethod
    def province_of(location: str) -> str:
        return location.split("/", 1)[0]

    def is_fleet_location(self, location: str) -> bool:
        return location in self._fleet_adj

    def is_army_location(self, location: str) -> bool:
        return location in self._army_adj and self.provinces[location].terrain in ("land", "coast")

    def army_neighbours(self, location: str) -> frozenset[str]:
        return self._army_adj.get(location, frozenset())

    def fleet_neighbours(self, location: str) -> frozenset[str]:
        return self._fleet_adj.get(location, frozenset())

    def neighbours(self, kind: str, location: str) -> frozenset[str]:
        return self.army_neighbours(location) if kind == "A" else self.fleet_neighbours(location)

    def passable(self, province: str) -> bool:
        return self.provinces[province].passable

    def fleet_locations_in(self, province: str) -> tuple[str, ...]:
        """The locations a fleet may stand on in a province: its coasts, or itself."""
        p = self.provinces[province]
        if p.coasts:
            return p.coasts
        return (province,) if province in self._fleet_adj else ()

    def can_reach_province(self, kind: str, location: str, province: str) -> bool:
        """Can a unit of ``kind`` at ``location`` move (without convoy) into ``province``?"""
        return province in (self._army_reach if kind == "A" else self._fleet_reach).get(location, ())

    @cached_property
    def _army_reach(self) -> dict[str, frozenset[str]]:
        """Army location -> the passable provinces next to it (made once: the order checks ask
        this of every move and support)."""
        return {loc: frozenset(n for n in adj if self.passable(n)) for loc, adj in self._army_adj.items()}

    @cached_property
    def _fleet_reach(self) -> dict[str, frozenset[str]]:
        """Fleet location -> the passable provinces of its neighbouring locations."""
        return {loc: frozenset(q for n in adj if self.passable(q := self.province_of(n)))
                for loc, adj in self._fleet_adj.items()}

    def fleet_coasts_reachable(self, location: str, province: str) -> tuple[str, ...]:
        """The locations of ``province`` a fleet at ``location`` borders (sorted)."""
        return self._fleet_coasts.get(location, {}).get(province, ())

    @cached_property
    def _fleet_coasts(self) -> dict[str, dict[str, tuple[str, ...]]]:
        """Fleet location -> neighbouring province -> its locations there (sorted)."""
        out: dict[str, dict[str, tuple[str, ...]]] = {}
        for loc, adj in self._fleet_adj.items():
            by: dict[str, list[str]] = {}
            for n in adj:
                by.setdefault(self.province_of(n), []).append(n)
            out[loc] = {prov: tuple(sorted(ns)) for prov, ns in by.items()}
        return out

    def lookup_province(self, text: str) -> str | None:
        return self._names.get(normalise_name(text))

    def name_table(self) -> dict[str, str]:
        """Normalised name or alias -> province id (for parsers)."""
        return dict(self._names)

    def supply_centres(self) -> list[str]:
        return sorted(p.id for p in self.provinces.values() if p.supply_centre)

    @cached_property
    def shapes(self) -> Optional[dict[str, tuple[tuple[float, float], ...]]]:
        """Each province's shape (a polygon in the layout's units) when the map's ``[layout]``
        says ``shapes = true``, computed from its points and adjacency (:mod:`dipsat.maps.shapes`);
        None otherwise.  Raises :class:`MapError` naming what keeps the points from carrying
        shapes, or a coast whose point lies outside its province's shape."""
        if self.layout is None or not self.layout.shapes:
            return None
        from dipsat.maps.shapes import ShapeError, inside, province_edges, province_shapes

        points = {p: self.layout.at[p] for p in self.provinces}
        try:
            out = province_shapes(points, province_edges((*self.army_edges, *self.fleet_edges)), self.layout.size)
        except ShapeError as exc:
            raise _err(self.source, "[layout] shapes", str(exc)) from None
        for cid, coast in sorted(self.coasts.items()):
            if cid in self.layout.at and not inside(self.layout.at[cid], out[coast.province]):
                raise _err(self.source, f"[layout.at] {cid}", f"the point of coast {cid!r} lies outside the shape of {coast.province!r}")
        return out

    def drawing(self) -> Layout:
        """The map's layout from its file, or an automatic one (any map can be drawn)."""
        return self.layout if self.layout is not None else auto_layout(self)

    def display(self, location: str) -> str:
        """``spa/nc`` -> ``Spa/nc``: the short form used in output."""
        hit = self._displays.get(location)
        return hit if hit is not None else _display(location)

    @cached_property
    def _displays(self) -> dict[str, str]:
        """:meth:`display` of every province and coast of the map, made once."""
        return {loc: _display(loc) for loc in (*self.provinces, *self.coasts)}


def _display(location: str) -> str:
    prov, _, coast = location.partition("/")
    return prov.capitalize() + (f"/{coast}" if coast else "")


def _adjacency(nodes: tuple[str, ...], edges: tuple[tuple[str, str], ...]) -> dict[str, frozenset[str]]:
    adj: dict[str, set[str]] = {n: set() for n in nodes}
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    return {n: frozenset(ns) for n, ns in adj.items()}


def _graph(nodes: tuple[str, ...], edges: tuple[tuple[str, str], ...]) -> nx.Graph:
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(nodes)
    g.add_edges_from(edges)
    return g


def normalise_name(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").replace("+", " ").replace(".", ". ").split())


# --------------------------------------------------------------------------------------------
# loading and validation


def _err(path: str, where: str, what: str) -> MapError:
    return MapError(f"{path}: {where}: {what}")


def load_map(name_or_path: str | Path, changes: Iterable[dict[str, Any]] = (),
             province_schema: Optional[type[BaseModel]] = None) -> GameMap:
    """Load a map by name (a file ``maps/<name>.toml``) or by path, and validate it.

    ``changes`` are dictionaries merged over the raw data before validation (variants use this
    to describe their board as a change to another map rather than a copy).
    ``province_schema``: the variant's model of its own per-province fields; keys of a
    province table beyond the core's are validated by it (each province's ``extra``).  Without
    one, such keys are an error.
    """
    path = Path(name_or_path)
    if not path.suffix:
        path = MAP_DIR / f"{name_or_path}.toml"
    try:
        raw = read_map_file(path)
    except FileNotFoundError:
        raise MapError(f"{path}: no such map file") from None
    except _toml().TOMLDecodeError as exc:  # (looked up only when something was raised)
        raise MapError(f"{path}: not valid TOML: {exc}") from None
    base = raw.pop("base", None)
    if base is not None:  # a map written as a change to another map
        if not isinstance(base, str) or Path(base).suffix or base == Path(path).stem:
            raise MapError(f"{path}: base must name another map of maps/, e.g. base = \"standard\"")
        try:
            base_raw = read_map_file(MAP_DIR / f"{base}.toml")
        except FileNotFoundError:
            raise MapError(f"{path}: base map {base!r} not found") from None
        raw = _merge(base_raw, raw)
    for change in changes:
        raw = _merge(raw, change)
    return build_map(raw, str(path), province_schema)


SNAPSHOT_DIR = MAP_DIR / "snapshots"


def read_map_file(path: Path) -> Any:
    """A map file's data.  A map of this folder is read from its snapshot (``snapshots/<name>.json``,
    :mod:`dipsat.maps.snapshot`: the same data as JSON, read in a fraction of the time TOML takes)
    when the snapshot was made from this very text (its SHA-256); any other file, or a map edited
    since its snapshot, is parsed as TOML."""
    text = path.read_text(encoding="utf-8")
    if path.parent == MAP_DIR:
        try:
            snap = json.loads((SNAPSHOT_DIR / f"{path.stem}.json").read_bytes())
        except FileNotFoundError:
            snap = None
        if isinstance(snap, dict) and snap.get("toml_sha256") == text_sha256(text):
            return snap["map"]
    return _toml().loads(text)


def _toml() -> ModuleType:
    """The TOML reader, imported when a map is read from its TOML text (a bundled map is read from
    its JSON snapshot)."""
    import tomllib

    return tomllib


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _merge(base: Any, change: Any) -> Any:
    if isinstance(base, dict) and isinstance(change, dict):
        out = dict(base)
        for k, v in change.items():
            out[k] = _merge(base[k], v) if k in base else v
        return out
    return change


PROVINCE_KEYS = frozenset({"name", "aliases", "terrain", "supply_centre", "army", "fleet", "coasts"})


def _extra(path: str, where: str, data: dict[str, Any], schema: Optional[type[BaseModel]]) -> Any:
    """The province's fields beyond the core's, validated by the variant's schema."""
    if schema is None:
        if data:
            raise _err(path, where, f"unknown key(s) {sorted(data)} (this map's variant declares no per-province fields)")
        return None
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        parts = [f"{'.'.join(str(x) for x in e['loc']) or '(fields)'}: {e['msg']}" for e in exc.errors()]
        raise _err(path, where, "; ".join(parts)) from None


def _sources(path: str, data: Any) -> tuple[Source, ...]:
    if data is None:
        return ()
    if not isinstance(data, list):
        raise _err(path, "sources", "must be a list of tables: [[sources]] name = ..., url = ...")
    out = []
    for i, item in enumerate(data, start=1):
        where = f"sources[{i}]"
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"].strip():
            raise _err(path, where, "a source needs a name (and a url when it has one)")
        url = item.get("url", "")
        if not isinstance(url, str) or (url and not url.startswith(("https://", "http://"))):
            raise _err(path, where, f"url {url!r} must be a web address (https://...), not a path")
        unknown = set(item) - {"name", "url", "licence", "note"}
        if unknown:
            raise _err(path, where, f"unknown key(s) {sorted(unknown)}")
        for text in (item["name"], *(str(item[k]) for k in ("licence", "note") if k in item)):
            if re.search(r"(^|\s)(/|\.\./|~/)\S", text):
                raise _err(path, where, f"{text!r} cites a path on someone's machine; cite a name and a URL")
        out.append(Source(name=item["name"], url=url))
    return tuple(out)


def build_map(raw: dict[str, Any], path: str = "<map>", province_schema: Optional[type[BaseModel]] = None) -> GameMap:
    provinces: dict[str, Province] = {}
    coasts: dict[str, Coast] = {}
    army_edges: dict[str, list[str]] = {}
    fleet_edges: dict[str, list[str]] = {}
    for key in ("name", "provinces", "powers"):
        if key not in raw:
            raise _err(path, "top level", f"missing required key {key!r}")
    for pid, pdata in raw["provinces"].items():
        where = f"[provinces.{pid}]"
        if not isinstance(pdata, dict):
            raise _err(path, where, "must be a table")
        if pid != pid.lower() or "/" in pid or not pid:
            raise _err(path, where, "province ids are lower case and contain no '/'")
        extra = _extra(path, where, {k: v for k, v in pdata.items() if k not in PROVINCE_KEYS}, province_schema)
        terrain = pdata.get("terrain")
        if terrain not in TERRAINS:
            raise _err(path, where, f"terrain {terrain!r} is not one of {TERRAINS}")
        coast_ids = []
        for cid, cdata in (pdata.get("coasts") or {}).items():
            loc = f"{pid}/{cid}"
            if terrain != "coast":
                raise _err(path, where, f"coast {cid!r} on a province whose terrain is {terrain}")
            coasts[loc] = Coast(loc, pid, str(cdata.get("name", cid)))
            coast_ids.append(loc)
            fleet_edges[loc] = list(cdata.get("fleet", []))
        if coast_ids and "fleet" in pdata:
            raise _err(path, where, "a province with coasts lists fleet adjacency per coast only")
        provinces[pid] = Province(
            id=pid,
            name=str(pdata.get("name", pid)),
            terrain=terrain,
            aliases=tuple(pdata.get("aliases", [])),
            supply_centre=bool(pdata.get("supply_centre", False)),
            coasts=tuple(sorted(coast_ids)),
            extra=extra,
        )
        army_edges[pid] = list(pdata.get("army", []))
        if "fleet" in pdata:
            fleet_edges[pid] = list(pdata["fleet"])
        elif terrain in ("sea",) or (terrain == "coast" and not coast_ids):
            fleet_edges.setdefault(pid, [])

    army_nodes = tuple(pid for pid, p in provinces.items() if p.terrain in ("land", "coast", "impassable"))
    fleet_nodes = tuple(fleet_edges)
    army_pairs: list[tuple[str, str]] = []
    fleet_pairs: list[tuple[str, str]] = []

    for pid, nbs in army_edges.items():
        where = f"[provinces.{pid}] army"
        if nbs and provinces[pid].terrain == "sea":
            raise _err(path, where, "a sea province has no army adjacency")
        for n in nbs:
            if n not in provinces:
                raise _err(path, where, f"unknown province {n!r}")
            if provinces[n].terrain == "sea":
                raise _err(path, where, f"{n!r} is a sea: armies cannot border it")
            if pid not in army_edges.get(n, []):
                raise _err(path, where, f"{pid}->{n} is not symmetric: [provinces.{n}] army lacks {pid!r}")
            army_pairs.append((pid, n))
    for loc, nbs in fleet_edges.items():
        where = f"fleet adjacency of {loc!r}"
        for n in nbs:
            if n not in fleet_edges:
                prov = n.split("/")[0]
                if prov in provinces and provinces[prov].coasts:
                    raise _err(path, where, f"{n!r} has several coasts: name one of {list(provinces[prov].coasts)}")
                if "/" in n:
                    raise _err(path, where, f"dangling coast {n!r}")
                raise _err(path, where, f"{n!r} is not a fleet location (unknown, land-locked or impassable)")
            if loc not in fleet_edges[n]:
                raise _err(path, where, f"{loc}->{n} is not symmetric: {n!r} lacks {loc!r}")
            fleet_pairs.append((loc, n))

    powers: dict[str, Power] = {}
    for name, pdata in raw["powers"].items():
        where = f"[powers.{name}]"
        home = tuple(pdata.get("home", []))
        for h in home:
            if h not in provinces:
                raise _err(path, where, f"home centre {h!r} is not a province")
        start = []
        for u in pdata.get("start", []):
            parts = str(u).split()
            if len(parts) != 2 or len(parts[0]) != 1 or not parts[0].isupper():
                raise _err(path, where, f"start unit {u!r} must be a kind letter and a location, e.g. 'A par' or 'F stp/sc'")
            kind, loc = parts
            if kind == "F":
                ok = loc in fleet_edges
            elif kind == "A":
                ok = loc in provinces and provinces[loc].terrain in ("land", "coast")
            else:  # other kinds of unit (variants): the province must exist
                ok = loc in provinces
            if not ok:
                raise _err(path, where, f"start unit {u!r}: a {'fleet' if kind == 'F' else 'army'} cannot stand on {loc!r}")
            start.append((kind, loc))
        powers[name] = Power(name, str(pdata.get("adjective", name)), home, tuple(start))

    layout = _read_layout(raw.get("layout"), provinces, coasts, powers, path)
    return GameMap(
        name=str(raw["name"]),
        title=str(raw.get("title", raw["name"])),
        start_year=int(raw.get("start_year", 1901)),
        provinces=provinces,
        coasts=coasts,
        powers=powers,
        army_nodes=army_nodes,
        army_edges=tuple(army_pairs),
        fleet_nodes=fleet_nodes,
        fleet_edges=tuple(fleet_pairs),
        source=path,
        sources=_sources(path, raw.get("sources")),
        layout=layout,
    )


def _read_layout(data: Any, provinces: dict[str, Province], coasts: dict[str, Coast], powers: dict[str, Power],
                 path: str) -> Optional[Layout]:
    """The optional ``[layout]`` table: ``size = [w, h]`` and ``[layout.at]`` with ``id = [x, y]``."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise _err(path, "[layout]", "must be a table")
    unknown = set(data) - {"size", "at", "colours", "shapes"}
    if unknown:
        raise _err(path, "[layout]", f"unknown key(s) {sorted(unknown)}")

    def pair(value: Any, where: str) -> tuple[float, float]:
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
            raise _err(path, where, f"{value!r} must be two numbers [x, y]")
        return float(value[0]), float(value[1])

    size = pair(data.get("size"), "[layout] size")
    if size[0] <= 0 or size[1] <= 0:
        raise _err(path, "[layout] size", f"{list(size)} must be positive")
    at_raw = data.get("at")
    if not isinstance(at_raw, dict):
        raise _err(path, "[layout]", "missing table [layout.at] (a point per province)")
    at: dict[str, tuple[float, float]] = {}
    for key, value in at_raw.items():
        if key not in provinces and key not in coasts:
            raise _err(path, f"[layout.at] {key}", f"{key!r} is not a province or coast of the map")
        x, y = at[key] = pair(value, f"[layout.at] {key}")
        if not (0 <= x <= size[0] and 0 <= y <= size[1]):
            raise _err(path, f"[layout.at] {key}", f"[{x:g}, {y:g}] lies outside the drawing (size {size[0]:g} x {size[1]:g})")
    missing = sorted(set(provinces) - set(at))
    if missing:
        raise _err(path, "[layout.at]", f"no point for province(s) {', '.join(missing)}")
    colours: dict[str, str] = {}
    for power, colour in (data.get("colours") or {}).items():
        if power not in powers:
            raise _err(path, f"[layout.colours] {power}", f"{power!r} is not a power of the map")
        if not (isinstance(colour, str) and len(colour) == 7 and colour[0] == "#"
                and all(c in "0123456789abcdefABCDEF" for c in colour[1:])):
            raise _err(path, f"[layout.colours] {power}", f"{colour!r} must be a colour written #rrggbb")
        colours[power] = colour.lower()
    shapes = data.get("shapes", False)
    if not isinstance(shapes, bool):
        raise _err(path, "[layout] shapes", f"{shapes!r} must be true or false")
    return Layout(size=size, at=at, colours=colours, shapes=shapes)


def auto_layout(game_map: GameMap, size: tuple[float, float] = (1000.0, 800.0)) -> Layout:
    """A deterministic force-directed layout (networkx, fixed seed) for a map without one.

    Provinces are placed from the union of army and fleet adjacency; a coast is placed a little
    way from its province towards the fleet neighbours it touches."""
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(sorted(game_map.provinces))
    for a, b in sorted(game_map.army_graph.edges):
        graph.add_edge(a, b)
    for a, b in sorted(game_map.fleet_graph.edges):
        pa, pb = a.split("/", 1)[0], b.split("/", 1)[0]
        if pa != pb:
            graph.add_edge(pa, pb)
    margin = 50.0
    if len(graph) == 1:
        raw = {next(iter(graph.nodes)): (0.0, 0.0)}
    else:
        pos = nx.spring_layout(graph, seed=7, iterations=200)
        raw = {n: (float(p[0]), float(p[1])) for n, p in pos.items()}
    xs = [p[0] for p in raw.values()]
    ys = [p[1] for p in raw.values()]
    span_x = (max(xs) - min(xs)) or 1.0
    span_y = (max(ys) - min(ys)) or 1.0
    at = {n: (round(margin + (x - min(xs)) / span_x * (size[0] - 2 * margin), 1),
              round(margin + (y - min(ys)) / span_y * (size[1] - 2 * margin), 1)) for n, (x, y) in raw.items()}
    for cid, coast in sorted(game_map.coasts.items()):
        px, py = at[coast.province]
        nbs = [at[n.split("/", 1)[0]] for n in sorted(game_map.fleet_neighbours(cid))]
        if nbs:
            nx_, ny_ = sum(p[0] for p in nbs) / len(nbs), sum(p[1] for p in nbs) / len(nbs)
            dx, dy = nx_ - px, ny_ - py
            d = (dx * dx + dy * dy) ** 0.5 or 1.0
            at[cid] = (round(px + dx / d * 22, 1), round(py + dy / d * 22, 1))
    return Layout(size=size, at=at, automatic=True)
