"""Schemathesis against the app in-process: every operation, property-based,
and a stateful run that follows the links it infers (a creation's Location to
the campaign's resources), with every check schemathesis has: no 5xx, status
codes, content types, response schemas and headers as documented, invalid
requests rejected, Allow on 405, no use after free, created resources there.

One check is left out, on purpose: ``positive_data_acceptance`` (a request
that the schema allows must not be refused). The schema cannot say what only
the rules know: that a CG Date exists in this ruleset's calendar, that a table
takes this input, that a side may act now. Such a request is refused with a
422 (or 409 for a rule) that names the field or the rule, which the other
checks hold to the documented problem+json.
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

from cgledger.api.app import create_app
from cgledger.settings import Settings

EXCLUDED = [schemathesis.checks.positive_data_acceptance]
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


@schema.parametrize()
@SETTINGS
def test_every_operation(case: Any, live: dict[str, str]) -> None:
    path = case.path_parameters or {}
    if "campaign_id" in path and not case.meta.is_negative_at(ParameterLocation.PATH):
        path["campaign_id"] = live["id"]  # a campaign that exists, with its token
    case.call_and_validate(
        headers={"Authorization": f"Bearer {live['token']}"}, excluded_checks=EXCLUDED
    )


Machine = schema.as_state_machine()


class Stateful(Machine):  # type: ignore[misc, valid-type]
    """Links inferred from the documents: a created campaign's id flows into
    its routes; the token that came with it is sent along."""

    tokens: dict[str, str] = {}  # noqa: RUF012 - shared by the machine's runs

    def get_call_kwargs(self, case: Any) -> dict[str, Any]:
        kwargs: dict[str, Any] = super().get_call_kwargs(case)
        cid = (case.path_parameters or {}).get("campaign_id")
        if cid in self.tokens:
            kwargs.setdefault("headers", {})["Authorization"] = f"Bearer {self.tokens[cid]}"
        return kwargs

    def after_call(self, response: Any, case: Any) -> None:
        super().after_call(response, case)
        if case.method == "POST" and case.path == "/v1/campaigns" and response.status_code == 201:
            body = response.json()
            if body.get("tokens"):
                self.tokens[body["id"]] = body["tokens"]["referee"]

    def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
        del kwargs
        case.validate_response(response, excluded_checks=EXCLUDED)


TestStateful = Stateful.TestCase
TestStateful.settings = hsettings(SETTINGS, max_examples=examples(15), stateful_step_count=8)


def test_the_stateful_run_follows_links(live: dict[str, str]) -> None:
    """The run above is more than random calls: links lead from a creation."""
    del live
    assert Machine.bundles, "schemathesis inferred no links from the document"
