"""Snapshots of the maps of this folder: each map file's data as JSON (``snapshots/<name>.json``)
with the SHA-256 of the text it was made from.  :func:`dipsat.maps.load_map` reads a map's snapshot
instead of parsing its TOML when the two agree (parsing the standard map's TOML took about 8 ms of
the 0.2 s a cold ``dipsat adjudicate`` took); a map edited since its snapshot is parsed as before,
and a test says the snapshot is stale.  After editing a map::

    python -m dipsat.maps.snapshot
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from . import MAP_DIR, SNAPSHOT_DIR, text_sha256


def snapshot_maps() -> list[Path]:
    """The maps :func:`dipsat.maps.load_map` reads: the TOML files of this folder that are not in
    another format (a continental map says ``format = "continents"``)."""
    return [p for p in sorted(MAP_DIR.glob("*.toml")) if "format" not in tomllib.loads(p.read_text(encoding="utf-8"))]


def snapshot_text(path: Path) -> str:
    """The snapshot of the map file ``path``, as written to ``snapshots/``."""
    text = path.read_text(encoding="utf-8")
    data: dict[str, Any] = {"toml_sha256": text_sha256(text), "map": tomllib.loads(text)}
    return json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def main() -> None:
    SNAPSHOT_DIR.mkdir(exist_ok=True)
    for path in snapshot_maps():
        (SNAPSHOT_DIR / f"{path.stem}.json").write_text(snapshot_text(path), encoding="utf-8")
        print(f"snapshots/{path.stem}.json")


if __name__ == "__main__":  # pragma: no cover
    main()
