"""Schemathesis against the app in-process: every operation, property-based,
and a stateful run that follows the links it infers (a creation's Location to
the campaign's resources), with every check schemathesis has: no 5xx, status
codes, content types, response schemas and headers as documented, invalid
requests rejected, schema-valid requests accepted, Allow on 405, no use after
free, created resources there.

A schema-valid request is accepted (``positive_data_acceptance``) as far as a
static document can say (issue 25): never refused for not matching it, i.e.
never a 422 with ``errors``, which lists the fields that do not match the
document, nor a refusal by the JSON parser. The document cannot know what a
campaign has: a side of its ruleset, a CG Date of its calendar, a Map Group or
an RG of its CG definition, a table's inputs, whether an Idempotency-Key was
used for another request. The document marks such inputs ``x-values-from``
(saying where their values are listed), and a value it allows that the
campaign does not have is a 422 problem without ``errors`` whose ``field``
names one of them, as the document's 422 says. Only that refusal is let
through (409s for the rules and 404s for what is not there, schemathesis
allows itself).
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from conftest import examples
from fastapi.testclient import TestClient
from hypothesis import HealthCheck
from hypothesis import settings as hsettings
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import negated_parameters
from schemathesis.openapi.checks import RejectedPositiveData

from cgledger.api.app import create_app
from cgledger.api.openapi import VALUES_MARK
from cgledger.settings import Settings


def _values_from_the_campaign(operation: Any) -> set[str]:
    """The inputs of ``operation`` whose valid values the campaign decides:
    those the document marks ``x-values-from``."""
    raw = operation.definition.raw
    found = {p["name"] for p in raw.get("parameters", []) if VALUES_MARK in p}
    # A body that is not JSON (a CSV, DESIGN §15) marked as a whole: its
    # refusals name it by its subtype ("csv.3.cpp").
    for media, content in raw.get("requestBody", {}).get("content", {}).items():
        if media != "application/json" and VALUES_MARK in content.get("schema", {}):
            found.add(media.rsplit("/", 1)[-1])
    components = schema.raw_schema["components"]["schemas"]
    media = raw.get("requestBody", {}).get("content", {}).get("application/json", {})
    stack, seen = [media.get("schema")], set()
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack += node
        if not isinstance(node, dict):
            continue
        ref = node.get("$ref")
        if isinstance(ref, str):
            if ref not in seen:
                seen.add(ref)
                stack.append(components[ref.rsplit("/", 1)[-1]])
            continue
        for name, sub in node.get("properties", {}).items():
            if isinstance(sub, dict) and VALUES_MARK in sub:
                found.add(name)
        stack += list(node.values())
    return found


def _names_a_value_the_campaign_lacks(response: Any, case: Any) -> bool:
    """The 422 of a value the document allows that the campaign does not
    have: problem+json without ``errors``, its ``field`` one the document
    marks as the campaign's to decide (or within one: ``rgs.0.map_group``)."""
    if response.status_code != 422:
        return False
    try:
        body = response.json()
    except ValueError:
        return False
    field = body.get("field") if isinstance(body, dict) else None
    if "errors" in body or not isinstance(field, str):
        return False
    return bool(set(field.split(".")) & _values_from_the_campaign(case.operation))


def positive_data_acceptance(ctx: Any, response: Any, case: Any) -> bool | None:
    """Schemathesis' own check, but for the refusal the module docstring allows."""
    try:
        accepted: bool | None = schemathesis.checks.positive_data_acceptance(ctx, response, case)
    except RejectedPositiveData:
        if _names_a_value_the_campaign_lacks(response, case):
            return None
        raise
    return accepted


# A board archive (DESIGN §15) is bytes, sent as they are, as schemathesis
# sends application/octet-stream.
schemathesis.serializer.alias("application/zip", "application/octet-stream")

