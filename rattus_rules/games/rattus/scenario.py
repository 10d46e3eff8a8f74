"""Scenarios: a Rattus position plus a few actions and expectations, written by hand.

A scenario answers a rule question ("may red place cubes in Italien here?") or
checks an example of the rulebook.  It is plain text, one statement a line,
``#`` starts a comment.  The full reference is ``docs/scenarios.md``; in short::

    scenario The placement example (rulebook, Ⓑ Beispiel)
    players 4
    seats red yellow green blue        # names for P0 P1 P2 P3 (optional)
    interpretation reveal-order=chosen # any number of these
    # --- the position: the board starts empty, then these facts are laid out
    tokens Gallia: ?, ?, ?             # faces in placement order: ?, 3:*, 2:M+merchant+monk
    tokens Germania: ?
    cubes Gallia: green 2, yellow 1
    cards blue: monk witch king
    plague Italia
    turn red                           # whose turn it is (default P0)
    done take place                    # what the active player did already this turn
    # --- steps, run in order
    expect actions place: place Gallia, place Germania
    expect illegal red place Italia because "ohne Rattenplättchen"
    red place Germania
    expect cubes Germania: red 1

How the position is built: setup runs with the state's generator and the first
legal choice of each player until the first decision of a regular turn
(procedure ``player_turn``); then the board is cleared (every token back in the
stock, no cubes, no cards, the castle empty, nobody has looked at anything) and
the statements are laid out.  Each player's supply is what is left of their 20
cubes.  The position must satisfy every invariant of the spec; a position that
does not is refused with the invariant's citation.  ``final PLAYER`` states a
position in the final round instead: PLAYER's turn ended the game, and the
final round begins (``turn`` then names the final-round player to move).

>>> run = run_scenario(parse_scenario('''
... players 2
... tokens Gallia: 3:*, ?
... expect actions place: place Gallia
... P0 place Gallia
... expect cubes Gallia: P0 2
... '''))
>>> run.ok, run.failures
(True, [])
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from interpreter import CHANCE_PLAYER, TERMINAL_PLAYER, Citation, IllegalAction, RulesError, State, notation
from interpreter.ast import Pos
from interpreter.edit import (
    find_pieces,
    newly_revealed,
    option_words,
    procedure_of,
    refresh,
    run_until,
    set_local,
)
from rattus_rules.api import ResolvedGame, new_game, rules_of
from rattus_rules.paths import project_root
from rattus_rules.tools.coverage import Citer
from rattus_rules.tools.scenario import Failure as Failure
from rattus_rules.tools.scenario import Line as Line
from rattus_rules.tools.scenario import Scenario as Scenario
from rattus_rules.tools.scenario import ScenarioError as ScenarioError
from rattus_rules.tools.scenario import ScenarioRun as ScenarioRun
from rattus_rules.tools.scenario import parse_text, read_scenario_text

from .faces import UNKNOWN, Face, face_text, piece_face, symbol_order
from .names import (
    AFTER_C,
    BOX,
    GAME_END_TIMING,
    OUT,
    PLACED,
    RATS,
    REGULAR_TURNS,
    STAGE,
    START,
    STOCK,
    TOOK,
    TURN_PLAYER,
    TURN_PROCEDURE,
    View,
    classes,
)

#: Statements that describe a Rattus position (all come before the first step), beside the header's.
POSITION_WORDS = ("plague", "tokens", "cubes", "castle", "supply", "cards", "turn", "done", "used", "stock", "out",
                  "final")
#: What ``done`` may say the active player did already this turn, and the turn's local it sets.
DONE_FLAGS = {"take": TOOK, "place": PLACED}
#: The action that ends a turn in which only card abilities are left (after phase C, and in the final round).
END_ACTION = "end"


def parse_scenario(text: str, path: str = "<scenario>", game: ResolvedGame | None = None) -> Scenario:
    """Read a Rattus scenario (``game``: Rattus resolved once by the caller, :func:`rattus_rules.api.resolve`;
    None: loaded here); raise :class:`ScenarioError` at the first malformed line."""
    return parse_text(text, path, rules_of(game), POSITION_WORDS)


def load_scenario(path: str | Path, game: ResolvedGame | None = None) -> Scenario:
    """Read a scenario file (``game`` as :func:`parse_scenario` takes it)."""
    return parse_scenario(read_scenario_text(path), str(path), game)


# ----------------------------------------------------------------- the board
class _Builder:
    """Lays out a scenario's position on a state (Rattus vocabulary lives here)."""

    def __init__(self, scn: Scenario, state: State):
        self.scn = scn
        self.state = state
        self.game = state.game
        self.rng = random.Random(scn.seed)
        self.view = View(state)
        self.regions = list(self.view.regions)
        self.in_play = set(self.view.in_play)
        self.seat_names = {notation.seat(i): i for i in range(scn.players)}
        for i, name in enumerate(scn.seats):
            self.seat_names[name] = i
        self.line = 0

    def fail(self, message: str) -> ScenarioError:
        return ScenarioError(self.scn.path, self.line, message)

    def seat(self, word: str) -> int:
        seat = self.seat_names.get(word)
        if seat is None:
            raise self.fail(f"no player {word!r} (players: {', '.join(self.seat_names)})")
        return seat

    def region(self, word: str) -> str:
        word = word.rstrip(":")
        if word not in self.regions:
            raise self.fail(f"no region {word!r} (regions: {', '.join(self.regions)})")
        return word

    def clear(self) -> None:
        """Every token back in the stock (the box keeps the tokens removed at setup), no cubes, no cards."""
        st = self.state
        total = {p: self.view.supply[p] + self.view.castle[p]
                 + sum(self.view.cubes[(p, r)] for r in self.regions) for p in st.seats}
        for r in self.regions:
            for t in list(self.view.rats[r]):
                st.move_piece(t, STOCK, None)
            for p in st.seats:
                self.view.cubes[(p, r)] = 0
        for t in list(self.view.out):
            st.move_piece(t, STOCK, None)
        for p in st.seats:
            self.view.castle[p] = 0
            self.view.supply[p] = total[p]
        for c in self.view.classes:
            self.view.holder[c] = None
        st.seen = [0] * len(st.seen)
        for used in st.used.values():
            used.clear()
        st.history = []
        if st.log is not None:
            st.log.clear()
        self.total = total

    def faces(self, words: Sequence[str]) -> list[str]:
        """A comma-separated list of face patterns (or `none`)."""
        items = [w.strip() for w in " ".join(words).strip().lstrip(":").split(",")]
        if items == ["none"] or items == [""]:
            return []
        for item in items:
            if item != UNKNOWN and not re.fullmatch(r"[1-6]:\*", item):
                try:
                    Face.parse(item, symbol_order(classes(self.game)))
                except ValueError as err:
                    raise self.fail(f"{err}; a face pattern is a face, `N:*` (any token with threshold N) "
                                    f"or `{UNKNOWN}` (any token)") from None
        return items

    def take(self, pattern: str, taken: set[int]) -> int:
        """A token matching the pattern from the stock (or from the tokens removed at setup)."""
        st = self.state
        match = face_matcher(self.game, pattern)
        for zone in (STOCK, BOX):
            found = [t for t in find_pieces(st, match, (zone,)) if t not in taken]
            if found:
                t = self.rng.choice(found) if pattern == UNKNOWN or pattern.endswith("*") else found[0]
                if zone == BOX:  # keep the number of removed tokens: send another one to the box
                    # ... of the same kind (start token or not): setup step 4 removes no start tokens
                    rows = self.game.piece_rows
                    spare = [s for s in self.view.stock
                             if s not in taken and rows[s][START] == rows[t][START]]
                    if not spare:
                        raise self.fail(f"no token left to stand in for {pattern} among the removed tokens")
                    st.move_piece(self.rng.choice(spare), BOX, None)
                taken.add(t)
                return t
        raise self.fail(f"no token {pattern} is left (each token can be laid out once)")

    def build(self) -> None:
        st = self.state
        self.clear()
        taken: set[int] = set()
        stated_supply: list[tuple[int, int, int]] = []
        stock_line: Line | None = None
        trigger: int | None = None
        mover: int | None = None
        spent: list[str] = []
        final = next((line for line in self.scn.position if line.words[0] == "final"), None)
        for line in self.scn.position:
            self.line = line.number
            head, args = line.words[0].rstrip(":"), line.words[1:]
            if head == "final":
                self.need(args, 1, "final PLAYER")
                trigger = self.seat(args[0])
            elif final is not None and head == "turn":
                self.need(args, 1, "turn PLAYER")
                mover = self.seat(args[0])
            elif final is not None and head == "done":
                raise self.fail("`done` is about phases A and B of a regular turn; the final round has none")
            elif head == "plague":
                self.need(args, 1, "plague REGION")
                self.view.plague = self.in_play_region(args[0])
            elif head == "tokens":
                self.need(args, 2, "tokens REGION: FACE, FACE, ... (or none)")
                r = self.in_play_region(args[0])
                for pattern in self.faces(args[1:]):
                    st.move_piece(self.take(pattern, taken), RATS, r)
            elif head == "cubes":
                self.need(args, 2, "cubes REGION: PLAYER N, PLAYER N, ... (or none)")
                r = self.in_play_region(args[0])
                for seat, n in self.counts(args[1:]):
                    self.view.cubes[(seat, r)] = n
            elif head == "castle":
                self.need(args, 2, "castle PLAYER N")
                self.view.castle[self.seat(args[0])] = self.number(args[1])
            elif head == "supply":
                self.need(args, 2, "supply PLAYER N")
                stated_supply.append((line.number, self.seat(args[0]), self.number(args[1])))
            elif head == "cards":
                self.need(args, 2, "cards PLAYER: CLASS CLASS ... (or none)")
                seat = self.seat(args[0].rstrip(":"))
                for c in args[1:]:
                    if c == "none":
                        continue
                    if c not in self.view.classes:
                        raise self.fail(f"no class card {c!r} (classes: {', '.join(self.view.classes)})")
                    self.view.holder[c] = seat
            elif head == "turn":
                self.need(args, 1, "turn PLAYER")
                seat = self.seat(args[0])
                set_local(st, REGULAR_TURNS, TURN_PLAYER, seat)
                set_local(st, TURN_PROCEDURE, TURN_PLAYER, seat)
                self.view.last_regular = seat
            elif head == "done":
                self.need(args, 1, "done take place")
                for word in args:
                    if word not in DONE_FLAGS:
                        raise self.fail(f"`done` takes {' and '.join(DONE_FLAGS)}, not {word!r}")
                    set_local(st, TURN_PROCEDURE, DONE_FLAGS[word], True)
            elif head == "used":
                self.need(args, 1, "used CLASS ...")
                for c in args:
                    if c not in self.view.classes:
                        raise self.fail(f"no class card {c!r} (classes: {', '.join(self.view.classes)})")
                    spent.append(c)
            elif head == "out":
                for pattern in self.faces(args):
                    st.move_piece(self.take(pattern, taken), OUT, None)
            elif head == "stock":
                stock_line = line
        if stock_line is not None:
            self.line = stock_line.number
            self.lay_out_stock(stock_line.words[1:], taken)
        for p in st.seats:
            on_board = self.view.castle[p] + sum(self.view.cubes[(p, r)] for r in self.regions)
            self.view.supply[p] = self.total[p] - on_board
            if self.view.supply[p] < 0:
                raise self.fail(f"{self.name(p)} has {on_board} cubes on the board and in the castle, "
                                f"more than their {self.total[p]}")
        for number, seat, n in stated_supply:
            if self.view.supply[seat] != n:
                self.line = number
                raise self.fail(f"{self.name(seat)}'s supply is what the board leaves of their {self.total[seat]} "
                                f"cubes: {self.view.supply[seat]}, not {n}")
        if final is not None and trigger is not None:
            self.line = final.number
            self.enter_final_round(trigger, mover)
        self.view.used_abilities.update(spent)

    def enter_final_round(self, trigger: int, mover: int | None) -> None:
        """End the regular turns with ``trigger`` as the player who ended the game, and play on to the
        final-round turn of ``mover`` (default: the first player of the final round).

        The last regular turn is the trigger's (with game-end-timing=after-round: the last turn of
        the round).  The regular turn in progress is ended with its ``end`` action, which the spec
        offers after phase C; the final-round players before ``mover`` end their turns unused.
        """
        st = self.state
        if mover == trigger:
            raise self.fail(f"{self.name(trigger)} ended the game and has no turn in the final round")
        last = self.scn.players - 1 if st.settings.get(GAME_END_TIMING) == "after-round" else trigger
        self.view.ender = trigger
        self.view.last_regular = last
        set_local(st, REGULAR_TURNS, TURN_PLAYER, last)
        set_local(st, TURN_PROCEDURE, TURN_PLAYER, last)
        set_local(st, TURN_PROCEDURE, STAGE, AFTER_C)
        refresh(st)
        st.apply(END_ACTION)
        while not (procedure_of(st) == TURN_PROCEDURE and self.view.phase == "final"
                   and (mover is None or st.current_player == mover)):
            if procedure_of(st) != TURN_PROCEDURE or END_ACTION not in st.legal_action_texts():
                raise self.fail("the final round could not be reached from this position")
            st.apply(END_ACTION)
        st.history = []
        if st.log is not None:
            st.log.clear()

    def lay_out_stock(self, words: Sequence[str], taken: set[int]) -> None:
        """`stock: N` keeps N tokens, `stock: FACES` exactly these; the others leave the game."""
        st = self.state
        text = " ".join(words).lstrip(":").strip()
        stock = self.view.stock
        if re.fullmatch(r"\d+", text):
            want = int(text)
            free = [t for t in stock if t not in taken]
            if want > len(free):
                raise self.fail(f"only {len(free)} tokens are left for the stock, not {want}")
            self.rng.shuffle(free)
            keep = set(free[:want])
        else:
            keep = {self.take(p, taken) for p in self.faces([text])}
            for t in keep:
                if st.loc[t][0] != STOCK:
                    st.move_piece(t, STOCK, None)
        for t in list(stock):
            if t not in keep:
                st.move_piece(t, OUT, None)

    def counts(self, words: Sequence[str]) -> list[tuple[int, int]]:
        items = [w.strip() for w in " ".join(words).strip().lstrip(":").split(",")]
        if items == ["none"]:
            return []
        out = []
        for item in items:
            parts = item.split()
            if len(parts) != 2:
                raise self.fail(f"write PLAYER N, not {item!r}")
            out.append((self.seat(parts[0]), self.number(parts[1])))
        return out

    def need(self, args: Sequence[str], n: int, form: str) -> None:
        if len(args) < n:
            raise self.fail(f"write `{form}`")

    def number(self, word: str) -> int:
        if not re.fullmatch(r"\d+", word):
            raise self.fail(f"expected a number, not {word!r}")
        return int(word)

    def in_play_region(self, word: str) -> str:
        r = self.region(word)
        if r not in self.in_play:
            raise self.fail(f"{r} is not in play with {self.scn.players} players")
        return r

    def name(self, seat: int) -> str:
        return self.scn.seats[seat] if self.scn.seats else notation.seat(seat)


