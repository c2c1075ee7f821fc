"""A ruleset's own commands (``Rules.actions``: the CPP replenishment, RG
purchases and their determination rolls, Fortifications, ...): the body is
checked with the model of the campaign's own ruleset, then the command runs."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from cgledger.domain.errors import NotFound
from cgledger.projections.dice import rule_result
from cgledger.service.session import Asked, Caller, Written, run


class InvalidBody(Exception):
    """The body does not fit the action's model: ``errors`` are pydantic's,
    each located in the body (``("body", field, ...)``)."""

    def __init__(self, errors: list[dict[str, Any]]) -> None:
        super().__init__(f"{len(errors)} invalid fields")
        self.errors = errors


def perform(caller: Caller, path: str, body: dict[str, Any], asked: Asked) -> Written:
    """Run the action at ``path`` of the campaign's ruleset with ``body``
    (``InvalidBody`` where it does not fit the action's model)."""
    campaign = caller.campaign
    action = campaign.ruleset.rules.actions.get(path)
    if action is None:
        raise NotFound(f"{campaign.ruleset_id} has no {path}; its rules do not have it")
    try:
        model = action.body.model_validate(body)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        raise InvalidBody([{**e, "loc": ("body", *e["loc"])} for e in errors]) from None
    done = run(
        caller,
        lambda c, ctx: c.perform(ctx, path, model),
        operation=action.operation or path,
        body=model.model_dump(mode="json"),
        asked=asked,
    )
    return Written(done, rule_result(caller.ledger, done.campaign, done.seq, caller.role))
