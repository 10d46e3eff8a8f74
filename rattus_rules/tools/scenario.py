r"""Scenarios for any game: a position, a few actions and expectations, written by hand as text.

This is the text format and its outcome; what a position says and what can be
expected of it belong to the game (its own position statements are passed to
:func:`parse_text`).  One statement a line, ``#`` starts a comment, words are
split as a shell would (``"..."`` keeps spaces).  The header says
``scenario TITLE``, ``players N``, ``seats NAME ...``, ``interpretation ID=VALUE``,
``seed N`` and ``cite SOURCE "section" "sentence"`` (the passage the scenario
reproduces: where the spec keeps the source's text, it must be there, as for a
`cite` in the spec); then the game's position statements; then the steps.

>>> from pathlib import Path
>>> from interpreter import load_spec
>>> nim = load_spec(Path(__file__).parents[2] / "tests" / "language" / "specs" / "nim")
>>> scn = parse_text("scenario Two takes\nplayers 2\nP0 take 2\nexpect to-move P1\n", "<text>", nim, ())
>>> scn.title, scn.players, [line.words for line in scn.steps]
('Two takes', 2, [('P0', 'take', '2'), ('expect', 'to-move', 'P1')])
>>> parse_text("players 5\n", "<text>", nim, ())
Traceback (most recent call last):
...
rattus_rules.tools.scenario.ScenarioError: <text>:1: Nim is for 2 to 3 players, not 5
>>> parse_text("players 2\nseats P12 b\n", "<text>", nim, ())
Traceback (most recent call last):
...
rattus_rules.tools.scenario.ScenarioError: <text>:2: 'P12' cannot name a seat
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from pathlib import Path

import attrs

from interpreter import Citation, Game, State
from interpreter.ast import Pos
from interpreter.checker import suggest
from interpreter.files import read_text, why_unread
from interpreter.notation import CHANCE, read_seat
from interpreter.sourcetext import SourceText

#: The header's statements, the same for every game.
HEADER_WORDS = ("scenario", "players", "seats", "interpretation", "seed", "cite")


class ScenarioError(ValueError):
    """A scenario that cannot be read or laid out: ``path:line: message``, or ``path:line:column: message``
    where the error is one word of the line (``path: message`` when ``line`` is None: the file as a whole,
    one that cannot be read)."""

    def __init__(self, path: str, line: int | None, message: str, column: int | None = None):
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        where = "" if line is None else f":{line}" + ("" if column is None else f":{column}")
        super().__init__(f"{path}{where}: {message}")


@attrs.frozen
class Line:
    """One statement of a scenario: its line number and words."""

    number: int
    words: tuple[str, ...]
    text: str


@attrs.frozen
class Scenario:
    """A parsed scenario: header, position statements and steps (see the module docstring)."""

    path: str
    title: str
    players: int
    seats: tuple[str, ...]
    interpretations: dict[str, str]
    seed: int
    position: tuple[Line, ...]
    steps: tuple[Line, ...]
    #: the passages of the game's sources the scenario reproduces (``cite SOURCE "section" "sentence"``)
    citations: tuple[Citation, ...] = ()


@attrs.frozen
class Failure:
    """A step whose expectation did not hold, or an action that could not be applied."""

    line: int
    text: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.text}\n    {self.message}"


@attrs.define
class ScenarioRun:
    """The outcome of running a scenario: the final state, failures and a log of the steps."""

    scenario: Scenario
    state: State
    failures: list[Failure]
    log: list[str]
    revealed: list[str]

    @property
    def ok(self) -> bool:
        """Whether every step went as expected."""
        return not self.failures


# ------------------------------------------------------------------- parsing
def _strip_comment(line: str) -> str:
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def _words(text: str, path: str, number: int) -> tuple[str, ...]:
    long = _LONG_NUMBER.search(text)
    if long is not None:
        raise ScenarioError(path, number, f"the number {long.group()[:20]}... is too long "
                            f"(at most {_MAX_DIGITS} digits)")
    try:
        return tuple(shlex.split(text, posix=True))
    except ValueError as err:
        raise ScenarioError(path, number, f"cannot read the line: {err}") from None


#: No number in a scenario has more digits than this (Python refuses to read
#: numbers of more than 4,300 digits, and no count in a game comes near).
_MAX_DIGITS = 18
_LONG_NUMBER = re.compile(rf"\d{{{_MAX_DIGITS + 1},}}")


def parse_text(text: str, path: str, game: Game, position_words: Sequence[str]) -> Scenario:
    """Read a scenario of ``game`` whose position statements start with ``position_words``; raise
    :class:`ScenarioError` at the first malformed line."""
    words_of_position = (*HEADER_WORDS, *position_words)
    title = ""
    players: int | None = None
    seats: tuple[str, ...] = ()
    chosen: dict[str, str] = {}
    seed = 0
    position: list[Line] = []
    steps: list[Line] = []
    cites: list[Citation] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        body = _strip_comment(raw).strip()
        if not body:
            continue
        head = body.split(None, 1)[0].rstrip(":")
        if head == "scenario":
            title = body[len("scenario"):].strip()
            continue
        words = _words(body, path, number)
        line = Line(number, words, body)
        if head in words_of_position:
            if steps:
                raise ScenarioError(path, number, f"`{head}` describes the position: put it before the first "
                                    "action or expectation")
            if head == "players":
                players = _int(words, 1, path, number, "players N")
            elif head == "seats":
                seats = words[1:]
                for s in seats:
                    if s in words_of_position or s in (CHANCE, "expect") or read_seat(s) is not None:
                        raise ScenarioError(path, number, f"{s!r} cannot name a seat")
                if len(set(seats)) != len(seats):
                    raise ScenarioError(path, number, "two seats have the same name")
            elif head == "interpretation":
                ident, sep, value = "".join(words[1:]).partition("=")
                if not sep or not ident or not value or "=" in value:
                    raise ScenarioError(path, number, "write `interpretation ID=VALUE` (one a line)")
                _check_switch(game, ident, value, raw, path, number)
                chosen[ident] = value
            elif head == "seed":
                seed = _int(words, 1, path, number, "seed N")
            elif head == "cite":
                cites.append(_citation(game, words, path, number))
            else:
                position.append(line)
        else:
            if head not in seats and head not in (CHANCE, "expect") and read_seat(head) is None:
                hint = suggest(head, words_of_position)  # a misspelt statement, not a player's step
                if hint:
                    raise ScenarioError(path, number, f"no statement or player {head!r}{hint}")
            steps.append(line)
    if players is None:
        if not seats:
            raise ScenarioError(path, 1, "say how many players: `players N`")
        players = len(seats)
    if seats and len(seats) != players:
        raise ScenarioError(path, 1, f"{len(seats)} seat names for {players} players")
    if not game.min_players <= players <= game.max_players:
        raise ScenarioError(path, 1, f"{game.title} is for {game.players_text} players, not {players}")
    return Scenario(path, title, players, seats, chosen, seed, tuple(position), tuple(steps), tuple(cites))


def _citation(game: Game, words: Sequence[str], path: str, number: int) -> Citation:
    """A scenario's ``cite SOURCE "section" "sentence"``, checked against the source's kept text."""
    if len(words) != 4 or not words[2].strip() or not words[3].strip():
        raise ScenarioError(path, number, 'write `cite SOURCE "section" "sentence"`')
    sources = game.symbols.sources
    if words[1] not in sources:
        raise ScenarioError(path, number, f"{game.title} names no source {words[1]!r}" + suggest(words[1], sources))
    c = Citation(words[1], words[2], words[3], Pos(path, number, 1))
    kept = game.symbols.texts.get(c.source)
    problem = SourceText(kept).problem(c) if kept is not None else None
    if problem is not None:
        raise ScenarioError(path, number, problem)
    return c


def _check_switch(game: Game, ident: str, value: str, raw: str, path: str, number: int) -> None:
    """Refuse an unknown switch or option at its line and the column of the word (1-based)."""
    try:
        game.settings_for({ident: value})
    except ValueError as err:
        start = raw.find("interpretation") + len("interpretation")
        if "unknown interpretation" in str(err):
            column = raw.find(ident, start) + 1
        else:  # the option, after the `=`
            column = raw.find(value, raw.find("=", start) + 1) + 1
        raise ScenarioError(path, number, str(err), column if column > 0 else None) from None


def read_scenario_text(path: str | Path) -> str:
    """The text of a scenario file (size-capped, a regular file); :class:`ScenarioError` if it cannot be read."""
    p = Path(path)
    try:
        return read_text(p)
    except (OSError, ValueError) as err:
        raise ScenarioError(str(p), None, f"cannot read the file: {why_unread(err)}") from None


def _int(words: Sequence[str], i: int, path: str, number: int, form: str) -> int:
    if len(words) <= i or not re.fullmatch(r"-?\d+", words[i]):
        raise ScenarioError(path, number, f"write `{form}`")
    return int(words[i])
