"""The C back end: choosing it, building the emitted C into a CPython extension, caching it, loading it.

The Python back end (:mod:`.codegen`) is the reference and the fallback: it is always made.  For a
variant of a game's code (one combination of switch settings), :func:`attach` writes the same
functions in C (:mod:`.cgen`), builds them with the machine's C compiler into an extension module,
and puts the C functions in the Python ones' places; a function the emitter cannot write yet stays
Python, and says which construct kept it.

**Choosing.** ``RULES_BACKEND`` (or the ``backend`` keyword of :func:`interpreter.load_spec`):
``python``; ``c`` (refuse, naming the reason, where C cannot run every function); ``auto``, the
default (C where it builds, else Python, said once on standard error).

**Building.** With ``gcc`` (``$CC`` if set) and the CPython headers found by :mod:`sysconfig` —
no new dependency: setuptools' compiler classes and cffi would only wrap the same compiler call,
and cffi would add a package and an extra call layer between Python and the generated code.
Each build runs in a new private temporary folder (mode 0700).

**Caching.** A built module is kept under the parse cache's folder (:func:`.cache.cache_dir`), in
``native/``, named by a digest of the C source (which holds the component data it uses), the
compiler's version and the Python ABI.  A shared object is code, so it is only ever loaded from a
folder that the user owns and nobody else can write, all the way up (a folder writable by others
counts only with its sticky bit, as /tmp), and only a regular file the user owns that nobody else
can write.  Anything else is refused: the module is then built afresh in a private temporary
folder and loaded from there.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs

from . import ast as A
from . import cgen
from .cache import cache_dir
from .cgen import Emitter, Unsupported
from .codegen import Stuck, TooLarge, Values
from .compiler import CALL, CHANCE, CHOOSE, FINISH, RESUME, Branch, Pending, Procedure, ProcedureCompiler
from .notation import MAX_ACTION_TEXT, Unwritable, action_word
from .types import BoolType, EntityType, IntType, PieceType, PlayerType

#: Environment variable choosing the back end: ``python``, ``c`` or ``auto`` (the default).
BACKEND_ENV = "RULES_BACKEND"
BACKENDS = ("python", "c", "auto")
#: The runtime library every generated module includes.
RUNTIME_HEADER = Path(__file__).with_name("crt.h")
#: The most seconds one build may take.
BUILD_TIMEOUT = 120
#: The most C a spec may make (a larger one runs on Python: a build must stay short).
MAX_SOURCE = 8_000_000
#: Flags of every build (the digest covers them).
CFLAGS = ("-shared", "-fPIC", "-Og", "-fno-strict-aliasing", "-w")

_said: set[str] = set()
_said_lock = threading.Lock()
_loaded: dict[str, ModuleType] = {}
_load_lock = threading.Lock()


class NativeUnavailable(Exception):
    """The C back end cannot run (here, or this spec): why, and where in the spec if it is a construct."""

    def __init__(self, message: str, pos: A.Pos | None = None):
        super().__init__(message)
        self.message = message
        self.pos = pos


def chosen(backend: str | None = None) -> str:
    """The back end asked for: ``backend`` if given, else ``$RULES_BACKEND``, else ``auto``."""
    value = backend if backend is not None else os.environ.get(BACKEND_ENV, "") or "auto"
    value = value.strip().lower()
    if value not in BACKENDS:
        raise ValueError(f"{BACKEND_ENV} (or backend=) is one of {', '.join(BACKENDS)}, not {value!r}")
    return value


def say_once(message: str) -> None:
    """Print a note on standard error, once per process."""
    with _said_lock:
        if message in _said:
            return
        _said.add(message)
    print(message, file=sys.stderr)


@functools.cache
def toolchain() -> tuple[str, str, str] | str:
    """(compiler path, its version line, the CPython include folder), or why there is none."""
    cc = shutil.which(os.environ.get("CC") or "gcc")
    if cc is None:
        return "no C compiler (gcc) found"
    include = sysconfig.get_paths().get("include") or ""
    if not (Path(include) / "Python.h").is_file():
        return f"no CPython headers (Python.h) in {include or 'the include folder sysconfig names'}"
    try:
        done = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as err:
        return f"the C compiler {cc} does not run: {err}"
    if done.returncode != 0:
        return f"the C compiler {cc} does not run"
    version = (done.stdout.splitlines() or ["?"])[0]
    return cc, version, include


def abi_tag() -> str:
    """What an extension module must match: the interpreter's version and extension suffix."""
    return f"{sys.version}|{sysconfig.get_config_var('EXT_SUFFIX')}|{sys.implementation.cache_tag}"


# ------------------------------------------------------------------ safety

