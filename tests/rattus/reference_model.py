"""An independent reference model of Rattus in plain Python, written from the German rulebook.

It does not use the rules language: it reads only the component data (the CSV
tables) and plays the game as ordinary Python code, one generator per
procedure of the rulebook.  ``tests/rattus/test_reference_model.py`` plays random
games with the spec and this model side by side and compares, at every step,
the legal actions and the whole visible game state.  A rule changed in the
spec (or here) shows up as a difference at the first step where it matters;
``bench/mutate.py`` relies on that.

The model follows the project's API conventions (action texts, the way a turn
is broken into decisions, token positions counted from 1 in the order the
tokens arrived in a region) and reads the interpretation switches by their
public ids (``reveal-order`` ...).  Each part quotes the sentence it carries out.
"""

from __future__ import annotations

import csv
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

from tests.keyed import spec_legal as spec_legal  # the models' way in to the spec's actions (a piece by key)

CLASSES = ("peasant", "merchant", "monk", "knight", "witch", "king")
CHANCE = -1
#: A decision: who decides (CHANCE for chance) and the legal action texts.
Ask = tuple[int, list[str]]
Flow = Generator[Ask, str, Any]


class Components:
    """The component tables: regions with the player count they are used from, adjacency, tokens."""

    def __init__(self, data: Path):
        with (data / "regions.csv").open(encoding="utf-8") as f:
            self.regions = [(row["region"], int(row["first_used_with_players"])) for row in csv.DictReader(f)]
        with (data / "board.csv").open(encoding="utf-8") as f:
            self.edges = [(row["region_a"], row["region_b"]) for row in csv.DictReader(f)]
        self.tokens: dict[int, tuple[int, tuple[str, ...], bool]] = {}
        with (data / "rat_tokens.csv").open(encoding="utf-8") as f:
            for row in csv.DictReader(f):
                symbols = tuple(s.strip() for s in row["symbols"].split("+") if s.strip())
                self.tokens[int(row["id"])] = (int(row["threshold"]), symbols,
                                               row["start"].strip().lower() in ("yes", "true", "1"))

    def board(self, players: int) -> tuple[list[str], dict[str, list[str]]]:
        """Spielinhalt: "im Spiel zu Zweit werden nur die beigen Regionen verwendet" (and so on)."""
        in_play = [name for name, first in self.regions if first <= players]
        order = {name: i for i, name in enumerate(in_play)}
        neighbours: dict[str, list[str]] = {name: [] for name in in_play}
        for a, b in self.edges:
            if a in order and b in order and a != b:
                if b not in neighbours[a]:
                    neighbours[a].append(b)
                if a not in neighbours[b]:
                    neighbours[b].append(a)
        for name in in_play:
            neighbours[name].sort(key=order.__getitem__)
        return in_play, neighbours


