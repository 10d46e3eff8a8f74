"""What one seat may know of a game, and positions sampled from that knowledge.

A :class:`PlayerView` wraps a state for one seat.  It answers only what that
seat may know: whose turn it is, its legal actions when it is to move, its
observation (:meth:`interpreter.State.observation`), and *samples*: whole
states that look the same to the seat, drawn uniformly from the ways the
faces it cannot see could lie.  Anything else raises
:class:`HiddenInformation`, so a player built on a view cannot read a hidden
face by mistake.

A sample (a *determinization*) is the state with the pieces the seat cannot
see exchanged at random among themselves, each only with pieces of the same
``pieces`` declaration (:func:`interpreter.relabel.relabelled`), with a fresh
random generator for chance, and with no history (the history may name faces
drawn face down).  Which pieces are exchanged and where they go depend only on
what the seat sees, never on where the hidden faces really are: two states the
seat cannot tell apart give the same samples from the same generator.  What a
seat "sees" is what the spec declares visible (its hidden zones, face-up
pieces, faces a player has looked at): a seat remembers nothing the
observation does not show.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from interpreter import State
from interpreter.relabel import relabelled


class HiddenInformation(AttributeError):
    """A player asked a view for something its seat may not know."""


class PlayerView:
    """One seat's view of a state: its observation, its legal actions, and samples of the hidden rest."""

    __slots__ = ("_hidden", "_state", "seat")

    def __init__(self, state: State, seat: int):
        if not 0 <= seat < state.n:
            raise ValueError(f"no seat {seat} in a {state.n}-player game")
        self._state = state
        self.seat = seat
        self._hidden: list[list[tuple[Any, ...]]] | None = None

    def __getattr__(self, name: str) -> Any:
        raise HiddenInformation(f"a player's view has no {name!r}: only what seat {self.seat} may know")

    # ------------------------------------------------------------------ what the seat knows
    @property
    def players(self) -> int:
        """How many seats the game has."""
        return self._state.n

    @property
    def current_player(self) -> int:
        """The seat to move (public), or the chance or terminal marker."""
        return self._state.current_player

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self._state.is_terminal()

    def legal_action_texts(self) -> list[str]:
        """The seat's legal actions when it is to move (as its observation lists them), else none."""
        if self._state.current_player != self.seat:
            return []
        return self._state.legal_action_texts()

    def observation(self) -> dict[str, Any]:
        """Everything the seat may see (:meth:`interpreter.State.observation`)."""
        return self._state.observation(self.seat)

    # ------------------------------------------------------------------ samples
    def _hidden_places(self) -> list[list[tuple[Any, ...]]]:
        """The places of the pieces the seat cannot see, by piece declaration, in a fixed order.

        Each place is ``(zone, key, position)``; the order is the zones' and keys' own, so it is
        the same for any two states the seat cannot tell apart.
        """
        if self._hidden is None:
            st = self._state
            groups: dict[str, list[tuple[Any, ...]]] = {}
            for zone, table in st.zones.items():
                if not st.game.hidden_zones[zone]:
                    continue
                for key, pieces in table.items():
                    for i, piece in enumerate(pieces):
                        if not st.can_see(piece, self.seat):
                            groups.setdefault(st.game.piece_types[piece], []).append((zone, key, i))
            self._hidden = [places for _, places in sorted(groups.items())]
        return self._hidden

    def hidden_count(self) -> int:
        """How many pieces the seat cannot see."""
        return sum(len(places) for places in self._hidden_places())

    def sample(self, rng: random.Random) -> State:
        """A state the seat cannot tell from this one, drawn uniformly over where its hidden faces lie.

        The sample's chance events draw from a generator seeded by ``rng``; its history is empty.
        """
        st = self._state
        mapping: dict[int, int] = {}
        for places in self._hidden_places():
            there = [st.zones[zone][key][i] for zone, key, i in places]
            pieces: Sequence[int] = sorted(there)  # which pieces are hidden is public; their order here is not
            shuffled = list(pieces)
            rng.shuffle(shuffled)
            mapping.update(zip(there, shuffled))
        out = relabelled(st, mapping)
        out.rng = rng.getrandbits(64)
        out.history = []
        out.log = None
        return out