def _safe_folder(path: Path) -> bool:
    """Whether a folder is one the user owns that nobody else can write, and every folder above it
    is owned by the user or root and writable by nobody else (or sticky, as /tmp)."""
    uid = os.geteuid()
    try:
        info = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid or info.st_mode & 0o022:
        return False
    for parent in path.resolve().parents:
        try:
            up = os.stat(parent)
        except OSError:
            return False
        if up.st_uid not in (uid, 0):
            return False
        if up.st_mode & 0o022 and not up.st_mode & stat.S_ISVTX:
            return False
    return True


def _safe_file(path: Path) -> bool:
    """Whether a file is a regular file (no link) the user owns that nobody else can write."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o022


def native_folder() -> Path | None:
    """The folder of built modules, made private if missing; None if there is none or it is not safe."""
    base = cache_dir()
    if base is None:
        return None
    folder = base / "native"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if _safe_folder(folder) else None


# ---------------------------------------------------------------- building

@attrs.define
class Built:
    """A loaded module and how it was had."""

    module: ModuleType
    seconds: float
    cached: bool
    lines: int


def build_and_load(source: str, name: str, key: str) -> Built:
    """The module of this source: from the cache if a safe entry is there, else built afresh."""
    tools = toolchain()
    if isinstance(tools, str):
        raise NativeUnavailable(tools)
    cc, _version, include = tools
    start = time.perf_counter()
    with _load_lock:
        if key in _loaded:
            return Built(_loaded[key], time.perf_counter() - start, True, source.count("\n"))
        folder = native_folder()
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        entry = folder / f"{name}{suffix}" if folder is not None else None
        if entry is not None and _safe_file(entry):
            try:
                module = _load(name, entry)
            except ImportError:
                pass  # damaged or foreign: build again
            else:
                _loaded[key] = module
                return Built(module, time.perf_counter() - start, True, source.count("\n"))
        private = Path(tempfile.mkdtemp(prefix="rules-c-"))
        try:
            (private / "crt.h").write_text(RUNTIME_HEADER.read_text(encoding="utf-8"), encoding="utf-8")
            src = private / f"{name}.c"
            src.write_text(source, encoding="utf-8")
            out = private / f"{name}{suffix}"
            cmd = [cc, *CFLAGS, f"-I{include}", f"-I{private}", "-o", str(out), str(src)]
            try:
                done = subprocess.run(cmd, capture_output=True, text=True, timeout=BUILD_TIMEOUT, check=False,
                                      cwd=private)
            except (OSError, subprocess.SubprocessError) as err:
                raise NativeUnavailable(f"the C build did not run: {err}") from None
            if done.returncode != 0:
                first = next((ln for ln in done.stderr.splitlines() if "error" in ln), done.stderr[:300])
                raise NativeUnavailable(f"the C build failed: {first.strip()}")
            out.chmod(0o600)
            if entry is not None and folder is not None:
                _install(out, folder, entry)
            try:
                module = _load(name, out)
            except ImportError as err:
                raise NativeUnavailable(f"the built module does not load: {err}") from None
            _loaded[key] = module
            return Built(module, time.perf_counter() - start, False, source.count("\n"))
        finally:
            shutil.rmtree(private, ignore_errors=True)


def _install(built: Path, folder: Path, entry: Path) -> None:
    """Copy a built module into the cache folder (a private temporary file, then renamed)."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".build-", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f, open(built, "rb") as src:
                shutil.copyfileobj(src, f)
            os.chmod(tmp, 0o600)
            os.replace(tmp, entry)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass  # no caching


def _load(name: str, path: Path) -> ModuleType:
    """Load an extension module from a file (checked by the caller)."""
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    if spec is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


# ------------------------------------------------------------- attaching

@attrs.define
class Report:
    """What runs one variant of a game's code: how many functions are C, and why others are not."""

    functions: int = 0
    native: int = 0
    skipped: list[str] = attrs.field(factory=list)
    seconds: float = 0.0
    cached: bool = False
    lines: int = 0
    reason: str | None = None
    #: The Python functions the C functions fall back on, by their index (see :func:`fallback`).
    fallbacks: list[Any] = attrs.field(factory=list, repr=False)
    #: The built module (None if nothing was built).
    module: Any = attrs.field(default=None, repr=False)
    #: The module's function body of each instruction written in C, by (procedure index, instruction).
    bodies: dict[tuple[int, int], int] = attrs.field(factory=dict, repr=False)

    @property
    def backend(self) -> str:
        """``c`` if every function is C, ``python`` if none is, else ``c+python``."""
        if self.native == 0:
            return "python"
        return "c" if self.native == self.functions else "c+python"

    def describe(self) -> str:
        """One line for people: which back end runs, and what it cost to have it."""
        if self.reason is not None:
            return f"Python back end (C not used: {self.reason})"
        how = f"loaded from the cache in {self.seconds * 1000:.0f} ms" if self.cached else \
            f"built in {self.seconds:.2f} s ({self.lines} lines of C)"
        if self.backend == "c":
            return f"C back end: all {self.functions} functions in C, {how}"
        reasons = list(dict.fromkeys(self.skipped))
        first = "; ".join(reasons[:3]) + (f" and {len(reasons) - 3} more" if len(reasons) > 3 else "")
        return (f"C back end with Python fallback: {self.native} of {self.functions} functions in C, {how}; "
                f"Python for {first}")


