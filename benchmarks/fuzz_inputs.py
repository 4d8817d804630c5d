"""What the fuzzer's inputs are made of (:mod:`benchmarks.fuzz` runs them).

Seeded ``random.Random`` streams only (never the global state): valid turns of the benchmark
workload, hand-written Multiplomacy/Multinational requests, the examples and corpus cases of all
six variants (Supremacy game files made from its game cases), then damaged bytes, deep nesting,
huge numbers, wrong types, unknown names, oversize requests, a value anywhere in the tree
replaced, a key dropped or misplaced, a map or board pointing out of its folder; and the command
line each input is run with.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from benchmarks.workload import generate_turn

TIME_LIMIT = 3.0  # --time-limit of the commands run here; a single-turn command past it + 5 s is slow
NAMES = ["France", "england", "Atlantis", "CC", "EX", "Par", "Paris", "Bur", "Nth", "Spa(nc)", "stp/sc", "standard",
         "multiplomacy", "multinational", "datc", "1971", "bogus", "", " ", "–", "\u202e", "\x00", "é", "☃"]
ORDER_WORDS = ["A", "F", "E", "M", "P", "Par", "Bur", "Mun", "-", "S", "C", "H", "via", "convoy", "Spa", "(nc)", "/sc",
               "Lon", "Nth", "->", "–", "sup", "by", "FO", "AL", "2", "3", "0", "-1", "99999999999999999999", "Build",
               "Remove", "Waive", "Hold", "stands", "&", "R", "D", "Clm", "Mon", "Ida", "Ore"]
MULTI = [
    {"variant": "multiplomacy", "units": {"England": ["3 F Nth", "A Lon"], "France": ["2 A Par", "F Bre"]},
     "orders": {"England": ["2 F Nth sup F Lon"], "France": ["2 A Par-Bur"]}},
    {"variant": "multinational", "units": {"CC": ["E Clm", "M NPO"], "GM": ["E Alb", "P Mon"]},
     "orders": {"CC": ["E Clm S M NPO holds"], "GM": ["E Alb – Clm"]}},
]
WRONG = [None, True, 3, -5, 1.5, 1e308, "x", [], {}, [1, [2]], {"a": {"b": 1}}, "A Par", ["A Par"], {"France": "A Par"},
         False, 0, 10 ** 30, "3", "USA", "army us_west", [1.5], [[1]], {"USA": 1}, {"3": "x"}]
WRONG_KEYS = ["map", "board", "expect", "bids", "dice", "state", "options", "kind", "turns", "drill", "setup", "zzz"]
ROOT = Path(__file__).resolve().parent.parent
PATHS = ["../secret.toml", "/dev/zero", "/etc/passwd", "continents_six", "world", "nope.toml", ".."]

@dataclass(frozen=True)
class Source:
    family: str  # the variant family the document belongs to (a corpus folder, an example's variant)
    doc: dict[str, Any]
    game: bool  # a game file (play takes it)


def _game_of_case(doc: dict[str, Any]) -> Optional[dict[str, Any]]:
    """A Supremacy game file made of a corpus case of kind 'game' (for ``play``)."""
    data = doc.get("data")
    if not isinstance(data, dict) or data.get("kind") != "game":
        return None
    opts = (doc.get("expect") or [{}])[0].get("options", {})
    return {"variant": "supremacy", "options": opts, **{k: v for k, v in data.items() if k != "kind"}}


def _load_sources() -> list[Source]:
    """The examples and corpus cases of every variant, as data (read once), and the game files
    made of Supremacy's game cases."""
    import tomllib

    out = []
    files = sorted((ROOT / "examples").glob("*.toml")) + sorted((ROOT / "tests" / "corpora").glob("*/*.toml"))
    for f in files:
        try:
            data = tomllib.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        doc = json.loads(json.dumps(data, default=str))
        family = f.parent.name if f.parent.parent.name == "corpora" else str(doc.get("variant", "standard"))
        out.append(Source(family, doc, "phases" in doc or "turns" in doc))
        game = _game_of_case(doc)
        if game is not None:
            out.append(Source(family, game, True))
    return out


_SOURCES: list[Source] = []


def sources(family: str = "all") -> list[Source]:
    if not _SOURCES:
        _SOURCES.extend(_load_sources())
    return [s for s in _SOURCES if family == "all" or s.family == family]


def source_request(rng: random.Random, family: str = "all", game: Optional[bool] = None) -> dict[str, Any]:
    """A copy of an example or corpus case (or a game file, ``game``) of any variant of ``family``."""
    pool = [s for s in sources(family) if game is None or s.game == game] or sources(family)
    doc = copy.deepcopy(rng.choice(pool).doc)
    if rng.random() < 0.3 and isinstance(doc.get("data"), dict):  # the case's request alone, as a batch line has it
        doc = {k: v for k, v in doc.items() if k in ("variant", "data", "options", "rules")}
    return doc


def _wrong(rng: random.Random, extra: tuple[Any, ...] = ()) -> Any:
    """A value of a wrong kind, as a fresh copy (never shared by two places of a request)."""
    return copy.deepcopy(rng.choice([*extra, *WRONG]))


