"""CG definitions (DESIGN §7, §9, §10): the models, the synthetic samples,
JSON Merge Patch (RFC 7396) and the definition hash."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from cgledger.domain.definitions import (
    CGDefinition,
    asl_axial,
    definition_hash,
    definition_model,
    hex_entry,
    merge_patch,
)
from cgledger.domain.dice import canon
from cgledger.domain.rulesets.abtf import definition as abtf_def
from cgledger.domain.rulesets.abtf.ruleset import RULESET as ABTF
from cgledger.domain.rulesets.kgp import definition as kgp_def
from cgledger.domain.rulesets.kgp.ruleset import RULESET as KGP
from cgledger.domain.rulesets.sg import definition as sg_def
from cgledger.domain.rulesets.sg.ruleset import RULESET as SG

MODULES = {"kgp": kgp_def, "abtf": abtf_def, "sg": sg_def}
RULESETS = {"kgp": KGP, "abtf": ABTF, "sg": SG}
IDS = list(MODULES)


@pytest.fixture(params=IDS)
def rs(request: pytest.FixtureRequest) -> ModuleType:
    module: ModuleType = MODULES[request.param]
    return module


def _sample(mod: ModuleType) -> dict[str, Any]:
    doc: dict[str, Any] = copy.deepcopy(mod.SAMPLE)
    return doc


def _buyer(mod: ModuleType) -> str:
    """The first side with an RG chart in the sample."""
    side: str = next(s for s, entries in mod.SAMPLE["rg_chart"].items() if entries)
    return side


def _errors(model: type[BaseModel], doc: Any) -> list[ErrorDetails]:
    with pytest.raises(ValidationError) as exc:
        model.model_validate(doc)
    return exc.value.errors(include_url=False)


def _subset(small: Any, big: Any) -> bool:
    """Every member ``small`` sets is in ``big`` with the same value."""
    if isinstance(small, dict):
        return isinstance(big, dict) and all(
            k in big and _subset(v, big[k]) for k, v in small.items()
        )
    if isinstance(small, list):
        return (
            isinstance(big, list)
            and len(small) == len(big)
            and all(_subset(a, b) for a, b in zip(small, big, strict=True))
        )
    return type(small) is type(big) and small == big


# ------------------------------------------------------------------ samples


def test_sides_agree_with_the_ruleset(rs: ModuleType) -> None:
    ruleset = RULESETS[next(k for k, v in MODULES.items() if v is rs)]
    assert rs.MODEL.SIDES == ruleset.sides == rs.SIDES
    assert ruleset.definition is rs.MODEL
    assert ruleset.sample_definition is rs.SAMPLE
    assert issubclass(rs.MODEL, CGDefinition)


def test_sample_is_marked_synthetic(rs: ModuleType) -> None:
    assert rs.SAMPLE["sample"] is True
    notes = rs.SAMPLE["notes"].lower()
    assert "synthetic" in notes
    assert "publisher" in notes
    assert "type in their own" in notes


def test_sample_exercises_the_fields(rs: ModuleType) -> None:
    model = rs.MODEL.model_validate(rs.SAMPLE)
    assert any(model.rg_chart.values())
    assert all(len(entries) >= 3 for entries in model.rg_chart.values() if entries)
    # FPP (8.619, 9.617); SG has no Fortification Purchase Table, so no FPP line.
    assert any(e.fpp for entries in model.rg_chart.values() for e in entries) is (rs is not sg_def)
    group, *bigger = model.map_groups
    assert 10 <= len(group.hexes) <= 20
    assert sum(h.strategic for h in group.hexes) >= 2
    assert any(not h.enterable for h in group.hexes)
    assert any(len(h.levels) > 1 for h in group.hexes)
    assert {a.side for a in group.entry_areas} == set(rs.SIDES)
    assert group.initial_control
    if rs is not sg_def:  # SG has no Initiative chits and scores VP, not LVP
        assert set(model.attack_chits) == set(rs.SIDES)
        assert set(model.rg_chart) == set(rs.SIDES)
        assert sum(h.lvp for h in group.hexes) > 0
        # Issue 14: a map group at the size of a real one, with buildings of
        # upper levels and two Eligible Entry Areas per side (ABtF: Blocks A-H).
        (big,) = bigger
        assert len(big.hexes) >= 1200
        assert sum(h.strategic for h in big.hexes) >= 60
        assert any(h.levels == [0, 1, 2] and h.building for h in big.hexes)
        for side in rs.SIDES:
            assert sum(a.side == side for a in big.entry_areas) == 2
        if rs is abtf_def:
            assert {h.block for h in big.hexes if h.block} == set("ABCDEFGH")
            assert any(h.strategic for h in big.hexes if h.block == "H")


def test_sample_round_trips(rs: ModuleType) -> None:
    model = rs.MODEL.model_validate(rs.SAMPLE)
    dump = model.model_dump(mode="json")
    assert _subset(rs.SAMPLE, dump)
    assert rs.MODEL.model_validate(dump) == model
    assert rs.MODEL.model_validate(dump).model_dump(mode="json") == dump
    lean = model.model_dump(mode="json", exclude_none=True)
    assert rs.MODEL.model_validate(lean) == model
    assert rs.MODEL.model_validate_json(json.dumps(rs.SAMPLE)) == model
    # The stored form hashes the same after a trip through JSON.
    assert definition_hash(json.loads(json.dumps(dump))) == definition_hash(dump)


def test_sample_is_not_changed_by_validation(rs: ModuleType) -> None:
    before = copy.deepcopy(rs.SAMPLE)
    rs.MODEL.model_validate(rs.SAMPLE)
    assert before == rs.SAMPLE


def test_sample_axial_coordinates_are_consistent(rs: ModuleType) -> None:
    for group in rs.SAMPLE["map_groups"]:
        for h in group["hexes"]:
            assert (h["q"], h["r"]) == asl_axial(h["hex"])


def test_json_schema(rs: ModuleType) -> None:
    schema = rs.MODEL.model_json_schema()
    assert isinstance(schema, dict)
    json.dumps(schema)
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    for name in ("sample", "title", "notes", "attack_chits", "rg_chart", "map_groups"):
        assert name in schema["properties"]
    assert schema["properties"]["attack_chits"]["propertyNames"] == {"enum": list(rs.SIDES)}

    def strings(node: Any) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        if isinstance(node, dict):
            if node.get("type") == "string":
                found.append(node)
            for value in node.values():
                found.extend(strings(value))
        elif isinstance(node, list):
            for value in node:
                found.extend(strings(value))
        return found

    found = strings(schema)
    assert found
    # DESIGN §11: every string field has a maximum length (or is an enum).
    assert all("maxLength" in s or "enum" in s for s in found), found


def test_augmented_amendment_validates(rs: ModuleType) -> None:
    """The DESIGN §7 amendment example applies to the stored form."""
    doc = rs.MODEL.model_validate(rs.SAMPLE).model_dump(mode="json")
    side = rs.SIDES[-1]
    amended = merge_patch(doc, {"attack_chits": {side: 4}})
    assert rs.MODEL.model_validate(amended).attack_chits[side] == 4
    removed = merge_patch(doc, {"map_groups": None, "title": None, "sudden_death_blocks": None})
    model = rs.MODEL.model_validate(removed)
    assert model.map_groups == []
    assert model.title == ""


# ------------------------------------------------------------------ refusals


def _dup_rg(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    chart = doc["rg_chart"][side]
    chart.append(copy.deepcopy(chart[0]))
    return ("rg_chart", side, len(chart) - 1, "id")


def _negative_cost(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["rg_chart"][side][0]["cpp"] = -1
    return ("rg_chart", side, 0, "cpp")


def _zero_date_max(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["rg_chart"][side][1]["per_date_max"] = 0
    return ("rg_chart", side, 1, "per_date_max")


def _bad_rg_id(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["rg_chart"][side][0]["id"] = "i-2"
    return ("rg_chart", side, 0, "id")


def _long_rg_name(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["rg_chart"][side][0]["name"] = "x" * 201
    return ("rg_chart", side, 0, "name")


def _unknown_side_chits(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["attack_chits"]["Martian"] = 2
    return ("attack_chits", "Martian", "[key]")


def _unknown_side_chart(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["rg_chart"]["Martian"] = []
    return ("rg_chart", "Martian", "[key]")


def _unknown_side_area(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["map_groups"][0]["entry_areas"][0]["side"] = "Martian"
    return ("map_groups", 0, "entry_areas", 0, "side")


def _unknown_side_control(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["map_groups"][0]["initial_control"]["B2"] = "Martian"
    return ("map_groups", 0, "initial_control", "B2")


def _unknown_side_hq(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["map_groups"][0]["hq"] = {"Martian": "B2"}
    return ("map_groups", 0, "hq", "Martian", "[key]")


def _dup_hex(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    hexes = doc["map_groups"][0]["hexes"]
    hexes.append({**hexes[0], "q": 99, "r": 99})
    return ("map_groups", 0, "hexes", len(hexes) - 1, "hex")


def _dup_coordinates(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    hexes = doc["map_groups"][0]["hexes"]
    hexes.append({**hexes[0], "hex": "Z9"})
    return ("map_groups", 0, "hexes", len(hexes) - 1, "q")


def _area_hex_off_map(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    area = doc["map_groups"][0]["entry_areas"][1]
    area["hexes"].append("Z9")
    return ("map_groups", 0, "entry_areas", 1, "hexes", len(area["hexes"]) - 1)


def _hq_off_map(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["map_groups"][0]["hq"] = {side: "Z9"}
    return ("map_groups", 0, "hq", side)


def _control_off_map(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["map_groups"][0]["initial_control"]["Z9"] = side
    return ("map_groups", 0, "initial_control", "Z9")


def _dup_map_group(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["map_groups"].append(copy.deepcopy(doc["map_groups"][0]))
    return ("map_groups", len(doc["map_groups"]) - 1, "id")


def _dup_level(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["map_groups"][0]["hexes"][2]["levels"] = [0, 1, 1]
    return ("map_groups", 0, "hexes", 2, "levels", 2)


def _string_for_int(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["map_groups"][0]["hexes"][0]["q"] = "3"
    return ("map_groups", 0, "hexes", 0, "q")


def _string_for_int_chits(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["attack_chits"][side] = "3"
    return ("attack_chits", side)


def _bool_for_int(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["rg_chart"][side][0]["cpp"] = True
    return ("rg_chart", side, 0, "cpp")


def _string_for_bool(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["sample"] = "true"
    return ("sample",)


def _extra_field(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["colour"] = "red"
    return ("colour",)


def _extra_hex_field(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["map_groups"][0]["hexes"][0]["height"] = 2
    return ("map_groups", 0, "hexes", 0, "height")


def _long_title(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["title"] = "x" * 201
    return ("title",)


def _long_notes(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["notes"] = "x" * 2001
    return ("notes",)


def _long_hex_id(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["map_groups"][0]["hexes"][0]["hex"] = "A" * 21
    return ("map_groups", 0, "hexes", 0, "hex")


def _negative_lvp(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["map_groups"][0]["hexes"][0]["lvp"] = -1
    return ("map_groups", 0, "hexes", 0, "lvp")


def _empty_area(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["map_groups"][0]["entry_areas"][0]["hexes"] = []
    return ("map_groups", 0, "entry_areas", 0, "hexes")


def _list_for_chart(doc: dict[str, Any], side: str) -> tuple[Any, ...]:
    doc["rg_chart"] = [doc["rg_chart"][side]]
    return ("rg_chart",)


Mutation = Callable[[dict[str, Any], str], tuple[Any, ...]]
BAD: dict[str, Mutation] = {
    "duplicate RG id": _dup_rg,
    "negative cost": _negative_cost,
    "per-date max of 0": _zero_date_max,
    "bad RG id": _bad_rg_id,
    "over-long RG name": _long_rg_name,
    "unknown side in attack_chits": _unknown_side_chits,
    "unknown side in rg_chart": _unknown_side_chart,
    "unknown side of an entry area": _unknown_side_area,
    "unknown side in initial_control": _unknown_side_control,
    "unknown side in hq": _unknown_side_hq,
    "duplicate hex": _dup_hex,
    "duplicate coordinates": _dup_coordinates,
    "entry-area hex not in its map group": _area_hex_off_map,
    "hq hex not in its map group": _hq_off_map,
    "initial_control hex not in its map group": _control_off_map,
    "duplicate map group": _dup_map_group,
    "duplicate level": _dup_level,
    "string for an int": _string_for_int,
    "string for an int (attack chits)": _string_for_int_chits,
    "bool for an int": _bool_for_int,
    "string for a bool": _string_for_bool,
    "unknown extra field": _extra_field,
    "unknown extra field in a hex": _extra_hex_field,
    "over-long title": _long_title,
    "over-long notes": _long_notes,
    "over-long hex id": _long_hex_id,
    "negative lvp": _negative_lvp,
    "empty entry area": _empty_area,
    "list for the rg_chart object": _list_for_chart,
}


@pytest.mark.parametrize("case", list(BAD))
@pytest.mark.parametrize("ruleset", IDS)
def test_bad_definition_is_refused_naming_the_field(ruleset: str, case: str) -> None:
    mod = MODULES[ruleset]
    doc = _sample(mod)
    loc = BAD[case](doc, _buyer(mod))
    errors = _errors(mod.MODEL, doc)
    assert [e["loc"] for e in errors] == [loc], errors


def test_errors_found_together_are_reported_together() -> None:
    doc = _sample(kgp_def)
    _area_hex_off_map(doc, "US")
    _hq_off_map(doc, "German")
    _dup_hex(doc, "US")
    locs = {e["loc"] for e in _errors(kgp_def.MODEL, doc)}
    assert locs == {
        ("map_groups", 0, "hexes", 16, "hex"),
        ("map_groups", 0, "entry_areas", 1, "hexes", 3),
        ("map_groups", 0, "hq", "German"),
    }


def test_duplicate_rg_message_cites_the_rule() -> None:
    doc = _sample(kgp_def)
    _dup_rg(doc, "US")
    (err,) = _errors(kgp_def.MODEL, doc)
    assert err["msg"].startswith("8.6191: RG 'I1' is listed twice")


def test_same_rg_id_on_both_sides_is_fine(rs: ModuleType) -> None:
    doc = _sample(rs)
    side = _buyer(rs)
    other = next(s for s in rs.SIDES if s != side)
    doc["rg_chart"][other] = copy.deepcopy(doc["rg_chart"][side][:1])
    doc["rg_chart"][other][0].pop("entry_code", None)  # KGP 8.6197: U.S. only
    if rs is abtf_def:
        doc["rg_chart"][other][0]["kg"] = "Q"
    if rs is sg_def:
        # 3.4: the German buys nothing in SG; that is the one error, and it is
        # not about the RG id the two charts share.
        (err,) = _errors(rs.MODEL, doc)
        assert (err["loc"], err["type"]) == (("rg_chart", other), "no_purchases"), err
        assert err["msg"] == f"{other} purchases no RG here; only {side} has an RG chart"
    else:
        rs.MODEL.model_validate(doc)


# ------------------------------------------------------------------ per ruleset


def test_kgp_entry_code_is_us_only() -> None:
    doc = _sample(kgp_def)
    doc["rg_chart"]["German"][0]["entry_code"] = ["grey"]
    assert [e["loc"] for e in _errors(kgp_def.MODEL, doc)] == [
        ("rg_chart", "German", 0, "entry_code")
    ]
    doc = _sample(kgp_def)
    doc["map_groups"][0]["entry_areas"][1]["entry_codes"] = ["red"]
    assert [e["loc"] for e in _errors(kgp_def.MODEL, doc)] == [
        ("map_groups", 0, "entry_areas", 1, "entry_codes")
    ]


def test_kgp_entry_area_arrow() -> None:
    doc = _sample(kgp_def)
    doc["map_groups"][0]["entry_areas"][0]["center"] = "B2"
    assert [e["loc"] for e in _errors(kgp_def.MODEL, doc)] == [
        ("map_groups", 0, "entry_areas", 0, "center")
    ]
    doc = _sample(kgp_def)
    doc["map_groups"][0]["entry_areas"][0]["from_date"] = "24 AM"
    assert [e["loc"] for e in _errors(kgp_def.MODEL, doc)] == [
        ("map_groups", 0, "entry_areas", 0, "from_date")
    ]


def test_kgp_lvp_total_must_add_up() -> None:
    doc = _sample(kgp_def)
    doc["map_groups"][0]["lvp_total"] = 7
    (err,) = _errors(kgp_def.MODEL, doc)
    assert err["loc"] == ("map_groups", 0, "lvp_total")
    assert err["msg"].startswith("8.6033:")


def test_kgp_date_max_counts_per_map_group() -> None:
    assert kgp_def.MODEL.RG_DATE_MAX_PER_MAP_GROUP is True  # 8.6195
    assert abtf_def.MODEL.RG_DATE_MAX_PER_MAP_GROUP is False  # 9.6175
    assert sg_def.MODEL.RG_DATE_MAX_PER_MAP_GROUP is False


def test_abtf_kg_lines_are_keyed_by_id_and_kg() -> None:
    model = abtf_def.MODEL.model_validate(abtf_def.SAMPLE)
    assert [e.key for e in model.rg_chart["German"]] == ["I1(X)", "I1(Y)", "A2(X)", "F1", "I3(Y)"]
    entry = model.rg_entry("German", "I1(Y)")
    assert entry is not None
    assert entry.cpp == 5
    assert model.rg_entry("German", "I1") is None
    doc = _sample(abtf_def)
    doc["rg_chart"]["German"][1]["kg"] = "X"
    assert [e["loc"] for e in _errors(abtf_def.MODEL, doc)] == [("rg_chart", "German", 1, "id")]


def test_abtf_kg_is_german_only() -> None:
    doc = _sample(abtf_def)
    doc["rg_chart"]["British"][0]["kg"] = "K"
    assert [e["loc"] for e in _errors(abtf_def.MODEL, doc)] == [("rg_chart", "British", 0, "kg")]


def test_abtf_idle_chits_and_sudden_death_block() -> None:
    doc = _sample(abtf_def)
    doc["idle_chits"]["Martian"] = 1
    assert [e["loc"] for e in _errors(abtf_def.MODEL, doc)] == [("idle_chits", "Martian", "[key]")]
    doc = _sample(abtf_def)
    doc["sudden_death_blocks"] = {"German": "Q"}
    (err,) = _errors(abtf_def.MODEL, doc)
    assert err["loc"] == ("sudden_death_blocks", "German")
    assert err["msg"].startswith("9.6212:")
    doc = _sample(abtf_def)
    doc["sudden_death_blocks"] = {"German": "A"}  # Block A holds Strategic Location B2
    abtf_def.MODEL.model_validate(doc)


def test_sg_only_the_american_buys() -> None:
    doc = _sample(sg_def)
    doc["rg_chart"]["German"] = [{"id": "I1", "name": "Sample", "cpp": 1}]
    assert [e["loc"] for e in _errors(sg_def.MODEL, doc)] == [("rg_chart", "German")]
    doc["rg_chart"]["German"] = []
    sg_def.MODEL.model_validate(doc)


# ------------------------------------------------------------------ generic


def test_definition_model_binds_any_sides() -> None:
    model = definition_model(("Red", "Blue"), name="ColourDefinition")
    assert model.SIDES == ("Red", "Blue")
    assert model.__name__ == "ColourDefinition"
    doc = {
        "attack_chits": {"Red": 1},
        "map_groups": [
            {
                "id": "M",
                "hexes": [hex_entry("A1"), hex_entry("B1")],
                "entry_areas": [{"id": "r", "side": "Red", "hexes": ["A1"]}],
                "initial_control": {"B1": "Blue"},
            }
        ],
    }
    assert model.model_validate(doc).map_groups[0].initial_control == {"B1": "Blue"}
    doc["attack_chits"] = {"US": 1}
    assert [e["loc"] for e in _errors(model, doc)] == [("attack_chits", "US", "[key]")]


@pytest.mark.parametrize("sides", [(), ("US", "US"), ("", "German"), ("x" * 21,)])
def test_definition_model_needs_distinct_side_ids(sides: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="side"):
        definition_model(sides)


def test_hex_defaults() -> None:
    model = definition_model(("A", "B"))
    group = model.model_validate({"map_groups": [{"id": "M", "hexes": [hex_entry("J19")]}]})
    h = group.map_groups[0].hexes[0]
    assert (h.strategic, h.lvp, h.levels, h.enterable, h.block) == (False, 0, [0], True, None)


def test_models_are_frozen() -> None:
    model = kgp_def.MODEL.model_validate(kgp_def.SAMPLE)
    with pytest.raises(ValidationError):
        model.title = "changed"


@pytest.mark.parametrize(
    ("hex_id", "qr"),
    [("A1", (0, 1)), ("A0", (0, 0)), ("B0", (1, 0)), ("B1", (1, 1)), ("C1", (2, 0)),
     ("J19", (9, 15)), ("AA1", (26, -12)), ("GG10", (32, -6))],
)  # fmt: skip
def test_asl_axial(hex_id: str, qr: tuple[int, int]) -> None:
    assert asl_axial(hex_id) == qr


def test_asl_axial_neighbours_match_the_board() -> None:
    """DESIGN §9 neighbours: A1 touches A0, A2, B0 and B1; B1 touches A1, A2,
    B0, B2, C1 and C2 (the even-lettered columns sit half a hex lower)."""

    def neighbours(hex_id: str) -> set[tuple[int, int]]:
        q, r = asl_axial(hex_id)
        steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
        return {(q + dq, r + dr) for dq, dr in steps}

    assert {asl_axial(h) for h in ("A0", "A2", "B0", "B1")} <= neighbours("A1")
    assert {asl_axial(h) for h in ("A1", "A2", "B0", "B2", "C1", "C2")} == neighbours("B1")


@pytest.mark.parametrize("hex_id", ["", "A", "1A", "AB1", "a1", "A123", "StGG1"])
def test_asl_axial_refuses_what_it_cannot_read(hex_id: str) -> None:
    with pytest.raises(ValueError, match="ASL hex id"):
        asl_axial(hex_id)


# ------------------------------------------------------------------ RFC 7396

#: RFC 7396 Appendix A, every example: (original, patch, result).
APPENDIX_A: list[tuple[Any, Any, Any]] = [
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"a": "foo"}, None, None),
    ({"a": "foo"}, "bar", "bar"),
    ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
]


@pytest.mark.parametrize(("target", "patch", "result"), APPENDIX_A)
def test_merge_patch_rfc7396_appendix_a(target: Any, patch: Any, result: Any) -> None:
    before = (copy.deepcopy(target), copy.deepcopy(patch))
    assert merge_patch(target, patch) == result
    assert (target, patch) == before  # pure: neither argument is changed


def test_merge_patch_rfc7396_section_3_example() -> None:
    target = {
        "title": "Goodbye!",
        "author": {"givenName": "John", "familyName": "Doe"},
        "tags": ["example", "sample"],
        "content": "This will be unchanged",
    }
    patch = {
        "title": "Hello!",
        "phoneNumber": "+01-123-456-7890",
        "author": {"familyName": None},
        "tags": ["example"],
    }
    assert merge_patch(target, patch) == {
        "title": "Hello!",
        "author": {"givenName": "John"},
        "tags": ["example"],
        "content": "This will be unchanged",
        "phoneNumber": "+01-123-456-7890",
    }


def test_merge_patch_shares_nothing_with_its_arguments() -> None:
    target: dict[str, Any] = {"keep": {"deep": [1]}, "a": {"b": 1}}
    patch: dict[str, Any] = {"new": {"x": [2]}, "a": {"c": [3]}}
    out = merge_patch(target, patch)
    out["keep"]["deep"].append(9)
    out["new"]["x"].append(9)
    out["a"]["c"].append(9)
    assert target == {"keep": {"deep": [1]}, "a": {"b": 1}}
    assert patch == {"new": {"x": [2]}, "a": {"c": [3]}}
    assert merge_patch(target, {}) == target
    assert merge_patch(target, {}) is not target


# ------------------------------------------------------------------ hash


def test_definition_hash_is_sha256_of_canon(rs: ModuleType) -> None:
    doc = rs.MODEL.model_validate(rs.SAMPLE).model_dump(mode="json")
    digest = definition_hash(doc)
    assert digest == hashlib.sha256(canon(doc)).hexdigest()
    assert len(digest) == 64


def test_definition_hash_ignores_key_order(rs: ModuleType) -> None:
    doc = rs.MODEL.model_validate(rs.SAMPLE).model_dump(mode="json")

    def reverse(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: reverse(x[k]) for k in reversed(list(x))}
        if isinstance(x, list):
            return [reverse(v) for v in x]
        return x

    flipped = reverse(doc)
    assert list(flipped) != list(doc)
    assert definition_hash(flipped) == definition_hash(doc)


def test_definition_hash_changes_with_a_value(rs: ModuleType) -> None:
    doc = rs.MODEL.model_validate(rs.SAMPLE).model_dump(mode="json")
    side = rs.SIDES[0]
    changed = merge_patch(doc, {"attack_chits": {side: 9}})
    assert definition_hash(changed) != definition_hash(doc)
    renamed = merge_patch(doc, {"title": doc["title"] + "!"})
    assert definition_hash(renamed) != definition_hash(doc)
    reordered = {
        **doc,
        "map_groups": [{**doc["map_groups"][0], "hexes": doc["map_groups"][0]["hexes"][::-1]}],
    }
    assert definition_hash(reordered) != definition_hash(doc)  # list order is content
