"""The benchmark: random full games per second, and how long the spec takes to load.

Figures, not assertions: run ``make bench``, ``python bench/bench.py`` or
``rattus bench``.  Games are played by uniform random players
(``state.apply_index(rng.randrange(state.num_legal_actions()))``) with chance
drawn by ``state.apply_random_chance()``, on one core.  The spec load time is
measured cold, each run in a fresh Python process: importing the interpreter,
getting the Lark parser (the one shipped beside the grammar as JSON, else a
newly built one), and parse + check + load data + compile.

Two figures are measured against a yardstick in the same process:

* random games against ``tests/rattus/reference_model.py``, an independent engine of
  the same game in plain Python (driven by action texts), loaded by path from
  the source tree (it is a test helper, not part of the package; the figure is
  left out where there is no source tree).  Both sides play the same seeds with
  the same players: a ``random.Random(seed)`` picking an index among the legal
  actions, chance events included; the games alternate in small blocks so a
  change of machine load touches both sides alike;
* where the time of a game goes, on both engines: listing the options of a
  player's turn (the spec's decisions of its turn procedure, the model's
  ``Rattus.options``), and everything else; with what the 2x target leaves for
  everything else once the spec's own listing is paid;
* ``perft`` at a given depth after setup (4 players, seed 0), in legal action
  sequences per second; the last ply is counted, not applied (see
  :mod:`rattus_rules.tools.perft`).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs

import interpreter
from interpreter import Game
from interpreter.cache import CACHE_ENV
from interpreter.compiler import CHOOSE, Decision
from interpreter.native import BACKEND_ENV
from rattus_rules.algorithms.agents import DECISION_BOUND, Played, add_bound_option, bound_text, play_random
from rattus_rules.api import forget_loaded, load_rules
from rattus_rules.games import hooks
from rattus_rules.paths import spec_dir
from rattus_rules.tools.cmdline import EXIT_USAGE, UsageError
from rattus_rules.tools.perft import MAX_PERFT_DEPTH, perft

from ..kit.conformance import start_position
from ..progress import Progress, progress
from .machine import machine as machine
from .machine import pin_to_one_core as pin_to_one_core

_CHILD = r"""
import json, sys, time
def now():
    return (time.perf_counter(), time.process_time())
def ms(a, b):
    return {"wall": 1000 * (b[0] - a[0]), "cpu": 1000 * (b[1] - a[1])}
t0 = now()
import interpreter
from interpreter import parser
t1 = now()
if sys.argv[2] == "load":
    interpreter.load_spec(sys.argv[1])
else:
    parser._lark()
