"""A loaded spec: the pipeline's stages put together, and new games made from it.

``load_spec(path)`` parses every ``*.rules`` file of a folder, checks them,
loads the component tables (optionally replaced by a user's ``data`` folder),
checks the data against the spec's `check` declarations and compiles the
procedures.  ``Game.new_state(players, seed, settings)`` starts a game.
"""

from __future__ import annotations

import functools
import re
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from . import ast as A
from . import native
from .checker import Checked, check, suggest
from .codegen import STEP_LIMIT, CompileContext, bounded
from .compiler import (
    CALL,
    CHANCE,
    CHOOSE,
    FINISH,
    RESUME,
    Decision,
    ExprCompiler,
    Fn,
    Procedure,
    ProcedureCompiler,
    leaf_procedures,
)
from .data import Table, at_most, load_table, whole_keyed
from .errors import Diagnostic, IllegalAction, RuleError, SpecError, shown
from .files import inside, read_text, why_unread
from .notation import EMPTY_LIST, NO_VALUE, Action, Reader, value_word, who
from .parser import MAX_SOURCE_BYTES, parse_file, terminal_pattern
from .runtime import State, World, all_keys, native_class
from .stored import state_from_data
from .types import ANY, EntityType

SPEC_SUFFIX = ".rules"
#: At most this many variants of the generated code: combinations of switch settings with code of
#: their own, and the one variant that any further combinations share (see :meth:`Game.variant`).
MAX_VARIANTS = 32
#: The longest word a piece may be written by (:meth:`Game.write_pieces`).
MAX_PIECE_WORD = 1_000
#: At most this many starts of new states are kept (player counts and settings: see :class:`_Start`).
MAX_STARTS = 64
_SEEDS = (1 << 64) - 1  # (a seed is taken modulo 2**64)


class _DataContext:
    """The little a state-free expression (graph filter, data check) may read."""

    def __init__(self, n: int, settings: Mapping[str, str]):
        self.n = n
        self.seats = list(range(n))
        self.budget = STEP_LIMIT
        self.settings = settings


