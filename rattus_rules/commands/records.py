"""`rattus validate`, `rattus replay`, `rattus perft` and `rattus scenario`; `--record` for `rattus play`."""

from __future__ import annotations

import argparse
import codecs
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from interpreter import Game, State, notation
from interpreter.files import why_unread
from rattus_rules.tools.perft import CHANCE_RULES, MAX_PERFT_DEPTH, PieceWord, divide, perft

from ..api import ResolvedGame, resolve
from ..games import DEFAULT_GAME, follow_record
from ..games.rattus.render import state_svg
from ..games.rattus.scenario import Failure, ScenarioError, load_scenario, run_scenario
from ..tools.executor import local_cores
from ..tools.kit.conformance import start_position
from ..tools.progress import progress
from ..tools.records.archive import is_archive, summary, summary_table, validate_archive
from ..tools.records.validate import (
    ILLEGAL,
    KINDS,
    MAX_RECORD_CHARS,
    NOT_A_RECORD,
    OMNISCIENT,
    PLAYERS_EYE,
    Recorder,
    dumps,
    load_record_text,
    read_record_file,
    seat_names,
    seats_of,
    validate,
    which_interpretations,
)
from .common import (
    EXIT_OK,
    EXIT_RULES,
    EXIT_USAGE,
    PLAYERS_HELP,
    WORKERS_HELP,
    UsageError,
    add_json_option,
    add_rules_options,
    check_output,
    check_players,
    command_game,
    parse_interpretations,
    print_json,
    print_provenance,
    record_position,
    seed_arg,
    workers_arg,
    write_output,
)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add this module's subcommands, and --record to `rattus play`."""
    p = sub.add_parser("validate", help="check game records against the rules",
                       description="Exit 0: legal; 1: illegal (the first bad entry, why, the rule and its "
                                   "German text); 2: not a record.  Several records (an archive): one verdict "
                                   "line each, then a summary; the exit code is the worst.")
    p.add_argument("files", nargs="+", metavar="RECORD",
                   help="a record (JSON; see docs/records.md; - reads standard input), or an archive: several "
                        "files, folders (every *.json and *.jsonl below), glob patterns, JSON-lines files "
                        "(*.jsonl: one record a line)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="processes validating an archive " + WORKERS_HELP)
    p.add_argument("--which-interpretations", action="store_true",
                   help="search the interpretation settings under which the record is legal")
    add_json_option(p, "the verdict (or the report of --which-interpretations)")
    p.add_argument("--svg", metavar="OUT", help="draw the position at the first illegal entry (or the last) as SVG")
    add_rules_options(p)
    p.set_defaults(run=run_validate, any_game=True)

    p = sub.add_parser("replay", help="show the position of a recorded game after some entries")
    p.add_argument("file", help="a record (JSON)")
    p.add_argument("--at", type=int, default=None, metavar="N",
                   help="the position after the first N entries, just before entry N (default: all)")
    add_json_option(p, "the verdict of those entries and the position")
    add_rules_options(p)
    p.set_defaults(run=run_replay, any_game=True)

    p = sub.add_parser("perft", help="count the legal action sequences of a given length after setup")
    p.add_argument("--players", "-n", type=int, default=None, help=PLAYERS_HELP)
    p.add_argument("--seed", "-s", type=seed_arg, default=0, help="seed of the game (default 0)")
    p.add_argument("--depth", "-d", type=int, default=3, help="length of the sequences (default 3)")
    p.add_argument("--chance", choices=CHANCE_RULES, default="seed",
                   help="resolve chance by the state's generator (seed) or by the outcome that sorts first")
    p.add_argument("--divide", action="store_true", help="print the count for each first action")
    add_json_option(p, "the counts")
    add_rules_options(p)
    p.set_defaults(run=run_perft, any_game=True)

    p = sub.add_parser("scenario", help="run scenario files (a position, actions, expectations)")
    p.add_argument("files", nargs="+", help="scenario files (see docs/scenarios.md)")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="print only each file's failures and verdict (no log, no position)")
    add_json_option(p, "each file's outcome, failures, log and final position")
    p.set_defaults(run=run_scenarios)

    play = sub.choices.get("play")
    if play is not None:
        play.add_argument("--record", metavar="FILE", help="write the game's record (JSON) to FILE")
        play.add_argument("--record-kind", choices=KINDS, default=None,
                          help="omniscient (every face, the default) or players-eye (draws unknown)")
        play.add_argument("--viewer", metavar="SEAT",
                          help="players-eye records: whose eyes (P0..P3; the faces that seat is shown are written)")