class Rattus:
    """One game.  ``pending`` is the decision waited for; ``apply(text)`` answers it."""

    def __init__(self, components: Components, players: int, settings: dict[str, str]):
        self.c = components
        self.n = players
        self.s = settings
        self.regions, self.adj = components.board(players)
        self.all_regions = [name for name, _ in components.regions]
        # Spielvorbereitung 2: "Jeder Spieler erhält alle Holzwürfel (Bevölkerungswürfel) einer Farbe"
        self.supply = [20] * players
        self.cubes = {(p, r): 0 for p in range(players) for r in self.all_regions}
        self.castle = [0] * players
        # Spielvorbereitung 1: "Die sechs Ständekarten kommen griffbereit neben das Spielbrett."
        self.holder: dict[str, int | None] = dict.fromkeys(CLASSES)
        self.rats: dict[str, list[int]] = {r: [] for r in self.all_regions}
        self.box = sorted(components.tokens)
        self.stock: list[int] = []
        self.out: list[int] = []
        self.looked: set[tuple[int, int]] = set()  # (player, token) seen with the Witch
        self.plague: str | None = None
        self.phase = "setup"
        self.ender: int | None = None
        self.last_regular: int | None = None
        self.knight_moved_in_final = False
        self.used: set[str] = set()  # cards whose ability is spent (this turn or this round)
        self.winners: list[int] | None = None
        self.pending: Ask | None = None
        self._flow = self.play()
        self.pending = next(self._flow)

    # ------------------------------------------------------------ driving
    def legal(self) -> list[str]:
        return [] if self.pending is None else list(self.pending[1])

    def apply(self, text: str) -> None:
        assert self.pending is not None and text in self.pending[1], (text, self.pending)
        try:
            self.pending = self._flow.send(text)
        except StopIteration:
            self.pending = None

    @staticmethod
    def ask(player: int, options: list[str]) -> Flow:
        assert options, "a decision without options"
        choice = yield (player, options)
        return choice

    # -------------------------------------------------------------- helpers
    def total(self, r: str) -> int:
        """ "die Gesamtzahl der Bevölkerungswürfel (unabhängig der Farbe) in der Pestregion" """
        return sum(self.cubes[(p, r)] for p in range(self.n))

    def may_use(self, p: int, card: str) -> bool:
        """ "Nur der Spieler, der am Zug ist, darf die besonderen Fähigkeiten seiner Karte(n) nutzen.
        Er darf die Fähigkeit jeder Karte nur einmal pro Runde nutzen." """
        return self.holder[card] == p and card not in self.used

    def place(self, p: int, r: str, k: int) -> None:
        k = min(k, self.supply[p])
        self.cubes[(p, r)] += k
        self.supply[p] -= k

    def lose(self, p: int, r: str) -> None:
        self.cubes[(p, r)] -= 1
        self.supply[p] += 1

    # ---------------------------------------------------------------- game
    def play(self) -> Flow:
        yield from self.setup()
        self.phase = "regular"
        yield from self.regular_turns()
        self.phase = "final"
        yield from self.final_round()
        yield from self.final_devastation()
        self.phase = "over"
        self.decide_winner()

    def setup(self) -> Flow:
        # 3: "in jeder Region wird ein Plättchen verdeckt platziert" (8 / 10 / 12 regions)
        for r in self.regions:
            starts = [t for t in self.box if self.c.tokens[t][2]]
            t = int((yield from self.ask(CHANCE, [f"start-token #{t}" for t in starts])).split("#")[1])
            self.box.remove(t)
            self.rats[r].append(t)
        # 4: the other tokens make the supply; with 2 / 3 players 12 / 6 are removed unseen
        self.stock = [t for t in self.box if not self.c.tokens[t][2]]
        self.box = [t for t in self.box if self.c.tokens[t][2]]  # the unused start tokens wait in the box
        removed = {2: 12, 3: 6}.get(self.n, 0)
        if self.s["removed-tokens"] == "before-start-tokens":
            yield from self.remove(removed)  # "(keine Startplättchen)"
        # 5: "Die noch übrigen Startplättchen werden mit den restlichen Rattenplättchen gemischt."
        self.stock += [t for t in self.box if self.c.tokens[t][2]]
        self.box = [t for t in self.box if not self.c.tokens[t][2]]
        if self.s["removed-tokens"] == "after-start-tokens":
            yield from self.remove(removed)
        # 6: "Die Pestfigur wird in einer beliebigen Region platziert."
        who = CHANCE if self.s["plague-start"] == "chance" else 0
        self.plague = (yield from self.ask(who, [f"plague-start {r}" for r in self.regions])).split()[1]
        # 7: two cubes each, clockwise from the start player, then back counter-clockwise
        order = list(range(self.n)) + list(reversed(range(self.n)))
        for p in order:
            if self.s["initial-placement"] == "both-in-one":
                r = (yield from self.ask(p, [f"start {r}" for r in self.regions])).split()[1]
                self.place(p, r, 2)
            else:
                for _ in range(2):
                    r = (yield from self.ask(p, [f"start {r}" for r in self.regions])).split()[1]
                    self.place(p, r, 1)

    def remove(self, count: int) -> Flow:
        for _ in range(count):
            t = int((yield from self.ask(CHANCE, [f"remove #{t}" for t in sorted(self.stock)])).split("#")[1])
            self.stock.remove(t)
            self.box.append(t)

    def regular_turns(self) -> Flow:
        # "Anschließend macht der Startspieler seinen ersten Zug und die anderen Spieler folgen im Uhrzeigersinn."
        p = 0
        while True:
            if p == 0 or self.s["ability-once"] == "per-turn":
                self.used = set()
            self.last_regular = p
            yield from self.turn(p, final=False)
            # Spielende: "der Vorrat der Rattenplättchen aufgebraucht ist"
            if self.ender is None and self.s["supply-empty"] == "when-empty" and not self.stock:
                self.ender = p
            # cubes-end=end-of-turn: "alle seine Bevölkerungswürfel ... eingesetzt" read when the turn ends
            if self.ender is None and self.s["cubes-end"] == "end-of-turn" and self.supply[p] == 0:
                self.ender = p
            if self.ender is not None and (self.s["game-end-timing"] == "after-turn" or (p + 1) % self.n == 0):
                return
            p = (p + 1) % self.n

    def can_place(self, p: int, k: int) -> bool:
        """Ⓑ "Er platziert so viele Würfel wie Rattenplättchen in der gewählten Region vorhanden sind." """
        return k > 0 and self.supply[p] > 0 and (self.supply[p] >= k or self.s["short-supply"] == "place-all")

    def plain_place(self, p: int, r: str) -> bool:
        always_extra = self.s["peasant-extra"] == "always" and self.may_use(p, "peasant")
        return self.can_place(p, len(self.rats[r])) and not always_extra

    def extra_place(self, p: int, r: str) -> bool:
        """Bauer: "kann einen Würfel mehr als üblich platzieren" """
        return self.may_use(p, "peasant") and self.can_place(p, len(self.rats[r]) + 1)

    def options(self, p: int, stage: str, took: bool, placed: bool) -> list[str]:
        regions, rats, adj = self.regions, self.rats, self.adj
        out: list[str] = []
        before_c = stage == "before-c"
        if before_c and not took:  # Ⓐ a card from the display or another player
            out += [f"take {c}" for c in CLASSES if self.holder[c] != p]
        if before_c and not placed:  # Ⓑ
            out += [f"place {r}" for r in regions if self.plain_place(p, r)]
            out += [f"place-extra {r}" for r in regions if self.extra_place(p, r)]
        if stage == "final" and self.may_use(p, "peasant") and self.supply[p] > 0:
            out += [f"peasant {r}" for r in regions]  # "einen eigenen Bevölkerungswürfel in eine beliebige Region"
        open_ = before_c or stage == "final" or (stage == "after-c" and self.s["ability-window"] == "whole-turn")
        if open_ and self.may_use(p, "king"):  # from a region without tokens into the castle
            out += [f"king {r}" for r in regions if self.cubes[(p, r)] > 0 and not rats[r]]
        if open_ and self.may_use(p, "monk"):  # one token to a neighbour that has fewer than three
            out += [f"monk {a} {i} {b}" for a in regions for i in range(1, len(rats[a]) + 1)
                    for b in adj[a] if len(rats[b]) < 3]
        if open_ and self.may_use(p, "merchant"):  # up to three own cubes to a neighbour
            out += [f"merchant {a} {b} {k}" for a in regions if self.cubes[(p, a)] > 0 for b in adj[a]
                    for k in range(1, min(3, self.cubes[(p, a)]) + 1)]
        if open_ and self.may_use(p, "witch"):
            out += [f"witch {a} {i}" for a in regions for i in range(1, len(rats[a]) + 1)]
        # Ⓒ: after B (or when B is skipped or impossible); in the final round only the Knight moves it
        may_c = before_c and (placed or self.s["phase-b-optional"] == "yes" or not any(
            self.plain_place(p, r) or self.extra_place(p, r) for r in regions))
        assert self.plague is not None
        if may_c or (stage == "final" and self.may_use(p, "knight")):
            out += [f"plague {a}" for a in adj[self.plague]]
        if (may_c or stage == "final") and self.may_use(p, "knight"):  # "bis zu zwei Schritte"
            out += [f"plague {a} {b}" for a in adj[self.plague] for b in adj[a]
                    if b != self.plague or self.s["knight-return"] == "yes"]
        if stage in ("final", "after-c"):
            out.append("end")
        return out

    def turn(self, p: int, final: bool) -> Flow:
        stage = "final" if final else "before-c"
        took = placed = False
        while True:
            words = (yield from self.ask(p, self.options(p, stage, took, placed))).split()
            verb, args = words[0], words[1:]
            if verb == "take":
                self.holder[args[0]] = p
                took = True
            elif verb in ("place", "place-extra"):
                if verb == "place-extra":
                    self.used.add("peasant")
                self.place(p, args[0], len(self.rats[args[0]]) + (verb == "place-extra"))
                placed = True
                # Spielende: "ein Spieler alle seine Bevölkerungswürfel auf den Spielplan eingesetzt hat"
                if self.ender is None and self.s["cubes-end"] == "placement" and self.supply[p] == 0:
                    self.ender = p
            elif verb == "peasant":
                self.used.add("peasant")
                self.place(p, args[0], 1)
            elif verb == "king":
                self.used.add("king")
                self.cubes[(p, args[0])] -= 1
                self.castle[p] += 1
            elif verb == "monk":
                self.used.add("monk")
                t = self.rats[args[0]].pop(int(args[1]) - 1)
                self.rats[args[2]].append(t)
            elif verb == "merchant":
                self.used.add("merchant")
                k = int(args[2])
                self.cubes[(p, args[0])] -= k
                self.cubes[(p, args[1])] += k
            elif verb == "witch":
                self.used.add("witch")
                yield from self.witch(p, self.rats[args[0]][int(args[1]) - 1])
            elif verb == "plague":
                two_steps = len(args) == 2
                if final:  # Spielende: "Ritter: ... darf die Pestfigur bis zu zwei Schritte bewegen."
                    self.used.add("knight")
                    self.plague = args[-1]
                    self.knight_moved_in_final = True
                else:
                    knight = two_steps or self.may_use(p, "knight")
                    if two_steps:
                        self.used.add("knight")
                    yield from self.plague_move(p, args[-1], knight)
                    stage = "after-c"
            elif verb == "end":
                return
            else:
                raise AssertionError(verb)
            if stage == "after-c" and self.s["ability-window"] == "before-c":
                return

    def witch(self, p: int, first: int) -> Flow:
        """Hexe: look under one token, then under another (also in the same region), then maybe swap them."""
        self.looked.add((p, first))
        options = [f"witch-look {b} {j}" for b in self.regions for j, t in enumerate(self.rats[b], start=1)
                   if t != first]
        words = (yield from self.ask(p, [*options, "witch-done"])).split()
        if words[0] == "witch-done":
            return
        second = self.rats[words[1]][int(words[2]) - 1]
        self.looked.add((p, second))
        if (yield from self.ask(p, ["witch-swap", "witch-keep"])) == "witch-swap":
            ra = next(r for r in self.regions if first in self.rats[r])
            rb = next(r for r in self.regions if second in self.rats[r])
            ia, ib = self.rats[ra].index(first), self.rats[rb].index(second)
            self.rats[ra][ia], self.rats[rb][ib] = second, first

    def plague_move(self, p: int, to: str, knight: bool) -> Flow:
        """Ⓒ move, then "1. Zuerst breitet sie sich aus." and "2. Dann verwüstet sie die Pestregion." """
        self.plague = to
        # spread: one token for one, two for two or three; never a fourth token in a region
        for _ in range(min(len(self.rats[to]), 2)):
            room = [q for q in self.adj[to] if len(self.rats[q]) < 3]
            if not room:
                continue  # "werden keine weiteren Rattenplättchen ausgespielt"
            if not self.stock:
                if self.s["supply-empty"] == "failed-draw" and self.ender is None:
                    self.ender = p
                continue
            q = (yield from self.ask(p, [f"spread {q}" for q in room])).split()[1]
            t = int((yield from self.ask(CHANCE, [f"draw #{t}" for t in sorted(self.stock)])).split("#")[1])
            self.stock.remove(t)
            self.rats[q].append(t)
        neutral = 0
        # Ritter: "bevor die Rattenplättchen umgedreht werden, entscheiden, ob die Pestfigur wie zwei neutrale
        # Bevölkerungswürfel ... zählt"
        may_count = knight and self.rats[to] and (self.total(to) > 0 or self.s["knight-neutral-empty"] == "yes")
        if may_count and (yield from self.ask(p, ["neutral", "no-neutral"])) == "neutral":
            self.used.add("knight")
            neutral = 2
        forced = neutral > 0 and self.s["knight-neutral-empty"] == "yes"
        # "bis entweder alle Rattenplättchen aufgedeckt oder alle Bevölkerungswürfel entfernt wurden"
        while self.rats[to] and (self.total(to) > 0 or forced):
            position = 1
            if self.s["reveal-order"] == "chosen" and len(self.rats[to]) > 1:
                choice = yield from self.ask(p, [f"reveal {i}" for i in range(1, len(self.rats[to]) + 1)])
                position = int(choice.split()[1])
            self.evaluate(self.rats[to][position - 1], to, neutral)

    def evaluate(self, t: int, r: str, neutral: int) -> None:
        threshold, symbols, _ = self.c.tokens[t]
        # "Wenn die Gesamtzahl der Bevölkerungswürfel ... größer oder gleich der vorgegebenen Zahl ... ist"
        if self.total(r) + neutral >= threshold:
            if "M" in symbols:  # "Das M wird immer zuerst ausgewertet"; ties all lose one
                top = max(self.cubes[(q, r)] for q in range(self.n))
                if top > 0 and not (self.s["knight-neutral-majority"] == "yes" and neutral > top):
                    for q in [q for q in range(self.n) if self.cubes[(q, r)] == top]:
                        self.lose(q, r)
            for card in CLASSES:  # the holder of each card shown loses one, if they have cubes there
                holder = self.holder[card]
                if card in symbols and holder is not None and self.cubes[(holder, r)] > 0:
                    self.lose(holder, r)
            if "A" in symbols:  # "alle Spieler mit Bevölkerungswürfeln in der Pestregion"
                for q in [q for q in range(self.n) if self.cubes[(q, r)] > 0]:
                    self.lose(q, r)
        # "Alle aufgedeckten Rattenplättchen werden in die Schachtel zurückgelegt."
        self.rats[r].remove(t)
        self.out.append(t)

    def final_round(self) -> Flow:
        """ "Diese letzte Runde wird entgegen dem Uhrzeigersinn gespielt, beginnend mit dem Spieler rechts
        des Spielers, der das Spielende eingeleitet hat." The ender does not play. """
        assert self.ender is not None
        self.used = set()
        for i in range(1, self.n):
            q = (self.ender - i) % self.n
            if self.s["ability-once"] == "per-turn":
                self.used = set()
            yield from self.turn(q, final=True)

    def final_devastation(self) -> Flow:
        """ "Zum Schluss verwüstet die Pest alle zwölf Region." """
        for r in self.regions:
            neutral = 0
            mode = self.s["final-knight-neutral"]
            if r == self.plague and (mode == "always" or (mode == "held" and self.holder["knight"] is not None)
                                     or (mode == "moved" and self.knight_moved_in_final)):
                neutral = 2
            # "Dazu werden nacheinander die Rattenplättchen umgedreht und ausgewertet." No one is named:
            # chance picks, or the ender, or the last player of the final round (left of the ender).
            assert self.ender is not None
            who = {"random": CHANCE, "chosen-by-trigger": self.ender,
                   "chosen-by-last": (self.ender + 1) % self.n}.get(self.s["final-reveal-order"])
            while self.rats[r] and self.total(r) > 0:
                position = 1
                if who is not None and len(self.rats[r]) > 1:
                    choice = yield from self.ask(who, [f"final-reveal {i}" for i in range(1, len(self.rats[r]) + 1)])
                    position = int(choice.split()[1])
                self.evaluate(self.rats[r][position - 1], r, neutral)

    def population(self, p: int) -> int:
        return sum(self.cubes[(p, r)] for r in self.all_regions) + self.castle[p]

    def decide_winner(self) -> None:
        """ "Sieger ist, wer danach die meisten Bevölkerungswürfel auf dem Spielbrett (inklusive Burg) hat.
        Im Falle eines Gleichstandes ... gewinnt derjenige von ihnen, der als nächstes am Zug wäre" """
        best = max(self.population(p) for p in range(self.n))
        tied = [p for p in range(self.n) if self.population(p) == best]
        if self.s["tie-break"] == "shared":
            self.winners = tied
            return
        assert self.last_regular is not None
        after = [(self.last_regular + 1 + i) % self.n for i in range(self.n)]
        self.winners = [next(p for p in after if p in tied)]

    # ------------------------------------------------------------ comparing
    def view(self) -> dict[str, Any]:
        """The game state in a form the spec's state is compared with."""
        return {
            "supply": list(self.supply), "castle": list(self.castle),
            "cubes": {k: v for k, v in self.cubes.items() if v},
            "holder": dict(self.holder), "plague": self.plague, "phase": self.phase, "ender": self.ender,
            "rats": {r: list(ts) for r, ts in self.rats.items() if ts},
            "stock": sorted(self.stock), "box": sorted(self.box), "out": list(self.out),
            "looked": sorted(self.looked), "winners": self.winners,
        }


