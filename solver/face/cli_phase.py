"""The commands that adjudicate: ``adjudicate``, ``batch``, ``corpus``, ``play``, ``render``.

Each reads its file once, takes the file's game family from :func:`dipsat.game.families.find_game`
and uses only the game protocol: one code path for every family, with the same limits (the
request's size and orders when it is read, the wall-clock limit over reading and adjudicating),
errors and ``--json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from dipsat.errors import DipsatError, OutputError
from dipsat.face.colour import paint
from dipsat.io.file_kinds import reading
from dipsat.io.outputs import Output, write_file

if TYPE_CHECKING:
    from dipsat.game.protocol import GameProtocol
    from dipsat.limits import Limits


def limits_of(args: argparse.Namespace) -> Limits:
    """The limits of this run: the command's limit options, the defaults for the rest."""
    from dipsat.limits import DEFAULT_LIMITS as d, Limits

    return Limits(max_request_bytes=getattr(args, "max_request_bytes", d.max_request_bytes),
                  max_file_bytes=getattr(args, "max_file_bytes", d.max_file_bytes),
                  max_depth=getattr(args, "max_depth", d.max_depth), max_orders=getattr(args, "max_orders", d.max_orders),
                  turn_time_limit=getattr(args, "time_limit", d.turn_time_limit))


def load(args: argparse.Namespace, key: str = "file") -> tuple["GameProtocol", Any, Any]:
    """The game, the typed request and the data of the command's file, read once within the
    command's limits (a saved game for ``play``, else a request)."""
    from dipsat.game.request import read_data_file
    from dipsat.game.families import find_game, variant_of

    limits = limits_of(args)
    cap = limits.max_file_bytes if args.command == "play" else limits.max_request_bytes
    path = str(getattr(args, key))
    data = read_data_file(path, limits, max_bytes=cap)
    with reading(args.command, "standard input" if path == "-" else path, data):  # the wrong kind of file says so
        game = find_game(variant_of(data, getattr(args, "variant", None)))
        return game, game.read(data, path, limits), data


def cmd_adjudicate(args: argparse.Namespace) -> int:
    from dipsat.limits import deadline
    from dipsat.game.protocol import Engine

    limits = limits_of(args)
    engine = Engine(time_limit=limits.turn_time_limit, all_cpsat=args.all_cpsat)
    with deadline(limits.turn_time_limit):
        game, req, _ = load(args)
        opts = game.options(req, args.rules, tuple(args.option or ()))
        words = None if args.json else getattr(game, "adjudicate_words", None)  # the words without the typed result
        if words is not None:
            text = words(req, opts, engine)
        else:
            res = game.adjudicate(req, opts, engine)
    if words is None:
        text = json.dumps(res.to_json(), indent=2) if args.json else game.describe(res)
    print(text if args.json else paint(text))
    return 0


def count_requests(path: str) -> int:
    """The lines of a batch file that are requests (not blank, not a ``#`` comment), counted in
    one streaming pass (the progress bar's total)."""
    n = 0
    with open(path, "rb") as f:
        for line in f:
            text = line.strip()
            n += bool(text) and not text.startswith(b"#")
    return n


