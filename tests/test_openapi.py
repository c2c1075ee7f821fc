"""The OpenAPI document tells a generated client the truth (DESIGN §3, §11):
every string a request may carry has a maximum length, every error is
documented as problem+json, the export is JSON Lines and the feed is SSE."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from cgledger.api.app import create_app
    from cgledger.settings import Settings

    settings = Settings(data_dir=tmp_path_factory.mktemp("openapi"))
    with TestClient(create_app(settings)) as c:
        document: dict[str, Any] = c.get("/openapi.json").json()
        return document


def _resolve(spec: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        name = node["$ref"].split("/")[-1]
        node = spec["components"]["schemas"][name]
    return node


def _strings(
    spec: dict[str, Any], node: Any, path: str, seen: set[str]
) -> Iterator[tuple[str, Any]]:
    """Every string schema reachable from ``node``, with where it is."""
    if isinstance(node, dict) and "$ref" in node:
        if node["$ref"] in seen:
            return
        seen = seen | {node["$ref"]}
    node = _resolve(spec, node)
    if not isinstance(node, dict):
        return
    if node.get("type") == "string" and "enum" not in node and "const" not in node:
        yield path, node
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in node.get(key, []):
            yield from _strings(spec, sub, path, seen)
    for name, sub in node.get("properties", {}).items():
        yield from _strings(spec, sub, f"{path}.{name}", seen)
    if isinstance(node.get("items"), dict):
        yield from _strings(spec, node["items"], f"{path}[]", seen)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        yield from _strings(spec, extra, f"{path}{{}}", seen)
    names = node.get("propertyNames")
    if isinstance(names, dict):
        yield from _strings(spec, names, f"{path}{{key}}", seen)


def _request_strings(spec: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    for url, item in spec["paths"].items():
        for method, op in item.items():
            where = f"{method.upper()} {url}"
            for param in op.get("parameters", []):
                yield from _strings(spec, param["schema"], f"{where} {param['name']}", set())
            for media in op.get("requestBody", {}).get("content", {}).values():
                yield from _strings(spec, media["schema"], f"{where} body", set())


def test_every_request_string_has_a_maximum_length(spec: dict[str, Any]) -> None:
    missing = sorted({path for path, s in _request_strings(spec) if "maxLength" not in s})
    assert missing == []


def test_request_objects_and_arrays_are_bounded(spec: dict[str, Any]) -> None:
    """A free-form object (``additionalProperties``) has ``maxProperties``."""
    unbounded = []
    for url, item in spec["paths"].items():
        for method, op in item.items():
            for media in op.get("requestBody", {}).get("content", {}).values():
                stack = [(media["schema"], f"{method.upper()} {url} body", frozenset())]
                while stack:
                    node, where, seen = stack.pop()
                    if isinstance(node, dict) and "$ref" in node:
                        if node["$ref"] in seen:
                            continue
                        seen = seen | {node["$ref"]}
                    node = _resolve(spec, node)
                    if not isinstance(node, dict):
                        continue
                    if isinstance(node.get("additionalProperties"), dict) and (
                        "maxProperties" not in node
                    ):
                        unbounded.append(where)
                    for key in ("anyOf", "oneOf", "allOf"):
                        stack += [(s, where, seen) for s in node.get(key, [])]
                    props = node.get("properties", {}).items()
                    stack += [(s, f"{where}.{n}", seen) for n, s in props]
                    if isinstance(node.get("items"), dict):
                        stack.append((node["items"], f"{where}[]", seen))
                    if isinstance(node.get("additionalProperties"), dict):
                        stack.append((node["additionalProperties"], f"{where}{{}}", seen))
    assert sorted(set(unbounded)) == []


@pytest.mark.parametrize("ruleset", ["kgp", "abtf", "sg"])
def test_every_definition_string_has_a_maximum_length(tmp_path: Any, ruleset: str) -> None:
    """A CG definition is a request body too (creation, amendments)."""
    from cgledger.api.app import create_app
    from cgledger.settings import Settings

    with TestClient(create_app(Settings(data_dir=tmp_path))) as c:
        schema = c.get(f"/v1/rulesets/{ruleset}/definition-schema").json()
    local = {"components": {"schemas": schema.get("$defs", {})}}

    def rebase(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                k: v.replace("#/$defs/", "#/components/schemas/") if k == "$ref" else rebase(v)
                for k, v in node.items()
            }
        return [rebase(v) for v in node] if isinstance(node, list) else node

    local, schema = rebase(local), rebase(schema)
    found = _strings(local, schema, ruleset, set())
    missing = sorted({p for p, s in found if "maxLength" not in s})
    assert missing == []


def test_every_error_is_documented_as_problem_json(spec: dict[str, Any]) -> None:
    assert "HTTPValidationError" not in spec["components"]["schemas"]
    for url, item in spec["paths"].items():
        for method, op in item.items():
            where = f"{method.upper()} {url}"
            statuses = {int(s) for s in op["responses"]}
            if url not in ("/v1/health", "/"):
                assert 422 in statuses, where
            if "{campaign_id}" in url:
                assert {401, 403, 404} <= statuses, where
            if method == "post":
                assert 413 in statuses, where
            for status, response in op["responses"].items():
                if int(status) >= 400:
                    assert list(response["content"]) == ["application/problem+json"], where
                    schema = response["content"]["application/problem+json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/Problem"}, where


def test_creation_documents_its_rate_limit(spec: dict[str, Any]) -> None:
    r429 = spec["paths"]["/v1/campaigns"]["post"]["responses"]["429"]
    assert "Retry-After" in r429["headers"]


def test_the_export_is_jsonl_and_the_feed_is_sse(spec: dict[str, Any]) -> None:
    export = spec["paths"]["/v1/campaigns/{campaign_id}/export"]["get"]["responses"]["200"]
    assert list(export["content"]) == ["application/jsonl"]
    stream = spec["paths"]["/v1/campaigns/{campaign_id}/stream"]["get"]["responses"]["200"]
    assert list(stream["content"]) == ["text/event-stream"]


def test_the_documented_media_types_are_the_ones_sent(client: TestClient) -> None:
    made = client.post("/v1/campaigns", json={"ruleset": "sg", "campaign": "SG"}).json()
    auth = {"Authorization": f"Bearer {made['tokens']['referee']}"}
    r = client.get(f"/v1/campaigns/{made['id']}/export", headers=auth)
    assert r.headers["content-type"].split(";")[0] == "application/jsonl"
    r = client.post("/v1/campaigns", json={"ruleset": 3})
    assert r.headers["content-type"].split(";")[0] == "application/problem+json"


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_docs_pages_need_no_cdn(tmp_path: Any, page: str) -> None:
    """DESIGN §11 / a newcomer offline: the pages and every asset they load
    come from this server."""
    import re

    from cgledger.api.app import create_app
    from cgledger.settings import Settings

    with TestClient(create_app(Settings(data_dir=tmp_path))) as c:
        html = c.get(page)
        assert html.status_code == 200
        assert "http://" not in html.text
        assert "https://" not in html.text
        assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", html.text)
        assets += re.findall(r"""url: ?["']([^"']+)["']""", html.text)
        assert any(a.endswith(".js") for a in assets), assets
        for asset in assets:
            assert c.get(asset).status_code == 200, asset


def test_every_json_answer_has_a_typed_schema(spec: dict[str, Any]) -> None:
    """Issue 12: a client generated from the document parses every answer, so
    each 2xx JSON body is a named model (or a list of one), with properties."""
    untyped = []
    for url, item in spec["paths"].items():
        for method, op in item.items():
            where = f"{method.upper()} {url}"
            for status, response in op["responses"].items():
                media = response.get("content", {}).get("application/json")
                if not status.startswith("2") or media is None:
                    continue
                schema = media["schema"]
                if schema.get("type") == "array":
                    schema = schema["items"]
                model = _resolve(spec, schema)
                if "$ref" not in schema or not model.get("properties"):
                    untyped.append(where)
    assert untyped == []


@pytest.mark.parametrize("ruleset", ["kgp", "abtf", "sg"])
def test_the_definition_schema_is_typed_as_a_json_schema(
    spec: dict[str, Any], client: TestClient, ruleset: str
) -> None:
    """Issue 25: the answer is documented as a JSON Schema document (its
    keywords typed, any other keyword allowed), and what is sent conforms to
    it and is the schema the ruleset validates definitions against."""
    import jsonschema_rs

    from cgledger.service.rulesets import definition_schema

    op = spec["paths"]["/v1/rulesets/{ruleset}/definition-schema"]["get"]
    ref = op["responses"]["200"]["content"]["application/json"]["schema"]
    model = _resolve(spec, ref)
    assert model["additionalProperties"] is True
    assert {"type", "properties", "$defs", "required", "additionalProperties"} <= set(
        model["properties"]
    )
    assert model["properties"]["type"]["const"] == "object"
    sent = client.get(f"/v1/rulesets/{ruleset}/definition-schema").json()
    assert sent == definition_schema(ruleset)
    jsonschema_rs.Draft202012Validator({**ref, "components": spec["components"]}).validate(sent)
    jsonschema_rs.meta.validate(sent)  # a JSON Schema, by the metaschema


@pytest.mark.parametrize("path", ["cpp-replenishments", "rg-purchases"])
def test_a_command_two_rulesets_share_has_one_body_schema(spec: dict[str, Any], path: str) -> None:
    """KGP and ABtF share these commands' bodies: one schema, not a oneOf of two
    equal ones that no body could satisfy (schemathesis found it)."""
    op = spec["paths"][f"/v1/campaigns/{{campaign_id}}/{path}"]["post"]
    schema = op["requestBody"]["content"]["application/json"]["schema"]
    assert "oneOf" not in schema
    assert schema["type"] == "object"


# ------------------------------------------- what is stated is what is accepted


@pytest.mark.parametrize(
    ("value", "accepted"),
    [
        ('"12"', True),
        ('"12-3f9a"', True),
        ("*", True),
        ('W/"12"', True),  # well formed: refused as a 409 (a weak tag never matches)
        ("12", True),
        ('"abc"', False),
        ('""', False),
        ('"1234567890123456789"', False),  # 19 digits: no version is that long
        ('"\xb2"', False),
    ],
)
def test_if_match_is_read_by_the_pattern_the_document_states(
    spec: dict[str, Any], client: TestClient, value: str, accepted: bool
) -> None:
    import re

    from cgledger.service.session import IF_MATCH_PATTERN

    header = [
        p
        for p in spec["paths"]["/v1/campaigns/{campaign_id}/rolls"]["post"]["parameters"]
        if p["name"] == "If-Match"
    ]
    assert header[0]["schema"]["pattern"] == IF_MATCH_PATTERN
    assert (re.search(IF_MATCH_PATTERN, value) is not None) is accepted
    made = client.post("/v1/campaigns", json={"ruleset": "sg", "campaign": "SG"}).json()
    r = client.post(
        f"/v1/campaigns/{made['id']}/rolls",
        json={"dice": 1, "purpose": "x"},
        headers={
            "Authorization": f"Bearer {made['tokens']['referee']}",
            "If-Match": value.encode("latin-1"),
        },
    )
    assert (r.status_code != 422) is accepted, r.text


def test_every_number_a_request_carries_is_bounded(spec: dict[str, Any]) -> None:
    """The JSON parser takes no number beyond a double's range; the document says so."""
    from cgledger.api.limits import MAX_NUMBER

    unbounded = []
    for url, item in spec["paths"].items():
        for method, op in item.items():
            stack = [op.get("requestBody", {})]
            while stack:
                node = stack.pop()
                if isinstance(node, list):
                    stack += node
                if not isinstance(node, dict):
                    continue
                node = _resolve(spec, node)
                if node.get("type") in ("integer", "number"):
                    low, high = node.get("minimum"), node.get("maximum")
                    if low is None or high is None or low < -MAX_NUMBER or high > MAX_NUMBER:
                        unbounded.append(f"{method.upper()} {url}")
                stack += [v for k, v in node.items() if k not in ("default", "examples")]
    assert unbounded == []