def _read(path: str) -> str:
    """A record's text, read no further than one character past the longest record (so that it is refused).

    Standard input is read as bytes and decoded as UTF-8, as a file is (its text layer would let bytes that
    are not UTF-8 through as lone surrogates, which no output can then write).
    """
    try:
        if path == "-":
            return _read_stdin(MAX_RECORD_CHARS + 1)
        return read_record_file(path)
    except (OSError, ValueError) as err:
        raise UsageError(f"cannot read {path}: {why_unread(err)}") from None


def _read_stdin(limit: int) -> str:
    """At most ``limit`` characters of standard input, strictly UTF-8 (ValueError if not), line ends as ``\\n``."""
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:  # a text stream without bytes below it (a test's StringIO): its text is all there is
        return sys.stdin.read(limit)
    data = raw.read(4 * limit)  # a character is at most 4 bytes
    text = codecs.getincrementaldecoder("utf-8")().decode(data, final=len(data) < 4 * limit)
    return text.replace("\r\n", "\n").replace("\r", "\n")[:limit]


def load_record_arg(path: str, as_json: Callable[[dict[str, Any]], Any] | None = None) -> tuple[Any, int | None]:
    """The parsed record, or an exit code after printing why it is not JSON.

    A record that names a game of the registry (``"game": "ratten_scharf"``) selects that game when
    ``--game`` chose none: ``--game`` is needed only where nothing names the game.

    With ``as_json`` that verdict is printed as the JSON document ``as_json`` makes of it (for ``--json``).
    """
    record, bad = load_record_text(_read(path))
    follow_record(record)  # a record that names its game is read as that game, unless --game chose one
    if bad is not None:
        if as_json is not None:
            print_json(as_json(bad.to_json()))
        else:
            print(bad.format(), file=sys.stderr)
        return None, bad.exit_code
    return record, None


def run_validate(args: argparse.Namespace) -> int:
    """Validate a record; exit 0 legal, 1 illegal, 2 not a record."""
    chosen = parse_interpretations(args.interpretation)
    args.workers = workers_arg(args.workers)
    if is_archive(args.files):
        game = command_game(args)  # rules that do not load are their error, not the records'; resolved once
        return _validate_archive(args, chosen, game)
    check_output(args.svg, "--svg", "an SVG picture" if args.svg == "-" else None)  # None: no picture
    shape: Callable[[dict[str, Any]], Any] | None = None
    if args.json:  # input that is not JSON gets the JSON verdict too (docs/json.md)
        shape = (lambda v: {"status": NOT_A_RECORD, "verdict": v}) if args.which_interpretations else (lambda v: v)
    record, code = load_record_arg(args.files[0], shape)  # a record naming its game selects it (no --game)
    # rules that do not load are their error, not the record's (validate answers for both); resolved once
    game = resolve(None, args.data)
    if code is not None:
        return code
    if args.svg and game.name != DEFAULT_GAME:
        raise UsageError(f"--svg draws positions of {DEFAULT_GAME} only (its board); drop it for "
                         f"{game.name}, or see `rattus replay` for the position as text")
    if args.which_interpretations:
        if chosen:
            raise UsageError("--which-interpretations searches the settings itself; drop --interpretation")
        if args.svg:
            raise UsageError("--svg draws one verdict's position; --which-interpretations tries many settings")
        with progress(None, "interpretation settings tried", unit=" setting") as bar:
            report = which_interpretations(record, tried_one=bar.advance_to, game_name=game)
        if args.json:
            print_json(report.to_json())
        else:
            print(report.format(), file=sys.stderr if report.not_a_record is not None else sys.stdout)
        if report.not_a_record is not None:
            return EXIT_USAGE
        return EXIT_OK if report.legal else EXIT_RULES
    verdict = validate(record, chosen, game_name=game)
    if verdict.status == NOT_A_RECORD and verdict.path == "$.interpretations" and chosen:
        raise UsageError(verdict.reason)
    if args.json:
        print_json(verdict.to_json())
    else:
        print(verdict.format(seats_of(record)), file=sys.stderr if verdict.status == NOT_A_RECORD else sys.stdout)
        if verdict.status != NOT_A_RECORD and verdict.state is not None:
            print_provenance(verdict.state.game)  # the verdict stands on the component data, partly reconstructed
    if args.svg and verdict.state is not None:
        write_output(state_svg(verdict.state), args.svg)
    return verdict.exit_code