def cmd_batch(args: argparse.Namespace) -> int:
    from dipsat.io.batch import BatchSettings, Resume, load_done, read_lines
    from dipsat.io.batch_pool import run_here, run_pool
    from dipsat.face.progress import progress_bar

    settings = BatchSettings(variant=args.variant, limits=limits_of(args), explain=args.explain,
                             allow_files=tuple(args.allow_files or ()))
    if args.variant:
        from dipsat.game.registry import find_record

        find_record(args.variant)
    if args.resume and args.output in (None, "-"):
        raise DipsatError("--resume needs the output file of the earlier run (-o OUT.jsonl)")
    try:
        inp = sys.stdin.buffer if args.input == "-" else open(args.input, "rb")
    except OSError as exc:
        raise DipsatError(f"{args.input}: cannot read: {exc.strerror}") from None
    done = 0  # results already written (--resume)
    resumed: Optional[Path] = None
    out: Output
    if args.output in (None, "-"):
        out = Output(sys.stdout, "standard output")
    else:
        path = Path(args.output)
        try:
            if args.resume and path.exists():
                done, good = load_done(path)
                resumed = path
                with path.open("r+b") as f:
                    f.truncate(good)
            out = Output(path.open("a" if args.resume else "w", encoding="utf-8"), args.output)
        except OSError as exc:
            inp.close()
            raise DipsatError(f"{args.output}: cannot write: {exc.strerror}") from None
    resume = Resume(resumed, done, settings)
    lines = resume.filter(read_lines(inp, settings.limits))
    bar = progress_bar("batch", unit="turns", quiet=args.quiet)
    if bar.shown and inp is not sys.stdin.buffer and Path(args.input).is_file():  # a known size: a total and an ETA
        bar.total = max(count_requests(args.input) - done, 0)
    try:
        with bar:
            if args.dask:
                from dipsat.io.batch_dask import run_dask

                report = run_dask(lines, out, settings, args.dask, args.jobs or 2, on_result=bar.advance)
            elif (args.jobs or os.cpu_count() or 1) == 1:
                report = run_here(lines, out, settings, on_result=bar.advance)
            else:
                report = run_pool(lines, out, settings, args.jobs or os.cpu_count() or 1, on_result=bar.advance)
    except OSError as exc:  # the output's errors are OutputErrors: this is the input's
        raise DipsatError(f"{args.input}: cannot read: {exc.strerror}") from None
    except OutputError as exc:
        if args.output in (None, "-"):
            raise
        raise OutputError(f"{exc}; the results written before it are kept: run the same command with --resume "
                          "once there is room") from None
    finally:
        if inp is not sys.stdin.buffer:
            inp.close()
        if out.name != "standard output":
            try:
                out.close()
            except OutputError:
                pass  # already said, or said next
    summary = f"{report.ok} adjudicated, {report.errors} errors" + (f", {resume.skipped} already done" if resume.skipped else "")
    if report.interrupted:
        print(f"batch: interrupted after input line {report.last_line}: {summary}; run the same command "
              "with --resume to continue", file=sys.stderr)
        return 130
    if not args.quiet:
        print(f"batch: {summary}", file=sys.stderr)
    return 0 if report.errors == 0 else 1


