"""``cgledger definition …``: the authoring tools of DESIGN §15 from the shell,
without a server (docs/authoring.md).

* ``chart-from-csv FILE --ruleset R [--side S]``: a chart typed in a
  spreadsheet, as ``rg_chart`` lines (JSON);
* ``chart-to-csv FILE --ruleset R --side S``: a definition's chart of a side,
  as CSV;
* ``map-from-grid [FILE] [--id ID --columns A-GG --rows 1-10 ...]``: a map
  group of every hex of a grid (FILE: the body of ``POST
  /v1/definition-tools/map-group``);
* ``map-from-vasl FILE [--id ID] [--title T] [--terrain-types FILE]
  [--map-group]``: a map group of a VASL board archive, with each hex's
  readings (``POST /v1/definition-tools/vasl-board``), or the map group alone;
* ``validate FILE --ruleset R``: every problem of a definition, or a summary;
* ``hash FILE --ruleset R``: the sha256 a campaign records for it
  (``definition_hash`` of DESIGN §7).

A FILE of ``-`` is the standard input. The answer is JSON on the standard
output (CSV for ``chart-to-csv``); a problem goes to the standard error and
the exit status is 1.
"""

# The domain is imported when a command runs: ``cgledger --help`` stays quick.
# ruff: noqa: PLC0415

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cgledger.api.limits import BodyRefused, parse_json_body


class Problem(Exception):
    """What the command could not do; each line of ``lines`` goes to stderr."""

    def __init__(self, *lines: str) -> None:
        super().__init__(lines[0] if lines else "")
        self.lines = lines


def _read(name: str) -> str:
    try:
        if name == "-":
            return sys.stdin.read()
        return Path(name).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise Problem(f"cannot read {name}: {exc}") from None


def _bytes(name: str) -> bytes:
    try:
        return sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError as exc:
        raise Problem(f"cannot read {name}: {exc}") from None


def _json(name: str) -> Any:
    """The file as the server reads a request's JSON (``parse_json_body``:
    ``5.0`` is the integer 5), so that a file hashes as a campaign made with it."""
    try:
        return parse_json_body(_bytes(name))
    except BodyRefused as exc:
        raise Problem(f"{name} is not JSON: {exc}") from None


def _definition(name: str) -> Any:
    """A definition file, or the answer of ``GET /v1/campaigns/{id}/definition``."""
    doc = _json(name)
    if isinstance(doc, dict) and "definition" in doc and "hash" in doc:
        return doc["definition"]
    return doc


def _ruleset(ruleset_id: str) -> Any:
    from cgledger.domain.rulesets import REGISTRY

    found = REGISTRY.get(ruleset_id)
    if found is None:
        raise Problem(f"unknown ruleset {ruleset_id!r}; known: {', '.join(REGISTRY)}")
    return found


def _refused(exc: Any) -> Problem:
    """A domain error, with every bad cell of a CSV on a line of its own."""
    cells = exc.extra().get("cells", [])
    lines = [
        f"{'header' if c['row'] == 0 else 'row ' + str(c['row'])}, column {c['column']}"
        f"{' (' + c['cell'] + ')' if c['cell'] else ''}: {c['message']}"
        for c in cells
    ]
    return Problem(*(lines or [exc.detail]))


def _print(value: Any) -> None:
    """JSON, each member of the top object on its lines and each item of a
    list of objects (hexes, chart lines) on one line, also in an object
    that holds such a list (a map group in an answer): a map group of 1,200
    hexes stays 1,200 lines to read and edit."""

    def one(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False)

    def rows(v: Any) -> bool:
        return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)

    def member(v: Any, pad: str) -> str:
        if rows(v):
            return "[\n" + ",\n".join(f"{pad}  {one(x)}" for x in v) + f"\n{pad}]"
        if isinstance(v, dict) and any(rows(x) for x in v.values()):
            return whole(v, pad)
        return one(v)

    def whole(v: dict[str, Any], pad: str) -> str:
        inner = pad + "  "
        body = ",\n".join(f"{inner}{one(k)}: {member(x, inner)}" for k, x in v.items())
        return "{\n" + body + f"\n{pad}}}"

    if not isinstance(value, dict) or not value:
        sys.stdout.write(one(value) + "\n")
        return
    sys.stdout.write(whole(value, "") + "\n")