#: Schemathesis' positive_data_acceptance is run as ``positive_data_acceptance`` above.
EXCLUDED = [schemathesis.checks.positive_data_acceptance]
ADDED = [positive_data_acceptance]
SETTINGS = hsettings(
    max_examples=examples(25), suppress_health_check=list(HealthCheck), database=None
)

#: The app's data directory: named here, made only when ``live`` starts the app
#: (building it touches no file), removed when the module is done; so a run
#: that merely collects this module leaves nothing behind.
_DATA = Path(tempfile.gettempdir()) / f"cgledger-schemathesis-{uuid.uuid4().hex}"
APP = create_app(Settings(data_dir=_DATA, create_per_minute=10**9))
# The document as served, read without starting the app: ``from_asgi`` would
# run the app's lifespan, which opens the ledger and so makes its database.
schema = schemathesis.openapi.from_dict(TestClient(APP).get("/openapi.json").json())
schema.app = APP


@pytest.fixture(scope="module", autouse=True)
def live() -> Iterator[dict[str, str]]:
    """The app started (its lifespan opens the ledger), with one campaign."""
    try:
        with TestClient(APP) as client:
            made = client.post(
                "/v1/campaigns",
                json={"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}},
            ).json()
            yield {"id": made["id"], "token": made["tokens"]["referee"]}
    finally:
        shutil.rmtree(_DATA, ignore_errors=True)


#: The live feed never ends: schemathesis keeps what it sent in this time.
FEED_SECONDS = 0.25


def call_kwargs(case: Any, token: str | None) -> dict[str, Any]:
    """The token, unless the case was made negative by leaving it out; a
    short read of the live feed."""
    kwargs: dict[str, Any] = {}
    negated = set(negated_parameters(case.meta))
    if token is not None and ("Authorization", ParameterLocation.HEADER) not in negated:
        kwargs["headers"] = {"Authorization": f"Bearer {token}"}
    if case.path.endswith("/stream"):
        kwargs["timeout"] = FEED_SECONDS
    return kwargs


@schema.parametrize()
@SETTINGS
def test_every_operation(case: Any, live: dict[str, str]) -> None:
    path = case.path_parameters or {}
    if "campaign_id" in path and not case.meta.is_negative_at(ParameterLocation.PATH):
        path["campaign_id"] = live["id"]  # a campaign that exists, with its token
    case.call_and_validate(
        **call_kwargs(case, live["token"]), excluded_checks=EXCLUDED, additional_checks=ADDED
    )


Machine = schema.as_state_machine()


class Stateful(Machine):  # type: ignore[misc, valid-type]
    """Links inferred from the documents: a created campaign's id flows into
    its routes; the token that came with it is sent along."""

    tokens: dict[str, str] = {}  # noqa: RUF012 - shared by the machine's runs

    def get_call_kwargs(self, case: Any) -> dict[str, Any]:
        kwargs: dict[str, Any] = super().get_call_kwargs(case)
        cid = (case.path_parameters or {}).get("campaign_id")
        extra = call_kwargs(case, self.tokens.get(cid))
        kwargs.setdefault("headers", {}).update(extra.pop("headers", {}))
        return {**kwargs, **extra}

    def after_call(self, response: Any, case: Any) -> None:
        super().after_call(response, case)
        if case.method == "POST" and case.path == "/v1/campaigns" and response.status_code == 201:
            body = response.json()
            if body.get("tokens"):
                self.tokens[body["id"]] = body["tokens"]["referee"]

    def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
        del kwargs
        case.validate_response(response, excluded_checks=EXCLUDED, additional_checks=ADDED)


TestStateful = Stateful.TestCase
TestStateful.settings = hsettings(SETTINGS, max_examples=examples(15), stateful_step_count=8)


def test_the_stateful_run_follows_links(live: dict[str, str]) -> None:
    """The run above is more than random calls: links lead from a creation."""
    del live
    assert Machine.bundles, "schemathesis inferred no links from the document"