def cmd_corpus(args: argparse.Namespace) -> int:
    from dipsat.io.corpus import case_files, run_corpus
    from dipsat.face.progress import progress_bar

    from dipsat.game.registry import find_record, variant_names
    from dipsat.rules import PRESETS

    if args.variant:
        find_record(args.variant)  # an unknown name is an error, not an empty run
    for name in args.rules or ():
        if name.lower() not in PRESETS and name.lower() not in variant_names():
            raise DipsatError(f"--rules {name!r}: unknown preset; known: {', '.join([*PRESETS, *variant_names()])}")
    with progress_bar("corpus", total=len(case_files(args.paths)), unit="cases", quiet=args.quiet) as bar:
        runs = run_corpus(args.paths, only_rules=args.rules or None, variant=args.variant, on_progress=bar.advance,
                          limits=limits_of(args))
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
        print(paint(f"{status}  {r.case_id:<{w}}  {r.rules:<6}  {r.path}"))
        if r.skipped:
            print(f"      {r.skipped}")
        for p in r.problems:
            print(f"      {p}")
    print(f"\n{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    if args.report:
        from dipsat.face.report import write_report

        try:
            write_report(runs, args.report, title=f"dipsat corpus {' '.join(args.paths)}")
        except OSError as exc:
            raise DipsatError(f"{args.report}: cannot write the report: {exc.strerror}") from None
        print(f"report: {args.report}", file=sys.stderr)
    return 0 if failed == 0 else 1


def cmd_play_mila(args: argparse.Namespace) -> int:
    """``dipsat play GAME --from mila``: replay a MILA saved game, report the first difference."""
    from dipsat.io.mila import MILA_OPTIONS, format_replay, load_mila_game, replay_mila
    from dipsat.rules import parse_overrides

    _file_limits_only(args, "with --from mila")
    game = load_mila_game(args.file, limits_of(args))
    options = {**MILA_OPTIONS, **parse_overrides(args.option or [])}
    rep = replay_mila(game, rules=args.rules, options=options, where=args.file)
    if args.json:
        print(json.dumps(rep.to_json(), indent=2))
    else:
        print(format_replay(rep))
    return 0 if rep.first_difference is None else 1


def _file_limits_only(args: argparse.Namespace, where: str) -> None:
    """Refuse per-phase limits on a replay that does not apply them (never ignore an option)."""
    from dipsat.limits import DEFAULT_LIMITS as d

    if args.time_limit != d.turn_time_limit or args.max_orders != d.max_orders:
        raise DipsatError(f"--time-limit and --max-orders apply per phase of a dipsat saved game; {where} only "
                          "--max-file-bytes and --max-depth apply")


def cmd_play(args: argparse.Namespace) -> int:
    if args.source == "mila":
        return cmd_play_mila(args)
    from dipsat.limits import deadline
    from dipsat.game.families import find_game, variant_of
    from dipsat.game.protocol import Engine
    from dipsat.game.request import read_data_file

    limits = limits_of(args)
    data = read_data_file(args.file, limits, max_bytes=limits.max_file_bytes)
    where = "standard input" if args.file == "-" else args.file
    with reading("play", where, data):  # the wrong kind of file says so
        game = find_game(variant_of(data))
        from dipsat.game.board_game import BoardGame

        if isinstance(game, BoardGame):  # a saved game of a board: phase by phase, with --save and checkpoints
            return _play_board(args, data)
    if args.no_check and isinstance(data, dict) and isinstance(data.get("phases"), list):  # no checkpoints to compare
        data = {**data, "phases": [{k: v for k, v in ph.items() if k != "expect_units"} if isinstance(ph, dict) else ph
                                   for ph in data["phases"]]}
    with deadline(limits.turn_time_limit), reading("play", where, data):
        req = game.read(data, args.file, limits)
        opts = game.options(req, args.rules, tuple(args.option or ()))  # the file's own, then --rules / --option
        res = game.adjudicate(req, opts, Engine(time_limit=limits.turn_time_limit))
    if args.save:
        _save_checkpoints(args.save, data, res)
    print(json.dumps(res.play_json(), indent=2, default=str) if args.json else paint(game.describe(res)))
    return 0


def _save_checkpoints(path: str, data: Any, res: Any) -> None:
    """``play --save``: the saved game with the position after each of its phases
    (``expect_units``), for a game whose file lists its phases as the result's history does."""
    phases = data.get("phases") if isinstance(data, dict) else None
    if not isinstance(phases, list) or len(phases) != len(res.history):
        raise DipsatError(f"play --save: a {res.variant} game file does not list its phases one by one "
                          "(there is nothing to record the positions in)")
    out = {**data, "phases": [{**ph, "expect_units": h.units_after} for ph, h in zip(phases, res.history)]}
    write_file(path, json.dumps(out, indent=2))


def _play_board(args: argparse.Namespace, data: Any) -> int:
    from dipsat.game.request import load_model
    from dipsat.game.game import SavedGame, replay, to_saved, units_by_power
    from dipsat.face.progress import progress_bar

    from dipsat.rules import parse_overrides

    limits = limits_of(args)
    saved = load_model(args.file, SavedGame, data)
    if not saved.phases:
        raise DipsatError(f"{args.file}: no phases to play ({'the file is empty' if not data else 'phases is empty'}"
                          "; a saved game lists its phases, each with its name and orders: see examples/game.toml)")
    if args.rules or args.option:  # --rules / --option replace or extend the rules the saved game names
        saved = saved.model_copy(update={"rules": args.rules or saved.rules,
                                         "options": {**saved.options, **parse_overrides(args.option or [])}})
    with progress_bar("play", total=len(saved.phases), unit="phases", quiet=args.quiet or args.json) as bar:
        game = replay(saved, check=not args.no_check, on_progress=bar.advance, limits=limits)
    if args.save:
        write_file(args.save, json.dumps(to_saved(saved, game).model_dump(exclude_none=True), indent=2))
    if args.json:
        print(json.dumps({
            "phases": [{"phase": r.name, "outcomes": [{"power": o.power, "order": o.text, "result": o.result,
                                                      "reason": o.reason} for o in r.outcomes],
                        "units": units_by_power(r.after), "centres": r.centres} for r in game.history],
            "next_phase": None if game.winner else game.phase_name,
            "winner": game.winner, "winners": list(game.winners)}, indent=2))
        return 0
    for r in game.history:
        print(paint(f"== {r.name} =="))
        if not args.quiet:
            for o in r.outcomes:
                mark = "ok  " if o.succeeded else "FAIL"
                print(paint(f"  {mark} {o.power}: {o.text}  — {o.reason}"))
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


def cmd_render(args: argparse.Namespace) -> int:
    from dipsat.game.request import read_data_file
    from dipsat.game.board_game import BoardGame
    from dipsat.limits import deadline
    from dipsat.game.families import find_game, variant_of

    limits = limits_of(args)
    with deadline(limits.turn_time_limit):
        data = read_data_file(args.file, limits)
        game = find_game(variant_of(data, args.variant))
        if isinstance(game, BoardGame) and isinstance(data, dict) and "phases" in data:  # a board's saved game
            svg = _draw_board_game(args, data)
        else:
            req = game.read(data, str(args.file), limits)
            res = None
            if isinstance(game, BoardGame):  # a board is drawn with its orders adjudicated
                if args.phase:
                    raise DipsatError("--phase is for saved games; this file is one turn")
                res = game.adjudicate(req, game.options(req, args.rules, tuple(args.option or ())))
            title = args.title
            if title is None and isinstance(data, dict) and "expect" in data and "id" in data:  # a corpus case
                title = f"{data['id']} {data.get('title', '')}".strip()
            svg = game.draw(req, res, title, args.crop, args.phase)
    return _write_svg(args, svg)


def _draw_board_game(args: argparse.Namespace, data: Any) -> str:
    from dipsat.game.request import load_model
    from dipsat.game.game import SavedGame, replay
    from dipsat.face.render import render_svg

    game = replay(load_model(args.file, SavedGame, data))
    if not game.history:
        raise DipsatError(f"{args.file}: the game has no phases to draw")
    names = [r.name for r in game.history]
    want = (args.phase or names[-1]).upper()
    if want not in names:
        raise DipsatError(f"{args.file}: no phase {args.phase!r}; its phases: {', '.join(names)}")
    rec = game.history[names.index(want)]
    title = args.title or f"{game.variant.map.title} — {rec.name}"
    return render_svg(rec.result if rec.result is not None else rec.after, title=title, crop=args.crop,
                      variant=game.variant)


def _write_svg(args: argparse.Namespace, svg: str) -> int:
    """Write a picture where ``dipsat render`` was asked to (stdout, OUT.svg, and/or a PNG)."""
    from dipsat.face.render import svg_to_png

    if args.output is None:
        if args.png:
            raise DipsatError("--png needs -o OUT (the PNG is written beside it, as OUT with .png)")
        sys.stdout.write(svg + "\n")
        return 0
    out = Path(args.output)
    if out.suffix.lower() != ".png":
        write_file(out, svg + "\n")
    try:
        if args.png or out.suffix.lower() == ".png":
            png = out.with_suffix(".png")
            tool = svg_to_png(svg, png)
            print(f"wrote {png} ({tool})", file=sys.stderr)
    except OSError as exc:
        raise DipsatError(f"{out}: cannot write: {exc.strerror}") from None
    return 0


def cmd_orders(args: argparse.Namespace) -> int:
    """``dipsat orders FILE``: every legal order of every unit of the file's position."""
    from dipsat.errors import InputFileError
    from dipsat.game.legal import legal_orders
    from dipsat.game.request import read_data_file
    from dipsat.io.file_kinds import wrong_kind
    from dipsat.rules import RuleOptions, parse_overrides

    data = read_data_file(args.file, limits_of(args))
    where = "standard input" if args.file == "-" else args.file
    said = wrong_kind("orders", where, data)  # a saved game, a file of cases: say what it is
    if said is not None:
        raise InputFileError(said)
    if not isinstance(data, dict):
        raise InputFileError(f"{where}: expected a table of fields (variant, units, ...), got {type(data).__name__}")
    keep = ("variant", "rules", "options", "units", "owners", "phase", "year", "season")
    request = {k: v for k, v in data.items() if k in keep}
    if args.variant:
        request["variant"] = args.variant
    if args.option:
        from dipsat.game.registry import find_record
        from dipsat.game.variant import Variant

        record = find_record(str(request.get("variant") or "standard"))
        model = record.options_model if isinstance(record, Variant) else RuleOptions
        request["options"] = {**dict(request.get("options") or {}), **parse_overrides(args.option, model)}
    with reading("orders", where, data):
        legal = legal_orders(request, args.rules)
    if args.json:
        print(json.dumps(legal, indent=2))
        return 0
    for power, units in legal.items():
        print(f"{power}:")
        for unit, orders in units.items():
            print(f"  {unit} ({len(orders)}):")
            for order in orders:
                print(f"    {order}")
    return 0
