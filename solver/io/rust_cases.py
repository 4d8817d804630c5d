"""Test cases in the JSON schema of the Rust ``diplomacy`` crate (TedDriggs/diplomacy, ``json_tests``).

A file is ``{"cases": [...]}``; each case has a ``name``, a ``url`` (a DATC anchor such as
``...DATC_v3_0.html#6.A.1``), a ``phase`` (``Main``, ``Retreat`` or ``Build``) and ``orders``
mapping an order to its expected result (``"ENG: F nth -> pic": "Fails"``; ``null``: not
asserted).  Optional: ``starting_state`` (more units, ``"ENG: F lon"``), ``edition`` (``1971``,
``1982``, ``2023``, ``dptg``; none: any edition), ``preceding_main_phase`` (a retreat case's
movement), ``occupiers`` (centre owners, ``{"war": "GER"}``), ``civil_disorder`` (units
expected to be removed), ``ignore`` (a reason the case is not run) and ``errata`` (a note).

:func:`read_rust_cases` turns each case into a dipsat :class:`~dipsat.io.corpus.CorpusCase`, so that
``dipsat corpus`` runs such a file like its own cases.  How the crate's fields are read:

* units: ``starting_state``, then (movement) the unit of every order whose province holds no
  unit yet (an order for a unit that is not there, as in 6.A.6, is written against the unit
  that is); in a ``Build`` case only ``starting_state`` (a disband of a missing unit fails, 6.J.1);
* nations: the three-letter codes are the first letters of the standard powers' names;
* owners (``Build``): every power owns its home centres, a unit of ``starting_state`` on a supply
  centre gives it to its power, and ``occupiers`` override both;
* editions: none and ``2023`` run under dipsat's ``datc`` preset (DATC 3.0 = the 2023
  rulebook), ``1971``, ``1982`` and ``dptg`` under the presets of those names;
* results: ``Succeeds`` / ``Fails`` are dipsat's ``succeeds`` / ``fails`` of the order (a move
  that moves, a support not cut, a convoy carried out, a hold not dislodged, a build made);
  ``civil_disorder`` becomes the whole position after the phase (the units less those).

A case with ``ignore`` is listed as skipped, with its reason.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from dipsat.errors import InputFileError

EDITION_RULES = {None: "datc", "2023": "datc", "1971": "1971", "1982": "1982", "dptg": "dptg"}
PHASES = {"Main": "movement", "Retreat": "retreat", "Build": "adjustment"}
_KEY = re.compile(r"^([A-Z]{3}): ([AF]) ([a-z]{3})(\([a-z]{2}\))?(?:\s|$)")


def is_rust_case_file(data: Any) -> bool:
    """Is this JSON value a collection of the Rust crate's test cases?"""
    return isinstance(data, dict) and isinstance(data.get("cases"), list)


def datc_id(url: str) -> Optional[str]:
    """``...#6.A.1`` -> ``6.A.1`` (the DATC case a test points to), or None."""
    m = re.search(r"#(\d+\.[A-Z]\.\d+)$", url or "")
    return m.group(1) if m else None


