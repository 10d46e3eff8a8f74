"""The conformance kit: export it, and check an outside engine against it over the referee protocol.

The kit is the ``conformance/`` folder (shipped in the package as
``rattus_rules/kit``) with the JSON Schemas of ``rattus_rules/schema``:
perft vectors, golden playthroughs and recorded games.  :func:`check` starts
an engine command that speaks the **engine subset** of the referee protocol
(``hello``, ``new``, ``legal``, ``apply``, ``chance`` with ``force`` and
``draw``; ``save``/``load`` if it has them, to count perft faster) and drives
it through every vector, reporting pass or fail per vector with the first
difference.  See ``conformance/README.md`` and ``docs/protocol.md``.

The engine is untrusted too: every answer must carry the id of its request,
and what one vector may ask of it is bounded by what the kit itself holds —
chance events in a row by :data:`CHANCE_MARGIN` times the longest run of chance
entries in the kit (plus :data:`CHANCE_SLACK`), the positions a perft walk
visits at each depth by the kit's count for that depth, and the requests of a
vector by what a correct engine needs for it (:func:`request_budget`).  An
engine past a bound fails that vector, saying which bound.  The kit is checked
against the game before any engine starts: a switch or option the game does
not have, or an entry by a seat beyond the player count, is a
:class:`KitError`.
"""

from __future__ import annotations

import functools
import json
import os
import select
import shlex
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import jsonschema  # type: ignore[import-untyped]

from interpreter.files import inside, read_text, why_unread
from interpreter.notation import CHANCE, read_seat, seat
from rattus_rules.api import ResolvedGame, rules_of

from ..records.validate import record_format
from .conformance import golden_of, is_default, kit_root
from .schemas import SCHEMAS, load_schema, registry_with

_HERE = Path(__file__).resolve().parents[2]  # the rattus_rules package folder
#: Seconds an engine may take to answer one request (``--timeout``).
ANSWER_TIMEOUT = 10.0
#: The longest answer line read from an engine, in bytes: a longer one is refused, not kept in memory.
MAX_ANSWER_BYTES = 16_000_000
#: The largest kit file read, in bytes.
MAX_KIT_FILE_BYTES = 16_000_000
#: Chance events in a row an engine may ask for: this many times the longest run in the kit, plus CHANCE_SLACK.
CHANCE_MARGIN = 2
#: See CHANCE_MARGIN.
CHANCE_SLACK = 16
#: An engine goes on to the next vector only if the last one left at most this many games in it to drop.
MAX_LEFT_GAMES = 64
#: What ``games/expected.json`` holds: a verdict for each record, named by its file in ``games/``.
EXPECTED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "propertyNames": {"pattern": r"^[A-Za-z0-9][A-Za-z0-9._-]*\.json$", "not": {"const": "expected.json"}},
    "additionalProperties": {
        "type": "object",
        "required": ["status"],
        "properties": {
            "status": {"enum": ["legal", "illegal"]},
            "index": {"type": "integer", "minimum": 0},
            "scores": {"type": "array", "items": {"type": "integer"}},
            "winners": {"type": "array", "items": {"type": "integer", "minimum": 0}},
            "legal_with": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "if": {"required": ["status"], "properties": {"status": {"const": "illegal"}}},
        "then": {"required": ["index"]},
        "else": {"required": ["scores", "winners"]},
    },
}


def kits_dir() -> Path:
    """The kits shipped in the package (``rattus_rules/kit``), or ``conformance/`` of a checkout."""
    packaged = _HERE / "kit"
    return packaged if packaged.is_dir() else _HERE.parent / "conformance"


def kit_dir(game: str | ResolvedGame | None = None) -> Path:
    """The kit of a game (None: the selected one; or resolved already): Rattus's is :func:`kits_dir` itself, another
    game's the folder of its name in it (:func:`rattus_rules.tools.kit.conformance.kit_root`)."""
    return kit_root(game, kits_dir())


def _kit_files(source: Path) -> Iterator[Path]:
    """The files of the kit in ``source``: not those of another game's kit in a folder below it."""
    for path in sorted(source.iterdir()):
        if path.is_file():
            yield path
        elif path.is_dir() and path.name != "__pycache__" and not (path / "perft.json").is_file():
            yield from _kit_files(path)