class Game:
    """A checked and compiled spec with its component data."""

    def __init__(self, checked: Checked, tables: dict[str, Table], texts: dict[str, list[str]],
                 backend: str | None = None):
        self.checked = checked
        #: The back end asked for (``python``, ``c`` or ``auto``: see :mod:`.native`).
        self.backend_asked = native.chosen(backend)
        #: What runs each variant of the code (see :meth:`backend`), by variant number.
        self.native_reports: dict[int, native.Report] = {}
        #: The Python functions each variant's C functions fall back on (see :func:`native.fallback`).
        self.native_fallbacks: dict[int, list[Any]] = {}
        #: Each variant's C run loop, where all its functions are C (see :func:`native.runner`).
        self.native_runners: dict[int, tuple[Any, Any, Any, Any, type[State]] | None] = {}
        self.symbols = s = checked.symbols
        self.tables = tables
        self.texts = texts
        assert s.game is not None and s.players is not None and s.main is not None
        self.name = s.game.name
        self.title = s.game.title
        self.min_players, self.max_players = s.players.low, s.players.high
        #: The switches and the settings (a setting's values are its options), by name.
        self.switches: dict[str, A.SwitchDecl | A.SettingDecl] = {**s.switches, **s.settings}
        self.defaults = {name: next(o.value for o in d.options if o.default) for name, d in self.switches.items()}
        self._option_values = {name: tuple(o.value for o in d.options) for name, d in self.switches.items()}
        self.hidden_zones = {name: z.hidden for name, z in s.zones.items()}
        self.table_rows: dict[str, dict[Any, dict[str, Any]]] = {}
        self.table_keys: dict[str, list[Any]] = {}
        for name, t in tables.items():
            self.table_rows[name] = {row[t.key]: row for row in t.rows}
            self.table_keys[name] = t.keys
        for name, e in s.enums.items():
            self.table_keys[name] = list(e.values)
        # Pieces: one per row of their table, numbered across all piece types.
        self.piece_rows: list[dict[str, Any]] = []
        self.piece_keys: list[Any] = []
        self.piece_types: list[str] = []
        self.piece_start: list[str] = []
        self.piece_by_key: dict[Any, int] = {}
        self.piece_provenance_column: list[str | None] = []
        for name, decl in s.pieces.items():
            table = tables[decl.table]
            for row in table.rows:
                self.piece_provenance_column.append(table.provenance_column)
                self.piece_by_key[row[table.key]] = len(self.piece_rows)
                self.piece_rows.append(row)
                self.piece_keys.append(row[table.key])
                self.piece_types.append(name)
                self.piece_start.append(sys.intern(decl.zone))  # (a place's zone, found by identity in C)
        self.proc_index = {name: i for i, name in enumerate(s.procedures)}
        ctx = CompileContext(checked, self.table_rows, self.table_keys, self.piece_rows,
                             self.piece_keys, self.proc_index)
        self._ctx = ctx
        #: How every text of the game (actions, history, log, errors) writes each piece: ``#`` and its key
        #: (:func:`interpreter.notation.piece`) unless given words of its own (:meth:`write_pieces`).
        self.piece_words: list[str] = ctx.piece_words
        #: Reads action words back into values (see :meth:`State.find`).
        self.reader = Reader(self.piece_words, self.table_keys)
        self._places: dict[str, list[tuple[A.Pos, tuple[A.Citation, ...]]]] = {}
        #: Code for any settings: invariants, scores, data checks, explanations.
        self.exprs = ExprCompiler(ctx, places=self._places)
        self._leaves = leaf_procedures(s.procedures)
        self._variants: dict[tuple[tuple[str, str], ...], int] = {}
        self._variant_lock = threading.Lock()
        self._programs: list[ExprCompiler] = []
        self.procedures: list[Procedure] = self._compile(self.defaults)
        self._variants[tuple(sorted(self.defaults.items()))] = 0
        self.native_runners[0] = self._runner(0)
        self.main_index = self.proc_index[s.main.procedure]
        self.invariants: list[tuple[str, A.Condition, Fn]] = [
            (name, decl, self.exprs.expr(decl.expr)) for name, decl in s.invariants.items()
        ]
        self._score: Fn | None = _bounded(self.exprs.expr(s.score.expr)) if s.score else None
        self._score_param = s.score.player if s.score else ""
        self.state_inits = [(name, decl, _bounded(self.exprs.expr(decl.init))) for name, decl in s.states.items()]
        self.limit_scopes = {name: self._scope_chooser(decl.scope) for name, decl in s.limits.items()}
        self.graph_filters = {name: self.exprs.expr(g.where) if g.where is not None else None
                              for name, g in s.graphs.items()}
        #: Each picture's expressions, compiled once (see :class:`~interpreter.ast.PictureDecl`), by ``id``.
        self.picture_code: dict[int, Fn] = {}
        for picture in s.pictures.values():
            parts = [picture.x, picture.y, *(p.expr for p in picture.parts),
                     *([picture.where] if picture.where is not None else []),
                     *([picture.seat_colour] if picture.seat_colour is not None else []),
                     *(e for c in picture.clicks for e in (c.start, c.end))]
            for part in parts:
                self.picture_code[id(part)] = self.exprs.expr(part)
        self._worlds: dict[tuple[int, tuple[tuple[str, str], ...]], World] = {}
        #: Where new states begin, by player count and settings (None: the defaults; see :meth:`new_state`).
        self._starts: dict[tuple[int, tuple[tuple[str, str], ...] | None], _Start] = {}
        #: The first position of a new state of those players and settings (made by the first, as its start:
        #: :meth:`State.mark_start`): the run to it draws nothing, so a later new state is its copy, with the
        #: seed's generator (see :meth:`new_state`).
        self._begun: dict[tuple[int, tuple[tuple[str, str], ...] | None], State] = {}
        self.decisions = [ins[1] for proc in self.procedures for ins in proc.code
                          if ins[0] in (CHOOSE, CHANCE)]
        #: Settings under which the data checks held (they may read settings: a table's size).
        self._checked: set[tuple[tuple[str, str], ...]] = set()
        self.run_data_checks(self.defaults)

    def write_pieces(self, words: Sequence[str]) -> None:
        """Write each piece by a word of its own (one per piece, in piece order) in every text of
        the game: a game-agnostic hook for whoever loads the game, to be called before any state
        is made (the ``rattus_rules`` package gives each game the faces its records write).

        Pieces may share a word (pieces that look alike): a text naming it means the first option
        that writes it (:mod:`.notation`).  ValueError, the words unchanged, unless there is one
        word per piece, each of which an action text can write as one word: not empty, no white
        space, not ``-`` or ``[]``, at most :data:`MAX_PIECE_WORD` characters.
        """
        words = list(words)
        if len(words) != len(self.piece_keys):
            raise ValueError(f"{len(words)} words for the {len(self.piece_keys)} pieces of {self.name}")
        for key, word in zip(self.piece_keys, words):
            if (type(word) is not str or not word or len(word) > MAX_PIECE_WORD or word in (NO_VALUE, EMPTY_LIST)
                    or any(c.isspace() for c in word)):
                raise ValueError(f"piece {key} of {self.name} cannot be written {shown(word)}: a piece's word is "
                                 "one word of an action text")
        self.piece_words[:] = words  # the list the compiled code reads (its `say` lines)
        self.reader = Reader(self.piece_words, self.table_keys)
        for decision in self.decisions:  # texts and readings made with the old words
            decision.texts.clear()
            decision.readings.clear()
        with self._variant_lock:  # which options' texts C may write later depends on the words (written_later)
            for number in list(self.native_runners):
                self.native_runners[number] = self._runner(number)

    # --------------------------------------------------------------- variants
    def _compile(self, settings: dict[str, str] | None) -> list[Procedure]:
        """Every procedure compiled for these switch settings (None: code that reads them)."""
        exprs = ExprCompiler(self._ctx, settings, self._places)
        self._programs.append(exprs)
        compilers = [ProcedureCompiler(exprs, decl, self._leaves, self.exprs)
                     for decl in self.symbols.procedures.values()]
        # where C runs every function from a module built before, the Python ones are compiled on first need
        exprs.gen.lazy = settings is not None and self.backend_asked != "python" and native.warm(self, settings)
        procs = [c.compile() for c in compilers]
        exprs.gen.lazy = False
        number = len(self._programs) - 1
        if self.backend_asked == "python":
            self.native_reports[number] = native.Report(reason=f"{native.BACKEND_ENV}=python")
        elif settings is None:
            self.native_reports[number] = native.Report(
                reason=f"more than {MAX_VARIANTS} combinations of switch settings: this one reads them as it runs")
        else:
            self.native_reports[number] = self._native(settings, compilers, procs)
            self.native_fallbacks[number] = self.native_reports[number].fallbacks
        return procs

    def _native(self, settings: dict[str, str], compilers: list[ProcedureCompiler],
                procs: list[Procedure]) -> native.Report:
        """Put C functions in the places of the Python ones of a variant (see :mod:`.native`);
        what runs it.  With the back end ``c``, refuse (a :class:`SpecError`) where C cannot run it all."""
        strict = self.backend_asked == "c"
        try:
            report = native.attach(self, settings, compilers, procs, strict)
        except native.NativeUnavailable as err:
            if strict:
                assert self.symbols.game is not None
                raise SpecError([Diagnostic(err.pos or self.symbols.game.pos,
                                            f"{native.BACKEND_ENV}=c: {err.message}")]) from None
            report = native.Report(reason=err.message)
        if report.backend != "c":
            native.say_once(f"{self.name}: {report.describe()}")
        return report

    def backend(self, settings: Mapping[str, str] | None = None) -> native.Report:
        """What runs the code for some settings (default: the defaults): which back end, how many
        functions are C, what it cost to build or load."""
        return self.native_reports[self.variant(self.settings_for(None) if settings is None else settings)]

    def variant(self, settings: Mapping[str, str]) -> int:
        """The number of the code made for these (complete) switch settings; made on first use.

        The procedures' generated code decides every comparison of a switch with
        its options when it is made, so each combination of settings in use gets
        its own code.  The instructions, decisions and program positions are the
        same for all: each instruction holds one function per variant.  At most
        :data:`MAX_VARIANTS` variants are made: beyond that, further combinations
        share one variant whose code reads the settings of the state as it runs.

        Safe to call from several threads: a variant is made under a lock, and
        its number is published only once its code is in place.
        """
        key = tuple(sorted(settings.items()))
        number = self._variants.get(key)
        if number is not None:
            return number
        with self._variant_lock:
            number = self._variants.get(key)
            if number is None:
                if key and len(self._programs) >= MAX_VARIANTS - 1:  # the last place is the shared one's
                    key, settings = (), {}
                number = self._variants.get(key)
                if number is None:
                    number = self._add_variant(dict(settings) if key else None)
                    self._variants[key] = number
        return number

    def _add_variant(self, settings: dict[str, str] | None) -> int:
        """Make the code for some settings (None: reading them) and add it to every instruction."""
        number = len(self._programs)
        made_procs = self._compile(settings)
        assert len(self._programs) == number + 1
        for shared, made in zip(self.procedures, made_procs):
            for (op, a, b), (op2, a2, b2) in zip(shared.code, made.code):
                assert op == op2
                if op in (RESUME, FINISH):
                    a.append(a2[0])
                elif op == CALL:
                    b.append(b2[0])
                elif op in (CHOOSE, CHANCE):
                    a.pends.append(a2.pends[0])
                    a.admits.append(a2.admits[0])
        self.native_runners[number] = self._runner(number)
        return number

    def _runner(self, number: int) -> tuple[Any, Any, Any, Any, type[State]] | None:
        """A variant's C run loop (:func:`native.runner`), the module in it replaced by the class of the
        variant's new states (:func:`.runtime.native_class`)."""
        made = native.runner(self.native_reports[number], self, number)
        return None if made is None else (*made[:4], native_class(made[4]))

    def generated_sources(self, settings: Mapping[str, str] | None = None) -> dict[str, str]:
        """The Python source generated for the procedures under some settings (default: the defaults)."""
        return dict(self._programs[self.variant(self.settings_for(None) if settings is None else settings)]
                    .gen.sources)

    # ----------------------------------------------------------------- data
    def verified(self, table: str, key: Any) -> bool:
        """Whether the spec counts a table row as verified (its `verified when`)."""
        decl = self.symbols.tables[table]
        if decl.verified is None:
            return True
        fn = self.exprs.expr(decl.verified)
        return bool(fn(_DataContext(self.min_players, self.defaults), {"row": key}))  # type: ignore[arg-type]

    def unverified_rows(self) -> dict[str, tuple[int, int]]:
        """For each table with rows the spec does not count as verified (its `verified when`):
        (how many such rows, how many rows), in declaration order."""
        out: dict[str, tuple[int, int]] = {}
        for name, table in self.tables.items():
            if self.symbols.tables[name].verified is None:
                continue
            unverified = sum(1 for key in table.keys if not self.verified(name, key))
            if unverified:
                out[name] = (unverified, len(table.rows))
        return out

    def provenance_note(self) -> str | None:
        """One line saying which component data is not verified, or None if all of it is."""
        counts = self.unverified_rows()
        if not counts:
            return None
        shown = ", ".join(f"{name} {n} of {total}" for name, (n, total) in counts.items())
        return (f"component data: {sum(n for n, _ in counts.values())} table rows are reconstructed, "
                f"not verified ({shown}): play with the printed components may differ where they matter")

    def edge_rows(self, graph: str) -> list[dict[str, Any]]:
        """The rows of a graph's edge table."""
        return list(self.tables[self.symbols.graphs[graph].edges].rows)

    def run_data_checks(self, settings: Mapping[str, str]) -> None:
        """Evaluate every `check` against the loaded tables under some settings; raise :class:`SpecError`."""
        key = tuple(sorted(settings.items()))
        if key in self._checked:
            return
        problems = []
        files = sorted({t.path for t in self.tables.values()})
        for name, decl in self.symbols.checks.items():
            fn = self.exprs.expr(decl.expr)
            try:
                ok = fn(_DataContext(self.min_players, settings), {})  # type: ignore[arg-type]
            except Exception as err:
                ok = False
                name = f"{name} ({type(err).__name__}: {err})"
            if not ok:
                cites = "; ".join(str(c) for c in decl.citations)
                problems.append(Diagnostic(decl.pos, f"the component data fails check {name} "
                                           f"(data: {', '.join(files)}; {cites})"))
        if problems:
            raise SpecError(problems)
        self._checked.add(key)

    def world(self, n: int, settings: Mapping[str, str] | None = None) -> World:
        """Nodes in play and adjacency for n players under some settings (default: the defaults; cached)."""
        chosen = self.defaults if settings is None else settings
        key = (n, tuple(sorted(chosen.items())))
        cached = self._worlds.get(key)
        if cached is not None:
            return cached
        ctx = _DataContext(n, chosen)
        nodes: dict[str, list[Any]] = {}
        adjacent: dict[str, dict[Any, list[Any]]] = {}
        for name, g in self.symbols.graphs.items():
            filt = self.graph_filters[name]
            keys = [k for k in self.table_keys[g.nodes]
                    if filt is None or filt(ctx, {"row": k})]  # type: ignore[arg-type]
            in_play = set(keys)
            adj: dict[Any, list[Any]] = {k: [] for k in keys}
            for row in self.tables[g.edges].rows:
                a, b = row[g.source], row[g.target]
                if a in in_play and b in in_play and a != b:
                    if b not in adj[a]:
                        adj[a].append(b)
                    if a not in adj[b]:
                        adj[b].append(a)
            order = {k: i for i, k in enumerate(keys)}
            for k in adj:
                adj[k].sort(key=order.__getitem__)
            nodes[name] = keys
            adjacent[name] = adj
        world = World(nodes, adjacent)
        self._worlds[key] = world
        return world

    def domain(self, dim: str, n: int) -> list[Any]:
        """The keys of a dimension for n players."""
        if dim == "player":
            return list(range(n))
        if dim in self.symbols.graphs:
            return list(self.table_keys[self.symbols.graphs[dim].nodes])
        return list(self.table_keys[dim])

    # ------------------------------------------------------------- settings
    def settings_for(self, chosen: Mapping[str, str] | None) -> dict[str, str]:
        """Switch settings and game settings (by public id, `a-b` or `a_b`) completed with the defaults.

        Raise ValueError for an unknown name, a value that is not one of its
        options, or settings under which the component data fails a data check
        (a table too small for its start position, say).
        """
        settings = dict(self.defaults)
        if not chosen:  # (the data checks held under the defaults when the game was loaded)
            return settings
        for ident, value in chosen.items():
            name = ident.replace("-", "_")
            decl = self.switches.get(name)
            if decl is None:
                known = [d.ident for d in self.switches.values()]
                what = "interpretation or setting" if self.symbols.settings else "interpretation"
                raise ValueError(f"unknown {what} {ident!r}{suggest(ident, known)} "
                                 f"(known: {', '.join(known) or 'none'})")
            values = self._option_values[name]
            if value not in values:
                what = "setting" if isinstance(decl, A.SettingDecl) else "interpretation"
                raise ValueError(f"{what} {decl.ident} has no option {shown(value)} "
                                 f"(options: {', '.join(values)})")
            settings[name] = value
        try:
            self.run_data_checks(settings)
        except SpecError as err:
            raise ValueError("under these settings " + "; ".join(d.message for d in err.diagnostics)) from None
        return settings

    @property
    def players_text(self) -> str:
        """The player counts in words, for messages: ``2 to 4``, or ``2`` for a game of one count."""
        low, high = self.min_players, self.max_players
        return str(low) if low == high else f"{low} to {high}"

    # ---------------------------------------------------------------- states
    def _blank_state(self, players: int, settings: dict[str, str], seed: int) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.players_text} players, not {players}")
        variant = self.variant(settings)
        st = object.__new__(self.state_class(variant))
        st.budget = STEP_LIMIT
        st.game = self
        st.n = players
        st.seats = list(range(players))
        st.settings = settings
        st.variant = variant
        st.world = self.world(players, settings)
        st.vals = {}
        st.zones = {}
        st.loc = [("", None)] * len(self.piece_rows)
        st.face_up = [False] * len(self.piece_rows)
        st.seen = [0] * len(self.piece_rows)
        st.used = {name: set() for name in self.symbols.limits}
        st.scope_limits = self._scope_limits(st)
        _not_started(st, seed)
        return st

    def state_class(self, variant: int) -> type[State]:
        """The class of a new state of a variant: :class:`State`, or where the variant runs wholly in C the
        subclass whose methods a game loop calls at every action are C (see :func:`.runtime.native_class`)."""
        native = self.native_runners.get(variant)
        return State if native is None else native[4]

    def _scope_chooser(self, node: A.Expr) -> Any:
        """A limit's scope: a name, or (condition, then-chooser, else-chooser)."""
        if isinstance(node, A.Conditional):
            return (self.exprs.expr(node.cond), self._scope_chooser(node.then),
                    self._scope_chooser(node.otherwise))
        assert isinstance(node, A.Name)
        return node.ident

    def _scope_limits(self, st: State) -> dict[str, list[str]]:
        """Which limits each scope resets, under the state's switch settings."""
        out: dict[str, list[str]] = {}
        for name, chooser in self.limit_scopes.items():
            while not isinstance(chooser, str):
                cond, then, otherwise = chooser
                chooser = then if cond(st, {}) else otherwise
            out.setdefault(sys.intern(chooser), []).append(name)
        return out

    def new_state(self, players: int, seed: int = 0, settings: Mapping[str, str] | None = None,
                  log: bool = False, check_invariants: bool = False, lazy: bool = False,
                  resolve_setup_chance: bool = False) -> State:
        """A new game: state initialised, main procedure run to its first decision **or chance event**.

        Unlike ``rattus_rules.new_game``, whose ``resolve_setup_chance`` is True, the state returned
        may wait at a chance node (the draws of a game's setup), as records, the
        referee in chance mode ``client`` and the conformance kits start.  With
        ``new_state(..., resolve_setup_chance=True)`` those draws are taken from the state's generator, as
        ``new_game`` does: both then give the same state for the same seed.
        ``lazy``: list each decision's options only when they are read (:attr:`State.lazy`).
        """
        chosen = self.settings_for(settings)
        key = (players, tuple(sorted(chosen.items())) if settings else None)
        plain = not (log or check_invariants or lazy)
        begun = self._begun.get(key) if plain else None
        if begun is not None and type(begun) is self.state_class(begun.variant):
            st = begun.clone()  # (its own containers: a copy shares only what never changes in place)
            st.settings = chosen
            st.seats = list(range(players))
            st.rng = seed & _SEEDS
            st.start = begun._restarted(st.rng)
            if resolve_setup_chance:
                st.advance_chance()
            return st
        start = self._starts.get(key)
        if start is not None:  # the same start as the last game of these players and settings, copied
            st = start.state(self, chosen, seed)
        else:
            st = self._blank_state(players, chosen, seed)
            self._set_up(st)
            start = _Start.of(st)
            if start is not None and len(self._starts) < MAX_STARTS:
                self._starts[key] = start
        st.log = [] if log else None
        st.check_invariants = check_invariants
        st.lazy = lazy
        if lazy and type(st) is not State:
            st.__class__ = State  # (its Python methods list as they read: see state_class)
        st.frames = [[self.main_index, 0, {}]]
        st._run()
        if check_invariants:
            st.assert_invariants("setup")
        st.mark_start()
        if plain and st.start is not None and (key in self._begun or len(self._begun) < MAX_STARTS) \
                and not any(type(v) is list for table in st.vals.values() for v in table.values()):
            self._begun[key] = st.start  # (never changed: a start is copied, never changed; a list in a table
            # would be shared by the copies, which Python may change in place)
        if resolve_setup_chance:
            st.advance_chance()
        return st

    def _set_up(self, st: State) -> None:
        """Give a blank state its tables' initial values and every piece its start zone (before the main
        procedure runs)."""
        players = st.n
        for name, decl, init in self.state_inits:
            keys = all_keys([self.domain(d, players) for d in decl.dims])
            # the initial value names no key: one value for every key (each list a copy of its own)
            value = st.evaluate(init, {}, decl.pos, decl.citations) if keys else None
            st.vals[name] = {k: list(value) for k in keys} if type(value) is list else dict.fromkeys(keys, value)
        for name, z in self.symbols.zones.items():
            domains = [self.domain(d, players) for d in z.dims]
            st.zones[name] = {k: [] for k in all_keys(domains)}
        for pid, zone in enumerate(self.piece_start):
            st.zones[zone][None].append(pid)
            st.loc[pid] = (zone, None)
            st.face_up[pid] = not self.hidden_zones[zone]

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state stored with :meth:`State.to_json`, checking it all (see :mod:`.stored`).

        Raise ValueError, saying what is wrong and where, for anything that a
        state of this game cannot be.
        """
        return state_from_data(self, data)

    def score(self, st: State, player: int) -> int:
        """A player's score by the spec's `score` declaration (0 if there is none)."""
        if self._score is None:
            return 0
        decl = self.symbols.score
        assert decl is not None
        score = st.evaluate(self._score, {self._score_param: player}, decl.pos, decl.citations)
        if type(score) is not int:  # a score written with values of type any
            raise RuleError(f"the score of {who(player)} is not a number: {shown(score)}", decl.pos, decl.citations)
        return score

    # ---------------------------------------------------------- explanation
    def explain(self, st: State, text: str) -> tuple[str, tuple[A.Citation, ...]]:
        """Why an action text is not legal in a state, and the rule text concerned."""
        pending = st.pending
        if pending is None:
            return "the game is over", ()
        decision = pending.decision
        asked = who(pending.player)
        try:
            action = Action.from_text(text)
        except ValueError:
            return "empty action", decision.citations
        verb, args = action.verb, action.args
        same_verb = [b for b in decision.branches if b.verb == verb]
        if not same_verb:
            verbs = sorted({b.verb for b in decision.branches})
            return (f"{asked} is asked to decide `{decision.rule}` (one of: {', '.join(verbs)}), "
                    f"not {verb!r}"), decision.citations
        env = dict(st.frames[-1][2])
        reasons = []
        for branch in same_verb:
            cites = branch.citations + decision.citations
            if len(branch.bindings) != len(args):
                reasons.append((f"`{verb}` takes {len(branch.bindings)} value(s) here", cites))
                continue
            if branch.when is not None and not branch.when(st, env):
                src = branch.source
                cond = src.when if isinstance(src, A.Option) else None
                return (f"`{verb}` is not allowed now: {self.snippet(cond)} does not hold", cites)
            ok = True
            for binding, word in zip(branch.bindings, args):
                values = binding.domain(st, env)
                match = [v for v in values if value_word(v, binding.type, self.piece_words) == word]
                if not match:
                    ok = False
                    reasons.append((f"{word!r} is not one of {self.snippet(binding.source.domain)}", cites))
                    break
                env[binding.var] = match[0]
                if binding.where is not None and not binding.where(st, env):
                    ok = False
                    reasons.append((f"{binding.var} = {word}: {self.snippet(binding.source.where)} "
                                    "does not hold", cites))
                    break
            if ok:
                reasons.append(("it is not among the legal actions", cites))
        return reasons[0] if reasons else ("no such action", decision.citations)

    def snippet(self, e: A.Expr | None) -> str:
        """The spec text of an expression, quoted."""
        if e is None:
            return "its condition"
        pos = e.pos
        lines = self.texts.get(pos.path, [])
        if not (0 < pos.line <= len(lines)):
            return "its condition"
        if pos.end_line == pos.line and pos.end_column:
            text = lines[pos.line - 1][pos.column - 1:pos.end_column - 1]
        elif pos.end_line and pos.line < pos.end_line <= len(lines) and pos.end_column:
            # an expression over several lines: all of it, not its first line cut off mid-way
            text = " ".join(_uncommented(line) for line in [lines[pos.line - 1][pos.column - 1:],
                                                              *lines[pos.line:pos.end_line - 1],
                                                              lines[pos.end_line - 1][:pos.end_column - 1]])
        else:
            text = lines[pos.line - 1][pos.column - 1:]
        return f"`{' '.join(text.split())}`"

    def citations_of_rule(self, name: str) -> tuple[A.Citation, ...]:
        """The citations of a named rule or procedure."""
        s = self.symbols
        if name in s.rules:
            return s.rules[name].citations
        if name in s.procedures:
            return s.procedures[name].citations
        return ()

    def decision_at(self, proc: int, pc: int) -> Decision | None:
        """The decision instruction at a program position, if it is one."""
        op, a, _ = self.procedures[proc].code[pc]
        return a if op in (CHOOSE, CHANCE) else None


class _Start:
    """A new state's data before its main procedure first runs (the tables' initial values, every piece in
    its start zone), which depends on the player count and the settings alone: made once by running the
    initial values, then copied for each new state of those players and settings."""

    __slots__ = ("face_up", "listed", "loc", "n", "scope_limits", "vals", "variant", "world", "zones")

    def __init__(self, st: State):
        self.n = st.n
        self.variant = st.variant
        self.world = st.world
        self.scope_limits = st.scope_limits
        # (each list a copy: the state set up goes on, and Python may change its lists in place)
        self.vals = {name: {k: list(v) if type(v) is list else v for k, v in table.items()}
                     for name, table in st.vals.items()}
        #: the tables holding a list (a new state copies each of their lists), found once: not each new state
        self.listed = frozenset(name for name, table in self.vals.items()
                                if any(type(v) is list for v in table.values()))
        self.zones = {name: {k: pieces.copy() for k, pieces in table.items()} for name, table in st.zones.items()}
        self.loc = st.loc.copy()
        self.face_up = st.face_up.copy()

    @staticmethod
    def of(st: State) -> _Start | None:
        """The start of a state just set up; None if some initial value is neither a plain value nor a
        list of them (then each new state evaluates its initial values again)."""
        for table in st.vals.values():
            for value in table.values():
                if not (_plain(value) or (type(value) is list and all(map(_plain, value)))):
                    return None
        return _Start(st)

    def state(self, game: Game, settings: dict[str, str], seed: int) -> State:
        """A new blank state set up as this start says (each list a new copy), as :meth:`Game._set_up` sets it."""
        st = object.__new__(game.state_class(self.variant))
        st.budget = STEP_LIMIT
        st.game = game
        st.n = self.n
        st.seats = list(range(self.n))
        st.settings = settings
        st.variant = self.variant
        st.world = self.world
        listed = self.listed
        st.vals = {name: {k: list(v) for k, v in table.items()} if name in listed else table.copy()
                   for name, table in self.vals.items()}
        st.zones = {name: {k: pieces.copy() for k, pieces in table.items()} for name, table in self.zones.items()}
        st.loc = self.loc.copy()
        st.face_up = self.face_up.copy()
        st.seen = [0] * len(self.loc)
        st.used = {name: set() for name in game.symbols.limits}
        st.scope_limits = self.scope_limits
        _not_started(st, seed)
        return st


def _not_started(st: State, seed: int) -> None:
    """Set what a state has before its first run: no frames, no decision, no history, the seed's generator."""
    st.frames = []
    st.rng = seed & _SEEDS
    st.pending = None
    st.winners = None
    st.history = []
    st.log = None
    st.check_invariants = False
    st.lazy = False
    st.start = None
    st.trail = None