class _Reader:
    def __init__(self, where: str) -> None:
        from dipsat.game.registry import find_variant

        self.where = where
        self.variant = find_variant("standard")
        self.powers: dict[str, str] = {str(p)[:3].upper(): str(p) for p in self.variant.map.powers}

    def power(self, code: str, where: str) -> str:
        if code not in self.powers:
            raise InputFileError(f"{where}: unknown nation {code!r}; the standard map's are {', '.join(sorted(self.powers))}")
        return self.powers[code]

    def split(self, key: str, where: str) -> tuple[str, str, str, str]:
        """``"ENG: F nth -> pic"`` -> (power, kind, location, order text)."""
        m = _KEY.match(key)
        if not m:
            raise InputFileError(f"{where}: {key!r} is not 'NAT: K abc ...' (a nation, a unit, its order)")
        power = self.power(m.group(1), where)
        loc = m.group(3) + (f"/{m.group(4)[1:3]}" if m.group(4) else "")
        return power, m.group(2), loc, key[len(m.group(1)) + 2:].strip()

    def units(self, starting: list[str], order_keys: list[str], where: str) -> dict[str, list[str]]:
        placed: dict[str, tuple[str, str]] = {}  # province -> (power, "K loc")
        for i, spec in enumerate(starting):
            power, kind, loc, text = self.split(str(spec), f"{where}.starting_state[{i}]")
            if len(text.split()) != 2:
                raise InputFileError(f"{where}.starting_state[{i}]: {spec!r} is not a unit such as 'ENG: F lon'")
            placed.setdefault(loc.split("/")[0], (power, f"{kind} {loc}"))
        for key in order_keys:
            power, kind, loc, _ = self.split(key, f"{where}.orders")
            placed.setdefault(loc.split("/")[0], (power, f"{kind} {loc}"))
        out: dict[str, list[str]] = {}
        for prov in sorted(placed):
            power, unit = placed[prov]
            out.setdefault(power, []).append(unit)
        return out

    def orders(self, orders: dict[str, Any], where: str) -> tuple[dict[str, list[str]], dict[str, str]]:
        """(orders per power, expected results keyed 'Power: text')."""
        by_power: dict[str, list[str]] = {}
        expect: dict[str, str] = {}
        for key, want in orders.items():
            power, _, _, _ = self.split(key, f"{where}.orders")
            text = key.split(": ", 1)[1].strip()
            by_power.setdefault(power, []).append(text)
            if want is None:
                continue
            if want not in ("Succeeds", "Fails"):
                raise InputFileError(f"{where}.orders[{key!r}]: {want!r} is not 'Succeeds', 'Fails' or null")
            expect[f"{power}: {text}"] = want.lower()
        return by_power, expect

    def owners(self, units: dict[str, list[str]], occupiers: dict[str, str], where: str) -> dict[str, list[str]]:
        m = self.variant.map
        owner = {h: p for p, pw in m.powers.items() for h in pw.home}
        for power, specs in units.items():
            for spec in specs:
                prov = spec.split()[1].split("/")[0]
                if m.provinces[prov].supply_centre:
                    owner[prov] = power
        for prov, code in occupiers.items():
            pid = m.lookup_province(prov)
            if pid is None or not m.provinces[pid].supply_centre:
                raise InputFileError(f"{where}.occupiers: {prov!r} is not a supply centre of the standard map")
            owner[pid] = self.power(code, f"{where}.occupiers")
        out: dict[str, list[str]] = {}
        for prov in sorted(owner):
            out.setdefault(owner[prov], []).append(prov)
        return out

    def case(self, raw: Any, index: int) -> tuple[dict[str, Any], Optional[str]]:
        """The corpus-case dict of one crate case, and the reason it is skipped (or None)."""
        where = f"{self.where}: cases[{index}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
            raise InputFileError(f"{where}: a case is an object with a 'name'")
        where = f"{self.where}: cases[{index}] ({raw['name']})"
        phase = PHASES.get(str(raw.get("phase")))
        if phase is None:
            raise InputFileError(f"{where}: phase {raw.get('phase')!r} is not one of {', '.join(PHASES)}")
        edition = raw.get("edition")
        if edition not in EDITION_RULES:
            raise InputFileError(f"{where}: edition {edition!r} is not one of 1971, 1982, 2023, dptg")
        orders = raw.get("orders") or {}
        if not isinstance(orders, dict):
            raise InputFileError(f"{where}: orders must be an object")
        ident = datc_id(raw.get("url", ""))
        notes = [f"DATC {ident}." if ident else ""]
        if raw.get("errata"):
            notes.append(f"Errata (the crate's note): {raw['errata']}")
        case: dict[str, Any] = {
            "id": f"rust/{raw['name']}" + (f"@{edition}" if edition else ""),
            "title": raw.get("description") or raw["name"],
            "source": "Rust diplomacy crate (TedDriggs/diplomacy), json_tests",
            "url": raw.get("url", ""), "phase": phase, "notes": " ".join(n for n in notes if n)}
        exp: dict[str, Any] = {"rules": [EDITION_RULES[edition]]}
        starting = raw.get("starting_state") or []
        if phase == "retreat":
            main = raw.get("preceding_main_phase")
            if not isinstance(main, dict):
                raise InputFileError(f"{where}: a Retreat case needs 'preceding_main_phase'")
            main_orders = main.get("orders") or {}
            case["units"] = self.units(main.get("starting_state") or starting, list(main_orders), where)
            case["orders"], exp["orders"] = self.orders(main_orders, f"{where}.preceding_main_phase")
            case["retreat_orders"], exp["retreats"] = self.orders(orders, where)
        elif phase == "adjustment":
            case["units"] = self.units(starting, [], where)  # a disband of a unit not there fails (6.J.1)
            case["owners"] = self.owners(case["units"], raw.get("occupiers") or {}, where)
            case["orders"], exp["orders"] = self.orders(orders, where)
            removed = raw.get("civil_disorder")
            if removed is not None:
                after = {p: list(us) for p, us in case["units"].items()}
                for spec in removed:
                    power, kind, loc, _ = self.split(str(spec), f"{where}.civil_disorder")
                    if f"{kind} {loc}" not in after.get(power, []):
                        raise InputFileError(f"{where}.civil_disorder: {spec!r} is not a unit of the case")
                    after[power].remove(f"{kind} {loc}")
                if not orders:
                    exp["units_after"] = {p: us for p, us in after.items() if us}
        else:
            case["units"] = self.units(starting, list(orders), where)
            case["orders"], exp["orders"] = self.orders(orders, where)
        case["expect"] = [exp]
        skip = raw.get("ignore")
        return case, (str(skip) if skip else None)


def read_rust_cases(data: Any, where: str) -> list[tuple[Any, Optional[str]]]:
    """Each case of a crate file as a dipsat ``CorpusCase``, with the reason it is skipped (its
    ``ignore`` text) or None."""
    from pydantic import ValidationError

    from dipsat.io.cases import CorpusCase

    if not is_rust_case_file(data):
        raise InputFileError(f"{where}: not a file of the Rust crate's test cases (an object with 'cases')")
    reader = _Reader(where)
    out = []
    for i, raw in enumerate(data["cases"]):
        case, skip = reader.case(raw, i)
        try:
            out.append((CorpusCase.model_validate(case), skip))
        except ValidationError as exc:
            err = exc.errors()[0]
            raise InputFileError(f"{where}: cases[{i}]: {'.'.join(map(str, err['loc']))}: {err['msg']}") from None
    return out