def mutate_tree(rng: random.Random, data: Any) -> Any:
    """``data`` with a few of its nodes changed: a value replaced (by another type, a string
    where a number goes, null), a key dropped or added (at the wrong level, a map or board path
    among them), a table where a list goes or the other way round."""
    for _ in range(rng.randrange(1, 4)):
        nodes: list[tuple[Any, Any]] = []  # (container, key)
        stack = [data]
        while stack:
            node = stack.pop()
            items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
            for k, v in items:
                nodes.append((node, k))
                if isinstance(v, (dict, list)):
                    stack.append(v)
        if not nodes:
            return _wrong(rng)
        parent, key = rng.choice(nodes)
        old = parent[key]
        op = rng.randrange(8)
        if op == 0:
            parent[key] = _wrong(rng)
        elif op == 1:
            parent[key] = None
        elif op == 2:  # a string where a number goes, and a number where a string goes
            parent[key] = str(old) + rng.choice(["", "x", " units"]) if isinstance(old, (int, float)) else rng.choice([0, -1, 10 ** 6])
        elif op == 3 and isinstance(parent, dict):
            del parent[key]
        elif op == 4 and isinstance(parent, dict):  # a key unknown here, or known at another level
            parent[rng.choice(WRONG_KEYS)] = _wrong(rng, tuple(PATHS))
        elif op == 5:  # a table where a list goes, or the other way round
            parent[key] = [old] if isinstance(old, dict) else ({"0": old[0]} if isinstance(old, list) and old else {"a": old})
        elif isinstance(old, str):
            parent[key] = rng.choice([old * rng.randrange(2, 50), old[::-1], old.upper(), "2A(" + " " * 3000, ""])
        else:
            parent[key] = _wrong(rng)
    return data


def base_request(rng: random.Random, family: str = "all") -> dict[str, Any]:
    r = rng.random()
    if r < 0.45 or family != "all":
        return source_request(rng, family)
    if r < 0.55:
        return copy.deepcopy(rng.choice(MULTI))
    req = generate_turn(rng.randrange(1000), rng.randrange(10_000))
    req.pop("id", None)
    return req


def mutate(rng: random.Random, req: dict[str, Any]) -> dict[str, Any] | list[Any] | Any:
    """A structurally hostile version of ``req``: wrong types, unknown names, odd orders."""
    kind = rng.randrange(8)
    if kind == 0:  # a field of the wrong type, or an unknown field
        key = rng.choice(["variant", "rules", "options", "year", "season", "phase", "units", "orders", "owners", "zzz"])
        req[key] = _wrong(rng)
    elif kind == 1:  # unknown names
        key = rng.choice(["variant", "rules", "season", "phase"])
        req[key] = rng.choice(NAMES)
    elif kind == 2:  # orders of random words
        for power in list(req.get("orders", {}))[:3]:
            req["orders"][power] = [" ".join(rng.choice(ORDER_WORDS) for _ in range(rng.randrange(1, 9)))
                                    for _ in range(rng.randrange(1, 4))]
    elif kind == 3:  # a power or unit name changed
        units = req.get("units", {})
        if units:
            power = rng.choice(sorted(units))
            if rng.random() < 0.5:
                units[rng.choice(NAMES)] = units.pop(power)
            else:
                units[power] = [rng.choice(NAMES + ["A Par", "A Paris", "F Par", "2 A Bur", "F Spa"]) for _ in range(3)]
    elif kind == 4:  # options
        req["options"] = {rng.choice(["convoy_paradox_rule", "random_seed", "nope", "stack_support_cuts"]): rng.choice(WRONG + NAMES)}
    elif kind == 5:  # years and seasons
        req["year"] = rng.choice([-5, 0, 1, 1901, 10 ** 30, 1.5, "1901"])
        req["season"] = rng.choice(["spring", "fall", "winter", "monsoon", "SPRING", "year"])
    elif kind == 6:  # phases
        req["phase"] = rng.choice(["movement", "retreat", "adjustment"])
        req["retreat_orders"] = {"France": ["A Par - Gas", "A Bur R Pic", "F x"]}
        req["owners"] = {"France": ["Par", "Bre", "Mar", "Atlantis"]}
    else:  # the whole request swapped for a JSON value of another kind
        return _wrong(rng)
    return req


def damage(rng: random.Random, data: bytes) -> bytes:
    """The same bytes, damaged: flipped, cut, inserted, deleted."""
    b = bytearray(data)
    for _ in range(rng.randrange(1, 6)):
        if not b:
            break
        op = rng.randrange(4)
        i = rng.randrange(len(b))
        if op == 0:
            b[i] = rng.randrange(256)
        elif op == 1:
            del b[i:i + rng.randrange(1, 20)]
        elif op == 2:
            b[i:i] = rng.choice([b"\xff", b"\x00", b"\xc3", b'"', b"[", b"{", b"}", b"]", b"\\", b"\r", b"\n", b",", b"1e999",
                                 b"\xe2\x80\x93", b"9" * rng.randrange(1, 6000)])
        else:
            del b[i:]
    return bytes(b)