def _agree(spec: dict[str, Any], schema: dict[str, Any], model: Any, body: Any) -> None:
    import jsonschema_rs
    from pydantic import ValidationError

    stated = jsonschema_rs.Draft202012Validator({**schema, "components": spec["components"]})
    try:
        model.model_validate(body)
    except ValidationError:
        taken = False
    else:
        taken = True
    assert stated.is_valid(body) is taken, body


@pytest.mark.parametrize(
    "body",
    [
        {"seqs": [3], "reason": "x"},
        {"to_seq": 0, "reason": "x"},
        {"seqs": [3], "to_seq": 2, "reason": "x"},
        {"seqs": [3], "to_seq": None, "reason": "x"},
        {"seqs": None, "to_seq": None, "reason": "x"},
        {"reason": "x"},
    ],
)
def test_an_undo_request_names_seqs_or_to_seq_as_stated(
    spec: dict[str, Any], body: dict[str, Any]
) -> None:
    """Schemathesis found the body schema allowing both (and neither)."""
    from cgledger.api.schemas import UndoRequestCreate

    op = spec["paths"]["/v1/campaigns/{campaign_id}/undo-requests"]["post"]
    schema = op["requestBody"]["content"]["application/json"]["schema"]
    _agree(spec, schema, UndoRequestCreate, body)


