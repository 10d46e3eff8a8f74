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
the order of their table.  It reads the interpretation switches and the game
settings by their public ids (``rat-check``, ``table-size`` ...); a switch it
does not know must be left at its default.  The tables it reads beyond strips,
symbols, fields, lines and neighbours are optional: ``printings.csv`` (what a
strip shows instead in the printing with another count of rats per colour), ``chips.csv`` (the chips
that pay points); without the setting ``table-size`` the table has no edge but
the grid's.  Each part quotes the sentence it carries out (Spielregel, seed 004).
"""

from __future__ import annotations

import csv
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

from tests.keyed import spec_legal as spec_legal  # the models' way in to the spec's actions (a piece by key)

CHANCE = -1
#: A decision: who decides (CHANCE for chance) and the legal action texts.
Ask = tuple[int, list[str]]
Flow = Generator[Ask, str, None]
#: The switches and settings this model plays, each with its options (the default first).
SWITCHES: dict[str, tuple[str, ...]] = {
    "rat-check": ("mover", "both"),
    "final-tie": ("shared", "last-mover"),
    "cover": ("top", "any-depth"),
    "group-scoring": ("laid", "changed"),
    "no-fit": ("set-aside", "end"),
    "chip-supply": ("unlimited", "limited"),
    "table-size": ("19", "5", "7", "9", "11", "13", "15", "17"),
    "rats-per-colour": ("8", "10"),
}
#: The settings that are no reading of the text but facts of the components and the table: where they
#: are not given, the model applies none (all strips in play, no edge but the grid's).
FACTS = ("table-size", "rats-per-colour")
COLOURS = ("green", "red")  # seat 0 (the start player) plays green


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _flag(text: str) -> bool:
    return text.strip().lower() in ("yes", "true", "1")


class Components:
    """The component tables: symbols, strips, the table's fields, their neighbours, the lines of three,
    and where they exist the printings (strips by rat count) and the chips."""

    def __init__(self, data: Path):
        # "Jedes Feld zeigt eins von acht Gewürzen, eine grüne bzw. rote Ratte oder ist leer."
        self.kind = {r["symbol"]: r["kind"] for r in _rows(data / "symbols.csv")}
        self.colour = {r["symbol"]: r["colour"] for r in _rows(data / "symbols.csv")}
        # "Jeder Warenstreifen ist in drei Felder unterteilt."
        self.strips: list[tuple[int, tuple[str, str, str], bool]] = [
            (int(r["strip"]), (r["first"], r["middle"], r["last"]), _flag(r["start"]))
            for r in _rows(data / "strips.csv")]
        fields = _rows(data / "fields.csv")
        self.fields = [r["field"] for r in fields]
        self.place = [(int(r["column"]), int(r["row"])) for r in fields]
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
        self.line = {name: fields for name, fields, _ in self.lines}
        self.span = {fields: frozenset(fields) for _, fields, _ in self.lines}  # a line in either direction
        self.face = {key: fields for key, fields, _ in self.strips}
        # "einige Ratten in seiner Farbe": where the printing with another count of rats per colour shows
        # another symbol on a part (first, middle, last) of a strip
        self.printed: dict[tuple[int, int], dict[int, str]] = {}
        if (data / "printings.csv").is_file():
            for r in _rows(data / "printings.csv"):
                part = ("first", "middle", "last").index(r["part"])
                self.printed.setdefault((int(r["strip"]), part), {})[int(r["rats"])] = r["shows"]
        # "Graue Chips sind 1 Punkt wert, Gelbe sind 2 Punkte wert." (and how many there are)
        self.chips: list[tuple[str, int, int]] = []
        if (data / "chips.csv").is_file():
            self.chips = [(r["chip"], int(r["points"]), int(r["count"])) for r in _rows(data / "chips.csv")]


class RattenScharf:
    """One game for two.  ``pending`` is the decision waited for; ``apply(text)`` answers it."""

    def __init__(self, components: Components, settings: dict[str, str] | None = None):
        self.c = components
        self.s = {ident: options[0] for ident, options in SWITCHES.items() if ident not in FACTS}
        for ident, value in (settings or {}).items():
            if ident in SWITCHES:
                assert value in SWITCHES[ident], (ident, value)
                self.s[ident] = value
        n = len(components.fields)
        self.height = [0] * n
        self.near = [0] * n  # strips laid on the field or next to it
        self.top: list[int | None] = [None] * n  # the strip on top of each field
        self.shows: list[str | None] = [None] * n  # the symbol seen from above
        self.lain: set[frozenset[int]] = set()  # the three fields of every strip laid, in either direction
        self.points = [0, 0]
        self.supply = {chip: count for chip, _, count in components.chips}
        self.unpaid = 0
        self.box = [key for key, _, _ in components.strips]
        self.deck: list[int] = []
        self.drawn: list[int] = []
        self.laid: list[int] = []
        self.aside: list[int] = []
        self.unused: list[int] = []
        self.last_layer: int | None = None
        self.loser: int | None = None
        self.winners: list[int] | None = None
        self.pending: Ask | None = None
        size = self.s.get("table-size")
        half = None if size is None else int(size) // 2
        #: The lines within the table's edge: "nicht ... über die Tischkante hinausragen".
        self.lines = [(name, fields) for name, fields, _ in components.lines
                      if half is None or all(abs(components.place[f][0]) <= half
                                             and abs(components.place[f][1]) <= half for f in fields)]
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
        # the strips of the other printing stay in the box, unused
        self.unused = [key for key in self.box if not self.in_play(key)]
        self.box = [key for key in self.box if self.in_play(key)]
        # "Der Warenstreifen „Start“ (mit „S“ in der Mitte) wird offen in der Mitte des Tisches ausgelegt."
        start_line = next(fields for _, fields, start in self.c.lines if start)
        for key, _, start in self.c.strips:
            if start and key in self.box:
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
                places = [name for name, fields in self.lines if self.fits(fields)]
                if not places:
                    # "muss so gelegt werden": the rules know no strip without a place (switch no-fit)
                    if self.s["no-fit"] == "end":
                        self.final_scoring()
                        self.decide_winner()
                        return
                    self.aside += self.drawn
                    self.drawn = []
                    break
                text = yield p, [f"lay #{key} {name}" for key in self.drawn for name in places]
                _, strip, name = text.split()
                key = int(strip[1:])
                fields = self.c.line[name]
                before = [self.shows[f] for f in fields]
                self.drawn.remove(key)
                self.lay(key, fields)
                self.last_layer = p
                self.score_laid(fields)
                if self.s["group-scoring"] == "changed":
                    self.score_changed(fields, before)
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
                self.decide_winner()
                return
            p, to_draw = 1 - p, 2

    def in_play(self, key: int) -> bool:
        """Every strip is in the game (a printing changes what a strip shows: :meth:`face`)."""
        return key in self.c.face

    def face(self, key: int) -> tuple[str, ...]:
        """What a strip shows in the printing played (strips.csv, changed where printings.csv says)."""
        rats = self.s.get("rats-per-colour")
        return tuple(self.c.printed.get((key, i), {}).get(int(rats), symbol) if rats is not None else symbol
                     for i, symbol in enumerate(self.c.face[key]))

    # ---------------------------------------------------------- the table
    def touches(self, f: int) -> bool:
        """ "Mindestens 1 Feld muss angrenzen." and "Warenstreifen, die übereinanderliegen gelten
        automatisch als angrenzend." """
        return self.near[f] > 0

    def covers_exactly(self, line: tuple[int, int, int]) -> bool:
        """ "Ein untenliegender Warenstreifen darf nicht deckungsgleich überbaut werden": the strip on
        top (switch cover=top), or any strip ever laid there (any-depth)."""
        a, b, c = line
        if self.s["cover"] == "any-depth":
            return self.c.span[line] in self.lain
        return self.height[a] > 0 and self.top[a] == self.top[b] == self.top[c]

    def fits(self, line: tuple[int, int, int]) -> bool:
        """Legeregeln, for a line on the table: next to (or on) a strip laid; "darunter keine Lücke"; not
        exactly over a strip."""
        a, b, c = line
        h = self.height
        if not (h[a] == h[b] == h[c]):
            return False
        if not (self.touches(a) or self.touches(b) or self.touches(c)):
            return False
        return not self.covers_exactly(line)

    def lay(self, key: int, line: tuple[int, int, int]) -> None:
        """ "Überbaute (nicht mehr sichtbare) Gewürze oder Ratten zählen nicht mehr." """
        for f, symbol in zip(line, self.face(key)):
            self.height[f] += 1
            self.top[f] = key
            self.shows[f] = symbol
            self.near[f] += 1
            for g in self.c.neighbours[f]:
                self.near[g] += 1
        self.lain.add(self.c.span[line])
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
        if worth:
            self.pay(COLOURS.index(self.c.colour[symbol]), worth)

    def pay(self, p: int, worth: int) -> None:
        """ "Die Spieler nehmen sich für ihre Punkte die entsprechende Anzahl Chips aus dem Vorrat.": the
        most valuable chip that fits first; what the supply cannot pay counts in full or is lost (switch
        chip-supply)."""
        if not self.c.chips:
            self.points[p] += worth
            return
        left = worth
        while True:
            fitting = [(points, chip) for chip, points, _ in self.c.chips if points <= left and self.supply[chip] > 0]
            if not fitting:
                break
            best = max(points for points, _ in fitting)
            chip = next(chip for points, chip in fitting if points == best)
            self.supply[chip] -= 1
            self.points[p] += best
            left -= best
        if left > 0:
            self.unpaid += left
            if self.s["chip-supply"] == "unlimited":
                self.points[p] += left

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

    def score_changed(self, line: tuple[int, int, int], before: list[str | None]) -> None:
        """group-scoring=changed: also "verändert" — what is left, beside the strip, of each group of a
        spice the strip covered (in part, or split in two), each group once and none scored already."""
        done = [self.group(f) for f in line]
        for f, old in zip(line, before):
            if old is None or old == self.shows[f] or self.c.kind[old] != "spice":
                continue
            for g in self.c.neighbours[f]:
                if self.shows[g] == old and not any(g in group for group in done):
                    group = self.group(g)
                    self.score_group(group, old)
                    done.append(group)

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

    def decide_winner(self) -> None:
        """ "Wer nun insgesamt die meisten Punkte besitzt, hat das Spiel gewonnen." On a tie: both win,
        or (final-tie=last-mover) the player who laid the last strip."""
        best = max(self.points)
        tied = [p for p in (0, 1) if self.points[p] == best]
        if self.s["final-tie"] == "shared" or len(tied) == 1:
            self.winners = tied
        else:
            assert self.last_layer is not None
            self.winners = [self.last_layer]

    # ------------------------------------------------------------ comparing
    def view(self) -> dict[str, Any]:
        """The game state in a form the spec's state is compared with (fields by name, strips by key)."""
        names = self.c.fields
        return {
            "height": {names[f]: h for f, h in enumerate(self.height) if h},
            "top": {names[f]: t for f, t in enumerate(self.top) if t is not None},
            "shows": {names[f]: s for f, s in enumerate(self.shows) if s is not None},
            "points": list(self.points), "deck": list(self.deck), "drawn": list(self.drawn),
            "laid": list(self.laid), "aside": list(self.aside), "unused": list(self.unused),
            "supply": dict(self.supply), "unpaid": self.unpaid, "loser": self.loser, "winners": self.winners,
        }


