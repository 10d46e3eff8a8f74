"""Component tables: CSV files beside the spec, each row with its provenance.

A table declaration names the file, the key column and typed columns.  A user
can put corrected files in a folder of their own (``data=PATH``): a file there
replaces the spec's file of the same name, and goes through the same checks.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Container, Mapping
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

import attrs

from . import ast as A
from .errors import Diagnostic, SpecError
from .files import inside, read_text, why_unread
from .types import BoolType, EntityType, IntType, ListType, Type

#: The key of a table without a `key` column: the row's number, from 1.
ROW_NUMBER = "row_number"
#: A table file larger than this is refused before it is read.
MAX_TABLE_BYTES = 1_000_000
#: The most rows a table may have (a game's components are far fewer).
MAX_TABLE_ROWS = 10_000
#: The most problems reported for one table (then how many more there are).
MAX_TABLE_PROBLEMS = 20
_FLAGS = {"yes": True, "no": False, "true": True, "false": False, "1": True, "0": False}


@attrs.frozen
class Table:
    """A loaded component table."""

    name: str
    path: str
    key: str
    columns: tuple[str, ...]
    rows: tuple[dict[str, Any], ...]
    provenance_column: str | None
    #: The line of the file each row ends on, as the CSV reader counts (empty for a table not read from a file).
    lines: tuple[int, ...] = attrs.field(default=(), eq=False, repr=False)
    _index: dict[Any, dict[str, Any]] = attrs.field(init=False, eq=False, repr=False)

    @_index.default
    def _by_key(self) -> dict[Any, dict[str, Any]]:
        return {row[self.key]: row for row in self.rows}

    @property
    def keys(self) -> list[Any]:
        """The key of every row, in file order."""
        return [row[self.key] for row in self.rows]

    def row(self, key: Any) -> dict[str, Any]:
        """The row with this key (KeyError if there is none)."""
        return self._index[key]

    def line(self, index: int) -> int:
        """The line of the file the row at ``index`` (from 0) is on (its last line, if it spans several)."""
        return self.lines[index] if index < len(self.lines) else index + 2

    def provenance(self, key: Any) -> str:
        """Where the row's facts come from, as the data file says."""
        if self.provenance_column is None:
            return ""
        return str(self.row(key)[self.provenance_column])


def path_problem(file: str) -> str | None:
    """Why a table's file name may not be used, or None if it is fine.

    A spec reads its tables from its own folder and nowhere else: the name must
    be a relative path without ``..`` parts (no absolute path, drive or ``~``).
    """
    if not file.strip():
        return "the file name is empty"
    if "\0" in file:
        return "the file name contains a NUL character"
    posix = PurePosixPath(file.replace("\\", "/"))
    windows = PureWindowsPath(file)
    if posix.is_absolute() or windows.drive or windows.root or file.startswith("~"):
        return f"{file!r} is an absolute path; a table must be a file in the spec's folder"
    if ".." in posix.parts:
        return f"{file!r} leads out of the spec's folder ('..'); a table must be a file in the spec's folder"
    return None


def resolve_file(decl: A.TableDecl, spec_dir: Path, override: Path | None) -> Path:
    """The file a table is read from: the user's folder first, then the spec's.

    In the user's folder the table may sit at the spec's relative path or under
    its bare file name; a single file replaces the table of the same file name.
    """
    name = Path(decl.file).name
    if override is not None:
        if override.is_dir():
            for candidate in (override / decl.file, override / name):
                if candidate.exists() or candidate.is_symlink():  # not only files: the others are refused
                    return candidate
        elif override.name == name:
            return override
    return spec_dir / decl.file