t2 = now()
print(json.dumps({"import": ms(t0, t1), "work": ms(t1, t2), "lark_built": parser._lark.cache_info().currsize}))
"""


_FIRST_BUILD = r"""
import json, sys, time
import interpreter
t0 = time.perf_counter()
game = interpreter.load_spec(sys.argv[1])
t1 = time.perf_counter()
game.new_state(int(sys.argv[2]), seed=0, settings=json.loads(sys.argv[3]))
t2 = time.perf_counter()
print(json.dumps({"load": 1000 * (t1 - t0), "variant": 1000 * (t2 - t1)}))
"""


#: Bounds of the benchmark's options (a longer run is a mistake, not a benchmark).
MAX_SECONDS = 3600.0
MAX_RUNS = 1000
#: Games per engine for the split of a game's time (the same seeds each time: 0, 1, ...).
SPLIT_GAMES = 200


@attrs.frozen
class GameFigures:
    """Random games played for one player count (``seconds``: CPU time of this process)."""

    players: int
    games: int
    actions: int
    decisions: int
    seconds: float
    cut: int = 0  # games cut at the decision bound (counted in ``games``)

    @property
    def games_per_second(self) -> float:
        """Full games per second."""
        return self.games / self.seconds

    @property
    def actions_per_second(self) -> float:
        """Applied actions (player decisions and chance outcomes) per second."""
        return self.actions / self.seconds

    @property
    def decisions_per_second(self) -> float:
        """Player decisions per second."""
        return self.decisions / self.seconds


@attrs.frozen
class LoadFigures:
    """Median cold-start times in milliseconds (CPU time, and wall time) over fresh processes."""

    runs: int
    load_cpu: float  # the spec load: parse + check + load data + compile (+ building the parser if needed)
    load_wall: float
    lark_cpu: float  # building the Lark parser alone
    lark_wall: float
    import_cpu: float  # importing the interpreter
    import_wall: float
    lark_needed: bool  # whether the spec load had to build the parser


def play_random_game(game: Game, players: int, seed: int, max_decisions: int | None = DECISION_BOUND) -> Played:
    """Play one game with uniform random players, cut at ``max_decisions`` player decisions."""
    return play_random(game.new_state(players, seed=seed), seed, max_decisions)


def measure_games(game: Game, players: int, seconds: float, min_games: int = 20,
                  max_decisions: int | None = DECISION_BOUND) -> GameFigures:
    """Play random games for at least ``seconds`` and ``min_games`` games."""
    games = actions = decisions = cut = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds or games < min_games:
        played = play_random_game(game, players, seed=games, max_decisions=max_decisions)
        games += 1
        actions += played.actions
        decisions += played.decisions
        cut += played.cut
        elapsed = time.process_time() - start
    return GameFigures(players, games, actions, decisions, elapsed, cut)


#: The yardstick engine, in the source tree (a test helper: not installed with the package).
MODEL_NAME = "reference_model.py"


#: The source tree the package runs from (in an installed copy, it has no ``tests/``).
SOURCE_TREE = Path(interpreter.__file__).resolve().parent.parent


def reference_model_path(game: str = "rattus") -> Path | None:
    """``tests/<game>/reference_model.py`` of the source tree this package runs from, if there is one."""
    path = SOURCE_TREE / "tests" / game / MODEL_NAME
    return path if path.is_file() else None


def load_reference_model(path: Path) -> ModuleType:
    """Import the reference model from its file (it is not a module of any installed package)."""
    spec = importlib.util.spec_from_file_location(f"{path.parent.name}_reference_model", path)
    if spec is None or spec.loader is None:
        raise UsageError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: The engines played side by side: the C back end, the Python back end, the game's hand-written model.
ENGINES = ("c", "python", "model")
#: The shipped games measured side by side, each at the player counts of the targets of issue 26.
SIDE_BY_SIDE = {"rattus": (4,), "ratten_scharf": (2,)}


@contextmanager
def backend_selected(backend: str) -> Iterator[None]:
    """Choose a back end (``python``, ``c``, ``auto``) through ``RULES_BACKEND`` for the duration, the
    package's loaded games forgotten before and after (none loaded under another back end is reused)."""
    old = os.environ.get(BACKEND_ENV)
    os.environ[BACKEND_ENV] = backend
    forget_loaded()
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(BACKEND_ENV, None)
        else:
            os.environ[BACKEND_ENV] = old
        forget_loaded()


def backend_running(game: Game, settings: Mapping[str, str] | None = None) -> str:
    """Which back end runs a loaded game's code for some settings (default: the defaults): ``python``,
    ``c``, or ``c+python`` where some functions stay Python (``python`` where there is no C back end)."""
    report = getattr(game, "backend", None)  # Game.backend(settings), where the interpreter has a C back end
    return "python" if report is None else str(report(settings).backend)


def load_under(backend: str, game: str | None = None) -> tuple[Game | None, str]:
    """A shipped game loaded under a back end, and what runs it; (None, why) if that back end cannot."""
    try:
        with backend_selected(backend):
            loaded = load_rules(game=game)
    except Exception as err:  # a build that fails is a figure the benchmark reports, not a crash
        return None, f"does not build here: {type(err).__name__}: {str(err)[:200]}"
    running = backend_running(loaded)
    if running != backend:
        return None, f"not in this tree (issue 26): runs on {running}"
    report = getattr(loaded, "backend", None)
    return loaded, str(report().describe()) if report is not None else backend


@attrs.frozen
class SideBySide:
    """Random games of one game played by several engines on the same seeds (CPU seconds per engine)."""

    game: str
    players: int
    games: int
    seconds: dict[str, float]

    def per_second(self, engine: str) -> float:
        """Games per second of one engine."""
        return self.games / self.seconds[engine]

    def ratio(self, engine: str, yardstick: str) -> float:
        """How many times faster ``engine`` plays than ``yardstick``."""
        return self.seconds[yardstick] / self.seconds[engine]