@pytest.mark.parametrize(
    "body",
    [
        {"rg": "I1"},
        {"rg": "I1", "cpp": 4, "map_group": "Sx", "modifiers": ["early-entry"]},
        {"rgs": [{"rg": "I1"}]},
        {"rgs": []},
        {"rg": "I1", "rgs": [{"rg": "I1"}]},
        {"rg": "I1", "rgs": None},
        {"rg": None, "rgs": [{"rg": "I1"}]},
        {"rgs": [{"rg": "I1"}], "cpp": 4},
        {"rgs": [{"rg": "I1"}], "map_group": None, "modifiers": []},
        {"rgs": [{"rg": "I1"}], "modifiers": ["early-entry"]},
        {"rgs": [], "objective_hex": "A1"},
        {},
        {"side": "German"},
    ],
)
def test_an_rg_purchase_names_one_rg_or_a_batch_as_stated(
    spec: dict[str, Any], body: dict[str, Any]
) -> None:
    from cgledger.domain.rulesets.cpp.bodies import RGPurchaseCreate

    op = spec["paths"]["/v1/campaigns/{campaign_id}/rg-purchases"]["post"]
    schema = op["requestBody"]["content"]["application/json"]["schema"]
    _agree(spec, schema, RGPurchaseCreate, body)