def export(target: Path, game: str | ResolvedGame | None = None) -> list[str]:
    """Copy a game's kit (README, perft, golden, games), the Node client and the schemas into ``target``."""
    source = kit_dir(game)
    written = []
    clients = kits_dir() / "clients"
    pairs = [(path, path.relative_to(source).as_posix()) for path in _kit_files(source)]
    if source != kits_dir() and clients.is_dir():
        pairs += [(path, path.relative_to(kits_dir()).as_posix()) for path in _kit_files(clients)]
    for path, rel in pairs:
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target / rel)
        written.append(rel)
    own = {} if is_default(game) else kit_schemas(game)
    for name in SCHEMAS:
        rel = f"schema/{name}.schema.json"
        (target / "schema").mkdir(parents=True, exist_ok=True)
        if name in own:
            (target / rel).write_text(json.dumps(own[name], ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        else:
            shutil.copyfile(_HERE / "schema" / f"{name}.schema.json", target / rel)
        written.append(rel)
    return written


def kit_schemas(game: str | ResolvedGame | None) -> dict[str, dict[str, Any]]:
    """The schemas of a game's kit files that are the game's own: its records (its pieces, seats and
    switches) and its perft vectors (its player counts); Rattus's are the shipped ones (``game``: by
    name, None: the selected one; or resolved already)."""
    rules = rules_of(game)
    faces = game.faces if isinstance(game, ResolvedGame) else None
    record = load_schema("record") if is_default(game) else record_format(rules, faces).schema_dict
    perft = load_schema("perft")
    perft["properties"]["vectors"]["items"]["properties"]["players"].update(
        minimum=rules.min_players, maximum=rules.max_players)
    return {"record": record, "perft": perft}


# ------------------------------------------------------------------ the engine
class EngineError(Exception):
    """The engine did not answer, or answered something that is not a protocol answer."""


class EngineTimeout(EngineError):
    """The engine gave no answer to a request in time: the check stops (the engine is killed)."""


class Engine:
    """An engine process spoken to line by line."""

    def __init__(self, command: str, timeout: float = ANSWER_TIMEOUT):
        try:
            argv = shlex.split(command)
        except ValueError as err:
            raise EngineError(f"cannot read the engine command: {err}") from None
        if not argv:
            raise EngineError("the engine command is empty")
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL)
        except OSError as err:
            raise EngineError(f"cannot start the engine {argv[0]!r}: {why_unread(err)}") from None
        self.timeout = timeout
        self.timed_out = False
        self.buffer = bytearray()
        self.count = 0
        #: Requests sent for the vector being checked.
        self.spent = 0
        #: The games the vector being checked started (or loaded) and has not dropped.
        self.games: set[str | int] = set()
        self.commands: set[str] = set()
        #: Whether to ask ``save`` for a handle (``keep``) rather than the whole state (False once refused).
        self.keeps = True
        #: The deepest perft depth to check (None: every depth of the kit).
        self.perft_depth: int | None = None
        #: The most chance events in a row this vector may see (None: no bound).
        self.chance_limit: int | None = None
        #: The most requests this vector may send (None: no bound).
        self.budget: int | None = None

    def ask(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """Send one request; its answer."""
        assert self.proc.stdin is not None
        if self.budget is not None and self.spent >= self.budget:
            raise Difference(f"the vector needs more than {self.budget} requests with this engine; what the kit "
                             f"holds needs fewer (the engine goes on where the kit's game does not)")
        self.count += 1
        self.spent += 1
        line = json.dumps({"cmd": cmd, "id": self.count, **fields}, ensure_ascii=False) + "\n"
        try:
            self.proc.stdin.write(line.encode("utf-8"))
            self.proc.stdin.flush()
        except OSError as err:
            raise EngineError(f"the engine stopped reading: {why_unread(err)}") from None
        text = self._line(line.strip())
        try:
            answer = json.loads(text)
        except ValueError:
            raise EngineError(f"the engine answered {cmd!r} with a line that is not JSON: {text[:200]!r}") from None
        if not isinstance(answer, dict) or not isinstance(answer.get("ok"), bool):
            raise EngineError(f"the engine answered {cmd!r} without `ok`: {text[:200]!r}")
        self._check_id(cmd, answer.get("id", None), "id" in answer)
        if answer["ok"]:
            game = answer.get("game") if cmd in ("new", "load") else fields.get("game") if cmd == "drop" else None
            if isinstance(game, str | int) and not isinstance(game, bool):
                if cmd == "drop":
                    self.games.discard(game)
                else:
                    self.games.add(game)
        return answer

    def _check_id(self, cmd: str, got: Any, present: bool) -> None:
        """The answer to request :attr:`count` must carry its id (the protocol echoes it)."""
        if type(got) is int and got == self.count:
            return
        due = f"request {self.count} ({cmd!r})"
        if not present:
            raise EngineError(f"the engine answered {due} without its id")
        if type(got) is int and 0 < got < self.count:
            raise EngineError(f"the engine sent a second answer to request {got} where the answer to {due} "
                              f"was due (it answers one request twice, or out of order)")
        raise EngineError(f"the engine answered {due} with the id {json.dumps(got)[:50]}, "
                          f"not {self.count}: not the answer to that request")

    def _line(self, request: str) -> str:
        """The engine's next answer line to ``request`` (named in the error if none comes in time)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        searched = 0
        while self.buffer.find(b"\n", searched) < 0:
            if len(self.buffer) > MAX_ANSWER_BYTES:
                raise EngineError(f"the engine's answer to request {self.count} is longer than "
                                  f"{MAX_ANSWER_BYTES} bytes")
            searched = len(self.buffer)
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self.timed_out = True
                raise EngineTimeout(f"the engine gave no answer within {self.timeout:g} s to request "
                                    f"{self.count}: {request[:200]}")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise EngineError("the engine ended")
            self.buffer += chunk
        line, _, rest = self.buffer.partition(b"\n")
        self.buffer = bytearray(rest)
        return line.decode("utf-8", "replace")

    def ok(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """Send a request that must succeed."""
        answer = self.ask(cmd, **fields)
        if not answer["ok"]:
            error = answer.get("error")
            if isinstance(error, dict) and error.get("code") == "unsupported":  # not a difference: SKIP
                raise Skipped(f"the engine does not support `{cmd}` {json.dumps(fields, ensure_ascii=False)[:200]}: "
                              f"{str(error.get('message', ''))[:200]}")
            raise Difference(f"`{cmd}` {json.dumps(fields, ensure_ascii=False)[:200]} failed: "
                             f"{json.dumps(answer.get('error'), ensure_ascii=False)[:300]}")
        return answer

    def saved(self, game: Any) -> dict[str, Any]:
        """What ``load`` needs to start a game again where it is: the ``handle`` of a copy the engine keeps
        (``save`` with ``keep``, where it has that), else the engine's ``save`` answer, with the ``state``."""
        if self.keeps:
            answer = self.ask("save", game=game, keep=True)
            if answer["ok"] and isinstance(answer.get("handle"), str):
                return {"handle": answer["handle"]}
            self.keeps = False  # an engine without `keep`: the whole state from now on
        answer = self.ok("save", game=game)
        if "state" not in answer:
            raise EngineError(f"the engine answered 'save' without `state`: {json.dumps(answer)[:200]}")
        return answer

    def forget(self, saved: dict[str, Any]) -> None:
        """Let the engine drop a state it keeps for :meth:`saved` (nothing to do for a whole state)."""
        if "handle" in saved:
            self.ok("drop", handle=saved["handle"])

    def begin(self) -> None:
        """Start counting a vector's requests and games afresh."""
        self.spent = 0
        self.games = set()

    def tidy(self) -> bool:
        """Drop the games the last vector left (at most :data:`MAX_LEFT_GAMES`), so that the engine can
        check the next; False where it cannot (no ``drop``, too many games, a drop refused or answered out of
        protocol).  Raises :class:`EngineTimeout` if a drop gets no answer in time."""
        self.budget = None
        if "drop" not in self.commands or len(self.games) > MAX_LEFT_GAMES:
            return False
        try:
            for game in sorted(self.games, key=str):
                if not self.ask("drop", game=game)["ok"]:
                    return False
        except EngineTimeout:
            raise
        except EngineError:
            return False
        return not self.games

    def close(self) -> None:
        """Ask the engine to quit, then end it (kill it at once if it timed out)."""
        if self.timed_out:
            self.proc.kill()
            self.proc.wait()
            return
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.write(b'{"cmd": "quit"}\n')
                self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


class Difference(Exception):
    """The engine differs from the kit: the first difference of a vector."""


def _field(answer: dict[str, Any], cmd: str, key: str, kind: type | tuple[type, ...]) -> Any:
    """``answer[key]`` if it is a ``kind``; else the engine answered out of protocol (:class:`EngineError`)."""
    value = answer.get(key)
    if not isinstance(value, kind):
        raise EngineError(f"the engine answered {cmd!r} with `{key}` {json.dumps(value)[:100]}: "
                          f"not a protocol answer")
    return value


def _texts(answer: dict[str, Any], cmd: str, key: str) -> list[str]:
    """``answer[key]``, a list of texts (an empty one if the answer has none)."""
    texts = _field({key: [], **answer}, cmd, key, list)
    if not all(isinstance(t, str) for t in texts):
        raise EngineError(f"the engine answered {cmd!r} with `{key}` that are not all texts: "
                          f"{json.dumps(texts)[:100]}")
    return list(texts)


@attrs.frozen
class Result:
    """The verdict on one vector."""

    name: str
    passed: bool
    detail: str = ""
    #: The vector is not for engines (``passed`` is then True: it failed nothing); ``detail`` says why.
    skipped: bool = False

    def format(self) -> str:
        """``PASS name``, ``SKIP name: why`` or ``FAIL name: first difference``."""
        word = "SKIP" if self.skipped else "PASS" if self.passed else "FAIL"
        return f"{word} {self.name}" + (f": {self.detail}" if self.detail else "")


class Skipped(Exception):
    """A vector that checks something else than an engine (the message says what)."""


# ------------------------------------------------------------------ driving one game
def _utf8_first(texts: list[str]) -> str:
    return min(texts, key=lambda t: t.encode("utf-8"))


class _Game:
    """A game in the engine, and the entries of a record applied to it."""

    def __init__(self, engine: Engine, players: int, seed: int, switches: dict[str, str]):
        self.engine = engine
        answer = engine.ok("new", players=players, seed=seed, switches=switches, chance="client")
        self.id = _field(answer, "new", "game", (str, int))
        self.status = answer
        self.revealed: list[str] = []

    def apply_entry(self, entry: dict[str, Any]) -> None:
        """Apply a record entry: an action (a chance outcome forced), or check a reveal against the engine."""
        if "reveal" in entry:
            if not self.revealed:
                raise Difference(f"the record reveals {entry['reveal']}, the engine turned no piece face up here")
            face = self.revealed.pop(0)
            if face != entry["reveal"]:
                raise Difference(f"the record reveals {entry['reveal']}, the engine turned {face}")
            return
        if "look" in entry:
            return
        if self.revealed:
            raise Difference(f"the engine turned {', '.join(self.revealed)} face up; the record has no reveal entry")
        who = self.status.get("to_move")
        expected = CHANCE if entry["by"] == CHANCE else read_seat(entry["by"])
        if who != expected:
            raise Difference(f"the record has {entry['by']} act, the engine waits for {who!r}")
        self.act(entry["action"])

    def act(self, action: str) -> None:
        answer = self.engine.ask("apply", game=self.id, action=action)
        if not answer["ok"]:
            error = answer.get("error") or {}
            why = error.get("message", error) if isinstance(error, dict) else error
            raise Difference(f"the engine refuses {action!r}: {why}")
        self.status = answer
        self.revealed = _texts(answer, "apply", "revealed")

    def legal(self) -> list[str]:
        return _texts(self.engine.ok("legal", game=self.id), "legal", "actions")

    def resolve(self, rule: str) -> None:
        """Resolve chance events by the kit's chance rule (at most ``engine.chance_limit`` in a row)."""
        steps = 0
        limit = self.engine.chance_limit
        while self.status.get("to_move") == CHANCE:
            steps += 1
            if limit is not None and steps > limit:
                raise Difference(f"the engine asks for more than {limit} chance events in a row; the kit's "
                                 f"longest run is {(limit - CHANCE_SLACK) // CHANCE_MARGIN}")
            if rule == "first":
                self.act(_utf8_first(self.legal()))
            else:
                answer = self.engine.ok("chance", game=self.id, draw=True)
                self.status = answer
            self.revealed = []


# ------------------------------------------------------------------ the vectors
def _perft(engine: Engine, vector: dict[str, Any], depth: int) -> Iterator[tuple[int, int]]:
    """(depth, the engine's count) for each depth up to ``depth``."""
    rule = vector["chance"]
    forced = set(vector.get("forced", ()))  # setup outcomes a client forces: the generator does not step
    fast = {"save", "load"} <= engine.commands
    seen: dict[int, int] = {}   # positions reached at each depth in the current walk
    walk = 0

    def start() -> _Game:
        game = _Game(engine, vector["players"], vector["seed"], vector["interpretations"])
        for i, entry in enumerate(vector["setup"]):
            try:
                if rule == "seed" and entry.get("by") == CHANCE and i not in forced:
                    # the setup of a seed vector is the seed rule's own draws: draw, do not force
                    drawn = engine.ok("chance", game=game.id, draw=True)
                    game.status = drawn
                    game.revealed = _texts(drawn, "chance", "revealed")  # checked by the reveal entries after it
                    if _field(drawn, "chance", "action", str) != entry["action"]:
                        raise Difference(f"the seed rule draws {drawn['action']!r}")
                else:
                    game.apply_entry(entry)
            except Difference as diff:
                raise Difference(f"setup entry {i} {json.dumps(entry)}: {diff}") from None
        return game

    def at(path: list[str], saved: dict[str, Any] | None) -> _Game:
        if saved is not None:
            game = _Game.__new__(_Game)
            game.engine, game.revealed = engine, []
            kept = {"handle": saved["handle"]} if "handle" in saved else {"state": saved["state"]}
            game.status = engine.ok("load", **kept, chance="client")
            game.id = _field(game.status, "load", "game", (str, int))
        else:
            game = start()
            game.resolve(rule)
            for action in path:
                game.act(action)
                game.resolve(rule)
        return game

    def reached(level: int) -> None:
        seen[level] = seen.get(level, 0) + 1
        kit = vector["perft"].get(str(level))
        if kit is not None and seen[level] > kit:
            raise Difference(f"depth {walk}: the engine reaches more than {kit} positions after {level} "
                             f"action(s); the kit counts {kit}")

    def count(path: list[str], d: int, saved: dict[str, Any] | None) -> int:
        if path:
            reached(len(path))
        game = at(path, saved)
        if game.status.get("to_move") is None:
            return 0
        actions = game.legal()
        if d == 1:
            total = len(actions)
        else:
            total = 0
            here = engine.saved(game.id) if fast else None
            for action in actions:
                child = at(path, here)
                child.act(action)
                child.resolve(rule)
                if fast:
                    kept = engine.saved(child.id)
                    engine.ok("drop", game=child.id)
                    total += count([*path, action], d - 1, kept)
                    engine.forget(kept)
                else:
                    total += count([*path, action], d - 1, None)
            if here is not None:
                engine.forget(here)
        if fast:
            engine.ok("drop", game=game.id)
        return total

    for d in range(1, depth + 1):
        seen.clear()
        walk = d
        yield d, count([], d, None)


def check_perft(engine: Engine, vector: dict[str, Any]) -> str:
    """Raise :class:`Difference` at the first depth whose count differs (up to ``engine.perft_depth``)."""
    depth = engine.perft_depth
    deepest = max(int(k) for k in vector["perft"])
    for d, got in _perft(engine, vector, deepest if depth is None else min(depth, deepest)):
        want = vector["perft"][str(d)]
        if got != want:
            raise Difference(f"depth {d}: the engine counts {got}, the kit {want} "
                             f"(split by the first action: rattus perft --players {vector['players']} "
                             f"--seed {vector['seed']} --depth {d} --chance {vector['chance']} --divide)")
    return ""


def check_golden(engine: Engine, golden: dict[str, Any]) -> str:
    """Raise :class:`Difference` at the first step whose legal actions, entry or result differ."""
    record = golden["record"]
    game = _Game(engine, len(record["seats"]), int(record.get("seed", 0)), dict(record.get("interpretations", {})))
    for i, (entry, legal) in enumerate(zip(record["entries"], golden["legal"])):
        if legal is not None:
            got = sorted(set(game.legal()))
            if got != legal:
                missing = sorted(set(legal) - set(got))
                extra = sorted(set(got) - set(legal))
                raise Difference(f"step {i} (before {json.dumps(entry, ensure_ascii=False)}): legal actions differ: "
                                 f"missing {missing[:10]}, extra {extra[:10]}")
        try:
            game.apply_entry(entry)
        except Difference as diff:
            raise Difference(f"step {i} {json.dumps(entry, ensure_ascii=False)}: {diff}") from None
    _check_end(game, golden["scores"], golden["winners"])
    return ""


def _check_end(game: _Game, scores: list[int], winners: list[int]) -> None:
    if game.revealed:
        raise Difference(f"the engine turned {', '.join(game.revealed)} face up after the last entry")
    status = game.status
    if status.get("to_move") is not None:
        raise Difference(f"the record is over, the engine waits for {status.get('to_move')!r}")
    if status.get("scores") != scores or status.get("winners") != winners:
        raise Difference(f"the engine scores {status.get('scores')}, winners {status.get('winners')}; "
                         f"the kit {scores}, {winners}")


def check_record(engine: Engine, record: dict[str, Any], expected: dict[str, Any]) -> str:
    """Replay a record; a legal one must end with the expected result, an illegal one be refused at its index.

    Returns a note (empty); raises :class:`Difference`, or :class:`Skipped` for a players-eye record.
    """
    if record.get("kind") != "omniscient":
        raise Skipped(FOR_VALIDATORS)
    game = _Game(engine, len(record["seats"]), int(record.get("seed", 0)), dict(record.get("interpretations", {})))
    bad = expected.get("index") if expected["status"] == "illegal" else None
    for i, entry in enumerate(record["entries"]):
        try:
            game.apply_entry(entry)
        except Difference as diff:
            if i == bad:
                return ""
            raise Difference(f"entry {i} {json.dumps(entry, ensure_ascii=False)}: {diff}") from None
        if i == bad:
            raise Difference(f"entry {i} {json.dumps(entry, ensure_ascii=False)} is illegal, the engine accepts it")
    if bad is not None:
        if bad == len(record["entries"]) - 1 and game.revealed:
            return ""
        raise Difference(f"entry {bad} should be refused")
    _check_end(game, expected["scores"], expected["winners"])
    return ""


#: Why a players-eye record of the kit is no vector for engines.
FOR_VALIDATORS = "a players-eye record hides draws; it checks validators, not engines"


@attrs.frozen
class NotForEngines:
    """A vector that checks something else than engines: :func:`check` reports it SKIP without
    starting an engine for it."""

    why: str

    def __call__(self, engine: Engine) -> str:
        """Skip (:class:`Skipped`), whatever the engine."""
        raise Skipped(self.why)


class KitError(ValueError):
    """A kit file that cannot be read, or holds what its schema or the game does not allow."""


def _read(kit: Path, rel: str, schema: jsonschema.Validator) -> Any:
    """The JSON of a kit file that follows ``schema``: a regular file in the kit folder (links
    resolved), of at most :data:`MAX_KIT_FILE_BYTES`; else :class:`KitError` naming the file."""
    path = kit / rel
    if not inside(path, kit):
        raise KitError(f"{rel}: not a file inside the kit folder")
    try:
        data = json.loads(read_text(path, MAX_KIT_FILE_BYTES))
    except (OSError, ValueError) as err:
        raise KitError(f"{rel}: {why_unread(err)}") from None
    except RecursionError:
        raise KitError(f"{rel}: nested too deeply") from None
    error = jsonschema.exceptions.best_match(schema.iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path)
        raise KitError(f"{rel}: {where + ': ' if where else ''}{error.message[:200]}")
    return data


def _schemas(game: str | ResolvedGame | None) -> dict[str, jsonschema.Validator]:
    """Validators of a game's kit files: ``perft`` (player counts of the game), ``golden``, ``record``
    (the game's own record schema) and ``expected``."""
    schemas = kit_schemas(game)
    record = schemas["record"]
    found = registry_with(record)
    own = {"perft": schemas["perft"], "golden": load_schema("golden"), "expected": EXPECTED_SCHEMA}
    checkers = {name: jsonschema.Draft202012Validator(schema, registry=found) for name, schema in own.items()}
    checkers["record"] = jsonschema.validators.validator_for(record)(record, registry=found)
    return checkers


def _depths(vector: dict[str, Any], where: str) -> None:
    """Refuse a perft vector whose depths are not 1, 2, ... up to the deepest."""
    depths = sorted(int(d) for d in vector["perft"])
    if not depths or depths != list(range(1, len(depths) + 1)):
        raise KitError(f"{where}: perft counts are for the depths 1 to the deepest, not {depths[:10]}")


def _longest_chance_run(entries: list[dict[str, Any]]) -> int:
    """The most chance entries in a row among record entries (reveal and look entries do not break a run)."""
    best = run = 0
    for entry in entries:
        if "action" in entry:
            run = run + 1 if entry.get("by") == CHANCE else 0
            best = max(best, run)
    return best


def _check_content(where: str, rules: Any, players: int, switches: dict[str, str],
                   entries: list[dict[str, Any]]) -> None:
    """Refuse kit content the game cannot have: a switch or option it does not know, an entry by a seat
    beyond ``players`` (:class:`KitError` naming the place)."""
    try:
        rules.settings_for(switches)
    except ValueError as err:
        raise KitError(f"{where}: interpretations: {err}") from None
    for i, entry in enumerate(entries):
        by = entry.get("by")
        if "action" in entry and by != CHANCE:
            who = read_seat(str(by))
            if who is None or who >= players:
                raise KitError(f"{where}: entry {i}: by {json.dumps(by)[:50]}: a {players}-player game has the "
                               f"seats {seat(0)} to {seat(players - 1)} (and {CHANCE})")


def request_budget(kind: str, entries: int, chance_limit: int, counts: dict[str, int] | None = None) -> int:
    """The most requests a correct engine needs for one vector, with room to spare: for a ``golden`` or
    ``record`` vector of ``entries`` entries, a ``legal`` and an ``apply`` for each; for a ``perft``
    vector (``entries``: its setup entries; ``counts``: its count at each depth), every position of every
    walk reached again from the start, each action followed by up to ``chance_limit`` chance events."""
    if kind != "perft":
        return 2 * entries + 16
    assert counts is not None
    positions = [1] + [counts[str(d)] for d in range(1, len(counts) + 1)]
    total = 0
    for deepest in range(1, len(counts) + 1):
        for level in range(deepest):
            reach = 4 + entries + chance_limit + level * (1 + chance_limit)
            total += positions[level] * 2 * (reach + 4)
    return 2 * total + 16


def _bounded(engine: Engine, run: Callable[[Engine], str], chance_limit: int, budget: int) -> str:
    """Run a vector's check with the kit's bounds on the engine."""
    engine.chance_limit = chance_limit
    engine.budget = budget
    return run(engine)


def vectors(kit: Path, game: str | ResolvedGame | None = None) -> list[tuple[str, Callable[[Engine], str]]]:
    """Every vector of a kit folder of a game (None: the selected one; or resolved already): a name and how
    to check it.

    Every file is read and checked against its schema and the game first (:func:`_check_content`):
    :class:`KitError` names the first that is not right.  Each check runs with the bounds the kit
    allows: chance events in a row (see :data:`CHANCE_MARGIN`) and requests (:func:`request_budget`).
    """
    found: list[tuple[str, str, int, Callable[[Engine], str], dict[str, int] | None]] = []
    schemas = _schemas(game)
    rules = rules_of(game)
    longest = 0
    perft = _read(kit, "perft.json", schemas["perft"])
    for i, v in enumerate(perft["vectors"]):
        where = f"perft.json: vectors/{i}"
        _depths(v, where)
        _check_content(where, rules, v["players"], v["interpretations"], v["setup"])
        longest = max(longest, _longest_chance_run(v["setup"]))
        name = f"perft/{v['players']}p-seed{v['seed']}-{v['chance']}" + ("-forced" if v.get("forced") else "")
        found.append((name, "perft", len(v["setup"]), functools.partial(check_perft, vector=v), v["perft"]))
    for path in sorted((kit / "golden").glob("*.json")):
        rel = f"golden/{path.name}"
        golden = golden_of(_read(kit, rel, schemas["golden"]))
        record = golden["record"]
        _check_content(rel, rules, len(record["seats"]), dict(record.get("interpretations", {})), record["entries"])
        longest = max(longest, _longest_chance_run(record["entries"]))
        found.append((f"golden/{path.stem}", "golden", len(record["entries"]),
                      functools.partial(check_golden, golden=golden), None))
    expected = _read(kit, "games/expected.json", schemas["expected"])
    for name, item in expected.items():
        rel = f"games/{name}"
        record = _read(kit, rel, schemas["record"])
        entries = record["entries"]
        legal = entries if item["status"] == "legal" else entries[:item.get("index", 0)]
        _check_content(rel, rules, len(record["seats"]), dict(record.get("interpretations", {})), legal)
        longest = max(longest, _longest_chance_run(legal))
        found.append((f"games/{Path(name).stem}", "record", len(entries),
                      functools.partial(check_record, record=record, expected=item)
                      if record.get("kind") == "omniscient" else NotForEngines(FOR_VALIDATORS), None))
    limit = CHANCE_MARGIN * longest + CHANCE_SLACK
    return [(name, run if isinstance(run, NotForEngines) else functools.partial(
                _bounded, run=run, chance_limit=limit, budget=request_budget(kind, size, limit, counts)))
            for name, kind, size, run, counts in found]


def check(command: str, kit: Path | None = None, perft_depth: int | None = None,
          only: str | None = None, timeout: float = ANSWER_TIMEOUT,
          game: str | ResolvedGame | None = None, fresh_engine: bool = False) -> Iterator[Result]:
    """Check an engine command against a kit folder (default: the shipped kit of ``game``, None: the
    selected game; or resolved already, as ``rattus conformance check`` gives it), vector by vector.

    The vectors are checked one after another by one engine process while they pass, each vector's games
    dropped after it (:meth:`Engine.tidy`; an engine without ``drop`` is started afresh for each vector).
    A vector that fails is checked again by a fresh engine process, whose verdict is the one reported, and
    a fresh process checks the next: one vector's failure, or what an earlier one left in the engine, never
    decides another's verdict.  ``fresh_engine`` starts a fresh engine process for every vector instead (as
    slow as a start per vector, but no pass can then owe anything to what an earlier vector left in the
    engine).  A vector for validators, not engines (:class:`NotForEngines`), is reported
    SKIP without an engine.  Raises :class:`EngineError` if the engine cannot be started, and
    :class:`EngineTimeout` (after killing it) if it gives no answer to a request within ``timeout`` seconds.
    """
    folder = kit_dir(game) if kit is None else kit
    engine: Engine | None = None
    try:
        for name, run in vectors(folder, game):
            if only is not None and only not in name:
                continue
            if isinstance(run, NotForEngines):
                yield Result(name, True, run.why, skipped=True)
                continue
            fresh = engine is None
            if engine is None:
                engine = Engine(command, timeout)
            result = _verdict(engine, name, run, fresh, perft_depth)
            if not result.passed and not fresh:  # again, alone: nothing an earlier vector left decides it
                engine.close()
                engine = Engine(command, timeout)
                result = _verdict(engine, name, run, True, perft_depth)
            yield result
            try:
                tidied = result.passed and not fresh_engine and engine.tidy()
            except EngineTimeout as err:  # no answer to a drop: the check stops, as for any request
                raise EngineTimeout(f"{name}: {err}") from None
            if fresh_engine or not tidied:
                engine.close()
                engine = None
    finally:
        if engine is not None:
            engine.close()


def _verdict(engine: Engine, name: str, run: Callable[[Engine], str], fresh: bool,
             perft_depth: int | None) -> Result:
    """Check one vector with an engine (``fresh``: just started, greeted first with ``hello``)."""
    engine.begin()
    try:
        if fresh:
            hello = engine.ask("hello", version=1)
            engine.commands = set(_texts(hello, "hello", "commands")) if hello["ok"] else set()
        engine.perft_depth = perft_depth
        return Result(name, True, run(engine))
    except Skipped as why:
        return Result(name, True, str(why), skipped=True)
    except Difference as diff:
        return Result(name, False, str(diff))
    except EngineTimeout as err:
        raise EngineTimeout(f"{name}: {err}") from None
    except EngineError as err:
        return Result(name, False, f"engine: {err}")