def play_spec_by_index(game: Game, players: int, seed: int) -> None:
    """One game, every action (chance too) picked by index by a ``random.Random(seed)``."""
    state = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_index(rng.randrange(state.num_legal_actions()))


def play_model_by_index(model: ModuleType, components: Any, players: int, settings: dict[str, str],
                        seed: int) -> None:
    """The same game on a reference model (its ``new_model``): the same picks by index among its legal
    action texts (Ratten Scharf's model lists them in the spec's order: the very same games)."""
    engine = model.new_model(components, players, settings)
    rng = random.Random(seed)
    while engine.pending is not None:
        texts = engine.pending[1]
        engine.apply(texts[rng.randrange(len(texts))])


def side_by_side_engines(name: str, players: int, games: Mapping[str, Game],
                         model: ModuleType | None) -> dict[str, Callable[[int], None]]:
    """What plays one game of ``name`` from a seed, by engine: each loaded back end, and the model."""
    engines: dict[str, Callable[[int], None]] = {}
    for backend, game in games.items():
        engines[backend] = functools.partial(play_spec_by_index, game, players)
    if model is not None and games:
        components = model.Components(spec_dir(name) / "data")
        some = next(iter(games.values()))
        settings = {some.switches[switch].ident: value for switch, value in some.defaults.items()}
        engines["model"] = functools.partial(play_model_by_index, model, components, players, settings)
    return engines


def measure_side_by_side(name: str, players: int, engines: Mapping[str, Callable[[int], None]], seconds: float,
                         min_games: int = 20, block: int = 5) -> SideBySide:
    """Play the same seeds on every engine, in alternating blocks, for at least ``seconds`` in all."""
    games = 0
    spent = dict.fromkeys(engines, 0.0)
    while sum(spent.values()) < seconds or games < min_games:
        for engine, play in engines.items():
            start = time.process_time()
            for seed in range(games, games + block):
                play(seed)
            spent[engine] += time.process_time() - start
        games += block
    return SideBySide(name, players, games, spent)


@attrs.frozen
class TimeSplit:
    """The same games on both engines: the CPU time spent listing the options of a player's turn,
    and the whole games (seconds, one run)."""

    players: int
    games: int
    spec_listing: float
    spec_total: float
    model_listing: float
    model_total: float

    def per_game(self, seconds: float) -> float:
        """Milliseconds per game."""
        return 1000 * seconds / self.games

    @property
    def budget(self) -> float:
        """What the games may take, in all, at twice the model's speed (seconds)."""
        return self.model_total / 2


def turn_decisions(game: Game) -> list[Decision]:
    """The decisions of a player's turn (the procedure the game's package names: its ``turn_procedure`` hook)."""
    code = game.procedures[game.proc_index[hooks(game.name).turn_procedure or ""]].code
    return [d for op, d, _ in code if op == CHOOSE]


