"""The shape of the code (DESIGN §6, binding): module budgets, what may import
what, one dispatch table, and each component of the campaign assigning only
its own slice of the state. When one fails, split by concern: never raise a
number here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cgledger.domain.campaign import aggregate
from cgledger.domain.campaign.core import OWNERS, READS
from cgledger.domain.rulesets import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "cgledger"
AGGREGATE = PKG / "domain" / "campaign" / "aggregate.py"
MODULES = sorted(p for p in PKG.rglob("*.py") if ".venv" not in p.parts)
RULESETS = ("kgp", "abtf", "sg")


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _imports(path: Path) -> list[str]:
    """Every module ``path`` imports, absolute (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.append(".".join([*base, *([node.module] if node.module else [])]))
            else:
                found.append(node.module or "")
            found += [f"{found[-1]}.{a.name}" for a in node.names]
    return found


def test_the_budgets_hold() -> None:
    over = []
    for path in MODULES:
        limit = 1100 if path.name.startswith("tables") and "rulesets" in path.parts else 500
        if path == AGGREGATE:
            limit = 400
        if _lines(path) > limit:
            over.append(f"{path.relative_to(ROOT)}: {_lines(path)} lines (budget {limit})")
    assert not over, "split by concern, never raise the number:\n" + "\n".join(over)


def test_the_aggregate_is_a_package_of_components() -> None:
    assert not (PKG / "domain" / "campaign.py").exists()
    assert AGGREGATE.exists()
    assert _lines(AGGREGATE) <= 400


@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [
        ("api", ("cgledger.domain.campaign",)),
        (
            "domain",
            (
                "fastapi", "starlette", "uvicorn", "httpx", "httpx2", "sqlite3", "psycopg",
                "cgledger.api", "cgledger.service", "cgledger.projections", "cgledger.web",
            ),
        ),
        ("projections", ("fastapi", "starlette", "uvicorn", "cgledger.api", "cgledger.service")),
    ],
)  # fmt: skip
def test_what_a_layer_may_import(layer: str, forbidden: tuple[str, ...]) -> None:
    hits = []
    for path in (PKG / layer).rglob("*.py"):
        for name in _imports(path):
            if any(name == f or name.startswith(f"{f}.") for f in forbidden):
                hits.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not hits, "\n".join(sorted(set(hits)))


@pytest.mark.parametrize("ruleset", [*RULESETS, "cpp"])
def test_no_ruleset_imports_another(ruleset: str) -> None:
    """A ruleset imports no other; ``cpp`` (the CPP roster and purchases that
    KGP, ABtF and SG share) imports none of them."""
    others = [f"cgledger.domain.rulesets.{o}" for o in RULESETS if o != ruleset]
    hits = []
    for path in (PKG / "domain" / "rulesets" / ruleset).rglob("*.py"):
        for name in _imports(path):
            if any(name == o or name.startswith(f"{o}.") for o in others):
                hits.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not hits, "share through a package that names no ruleset:\n" + "\n".join(hits)


def test_no_handler_is_found_by_building_its_name() -> None:
    for path in (PKG / "domain").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert 'getattr(self, f"_on_' not in text, path
        assert "getattr(self, '_on_" not in text, path


def test_every_event_has_its_handlers_in_the_one_table() -> None:
    """Every event the aggregate triggers is in DISPATCH, and every handler
    there is an apply function of a component (its module owns a slice)."""
    triggered = set(aggregate._TRIGGERS) | {"RePhAdvanced", "ControlRecorded", "ScenarioEnded"}
    missing = sorted(t for t in triggered if t not in aggregate.DISPATCH)
    assert not missing
    for handlers in [*aggregate.DISPATCH.values(), aggregate.RULE_EVENT, aggregate.ROLLED]:
        for handler in handlers:
            assert handler.__name__.startswith("_on_"), handler
            owner = handler.__module__.rsplit(".", 1)[-1]
            assert owner in OWNERS, f"{handler.__qualname__} is not a component's"


def test_every_state_handler_declares_what_it_reads() -> None:
    state = set().union(*(rs.rules.state_events for rs in REGISTRY.values()))
    for kind in {*aggregate.undobook.STATE_EVENTS, "TableRolled"}:
        for handler in aggregate.DISPATCH[kind]:
            assert handler.__qualname__ in READS, f"{handler.__qualname__} declares no reads"
    assert state, "the rulesets have state events"
    for handler in aggregate.RULE_EVENT:
        assert handler.__qualname__ in READS


#: Methods of a container that change it.
_MUTATORS = {
    "append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault",
    "add", "discard", "sort", "reverse",
}  # fmt: skip


def _written(tree: ast.AST) -> dict[str, set[str]]:
    """By method: the ``self.<slice>`` each one assigns, or changes in place."""
    out: dict[str, set[str]] = {}

    def slice_of(node: ast.AST) -> str | None:
        while isinstance(node, ast.Subscript):
            node = node.value
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            return node.attr
        return None

    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        found = out.setdefault(fn.name, set())
        for node in ast.walk(fn):
            targets: list[ast.AST] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            elif isinstance(node, ast.Delete):
                targets = list(node.targets)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in _MUTATORS
            ):
                targets = [node.func.value]
            for target in targets:
                for t in target.elts if isinstance(target, ast.Tuple) else [target]:
                    name = slice_of(t)
                    if name is not None:
                        found.add(name)
    return out


COMPONENTS = sorted(
    p for p in (PKG / "domain" / "campaign").glob("*.py") if p.stem not in ("__init__",)
)


@pytest.mark.parametrize("path", COMPONENTS, ids=lambda p: p.stem)
def test_a_component_assigns_only_its_own_slice(path: Path) -> None:
    slices = {s for names in OWNERS.values() for s in names}
    own = set(OWNERS.get(path.stem, ()))
    wrong = []
    for method, written in _written(ast.parse(path.read_text(encoding="utf-8"))).items():
        if path == AGGREGATE and method in ("__init__", "_reset_state"):
            continue  # the aggregate lays out every slice, as created
        for name in written & slices:
            if name not in own:
                wrong.append(f"{path.stem}.{method} assigns {name} (owned by another component)")
    assert not wrong, "\n".join(wrong)


def test_every_slice_has_one_owner() -> None:
    names = [s for owned in OWNERS.values() for s in owned]
    assert len(names) == len(set(names))
