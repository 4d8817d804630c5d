"""The research commands (``explore``, ``why``, ``readings``, ``fingerprint``, ``compare``, ``coverage``) and the
listings (``rules``, ``schema``).

Each reads its file once and takes the file's game family from :func:`dipsat.game.families.find_game`.
A Diplomacy board's phase is one equation system, which the board's own research reads
(every resolution, forcing cores, one model of every reading: :mod:`dipsat.research.research`,
:mod:`dipsat.research.readings`); any other family is researched through the game protocol alone
(:mod:`dipsat.research.research_games`, :func:`dipsat.research.readings.protocol_readings`).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from dipsat.errors import DipsatError
from dipsat.face.cli_phase import limits_of

if TYPE_CHECKING:
    from dipsat.game.variant import Variant


def _board(game: Any) -> bool:
    from dipsat.game.board_game import BoardGame

    return isinstance(game, BoardGame)


def cmd_explore(args: argparse.Namespace) -> int:
    from dipsat.face.cli_phase import load

    game, req, _ = load(args)
    if _board(game):
        from dipsat.research.research import explore, format_exploration

        req = _with_rules(game, req, args)
        print(format_exploration(explore(req, limit=args.limit)))
        return 0
    from dipsat.research.research_games import explore_game, format_game_exploration

    opts = game.options(req, args.rules, tuple(args.option or ()))
    print(format_game_exploration(explore_game(game, req, opts, args.limit)))
    return 0


def _with_rules(game: Any, req: Any, args: argparse.Namespace) -> Any:
    """A board's request with the command line's preset and options."""
    from dipsat.rules import parse_overrides

    if getattr(args, "rules", None):
        req = req.model_copy(update={"rules": args.rules})
    if getattr(args, "option", None):
        req = req.model_copy(update={"options": {**req.options, **parse_overrides(args.option, game.variant.options_model)}})
    return req


def cmd_why(args: argparse.Namespace) -> int:
    from dipsat.face.cli_phase import load
    from dipsat.research.research import format_why

    game, req, _ = load(args)
    opts = game.options(req, args.rules, tuple(args.option or ()))
    if args.order:
        orders = [args.order]
    else:  # every order that did not succeed
        res = game.adjudicate(req, opts)
        orders = [o.order if _board(game) else f"{o.power}: {o.order}" for o in res.outcomes if not o.succeeded]
        if not orders:
            print("Every order succeeds (name one with --order \"...\" to see what it hinges on).")
            return 0
    answers = []
    for order in orders:
        if _board(game):
            from dipsat.research.research import why

            answers.append(format_why(why(_with_rules(game, req, args), order)))
        else:
            from dipsat.research.research_games import why_game

            answers.append(format_why(why_game(game, req, opts, order)))
    print("\n\n".join(answers))
    return 0


def cmd_readings(args: argparse.Namespace) -> int:
    from dipsat.face.cli_phase import load
    from dipsat.research.readings import protocol_readings, turn_readings
    from dipsat.research.readings_format import format_readings, readings_json

    case = _game_case(args)
    if case is not None:  # a game case of a board: replayed once per class of readings
        from dipsat.research.game_readings import game_case_readings

        rd = game_case_readings(case, args.rules, tuple(args.option or ()))
        print(json.dumps(readings_json(rd), indent=2, default=str) if args.json else format_readings(rd, args.order))
        return 0
    game, req, data = load(args)
    if _board(game):
        rd = turn_readings(_with_rules(game, req, args))
    else:
        rd = protocol_readings(game, req, data, args.rules, _case_settings(game, data) + tuple(args.option or ()))
    print(json.dumps(readings_json(rd), indent=2, default=str) if args.json else format_readings(rd, args.order))
    return 0


def _game_case(args: argparse.Namespace) -> Any:
    """The file's corpus case when it is a game case of a Diplomacy board (else None)."""
    from dipsat.game.request import read_data_file
    from dipsat.game.registry import find_record
    from dipsat.game.variant import Variant

    path = str(args.file)
    if path == "-":
        return None
    data = read_data_file(path, limits_of(args))
    if not (isinstance(data, dict) and data.get("phase") == "game" and "expect" in data):
        return None
    variant = getattr(args, "variant", None) or data.get("variant") or "standard"
    if not isinstance(variant, str) or not isinstance(find_record(variant), Variant):
        return None
    from dipsat.io.corpus import load_case

    case = load_case(path, limits_of(args))
    return case.model_copy(update={"variant": variant}) if variant != case.variant else case


def _case_settings(game: Any, data: Any) -> tuple[str, ...]:
    """A corpus case's settings that are not readings (seeds, draws), from its first
    expectation, as ``--option`` texts: the readings are enumerated on top of them."""
    exps = data.get("expect") if isinstance(data, dict) else None
    if not isinstance(exps, list) or not exps or not isinstance(exps[0], dict) or not isinstance(exps[0].get("options"), dict):
        return ()
    from dipsat.engine.option_space import categorical_options

    cats = set(categorical_options(game.options_model()))
    return tuple(f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in exps[0]["options"].items()
                 if k not in cats)