def _stops(decl: A.ProcedureDecl) -> Iterator[tuple[A.Stmt, list[tuple[str, tuple[A.Citation, ...]]]]]:
    """The statements of a procedure that may be stops, with the citations in force there (as the
    Python compiler's layout keeps them: rules, and the branch of a decision one is inside)."""
    def walk(statements: Sequence[A.Stmt], stack: list[tuple[str, tuple[A.Citation, ...]]]
             ) -> Iterator[tuple[A.Stmt, list[tuple[str, tuple[A.Citation, ...]]]]]:
        for st in statements:
            if isinstance(st, (A.Choose, A.Chance, A.CallProc, A.Finish)):
                yield st, stack
            if isinstance(st, A.Rule):
                yield from walk(st.body.statements, [*stack, (st.name, st.citations)])
            elif isinstance(st, A.Choose):
                for o in st.options:
                    yield from walk(o.body.statements, [*stack, (stack[-1][0], o.citations)])
            elif isinstance(st, A.Chance):
                yield from walk(st.body.statements, [*stack, (stack[-1][0], st.citations)])
            else:
                for block in A.child_blocks(st):
                    yield from walk(block.statements, stack)
    yield from walk(decl.body.statements, [(decl.name, decl.citations)])


def fallback(index: int, st: Any, env: dict[str, Any], *rest: Any) -> Any:
    """Run the Python back end's function that the generated C function ``index`` of the state's
    variant gave up on (a number past the bound, which only unbounded numbers can tell)."""
    return st.game.native_fallbacks[st.variant][index](st, env, *rest)


cgen.FALLBACK = fallback


def attach(game: Any, settings: Mapping[str, str], compilers: Sequence[ProcedureCompiler],
           procs: Sequence[Procedure], strict: bool) -> Report:
    """Write the functions of one variant in C, build, and put them in the Python ones' places.

    ``strict``: raise :class:`NativeUnavailable` unless every function is C.
    """
    report = Report()
    em = Emitter(game, settings, compilers)
    slots: list[tuple[list[Any], str]] = []
    bodies: dict[tuple[int, int], str] = {}

    def attempt(target: list[Any], where: tuple[int, int], make: Any) -> None:
        report.functions += 1
        try:
            with em.attempt():
                name = make()
        except Unsupported as err:
            if strict:
                raise NativeUnavailable(f"the C back end does not write {err.what} yet", err.pos) from None
            report.skipped.append(str(err))
            return
        slots.append((target, name))
        bodies[where] = name

    for i, (pc, proc) in enumerate(zip(compilers, procs)):
        for at, levels, first in pc.resumes:
            op, fns, _ = proc.code[at]
            assert op == RESUME
            attempt(fns, (i, at),
                    lambda pc=pc, at=at, levels=levels, first=first: em.continuation(pc, at, levels, first))
        for st, stack in _stops(pc.decl):
            stop = pc.stops.get(id(st))
            if stop is None:
                continue
            op, a, b = proc.code[stop]
            if op in (CHOOSE, CHANCE):
                assert isinstance(st, (A.Choose, A.Chance))
                attempt(a.pends, (i, stop),
                        lambda pc=pc, st=st, stack=stack, py=a.pends[0]: em.pender(pc, st, stack, py))
            elif op == CALL:
                assert isinstance(st, A.CallProc)
                attempt(b, (i, stop), lambda pc=pc, st=st, stack=stack, py=b[0]: em.call_env(pc, st, stack, py))
            elif op == FINISH:
                assert isinstance(st, A.Finish)
                attempt(a, (i, stop), lambda pc=pc, st=st, stack=stack, py=a[0]: em.winners(pc, st, stack, py))
    if not slots:
        report.reason = "no function could be written in C: " + "; ".join(report.skipped[:3])
        return report
    placeholder = "MODULE_NAME_"
    source = em.source(placeholder)
    if len(source) > MAX_SOURCE:
        raise NativeUnavailable(f"the spec makes more than {MAX_SOURCE} characters of C")
    tools = toolchain()
    if isinstance(tools, str):
        raise NativeUnavailable(tools)
    key = hashlib.sha256("\0".join([source, RUNTIME_HEADER.read_text(encoding="utf-8"), tools[1], abi_tag(),
                                    " ".join(CFLAGS)]).encode("utf-8")).hexdigest()[:32]
    name = f"rules_{key}"
    built = build_and_load(source.replace(placeholder, name), name, key)
    texts = list(em.texts)
    keys = tuple(tuple(game.table_keys[t]) for t in em.tables)
    common = (list(em.sites), texts, {t: i for i, t in enumerate(texts)}, keys,
              tuple({k: i for i, k in enumerate(ks)} for ks in keys), Stuck, TooLarge, Values, Pending)
    built.module.setup(common, tuple(em.consts))
    for target, cname in slots:
        target[0] = getattr(built.module, cname)
    report.native = len(slots)
    report.fallbacks = list(em.fallbacks)
    report.module = built.module
    number = {cname: k for k, (_, cname) in enumerate(em.exported)}
    report.bodies = {where: number[cname] for where, cname in bodies.items()}
    report.seconds, report.cached, report.lines = built.seconds, built.cached, built.lines
    return report


