"""Maps of the continents-and-free-cities family: countries, free cities, continents, land
borders and sea routes (format: ``maps/FORMAT.md``, section "Continental maps").

A *node* is a country or a free city.  Its capacity (how many units it may hold) is its number
of border connections, land and sea, unless the file gives ``capacity``; a free city holds at
most 6 unless the file says otherwise.  :func:`load_continental_map` reads a file, validates it
(unknown ids, self-borders, duplicate borders, a pair that is both a land border and a sea
route, nodes without any connection, name clashes, unknown keys) and returns a
:class:`ContinentalMap` with a networkx graph whose edges carry ``kind = "land" | "sea"``.

This module knows nothing of orders, rules or the solver.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import field
from pathlib import Path
from typing import Any, Literal

import networkx as nx

from . import MAP_DIR, MapError, normalise_name

from dipsat.records import dataclass

FORMAT = "continents"
FREE_CITY_CAPACITY = 6
ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
EdgeKind = Literal["land", "sea"]


@dataclass(frozen=True)
class Node:
    id: str
    name: str
    continent: str | None  # None only for a free city outside every continent
    free_city: bool
    capacity: int
    aliases: tuple[str, ...] = ()

    @property
    def short(self) -> str:
        """``yug`` -> ``Yug``: the three-letter form used in orders and output."""
        return self.id.capitalize()


@dataclass(frozen=True)
class Continent:
    id: str
    name: str
    countries: tuple[str, ...]  # free cities excluded: they do not count for victory
    free_cities: tuple[str, ...]


@dataclass
class ContinentalMap:
    """A validated continental map.  Read-only after loading."""

    name: str
    title: str
    nodes: dict[str, Node]
    continents: dict[str, Continent]
    graph: nx.Graph
    source: str = ""
    # the drawing's layout, when the map gives one ([layout]: id = [x, y], every node): scaled to
    # the picture as it is; without it the picture lays the graph out itself
    layout: dict[str, tuple[float, float]] = field(default_factory=dict)
    _names: dict[str, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for n in self.nodes.values():
            for key in (n.id, n.name, *n.aliases):
                self._names.setdefault(normalise_name(key), n.id)

    def lookup(self, text: str) -> str | None:
        """The node id for an id, name or alias (case-insensitive), or None."""
        return self._names.get(normalise_name(text))

    def neighbours(self, node: str) -> list[str]:
        return sorted(self.graph.adj[node])

    def adjacent(self, a: str, b: str) -> bool:
        return bool(self.graph.has_edge(a, b))  # (networkx is untyped)

    def edge_kind(self, a: str, b: str) -> EdgeKind:
        kind: EdgeKind = self.graph.edges[a, b]["kind"]
        return kind

    def countries(self) -> list[str]:
        return sorted(n for n, v in self.nodes.items() if not v.free_city)

    def free_cities(self) -> list[str]:
        return sorted(n for n, v in self.nodes.items() if v.free_city)

    def display(self, node: str) -> str:
        return self.nodes[node].short


def load_continental_map(name_or_path: str | Path) -> ContinentalMap:
    """Load a continental map by name (``maps/<name>.toml``) or by path, and validate it."""
    path = Path(name_or_path)
    if not path.suffix:
        path = MAP_DIR / f"{name_or_path}.toml"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MapError(f"{path}: no such map file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise MapError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"{path}: not valid TOML: {exc}") from None
    return build_continental_map(raw, str(path))


def _table(raw: Any, path: str, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise MapError(f"{path}: {where}: expected a table, got {type(raw).__name__}")
    return raw


def _check_keys(entry: dict[str, Any], allowed: set[str], path: str, where: str) -> None:
    extra = sorted(set(entry) - allowed)
    if extra:
        raise MapError(f"{path}: {where}: unknown key {extra[0]!r} (allowed: {', '.join(sorted(allowed))})")


def _capacity(entry: dict[str, Any], default: int, path: str, where: str) -> int:
    cap = entry.get("capacity", default)
    if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1:
        raise MapError(f"{path}: {where}: capacity must be a whole number of at least 1, got {cap!r}")
    return cap


def build_continental_map(raw: dict[str, Any], path: str = "<map>") -> ContinentalMap:
    _check_keys(raw, {"format", "name", "title", "source", "continents", "countries", "free_cities", "borders", "layout"},
                path, "top level")
    if raw.get("format") != FORMAT:
        raise MapError(f"{path}: top level: format must be {FORMAT!r} for a continental map, got {raw.get('format')!r}")
    conts_raw = _table(raw.get("continents", {}), path, "[continents]")
    countries_raw = _table(raw.get("countries", {}), path, "[countries]")
    cities_raw = _table(raw.get("free_cities", {}), path, "[free_cities]")
    borders_raw = _table(raw.get("borders", {}), path, "[borders]")
    _check_keys(borders_raw, {"land", "sea"}, path, "[borders]")
    if not conts_raw:
        raise MapError(f"{path}: [continents]: a map needs at least one continent")
    if not countries_raw:
        raise MapError(f"{path}: [countries]: a map needs at least one country")

    cont_names: dict[str, str] = {}
    for cid, entry in conts_raw.items():
        where = f"continents.{cid}"
        if not ID_RE.match(cid):
            raise MapError(f"{path}: {where}: ids are lower case letters, digits and '_', starting with a letter")
        entry = _table(entry, path, where)
        _check_keys(entry, {"name"}, path, where)
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise MapError(f"{path}: {where}: needs a name")
        cont_names[cid] = name

    # capacities need the degree: read the borders first
    known = set(countries_raw) | set(cities_raw)
    both = sorted(set(countries_raw) & set(cities_raw))
    if both:
        raise MapError(f"{path}: {both[0]!r} is both a country and a free city")
    graph = nx.Graph()
    graph.add_nodes_from(sorted(known))
    for kind in ("land", "sea"):
        items = borders_raw.get(kind, [])
        if not isinstance(items, list):
            raise MapError(f"{path}: borders.{kind}: expected a list of \"a-b\" pairs")
        for i, item in enumerate(items):
            where = f"borders.{kind}[{i}]"
            if not isinstance(item, str) or item.count("-") != 1:
                raise MapError(f"{path}: {where}: expected \"a-b\" (two ids joined by '-'), got {item!r}")
            a, b = (x.strip() for x in item.split("-"))
            for x in (a, b):
                if x not in known and x.lower() in known:
                    raise MapError(f"{path}: {where} {item!r}: ids are lower case: write {x.lower()!r}, not {x!r}")
                if x not in known:
                    raise MapError(f"{path}: {where} {item!r}: unknown country or free city {x!r}")
            if a == b:
                raise MapError(f"{path}: {where} {item!r}: a country cannot border itself")
            if graph.has_edge(a, b):
                other = graph.edges[a, b]["kind"]
                what = "listed twice" if other == kind else "both a land border and a sea route"
                raise MapError(f"{path}: {where} {item!r}: {a}-{b} is {what}")
            graph.add_edge(a, b, kind=kind)

    nodes: dict[str, Node] = {}
    for table, free, raw_entries in (("countries", False, countries_raw), ("free_cities", True, cities_raw)):
        for nid, entry in raw_entries.items():
            where = f"{table}.{nid}"
            if not ID_RE.match(nid):
                raise MapError(f"{path}: {where}: ids are lower case letters, digits and '_', starting with a letter")
            entry = _table(entry, path, where)
            _check_keys(entry, {"name", "continent", "capacity", "aliases"}, path, where)
            name = entry.get("name")
            if not isinstance(name, str) or not name.strip():
                raise MapError(f"{path}: {where}: needs a name")
            cont = entry.get("continent")
            if cont is None and not free:
                raise MapError(f"{path}: {where}: a country needs a continent")
            if isinstance(cont, str) and cont not in cont_names and cont.lower() in cont_names:
                raise MapError(f"{path}: {where}: continent ids are lower case: write {cont.lower()!r}, not {cont!r}")
            if cont is not None and cont not in cont_names:
                raise MapError(f"{path}: {where}: unknown continent {cont!r}; continents: {', '.join(sorted(cont_names))}")
            aliases = entry.get("aliases", [])
            if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
                raise MapError(f"{path}: {where}: aliases must be a list of names")
            degree = graph.degree[nid]
            if degree == 0:
                raise MapError(f"{path}: {where}: {name} has no land border or sea route")
            cap = _capacity(entry, FREE_CITY_CAPACITY if free else degree, path, where)
            nodes[nid] = Node(nid, name, cont, free, cap, tuple(aliases))

    seen: dict[str, str] = {}
    for n in sorted(nodes.values(), key=lambda n: n.id):
        for key in (n.id, n.name, *n.aliases):
            k = normalise_name(key)
            if k in seen and seen[k] != n.id:
                raise MapError(f"{path}: the name {key!r} of {n.id!r} is already used by {seen[k]!r}")
            seen[k] = n.id

    continents: dict[str, Continent] = {}
    for cid, cname in cont_names.items():
        members = [n for n in nodes.values() if n.continent == cid]
        countries = tuple(sorted(n.id for n in members if not n.free_city))
        if not countries:
            raise MapError(f"{path}: continents.{cid}: {cname} has no country")
        continents[cid] = Continent(cid, cname, countries, tuple(sorted(n.id for n in members if n.free_city)))

    return ContinentalMap(name=str(raw.get("name") or Path(path).stem), title=str(raw.get("title") or raw.get("name") or ""),
                          nodes=dict(sorted(nodes.items())), continents=continents, graph=graph,
                          source=str(raw.get("source", "")), layout=_layout(raw.get("layout"), nodes, path))


def _layout(raw: Any, nodes: dict[str, Node], path: str) -> dict[str, tuple[float, float]]:
    """``[layout]``: a drawing position ``[x, y]`` for every country and free city (like the
    Diplomacy maps' own layouts), or nothing."""
    if raw is None:
        return {}
    table = _table(raw, path, "layout")
    unknown = sorted(set(table) - set(nodes))
    if unknown:
        x = unknown[0]
        hint = f"ids are lower case: write {x.lower()!r}" if x.lower() in nodes else "not a country or free city of the map"
        raise MapError(f"{path}: layout.{x}: {hint}")
    missing = sorted(set(nodes) - set(table))
    if missing:
        raise MapError(f"{path}: layout: no position for {', '.join(missing)} (give every country and free city one)")
    out: dict[str, tuple[float, float]] = {}
    for nid, xy in sorted(table.items()):
        if (not isinstance(xy, list) or len(xy) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in xy)):
            raise MapError(f"{path}: layout.{nid}: expected [x, y] (two numbers), got {xy!r}")
        out[nid] = (float(xy[0]), float(xy[1]))
    return out
