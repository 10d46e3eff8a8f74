"""The hand-written reference model of Rattus behind a protocol adapter: an engine for the conformance check.

``python tests/rattus/model_engine.py`` reads requests of the referee protocol's **engine subset**
(``docs/protocol.md``: ``hello``, ``new`` in chance mode ``client``, ``legal``, ``apply``, ``chance``
with ``draw``, ``save``/``load``/``drop`` by handle, ``quit``) one JSON line at a time and answers
them by playing :mod:`tests.rattus.reference_model`, which knows no rules language.  It is the
yardstick of ``make bench-kit``: the same kit checked against ``rattus serve`` and against an
engine written by hand (``rattus conformance check --engine "python tests/rattus/model_engine.py"``).

The adapter adds only what the protocol asks of an engine and the model leaves out: tokens written
by their faces (the model names them ``#id``), chance outcomes in the decision model's order (the
stock's order for ``remove`` and ``draw``; the model lists them by id), the ``seed`` rule's
SplitMix64 generator, the faces turned face up by each action (the tokens the model moved to
``out``), and final scores.  A saved position is the list of the model's own answers since ``new``:
``load`` plays them again (a generator cannot be copied).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: the repository's root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.rattus.reference_model import CHANCE, CLASSES, Components, Rattus

DATA = Path(__file__).resolve().parents[2] / "spec" / "rattus" / "data"
#: Each switch's default (the spec's, written here by hand as the model is).
DEFAULTS = {
    "initial-placement": "both-in-one", "plague-start": "chance", "phase-b-optional": "yes",
    "short-supply": "place-all", "ability-once": "per-turn", "ability-window": "before-c", "knight-return": "no",
    "knight-neutral-majority": "no", "reveal-order": "chosen", "game-end-timing": "after-turn",
    "supply-empty": "when-empty", "final-knight-neutral": "moved", "peasant-extra": "optional",
    "knight-neutral-empty": "no", "final-peasant": "one-cube-anywhere", "tie-break": "next-to-move",
    "removed-tokens": "before-start-tokens", "cubes-end": "placement", "final-reveal-order": "random",
}
COMMANDS = ["apply", "chance", "drop", "hello", "legal", "load", "new", "quit", "save"]
MASK = (1 << 64) - 1
#: The most games and kept positions at a time.
MOST = 10_000


def splitmix(state: int) -> tuple[int, int]:
    """One step of SplitMix64 (the decision model's ``seed`` rule): the new state and its output."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


class Game:
    """One game of the model, with what the adapter keeps beside it."""

    def __init__(self, components: Components, faces: dict[int, str], players: int, seed: int,
                 switches: dict[str, str]):
        self.c, self.faces = components, faces
        self.players, self.seed, self.switches = players, seed, switches
        self.model = Rattus(components, players, {**DEFAULTS, **switches})
        self.rng = seed
        self.path: list[str] = []  # the model's answers since the start

    def outcomes(self) -> list[tuple[str, str]]:
        """The options here in the decision model's order: (text with faces, the model's text)."""
        assert self.model.pending is not None
        who, options = self.model.pending
        if who != CHANCE:
            return [(o, o) for o in options]
        out = [(self.written(o), o) for o in options]
        if out and out[0][1].split()[0] in ("remove", "draw"):  # the stock's order, not the model's sorted ids
            place = {t: i for i, t in enumerate(self.model.stock)}
            out.sort(key=lambda pair: place[int(pair[1].split("#")[1])])
        return out

    def written(self, text: str) -> str:
        """A model's text with its token (``#id``) written as its face."""
        verb, _, rest = text.partition(" ")
        return f"{verb} {self.faces[int(rest[1:])]}" if rest.startswith("#") else text

    def take(self, text: str) -> list[str]:
        """Answer the model with its own text; the faces turned face up."""
        before = len(self.model.out)
        self.model.apply(text)
        self.path.append(text)
        return [self.faces[t] for t in self.model.out[before:]]

    def status(self) -> dict[str, Any]:
        """``to_move`` (and at the end ``scores`` and ``winners``)."""
        pending = self.model.pending
        if pending is None:
            return {"to_move": None, "scores": [self.model.population(p) for p in range(self.players)],
                    "winners": sorted(self.model.winners or [])}
        return {"to_move": "chance" if pending[0] == CHANCE else pending[0]}


class Adapter:
    """The games of one session, by id, and the positions kept by handle."""

    def __init__(self) -> None:
        self.c = Components(DATA)
        order = {s: i for i, s in enumerate(("M", "A", *CLASSES))}
        self.faces = {t: f"{th}:" + "+".join(sorted(symbols, key=order.__getitem__))
                      for t, (th, symbols, _) in self.c.tokens.items()}
        self.games: dict[str, Game] = {}
        self.kept: dict[str, tuple[int, int, dict[str, str], list[str], int]] = {}
        self.count = 0

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer to one request (without its id)."""
        cmd = request.get("cmd")
        if cmd == "hello":
            return {"protocol": "rattus-referee", "version": 1, "commands": COMMANDS}
        if cmd == "new":
            switches = dict(request.get("switches") or {})
            if any(k not in DEFAULTS for k in switches):
                return _error("unsupported", f"switches the model does not have: {sorted(switches)}")
            return self.start(Game(self.c, self.faces, int(request["players"]), int(request.get("seed", 0)),
                                   switches))
        if cmd == "load":
            kept = self.kept.get(str(request.get("handle")))
            if kept is None:
                return _error("unknown-handle", "no such handle")
            players, seed, switches, path, rng = kept
            game = Game(self.c, self.faces, players, seed, switches)
            for text in path:
                game.take(text)
            game.rng = rng
            return self.start(game)
        if cmd == "drop" and "handle" in request:
            self.kept.pop(str(request["handle"]), None)
            return {}
        game = self.games.get(str(request.get("game")))
        if game is None:
            return _error("unknown-game", f"no game {request.get('game')!r}")
        if cmd == "drop":
            del self.games[str(request["game"])]
            return {}
        if game.model.pending is None and cmd in ("legal", "apply", "chance"):
            return {"actions": [], **game.status()} if cmd == "legal" else _error("illegal-action", "the game is over")
        if cmd == "legal":
            return {"actions": list(dict.fromkeys(text for text, _ in game.outcomes())), **game.status()}
        if cmd == "apply":
            action = str(request.get("action"))
            mine = next((own for text, own in game.outcomes() if text == action), None)
            if mine is None:
                return _error("illegal-action", f"illegal action {action!r}")
            return {"action": action, "revealed": game.take(mine), **game.status()}
        if cmd == "chance" and request.get("draw") is True:
            if game.model.pending[0] != CHANCE:  # type: ignore[index]
                return _error("not-chance", "not at a chance event")
            options = game.outcomes()
            game.rng, bits = splitmix(game.rng)
            text, mine = options[bits % len(options)]
            return {"action": text, "revealed": game.take(mine), **game.status()}
        if cmd == "save" and request.get("keep") is True and len(self.kept) < MOST:
            self.count += 1
            handle = f"h{self.count}"
            self.kept[handle] = (game.players, game.seed, game.switches, list(game.path), game.rng)
            return {"handle": handle}
        return _error("unsupported", f"the model engine does not answer {cmd!r} so")

    def start(self, game: Game) -> dict[str, Any]:
        if len(self.games) >= MOST:
            return _error("too-many-games", "too many games")
        self.count += 1
        name = f"g{self.count}"
        self.games[name] = game
        return {"game": name, **game.status()}


def _error(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message}}


def main() -> int:
    """Answer request lines on standard input until ``quit`` or its end."""
    adapter = Adapter()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            answer = adapter.answer(request)
        except Exception as err:  # an adapter for a benchmark: any failure is an error answer
            request, answer = {}, _error("internal", f"{type(err).__name__}: {err}")
        answer = {**answer, "id": request.get("id") if isinstance(request, dict) else None}
        answer.setdefault("ok", True)
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        if isinstance(request, dict) and request.get("cmd") == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
