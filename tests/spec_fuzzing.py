"""Fuzzing specs that parse, for any game: play one with random choices, and mutate the values of one.

:func:`play_randomly` loads a spec folder and plays it as far as its rules go,
saving and loading every state on the way; only a :class:`SpecError` with
positions (when it loads) or a :class:`RulesError` (when it runs) may stop it.
:func:`mutate_values` changes what a spec computes without breaking its
syntax: numbers become numbers near the language's bound, operators other
operators of their kind, so the mutated spec mostly loads and plays deep.

Every spec is played on the Python back end in this process, and on each other
back end that runs here (the C back end of issue 26) in a child process
(:class:`BackendChild`): both must give the same :func:`trace` (the same spec
errors, decisions, states, rule errors and scores), and a child killed by a
signal (a segfault is the worst failure there is) fails the test.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, ClassVar

from hypothesis import strategies as st

from interpreter import RulesError, SpecError
from interpreter.ast import MAX_INT
from interpreter.checker import MAX_PLAYERS
from interpreter.runtime import State
from rattus_rules.tools.bench.benchmark import BACKEND_ENV
from tests.backends.harness import BACKENDS, ROOT, load, running, unavailable

#: Numbers a mutation writes: small ones, and ones at and near the bound of the language.
NUMBERS = [0, 1, 2, 3, 7, -1, -5, 1000, 2**31, 2**62, MAX_INT, MAX_INT - 1, 10**18]

#: Operators a mutation exchanges for another of the same group.
SWAPS = [["+", "-", "*", "//", "%"], ["==", "!=", "<", "<=", ">", ">="], ["+=", "-="],
         ["and", "or"], ["true", "false"], ["min", "max"], ["all", "any"], ["most", "least"]]
_GROUP = {op: group for group in SWAPS for op in group}
# strings and comments are matched so that nothing inside them is changed
_VALUE = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|\b\d+\b|//|[=!<>+-]=|\.\.|[-+*%<>]|\b[a-z]+\b')


def number_text(n: int) -> str:
    """A number as spec text (a negative one as a negation in brackets)."""
    return f"(-{-n})" if n < 0 else str(n)


def mutate_values(text: str, data: st.DataObject, times: int = 3) -> str:
    """``text`` with one to ``times`` numbers or operators changed, drawn from Hypothesis."""
    for _ in range(data.draw(st.integers(1, times))):
        spots = [m for m in _VALUE.finditer(text) if m.group()[0].isdigit() or m.group() in _GROUP]
        if not spots:
            return text
        m = spots[data.draw(st.integers(0, len(spots) - 1))]
        old = m.group()
        if old[0].isdigit():
            new = number_text(data.draw(st.sampled_from(NUMBERS)))
        else:
            new = data.draw(st.sampled_from([op for op in _GROUP[old] if op != old]))
        text = text[:m.start()] + new + text[m.end():]
    return text


def round_trip(state: State) -> None:
    """A state saved as JSON loads back to a state that saves to the same JSON."""
    text = json.dumps(state.to_json())
    again = state.game.state_from_json(json.loads(text))
    assert json.dumps(again.to_json()) == text


def by_text_too(state: State, index: int) -> dict[str, object] | None:
    """The state after the option at ``index`` is applied by its action text to a clone (as
    JSON), and the same text found at that index: the notation reads back what it wrote.
    None if the option cannot be written (the rule error then comes from ``apply_index``)."""
    try:
        text = state.legal_action_texts()[index]
    except RulesError:
        return None
    assert state.pending is not None
    options = state.pending.options
    found = state.find(text)  # the first of equal options (a domain may hold a value twice)
    assert options[found] == options[index], f"the text {text!r} finds another option"
    other = state.clone()
    other.apply(text)
    return other.to_json()


def play_randomly(folder: Path, seed: int, steps: int = 60, settings: list[dict[str, str]] | None = None) -> None:
    """Load a spec folder and play it with random choices, at its two smallest player counts.

    Each state on the way is saved and loaded again and the invariants are
    checked; each option taken is also taken by its action text, on a clone, to
    the same state; the scores at the end are numbers within the bound.  A spec
    refused at load must say where; a game may stop with a :class:`RulesError`.
    """
    try:
        game = load(folder, "python")
    except SpecError as err:
        for d in err.diagnostics:
            assert d.pos.path and d.pos.line >= 1 and d.pos.column >= 1, d.format()
        return
    assert 1 <= game.min_players <= game.max_players <= MAX_PLAYERS
    rng = random.Random(seed)
    for players in sorted({game.min_players, min(game.min_players + 1, game.max_players)}):
        for chosen in settings or [{}]:
            try:
                state = game.new_state(players, seed=seed, settings=chosen, check_invariants=True)
                round_trip(state)
                for _ in range(steps):
                    if state.pending is None:
                        break
                    if state.pending.player < 0:
                        state.apply_random_chance()
                    else:
                        index = rng.randrange(state.num_legal_actions())
                        by_text = by_text_too(state, index)
                        state.apply_index(index)
                        if by_text is not None:
                            assert by_text == state.to_json(), "applied by text, an option reached another state"
                    round_trip(state)
                    state.assert_invariants("a step")
                for seat in range(players):
                    assert -MAX_INT <= game.score(state, seat) <= MAX_INT
            except RulesError as err:
                assert err.pos.line >= 0, err
    same_on_every_backend(folder, seed, steps, settings)


def _digest(state: State) -> str:
    return hashlib.sha256(json.dumps(state.to_json(), sort_keys=True).encode()).hexdigest()[:16]


def trace(folder: Path, seed: int, steps: int, settings: list[dict[str, str]] | None, backend: str) -> list[Any]:
    """What a spec does under a back end, played as :func:`play_randomly` plays it: its spec errors, or
    for each game who decides, the legal texts and a digest of the state's JSON at each step, then the
    scores or the rule error that stopped it (JSON data: it crosses a process boundary)."""
    try:
        game = load(folder, backend)
    except SpecError as err:
        return [["spec error", [d.format() for d in err.diagnostics]]]
    if backend != "auto" and running(game) != backend:
        raise RuntimeError(f"asked for the {backend} back end, the game runs on {running(game)}")
    out: list[Any] = []
    rng = random.Random(seed)
    for players in sorted({game.min_players, min(game.min_players + 1, game.max_players)}):
        for chosen in settings or [{}]:
            out.append(["game", players, chosen])
            try:
                state = game.new_state(players, seed=seed, settings=chosen)
                for _ in range(steps):
                    if state.pending is None:
                        break
                    out.append([state.pending.player, state.legal_action_texts(), _digest(state)])
                    if state.pending.player < 0:
                        state.apply_random_chance()
                    else:
                        state.apply_index(rng.randrange(state.num_legal_actions()))
                out.append(["end", _digest(state), [game.score(state, seat) for seat in range(players)]])
            except RulesError as err:
                pos, cites = getattr(err, "pos", None), getattr(err, "citations", ())
                out.append(["rule error", type(err).__name__, str(pos), [str(c) for c in cites],
                            getattr(err, "message", str(err))])
    return out


class BackendChild:
    """A child process that answers :func:`trace` requests under one back end (``tests.backends.fuzz_child``).

    A child killed by a signal, or silent for :attr:`TIMEOUT` seconds, fails the
    request with an AssertionError naming the spec; a new child is started for
    the next one."""

    TIMEOUT = 120.0
    _running: ClassVar[dict[str, BackendChild]] = {}

    def __init__(self, backend: str, command: list[str] | None = None) -> None:
        self.backend = backend
        self.command = command or [sys.executable, "-m", "tests.backends.fuzz_child"]
        self.process: subprocess.Popen[str] | None = None

    @classmethod
    def of(cls, backend: str) -> BackendChild:
        """The child of a back end, started on first use and kept for the test run."""
        if backend not in cls._running:
            cls._running[backend] = cls(backend)
        return cls._running[backend]

    def _start(self) -> subprocess.Popen[str]:
        if self.process is None or self.process.poll() is not None:
            env = {**os.environ, BACKEND_ENV: self.backend, "PYTHONPATH": str(ROOT)}
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            text=True, env=env, cwd=ROOT)
        return self.process

    def trace(self, folder: Path, seed: int, steps: int, settings: list[dict[str, str]] | None) -> list[Any]:
        """The child's trace of a spec; AssertionError if the child crashes, dies or hangs."""
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        spec = "\n".join(f.read_text(encoding="utf-8") for f in sorted(folder.glob("*.rules")))
        request = {"folder": str(folder), "seed": seed, "steps": steps, "settings": settings,
                   "backend": self.backend}
        try:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
        except BrokenPipeError:
            pass
        ready, _, _ = select.select([process.stdout], [], [], self.TIMEOUT)
        line = process.stdout.readline() if ready else ""
        if not line:
            if not ready:
                process.kill()
            code = process.wait()
            self.process = None
            died = f"killed by {signal.Signals(-code).name}" if code < 0 else f"gone with exit code {code}"
            raise AssertionError(f"the {self.backend} back end's process was {died} "
                                 f"(seed {seed}, settings {settings}) on this spec:\n{spec}")
        answer = json.loads(line)
        assert "crash" not in answer, f"the {self.backend} back end crashed: {answer['crash']}\non this spec:\n{spec}"
        return list(answer["trace"])

    def close(self) -> None:
        """End the child (its input closed: it exits when it has read it all)."""
        if self.process is not None and self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(timeout=self.TIMEOUT)
        self.process = None