def cmd_fingerprint(args: argparse.Namespace) -> int:
    from dipsat.research.fingerprint_format import fingerprint_json, format_fingerprint
    from dipsat.research.fingerprint_inputs import read_inputs
    from dipsat.research.fingerprint_run import run_fingerprint
    from dipsat.face.cli_phase import count_requests
    from dipsat.face.progress import progress_bar
    from pathlib import Path

    from dipsat.research.fingerprint_peers import load_feed, peer_json, peer_summary

    limits = limits_of(args)
    feed = load_feed(args.peer)
    if feed is not None and args.variant and args.variant.lower() != "standard":
        raise DipsatError(f"--peer {args.peer} adjudicates the standard board only, not --variant {args.variant}")

    def source() -> Any:
        items = read_inputs(args.paths, args.expectation, limits, turns=feed is not None)
        return feed.observations(items) if feed is not None else items

    bar = progress_bar("fingerprint", unit="observations", quiet=args.quiet or args.json)
    if bar.shown and all(p.endswith(".jsonl") and Path(p).is_file() for p in args.paths):  # streamed: a total when cheap
        bar.total = sum(count_requests(p) for p in args.paths)
    with bar:
        fp = run_fingerprint(source, args.variant, limits, jobs=args.jobs or (2 if args.dask else 1), dask=args.dask,
                             on_progress=bar.advance)
    if args.json:
        out = fingerprint_json(fp)
        if feed is not None:
            out["peer"] = peer_json(fp, feed)
        print(json.dumps(out, indent=2, default=str))
    else:
        print((peer_summary(fp, feed) + "\n" if feed is not None else "") + format_fingerprint(fp))
    return 1 if fp.problems else 0


def cmd_compare(args: argparse.Namespace) -> int:
    from dipsat.io.corpus import case_files
    from dipsat.face.progress import progress_bar
    from dipsat.research.research import Difference, compare, format_compare, format_option_compare

    if args.variant:  # each value of the variant's own options
        from dipsat.game.registry import find_record

        from dipsat.research.research import Setting, option_settings
        from dipsat.game.variant import Variant

        if args.rules:
            raise DipsatError("--variant compares the variant's own option values; --rules compares presets: give one")
        record = find_record(args.variant)
        own = not isinstance(record, Variant)
        settings = option_settings(record) if isinstance(record, Variant) else [Setting(record.name)]
        with progress_bar("compare", total=len(case_files(args.paths)), unit="cases", quiet=args.quiet) as bar:
            diffs, errors, n = compare(args.paths, settings, on_progress=bar.advance, variant=args.variant,
                                       own_settings=own, limits=limits_of(args))
        if own:
            settings = [Setting(lbl) for lbl in _labels(diffs)] or [Setting(record.name)]
        print(format_option_compare(diffs, settings, n))
        for e in errors:
            print(f"error: {e}")
        return 0 if not errors else 1
    presets = args.rules or ["datc", "1971", "1982", "2000", "dptg"]
    counts: dict[str, int] = {}
    with progress_bar("compare", total=len(case_files(args.paths)), unit="cases", quiet=args.quiet) as bar:
        diffs, errors, n = compare(args.paths, presets, on_progress=bar.advance, own_settings=not args.rules,
                                   counts=counts, limits=limits_of(args))
    board = [d for d in diffs if not d.own]
    other: list[Difference] = [d for d in diffs if d.own]
    if counts.get("board") or not counts.get("own") or args.rules:
        print(format_compare(board, presets, n if args.rules else counts.get("board", 0)))
    if counts.get("own") and not args.rules:  # cases of other game families, each under its family's settings
        from dipsat.research.research import Setting

        if counts.get("board"):
            print()
        print(format_option_compare(other, [Setting(lbl) for lbl in _labels(other)] or [Setting("own rules")],
                                    counts["own"]))
    for e in errors:
        print(f"error: {e}")
    return 0 if not errors else 1


def _labels(diffs: list[Any]) -> list[str]:
    """The settings' labels of a comparison, in order of first appearance (the base first)."""
    out: list[str] = []
    for d in diffs:
        for lbl in d.results:
            if lbl not in out:
                out.append(lbl)
    return out


def cmd_coverage(args: argparse.Namespace) -> int:
    from dipsat.io.corpus import case_files
    from dipsat.research.coverage import coverage, coverage_json, format_coverage
    from dipsat.face.progress import progress_bar

    with progress_bar("coverage", total=len(case_files(args.paths)), unit="cases", quiet=args.quiet or args.json) as bar:
        covs = coverage(args.paths, on_progress=bar.advance, own=args.own, limits=limits_of(args))
    print(json.dumps(coverage_json(covs), indent=2) if args.json else format_coverage(covs, args.paths))
    return 1 if any(c.errors for c in covs) else 0


# -- listings --------------------------------------------------------------------------------------


