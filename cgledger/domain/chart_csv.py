"""A side's RG chart as CSV and back (DESIGN §15): what players type from
their rulebook's chart pages (8.619-8.6197, 9.617-9.6178, 3.4) into a
spreadsheet, read into the ``rg_chart`` lines of a CG definition (§7, §10).

The columns are the fields of the ruleset's chart line (its ``RGEntry``
subclass), named as in the JSON: ``id``, ``name``, ``cpp``, ``per_date_max``,
``cg_max``, ``fpp``, ``footnotes``, ... A header may spell them in any case,
with spaces or hyphens for the underscores ("CG max"); only ``id``, ``name``
and ``cpp`` are required. A cell:

* a number is a whole number; a yes/no field is ``true`` or ``false``;
* an empty cell leaves the field at its default (``null``, no limit, ``[]``);
* ``footnotes`` and lists of numbers (``units``) hold their items separated by
  spaces ("l a", "3 2"); the other lists (``sw``, ``equipment``,
  ``entry_code``, ...) by ``;`` ("MMG; BAZ45"), since an item may hold spaces
  ("light blue", "PSK/Lt. Mtr");
* surrounding spaces are dropped, and one leading ``'`` too: written cells
  that start with ``=``, ``+``, ``-``, ``@`` or ``'`` get one, so a
  spreadsheet shows the text instead of running it as a formula.

Rows count from 1 after the header (an empty row is skipped but counted, so
row n is the spreadsheet's line n + 1). A bad file is refused with every bad
cell named (:class:`~cgledger.domain.errors.InvalidCells`). Writing a chart
gives back a file that reads as the same lines; a value no cell can carry (a
text with surrounding spaces, a list item holding its separator) is refused
instead of being changed.
"""

from __future__ import annotations

import csv
import io
import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from cgledger.domain.definitions import MAX_RG_PER_SIDE, CGDefinition, RGEntry
from cgledger.domain.errors import InvalidCells, InvalidInput

__all__ = [
    "MAX_CSV_CHARS",
    "Column",
    "chart_columns",
    "definition_of",
    "dumped",
    "line_model",
    "read_chart",
    "side_chart",
    "write_chart",
]

Kind = Literal["int", "bool", "text", "tokens", "ints", "texts"]
#: Lists whose items hold no spaces, written separated by spaces (DESIGN §15:
#: "several footnotes in one cell separated by spaces").
SPACED = frozenset({"footnotes"})
#: The first character of a cell a spreadsheet would run as a formula (and
#: ``'``, the escape itself): a written cell starting with one gets a ``'``.
FORMULA = frozenset("=+-@'")
#: What the messages show of a cell: never more than a short prefix.
SHOWN = 30
#: The longest CSV a chart is read from, in characters: 500 lines of 200
#: (at most 400 KB of UTF-8, well within the server's 1 MiB body limit, so
#: that a longer one is a 422 saying so rather than a 413).
MAX_CSV_CHARS = 100_000


@dataclass(frozen=True)
class Column:
    """A column of the chart: the chart line's field it fills and how."""

    name: str
    kind: Kind
    required: bool
    #: The field's default is ``null`` (an empty cell: ``null``).
    nullable: bool


def _bare(annotation: Any) -> tuple[Any, bool]:
    """The type under ``Annotated`` and ``| None``, and whether ``None`` was there."""
    nullable = False
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
        elif origin in (Union, types.UnionType):
            args = [a for a in get_args(annotation) if a is not type(None)]
            nullable = nullable or len(args) < len(get_args(annotation))
            if len(args) != 1:
                raise TypeError(f"no CSV cell for {annotation!r}")
            annotation = args[0]
        else:
            return annotation, nullable


def _kind(name: str, annotation: Any) -> tuple[Kind, bool]:
    bare, nullable = _bare(annotation)
    if bare is bool:
        return "bool", nullable
    if bare is int:
        return "int", nullable
    if bare is str or get_origin(bare) is Literal:
        return "text", nullable
    if get_origin(bare) in (list, Sequence, typing.Sequence):
        item, _ = _bare(get_args(bare)[0])
        if item is int:
            return "ints", nullable
        if item is str:
            return ("tokens" if name in SPACED else "texts"), nullable
    raise TypeError(f"no CSV cell for the chart line field {name!r} ({annotation!r})")