def _plain(value: Any) -> bool:
    """Whether a value is none, a number, yes/no, a text or a tuple of such (none of them changes in place)."""
    kind = type(value)
    return (value is None or kind is int or kind is bool or kind is str
            or (kind is tuple and all(map(_plain, value))))


def _bounded(fn: Fn) -> Fn:
    """A compiled expression whose value, if a number, must be within the language's bound."""
    return lambda st, env: bounded(fn(st, env))


def spec_files(path: Path) -> list[Path]:
    """The spec files of a folder (sorted), or the one file named."""
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.suffix == SPEC_SUFFIX)
    return [path]


def load_spec(path: Path | str, data: Path | str | None = None, display_root: Path | None = None,
              backend: str | None = None) -> Game:
    """Parse, check, load data and compile a spec folder (or file).

    ``data`` names a folder (or one CSV file) whose tables replace the spec's
    files of the same name.  ``backend``: ``python``, ``c`` or ``auto`` (default: the
    ``RULES_BACKEND`` environment variable, else ``auto``; see :mod:`.native`).
    Every problem raises :class:`SpecError`.
    """
    root = Path(path)
    files = spec_files(root)
    if not files:
        raise SpecError([Diagnostic(A.Pos(str(root), 1, 1), f"no {SPEC_SUFFIX} files found")])
    parsed = []
    texts: dict[str, list[str]] = {}
    problems: list[Diagnostic] = []
    for f in files:
        shown = str(f.relative_to(display_root)) if display_root and f.is_relative_to(display_root) else str(f)
        if root.is_dir() and not inside(f, root):  # a link leading out: never read (nor shown)
            problems.append(Diagnostic(A.Pos(shown, 1, 1), "the spec file is a link that leads out of "
                                                           "the spec's folder; a spec file must lie in it"))
            continue
        try:
            texts[shown] = read_text(f, MAX_SOURCE_BYTES).splitlines()
        except (OSError, ValueError):
            texts[shown] = []
        try:
            parsed.append(parse_file(f, shown))
        except SpecError as err:
            problems.extend(err.diagnostics)
    if problems:
        raise SpecError(problems)
    checked = check(parsed, texts)
    spec_dir = root if root.is_dir() else root.parent
    override = Path(data) if data is not None else None
    if override is not None:
        try:
            _check_override(override, [decl.file for decl in checked.symbols.tables.values()])
        except OSError as err:  # a name too long, a folder that cannot be looked into, ...
            raise SpecError([Diagnostic(A.Pos(str(override)[:200], 1, 1), f"cannot read the data path: "
                                        f"{why_unread(err)}", unreadable_input=True)]) from None
    enums = {name: e.values for name, e in checked.symbols.enums.items()}
    tables: dict[str, Table] = {}
    whole = whole_keyed(checked.symbols.tables, checked.symbols.column_type)
    for name, decl in checked.symbols.tables.items():
        try:
            columns = {c.name: checked.symbols.column_type(name, c.name) or ANY for c in _columns(decl)}
            tables[name] = load_table(decl, spec_dir, override, enums, columns, whole)
        except SpecError as err:
            problems.extend(err.diagnostics)
    if problems:
        raise SpecError(problems)
    problems.extend(_check_references(checked, tables))
    problems.extend(_check_repeats(checked, tables))
    if problems:
        raise SpecError(problems)
    try:
        return Game(checked, tables, texts, backend=backend)
    except RuleError as err:
        raise SpecError([Diagnostic(err.pos, err.message)]) from None