def hostile_json(rng: random.Random, family: str = "all") -> bytes:
    """One batch line or JSON request file (no newline inside, unless the damage put one)."""
    kind = rng.randrange(10)
    if kind == 0 and family == "all":
        n = rng.choice([33, 500, 5000, 100_000])
        return rng.choice([b"[", b'{"a":']) * n + b"1" + rng.choice([b"]", b"}"]) * n
    if kind == 1 and family == "all":
        return b'{"year": ' + b"1" * rng.choice([100, 4300, 4301, 5001, 20_000]) + b', "units": {"France": ["A Par"]}}'
    if kind == 2 and family == "all":  # oversize: many orders
        n = rng.choice([5001, 20_000])
        return json.dumps({"units": {"France": ["A Par"]}, "orders": {"France": ["A Par H"] * n}}).encode()
    req = base_request(rng, family)
    if kind < 7:
        req = mutate(rng, req) if "units" in req and rng.random() < 0.5 else mutate_tree(rng, req)
    if isinstance(req, dict) and rng.random() < 0.5:
        req["id"] = rng.choice([rng.randrange(10 ** 6), "x", None, [1], {"k": 1}, 1e308, "é"])
    text = json.dumps(req).encode()
    if kind >= 5:
        text = damage(rng, text)
    return text


def to_toml(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {to_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(to_toml(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return '""'
    return json.dumps(value)


def toml_document(rng: random.Random, doc: dict[str, Any]) -> str:
    """``doc`` as a TOML text: its tables as [sections] or inline, at random."""
    head, body = [], []
    for k, v in doc.items():
        if isinstance(v, dict) and v and rng.random() < 0.5:
            body.append(f"[{json.dumps(str(k))}]")
            body += [f"{json.dumps(str(kk))} = {to_toml(vv)}" for kk, vv in v.items()]
        else:
            head.append(f"{json.dumps(str(k))} = {to_toml(v)}")
    return "\n".join(head + body) + "\n"


def hostile_file(rng: random.Random, family: str = "all", command: str = "") -> tuple[str, bytes]:
    """A request/case/game file for ``command``: (suffix, bytes)."""
    wants_game = command == "play" or (command == "wealth" and rng.random() < 0.5)
    if rng.random() < 0.5 and not wants_game:
        return ".json", hostile_json(rng, family)
    kind = rng.randrange(6)
    if kind == 0 and family == "all":
        n = rng.choice([33, 900, 5000])
        return ".toml", b"a = " + b"[" * n + b"]" * n + b"\n"
    req = source_request(rng, family, game=True) if wants_game and rng.random() < 0.7 else base_request(rng, family)
    if kind < 4:
        req = mutate(rng, req) if "units" in req and rng.random() < 0.5 else mutate_tree(rng, req)
    if not isinstance(req, dict):
        req = {"units": req}
    if wants_game and rng.random() < 0.3:
        return ".json", json.dumps(req).encode()
    text = toml_document(rng, req)
    if "units" in req and rng.random() < 0.3:  # a corpus case or a saved game
        lines = text.splitlines()
        if rng.random() < 0.5:
            lines = ['id = "f"'] + lines + ['[[expect]]', 'orders = { "A Par - Bur" = "succeeds" }']
        else:
            lines = [f"{k} = {to_toml(v)}" for k, v in req.items() if k in ("variant", "rules")]
            lines += ["[[phases]]", f"orders = {to_toml(req.get('orders', {}))}"]
        text = "\n".join(lines) + "\n"
    data = text.encode()
    if kind in (3, 4):
        data = damage(rng, data)
    return ".toml", data


def command_line(rng: random.Random, command: str) -> list[str]:
    """The arguments after ``command FILE``."""
    argv = ["--time-limit", str(TIME_LIMIT)]
    if command == "play" and rng.random() < 0.5:  # a continents or Supremacy game refuses per-phase limits
        argv = []
    if command in ("odds", "wealth"):  # Supremacy's own commands take no limits
        argv = []
    extra = {"render": [["--crop"], []], "coverage": [["--json"], ["--own"], []], "readings": [["--json"], []],
             "compare": [["--rules", "1971", "--rules", "datc"], []], "play": [["-q"], ["--json"], [], []]}
    if command in extra:
        argv += rng.choice(extra[command])
    if command == "why":
        argv += ["--order", rng.choice(["A Par - Bur", "F Nth H", "x", "", "USA: buy 1 grain"])]
    if command in ("adjudicate", "explore") and rng.random() < 0.2:
        argv += ["--rules", rng.choice(["datc", "1971", "bogus", "strict", "table"])]
    if command in ("adjudicate", "play", "odds", "wealth", "readings") and rng.random() < 0.25:
        argv += ["--option", rng.choice(["convoy_paradox_rule=1982", "nope=1", "random_seed=x", "=", "a",
                                         "preset=strict", "fallout=none", "victory=richest", "build_costs=3"])]
    if command == "adjudicate" and rng.random() < 0.5:
        argv.append("--json")
    return argv