def chart_columns(line: type[RGEntry]) -> tuple[Column, ...]:
    """The columns of a chart line model, in its fields' order."""
    out = []
    for name, field in line.model_fields.items():
        kind, nullable = _kind(name, field.annotation)
        out.append(Column(name, kind, field.is_required(), nullable))
    return tuple(out)


def definition_of(model: type[BaseModel]) -> type[CGDefinition[Any]]:
    """A ruleset's definition model (``Ruleset.definition``) as what it is."""
    if not issubclass(model, CGDefinition):
        raise TypeError(f"{model.__name__} is no CG definition model")
    return model


def side_chart(model: type[BaseModel], doc: Mapping[str, Any], side: str) -> list[RGEntry]:
    """The chart lines of ``side`` in a definition (``ValidationError`` if it
    is not one of ``model``)."""
    return list(definition_of(model).model_validate(doc).rg_chart.get(side, ()))


def line_model(model: type[BaseModel]) -> type[RGEntry]:
    """The chart line model of a ruleset's definition model (its ``rg_chart``
    maps a side to a sequence of it)."""
    _, lines = get_args(model.model_fields["rg_chart"].annotation)
    sequence, _ = _bare(lines)
    (line,) = get_args(sequence)
    if not (isinstance(line, type) and issubclass(line, RGEntry)):
        raise TypeError(f"{model.__name__}.rg_chart holds no RGEntry lines")
    return line


def _key(header: str) -> str:
    return re.sub(r"[\s-]+", "_", header.strip().lower())


def _shown(text: str) -> str:
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "…")


def _letters(index: int) -> str:
    """A spreadsheet's column letters: 0 -> A, 25 -> Z, 26 -> AA."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(ord("A") + rest) + out
    return out


# ------------------------------------------------------------------ reading


class _Cells:
    """The bad cells found so far: one message per cell, the first found."""

    def __init__(self) -> None:
        self.found: dict[tuple[int, str], dict[str, Any]] = {}

    def bad(self, row: int, column: str) -> bool:
        return (row, column) in self.found

    def add(self, row: int, column: str, position: int | None, message: str) -> None:
        cell = None if position is None else f"{_letters(position)}{row + 1}"
        self.found.setdefault(
            (row, column),
            {
                "row": row,
                "column": column,
                "cell": cell,
                "field": f"csv.{row}.{column}",
                "message": message,
                "position": -1 if position is None else position,
            },
        )

    def refuse(self) -> None:
        """Raise :class:`InvalidCells` naming every bad cell, by row and column."""
        if not self.found:
            return
        listed = sorted(self.found.values(), key=lambda c: (c["row"], c["position"]))
        for cell in listed:
            del cell["position"]
        first, more = listed[0], len(listed) - 1
        at = "the header" if first["row"] == 0 else f"row {first['row']}"
        detail = f"{at}, column {first['column']}: {first['message']}"
        if more:
            detail += f" (and {more} more bad cell{'s' if more > 1 else ''}, listed in cells)"
        raise InvalidCells(detail, listed, field=first["field"])


def _delimiter(first_line: str) -> str:
    """``,`` unless the header is separated by ``;`` or tabs (a spreadsheet's
    export in a locale whose decimal mark is a comma)."""
    counts = {d: first_line.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _int(text: str) -> int:
    if re.fullmatch(r"[+-]?[0-9]{1,9}", text) is None:
        raise ValueError(f"{_shown(text)} is not a whole number")
    return int(text)


def _cell(column: Column, text: str) -> Any:
    """The value of a non-empty cell (``ValueError`` says why it has none)."""
    if column.kind == "int":
        return _int(text)
    if column.kind == "bool":
        word = text.lower()
        if word in ("true", "yes"):
            return True
        if word in ("false", "no"):
            return False
        raise ValueError(f"{_shown(text)} is neither true nor false")
    if column.kind == "text":
        return text
    if column.kind == "texts":
        items = [item.strip() for item in text.split(";")]
        if "" in items:
            raise ValueError("an empty item: items are separated by ';'")
        return items
    items = text.replace(";", " ").split()
    if column.kind == "ints":
        return [_int(item) for item in items]
    return items


def _header(row: Sequence[str], columns: Mapping[str, Column], cells: _Cells) -> list[str | None]:
    """Each header cell's column (``None``: left out), the bad ones named."""
    out: list[str | None] = []
    for position, text in enumerate(row):
        key = _key(text)
        if not key:
            out.append(None)
        elif key not in columns:
            known = ", ".join(columns)
            name = key if len(key) <= SHOWN else key[:SHOWN] + "…"
            cells.add(0, name, position, f"no chart line column {_shown(text)}; columns: {known}")
            out.append(None)
        elif key in out:
            cells.add(0, key, position, f"column {key} is named twice")
            out.append(None)
        else:
            out.append(key)
    for name, column in columns.items():
        if column.required and name not in out:
            cells.add(0, name, None, f"the header must name column {name}")
    return out