def new_model(components: Components, players: int, settings: dict[str, str]) -> Rattus:
    """A new game (the benchmark's way in, the same for every game's model): switches by id."""
    return Rattus(components, players, settings)


def spec_view(state: Any) -> dict[str, Any]:
    """The same view of a spec :class:`interpreter.State`."""
    keys = state.game.piece_keys
    vals, zones = state.vals, state.zones
    n = state.n
    looked = sorted((p, keys[piece]) for piece, bits in enumerate(state.seen) for p in range(n) if bits >> p & 1)
    winners = state.winner()
    return {
        "supply": [vals["supply"][p] for p in range(n)], "castle": [vals["castle"][p] for p in range(n)],
        "cubes": {k: v for k, v in vals["cubes"].items() if v},
        "holder": dict(vals["holder"]), "plague": vals["plague"][None], "phase": vals["phase"][None],
        "ender": vals["ender"][None],
        "rats": {r: [keys[t] for t in ts] for r, ts in zones["rats"].items() if ts},
        "stock": sorted(keys[t] for t in zones["stock"][None]), "box": sorted(keys[t] for t in zones["box"][None]),
        "out": [keys[t] for t in zones["out"][None]], "looked": looked,
        "winners": None if winners is None else list(winners),
    }


def differences(a: dict[str, Any], b: dict[str, Any]) -> Iterator[str]:
    for key in a:
        if a[key] != b.get(key):
            yield f"{key}: spec {a[key]!r} != model {b.get(key)!r}"
