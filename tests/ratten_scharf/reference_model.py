"""An independent reference model of Ratten Scharf in plain Python, written from the German rules.

It does not use the rules language: it reads only the component tables (the
CSV files of ``spec/ratten_scharf/data``, or any folder of the same tables) and
plays the game as ordinary Python code, one generator for the whole game.
``tests/ratten_scharf/test_reference_model.py`` plays random games with the spec
and this model side by side and compares, at every step, who decides, the legal
actions and the whole game state (heights, strips on top, what each field
shows, points, the zones of strips, the loser and the winners).  The benchmark
(``make bench``) plays it beside the spec as the yardstick of Ratten Scharf.

The model follows the project's conventions where the rules leave them open:
the action texts (``draw #7`` for chance, ``lay #7 d4-f4`` for a strip laid on
a line of the table), the start player plays green, one decision per strip
laid, chance options listed in the order of the strips' table, the lines in
the order of their table.  It reads the interpretation switches by their public
ids (``rat-check`` ...); a switch it does not know must be left at its default.
Each part quotes the sentence it carries out (Spielregel, seed 004).
"""

from __future__ import annotations

import csv
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

CHANCE = -1
#: A decision: who decides (CHANCE for chance) and the legal action texts.
Ask = tuple[int, list[str]]
Flow = Generator[Ask, str, None]
#: The switches this model plays, each with its options (the default first).
SWITCHES: dict[str, tuple[str, ...]] = {
    "rat-check": ("mover", "both"),
    "final-tie": ("shared", "last-mover"),
}
COLOURS = ("green", "red")  # seat 0 (the start player) plays green


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _flag(text: str) -> bool:
    return text.strip().lower() in ("yes", "true", "1")


class DeadEnd(Exception):
    """A strip that fits nowhere: the rules assume a place always exists ("muss so gelegt werden")."""


class Components:
    """The component tables: symbols, strips, the table's fields, their neighbours, the lines of three."""

    def __init__(self, data: Path):
        # "Jedes Feld zeigt eins von acht Gewürzen, eine grüne bzw. rote Ratte oder ist leer."
        self.kind = {r["symbol"]: r["kind"] for r in _rows(data / "symbols.csv")}
        self.colour = {r["symbol"]: r["colour"] for r in _rows(data / "symbols.csv")}
        # "Jeder Warenstreifen ist in drei Felder unterteilt."
        self.strips: list[tuple[int, tuple[str, str, str], bool]] = [
            (int(r["strip"]), (r["first"], r["middle"], r["last"]), _flag(r["start"]))
            for r in _rows(data / "strips.csv")]
        self.fields = [r["field"] for r in _rows(data / "fields.csv")]
        index = {f: i for i, f in enumerate(self.fields)}
        neighbours: list[set[int]] = [set() for _ in self.fields]
        for r in _rows(data / "orthogonal.csv"):
            a, b = index[r["field_a"]], index[r["field_b"]]
            if a != b:
                neighbours[a].add(b)
                neighbours[b].add(a)
        self.neighbours = [tuple(sorted(n)) for n in neighbours]
        # "Warenstreifen dürfen nur senkrecht oder waagrecht gelegt werden." (the lines of the table)
        self.lines: list[tuple[str, tuple[int, int, int], bool]] = [
            (r["line"], (index[r["first"]], index[r["middle"]], index[r["last"]]), _flag(r["start"]))
            for r in _rows(data / "lines.csv")]
        self.face = {key: fields for key, fields, _ in self.strips}