def _row(
    n: int,
    row: Sequence[str],
    names: Sequence[str | None],
    columns: Mapping[str, Column],
    cells: _Cells,
) -> dict[str, Any]:
    """The fields of data row ``n``: its non-empty cells, the bad ones named."""
    line: dict[str, Any] = {}
    for position, raw in enumerate(row):
        text = raw.strip()
        text = text[1:].strip() if text.startswith("'") else text
        if not text:
            continue
        if position >= len(names):
            cells.add(n, f"#{position + 1}", position, "a cell right of the header's columns")
            continue
        name = names[position]
        if name is None:
            continue
        try:
            line[name] = _cell(columns[name], text)
        except ValueError as exc:
            cells.add(n, name, position, str(exc))
    return line


def _message(err: Mapping[str, Any], rest: Sequence[Any]) -> str:
    msg = str(err["msg"]).removeprefix("Value error, ")
    if err["type"] == "missing":
        msg = "this column needs a value"
    if rest and isinstance(rest[0], int):
        msg = f"item {rest[0] + 1}: {msg}"
    return msg


def _validated(
    model: type[CGDefinition[Any]],
    side: str | None,
    lines: list[dict[str, Any]],
    rows: list[int],
    positions: Mapping[str, int],
    cells: _Cells,
) -> list[RGEntry]:
    """The lines as the ruleset's model reads them: each line alone, one id
    per line (8.6191), and for a side the checks of that side's chart (those
    that span a line's cells once its cells are valid)."""

    def add(err: Mapping[str, Any], loc: Sequence[Any]) -> None:
        if len(loc) < 2 or not isinstance(loc[0], int):
            raise InvalidInput(f"side: {_message(err, ())}", field="side")
        row, name = rows[loc[0]], str(loc[1])
        if not (err["type"] == "missing" and cells.bad(0, name)):  # else the header's, once
            cells.add(row, name, positions.get(name), _message(err, loc[2:]))

    line = line_model(model)
    found: list[RGEntry] = []
    valid: list[int] = []  # the index of each line that is valid alone
    for i, given in enumerate(lines):
        try:
            found.append(line.model_validate(given))
            valid.append(i)
        except ValidationError as exc:
            for err in exc.errors(include_url=False):
                add(err, (i, *err["loc"]))
    first: dict[str, int] = {}
    for i, given in enumerate(lines):
        named = {k: given[k] for k in ("id", "kg") if k in given}
        if "id" not in named or any(cells.bad(rows[i], k) for k in ("id", "kg")):
            continue
        key = line.model_construct(**named).key
        if key in first:
            why = f"8.6191: RG {key!r} is listed twice (also row {first[key]})"
            cells.add(rows[i], "id", positions.get("id"), why)
        first.setdefault(key, rows[i])
    if side is not None:
        chart = {"rg_chart": {side: [lines[i] for i in valid]}}
        try:
            found = list(model.model_validate(chart).rg_chart[side])
        except ValidationError as exc:
            for err in exc.errors(include_url=False):
                loc = tuple(err["loc"][2:])
                add(err, (valid[loc[0]], *loc[1:]) if loc and isinstance(loc[0], int) else loc)
    return found