def _as_written(value: object) -> str:
    """An option value as a user writes it after ``--option NAME=``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "(not set)"
    return str(value)


def _values_as_written(annotation: object) -> str:
    """The values an option takes, as a user writes them: ``one of a, b`` / ``true or false``."""
    import types
    import typing

    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    origin = typing.get_origin(annotation)
    if annotation is bool:
        return "true or false"
    if origin is typing.Literal:
        return "one of " + ", ".join(_as_written(a) for a in args)
    if origin in (typing.Union, types.UnionType) and len(args) == 1:
        return _values_as_written(args[0]) + ", or not set"
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_values_as_written(a) for a in args) + (", or not set" if len(args) < len(typing.get_args(annotation)) else "")
    if origin is list:
        return "a list of " + _values_as_written(args[0]).replace("a whole number", "whole numbers") if args else "a list"
    if origin is dict:
        return "a table of " + " to ".join(_values_as_written(a) for a in args) if args else "a table"
    names = {int: "a whole number", float: "a number", str: "text"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation))) if isinstance(annotation, type) else str(annotation)


def cmd_rules(args: argparse.Namespace) -> int:
    from dipsat.game.registry import all_records, find_record

    from dipsat.game.protocol import GameRecord
    from dipsat.rules import GOVERNS, PRESET_HELP, RuleOptions, preset
    from dipsat.game.variant import Variant

    records = all_records()
    boards = [v for v in records if isinstance(v, Variant)]
    if args.preset:
        names = {v.name for v in records} | {a for v in records for a in v.aliases}
        record = find_record(args.preset) if args.preset.lower() in names else None
        if isinstance(record, GameRecord):
            if record.rules_text is None:
                raise DipsatError(f"the {record.name} variant does not describe its rules")
            print(record.rules_text())
            return 0
        variant = record
        text = variant.rules_text(variant) if variant is not None else None
        if text is not None:
            print(text)
            return 0
        opts = variant.rules() if variant is not None else preset(args.preset)
        for k, v in opts.model_dump().items():
            print(f"{k} = {_as_written(v)}")
        readings = variant.readings if variant is not None else ()
        if readings:
            print("\nReadings of the rules text (fixed, not options):")
            for r in readings:
                print(f"  - {r}")
        if variant is not None:
            print()
            print(_readings_text(variant))
        return 0
    for name, text in PRESET_HELP.items():
        print(f"{name:<6} {text}")
    for v in records:
        if isinstance(v, GameRecord):
            print(f"{v.name:<6} {v.summary}")
        elif v.name != "standard":
            print(f"{v.name:<6} the {v.name} variant's rules: the {v.default_rules} preset with the variant's own choices")
    print("\nOptions (override with --option NAME=VALUE; each shown with its default and its values):")
    for name, f in RuleOptions.model_fields.items():
        if name != "name":
            scope = f"; governs {GOVERNS[name]}" if name in GOVERNS else ""
            print(f"  {name} = {_as_written(f.default)}  ({_values_as_written(f.annotation)}{scope})")
    for b in boards:  # each variant's options model adds its own fields
        own_fields = {n: f for n, f in b.options_model.model_fields.items() if n not in RuleOptions.model_fields}
        if own_fields:
            print(f"\nOptions of the {b.name} variant:")
            for name, f in own_fields.items():
                print(f"  {name} = {_as_written(f.default)}  ({_values_as_written(f.annotation)})")
    print()
    print(_readings_text(boards[0]))
    return 0


def _readings_text(variant: "Variant") -> str:
    """How ``dipsat readings`` enumerates a variant's options: in the model, per reading by the
    backup rules, or outside the model."""
    from dipsat.engine.option_space import categorical_options

    rules = variant.movement_rules_class
    names = categorical_options(variant.options_model)
    inside = [n for n in names if n in rules.option_formulas]
    backup = [n for n in names if n in rules.backup_options]
    rest = [n for n in names if n not in inside and n not in backup]
    return "\n".join([
        f"How 'dipsat readings' enumerates the {variant.name} options:",
        f"  in the model (one literal per value, each value's equations under its own): {', '.join(inside) or 'none'}",
        *([f"    ({', '.join(rules.bound_too)}: also read while binding some orders; such turns enumerate it outside)"]
          if rules.bound_too else []),
        f"  per reading, by the backup rules: {', '.join(backup) or 'none'}",
        "    (each reading's backup rule is applied to that reading's consistent resolutions from the one model",
        "    where it chooses one of them, e.g. circular movement; where a cycle has none (a paradox) or the rule's",
        "    values match none of them, the rule changes the equations and that part is solved again per reading)",
        "  outside the model (one run per value: they change how orders are read or bound, which decisions",
        f"  exist, or phases other than movement): {', '.join(rest)}"])


def cmd_schema(args: argparse.Namespace) -> int:
    from dipsat.io.schemas import schema
    from dipsat.research import output_schemas

    made = output_schemas.schema(args.what) if args.what in output_schemas.MODELS else schema(args.what)
    print(json.dumps(made, indent=2))
    return 0