def face_matcher(game: Any, pattern: str) -> Callable[[int], bool]:
    """A test on pieces for a face pattern: a face, ``N:*`` or ``?``."""
    if pattern == UNKNOWN:
        return lambda t: True
    if pattern.endswith(":*"):
        threshold = int(pattern[:-2])
        return lambda t: piece_face(game, t).threshold == threshold
    face = Face.parse(pattern, symbol_order(classes(game)))
    return lambda t: piece_face(game, t) == face


def build_position(scn: Scenario, game: ResolvedGame | None = None) -> State:
    """The state a scenario describes, waiting for the active player's decision (``game`` as
    :func:`parse_scenario` takes it)."""
    try:
        state = new_game(scn.players, seed=scn.seed, interpretations=scn.interpretations, log=True, game=game)
    except ValueError as err:
        raise ScenarioError(scn.path, 1, str(err)) from None
    run_until(state, lambda s: procedure_of(s) == TURN_PROCEDURE)
    if procedure_of(state) != TURN_PROCEDURE:
        raise ScenarioError(scn.path, 1, "setup did not reach a regular turn")
    builder = _Builder(scn, state)
    builder.build()
    try:
        refresh(state)
    except RulesError as err:
        raise ScenarioError(scn.path, 1, f"the position leaves the active player nothing to do: {err}") from None
    broken = state.broken_invariants()
    if broken:
        rules = state.game
        why = "; ".join(f"{name} ({'; '.join(str(c) for c in rules.symbols.invariants[name].citations)})"
                        for name in broken)
        raise ScenarioError(scn.path, 1, f"the position breaks the rules: {why}")
    state.mark_start()  # undo goes back to the position set up, not past it
    return state