class RattenScharf:
    """One game for two.  ``pending`` is the decision waited for; ``apply(text)`` answers it."""

    def __init__(self, components: Components, settings: dict[str, str] | None = None):
        self.c = components
        self.s = {ident: options[0] for ident, options in SWITCHES.items()}
        for ident, value in (settings or {}).items():
            if ident in SWITCHES:
                assert value in SWITCHES[ident], (ident, value)
                self.s[ident] = value
        n = len(components.fields)
        self.height = [0] * n
        self.top: list[int | None] = [None] * n  # the strip on top of each field
        self.shows: list[str | None] = [None] * n  # the symbol seen from above
        self.points = [0, 0]
        self.box = [key for key, _, _ in components.strips]
        self.deck: list[int] = []
        self.drawn: list[int] = []
        self.laid: list[int] = []
        self.loser: int | None = None
        self.winners: list[int] | None = None
        self.pending: Ask | None = None
        self._flow = self.play()
        self.pending = next(self._flow)

    # ------------------------------------------------------------ driving
    def legal(self) -> list[str]:
        """The legal action texts of the pending decision (none once the game is over)."""
        return [] if self.pending is None else list(self.pending[1])

    def apply(self, text: str) -> None:
        """Answer the pending decision with one of its action texts."""
        assert self.pending is not None and text in self.pending[1], (text, self.pending)
        try:
            self.pending = self._flow.send(text)
        except StopIteration:
            self.pending = None

    # ------------------------------------------------------------ the game
    def play(self) -> Flow:
        """Spielvorbereitung, then the turns, "immer abwechselnd", to the end."""
        # "Der Warenstreifen „Start“ (mit „S“ in der Mitte) wird offen in der Mitte des Tisches ausgelegt."
        start_line = next(fields for _, fields, start in self.c.lines if start)
        for key, _, start in self.c.strips:
            if start:
                self.box.remove(key)
                self.lay(key, start_line)
        # "Die restlichen Warenstreifen werden gemischt und verdeckt bereit gelegt."
        self.deck, self.box = self.box, []
        # "Der älteste Spieler fängt an, dann geht es immer abwechselnd weiter."
        p, to_draw = 0, 1
        while True:
            # "Beim ersten Spielzug des Startspielers ... deckt dieser 1 Warenstreifen auf";
            # "Bei jedem weiteren Spielzug ... deckt dieser 2 Warenstreifen auf";
            # "Im letzten Spielzug ... ist nur noch ein Warenstreifen übrig."
            for _ in range(min(to_draw, len(self.deck))):
                text = yield CHANCE, [f"draw #{key}" for key in self.deck]
                key = int(text[len("draw #"):])
                self.deck.remove(key)
                self.drawn.append(key)
            # "... und legt sie in beliebiger Reihenfolge gemäß den Legeregeln an."
            while self.drawn:
                places = [name for name, fields, _ in self.c.lines if self.fits(fields)]
                if not places:
                    raise DeadEnd(f"no place for strip(s) {self.drawn}")
                text = yield p, [f"lay #{key} {name}" for key in self.drawn for name in places]
                _, strip, name = text.split()
                key = int(strip[1:])
                fields = next(f for n, f, _ in self.c.lines if n == name)
                self.drawn.remove(key)
                self.lay(key, fields)
                self.score_laid(fields)
            # Vorzeitiges Spielende: "wenn ein Spieler – am Ende seines Zuges – 3 oder mehr Ratten seiner
            # Farbe offen ausliegen hat. ... Der Spieler mit den drei Ratten hat verloren."
            if self.rats(p) >= 3:
                self.loser, self.winners = p, [1 - p]
                return
            if self.s["rat-check"] == "both" and self.rats(1 - p) >= 3:
                self.loser, self.winners = 1 - p, [p]
                return
            # "Nachdem der letzte Warenstreifen gelegt wurde, findet noch die Endwertung statt."
            if not self.deck:
                self.final_scoring()
                self.decide_winner(p)
                return
            p, to_draw = 1 - p, 2

    # ---------------------------------------------------------- the table
    def touches(self, f: int) -> bool:
        """ "Mindestens 1 Feld muss angrenzen." and "Warenstreifen, die übereinanderliegen gelten
        automatisch als angrenzend." """
        height = self.height
        return height[f] > 0 or any(height[g] > 0 for g in self.c.neighbours[f])

    def fits(self, line: tuple[int, int, int]) -> bool:
        """Legeregeln: next to (or on) a strip laid; "darunter keine Lücke"; "nicht deckungsgleich überbaut"."""
        a, b, c = line
        h = self.height
        if not (h[a] == h[b] == h[c]):
            return False
        if h[a] > 0 and self.top[a] == self.top[b] == self.top[c]:
            return False
        return self.touches(a) or self.touches(b) or self.touches(c)

    def lay(self, key: int, line: tuple[int, int, int]) -> None:
        """ "Überbaute (nicht mehr sichtbare) Gewürze oder Ratten zählen nicht mehr." """
        for f, symbol in zip(line, self.c.face[key]):
            self.height[f] += 1
            self.top[f] = key
            self.shows[f] = symbol
        self.laid.append(key)

    def rats(self, p: int) -> int:
        """The rats of ``p``'s colour showing ("offen ausliegen")."""
        kind, colour = self.c.kind, self.c.colour
        return sum(1 for s in self.shows if s is not None and kind[s] == "rat" and colour[s] == COLOURS[p])

    def group(self, f: int) -> set[int]:
        """ "eine Gruppe von benachbarten gleichen Gewürzen": the fields showing ``f``'s symbol, connected."""
        symbol, shows, neighbours = self.shows[f], self.shows, self.c.neighbours
        found, todo = {f}, [f]
        while todo:
            for g in neighbours[todo.pop()]:
                if g not in found and shows[g] == symbol:
                    found.add(g)
                    todo.append(g)
        return found

    def is_spice(self, f: int) -> bool:
        symbol = self.shows[f]
        return symbol is not None and self.c.kind[symbol] == "spice"

    def score_group(self, group: set[int], symbol: str) -> None:
        """ "Für eine Gruppe aus 2 gleichen Symbolen ... 1 Punkt"; "aus 3 oder mehr ... 2 Punkte";
        "Für einzelne Gewürze gibt es keine Punkte." — for "der Spieler der entsprechenden Farbe"."""
        worth = 2 if len(group) >= 3 else 1 if len(group) == 2 else 0
        self.points[COLOURS.index(self.c.colour[symbol])] += worth

    def score_laid(self, line: tuple[int, int, int]) -> None:
        """ "Jeder gelegte Streifen wird sofort gewertet. Ist dabei eine Gruppe ... entstanden oder
        verändert worden, gibt es dafür Punkte." Each group holding a field of the strip, once."""
        seen: set[int] = set()
        for f in line:
            if f not in seen and self.is_spice(f):
                group = self.group(f)
                seen |= group
                symbol = self.shows[f]
                assert symbol is not None
                self.score_group(group, symbol)

    def final_scoring(self) -> None:
        """ "Jetzt werden noch einmal alle offen sichtbaren Gewürze beider Spieler gewertet." """
        seen: set[int] = set()
        for f in range(len(self.c.fields)):
            if f not in seen and self.is_spice(f):
                group = self.group(f)
                seen |= group
                symbol = self.shows[f]
                assert symbol is not None
                self.score_group(group, symbol)

    def decide_winner(self, last: int) -> None:
        """ "Wer nun insgesamt die meisten Punkte besitzt, hat das Spiel gewonnen." On a tie: both win,
        or (final-tie=last-mover) the player who laid the last strip."""
        best = max(self.points)
        tied = [p for p in (0, 1) if self.points[p] == best]
        self.winners = tied if self.s["final-tie"] == "shared" or len(tied) == 1 else [last]

    # ------------------------------------------------------------ comparing
    def view(self) -> dict[str, Any]:
        """The game state in a form the spec's state is compared with (fields by name, strips by key)."""
        names = self.c.fields
        return {
            "height": {names[f]: h for f, h in enumerate(self.height) if h},
            "top": {names[f]: t for f, t in enumerate(self.top) if t is not None},
            "shows": {names[f]: s for f, s in enumerate(self.shows) if s is not None},
            "points": list(self.points), "deck": list(self.deck), "drawn": list(self.drawn),
            "laid": list(self.laid), "loser": self.loser, "winners": self.winners,
        }


