"""The examples of Ratten Scharf's rules (seed 004), reproduced: the spec's example waivers name these tests."""

from __future__ import annotations

from interpreter import Game, State

GREEN, RED = 0, 1  # the start player plays green (game.rules: colour)


def _colour(game: Game, symbol: str) -> str | None:
    row = next(r for r in game.tables["symbols"].rows if r["symbol"] == symbol)
    return str(row["colour"]) if row["kind"] == "spice" else None


def _red_to_move_with_a_strip(game: Game) -> tuple[State, int, dict[str, str]]:
    """A game at red's first turn, one of whose two drawn strips shows a red spice, a green spice and no third
    spice; its piece and where each shows (``red``, ``green``, ``other``: a field index)."""
    for seed in range(400):
        state = game.new_state(2, seed=seed, lazy=True)  # options listed when read: after the painting below
        state.advance_chance()
        state.apply(next(t for t in state.legal_action_texts() if t.endswith(" i9-k9")))  # below the start
        state.advance_chance()
        assert state.current_player == RED
        for piece in state.zones["drawn"][None]:
            face = state.face(piece)
            fields = [face["first"], face["middle"], face["last"]]
            colours = [_colour(game, s) for s in fields]
            if colours.count("red") == 1 and colours.count("green") == 1 and colours.count(None) == 1:
                return state, piece, {"red": str(colours.index("red")), "green": str(colours.index("green")),
                                      "other": str(colours.index(None))}
    raise AssertionError("no seed draws such a strip for red")


def _paint(state: State, field: str, symbol: str, strip: int) -> None:
    """Let a field show a symbol as if a strip lay there (invariants no longer checked)."""
    state.check_invariants = False
    state.vals["height"][field] = 1
    state.vals["shows"][field] = symbol
    state.vals["top_strip"][field] = strip
    state.vals["near"][field] = 1  # a strip lies there: a strip next to it touches it


def test_rulebook_example_red_scores_2_and_green_1(scharf: Game) -> None:
    """'Beispiel: Spieler Rot ist am Zug.  Sein obenauf platzierter Warenstreifen bringt folgende Punkte: Für Rot
    2 Punkte – und für Grün 1 Punkt.'  Red lays a strip on top of three strips: its red spice joins two more (a
    group of three: 2 points for red), its green spice one more (a group of two: 1 point for green)."""
    state, piece, where = _red_to_move_with_a_strip(scharf)
    face = state.face(piece)
    symbols = [face["first"], face["middle"], face["last"]]
    red, green = symbols[int(where["red"])], symbols[int(where["green"])]
    # the strip lies along column g, rows 11 to 13, on three strips (one under each field: it lies on top, on no
    # single strip); the red spice gets two more in column f, the green spice one more in column h
    landing = {0: "g11", 1: "g12", 2: "g13"}
    for i, field in enumerate(landing.values()):
        _paint(state, field, "empty", 100 + i)
    row = int(landing[int(where["red"])][1:])
    _paint(state, f"f{row}", red, 200)
    _paint(state, f"f{row - 1}", red, 200)
    _paint(state, "h" + landing[int(where["green"])][1:], green, 201)
    before = dict(state.vals["points"])
    state.apply(f"lay {state.game.piece_words[piece]} g11-g13")  # the strip by its face, as texts write it
    gained = [state.vals["points"][p] - before[p] for p in (GREEN, RED)]
    assert gained == [1, 2]