# ----------------------------------------------------------------- the steps
class _Runner:
    def __init__(self, scn: Scenario, state: State):
        self.scn = scn
        self.state = state
        self.game = state.game
        self.builder = _Builder(scn, state)
        self.view = self.builder.view
        self.rng = random.Random(scn.seed)
        self.failures: list[Failure] = []
        self.log: list[str] = []
        self.revealed: list[str] = []
        self.line: Line | None = None
        #: Each position so far (see :func:`position_of`) and where it arose, the laid-out one first.
        self.positions: list[tuple[str, dict[str, Any]]] = [("the laid-out position", position_of(state))]

    def fail(self, message: str) -> None:
        assert self.line is not None
        self.failures.append(Failure(self.line.number, self.line.text, message))

    def words(self) -> list[list[str]]:
        """The words of the legal actions (the verb, then a word per value), tokens written by their faces."""
        st = self.state
        return [option_words(st, i, lambda t: face_text(self.game, t)) for i in range(st.num_legal_actions())]

    def texts(self) -> list[str]:
        """The legal actions, with tokens written by their faces."""
        return [" ".join(w) for w in self.words()]

    def who(self, seat: int) -> str:
        if seat == CHANCE_PLAYER:
            return notation.CHANCE
        if seat == TERMINAL_PLAYER:
            return "nobody (the game is over)"
        return self.builder.name(seat)

    def run(self) -> None:
        for line in self.scn.steps:
            self.line = line
            self.builder.line = line.number
            head = line.words[0]
            try:
                if head == "expect":
                    self.expect(line.words[1:])
                    continue
                if head == notation.CHANCE:
                    ok = self.chance(line.words[1:])
                else:
                    ok = self.act(self.builder.seat(head), line.words[1:])
            except ScenarioError as err:
                self.fail(err.message)
                ok = False
            if not ok:
                return  # the state can no longer be trusted to be what the scenario means

    def apply(self, index: int, text: str) -> None:
        before = self.state.clone()
        self.state.apply_index(index)
        fresh = [face_text(self.game, t) for t in newly_revealed(before, self.state)]
        self.revealed.extend(fresh)
        self.log.append(text + (f"  (revealed: {', '.join(fresh)})" if fresh else ""))
        assert self.line is not None
        self.positions.append((f"line {self.line.number} ({text})", position_of(self.state)))

    def act(self, seat: int, words: Sequence[str]) -> bool:
        st = self.state
        text = " ".join(words)
        if st.current_player != seat:
            self.fail(f"it is not {self.who(seat)}'s decision but {self.who(st.current_player)}'s")
            return False
        try:
            index = st.find(text)
        except IllegalAction as err:
            cites = "".join(f"\n    cites {c}" for c in err.citations)
            self.fail(f"illegal: {err.reason}{cites}\n    legal: {', '.join(err.legal)}")
            return False
        self.apply(index, f"{self.who(seat)}: {text}")
        return True

    def chance(self, words: Sequence[str]) -> bool:
        st = self.state
        if not st.is_chance_node():
            self.fail(f"no chance event here: it is {self.who(st.current_player)}'s decision")
            return False
        if words == ("random",):
            index = st.random_chance_index()
            self.apply(index, f"chance: {self.texts()[index]} (random)")
            return True
        matches = [i for i, w in enumerate(self.words()) if self.matches(words, w)]
        if not matches:
            self.fail(f"no chance outcome {' '.join(words)!r} here; possible: {', '.join(sorted(set(self.texts())))}")
            return False
        index = self.rng.choice(matches)
        self.apply(index, f"chance: {self.texts()[index]}")
        return True

    def matches(self, pattern: Sequence[str], words: Sequence[str]) -> bool:
        if len(pattern) != len(words):
            return False
        for p, w in zip(pattern, words):
            if p in (w, UNKNOWN):
                continue
            if p.endswith(":*") and w.startswith(p[:-1]):
                continue
            order = symbol_order(classes(self.game))  # the symbols of the game played, not loaded again
            try:
                if Face.parse(p, order) == Face.parse(w, order):
                    continue
            except ValueError:
                pass
            return False
        return True

    # ----------------------------------------------------------- expectations
    def expect(self, words: Sequence[str]) -> None:
        if not words:
            raise self.builder.fail("expect what?")
        kind, args = words[0], list(words[1:])
        if kind.endswith(":"):
            kind, args = kind[:-1], [":", *args]
        handler = getattr(self, "expect_" + kind.replace("-", "_"), None)
        if handler is None:
            kinds = sorted(n[7:].replace("_", "-") for n in dir(self) if n.startswith("expect_"))
            raise self.builder.fail(f"unknown expectation {kind!r} (known: {', '.join(kinds)})")
        try:
            handler(args)
        except IndexError:  # fewer words than the expectation needs (found by fuzzing)
            raise self.builder.fail(f"`expect {kind}` is missing words (see docs/scenarios.md)") from None

    def expect_cubes(self, args: list[str]) -> None:
        """``expect cubes REGION: PLAYER N, ...`` — exactly these cubes (others have none)."""
        r = self.builder.region(args[0])
        want = dict(self.builder.counts(args[1:]))
        have = {p: self.view.cubes[(p, r)] for p in self.state.seats}
        for p in self.state.seats:
            if have[p] != want.get(p, 0):
                shown = ", ".join(f"{self.who(q)} {n}" for q, n in have.items() if n) or "none"
                self.fail(f"cubes in {r}: {shown}")
                return

    def expect_tokens(self, args: list[str]) -> None:
        """``expect tokens REGION: N`` or ``: FACE, FACE`` (in placement order) or ``: none``."""
        r = self.builder.region(args[0])
        have = [face_text(self.game, t) for t in self.view.rats[r]]
        rest = " ".join(args[1:]).strip()
        if re.fullmatch(r"\d+", rest):
            if len(have) != int(rest):
                self.fail(f"{r} holds {len(have)} token(s): {', '.join(have) or 'none'}")
            return
        self.faces_match(self.builder.faces(args[1:]), have, f"tokens in {r}")

    def faces_match(self, want: list[str], have: list[str], what: str) -> None:
        if len(want) != len(have) or not all(self.matches([w], [h]) for w, h in zip(want, have)):
            self.fail(f"{what}: {', '.join(have) or 'none'}")

    def expect_revealed(self, args: list[str]) -> None:
        """``expect revealed: FACE, ...`` — the tokens revealed by the steps so far, in order."""
        self.faces_match(self.builder.faces(args), self.revealed, "revealed")

    def expect_stock(self, args: list[str]) -> None:
        """``expect stock N`` — tokens left in the stock."""
        n = self.builder.number(args[0] if args else "")
        if len(self.view.stock) != n:
            self.fail(f"the stock holds {len(self.view.stock)} tokens")

    def expect_supply(self, args: list[str]) -> None:
        """``expect supply PLAYER N``."""
        self.value(self.view.supply[self.builder.seat(args[0])], self.builder.number(args[1]), f"{args[0]}'s supply")

    def expect_castle(self, args: list[str]) -> None:
        """``expect castle PLAYER N``."""
        self.value(self.view.castle[self.builder.seat(args[0])], self.builder.number(args[1]), f"{args[0]}'s castle")

    def value(self, have: Any, want: Any, what: str) -> None:
        if have != want:
            self.fail(f"{what} is {have}")

    def expect_plague(self, args: list[str]) -> None:
        """``expect plague REGION``."""
        self.value(self.view.plague, self.builder.region(args[0]), "the plague")

    def expect_cards(self, args: list[str]) -> None:
        """``expect cards PLAYER: CLASS ...`` — exactly the cards this player holds."""
        seat = self.builder.seat(args[0].rstrip(":"))
        want = {c for c in args[1:] if c != "none"}
        have = {c for c in self.view.classes if self.view.holder[c] == seat}
        if want != have:
            self.fail(f"{args[0].rstrip(':')} holds {', '.join(sorted(have)) or 'no card'}")

    def expect_used(self, args: list[str]) -> None:
        """``expect used CLASS`` — the card's ability is spent for now."""
        for c in args:
            if c not in self.view.used_abilities:
                self.fail(f"the {c} ability is not spent")

    def expect_unused(self, args: list[str]) -> None:
        """``expect unused CLASS`` — the card's ability is not spent."""
        for c in args:
            if c in self.view.used_abilities:
                self.fail(f"the {c} ability is spent")

    def expect_to_move(self, args: list[str]) -> None:
        """``expect to-move PLAYER`` (or ``chance``, ``nobody``)."""
        st = self.state
        want = {"chance": CHANCE_PLAYER, "nobody": TERMINAL_PLAYER}.get(args[0] if args else "")
        if want is None:
            want = self.builder.seat(args[0] if args else "")
        if st.current_player != want:
            self.fail(f"{self.who(st.current_player)} is to move")

    def expect_actions(self, args: list[str]) -> None:
        """``expect actions [VERB ...]: ACTION, ...`` — exactly these legal actions (of these verbs)."""
        text = " ".join(args)
        head, sep, tail = text.partition(":")
        if not sep:
            raise self.builder.fail("write `expect actions [VERB ...]: ACTION, ACTION, ...` (or `: none`)")
        verbs = set(head.split())
        want = {" ".join(a.split()) for a in tail.split(",") if a.strip()} - {"none"}
        have = {" ".join(w) for w in self.words() if not verbs or w[0] in verbs}
        if want != have:
            missing, extra = sorted(want - have), sorted(have - want)
            self.fail("legal actions differ:" + (f" not legal: {', '.join(missing)};" if missing else "")
                      + (f" also legal: {', '.join(extra)}" if extra else ""))

    def expect_legal(self, args: list[str]) -> None:
        """``expect legal PLAYER ACTION`` — the action is legal now (nothing is applied)."""
        seat = self.builder.seat(args[0] if args else "")
        text = " ".join(args[1:])
        if self.state.current_player != seat:
            self.fail(f"{self.who(self.state.current_player)} is to move, not {args[0]}")
        elif text not in self.texts():
            try:
                self.state.find(text)
            except IllegalAction as err:
                self.fail(f"illegal: {err.reason}")

    def expect_illegal(self, args: list[str]) -> None:
        """``expect illegal PLAYER ACTION [because "TEXT"]`` — refused, the reason or citation naming TEXT."""
        because = None
        if len(args) >= 2 and args[-2] == "because":
            because = args[-1]
            args = args[:-2]
        seat = self.builder.seat(args[0] if args else "")
        text = " ".join(args[1:])
        st = self.state
        if st.current_player != seat:  # it would be refused, but for the turn, not for what the line means
            self.fail(f"{self.who(st.current_player)} is to move, not {self.who(seat)}: "
                      f"the action cannot be tried at another player's decision")
            return
        try:
            st.find(text)
        except IllegalAction as err:
            said = err.reason + " " + " ".join(f"{c.section} {c.quote}" for c in err.citations)
            if because is not None and because not in said:
                self.fail(f"refused, but not because of {because!r}: {err.reason}; "
                          + "; ".join(str(c) for c in err.citations))
            return
        self.fail("the action is legal")

    def expect_phase(self, args: list[str]) -> None:
        """``expect phase NAME`` — ``regular`` (turns), ``final`` (the final round) or ``over``."""
        self.value(self.view.phase, args[0] if args else "", "the phase")

    def expect_trigger(self, args: list[str]) -> None:
        """``expect trigger PLAYER`` — this player's turn ended the game (``none``: not ended yet)."""
        word = args[0] if args else ""
        want = None if word == "none" else self.builder.seat(word)
        have = self.view.ender
        if have != want:
            self.fail(f"the game was ended by {'nobody yet' if have is None else self.who(have)}")

    def expect_score(self, args: list[str]) -> None:
        """``expect score PLAYER N`` — the player's score (cubes on the board and in the castle)."""
        seat = self.builder.seat(args[0] if args else "")
        want = self.builder.number(args[1] if len(args) > 1 else "")
        have = self.state.scores()[seat]
        if have != want:
            self.fail(f"{args[0]}'s score is {have}")

    def expect_repeats(self, args: list[str]) -> None:
        """``expect repeats`` — the position now is one the scenario was in before (the whole state but
        its history and log: same facts, same point of the rules, same generator), so the steps since
        then can go round forever."""
        if args:
            raise self.builder.fail("`expect repeats` takes no words")
        now = self.positions[-1][1]
        earlier = [where for where, seen in self.positions[:-1] if seen == now]
        if not earlier:
            self.fail(f"the position is new: it repeats none of the {len(self.positions) - 1} before it")

    def expect_winner(self, args: list[str]) -> None:
        """``expect winner PLAYER ...``."""
        want = sorted(self.builder.seat(a) for a in args)
        if self.state.winner() != want:
            found = self.state.winner()
            self.fail("the game is not over" if found is None
                      else f"the winners are {' '.join(self.who(w) for w in found)}")