def comparable(traced: list[Any]) -> list[Any]:
    """A trace as the back ends must agree on it: a rule error by its kind, place and citations, not the
    wording of its message (the C back end may name another bound that stops the same statement:
    tests/backends/test_fuzz_child.py keeps a known case)."""
    return [entry[:4] if entry and entry[0] == "rule error" else entry for entry in traced]


#: What the fuzzers do with the other back ends (``SPEC_FUZZ_BACKENDS``): ``strict`` (the default) fails a test
#: on any difference from Python; ``warn`` warns of a difference and fails only on a crash or a signal; ``off``
#: runs no child.  The differences the fuzzer found are fixed (tests/backends/test_fuzz_child.py).
BACKEND_CHECK = os.environ.get("SPEC_FUZZ_BACKENDS", "strict")


class BackendDifference(UserWarning):
    """Another back end traced a spec otherwise than Python (a failure; a warning with ``SPEC_FUZZ_BACKENDS=warn``)."""


def same_on_every_backend(folder: Path, seed: int, steps: int, settings: list[dict[str, str]] | None) -> None:
    """The spec does the same on each other back end that runs here, in a child process, as on Python.

    The child loads the spec with ``auto``: C for every function the emitter can write, Python for the
    rest (``c`` would refuse a spec with a construct it cannot write yet, where Python plays it)."""
    others = [b for b in BACKENDS if b != "python" and unavailable(b) is None]
    if not others or BACKEND_CHECK == "off":
        return
    ours = comparable(json.loads(json.dumps(trace(folder, seed, steps, settings, "python"))))
    for backend in others:
        theirs = comparable(BackendChild.of("auto" if backend == "c" else backend).trace(folder, seed, steps, settings))
        if theirs != ours:
            at = next((i for i, (a, b) in enumerate(zip(theirs, ours)) if a != b), min(len(theirs), len(ours)))
            spec = "\n".join(f.read_text(encoding="utf-8") for f in sorted(folder.glob("*.rules")))
            message = (f"the {backend} back end does otherwise than Python (seed {seed}, settings {settings}), "
                       f"first at trace entry {at}:\n  {backend}: {theirs[at:at + 1]}\n  python: {ours[at:at + 1]}\n"
                       f"(before it: {ours[max(0, at - 2):at]})\non this spec:\n{spec}")
            if BACKEND_CHECK == "strict":
                raise AssertionError(message)
            warnings.warn(message, BackendDifference, stacklevel=2)


class SpecCopy:
    """A private copy of a game's spec folder (with its data), one file of it changed per example."""

    def __init__(self, source: Path, folder: Path) -> None:
        shutil.copytree(source, folder)
        self.folder = folder
        self.files = {f.name: f.read_text(encoding="utf-8") for f in sorted(folder.glob("*.rules"))}

    def play_with_values_changed(self, data: st.DataObject, seed: int, steps: int = 120) -> None:
        """Change values of one spec file (:func:`mutate_values`), :func:`play_randomly`, put the file back."""
        name = data.draw(st.sampled_from(sorted(self.files)))
        (self.folder / name).write_text(mutate_values(self.files[name], data), encoding="utf-8")
        try:
            play_randomly(self.folder, seed, steps=steps)
        finally:
            (self.folder / name).write_text(self.files[name], encoding="utf-8")