def _validate_archive(args: argparse.Namespace, chosen: dict[str, str], game: ResolvedGame) -> int:
    """Validate an archive of records in parallel: one verdict line each, then the summary."""
    if args.which_interpretations or args.svg:
        raise UsageError("--which-interpretations and --svg take one record, not an archive")
    try:
        game.rules.settings_for(chosen)
    except ValueError as err:
        raise UsageError(str(err)) from None
    workers = args.workers or local_cores()
    start = time.perf_counter()
    try:
        with progress(None, "records validated", unit=" record") as bar:
            results = validate_archive(args.files, chosen, args.data, workers, bar=bar, game=game)
    except ValueError as err:
        raise UsageError(str(err)) from None
    seconds = time.perf_counter() - start
    if args.json:
        report = {"records": [{"name": r.name, "verdict": r.verdict} for r in results], "summary": summary(results)}
        print_json(report)
    else:
        for r in results:
            print(r.line())
        print()
        print(summary_table(results, workers, seconds))
    return max((r.exit_code for r in results), default=EXIT_OK)


def run_replay(args: argparse.Namespace) -> int:
    """Print the position after the first N entries of a record."""
    record, code = load_record_arg(args.file)
    if code is not None:
        return code
    game = command_game(args)  # resolved once, after the record (which may name its game) was read
    position = record_position(record, args.at, args, args.file, game)
    state, verdict, at, total = position.state, position.verdict, position.at, position.total
    if args.json:
        print_json({"at": at, "total": total, "verdict": verdict.to_json(),
                    "next_entry": record["entries"][at] if at < total and verdict.status != ILLEGAL else None,
                    "position": game.position_json(state, position.shown, seat_names(record))})
        return EXIT_OK if verdict.status != ILLEGAL else EXIT_RULES
    if verdict.status == ILLEGAL:
        print(f"the record is illegal before entry {at}:")
        print(verdict.format(seats_of(record)))
        print()
        print(f"the position where entry {verdict.index} was refused:")
    else:
        print(f"after {at} of {total} entries" + (f"; next entry: {json.dumps(record['entries'][at])}"
                                                 if at < total else ""))
    print(game.position_text(state, position.shown, seats_of(record)))
    print_provenance(state.game)
    return EXIT_OK if verdict.status != ILLEGAL else EXIT_RULES


def run_perft(args: argparse.Namespace) -> int:
    """Print perft counts for depths 1..D (or the split by first action)."""
    chosen = parse_interpretations(args.interpretation)
    if not 1 <= args.depth <= MAX_PERFT_DEPTH:
        raise UsageError(f"--depth must be from 1 to {MAX_PERFT_DEPTH} (the count grows about tenfold with each step;"
                         " deeper searches would not end in a lifetime)")
    game = resolve(None, args.data)  # the command's game, resolved once (the setup record is not kept)
    args.players = check_players(args.players, resolved=game)
    try:
        state, _ = start_position(args.players, args.seed, chosen, args.chance, game=game)
    except ValueError as err:
        raise UsageError(str(err)) from None
    head = {"players": args.players, "seed": args.seed, "chance": args.chance, "interpretations": chosen}
    if not args.json:
        print(f"perft: {args.players} players, seed {args.seed}, chance by {args.chance}", flush=True)
    if args.divide:
        counts = _divide(state, args.depth, args.chance, game.piece_word)
        if args.json:
            print_json({**head, "depth": args.depth, "total": sum(counts.values()),
                        "divide": [{"action": text, "count": n} for text, n in counts.items()]})
            return EXIT_OK
        for text, n in counts.items():
            print(f"{text}: {n}")
        print(f"total: {sum(counts.values())}")
        return EXIT_OK
    found = []
    for depth in range(1, args.depth + 1):
        count = (sum(_divide(state, depth, args.chance, game.piece_word).values()) if depth > 2
                 else perft(state, depth, args.chance, game.piece_word))
        found.append({"depth": depth, "count": count})
        if not args.json:
            print(f"depth {depth}: {count}", flush=True)
    if args.json:
        print_json({**head, "counts": found})
    return EXIT_OK


