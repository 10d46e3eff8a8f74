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
``native/``, named by a digest of everything its C and its build are made of (:func:`variant_key`:
the language's source files, the spec's text, the component data, the piece words, the switch
settings, the compiler, its flags and the Python ABI), so that it is found without writing the C.
Beside it the cache keeps the emitter's notes (:class:`Notes`: which functions are C under which name,
the module's texts, tables, sites, constants and fallbacks), from which a load puts the module's
functions in place.  A shared object is code, so it is only ever loaded from a
folder that the user owns and nobody else can write, all the way up (a folder writable by others
counts only with its sticky bit, as /tmp), and only a regular file the user owns that nobody else
can write; the notes are read under the same rules, every part checked.  Anything else is refused:
the C is then written and built afresh in a private temporary folder and loaded from there.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.machinery
import importlib.util
import json
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
from .builtins import BUILTIN_HELPERS
from .cache import cache_dir
from .cgen import Emitter, Unsupported
from .codegen import HELPERS, Stuck, TooLarge, Values
from .compiler import CALL, CHANCE, CHOOSE, FINISH, RESUME, Branch, Pending, Procedure, ProcedureCompiler
from .files import read_bytes
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

    With a module built before for the same inputs (:func:`variant_key`) and its notes (what the C
    emitter made of each function, :class:`Notes`) in the cache, no C is written: the module is loaded
    and the notes say where its functions go.  ``strict``: raise :class:`NativeUnavailable` unless
    every function is C.
    """
    report = Report()
    em = Emitter(game, settings, compilers)
    jobs = _jobs(em, compilers, procs)
    tools = toolchain()
    key = variant_key(game, settings, tools) if not isinstance(tools, str) else None
    name = f"rules_{key}"
    notes = _cached_notes(name) if key is not None else None
    if notes is not None and key is not None and len(jobs) == notes.jobs:
        found = _lookup(name, key)
        if found is not None:
            found.lines = notes.lines
            report = _attached(report, game, compilers, jobs, notes, found, strict)
            if report.backend != "c":
                _settle(compilers)
            return report
    _settle(compilers)  # the C emitter reads the Python functions, and all must compile as at any load
    slots: list[tuple[int, str]] = []
    bodies: dict[tuple[int, int], str] = {}
    skipped: list[tuple[str, str, A.Pos]] = []
    for ordinal, (_, where, make) in enumerate(jobs):
        report.functions += 1
        try:
            with em.attempt():
                cname = make()
        except Unsupported as err:
            if strict:
                raise NativeUnavailable(f"the C back end does not write {err.what} yet", err.pos) from None
            skipped.append((str(err), err.what, err.pos))
            continue
        slots.append((ordinal, cname))
        bodies[where] = cname
    if not slots:
        report.skipped = [s[0] for s in skipped]
        report.reason = "no function could be written in C: " + "; ".join(report.skipped[:3])
        return report
    placeholder = "MODULE_NAME_"
    source = em.source(placeholder)
    if len(source) > MAX_SOURCE:
        raise NativeUnavailable(f"the spec makes more than {MAX_SOURCE} characters of C")
    if isinstance(tools, str) or key is None:
        raise NativeUnavailable(tools if isinstance(tools, str) else "no C compiler")
    built = build_and_load(source.replace(placeholder, name), name, key)
    consts = _describe_consts(em.consts, compilers)
    fallbacks = _describe_fallbacks(em.fallbacks, jobs)
    notes = Notes(len(jobs), slots, bodies, skipped, consts or [], fallbacks or [], list(em.texts), list(em.tables),
                  list(em.sites), [c for _, c in em.exported], built.lines)
    if consts is not None and fallbacks is not None:  # else the C is written at every load
        _store_notes(name, notes)
    report.seconds = built.seconds
    return _finish(report, game, jobs, notes, built.module, em.consts, list(em.fallbacks), built)


def warm(game: Any, settings: Mapping[str, str]) -> bool:
    """Whether a module built before for these inputs, running every function of the variant in C, is
    in the cache with its notes (then the Python functions need only be compiled on first need: a
    fallback; the same source compiled when that module was built)."""
    tools = toolchain()
    if isinstance(tools, str):
        return False
    key = variant_key(game, settings, tools)
    name = f"rules_{key}"
    notes = _cached_notes(name)
    if notes is None or notes.skipped or len(notes.slots) != notes.jobs:
        return False
    if key in _loaded:
        return True
    folder = native_folder()
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return folder is not None and _safe_file(folder / f"{name}{suffix}")


def _settle(compilers: Sequence[ProcedureCompiler]) -> None:
    """Compile the Python functions of a variant made lazily (see :func:`warm`)."""
    for gen in {id(pc.gen): pc.gen for pc in compilers}.values():
        gen.settle()


Job = tuple[list[Any], tuple[int, int], Any]


def _jobs(em: Emitter, compilers: Sequence[ProcedureCompiler], procs: Sequence[Procedure]) -> list[Job]:
    """The functions of a variant the C emitter is asked to write, in order: the list whose first
    element the C function replaces, its place (procedure, instruction), and how to write it."""
    jobs: list[Job] = []
    for i, (pc, proc) in enumerate(zip(compilers, procs)):
        for at, levels, first in pc.resumes:
            op, fns, _ = proc.code[at]
            assert op == RESUME
            jobs.append((fns, (i, at),
                         lambda pc=pc, at=at, levels=levels, first=first: em.continuation(pc, at, levels, first)))
        for st, stack in _stops(pc.decl):
            stop = pc.stops.get(id(st))
            if stop is None:
                continue
            op, a, b = proc.code[stop]
            if op in (CHOOSE, CHANCE):
                assert isinstance(st, (A.Choose, A.Chance))
                jobs.append((a.pends, (i, stop),
                             lambda pc=pc, st=st, stack=stack, py=a.pends[0]: em.pender(pc, st, stack, py)))
            elif op == CALL:
                assert isinstance(st, A.CallProc)
                jobs.append((b, (i, stop),
                             lambda pc=pc, st=st, stack=stack, py=b[0]: em.call_env(pc, st, stack, py)))
            elif op == FINISH:
                assert isinstance(st, A.Finish)
                jobs.append((a, (i, stop), lambda pc=pc, st=st, stack=stack, py=a[0]: em.winners(pc, st, stack, py)))
    return jobs


def _attached(report: Report, game: Any, compilers: Sequence[ProcedureCompiler], jobs: list[Job], notes: Notes,
              built: Built, strict: bool) -> Report:
    """Put a module's functions in place by its notes (the constants and fallbacks they name made again)."""
    if strict and notes.skipped:
        _, what, pos = notes.skipped[0]
        raise NativeUnavailable(f"the C back end does not write {what} yet", pos)
    says = [list(_statements(pc.decl)) for pc in compilers]
    consts: list[Any] = []
    for kind, a, b in notes.consts:
        if kind == "fallback":
            consts.append(fallback)
        elif kind == "helper":
            consts.append(HELPERS[str(a)])
        elif kind == "builtin":
            consts.append(BUILTIN_HELPERS[str(a)])
        else:
            st = says[int(a)][int(b)]
            assert isinstance(st, A.Say)
            consts.append(compilers[int(a)].say(st))
    fallbacks = [jobs[k][0][0] for k in notes.fallbacks]
    return _finish(report, game, jobs, notes, built.module, consts, fallbacks, built)