def chart_from_csv(args: argparse.Namespace) -> None:
    from cgledger.domain import chart_csv

    rs = _ruleset(args.ruleset)
    lines = chart_csv.read_chart(_read(args.file), rs.definition, args.side)
    _print({"ruleset": rs.id, "side": args.side, "lines": chart_csv.dumped(lines)})


def chart_to_csv(args: argparse.Namespace) -> None:
    from cgledger.domain import chart_csv
    from cgledger.domain.campaign.core import validated_definition

    rs = _ruleset(args.ruleset)
    if args.side not in rs.sides:
        raise Problem(f"unknown side {args.side!r}; {rs.id}'s sides are {', '.join(rs.sides)}")
    doc = validated_definition(rs, _definition(args.file))
    lines = chart_csv.side_chart(rs.definition, doc, args.side)
    model = chart_csv.line_model(rs.definition)
    sys.stdout.write(chart_csv.write_chart(lines, model, f"definition.rg_chart.{args.side}"))


def map_from_grid(args: argparse.Namespace) -> None:
    from pydantic import ValidationError

    from cgledger.domain.map_grid import MapGrid, map_group_from_grid, parse_rows

    if args.file is not None:
        body = _json(args.file)
    else:
        if args.id is None or args.columns is None or args.rows is None:
            raise Problem("give a FILE, or --id, --columns and --rows")
        try:
            rows = parse_rows(args.rows)
        except ValueError as exc:
            raise Problem(f"--rows: {exc}") from None
        body = {
            "id": args.id,
            "title": args.title,
            "columns": args.columns,
            "rows": rows,
            "first_column_offset": args.first_column_offset,
        }
    try:
        grid = MapGrid.model_validate(body)
    except ValidationError as exc:
        raise Problem(*_errors(exc)) from None
    _print(map_group_from_grid(grid))


def map_from_vasl(args: argparse.Namespace) -> None:
    from cgledger.domain.vasl_board import import_board, map_group_of

    terrain = None if args.terrain_types is None else _bytes(args.terrain_types)
    answer = import_board(
        _bytes(args.file),
        where=args.file,
        terrain=terrain,
        terrain_where=str(args.terrain_types),
        map_id=args.id,
        title=args.title,
    )
    if args.map_group:
        _print(map_group_of(answer))
        return
    for note in answer["notes"]:
        print(f"cgledger definition {args.tool}: note: {note}", file=sys.stderr)
    _print(answer)


def _errors(exc: Any, prefix: tuple[str, ...] = ()) -> list[str]:
    """Every error of a pydantic ``ValidationError``, as ``field: message``."""
    out = []
    for err in exc.errors(include_url=False):
        where = ".".join(str(part) for part in (*prefix, *err["loc"])) or "(top)"
        msg = str(err["msg"]).removeprefix("Value error, ")
        out.append(f"{where}: {msg}")
    return out


def validate(args: argparse.Namespace) -> None:
    from pydantic import ValidationError

    from cgledger.domain.definitions import definition_hash

    rs = _ruleset(args.ruleset)
    try:
        model = rs.definition.model_validate(_definition(args.file))
    except ValidationError as exc:
        raise Problem(*_errors(exc)) from None
    doc = model.model_dump(mode="json")
    _print(
        {
            "valid": True,
            "ruleset": rs.id,
            "hash": definition_hash(doc),
            "sample": model.sample,
            "rg_chart": {side: len(lines) for side, lines in model.rg_chart.items()},
            "map_groups": {g.id: len(g.hexes) for g in model.map_groups},
        }
    )