def _divide(state: State, depth: int, chance: str, word: PieceWord) -> dict[str, int]:
    """:func:`divide` with a progress bar over the first actions (on a terminal)."""
    with progress(None, f"depth {depth}, first actions", unit=" action") as bar:
        return divide(state, depth, chance, word, started=bar.set_total, done=bar.update)


def _failed(failures: list[Failure]) -> str:
    """``1 expectation failed``, ``2 expectations failed``, ``1 action failed``, or both counts."""
    actions = sum(1 for f in failures if not f.text.startswith("expect"))
    counts = [(len(failures) - actions, "expectation"), (actions, "action")]
    return " and ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in counts if n) + " failed"


def run_scenarios(args: argparse.Namespace) -> int:
    """Run scenario files; exit 0 if every expectation held, 1 if not, 2 if a file is malformed."""
    worst = EXIT_OK
    outcomes: list[dict[str, Any]] = []
    shown: Game | None = None  # the game of the scenarios run (for the note on its component data)
    game = command_game(args)  # Rattus, resolved once for every file
    for path in args.files:
        try:
            result = run_scenario(load_scenario(path, game), game)
        except ScenarioError as err:
            if args.json:
                outcomes.append({"file": path, "status": "malformed", "error": {"line": err.line, "column": err.column,
                                                                              "message": err.message}})
            else:
                print(str(err), file=sys.stderr)
            worst = EXIT_USAGE
            continue
        if not result.ok and worst == EXIT_OK:
            worst = EXIT_RULES
        title = result.scenario.title or path
        if args.json:
            outcomes.append({
                "file": path, "title": result.scenario.title, "status": "ok" if result.ok else "failed",
                "failures": [{"line": f.line, "text": f.text, "message": f.message} for f in result.failures],
                "log": result.log,
                "position": game.position_json(result.state, names=result.scenario.seats or None)})
            continue
        if not args.quiet:
            print(f"== {title} ({path})")
            for line in result.log:
                print(f"  {line}")
            print(game.position_text(result.state, names=result.scenario.seats or None))
        for failure in result.failures:
            print(f"{path}:{failure}")
        print(f"{path}: {'ok' if result.ok else _failed(result.failures)}")
        shown = result.state.game
    if args.json:
        print_json({"ok": worst == EXIT_OK, "scenarios": outcomes})
    elif not args.quiet and shown is not None:
        print_provenance(shown)
    return worst


def recorder_for(args: argparse.Namespace, state: Any, game: ResolvedGame | None = None) -> Recorder | None:
    """The recorder `rattus play --record` writes with, or None without --record (``game``: the command's
    game, resolved once).

    UsageError if --record-kind or --viewer is given without --record, or does not fit.
    """
    if not getattr(args, "record", None):
        for option, value in (("--record-kind", getattr(args, "record_kind", None)),
                              ("--viewer", getattr(args, "viewer", None))):
            if value is not None:
                raise UsageError(f"{option} is for the record of --record FILE")
        return None
    kind = args.record_kind or OMNISCIENT
    viewer = None
    if args.viewer:
        if kind != PLAYERS_EYE:
            raise UsageError("--viewer is for --record-kind players-eye")
        viewer = notation.read_seat(args.viewer)
        if viewer is None or viewer >= state.n:
            raise UsageError(f"--viewer names a seat {notation.seat(0)}..{notation.seat(state.n - 1)}, "
                             f"not {args.viewer!r}")
    return Recorder(state, kind, seed=args.seed, viewer=viewer,
                    source="shipped" if args.data is None else str(args.data),
                    faces=None if game is None else game.faces)


def write_record(args: argparse.Namespace, recorder: Recorder) -> None:
    """Write the record of `rattus play --record FILE`."""
    write_output(dumps(recorder.record), args.record)
