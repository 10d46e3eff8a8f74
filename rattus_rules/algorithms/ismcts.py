"""Information-set Monte Carlo tree search: a strong player for any game, that never reads a hidden face.

The player follows single-observer ISMCTS (Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012).  Each iteration

1. draws a *determinization*: a whole state the searching seat cannot tell from
   the real one, with the faces it cannot see laid at random
   (:meth:`.views.PlayerView.sample`);
2. walks down the tree of player decisions, choosing at each node the action of
   the seat to move by UCB over the actions legal in this determinization (each
   child counts how often it was available, as ISUCT does); chance events are
   drawn at random and are not nodes of the tree;
3. adds one node, plays on (random players, or one step greedy on the spec's
   ``score``) for at most ``rollout_depth`` player decisions, and
4. scores the end: at the game's end each winner gets ``1 / winners``; cut off
   earlier, each seat gets the share of other seats whose ``score`` it beats
   (ties count half) — and adds each seat's value along the path.

The answer is the root action visited most.  The player sees the game only
through a :class:`.views.PlayerView`, so it cannot read a face its seat may
not see; its choices for a given seed depend only on what the seat sees.
Everything it uses is the state API, so it plays every game of the language.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import attrs

from interpreter import State

from .views import PlayerView

#: The default search budget: iterations per decision.
ITERATIONS = 200
#: The default exploration constant of UCB (rewards lie in 0..1).
EXPLORATION = 0.7
#: The default number of player decisions a play-out makes before it is scored.
ROLLOUT_DEPTH = 12
#: How many points of lead make a cut-off position worth about 0.73 (a logistic of the lead).
MARGIN_SCALE = 2.0
#: The play-out policies.
ROLLOUTS = ("random", "greedy")


@attrs.define(eq=False)
class Node:
    """A node of the search tree: the seat that moved into it, its visits, its availability, its children."""

    mover: int
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[str, Node] = attrs.Factory(dict)


def values(state: State) -> list[float]:
    """Each seat's value of a state in 0..1: its share of the win at the end, else the share of other
    seats whose ``score`` it beats (ties half)."""
    n = state.n
    if state.is_terminal():
        winners = state.winner() or []
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]
    if n == 1:
        return [0.5]
    scores = state.scores()
    out = []
    for p in range(n):
        best_other = max(s for q, s in enumerate(scores) if q != p)
        out.append(1.0 / (1.0 + math.exp(-(scores[p] - best_other) / MARGIN_SCALE)))
    return out


def _greedy_index(state: State, rng: random.Random) -> int:
    """One step ahead on ``score``: the action after which the mover's score is highest (ties at random)."""
    count = state.num_legal_actions()
    if count == 1:
        return 0
    me = state.current_player
    best: list[int] = []
    best_value: float | None = None
    for index in range(count):
        look = state.clone()
        look.apply_index(index)
        while look.is_chance_node():
            look.apply_index(rng.randrange(look.num_legal_actions()))
        value = values(look)[me]
        if best_value is None or value > best_value:
            best, best_value = [index], value
        elif value == best_value:
            best.append(index)
    return best[0] if len(best) == 1 else rng.choice(best)


@attrs.frozen
class SearchParams:
    """The search's settings: iterations per decision, exploration constant, play-out policy and depth."""

    iterations: int = attrs.field(default=ITERATIONS, validator=attrs.validators.in_(range(1, 1_000_001)))
    exploration: float = attrs.field(default=EXPLORATION, validator=attrs.validators.ge(0.0))
    rollout: str = attrs.field(default="random", validator=attrs.validators.in_(ROLLOUTS))
    rollout_depth: int = attrs.field(default=ROLLOUT_DEPTH, validator=attrs.validators.in_(range(0, 100_001)))


class ISMCTSPlayer:
    """A player that searches by ISMCTS from its own seeded generator (see the module docstring)."""

    def __init__(self, seed: int = 0, params: SearchParams | None = None):
        self.rng = random.Random(seed)
        self.params = params or SearchParams()
        #: The root of the last search (for tests and curiosity).
        self.last_root: Node | None = None

    def choose(self, state: State) -> int:
        """The index of the chosen legal action."""
        if state.num_legal_actions() == 1:
            return 0
        text = self.search(PlayerView(state, state.current_player))
        return state.legal_action_texts().index(text)

    def search(self, view: PlayerView) -> str:
        """The text of the action the seat of ``view`` (to move) takes after the search."""
        legal = view.legal_action_texts()
        if not legal:
            raise ValueError(f"seat {view.seat} is not to move")
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        p = self.params
        root = Node(mover=-1)
        pick: Callable[[State, random.Random], int] = (
            _greedy_index if p.rollout == "greedy" else lambda s, r: r.randrange(s.num_legal_actions()))
        for _ in range(p.iterations):
            st = view.sample(rng)
            path = [root]
            node = root
            # selection and expansion, along player decisions; chance is drawn, not a node
            while True:
                while st.is_chance_node():
                    st.apply_index(rng.randrange(st.num_legal_actions()))
                if st.is_terminal():
                    break
                mover = st.current_player
                texts = st.legal_action_texts()
                untried = []
                for t in texts:
                    child = node.children.get(t)
                    if child is None:
                        child = node.children[t] = Node(mover=mover)
                    child.available += 1
                    if child.visits == 0:
                        untried.append(t)
                if untried:
                    choice = rng.choice(untried)
                else:
                    c = p.exploration
                    choice = max(texts, key=lambda t: _ucb(node.children[t], c))
                st.apply_index(texts.index(choice))
                node = node.children[choice]
                path.append(node)
                if node.visits == 0:
                    break
            # play-out
            made = 0
            while not st.is_terminal() and made < p.rollout_depth:
                if st.is_chance_node():
                    st.apply_index(rng.randrange(st.num_legal_actions()))
                    continue
                st.apply_index(pick(st, rng))
                made += 1
            while st.is_chance_node():  # score a position, not a half-drawn chance event
                st.apply_index(rng.randrange(st.num_legal_actions()))
            value = values(st)
            for n in path:
                n.visits += 1
                if n.mover >= 0:
                    n.reward += value[n.mover]
        self.last_root = root
        return max(legal, key=lambda t: (root.children[t].visits, root.children[t].reward)
                   if t in root.children else (-1, 0.0))


def _ucb(node: Node, c: float) -> float:
    return node.reward / node.visits + c * math.sqrt(math.log(node.available) / node.visits)


def parse_params(text: str) -> SearchParams:
    """Search settings from an agent name's tail: ``ITERATIONS[-ROLLOUT]`` (``200``, ``500-greedy``)."""
    parts = text.split("-") if text else []
    if not parts or len(parts) > 2 or not parts[0].isdigit() or len(parts[0]) > 7:
        raise ValueError(f"ismcts takes ITERATIONS[-ROLLOUT], as in ismcts-200 or ismcts-500-greedy, not {text!r}")
    rollout = parts[1] if len(parts) == 2 else "random"
    if rollout not in ROLLOUTS:
        raise ValueError(f"unknown play-out policy {rollout!r}; one of {', '.join(ROLLOUTS)}")
    iterations = int(parts[0])
    if not 1 <= iterations <= 1_000_000:
        raise ValueError(f"ismcts iterations must be 1 to 1000000, not {iterations}")
    return SearchParams(iterations=iterations, rollout=rollout)