def new_model(components: Components, players: int, settings: dict[str, str]) -> RattenScharf:
    """A new game (the benchmark's way in, the same for every game's model): switches by id."""
    assert players == 2, "Ratten Scharf is for 2 players"
    return RattenScharf(components, settings)


def spec_view(state: Any) -> dict[str, Any]:
    """The same view of a spec :class:`interpreter.State` of Ratten Scharf (zones and counters a spec
    without chips or set-aside strips lacks are seen as empty)."""
    keys = state.game.piece_keys
    vals, zones = state.vals, state.zones
    winners = state.winner()

    def zone(name: str) -> list[int]:
        return [keys[t] for t in zones[name][None]] if name in zones else []

    return {
        "height": {f: h for f, h in vals["height"].items() if h},
        "top": {f: keys[t] for f, t in vals["top_strip"].items() if t is not None},
        "shows": {f: s for f, s in vals["shows"].items() if s is not None},
        "points": [vals["points"][p] for p in range(state.n)],
        "deck": zone("deck"), "drawn": zone("drawn"), "laid": zone("laid"), "aside": zone("aside"),
        "unused": zone("unused"), "supply": dict(vals.get("supply", {})),
        "unpaid": vals["unpaid"][None] if "unpaid" in vals else 0, "loser": vals["loser"][None],
        "winners": None if winners is None else list(winners),
    }


def differences(a: dict[str, Any], b: dict[str, Any]) -> Iterator[str]:
    """What differs between two views, one line per part."""
    for key in a:
        if a[key] != b.get(key):
            yield f"{key}: spec {a[key]!r} != model {b.get(key)!r}"
