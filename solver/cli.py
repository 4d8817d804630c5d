"""The ``dipsat`` command line.

    dipsat adjudicate FILE [--json] [--rules PRESET] [--option NAME=VALUE ...]
    dipsat batch IN.jsonl [-o OUT.jsonl]
    dipsat corpus PATH... [--rules PRESET ...]
    dipsat play GAME [--json] [--save OUT]
    dipsat play GAME --from mila [--json] [--rules PRESET] [--option NAME=VALUE ...]
    dipsat explore FILE
    dipsat compare PATH... --rules A --rules B
    dipsat compare PATH... --variant NAME
    dipsat why FILE --order "..."
    dipsat render FILE [-o OUT.svg] [--png]
    dipsat rules [PRESET]
    dipsat schema corpus|turn
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from .errors import DipsatError

if TYPE_CHECKING:
    from .limits import Limits
    from .variant import Variant


def _print_outcomes(outcomes) -> None:
    width = max((len(o.text) for o in outcomes), default=10)
    by_power: dict[str, list] = {}
    for o in outcomes:
        by_power.setdefault(o.power, []).append(o)
    for power in sorted(by_power):
        print(f"\n{power}:")
        for o in by_power[power]:
            mark = "ok  " if o.succeeded else "FAIL"
            print(f"  {mark} {o.text:<{width}}  {o.reason}")


def _print_result(res: Any) -> None:
    """A phase result in words; its variant, date and rules are those the result records."""
    variant: Variant = res.variant
    date = " ".join(str(x) for x in (res.position.season, res.position.year) if x)
    print(f"{variant.map.title} — {date + ' — ' if date else ''}rules: {res.rules.name}")
    movement = getattr(res, "movement", None)
    if movement is not None:
        print("\n== Movement ==")
        _print_outcomes(movement.outcomes)
        if movement.dislodged:
            print("\nDislodged: " + ", ".join(movement.position.units[u].label() for u in movement.dislodged))
        print("\n== Retreats ==")
    _print_outcomes(res.outcomes)
    if movement is not None:
        print("\nRetreat options:")
        for opt in res.options:
            u = res.position.units[opt.unit]
            opens = ", ".join(variant.map.display(l) for l in opt.open) or "none (disbanded)"
            print(f"  {u.label()}: {opens}")
            for prov, why in sorted(opt.closed.items()):
                print(f"      not {variant.map.display(prov)}: {why}")
    if res.dislodged and movement is None:
        print("\nDislodged:")
        for u in res.dislodged:
            by = res.dislodged_by.get(u)
            print(f"  {res.position.units[u].label()}" + (f"  (by {res.position.units[by].label()})" if by is not None else ""))
    if res.contested:
        print("\nLeft empty by a standoff: " + ", ".join(variant.map.provinces[p].name for p in res.contested))
    for b in res.backups:
        kind = b.kind.replace("_", " ")
        n = "no consistent resolution" if b.resolutions == 0 else f"{b.resolutions}+ consistent resolutions" if b.resolutions >= 2 else "1 resolution"
        print(f"\nBackup rule — {kind} ({n}): {b.rule}")
        for t in b.orders:
            print(f"  {t}")
    print("\nPosition after:")
    per: dict[str, list[str]] = {}
    for u in res.after.units:
        per.setdefault(u.power, []).append(u.short())
    for power in sorted(per):
        print(f"  {power}: {', '.join(per[power])}")


def _own(args, key: str = "file"):
    """(commands, data) when the file's variant (or --variant) answers the commands itself (a
    variant of another game family, :mod:`dipsat.family`); else (None, None)."""
    from .api import read_data_file
    from dipsat.variants import find_variant

    limits = _limits(args)
    data = read_data_file(getattr(args, key), limits, max_bytes=_file_cap(args, limits))
    name = getattr(args, "variant", None) or (data.get("variant") if isinstance(data, dict) else None)
    own = find_variant(name).family() if isinstance(name, str) else None
    return (own, data) if own is not None else (None, None)


def cmd_adjudicate(args) -> int:
    from .api import load_request, resolve_rules, result_to_json
    from .pipeline import Pipeline
    from .rules import parse_overrides
    from dipsat.variants import find_variant

    from .limits import deadline

    limits = _limits(args)
    own, data = _own(args)
    if own is not None:
        res = own.adjudicate(data, args.file, args.rules, tuple(args.option or ()))
        print(own.format_result(res, as_json=args.json))
        return 0
    req = load_request(args.file, limits)
    if args.variant:
        req.variant = args.variant
    if args.rules:
        req.rules = args.rules
    variant = find_variant(req.variant)
    if args.option:
        req.options = {**req.options, **parse_overrides(args.option, variant.options_model)}
    pipe = Pipeline(variant, resolve_rules(variant, req))
    with deadline(limits.turn_time_limit):
        res = pipe.adjudicate(pipe.prepare(req), "cpsat" if args.all_cpsat else "direct", limits.turn_time_limit)
    if args.json:
        out = result_to_json(res)
        out["rules"] = res.rules.name
        print(json.dumps(out, indent=2, sort_keys=False))
    else:
        _print_result(res)
    return 0


def cmd_batch(args: argparse.Namespace) -> int:
    from .batch import BatchSettings, Resume, load_done, read_lines, run_pool
    from .progress import progress_bar

    settings = BatchSettings(variant=args.variant, limits=_limits(args), explain=args.explain,
                             allow_files=tuple(args.allow_files or ()))
    if args.variant:
        from dipsat.variants import find_variant

        find_variant(args.variant)
    if args.resume and args.output in (None, "-"):
        raise DipsatError("--resume needs the output file of the earlier run (-o OUT.jsonl)")
    try:
        inp = sys.stdin.buffer if args.input == "-" else open(args.input, "rb")
    except OSError as exc:
        raise DipsatError(f"{args.input}: cannot read: {exc.strerror}") from None
    done = 0  # results already written (--resume)
    resumed: Optional[Path] = None
    if args.output in (None, "-"):
        out = sys.stdout
    else:
        path = Path(args.output)
        try:
            if args.resume and path.exists():
                done, good = load_done(path)
                resumed = path
                with path.open("r+b") as f:
                    f.truncate(good)
            out = path.open("a" if args.resume else "w", encoding="utf-8")
        except OSError as exc:
            inp.close()
            raise DipsatError(f"{args.output}: cannot write: {exc.strerror}") from None
    resume = Resume(resumed, done, settings)
    lines = resume.filter(read_lines(inp, settings.limits))
    try:
        with progress_bar("batch", unit="turns", quiet=args.quiet) as bar:
            if args.dask:
                from .batch import run_dask

                report = run_dask(lines, out, settings, args.dask, args.jobs or 2, on_result=bar.advance)
            else:
                report = run_pool(lines, out, settings, args.jobs or os.cpu_count() or 1, on_result=bar.advance)
    except OSError as exc:
        raise DipsatError(f"{args.input}: cannot read: {exc.strerror}") from None
    finally:
        if out is not sys.stdout:
            out.close()
        if inp is not sys.stdin.buffer:
            inp.close()
    summary = f"{report.ok} adjudicated, {report.errors} errors" + (f", {resume.skipped} already done" if resume.skipped else "")
    if report.interrupted:
        print(f"batch: interrupted after input line {report.last_line}: {summary}; run the same command "
              "with --resume to continue", file=sys.stderr)
        return 130
    if not args.quiet:
        print(f"batch: {summary}", file=sys.stderr)
    return 0 if report.errors == 0 else 1


def cmd_corpus(args) -> int:
    from .corpus import case_files, run_corpus
    from .progress import progress_bar

    from dipsat.variants import find_variant, variant_names
    from .rules import PRESETS

    if args.variant:
        find_variant(args.variant)  # an unknown name is an error, not an empty run
    for name in args.rules or ():
        if name.lower() not in PRESETS and name.lower() not in variant_names():
            raise DipsatError(f"--rules {name!r}: unknown preset; known: {', '.join([*PRESETS, *variant_names()])}")
    with progress_bar("corpus", total=len(case_files(args.paths)), unit="cases", quiet=args.quiet) as bar:
        runs = run_corpus(args.paths, only_rules=args.rules or None, variant=args.variant, on_progress=bar.advance,
                          limits=_limits(args))
    if not runs:
        what = " and ".join(x for x in (f"--rules {' '.join(args.rules)}" if args.rules else "",
                                       f"--variant {args.variant}" if args.variant else "") if x)
        print(f"dipsat: error: nothing to run: no case {'matches ' + what if what else 'found'} in {' '.join(args.paths)}",
              file=sys.stderr)
        return 1
    passed = sum(r.passed for r in runs)
    skipped = sum(1 for r in runs if r.skipped)
    failed = len(runs) - passed - skipped
    w = max((len(r.case_id) for r in runs), default=4)
    for r in runs:
        status = "pass" if r.passed else "skip" if r.skipped else "FAIL"
        if args.quiet and r.passed:
            continue
        print(f"{status}  {r.case_id:<{w}}  {r.rules:<6}  {r.path}")
        if r.skipped:
            print(f"      {r.skipped}")
        for p in r.problems:
            print(f"      {p}")
    print(f"\n{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    if args.report:
        from .report import write_report

        try:
            write_report(runs, args.report, title=f"dipsat corpus {' '.join(args.paths)}")
        except OSError as exc:
            raise DipsatError(f"{args.report}: cannot write the report: {exc.strerror}") from None
        print(f"report: {args.report}", file=sys.stderr)
    return 0 if failed == 0 else 1


def cmd_play_mila(args) -> int:
    """``dipsat play GAME --from mila``: replay a MILA saved game, report the first difference."""
    from .mila import MILA_OPTIONS, format_replay, load_mila_game, replay_mila
    from .rules import parse_overrides

    _file_limits_only(args, "with --from mila")
    game = load_mila_game(args.file, _limits(args))
    options = {**MILA_OPTIONS, **parse_overrides(args.option or [])}
    rep = replay_mila(game, rules=args.rules, options=options, where=args.file)
    if args.json:
        print(json.dumps(rep.to_json(), indent=2))
    else:
        print(format_replay(rep))
    return 0 if rep.first_difference is None else 1


def _file_limits_only(args: argparse.Namespace, where: str) -> None:
    """Refuse per-phase limits on a replay that does not apply them (never ignore an option)."""
    from .limits import DEFAULT_LIMITS as d

    if args.time_limit != d.turn_time_limit or args.max_orders != d.max_orders:
        raise DipsatError(f"--time-limit and --max-orders apply per phase of a dipsat saved game; {where} only "
                          "--max-file-bytes and --max-depth apply")


def cmd_play(args) -> int:
    if args.source == "mila":
        return cmd_play_mila(args)
    if args.rules or args.option:
        print("dipsat: error: --rules and --option go with --from mila (a dipsat saved game names its rules)",
              file=sys.stderr)
        return 2
    from .game import load_saved_game, replay, to_saved, units_by_power

    from .progress import progress_bar

    own, data = _own(args)
    if own is not None:
        _file_limits_only(args, f"for a {data.get('variant')} game" if isinstance(data, dict) else "here")
        print(own.play(data, args.file, check=not args.no_check, save=args.save, as_json=args.json, quiet=args.quiet))
        return 0
    limits = _limits(args)
    saved = load_saved_game(args.file, limits)
    with progress_bar("play", total=len(saved.phases), unit="phases", quiet=args.quiet or args.json) as bar:
        game = replay(saved, check=not args.no_check, on_progress=bar.advance, limits=limits)
    if args.save:
        data = to_saved(saved, game).model_dump(exclude_none=True)
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
    if args.json:
        print(json.dumps({
            "phases": [{"phase": r.name, "outcomes": [{"power": o.power, "order": o.text, "result": o.result,
                                                      "reason": o.reason} for o in r.outcomes],
                        "units": units_by_power(r.after), "centres": r.centres} for r in game.history],
            "next_phase": None if game.winner else game.phase_name,
            "winner": game.winner, "winners": list(game.winners)}, indent=2))
        return 0
    for r in game.history:
        print(f"== {r.name} ==")
        if not args.quiet:
            for o in r.outcomes:
                mark = "ok  " if o.succeeded else "FAIL"
                print(f"  {mark} {o.power}: {o.text}  — {o.reason}")
        print("  centres: " + ", ".join(f"{p} {n}" for p, n in r.centres.items()))
    print("\nPosition:")
    for power, units in units_by_power(game.position).items():
        print(f"  {power}: {', '.join(units)}")
    if len(game.winners) > 1:
        counts = game.centres()
        shares = [counts.get(w, 0) for w in game.winners]
        print(f"\n{' and '.join(game.winners)} share the victory with "
              f"{' + '.join(map(str, shares))} = {sum(shares)} supply centres.")
    elif game.winners:
        print(f"\n{game.winners[0]} wins with {game.centres().get(game.winners[0], 0)} supply centres.")
    else:
        print(f"\nNext phase: {game.phase_name}")
    return 0


def _request(args):
    from .api import load_request
    from .rules import parse_overrides
    from dipsat.variants import find_variant

    req = load_request(args.file, _limits(args))
    if getattr(args, "rules", None):
        req.rules = args.rules
    if getattr(args, "option", None):
        model = find_variant(req.variant).options_model
        req.options = {**req.options, **parse_overrides(args.option, model)}
    return req


def cmd_explore(args) -> int:
    from .research import explore, format_exploration

    own, data = _own(args)
    if own is not None:
        print(own.explore(data, args.file, args.rules, tuple(args.option or ()), args.limit))
        return 0
    print(format_exploration(explore(_request(args), limit=args.limit)))
    return 0


def cmd_readings(args: argparse.Namespace) -> int:
    import json

    from .readings import format_readings, readings_json, turn_readings

    own, data = _own(args)
    if own is not None:  # a game of its own family: its Family runs each reading
        from dipsat.variants import find_variant

        from .readings import family_readings

        name = getattr(args, "variant", None) or data.get("variant")
        rd = family_readings(find_variant(name), data, args.file, args.rules, tuple(args.option or ()))
    else:
        rd = turn_readings(_request(args))
    print(json.dumps(readings_json(rd), indent=2, default=str) if args.json else format_readings(rd, args.order))
    return 0


def cmd_compare(args) -> int:
    from .corpus import case_files
    from .progress import progress_bar
    from .research import compare, format_compare

    own_files = _own_cases(args.paths)
    if own_files:  # cases of variants that answer the commands themselves
        failures = 0
        for own, files in own_files:
            text, n_err = own.compare(files, args.rules or [])
            print(text)
            failures += n_err
        return 0 if not failures else 1
    if args.variant:  # each value of the variant's own options
        from dipsat.variants import find_variant

        from .research import format_option_compare, option_settings

        if args.rules:
            raise DipsatError("--variant compares the variant's own option values; --rules compares presets: give one")
        settings = option_settings(find_variant(args.variant))
        with progress_bar("compare", total=len(case_files(args.paths)), unit="cases", quiet=args.quiet) as bar:
            diffs, errors, n = compare(args.paths, settings, on_progress=bar.advance, variant=args.variant)
        print(format_option_compare(diffs, settings, n))
        for e in errors:
            print(f"error: {e}")
        return 0 if not errors else 1
    presets = args.rules or ["datc", "1971", "1982", "2000", "dptg"]
    with progress_bar("compare", total=len(case_files(args.paths)), unit="cases", quiet=args.quiet) as bar:
        diffs, errors, n = compare(args.paths, presets, on_progress=bar.advance)
    print(format_compare(diffs, presets, n))
    for e in errors:
        print(f"error: {e}")
    return 0 if not errors else 1


def cmd_coverage(args: argparse.Namespace) -> int:
    import json

    from .corpus import case_files
    from .coverage import coverage, coverage_json, format_coverage
    from .progress import progress_bar

    with progress_bar("coverage", total=len(case_files(args.paths)), unit="cases", quiet=args.quiet or args.json) as bar:
        covs = coverage(args.paths, on_progress=bar.advance, own=args.own)
    print(json.dumps(coverage_json(covs), indent=2) if args.json else format_coverage(covs, args.paths))
    return 1 if any(c.errors for c in covs) else 0


def _own_cases(paths: list[str]) -> list:
    """[(commands, files)] when every case file under ``paths`` belongs to variants that answer
    the commands themselves; [] otherwise."""
    from .api import read_data_file
    from .corpus import case_files
    from dipsat.variants import find_variant

    groups: dict[str, tuple] = {}
    for f in case_files(paths):
        data = read_data_file(f)
        name = data.get("variant", "standard") if isinstance(data, dict) else "standard"
        own = find_variant(name).family() if isinstance(name, str) else None
        if own is None:
            return []
        groups.setdefault(name, (own, []))[1].append(f)
    return list(groups.values())


def cmd_why(args) -> int:
    from .research import format_why, why

    own, data = _own(args)
    if own is not None:
        print(own.why(data, args.file, args.order, args.rules, tuple(args.option or ())))
        return 0
    if not args.order:
        raise DipsatError("why: name the order with --order \"...\"")
    print(format_why(why(_request(args), args.order)))
    return 0


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


def cmd_render(args) -> int:
    from .api import adjudicate, load_model, read_data_file, resolve_rules
    from .render import render_svg
    from dipsat.variants import find_variant

    data = read_data_file(args.file)
    name = getattr(args, "variant", None) or (data.get("variant") if isinstance(data, dict) else None)
    own_svg = find_variant(name).render_file(data, str(args.file), args.phase, args.title) if isinstance(name, str) else None
    if own_svg is not None:  # a variant that draws its own kind of board
        return _write_svg(args, own_svg)
    own, _ = _own(args)
    if own is not None:
        name = getattr(args, "variant", None) or data.get("variant")
        raise DipsatError(f"{args.file}: the {name} variant has its own kind of map; 'dipsat render' does not draw it yet")
    if isinstance(data, dict) and "phases" in data:  # a saved game: draw one of its phases
        from .game import SavedGame, replay

        game = replay(load_model(args.file, SavedGame, data))
        if not game.history:
            raise DipsatError(f"{args.file}: the game has no phases to draw")
        names = [r.name for r in game.history]
        want = (args.phase or names[-1]).upper()
        if want not in names:
            raise DipsatError(f"{args.file}: no phase {args.phase!r}; its phases: {', '.join(names)}")
        rec = game.history[names.index(want)]
        title = args.title or f"{game.variant.map.title} — {rec.name}"
        svg = render_svg(rec.result if rec.result is not None else rec.after, title=title, crop=args.crop,
                         variant=game.variant)
    else:
        if args.phase:
            raise DipsatError("--phase is for saved games; this file is one turn")
        req = _request(args)
        if args.variant:
            req.variant = args.variant
        res = adjudicate(req, rules=resolve_rules(find_variant(req.variant), req))
        title = args.title
        if title is None and isinstance(data, dict) and "expect" in data and "id" in data:  # a corpus case
            title = f"{data['id']} {data.get('title', '')}".strip()
        svg = render_svg(res, title=title, crop=args.crop)
    return _write_svg(args, svg)


def _write_svg(args, svg: str) -> int:
    """Write a picture where ``dipsat render`` was asked to (stdout, OUT.svg, and/or a PNG)."""
    from pathlib import Path

    from .render import svg_to_png

    if args.output is None:
        if args.png:
            raise DipsatError("--png needs -o OUT (the PNG is written beside it, as OUT with .png)")
        sys.stdout.write(svg + "\n")
        return 0
    out = Path(args.output)
    try:
        if out.suffix.lower() != ".png":
            out.write_text(svg + "\n", encoding="utf-8")
        if args.png or out.suffix.lower() == ".png":
            png = out.with_suffix(".png")
            tool = svg_to_png(svg, png)
            print(f"wrote {png} ({tool})", file=sys.stderr)
    except OSError as exc:
        raise DipsatError(f"{out}: cannot write: {exc.strerror}") from None
    return 0


def cmd_rules(args) -> int:
    from .rules import GOVERNS, PRESET_HELP, RuleOptions, preset

    if args.preset:
        from dipsat.variants import VARIANTS, find_variant

        names = {v.name: v for v in VARIANTS}
        variant = find_variant(args.preset) if args.preset.lower() in names else None
        text = variant.rules_text(variant) if variant is not None else None
        if text is not None:
            print(text)
            return 0
        own = variant.family() if variant is not None else None
        if own is not None:
            print(own.describe_rules())
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
    from dipsat.variants import VARIANTS

    for name, text in PRESET_HELP.items():
        print(f"{name:<6} {text}")
    for v in VARIANTS:
        own = v.family()
        if own is not None:
            print(f"{v.name:<6} {own.summary()}")
        elif v.name != "standard":
            print(f"{v.name:<6} the {v.name} variant's rules: the {v.default_rules} preset with the variant's own choices")
    print("\nOptions (override with --option NAME=VALUE; each shown with its default and its values):")
    for name, f in RuleOptions.model_fields.items():
        if name != "name":
            scope = f"; governs {GOVERNS[name]}" if name in GOVERNS else ""
            print(f"  {name} = {_as_written(f.default)}  ({_values_as_written(f.annotation)}{scope})")
    for v in VARIANTS:  # each variant's options model adds its own fields
        own_fields = {n: f for n, f in v.options_model.model_fields.items() if n not in RuleOptions.model_fields}
        if own_fields:
            print(f"\nOptions of the {v.name} variant:")
            for name, f in own_fields.items():
                print(f"  {name} = {_as_written(f.default)}  ({_values_as_written(f.annotation)})")
    print()
    print(_readings_text(VARIANTS[0]))
    return 0


def _readings_text(variant: "Variant") -> str:
    """How ``dipsat readings`` enumerates a variant's options: in the model, per reading by the
    backup rules, or outside the model."""
    from .option_space import categorical_options

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


def cmd_schema(args) -> int:
    from .schemas import schema

    print(json.dumps(schema(args.what), indent=2))
    return 0


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dipsat")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown (not installed)"


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {text!r}")
    return n


def _positive_seconds(text: str) -> float:
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (t > 0 and math.isfinite(t)):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return t


def _limit_arguments(p: argparse.ArgumentParser, saved_game: bool = False) -> None:
    """The limit options; ``saved_game``: the file is a whole saved game (``play``), whose size
    is capped by ``--max-file-bytes`` and whose time and orders limits apply per phase."""
    from .limits import DEFAULT_LIMITS as d

    turn = "phase" if saved_game else "turn"
    g = p.add_argument_group("limits")
    g.add_argument("--time-limit", type=_positive_seconds, default=d.turn_time_limit, metavar="SECONDS",
                   help=f"wall-clock limit per {turn}: parsing, checking and solving (default {d.turn_time_limit:g})")
    if saved_game:
        g.add_argument("--max-file-bytes", type=_positive_int, default=d.max_file_bytes, metavar="N",
                       help=f"largest saved game in bytes (default {d.max_file_bytes:,})")
    else:
        g.add_argument("--max-request-bytes", type=_positive_int, default=d.max_request_bytes, metavar="N",
                       help=f"largest request (file, line or corpus case) in bytes (default {d.max_request_bytes:,})")
    g.add_argument("--max-orders", type=_positive_int, default=d.max_orders, metavar="N",
                   help=f"most units, orders and centres in one {'phase' if saved_game else 'request'} (default {d.max_orders:,})")
    g.add_argument("--max-depth", type=_positive_int, default=d.max_depth, metavar="N",
                   help=f"deepest nesting of arrays and tables (default {d.max_depth})")


def _folder(text: str) -> str:
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a folder")
    return text


def _file_arguments(p: argparse.ArgumentParser, batch: bool = False) -> None:
    """``--allow-files DIR``: where the files a request names (a variant's map or board) may be,
    besides the bundled ones (and, for a request file, its own folder)."""
    where = "a line may name" if batch else "a request may name besides those beside its file"
    p.add_argument("--allow-files", action="append", type=_folder, metavar="DIR",
                   help=f"a folder whose files (maps, boards) {where} (repeatable; default: only bundled names)")


def _limits(args: argparse.Namespace) -> Limits:
    """The limits of this run: the command's limit options, the defaults for the rest."""
    from .limits import DEFAULT_LIMITS as d, Limits

    return Limits(max_request_bytes=getattr(args, "max_request_bytes", d.max_request_bytes),
                  max_file_bytes=getattr(args, "max_file_bytes", d.max_file_bytes),
                  max_depth=getattr(args, "max_depth", d.max_depth), max_orders=getattr(args, "max_orders", d.max_orders),
                  turn_time_limit=getattr(args, "time_limit", d.turn_time_limit))


def _file_cap(args: argparse.Namespace, limits: Limits) -> int:
    """The size limit of the command's input file: a saved game for ``play``, else a request."""
    return limits.max_file_bytes if args.command == "play" else limits.max_request_bytes


class _VersionAction(argparse.Action):
    """``--version``: the installed version, looked up only when asked (importlib.metadata is
    slow to import, and every other command starts without it)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest=dest, nargs=0, default=argparse.SUPPRESS,
                         help="show the program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: Optional[str] = None) -> None:
        print(f"dipsat {_version()}")
        parser.exit()


# the core's subcommands: a command line naming one of these needs no variant's own subcommands
CORE_COMMANDS = frozenset({"adjudicate", "batch", "corpus", "play", "explore", "compare", "why", "render", "rules",
                           "schema"})


def _names_core_command(argv: Optional[list[str]]) -> bool:
    """Does the command line name a core subcommand?  (Its first word that is not an option:
    the parser has no option before the subcommand that takes a value.)"""
    words = sys.argv[1:] if argv is None else argv
    first = next((w for w in words if not w.startswith("-")), None)
    return first in CORE_COMMANDS


def build_parser(variant_commands: bool = True) -> argparse.ArgumentParser:
    """The parser.  ``variant_commands=False`` leaves out the subcommands variants contribute
    (which imports every variant): :func:`main` does so when the command line names a core
    command, so that ``dipsat adjudicate`` starts fast."""
    p = argparse.ArgumentParser(prog="dipsat", description="CP-SAT adjudicator for Diplomacy and its variants.")
    p.add_argument("--version", action=_VersionAction)
    sub = p.add_subparsers(dest="command", required=True)

    a = sub.add_parser("adjudicate", help="adjudicate one movement turn from a position-plus-orders file (TOML or JSON)")
    a.add_argument("file")
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.add_argument("--all-cpsat", action="store_true",
                   help="solve every part of the turn with CP-SAT (default: only cycles too large to count by trying a few decisions' values; the rest is evaluated directly, same result)")
    a.add_argument("--variant", help="variant (overrides the file's; e.g. standard; see dipsat rules)")
    a.add_argument("--rules", help="rules preset (datc, 1971, 1982, 2000, dptg); default: the file's, else the variant's")
    a.add_argument("--option", action="append", metavar="NAME=VALUE", help="override one rule option (repeatable)")
    _limit_arguments(a)
    _file_arguments(a)
    a.set_defaults(func=cmd_adjudicate)

    b = sub.add_parser("batch", help="adjudicate one JSON turn request per line; one JSON result per line, same order")
    b.add_argument("input", help="the requests, one JSON object per line ('-': standard input)")
    b.add_argument("-o", "--output", help="write results here instead of standard output ('-': standard output)")
    b.add_argument("--variant", help="variant for lines that do not name one (default standard)")
    b.add_argument("-j", "--jobs", type=_positive_int, metavar="N",
                   help="worker processes (default: all cores; with --dask local: Dask workers, default 2)")
    b.add_argument("--dask", metavar="ADDRESS", help="run on a Dask cluster (scheduler address, or 'local' to start one); "
                   "needs the extra dipsat[dask]")
    b.add_argument("--resume", action="store_true", help="keep the results already in the output file and skip "
                   "as many input lines (results are in input order); append the rest")
    b.add_argument("--explain", action="store_true", help="reasons and strength terms in every result (default: "
                   "outcomes and culprits only, unless a line says \"explain\": true)")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary")
    _limit_arguments(b)
    _file_arguments(b, batch=True)
    b.set_defaults(func=cmd_batch)

    c = sub.add_parser("corpus", help="run corpus case files or folders; print a pass/fail table")
    c.add_argument("paths", nargs="+")
    c.add_argument("--rules", action="append", help="only run the expectations of this preset (repeatable)")
    c.add_argument("-q", "--quiet", action="store_true", help="list only failures")
    c.add_argument("--variant", help="only run the cases of this variant")
    c.add_argument("--report", metavar="REPORT.html", help="also write one self-contained HTML page: every case with its map, "
                   "expected against actual outcomes, filterable by status and section")
    _limit_arguments(c)
    _file_arguments(c)
    c.set_defaults(func=cmd_corpus)

    g = sub.add_parser("play", help="replay a saved game (TOML or JSON) phase by phase; check its saved positions")
    g.add_argument("file")
    g.add_argument("--json", action="store_true", help="machine-readable output")
    g.add_argument("--save", metavar="OUT.json", help="write the game with the position after every phase (checkpoints)")
    g.add_argument("--no-check", action="store_true", help="do not compare the file's saved positions")
    g.add_argument("-q", "--quiet", action="store_true", help="only centres per phase and the final position")
    g.add_argument("--from", dest="source", choices=("dipsat", "mila"), default="dipsat",
                   help="the file's format: dipsat's saved game (default) or MILA's (diplomacy package) saved-game "
                        "JSON, replayed with MILA-compatible options up to the first phase that differs (exit 1)")
    g.add_argument("--rules", help="with --from mila: the preset under the MILA options (default the variant's)")
    g.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="with --from mila: override one rule option (repeatable)")
    _limit_arguments(g, saved_game=True)
    _file_arguments(g)
    g.set_defaults(func=cmd_play)

    e = sub.add_parser("explore", help="every consistent resolution of a movement turn, and which rule picks which")
    e.add_argument("file")
    e.add_argument("--rules", help="rules preset for the base equations")
    e.add_argument("--option", action="append", metavar="NAME=VALUE")
    e.add_argument("--limit", type=int, default=64, help="stop counting after this many resolutions")
    _limit_arguments(e)
    _file_arguments(e)
    e.set_defaults(func=cmd_explore)

    k = sub.add_parser("compare", help="run corpus cases under several presets; list the orders whose outcomes differ")
    k.add_argument("paths", nargs="+")
    k.add_argument("--rules", action="append", help="a preset to compare (repeat; default: all editions)")
    k.add_argument("--variant", help="compare under each value of this variant's own rule options instead of presets")
    k.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    _file_arguments(k)
    k.set_defaults(func=cmd_compare)

    rd = sub.add_parser("readings", help="every reading of the rule options at once: each order's outcome as the "
                        "smallest conditions on the options, the distinct outcomes of the turn, the options that never matter")
    rd.add_argument("file")
    rd.add_argument("--order", help="only this order (as written in the file)")
    rd.add_argument("--json", action="store_true", help="the full table: every assignment of the options that touch the turn")
    rd.add_argument("--rules", help="rules preset for the options that are not enumerated")
    rd.add_argument("--option", action="append", metavar="NAME=VALUE", help="fix an option (it is not enumerated)")
    _limit_arguments(rd)
    _file_arguments(rd)
    rd.set_defaults(func=cmd_readings)

    cv = sub.add_parser("coverage", help="which pairs of rule readings the corpus tells apart (cases whose expected "
                        "outcomes differ), and the pairs no case tests")
    cv.add_argument("paths", nargs="+")
    cv.add_argument("--json", action="store_true", help="the full table as JSON")
    cv.add_argument("--own", action="store_true", help="only the options a variant adds to the core's DATC options")
    cv.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    _file_arguments(cv)
    cv.set_defaults(func=cmd_coverage)

    w = sub.add_parser("why", help="what one order's outcome hinges on: decisions, other orders, rule options")
    w.add_argument("file")
    w.add_argument("--order", help="the order, as written in the file (required for order-based variants)")
    w.add_argument("--rules", help="rules preset")
    w.add_argument("--option", action="append", metavar="NAME=VALUE")
    _limit_arguments(w)
    _file_arguments(w)
    w.set_defaults(func=cmd_why)

    d = sub.add_parser("render", help="draw a turn as an SVG map: the position, every order coloured by outcome")
    d.add_argument("file", help="a position-plus-orders file or a corpus case (TOML or JSON)")
    d.add_argument("-o", "--output", metavar="OUT.svg", help="write the SVG here (default: standard output); OUT.png writes a PNG")
    d.add_argument("--png", action="store_true", help="also write OUT with .png (needs cairosvg, rsvg-convert or chromium)")
    d.add_argument("--title", help="title over the map (default: map, date and phase)")
    d.add_argument("--crop", action="store_true", help="show only the part of the map the units and orders are in")
    d.add_argument("--phase", help="for a saved game: the phase to draw, e.g. F1901M (default: the last)")
    d.add_argument("--variant", help="variant (overrides the file's)")
    d.add_argument("--rules", help="rules preset")
    d.add_argument("--option", action="append", metavar="NAME=VALUE")
    _file_arguments(d)
    d.set_defaults(func=cmd_render)

    r = sub.add_parser("rules", help="list rule presets and options, or show one preset")
    r.add_argument("preset", nargs="?")
    r.set_defaults(func=cmd_rules)

    s = sub.add_parser("schema", help="print a JSON Schema: corpus (case file), turn (request), result "
                       "(adjudicate --json), batch (an output line), play (play --json)")
    s.add_argument("what", choices=["corpus", "turn", "result", "batch", "play"])
    s.set_defaults(func=cmd_schema)

    if not variant_commands:
        return p
    from dipsat.variants import VARIANTS

    for variant in VARIANTS:  # subcommands contributed by variants (e.g. research commands of their own)
        family = variant.family()
        for vc in family.commands() if family is not None else ():
            v = sub.add_parser(vc.name, help=vc.help)
            vc.configure(v)
            v.set_defaults(func=vc.run)
    return p


def main(argv: Optional[list[str]] = None) -> int:
    """Run one command; returns the exit status (0 ok, 1 some item failed, 2 bad invocation or
    unreadable input, 3 internal error, 130 interrupted)."""
    try:
        args = build_parser(variant_commands=not _names_core_command(argv)).parse_args(argv)
    except SystemExit as exc:  # argparse: usage error (2) or --help/--version (0)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        from .files import file_access
        from .limits import deadline

        # paths inside a request resolve against the file named on the command line (the corpus
        # commands set each case file as they go); explore and why answer one turn: their
        # wall-clock limit covers the whole command
        origin = getattr(args, "file", None) if args.command != "batch" else None
        with file_access(origin=origin, allowed=getattr(args, "allow_files", None) or (),
                         max_bytes=_limits(args).max_request_bytes), \
                deadline(args.time_limit if args.command in ("explore", "why", "readings") else None):
            return args.func(args)
    except DipsatError as exc:
        print(f"dipsat: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("dipsat: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0
    except Exception as exc:  # a bug, not bad input: say so, without a traceback
        where = traceback.extract_tb(exc.__traceback__)[-1]
        print(f"dipsat: internal error: {type(exc).__name__}: {str(exc)[:300]} (at {Path(where.filename).name}:"
              f"{where.lineno}); please report it with the input that caused it", file=sys.stderr)
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