def _finish(report: Report, game: Any, jobs: list[Job], notes: Notes, module: ModuleType, consts: list[Any],
            fallbacks: list[Any], built: Built) -> Report:
    """Set a loaded module up and put its functions in the Python ones' places."""
    texts = notes.texts
    keys = tuple(tuple(game.table_keys[t]) for t in notes.tables)
    common = (list(notes.sites), list(texts), {t: i for i, t in enumerate(texts)}, keys,
              tuple({k: i for i, k in enumerate(ks)} for ks in keys), Stuck, TooLarge, Values, Pending)
    module.setup(common, tuple(consts))
    for ordinal, cname in notes.slots:
        jobs[ordinal][0][0] = getattr(module, cname)
    report.functions = notes.jobs
    report.skipped = [s[0] for s in notes.skipped]
    report.native = len(notes.slots)
    report.fallbacks = fallbacks
    report.module = module
    number = {cname: k for k, cname in enumerate(notes.exported)}
    report.bodies = {where: number[cname] for where, cname in notes.bodies.items()}
    report.seconds, report.cached, report.lines = built.seconds, built.cached, built.lines
    return report


# ------------------------------------------------------- the cache's key

#: The files of the language whose text the C of a spec is made by (the emitter's version).
_EMITTER_SUFFIXES = (".py", ".h", ".lark", ".json")
#: The most bytes of one module's notes that are read.
MAX_NOTES = 16_000_000