def position_of(state: State) -> dict[str, Any]:
    """A state as JSON without its history and log: two equal positions go on the same way."""
    return {k: v for k, v in state.to_json().items() if k not in ("history", "log")}


def run_scenario(scn: Scenario, game: ResolvedGame | None = None) -> ScenarioRun:
    """Lay out the position and run the steps (``game`` as :func:`parse_scenario` takes it); failures are
    collected, not raised.

    Raises :class:`ScenarioError` if the position cannot be laid out.
    """
    state = build_position(scn, game)
    runner = _Runner(scn, state)
    runner.run()
    return ScenarioRun(scn, state, runner.failures, runner.log, runner.revealed)


def run_file(path: str | Path, game: ResolvedGame | None = None) -> ScenarioRun:
    """Read and run a scenario file (``game`` as :func:`parse_scenario` takes it)."""
    return run_scenario(load_scenario(path, game), game)


#: Where a checkout keeps one scenario per option of a switch, named ``ID.VALUE.scn``: each shows what
#: that reading does where it differs from the others (the docs' switch table shows them).
SWITCH_SCENARIOS = ("tests", "rattus", "scenarios", "switches")
#: The folder of the scenario tests in a checkout (the rulebook's examples, the switches, rules as written).
SCENARIOS = SWITCH_SCENARIOS[:-1]


def scenario_citations() -> list[tuple[Citer, Citation]]:
    """Every ``cite`` of the scenario tests of a checkout, with the scenario that makes it; none outside one."""
    root = project_root()
    folder = root.joinpath(*SCENARIOS) if root is not None else None
    if root is None or folder is None or not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.rglob("*.scn")):
        where = path.relative_to(root).as_posix()
        # an option's scenario is shown on the switches' page under its label (docgen.switches_rst)
        anchor = f"scenario:{path.stem}" if path.parent.name == SWITCH_SCENARIOS[-1] else ""
        for c in load_scenario(path).citations:
            found.append((Citer("scenario", path.name, anchor, Pos(where, c.pos.line, 1)), c))
    return found


def switch_scenarios() -> dict[tuple[str, str], Path]:
    """The option scenarios of a checkout by (switch id, option value); none outside a checkout."""
    root = project_root()
    folder = root.joinpath(*SWITCH_SCENARIOS) if root is not None else None
    if folder is None or not folder.is_dir():
        return {}
    found = {}
    for path in sorted(folder.glob("*.scn")):
        ident, _, value = path.stem.partition(".")
        found[(ident, value)] = path
    return found