def new_model(components: Components, players: int, settings: dict[str, str]) -> RattenScharf:
    """A new game (the benchmark's way in, the same for every game's model): switches by id."""
    assert players == 2, "Ratten Scharf is for 2 players"
    return RattenScharf(components, settings)


def spec_view(state: Any) -> dict[str, Any]:
    """The same view of a spec :class:`interpreter.State` of Ratten Scharf."""
    keys = state.game.piece_keys
    vals, zones = state.vals, state.zones
    winners = state.winner()
    return {
        "height": {f: h for f, h in vals["height"].items() if h},
        "top": {f: keys[t] for f, t in vals["top_strip"].items() if t is not None},
        "shows": {f: s for f, s in vals["shows"].items() if s is not None},
        "points": [vals["points"][p] for p in range(state.n)],
        "deck": [keys[t] for t in zones["deck"][None]], "drawn": [keys[t] for t in zones["drawn"][None]],
        "laid": [keys[t] for t in zones["laid"][None]], "loser": vals["loser"][None],
        "winners": None if winners is None else list(winners),
    }


def differences(a: dict[str, Any], b: dict[str, Any]) -> Iterator[str]:
    """What differs between two views, one line per part."""
    for key in a:
        if a[key] != b.get(key):
            yield f"{key}: spec {a[key]!r} != model {b.get(key)!r}"