def test_inputs_the_campaign_decides_say_where_their_values_are(spec: dict[str, Any]) -> None:
    """Each name of ``VALUES_FROM`` marks some request input, and only those;
    a header with a stated format (If-Match) is the document's to decide."""
    from cgledger.api.openapi import BODY_VALUES_FROM, VALUES_FROM, VALUES_MARK

    marked: set[str] = set()
    # A body that is not JSON (a CSV) is marked as a whole, by its media type.
    other = {
        media: content["schema"].get(VALUES_MARK)
        for item in spec["paths"].values()
        for op in item.values()
        for media, content in op.get("requestBody", {}).get("content", {}).items()
        if media != "application/json"
    }
    assert other == BODY_VALUES_FROM
    for item in spec["paths"].values():
        for op in item.values():
            for param in op.get("parameters", []):
                assert (VALUES_MARK in param) is (param["name"] in VALUES_FROM), param
                if VALUES_MARK in param:
                    marked.add(param["name"])
    stack: list[Any] = list(spec["components"]["schemas"].values())
    stack += [
        media["schema"]
        for item in spec["paths"].values()
        for op in item.values()
        for media in op.get("requestBody", {}).get("content", {}).values()
    ]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack += node
        if not isinstance(node, dict):
            continue
        for name, sub in node.get("properties", {}).items():
            if isinstance(sub, dict) and VALUES_MARK in sub:
                assert sub[VALUES_MARK] == VALUES_FROM[name]
                marked.add(name)
        stack += list(node.values())
    assert marked == set(VALUES_FROM)
    roster = spec["paths"]["/v1/campaigns/{campaign_id}/roster"]["get"]["parameters"]
    assert [p[VALUES_MARK] for p in roster if p["name"] == "side"] == [VALUES_FROM["side"]]


BLANKS = [chr(c) for c in range(0x3001) if chr(c).isspace()]


@pytest.mark.parametrize(
    "text", [*BLANKS, "".join(BLANKS), "\ufeff", "a", " a ", "\x1ca", "é", "\u200b"]
)
def test_a_text_is_blank_in_the_document_as_in_the_domain(text: str) -> None:
    """The pattern a free text states is the domain's test of a blank text,
    read by an ECMA-262 engine as by Python's (ECMA's ``\\s`` is not Python's:
    schemathesis found a reason of U+001C refused)."""
    import re

    import jsonschema_rs

    from cgledger.domain.requests import NOT_BLANK

    taken = bool(text.strip())
    assert (re.search(NOT_BLANK, text) is not None) is taken
    validator = jsonschema_rs.Draft202012Validator({"type": "string", "pattern": NOT_BLANK})
    assert validator.is_valid(text) is taken


def test_every_free_text_states_that_it_is_not_blank(spec: dict[str, Any]) -> None:
    from cgledger.domain.requests import NOT_BLANK

    for name in ("UndoRequestCreate", "DisputeCreate", "RollCreate", "AmendmentCreate"):
        props = spec["components"]["schemas"][name]["properties"]
        texts = [p for p in props.values() if p.get("maxLength", 0) >= 200]
        assert texts, name
        assert all(p.get("pattern") == NOT_BLANK for p in texts), name
