"""The table of everything a spec declares, by kind and name (filled by the checker).

Every later pass reads names of the spec through it: a name's kind
(:meth:`Symbols.kind_of`), a column's type, the keys of a dimension.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Any

import attrs

from . import ast as A
from .types import ANY, INT, PLAYER, EntityType, Type, column_type, spec_type


class Kind(enum.StrEnum):
    """What a name of a spec stands for: a kind of declaration, or a name of the language.

    The checker decides it once for every name it reads (see
    :meth:`interpreter.checker.Checked.ref`); later passes read that record.
    """

    ENUM = "enum"
    TABLE = "table"
    GRAPH = "graph"
    PIECES = "pieces"
    STATE = "state"
    ZONE = "zone"
    SCOPE = "scope"
    LIMIT = "limit"
    SWITCH = "switch"
    SETTING = "setting"
    FUNCTION = "function"
    PROCEDURE = "procedure"
    #: A local name: a `let`, a parameter, or a variable bound by a loop, a decision or an aggregate.
    LOCAL = "local"
    #: A name every spec can use (:data:`interpreter.builtins.SPECIAL_NAMES`).
    SPECIAL = "special"
    #: A builtin function (:data:`interpreter.builtins.BUILTINS`).
    BUILTIN = "builtin"


@attrs.define
class Symbols:
    """Everything the spec declares, by kind and name."""

    game: A.GameDecl | None = None
    players: A.PlayersDecl | None = None
    main: A.MainDecl | None = None
    score: A.ScoreDecl | None = None
    sources: dict[str, A.SourceDecl] = attrs.Factory(dict)
    enums: dict[str, A.EnumDecl] = attrs.Factory(dict)
    tables: dict[str, A.TableDecl] = attrs.Factory(dict)
    graphs: dict[str, A.GraphDecl] = attrs.Factory(dict)
    pieces: dict[str, A.PiecesDecl] = attrs.Factory(dict)
    states: dict[str, A.StateDecl] = attrs.Factory(dict)
    zones: dict[str, A.ZoneDecl] = attrs.Factory(dict)
    scopes: dict[str, A.ScopeDecl] = attrs.Factory(dict)
    limits: dict[str, A.LimitDecl] = attrs.Factory(dict)
    switches: dict[str, A.SwitchDecl] = attrs.Factory(dict)
    settings: dict[str, A.SettingDecl] = attrs.Factory(dict)
    #: How the game is drawn (a name of its own, not a global name: nothing reads it).
    pictures: dict[str, A.PictureDecl] = attrs.Factory(dict)
    checks: dict[str, A.Condition] = attrs.Factory(dict)
    invariants: dict[str, A.Condition] = attrs.Factory(dict)
    functions: dict[str, A.FunctionDecl] = attrs.Factory(dict)
    procedures: dict[str, A.ProcedureDecl] = attrs.Factory(dict)
    rules: dict[str, A.Rule] = attrs.Factory(dict)
    #: The text a spec keeps of a source, by source name (`text` declarations).
    texts: dict[str, A.TextDecl] = attrs.Factory(dict)
    #: The sentences no rule carries out, each with its reason (`waive` declarations), in spec order.
    waivers: list[A.Waiver] = attrs.Factory(list)

    def kind_of(self, name: str) -> Kind | None:
        """What a global name is: a state, a zone, a table, ... or None."""
        for kind, table in self._namespaces():
            if name in table:
                return kind
        return None

    def declaration(self, name: str) -> Any | None:
        """The declaration of a global name, or None."""
        for _, table in self._namespaces():
            if name in table:
                return table[name]
        return None

    def _namespaces(self) -> Iterator[tuple[Kind, dict[str, Any]]]:
        yield Kind.ENUM, self.enums
        yield Kind.TABLE, self.tables
        yield Kind.GRAPH, self.graphs
        yield Kind.PIECES, self.pieces
        yield Kind.STATE, self.states
        yield Kind.ZONE, self.zones
        yield Kind.SCOPE, self.scopes
        yield Kind.LIMIT, self.limits
        yield Kind.SWITCH, self.switches
        yield Kind.SETTING, self.settings
        yield Kind.FUNCTION, self.functions
        yield Kind.PROCEDURE, self.procedures

    def global_names(self) -> list[str]:
        """Every declared name."""
        return [n for _, table in self._namespaces() for n in table]

    def column_type(self, table: str, column: str) -> Type | None:
        """The checker type of a table column, or None if there is no such column."""
        decl = self.tables.get(table)
        if decl is None:
            return None
        cols = ([decl.key] if decl.key else []) + list(decl.columns)
        if decl.provenance:
            cols.append(A.Column(decl.provenance, "text", decl.pos))
        for col in cols:
            if col.name == column:
                return column_type(col.type, {*self.tables, *self.enums}) or ANY  # (unknown: reported)
        return None

    def domain_keys_type(self, domain: str) -> Type:
        """The type of the keys of a dimension (`player`, a table, an enum or a graph)."""
        if domain == "player":
            return PLAYER
        if domain in self.graphs:
            return EntityType(self.graphs[domain].nodes)
        return EntityType(domain)

    def spec_type(self, name: str) -> Type | None:
        """The type a spec names (a parameter's ``name: type``), or None if there is none such."""
        return spec_type(name, self.pieces, {*self.tables, *self.enums})

    def declared_state_type(self, decl: A.StateDecl) -> Type | None:
        """The type a state value is declared to hold: a counter's ``int``, the type a ``var`` names
        (``var top[spot]: stone = none``); None for a ``var`` that names none (or an unknown one)."""
        if decl.kind == "counter":
            return INT
        return self.spec_type(decl.type) if decl.type is not None else None