def runner(report: Report, game: Any, variant: int) -> tuple[Any, Any, Any, Any] | None:
    """The C run loop of a variant whose functions are all C, as (run, program, advance, clone_state):
    ``run(state, program)`` runs the state's frames on as :meth:`State._run
    <interpreter.runtime.State._run>` does, and ``advance(state, program, index)`` takes an option as
    :meth:`State.apply_index <interpreter.runtime.State.apply_index>` does and runs on (see ``crt.h``),
    calling the C functions directly; ``clone_state(state)`` makes the copy :meth:`State.clone
    <interpreter.runtime.State.clone>` makes.  None where some function is Python."""
    if report.backend != "c" or report.module is None:
        return None
    Ins = tuple[int, int, int, Any, Any, tuple[tuple[int, tuple[str, ...], bool], ...]]
    code: list[tuple[Ins, ...]] = []
    for i, proc in enumerate(game.procedures):
        ins: list[Ins] = []
        for pc, (op, a, b) in enumerate(proc.code):
            body = report.bodies.get((i, pc), -1)
            if op == CALL:
                ins.append((op, body, a, None, b[variant], ()))
            elif op in (CHOOSE, CHANCE):
                branches = tuple((br.target, tuple(x.var for x in br.bindings), written_later(game, br))
                                 for br in a.branches)
                ins.append((op, body, 0, a, a.pends[variant], branches))
            else:
                ins.append((op, body, 0, None, None, ()))
        code.append(tuple(ins))
    module = report.module
    return module.run, module.program(tuple(code)), module.advance, module.clone_state


def written_later(game: Any, branch: Branch) -> bool:
    """Whether the text of every option of a branch can be written at any later time, never refused
    (:class:`~.notation.Unwritable`): then the state's history keeps the option and writes its text when
    the history is read (the same text: it depends on the option alone).  Numbers, yes/no, seats and none
    always are; pieces and keys if every one of their words is; texts never (a text may hold a space)."""
    longest = len(branch.verb)
    for b in branch.bindings:
        t = b.type
        words: list[str] | None = None
        if isinstance(t, (IntType, BoolType, PlayerType)):
            words = ["-9223372036854775807", "P63"]
        elif isinstance(t, PieceType):
            values: list[Any] = [p for p, kind in enumerate(game.piece_types) if kind == t.pieces]
            words = _words(values, t, game.piece_words)
        elif isinstance(t, EntityType) and t.table in game.table_keys:
            words = _words(list(game.table_keys[t.table]), t, game.piece_words)
        if words is None:
            return False
        longest += 1 + max(map(len, words), default=0)
    return longest <= MAX_ACTION_TEXT


def _words(values: list[Any], t: Any, piece_words: Sequence[str]) -> list[str] | None:
    """Each value's word in an action text (a piece's by ``piece_words``), or None if one cannot be written."""
    try:
        return [action_word(v, t, piece_words) for v in values]
    except Unwritable:
        return None


def place_of(err: BaseException) -> tuple[A.Pos, tuple[A.Citation, ...]] | None:
    """The spec place generated C noted on an error it raised, if any."""
    place = getattr(err, "rules_place", None)
    if isinstance(place, tuple) and len(place) == 2 and isinstance(place[0], A.Pos):
        return place
    return None


__all__ = [
    "BACKENDS",
    "BACKEND_ENV",
    "NativeUnavailable",
    "Report",
    "attach",
    "chosen",
    "place_of",
    "runner",
    "say_once",
    "toolchain",
    "written_later",
]