def hash_command(args: argparse.Namespace) -> None:
    from cgledger.domain.campaign.core import validated_definition
    from cgledger.domain.definitions import definition_hash

    rs = _ruleset(args.ruleset)
    doc = validated_definition(rs, _definition(args.file))
    _print({"ruleset": rs.id, "hash": definition_hash(doc)})


def _run(args: argparse.Namespace) -> int:
    from cgledger.domain.errors import DomainError

    try:
        args.run(args)
    except Problem as exc:
        for line in exc.lines:
            print(f"cgledger definition {args.tool}: {line}", file=sys.stderr)
        return 1
    except DomainError as exc:
        for line in _refused(exc).lines:
            print(f"cgledger definition {args.tool}: {line}", file=sys.stderr)
        return 1
    return 0


def add_commands(sub: Any) -> None:
    parser = sub.add_parser(
        "definition",
        help="author a CG definition: chart from CSV, map from a grid or a VASL board, "
        "validate, hash (docs/authoring.md)",
    )
    tools = parser.add_subparsers(dest="tool", required=True, metavar="TOOL")
    parser.set_defaults(func=_run)

    def tool(name: str, run: Any, help_text: str, file_help: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = tools.add_parser(name, help=help_text)
        p.add_argument("file", metavar="FILE", help=file_help + " ('-': standard input)")
        p.set_defaults(run=run)
        return p

    def ruleset(p: argparse.ArgumentParser) -> None:
        p.add_argument("--ruleset", required=True, help="the ruleset's id (GET /v1/rulesets)")

    p = tool(
        "chart-from-csv",
        chart_from_csv,
        "a chart typed in a spreadsheet, as JSON lines",
        "a CSV file: a header naming the columns, a row per chart line",
    )
    ruleset(p)
    p.add_argument("--side", default=None, help="check the lines as this side's chart")
    p = tool(
        "chart-to-csv",
        chart_to_csv,
        "a definition's chart of a side, as CSV",
        "a CG definition (JSON)",
    )
    ruleset(p)
    p.add_argument("--side", required=True, help="the side whose chart to write")
    grid = tools.add_parser("map-from-grid", help="a map group of every hex of a grid")
    grid.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="a grid as POST /v1/definition-tools/map-group takes it (several boards: "
        "'boards'); or use the options",
    )
    grid.add_argument("--id", help="the map group's id, e.g. St")
    grid.add_argument("--title", default="", help="its title")
    grid.add_argument("--columns", help="first and last column, e.g. A-GG")
    grid.add_argument("--rows", help="first and last row of column A's kind, e.g. 1-10")
    grid.add_argument(
        "--first-column-offset",
        type=int,
        choices=(0, 1),
        default=0,
        help="1: column A is of the second kind (B's: one row more, row 0 on top)",
    )
    grid.set_defaults(run=map_from_grid)
    p = tool(
        "map-from-vasl",
        map_from_vasl,
        "a map group of a VASL board archive, with each hex's readings",
        "a VASL board archive (a zip holding BoardMetadata.xml, and LOSData if the board has one)",
    )
    p.add_argument("--id", default=None, help="the map group's id (default: the board's name)")
    p.add_argument("--title", default=None, help="its title (default: 'VASL board <name>')")
    p.add_argument(
        "--terrain-types",
        default=None,
        metavar="FILE",
        help="VASL's terrain types: its SharedBoardMetadata.xml, or VASL's module (.vmod) "
        "holding it; they name LOSData's terrain codes (default: the archive's own, if any)",
    )
    p.add_argument(
        "--map-group",
        action="store_true",
        help="print only the map group (for a definition's map_groups), without the readings",
    )
    p = tool(
        "validate",
        validate,
        "every problem of a CG definition, or a summary",
        "a CG definition (JSON)",
    )
    ruleset(p)
    p = tool(
        "hash",
        hash_command,
        "the sha256 a campaign records for a definition",
        "a CG definition (JSON)",
    )
    ruleset(p)