def load_table(
    decl: A.TableDecl, spec_dir: Path, override: Path | None, enums: dict[str, tuple[str, ...]],
    types: Mapping[str, Type], whole_keyed: Container[str] = frozenset(),
) -> Table:
    """Read and type one table; every problem is a :class:`SpecError` naming file and line.

    ``types``: each column's type, as the checker read it
    (:meth:`~interpreter.symbols.Symbols.column_type`); a column naming another table holds
    its keys: whole numbers for the tables of ``whole_keyed`` (:func:`whole_keyed`), else text.
    """
    problem = path_problem(decl.file)
    if problem is not None:
        raise SpecError([Diagnostic(decl.pos, f"table {decl.name}: {problem}")])
    try:
        path = resolve_file(decl, spec_dir, override)
    except OSError as err:  # the user's folder cannot be looked into
        raise SpecError([Diagnostic(decl.pos, f"cannot read table {decl.name} from {override}: {why_unread(err)}",
                                    unreadable_input=True)]) from None
    shown = str(path)
    users = path != spec_dir / decl.file
    if not users and not inside(path, spec_dir):
        raise SpecError([Diagnostic(decl.pos, f"table {decl.name}: {decl.file!r} resolves to "
                                              f"{path.resolve()}, outside the spec's folder")])
    try:
        text = read_text(path, MAX_TABLE_BYTES)
    except (OSError, ValueError) as err:
        raise SpecError([Diagnostic(decl.pos, f"cannot read table {decl.name} from {shown}: {why_unread(err)}",
                                    unreadable_input=users)]) from None
    problems: list[Diagnostic] = []
    reader = csv.DictReader(io.StringIO(text))
    try:  # the csv module refuses some input (a field over its size limit, ...): positioned too
        header = list(reader.fieldnames or [])
        raw_rows = [(reader.line_num, raw) for raw in reader]
    except csv.Error as err:
        raise SpecError([Diagnostic(A.Pos(shown, max(reader.line_num, 1), 1),
                                    f"table {decl.name}: not readable as CSV: {err}")]) from None
    if len(raw_rows) > MAX_TABLE_ROWS:
        raise SpecError([Diagnostic(A.Pos(shown, raw_rows[MAX_TABLE_ROWS][0], 1),
                                    f"table {decl.name} has {len(raw_rows):,} rows; a table may have at most "
                                    f"{MAX_TABLE_ROWS:,}")])
    wanted = ([decl.key] if decl.key else []) + list(decl.columns)
    if decl.provenance:
        wanted.append(A.Column(decl.provenance, "text", decl.pos))
    for col in wanted:
        if col.name not in header:
            problems.append(Diagnostic(A.Pos(shown, 1, 1),
                                       f"table {decl.name}: column {col.name!r} is missing "
                                       f"(the file has {', '.join(header) or 'no header'})"))
    if problems:
        raise SpecError(problems)
    rows: list[dict[str, Any]] = []
    seen_keys: set[Any] = set()
    for line_no, raw in raw_rows:
        row: dict[str, Any] = {}
        for col in wanted:
            cell = (raw.get(col.name) or "").strip()
            try:
                _printable(cell)
                row[col.name] = _convert(cell, types[col.name], enums, whole_keyed)
            except ValueError as err:
                problems.append(Diagnostic(A.Pos(shown, line_no, header.index(col.name) + 1),
                                           f"table {decl.name}, column {col.name}: {err}"))
        if decl.key and decl.key.name in row:
            key = row[decl.key.name]
            if key in seen_keys:
                problems.append(Diagnostic(A.Pos(shown, line_no, 1),
                                           f"table {decl.name}: key {key!r} appears twice"))
            seen_keys.add(key)
        rows.append(row)
    if problems:
        raise SpecError(at_most(problems, f"table {decl.name}"))
    key_name = decl.key.name if decl.key else ROW_NUMBER
    if not decl.key:
        for number, row in enumerate(rows, start=1):
            row[ROW_NUMBER] = number
    return Table(decl.name, shown, key_name, tuple(c.name for c in decl.columns), tuple(rows),
                 decl.provenance, tuple(line for line, _ in raw_rows))


def at_most(problems: list[Diagnostic], what: str) -> list[Diagnostic]:
    """The first :data:`MAX_TABLE_PROBLEMS` problems of ``what``, and one saying how many more there are."""
    if len(problems) <= MAX_TABLE_PROBLEMS:
        return problems
    last = problems[MAX_TABLE_PROBLEMS]
    more = len(problems) - MAX_TABLE_PROBLEMS
    return [*problems[:MAX_TABLE_PROBLEMS], Diagnostic(last.pos, f"{what}: {more:,} more problem(s) like these")]


#: Characters no cell may hold: control characters (a cell's text becomes words of actions, faces and
#: pages), but for the line breaks and tabs a quoted cell may hold.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _printable(cell: str) -> None:
    """Refuse a cell holding a control character (ValueError naming it)."""
    found = _CONTROL.search(cell)
    if found is not None:
        raise ValueError(f"a control character (U+{ord(found.group()):04X}) in {cell[:40]!r}")


def whole_keyed(tables: Mapping[str, A.TableDecl], type_of: Callable[[str, str], Type | None]) -> frozenset[str]:
    """The tables whose keys are whole numbers: a table without key (its rows are numbered), one whose
    key column is ``int``, and one whose key column names such a table (``type_of``: a column's
    type as the symbols read it, :meth:`~interpreter.symbols.Symbols.column_type`)."""
    def whole(name: str, seen: frozenset[str]) -> bool:
        decl = tables.get(name)
        if decl is None or name in seen:  # an enum, or keys naming each other (the checker reports it)
            return False
        if decl.key is None:
            return True
        t = type_of(name, decl.key.name)
        if isinstance(t, EntityType):
            return whole(t.table, seen | {name})
        return isinstance(t, IntType)
    return frozenset(name for name in tables if whole(name, frozenset()))


def _convert(cell: str, t: Type, enums: dict[str, tuple[str, ...]],
             whole_keyed: Container[str] = frozenset()) -> Any:
    """A cell's value by its column's type (:meth:`~interpreter.symbols.Symbols.column_type`; a row of a
    table of ``whole_keyed`` by its key, a whole number)."""
    match t:
        case IntType():
            try:
                return int(cell)
            except ValueError:
                raise ValueError(f"{cell!r} is not a whole number") from None
        case EntityType(table=name) if name in whole_keyed:
            try:
                return int(cell)
            except ValueError:
                raise ValueError(f"{cell!r} is not a row of {name} (its keys are whole numbers)") from None
        case BoolType():
            if cell.lower() not in _FLAGS:
                raise ValueError(f"{cell!r} is not yes or no")
            return _FLAGS[cell.lower()]
        case ListType():
            return [part.strip() for part in cell.split("+") if part.strip()]
        case EntityType(table=name) if name in enums:
            if cell not in enums[name]:
                raise ValueError(f"{cell!r} is not one of {', '.join(enums[name])}")
            return cell
        case _:
            return cell