def _check_override(override: Path, files: list[str]) -> None:
    """Refuse a data path that replaces no table: none, a file named like none of them, a folder holding none.

    Raise OSError if the path cannot be looked at.
    """
    if not override.exists():
        raise SpecError([Diagnostic(A.Pos(str(override), 1, 1), "data path does not exist", unreadable_input=True)])
    names = sorted({Path(f).name for f in files})
    if override.is_dir():
        if not any((override / f).exists() or (override / Path(f).name).exists() for f in files):
            raise SpecError([Diagnostic(A.Pos(str(override), 1, 1), "the data folder holds no table file "
                                        f"(the tables' files: {', '.join(names)})", unreadable_input=True)])
    elif Path(override).name not in names:
        raise SpecError([Diagnostic(A.Pos(str(override), 1, 1), "a data file replaces the table of the same "
                                    f"file name, and no table is read from {override.name!r} "
                                    f"(the tables' files: {', '.join(names)})", unreadable_input=True)])


def _columns(decl: A.TableDecl) -> list[A.Column]:
    """A table's columns, its key and its provenance column first and last."""
    provenance = [A.Column(decl.provenance, "text", decl.pos)] if decl.provenance else []
    return [*([decl.key] if decl.key else []), *decl.columns, *provenance]


def _check_references(checked: Checked, tables: dict[str, Table]) -> list[Diagnostic]:
    """Cells whose column type names another table must name one of its rows.

    A cell is read as text; where the other table's key is a whole number, the
    cell that writes one of its keys becomes that number (so `column strip: strips`
    holds the strip's key, as a piece's key is).
    """
    problems = []
    for name, decl in checked.symbols.tables.items():
        table = tables[name]
        for col in _columns(decl):
            t = checked.symbols.column_type(name, col.name)
            if not isinstance(t, EntityType) or t.table not in tables:
                continue
            known = set(tables[t.table].keys)
            found = []
            for i, row in enumerate(table.rows):
                if row[col.name] not in known:
                    found.append(Diagnostic(
                        A.Pos(table.path, table.line(i), 1),
                        f"table {name}, column {col.name}: {row[col.name]!r} is not a row of {col.type}"
                        + suggest(str(row[col.name]), [str(k) for k in known])))
            problems.extend(at_most(found, f"table {name}, column {col.name}"))
    return problems


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _check_repeats(checked: Checked, tables: dict[str, Table]) -> list[Diagnostic]:
    """A fact given twice: an edge of a graph given again (either way round), or a row of a table without
    a key that repeats an earlier one in every column (its provenance aside) — but for a table of pieces,
    where a repeated row is another piece just like it.  One pass over each table."""
    problems: list[Diagnostic] = []
    reported: set[tuple[str, int]] = set()
    for graph, g in checked.symbols.graphs.items():
        table = tables[g.edges]
        first: dict[frozenset[Any], int] = {}
        found = []
        for i, row in enumerate(table.rows):
            a, b = _hashable(row[g.source]), _hashable(row[g.target])
            earlier = first.setdefault(frozenset((a, b)), i)
            if earlier != i:
                reported.add((g.edges, i))
                found.append(Diagnostic(A.Pos(table.path, table.line(i), 1),
                                        f"table {g.edges}: the edge {a}–{b} of graph {graph} is given again "
                                        f"(line {table.line(earlier)})"))
        problems.extend(at_most(found, f"table {g.edges}"))
    pieces = {decl.table for decl in checked.symbols.pieces.values()}
    for name, decl in checked.symbols.tables.items():
        if decl.key is not None or name in pieces:
            continue
        table = tables[name]
        columns = [c.name for c in decl.columns]
        seen: dict[tuple[Any, ...], int] = {}
        found = []
        for i, row in enumerate(table.rows):
            earlier = seen.setdefault(tuple(_hashable(row[c]) for c in columns), i)
            if earlier != i and (name, i) not in reported:
                found.append(Diagnostic(A.Pos(table.path, table.line(i), 1),
                                        f"table {name}: this row repeats line {table.line(earlier)}"))
        problems.extend(at_most(found, f"table {name}"))
    return problems


@functools.cache
def _string_or_comment() -> re.Pattern[str]:
    """A string or a comment of spec text, by the grammar's own terminals (a string is group 1)."""
    return re.compile(f"({terminal_pattern('STRING')})|{terminal_pattern('COMMENT')}")


def _uncommented(line: str) -> str:
    """A line of spec text without its ``# comment`` (a ``#`` inside a string stays)."""
    return _string_or_comment().sub(lambda m: m.group(1) or "", line)


__all__ = ["Game", "IllegalAction", "load_spec", "spec_files"]