def measure_split(game: Game, model: ModuleType, players: int, games: int) -> TimeSplit:
    """Play the same seeds on both engines, timing each listing of a player's turn on the way.

    The listing functions are wrapped for the run (``time.perf_counter`` read before and
    after each call: a CPU clock would cost a system call each time) and put back after it,
    whatever happens.  The games are timed by both clocks, and the listing's part of the
    wall time is taken as its part of the CPU time (the machine's other load falls on both
    parts alike).  The C back end's run loop calls the listings without going through Python
    (see :func:`interpreter.native.runner`), so the spec's listings are timed in one pass of
    the games with that loop left to Python, and its whole games in another, as they run."""
    components = model.Components(spec_dir() / "data")
    settings = {game.switches[name].ident: value for name, value in game.defaults.items()}
    variant = game.variant(game.defaults)
    spent = [0.0]
    clock = time.perf_counter

    def timed(fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            start = clock()
            try:
                return fn(*args)
            finally:
                spent[0] += clock() - start
        return run

    def play(games_of: Callable[[], None]) -> tuple[float, float]:
        spent[0] = 0.0
        wall, cpu = clock(), time.process_time()
        games_of()
        wall, cpu = clock() - wall, time.process_time() - cpu
        return spent[0] / wall * cpu, cpu

    def spec_games() -> None:
        for seed in range(games):
            play_spec_by_index(game, players, seed)

    def model_games() -> None:
        for seed in range(games):
            play_model_by_index(model, components, players, settings, seed)

    decisions = turn_decisions(game)
    originals = [d.pends[variant] for d in decisions]
    model_options = model.Rattus.options
    runner = game.native_runners.get(variant)
    try:
        for d in decisions:
            d.pends[variant] = timed(d.pends[variant])
        model.Rattus.options = timed(model_options)
        game.native_runners[variant] = None
        spec_listing, spec_total = play(spec_games)
        if runner is not None:
            game.native_runners[variant] = runner
            _, spec_total = play(spec_games)
        model_listing, model_total = play(model_games)
    finally:
        for d, fn in zip(decisions, originals):
            d.pends[variant] = fn
        model.Rattus.options = model_options
        game.native_runners[variant] = runner
    return TimeSplit(players, games, spec_listing, spec_total, model_listing, model_total)


@attrs.frozen
class PerftFigures:
    """One perft count after setup and the CPU time it took."""

    players: int
    depth: int
    sequences: int
    seconds: float

    @property
    def per_second(self) -> float:
        """Legal action sequences counted per second."""
        return self.sequences / self.seconds


def measure_perft(depth: int, players: int = 4, seed: int = 0, game: str | None = None) -> PerftFigures:
    """Count the sequences of ``depth`` actions after setup (chance by the state's generator)."""
    state, _ = start_position(players, seed, game=game)
    start = time.process_time()
    count = perft(state, depth)
    return PerftFigures(players, depth, count, max(time.process_time() - start, 1e-9))


def _child_env(cache_dir: str | None, backend: str | None) -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(interpreter.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if cache_dir is not None:
        env[CACHE_ENV] = cache_dir
    if backend is not None:
        env[BACKEND_ENV] = backend
    return env


def measure_load(path: Path, runs: int, cache_dir: str | None = None, backend: str | None = None) -> LoadFigures:
    """Load the spec cold in ``runs`` fresh processes, and build the parser alone in as many more.

    ``cache_dir`` is given to the child processes as the interpreter's cache
    folder (see :mod:`interpreter.cache`); an empty string turns the cache off.
    ``backend`` chooses the back end of the children (``RULES_BACKEND``).
    """
    env = _child_env(cache_dir, backend)
    samples: dict[str, list[dict[str, Any]]] = {"load": [], "lark": []}
    for _ in range(runs):
        for what in ("load", "lark"):
            out = subprocess.run([sys.executable, "-c", _CHILD, str(path), what], env=env, check=True,
                                 capture_output=True, text=True).stdout
            samples[what].append(json.loads(out.strip().splitlines()[-1]))

    def median(what: str, key: str, clock: str) -> float:
        return float(statistics.median(s[key][clock] for s in samples[what]))

    return LoadFigures(runs, median("load", "work", "cpu"), median("load", "work", "wall"),
                       median("lark", "work", "cpu"), median("lark", "work", "wall"),
                       median("load", "import", "cpu"), median("load", "import", "wall"),
                       any(s["lark_built"] for s in samples["load"]))


@attrs.frozen
class BuildFigures:
    """Median wall times (ms) in fresh processes with an empty cache: the load (with the code of the
    defaults), and then the first state of another variant (its code made: compiled, or built in C)."""

    runs: int
    load: float
    variant: float
    settings: dict[str, str]


def other_variant(game: Game) -> dict[str, str]:
    """Settings other than the defaults: the first other option of the first switch (empty if none)."""
    for name, switch in game.switches.items():
        for option in switch.options:
            if not option.default:
                return {name: option.value}
    return {}


def measure_first_build(path: Path, game: Game, runs: int, backend: str) -> BuildFigures:
    """Load a spec in fresh processes, each with a new empty cache, then make another variant's code."""
    settings = other_variant(game)
    samples = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as fresh:
            out = subprocess.run([sys.executable, "-c", _FIRST_BUILD, str(path), str(game.min_players),
                                  json.dumps(settings)], env=_child_env(fresh, backend), check=True,
                                 capture_output=True, text=True).stdout
            samples.append(json.loads(out.strip().splitlines()[-1]))
    return BuildFigures(runs, float(statistics.median(s["load"] for s in samples)),
                        float(statistics.median(s["variant"] for s in samples)), settings)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures; ``--seconds`` per player count, ``--runs`` cold loads."""
    parser = argparse.ArgumentParser(prog="bench", description=__doc__.splitlines()[0])
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except UsageError as err:
        print(f"bench: {err}", file=sys.stderr)
        return EXIT_USAGE


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--seconds", type=float, default=3.0, help="time per player count (default 3)")
    parser.add_argument("--runs", type=int, default=7, help="fresh processes for the load time (default 7)")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4], help="player counts (default 2 3 4)")
    parser.add_argument("--any-core", action="store_true", help="do not pin the process to one CPU")
    parser.add_argument("--perft-depth", type=int, default=5, help="perft depth, 4 players (default 5)")
    add_bound_option(parser)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark with parsed arguments and print the figures."""
    seconds, runs, counts = float(args.seconds), int(args.runs), list(args.players)
    bound = args.max_decisions
    if not 0 <= seconds <= MAX_SECONDS:  # (0: the minimum number of games)
        raise UsageError(f"--seconds must be 0 to {MAX_SECONDS}")
    if not 1 <= runs <= MAX_RUNS:
        raise UsageError(f"--runs must be 1 to {MAX_RUNS}")
    if not 1 <= args.perft_depth <= MAX_PERFT_DEPTH:
        raise UsageError(f"--perft-depth must be 1 to {MAX_PERFT_DEPTH}")
    game = load_rules()
    for n in counts:
        if not game.min_players <= n <= game.max_players:
            raise UsageError(f"--players: {game.title} is for {game.min_players} to {game.max_players} "
                             f"players, not {n}")
    with progress(3 * len(counts) + 20, "bench", unit=" step") as bar:
        return _run(game, seconds, runs, counts, bound, bool(args.any_core), int(args.perft_depth), bar)


def _run(game: Game, seconds: float, runs: int, counts: list[int], bound: int | None, any_core: bool,
         depth: int, bar: Progress) -> int:
    say = bar.note
    pinned = "not pinned" if any_core else pin_to_one_core()
    say(f"machine: {machine()}; {pinned}")
    path = spec_dir()
    say(f"spec: {path}")
    say(f"back end of the games below (${BACKEND_ENV}, default auto): {backend_running(game)}")
    say("")
    say("random games: uniform random players, chance from the state's generator (CPU time of this process)")
    say(f"{'players':>7} {'games':>6} {'games/s':>9} {'actions/s':>10} {'decisions/s':>12} {'actions/game':>13}")
    cut = 0
    for n in counts:
        f = measure_games(game, n, seconds, max_decisions=bound)
        cut += f.cut
        bar.update()
        say(f"{n:>7} {f.games:>6} {f.games_per_second:>9.1f} {f.actions_per_second:>10.0f} "
            f"{f.decisions_per_second:>12.0f} {f.actions / f.games:>13.1f}")
    say("  (actions = player decisions + chance outcomes; decisions = player decisions)")
    say(f"  {bound_text(bound, cut)}")
    say("")
    loaded = _back_ends(bar)
    say("")
    _side_by_side(loaded, seconds, counts, bar)
    say("")
    _split(game, seconds, counts, bar)
    say("")
    _perft(loaded, depth, bar)
    say("")
    _records(loaded, seconds, bar)
    say("")
    say(f"spec load, cold: a fresh Python process per run, median of {runs}; ms of CPU time [wall time]")
    say(f"  {'':<11}{'spec load':>16}{'(parser needed?)':>22}{'getting the parser':>20}"
        f"{'import interpreter':>21}")
    with tempfile.TemporaryDirectory() as fresh:
        for label, cache in (("no cache", ""), ("cache warm", fresh)):
            if cache:
                measure_load(path, 1, cache)  # the first run fills the cache
                bar.update()
            lf = measure_load(path, runs, cache)
            bar.update()
            say(f"  {label:<11}{lf.load_cpu:8.1f} [{lf.load_wall:5.1f}]{'yes' if lf.lark_needed else 'no':>22}"
                f"{lf.lark_cpu:12.1f} [{lf.lark_wall:5.1f}]{lf.import_cpu:13.1f} [{lf.import_wall:5.1f}]")
    say("  spec load = parse + check + load data + compile, getting the Lark parser if a file must be parsed")
    say("  (the parser shipped beside the grammar; built anew only if it is stale: `make parser`);")
    say(f"  the cache (${CACHE_ENV}, see interpreter.cache) keeps each parsed file, as checked JSON;")
    say("  'no cache' turns it off, 'cache warm' runs after one load filled it")
    say("")
    _loads(loaded, runs, bar)
    return 0


#: Loaded games by game name, then by back end (only the back ends that run here).
Loaded = dict[str, dict[str, Game]]


def _back_ends(bar: Progress) -> Loaded:
    """Each shipped game of :data:`SIDE_BY_SIDE` under each back end that runs here, saying which."""
    say = bar.note
    loaded: Loaded = {}
    say("back ends:")
    for name in SIDE_BY_SIDE:
        loaded[name] = {}
        for backend in ("c", "python"):
            found, what = load_under(backend, name)
            if found is not None:
                loaded[name][backend] = found
            say(f"  {name} {backend}: {what if found is not None else 'skipped, ' + what}")
    bar.update()
    return loaded


def _ratio(figures: Mapping[str, float], engine: str, yardstick: str) -> str:
    """``engine`` over ``yardstick`` (rates: higher is faster), or '-' if either was not measured."""
    if engine not in figures or yardstick not in figures:
        return "-"
    return f"{figures[engine] / figures[yardstick]:.2f}x"


def _rate(figures: Mapping[str, float], engine: str, digits: int = 1) -> str:
    return f"{figures[engine]:,.{digits}f}" if engine in figures else "-"


def _side_by_side(loaded: Loaded, seconds: float, counts: list[int], bar: Progress) -> None:
    say = bar.note
    say("random games side by side: the C back end, the Python back end and the game's hand-written model")
    say("  (tests/<game>/reference_model.py of the source tree, loaded by path), the same seeds, every action")
    say("  picked by index by random.Random(seed) on each engine, games alternating in blocks of 5 (CPU time)")
    say(f"{'game':<14} {'players':>7} {'games':>6} {'C games/s':>10} {'Python':>9} {'model':>9} "
        f"{'C/Python':>9} {'C/model':>8} {'Python/model':>13}")
    for name, games in loaded.items():
        path = reference_model_path(name)
        model = load_reference_model(path) if path is not None else None
        for n in counts if name == "rattus" else SIDE_BY_SIDE[name]:
            engines = side_by_side_engines(name, n, games, model)
            f = measure_side_by_side(name, n, engines, seconds, min_games=20 if seconds else 5)
            bar.update()
            rate = {e: f.per_second(e) for e in engines}
            say(f"{name:<14} {n:>7} {f.games:>6} {_rate(rate, 'c'):>10} {_rate(rate, 'python'):>9} "
                f"{_rate(rate, 'model'):>9} {_ratio(rate, 'c', 'python'):>9} {_ratio(rate, 'c', 'model'):>8} "
                f"{_ratio(rate, 'python', 'model'):>13}")
        if model is None:
            say(f"  {name}: no model ({MODEL_NAME} is in the source tree's tests/, not installed)")
    say("  targets (issue 26): Rattus 4 players C/model >= 5x, Ratten Scharf C/model >= 3x")


def _split(game: Game, seconds: float, counts: list[int], bar: Progress) -> None:
    say = bar.note
    path = reference_model_path()
    if path is None:
        say(f"where the time goes: skipped ({MODEL_NAME} is in the source tree's tests/, not installed)")
        return
    s = measure_split(game, load_reference_model(path), max(counts), SPLIT_GAMES if seconds else 5)
    bar.update()
    say(f"where the time goes, Rattus on {backend_running(game)}, {s.players} players: the same {s.games} seeds "
        "on the spec and the model, ms of CPU time per game")
    say(f"{'':>7} {'listing a turn':>15} {'the rest':>9} {'whole game':>11}")
    for side, listing, total in (("spec", s.spec_listing, s.spec_total), ("model", s.model_listing, s.model_total)):
        say(f"{side:>7} {s.per_game(listing):>15.3f} {s.per_game(total - listing):>9.3f} {s.per_game(total):>11.3f}")
    say(f"  2x the model is {s.per_game(s.budget):.3f} ms per game: once the spec's listing is paid, "
        f"{s.per_game(s.budget - s.spec_listing):.3f} ms are left")
    rest = s.per_game(s.model_total - s.model_listing)
    say(f"  for the rest, which takes the model's hand-written code {rest:.3f} ms")


#: perft depth of each game beside Rattus's ``--perft-depth`` (Ratten Scharf's turns list hundreds of options).
PERFT_DEPTH = {"ratten_scharf": 3}


def _perft(loaded: Loaded, depth: int, bar: Progress) -> None:
    say = bar.note
    say("perft after setup, seed 0, legal action sequences per second (CPU time; the last ply is counted in")
    say("  bulk, not applied: num_legal_actions() at depth - 1)")
    say(f"{'game':<14} {'players':>7} {'depth':>5} {'sequences':>10} {'C seq/s':>12} {'Python seq/s':>13} "
        f"{'C/Python':>9}")
    for name, games in loaded.items():
        n = max(SIDE_BY_SIDE[name])
        d = min(depth, PERFT_DEPTH.get(name, depth))
        rate: dict[str, float] = {}
        sequences = 0
        for backend in games:
            with backend_selected(backend):
                pf = measure_perft(d, players=n, game=name)
            rate[backend], sequences = pf.per_second, pf.sequences
            bar.update()
        say(f"{name:<14} {n:>7} {d:>5} {sequences:>10} {_rate(rate, 'c', 0):>12} {_rate(rate, 'python', 0):>13} "
            f"{_ratio(rate, 'c', 'python'):>9}")
    say("  target (issue 26): 2,000,000 sequences/s")


def _records(loaded: Loaded, seconds: float, bar: Progress) -> None:
    from .recordbench import TABLE_RECORDS, TARGETS, bench_records, measure

    say = bar.note
    say(f"records validated per second: {TABLE_RECORDS} seeded random games of each game, written both ways, "
        "validated whole")
    say("  (rattus_rules.tools.records.validate.validate), CPU time; `make bench-records` measures more of them")
    say(f"{'game':<14} {'kind':<12} {'records':>8} {'C records/s':>12} {'Python':>9} {'C/Python':>9} {'target':>7}")
    for name, games in loaded.items():
        for kind, records in bench_records(name, TABLE_RECORDS).items():
            if not records:
                continue
            rate: dict[str, float] = {}
            for backend in games:
                with backend_selected(backend):
                    rate[backend] = measure(kind, records, seconds / 3, name).per_second
                bar.update()
            say(f"{name:<14} {kind:<12} {len(records):>8} {_rate(rate, 'c', 0):>12} {_rate(rate, 'python', 0):>9} "
                f"{_ratio(rate, 'c', 'python'):>9} {TARGETS[kind]:>7}")


def _loads(loaded: Loaded, runs: int, bar: Progress) -> None:
    say = bar.note
    builds = max(1, min(runs, 3))
    say(f"load and build by back end, fresh processes: a load with the cache warm (median of {runs}, ms of CPU")
    say(f"  [wall]); a first load with an empty cache and the first state of another variant (median of {builds},")
    say("  ms of wall time: a C build runs the compiler in a child process)")
    say(f"{'game':<14} {'back end':<9} {'cache warm':>15} {'first load':>11} {'first build of a variant':>25}")
    for name, games in loaded.items():
        path = spec_dir(name)
        for backend, game in games.items():
            with tempfile.TemporaryDirectory() as fresh:
                measure_load(path, 1, fresh, backend)  # fills the cache (and builds the C of the defaults)
                lf = measure_load(path, runs, fresh, backend)
            first = measure_first_build(path, game, builds, backend)
            bar.update()
            variant = " ".join(f"{k}={v}" for k, v in first.settings.items()) or "(no switch)"
            say(f"{name:<14} {backend:<9} {lf.load_cpu:7.1f} [{lf.load_wall:5.1f}] {first.load:>11.1f} "
                f"{first.variant:>9.1f} {variant}")
    say("  targets (issue 26): a load with the cache warm at most 150 ms, a first build at most 2 s per variant")


if __name__ == "__main__":
    sys.exit(main())