@functools.cache
def emitter_version() -> str:
    """A digest of every source file of the language (:mod:`interpreter`: the parser, the checker, both
    compilers, the C emitter, ``crt.h``): what the C of a spec is made by, beside the spec itself."""
    h = hashlib.sha256()
    folder = Path(__file__).parent
    for path in sorted(p for p in folder.iterdir() if p.suffix in _EMITTER_SUFFIXES):
        data = path.read_bytes()
        h.update(f"{path.name}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def variant_key(game: Any, settings: Mapping[str, str], tools: tuple[str, str, str]) -> str:
    """The name of one variant's built module: a digest of everything its C and its build are made of
    (the language's sources, the spec's text, the component data, the piece words, the switch settings,
    the compiler, its flags and the Python ABI), so that it is known without writing the C."""
    h = hashlib.sha256()
    parts = [
        emitter_version(),
        repr(sorted((name, lines) for name, lines in game.texts.items())),
        repr(sorted((name, t.key, t.keys, t.rows) for name, t in game.tables.items())),
        repr(sorted(game.table_keys.items())),
        repr(list(game.piece_words)),
        repr(sorted(settings.items())),
        repr(tools),
        abi_tag(),
        " ".join(CFLAGS),
    ]
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()[:32]


@attrs.define
class Notes:
    """What the C emitter made of one variant, kept beside its module so that a load needs no C:
    which functions are C and under which name, why the others are not, and the module's tables
    (constants and fallbacks named by where they come from)."""

    jobs: int
    #: (job number, exported C name) of each function written in C.
    slots: list[tuple[int, str]]
    bodies: dict[tuple[int, int], str]
    #: (message, construct, place) of each function left to Python.
    skipped: list[tuple[str, str, A.Pos]]
    #: ("fallback" | "helper" | "builtin" | "say", name or procedure, statement number).
    consts: list[tuple[str, str | int, int]]
    #: The job number of each fallback.
    fallbacks: list[int]
    texts: list[str]
    tables: list[str]
    sites: list[tuple[A.Pos, tuple[A.Citation, ...]]]
    exported: list[str]
    lines: int


def _statements(decl: A.ProcedureDecl) -> Iterator[A.Stmt]:
    """Every statement of a procedure, in a fixed order."""
    def walk(statements: Sequence[A.Stmt]) -> Iterator[A.Stmt]:
        for st in statements:
            yield st
            for block in A.child_blocks(st):
                yield from walk(block.statements)
    yield from walk(decl.body.statements)


def _describe_consts(consts: Sequence[Any], compilers: Sequence[ProcedureCompiler]
                     ) -> list[tuple[str, str | int, int]] | None:
    """Each constant of a module by where it comes from; None if one cannot be named."""
    where = {id(st): (i, k) for i, pc in enumerate(compilers) for k, st in enumerate(_statements(pc.decl))}
    helpers = {id(v): k for k, v in HELPERS.items()}
    builtins = {id(v): k for k, v in BUILTIN_HELPERS.items()}
    out: list[tuple[str, str | int, int]] = []
    for value in consts:
        if value is fallback:
            out.append(("fallback", "", 0))
        elif id(value) in helpers and HELPERS[helpers[id(value)]] is value:
            out.append(("helper", helpers[id(value)], 0))
        elif id(value) in builtins and BUILTIN_HELPERS[builtins[id(value)]] is value:
            out.append(("builtin", builtins[id(value)], 0))
        elif isinstance(getattr(value, "statement", None), A.Say) and id(value.statement) in where:
            i, k = where[id(value.statement)]
            out.append(("say", i, k))
        else:
            return None
    return out


def _describe_fallbacks(fallbacks: Sequence[Any], jobs: Sequence[Job]) -> list[int] | None:
    """Each fallback by the job whose Python function it is; None if one is not such."""
    first: dict[int, int] = {}
    for k, (target, _, _) in reversed(list(enumerate(jobs))):
        first[id(target[0])] = k
    out = []
    for fn in fallbacks:
        found = first.get(id(fn))
        if found is None or jobs[found][0][0] is not fn:
            return None
        out.append(found)
    return out


def _pos(p: A.Pos) -> list[Any]:
    return [p.path, p.line, p.column, p.end_line, p.end_column]


def _unpos(data: Any) -> A.Pos:
    if not (isinstance(data, list) and len(data) == 5 and type(data[0]) is str
            and all(type(x) is int for x in data[1:])):
        raise ValueError("not a place")
    return A.Pos(*data)


def _text(data: Any) -> str:
    if type(data) is not str:
        raise ValueError("not a text")
    return data


def _int(data: Any) -> int:
    if type(data) is not int or data < 0:
        raise ValueError("not a number")
    return data


def _list(data: Any) -> list[Any]:
    if type(data) is not list:
        raise ValueError("not a list")
    return data


def encode_notes(notes: Notes) -> str:
    """A module's notes as JSON."""
    return json.dumps({
        "jobs": notes.jobs, "slots": notes.slots, "bodies": [[i, at, c] for (i, at), c in notes.bodies.items()],
        "skipped": [[m, w, _pos(p)] for m, w, p in notes.skipped], "consts": notes.consts,
        "fallbacks": notes.fallbacks, "texts": notes.texts, "tables": notes.tables,
        "sites": [[_pos(p), [[c.source, c.section, c.quote, _pos(c.pos)] for c in cites]] for p, cites in notes.sites],
        "exported": notes.exported, "lines": notes.lines,
    }, ensure_ascii=False, separators=(",", ":"))


def decode_notes(text: str) -> Notes:
    """Notes read back, every part checked (ValueError, KeyError or TypeError on anything unexpected)."""
    d = json.loads(text)
    if not isinstance(d, dict):
        raise ValueError("not notes")
    consts: list[tuple[str, str | int, int]] = []
    for kind, a, b in map(tuple, _list(d["consts"])):
        if kind == "say":
            consts.append(("say", _int(a), _int(b)))
        elif kind in ("fallback", "helper", "builtin"):
            consts.append((kind, _text(a), _int(b)))
        else:
            raise ValueError("not a constant")
    return Notes(
        jobs=_int(d["jobs"]),
        slots=[(_int(k), _text(c)) for k, c in map(tuple, _list(d["slots"]))],
        bodies={(_int(i), _int(at)): _text(c) for i, at, c in map(tuple, _list(d["bodies"]))},
        skipped=[(_text(m), _text(w), _unpos(p)) for m, w, p in map(tuple, _list(d["skipped"]))],
        consts=consts,
        fallbacks=[_int(k) for k in _list(d["fallbacks"])],
        texts=[_text(t) for t in _list(d["texts"])],
        tables=[_text(t) for t in _list(d["tables"])],
        sites=[(_unpos(p), tuple(A.Citation(_text(s), _text(sec), _text(q), _unpos(cp))
                                 for s, sec, q, cp in map(tuple, _list(cites))))
               for p, cites in map(tuple, _list(d["sites"]))],
        exported=[_text(c) for c in _list(d["exported"])],
        lines=_int(d["lines"]),
    )


#: The notes last read, by module name, with the file's identity when read.
_read_notes: dict[str, tuple[tuple[int, int, int, int], Notes]] = {}


def _cached_notes(name: str) -> Notes | None:
    """The notes of a module in the cache folder, if safe and well formed."""
    folder = native_folder()
    if folder is None:
        return None
    path = folder / f"{name}.json"
    if not _safe_file(path):
        return None
    try:
        info = os.lstat(path)
        seen = (info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size)
        known = _read_notes.get(name)
        if known is not None and known[0] == seen:
            return known[1]  # read moments ago (a load asks twice: before and after the Python code is made)
        notes = decode_notes(read_bytes(path, MAX_NOTES, owned=True).decode("utf-8"))
    except Exception:  # missing, damaged or foreign: write the C again
        return None
    if len(_read_notes) > 64:
        _read_notes.clear()
    _read_notes[name] = (seen, notes)
    return notes


def _store_notes(name: str, notes: Notes) -> None:
    """Keep a module's notes beside it (a private temporary file, then renamed)."""
    folder = native_folder()
    if folder is None:
        return
    try:
        fd, tmp = tempfile.mkstemp(prefix=".notes-", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(encode_notes(notes))
            os.chmod(tmp, 0o600)
            os.replace(tmp, folder / f"{name}.json")
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass  # no caching


def _lookup(name: str, key: str) -> Built | None:
    """A module built before, loaded from the cache (or this process), if a safe entry is there."""
    start = time.perf_counter()
    with _load_lock:
        module = _loaded.get(key)
        if module is None:
            folder = native_folder()
            suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
            entry = folder / f"{name}{suffix}" if folder is not None else None
            if entry is None or not _safe_file(entry):
                return None
            try:
                module = _load(name, entry)
            except ImportError:
                return None
            _loaded[key] = module
    return Built(module, time.perf_counter() - start, True, 0)


def runner(report: Report, game: Any, variant: int) -> tuple[Any, Any, Any, Any, ModuleType] | None:
    """The C run loop of a variant whose functions are all C, as (run, program, advance, clone_state,
    module): ``run(state, program)`` runs the state's frames on as :meth:`State._run
    <interpreter.runtime.State._run>` does, and ``advance(state, program, index)`` takes an option as
    :meth:`State.apply_index <interpreter.runtime.State.apply_index>` does and runs on (see ``crt.h``),
    calling the C functions directly; ``clone_state(state)`` makes the copy :meth:`State.clone
    <interpreter.runtime.State.clone>` makes; the module (the game puts in its place the class of the
    variant's new states: :func:`.runtime.native_class`).  None where some function is Python."""
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
                # the names interned, as the C code's own are: the run loop binds them in the locals,
                # where the generated code then finds each by identity, never comparing texts
                branches = tuple((br.target, tuple(sys.intern(x.var) for x in br.bindings),
                                  written_later(game, br)) for br in a.branches)
                ins.append((op, body, 0, a, a.pends[variant], branches))
            elif op == FINISH:  # (its function run where the body gives up on a number past the bound)
                ins.append((op, body, 0, None, a[variant], ()))
            else:
                ins.append((op, body, 0, None, None, ()))
        code.append(tuple(ins))
    module = report.module
    return module.run, module.program(tuple(code)), module.advance, module.clone_state, module



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