def read_chart(text: str, ruleset_model: type[BaseModel], side: str | None = None) -> list[RGEntry]:
    """The chart lines of a CSV text, as the ruleset's ``model`` reads them.
    With a ``side``, the lines are checked as that side's chart (the rules
    that name a side, and one id per line); without, each line alone."""
    model = definition_of(ruleset_model)
    if side is not None and side not in model.SIDES:
        known = ", ".join(model.SIDES)
        raise InvalidInput(f"side: unknown side {side!r}; sides are {known}", field="side")
    allowed = model.PURCHASING_SIDES
    if side is not None and allowed is not None and side not in allowed:
        raise InvalidInput(
            f"side: {side} purchases no RG here; only {', '.join(allowed)} has an RG chart",
            field="side",
        )
    columns = {c.name: c for c in chart_columns(line_model(model))}
    text = text.removeprefix("\ufeff")
    if len(text) > MAX_CSV_CHARS:
        why = f"csv: {len(text)} characters; a chart is read from at most {MAX_CSV_CHARS}"
        raise InvalidInput(why, field="csv")
    delimiter = _delimiter(text.partition("\n")[0])
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    try:
        records = list(reader)
    except csv.Error as exc:
        why = f"csv: not a CSV file ({exc}, line {reader.line_num})"
        raise InvalidInput(why, field="csv") from None
    if not records or not any(c.strip() for c in records[0]):
        raise InvalidInput("csv: the first row must be a header naming the columns", field="csv")
    filled = [(n, r) for n, r in enumerate(records[1:], start=1) if any(c.strip() for c in r)]
    if len(filled) > MAX_RG_PER_SIDE:
        raise InvalidInput(
            f"csv: {len(filled)} chart lines; a side's chart has at most {MAX_RG_PER_SIDE}",
            field="csv",
        )
    cells = _Cells()
    names = _header(records[0], columns, cells)
    lines = [_row(n, r, names, columns, cells) for n, r in filled]
    positions = {name: p for p, name in enumerate(names) if name is not None}
    found = _validated(model, side, lines, [n for n, _ in filled], positions, cells)
    cells.refuse()
    return found


def dumped(lines: Sequence[BaseModel]) -> list[dict[str, Any]]:
    """Chart lines as JSON, without the fields at their defaults."""
    return [line.model_dump(mode="json", exclude_defaults=True) for line in lines]


# ------------------------------------------------------------------ writing


def _written(column: Column, value: Any, field: str) -> str:
    """The cell text of a value, or ``InvalidInput`` naming ``field`` when no
    cell reads back as it."""

    def refuse(why: str) -> InvalidInput:
        return InvalidInput(f"{field}: {why}: a CSV cell cannot keep it", field=field)

    if value is None:
        return ""
    if column.kind == "bool":
        return "true" if value else "false"
    if column.kind == "int":
        return str(value)
    if column.kind == "ints":
        text = " ".join(str(v) for v in value)
    elif column.kind == "text":
        text = value
    else:
        if column.nullable and not value:
            raise refuse("an empty list, which an empty cell would read as null")
        separator = " " if column.kind == "tokens" else "; "
        for item in value:
            spaced = column.kind == "tokens" and any(c.isspace() for c in item)
            if not item or item != item.strip() or ";" in item or spaced:
                raise refuse(
                    f"the item {_shown(item)} is empty, has surrounding spaces or holds a "
                    "separator (';', or a space between footnotes)"
                )
        text = separator.join(value)
    if text != text.strip():
        raise refuse(f"{_shown(text)} has surrounding spaces")
    return "'" + text if text[:1] in FORMULA else text


def write_chart(lines: Sequence[RGEntry], line: type[RGEntry], where: str) -> str:
    """The CSV of chart lines of the model ``line``: a header of ``id``,
    ``name``, ``cpp`` and every column some line sets, then a row per line.
    ``where`` names the lines in an error (``rg_chart.US``)."""
    columns = chart_columns(line)
    defaults = {
        name: field.get_default(call_default_factory=True)
        for name, field in line.model_fields.items()
    }
    used = [
        c
        for c in columns
        if c.required or any(getattr(entry, c.name) != defaults[c.name] for entry in lines)
    ]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([c.name for c in used])
    for i, entry in enumerate(lines):
        writer.writerow(
            [_written(c, getattr(entry, c.name), f"{where}.{i}.{c.name}") for c in used]
        )
    return out.getvalue()
