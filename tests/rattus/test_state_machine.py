"""Property-based tests: Hypothesis plays Rattus and checks the properties after every step.

A :class:`~hypothesis.stateful.RuleBasedStateMachine` starts a game for 2, 3
or 4 players under drawn interpretation settings and plays legal actions it
chooses itself (player decisions *and* chance outcomes, so the state's own
generator is never used and a replay must give exactly the same state).
After every step it checks:

- every declared invariant (``check_invariants=True``, and once more here);
- legal actions are empty exactly when the game is over;
- every legal action applies;
- an illegal action is refused with :class:`IllegalAction` and leaves the
  state unchanged (``to_json`` before and after);
- a clone is independent of its original;
- the JSON round trip gives an equal state, the same legal actions, and the
  same game when both go on with the same choices;
- replaying ``state.history`` on a fresh game gives the same game as every
  player sees it (tokens are written by their faces: of two tokens that look
  alike, a text names the first, so the hidden stock may hold them in another
  order), and the very same state where no such token was drawn; the
  game's record (written along the way, omniscient or players-eye) is legal
  and replays to the same end;
- no player's observation shows a face they may not see: face-down tokens
  (board, supply, box) are hidden unless that player looked at that very token
  with the Witch, which this test tracks itself from the actions played;

and these transition properties of the German rules:

- a card stays with its holder until another player takes it ("Der Spieler
  muss seine Ständekarte so lange behalten, bis sie von einem anderen Spieler
  genommen wird.");
- cubes in the castle stay there ("Bevölkerungswürfel in der Burg sind
  dauerhaft vor den Folgen der Pest geschützt");
- revealed tokens never come back ("Alle aufgedeckten Rattenplättchen werden
  in die Schachtel zurückgelegt."), the supply of tokens never grows after
  setup, the tokens removed at setup stay removed;
- the phases of the game only move forward;
- when phase C is over, the plague region has no tokens or no cubes ("Sobald
  in der Pestregion entweder keine Rattenplättchen oder keine
  Bevölkerungswürfel mehr liegen, endet der Zug des aktiven Spielers").

The settings keep the file well under a minute on two cores; the ``ci``
profile (``HYPOTHESIS_PROFILE=ci``, see conftest.py) makes the runs repeatable.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from interpreter import CHANCE_PLAYER, TERMINAL_PLAYER, IllegalAction, State
from rattus_rules import interpretations, new_game, state_from_json
from rattus_rules.tools.records.validate import OMNISCIENT, PLAYERS_EYE, Recorder, validate

SWITCHES = {i.id: [o.value for o in i.options] for i in interpretations()}
SETTINGS = st.fixed_dictionaries({ident: st.sampled_from(values) for ident, values in SWITCHES.items()})
PHASES = ["setup", "regular", "final", "over"]
PHASE_C_VERBS = {"plague", "spread", "draw", "neutral", "no-neutral", "reveal"}
HIDDEN_ZONES = ("box", "stock", "rats")
#: Texts that are never legal actions, and ways to spoil a legal one.
NONSENSE = ["", "   ", "nothing", "place", "place Atlantis", "take joker", "reveal 0", "reveal -1",
            "plague Gallia Gallia Gallia", "start-token #999", "#1", "P9", "take king king", "\x00", "ü"]


def snapshot(state: State) -> dict[str, Any]:
    """What the transition properties compare before and after a step."""
    vals = state.vals
    return {
        "holder": dict(vals["holder"]),
        "castle": dict(vals["castle"]),
        "phase": vals["phase"][None],
        "out": list(state.zones["out"][None]),
        "stock": len(state.zones["stock"][None]),
        "box": len(state.zones["box"][None]),
        "player": state.current_player,
    }


def _seen_faces(state: State, player: int) -> dict[str, Any]:
    """A player's observation with each token shown by its face as texts write it (a row names its token's id)."""
    game = state.game
    seen = state.observation(player)
    seen["zones"] = {name: [[key, [None if face is None else game.piece_words[game.piece_by_key[face["id"]]]
                                   for face in faces]] for key, faces in rows]
                     for name, rows in seen["zones"].items()}
    return seen


class RattusGame(RuleBasedStateMachine):
    """One game of Rattus, played by Hypothesis."""

    state: State

    def __init__(self) -> None:
        super().__init__()
        self.looked: set[tuple[int, int]] = set()  # (player, piece) looked at with the Witch
        self.witch_pair: list[int] = []  # the tokens the Witch looked at in this use

    @initialize(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**64 - 1), chosen=SETTINGS,
                warmup=st.integers(0, 300))
    def start(self, players: int, seed: int, chosen: dict[str, str], warmup: int) -> None:
        """A new game, and (so that runs reach every phase) some random steps into it."""
        self.players, self.seed, self.chosen = players, seed, chosen
        #: Whether a chance outcome took the later of two tokens that look alike (its text names the first).
        self.took_a_later_twin = False
        self.state = new_game(players, seed=seed, interpretations=chosen, check_invariants=True,
                              resolve_setup_chance=False)
        assert self.state.is_chance_node()  # setup starts with the start tokens
        self.recorder = Recorder(self.state, OMNISCIENT if seed % 2 else PLAYERS_EYE, seed=seed,
                                 viewer=None if seed % 2 else seed % players)
        self.play_many(seed % 2**32, warmup)

    # ----------------------------------------------------------------- steps
    def step(self, index: int) -> None:
        """Apply the legal action with this index, checking the transition properties."""
        state = self.state
        actions = state.legal_actions()
        assert actions, "a game that is not over must offer an action"
        action = actions[index]
        self.took_a_later_twin |= state.legal_action_texts().index(action.text) != index
        if action.verb in ("witch", "witch-look"):  # the Witch looks under one token
            region, position = action.args[-2], int(action.args[-1])
            piece = state.zones["rats"][region][position - 1]
            self.looked.add((state.current_player, piece))
            self.witch_pair = [piece] if action.verb == "witch" else [*self.witch_pair, piece]
        before = snapshot(state)
        old = state.clone()
        self.recorder.apply(state, index)  # applies the action and writes the record's entries
        assert state.history[-1] == action.text
        after = snapshot(state)
        self.check_transition(before, after, action.verb, action.text)
        self.check_effect(old, state, old.current_player, action.verb, action.args)

    def check_effect(self, old: State, new: State, p: int, verb: str, args: tuple[str, ...]) -> None:
        """What the German text says an action does, checked on the state before and after."""
        cubes, rats, supply = old.vals["cubes"], old.zones["rats"], old.vals["supply"]
        moved: dict[tuple[int, str], int] = {k: new.vals["cubes"][k] - v for k, v in cubes.items()
                                             if new.vals["cubes"][k] != v}
        if verb == "start":  # "setzt jeder Spieler ... zwei seiner Würfel in eine beliebige Region"
            each = 2 if self.chosen["initial-placement"] == "both-in-one" else 1
            assert moved == {(p, args[0]): each} and new.vals["supply"][p] == supply[p] - each
        elif verb in ("place", "place-extra"):
            # "Er platziert so viele Würfel wie Rattenplättchen in der gewählten Region vorhanden sind."
            # Bauer: "einen Würfel mehr als üblich"
            wanted = len(rats[args[0]]) + (verb == "place-extra")
            placed = moved.get((p, args[0]), 0)
            assert placed == min(wanted, supply[p]) > 0 and new.vals["supply"][p] == supply[p] - placed
            assert list(moved) == [(p, args[0])]
        elif verb == "king":  # "einen seiner Bevölkerungswürfel in die Burg ... aus einer Region ohne Rattenplättchen"
            assert not rats[args[0]] and moved == {(p, args[0]): -1}
            assert new.vals["castle"][p] == old.vals["castle"][p] + 1
        elif verb == "merchant":  # "bis zu drei eigene Bevölkerungswürfel einer Region in eine benachbarte Region"
            k = int(args[2])
            assert 1 <= k <= 3 and moved == {(p, args[0]): -k, (p, args[1]): k}
            assert args[1] in old.world.adjacent["board"][args[0]]
        elif verb == "monk":  # "ein Rattenplättchen aus einer Region in eine benachbarte Region"
            token = rats[args[0]][int(args[1]) - 1]
            assert len(rats[args[2]]) < 3 and args[2] in old.world.adjacent["board"][args[0]]
            assert new.zones["rats"][args[2]] == [*rats[args[2]], token]
            assert new.zones["rats"][args[0]] == [t for t in rats[args[0]] if t != token] and not moved
        elif verb == "take":
            assert new.vals["holder"][args[0]] == p and not moved
        elif verb == "witch-swap":  # "Zum Schluss darf er die beiden angeschauten Plättchen vertauschen"
            first, second = self.witch_pair
            assert new.loc[first] == old.loc[second] and new.loc[second] == old.loc[first]
            assert new.zones["rats"][old.loc[first][1]].index(second) == rats[old.loc[first][1]].index(first)
        elif verb in ("witch", "witch-look", "witch-keep", "witch-done"):
            assert new.zones == old.zones and not moved
        elif verb == "plague-start":  # "Die Pestfigur wird in einer beliebigen Region platziert."
            assert (p == CHANCE_PLAYER) == (self.chosen["plague-start"] == "chance")
            assert new.vals["plague"][None] == args[0]
        if old.vals["phase"][None] == "setup" and new.vals["phase"][None] != "setup":
            # after setup step 7 every player has placed four cubes: "zwei weitere Steine"
            assert all(new.vals["supply"][q] == 16 and new.vals["castle"][q] == 0 for q in new.seats)

    def check_transition(self, before: dict[str, Any], after: dict[str, Any], verb: str, text: str) -> None:
        # a card changes hands only when the player to move takes it, and never goes back to the display
        for card, holder in before["holder"].items():
            now = after["holder"][card]
            if now != holder:
                assert now is not None and verb == "take" and text == f"take {card}" and now == before["player"]
        # the castle only fills; revealed tokens never come back; the token supply never grows after setup
        assert all(after["castle"][p] >= n for p, n in before["castle"].items())
        assert after["out"][:len(before["out"])] == before["out"]
        if before["phase"] != "setup":
            assert after["stock"] <= before["stock"] and after["box"] == before["box"]
        assert PHASES.index(after["phase"]) >= PHASES.index(before["phase"])
        state = self.state
        if verb in PHASE_C_VERBS and before["phase"] == "regular" and not (
                {a.verb for a in state.legal_actions()} & PHASE_C_VERBS and after["phase"] == "regular"):
            region = state.vals["plague"][None]
            cubes = sum(state.vals["cubes"][(p, region)] for p in state.seats)
            assert not state.zones["rats"][region] or cubes == 0, f"phase C ended in {region} with both"

    @precondition(lambda self: not self.state.is_terminal())
    @rule(data=st.data())
    def play_one(self, data: st.DataObject) -> None:
        """Any legal action, player decision or chance outcome, chosen by Hypothesis."""
        self.step(data.draw(st.integers(0, self.state.num_legal_actions() - 1)))

    @precondition(lambda self: not self.state.is_terminal())
    @rule(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 300))
    def play_many(self, seed: int, count: int) -> None:
        """Several legal actions chosen by a seeded generator: gets deep into the game quickly."""
        rng = random.Random(seed)
        for _ in range(count):
            if self.state.is_terminal():
                break
            self.step(rng.randrange(self.state.num_legal_actions()))

    # --------------------------------------------------------- refusing and copying
    @rule(data=st.data())
    def illegal_action_is_refused(self, data: st.DataObject) -> None:
        state = self.state
        legal = state.legal_action_texts()
        candidates = list(NONSENSE)
        for text in legal[:20]:
            verb, _, rest = text.partition(" ")
            candidates += [f"{text} extra", f"{verb}x {rest}", f"{verb} {rest}{rest}"]
        text = data.draw(st.one_of(st.sampled_from(candidates), st.text(max_size=30)))
        if " ".join(text.split()) in legal:
            return
        before = state.to_json()
        try:
            state.apply(text)
        except IllegalAction as err:
            assert err.reason and err.legal == tuple(legal)
        else:
            raise AssertionError(f"{text!r} was applied although it is not legal")
        assert state.to_json() == before and state.legal_action_texts() == legal
        for index in (-1, len(legal), len(legal) + 5):
            try:
                state.apply_index(index)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"index {index} applied")
            assert state.to_json() == before

    @precondition(lambda self: not self.state.is_terminal())
    @rule(data=st.data())
    def clone_is_independent(self, data: st.DataObject) -> None:
        before = self.state.to_json()
        copy = self.state.clone()
        assert copy == self.state and copy.to_json() == before
        for _ in range(data.draw(st.integers(1, 5))):
            if copy.is_terminal():
                break
            copy.apply_index(data.draw(st.integers(0, copy.num_legal_actions() - 1)))
        assert self.state.to_json() == before
        # and the other way round: the original moves on, the clone of it does not
        frozen = self.state.clone()
        self.step(data.draw(st.integers(0, self.state.num_legal_actions() - 1)))
        assert frozen.to_json() == before

    @rule(seed=st.integers(0, 2**32 - 1))
    def json_round_trip(self, seed: int) -> None:
        stored = self.state.to_json()
        restored = state_from_json(stored)
        assert restored == self.state and restored.to_json() == stored
        assert restored.legal_action_texts() == self.state.legal_action_texts()
        assert restored.current_player == self.state.current_player
        ahead = self.state.clone()
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        for _ in range(30):
            if ahead.is_terminal():
                break
            ahead.apply_index(rng_a.randrange(ahead.num_legal_actions()))
            restored.apply_index(rng_b.randrange(restored.num_legal_actions()))
            assert restored.legal_action_texts() == ahead.legal_action_texts()
        assert restored.to_json() == ahead.to_json()

    @rule()
    def replay_gives_the_same_state(self) -> None:
        fresh = new_game(self.players, seed=self.seed, interpretations=self.chosen, resolve_setup_chance=False)
        for text in self.state.history:
            fresh.apply(text)
        assert fresh.history == self.state.history
        assert sorted(fresh.legal_action_texts()) == sorted(self.state.legal_action_texts())
        assert fresh.scores() == self.state.scores() and fresh.winner() == self.state.winner()
        assert all(_seen_faces(fresh, p) == _seen_faces(self.state, p) for p in range(self.players))
        if not self.took_a_later_twin:
            assert fresh.to_json() == self.state.to_json()
        # the generator kept in the state is part of it: both draw the same chance outcome
        if self.state.is_chance_node():
            assert fresh.random_chance_index() == self.state.clone().random_chance_index()

    def teardown(self) -> None:
        if not hasattr(self, "state"):
            return
        # how far the runs get (see --hypothesis-show-statistics)
        event(f"{self.players} players, phase {self.state.vals['phase'][None]}")
        if self.state.is_terminal() and self.seed % 3 == 0:
            self.record_replays()

    def record_replays(self) -> None:
        """The record written along the way is legal and replays to the same end."""
        verdict = validate(self.recorder.record)
        assert verdict.ok and verdict.finished, verdict.format()
        assert verdict.entries == len(self.recorder.record["entries"])
        assert list(verdict.scores) == self.state.scores() and list(verdict.winners) == self.state.winner()
        assert verdict.state is not None and len(verdict.state.history) == len(self.state.history)
        if self.recorder.kind == OMNISCIENT:
            # records and histories alike name tokens by their faces
            assert verdict.state.history == self.state.history

    # --------------------------------------------------------------- invariants
    @invariant()
    def declared_invariants_hold(self) -> None:
        assert self.state.broken_invariants() == []

    @invariant()
    def legal_actions_empty_only_at_the_end(self) -> None:
        state = self.state
        n = state.num_legal_actions()
        assert (n == 0) == state.is_terminal() == (state.current_player == TERMINAL_PLAYER)
        texts = state.legal_action_texts()
        assert len(state.legal_actions()) == n == len(texts)
        # texts repeat only where tokens look alike: the same chance outcome's face, twice
        assert all(state.is_chance_node() for t in texts if texts.count(t) > 1)
        if state.is_terminal():
            winners = state.winner()
            assert winners and all(0 <= w < self.players for w in winners)
            assert state.vals["phase"][None] == "over"
        else:
            assert state.winner() is None
            if state.is_chance_node():
                assert state.current_player == CHANCE_PLAYER
                assert abs(sum(p for _, p in state.chance_outcomes()) - 1.0) < 1e-9
            else:
                assert 0 <= state.current_player < self.players

    @invariant()
    def observations_show_only_faces_a_player_may_see(self) -> None:
        state = self.state
        for player in state.seats:
            obs = state.observation(player)
            for name, rows in obs["zones"].items():
                for key, faces in rows:
                    pieces = state.zones[name][key[0] if len(key) == 1 else (tuple(key) if key else None)]
                    assert len(faces) == len(pieces)
                    for piece, face in zip(pieces, faces):
                        may_see = state.face_up[piece] or (player, piece) in self.looked
                        if name in HIDDEN_ZONES:
                            assert not state.face_up[piece], f"a token lies face up in {name}"
                            if name != "rats":
                                may_see = False  # nobody looks into the supply or the box
                        if face is not None:
                            assert may_see, f"P{player} sees the face of token {piece} in {name}"
                            assert face == state.face(piece)
                        else:
                            assert name in HIDDEN_ZONES and not state.can_see(piece, player)
                            # and what the player looked at with the Witch, they do see
                            assert not may_see, f"P{player} looked at token {piece} but does not see it"
            if obs["to_move"] != player:
                assert obs["legal_actions"] == []


RattusGame.TestCase.settings = settings(
    max_examples=60, stateful_step_count=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestRattusGame = RattusGame.TestCase


def test_to_json_is_a_snapshot_not_a_view() -> None:
    """Found by the machine above: to_json shared the live locals of the running procedure."""
    state = new_game(3, seed=2, resolve_setup_chance=False, log=True)
    stored = state.to_json()
    frozen = repr(stored)
    for _ in range(5):
        state.apply_index(0)
    assert repr(stored) == frozen
    restored = state_from_json(stored)
    stored["frames"][-1][2].clear()
    stored["log"].append("changed")
    assert restored.to_json() != stored and restored.legal_action_texts()
