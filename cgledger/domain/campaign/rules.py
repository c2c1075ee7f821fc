"""A ruleset's own state and commands, plugged in through the same interface
as the engine's components: its ``Rules`` own the ``rules`` slice, apply
their ``state_events`` (and the engine's ``ScenarioEnded`` and New CG Date),
and run their commands (``Rules.actions``).

Slice: ``rules`` (``Rules.initial_state``, e.g. the CPP lines of a Roster).
"""

from __future__ import annotations

from typing import Any

from cgledger.domain import undo as undobook
from cgledger.domain.campaign.core import Applied, Core, reads
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput, NotFound


class RuleState(Core):
    def perform(self, ctx: Ctx, action: str, body: Any) -> int:
        """Run one of the ruleset's own commands (``Rules.actions``) with its
        validated request body. Returns the seq of its main event."""
        self._require_role(ctx)
        found = self.ruleset.rules.actions.get(action)
        if found is None:
            raise NotFound(f"{self.ruleset_id} has no action {action!r}")
        if not isinstance(body, found.body):
            raise InvalidInput(f"{action} takes a {found.body.__name__} body", field="body")
        return found.run(self.engine, ctx, body)

    def state_events(self) -> frozenset[str]:
        """The events undone by replay (DESIGN §5): the engine's
        (``undo.STATE_EVENTS``) and the ruleset's own (``Rules.state_events``)."""
        return undobook.STATE_EVENTS | self.ruleset.rules.state_events

    def rule_keys(self) -> frozenset[str]:
        """What the ruleset's apply reads of a state event (``Rules.state_keys``)."""
        return self.ruleset.rules.state_keys

    # ------------------------------------------------------------------ apply

    # What a ruleset's apply may read of the engine's fields (the public fields
    # of a rule command's event, ``Core.rule_payload``, and those it shares with
    # the engine's events, e.g. a Fortification's map group or a scenario end's
    # CVP), and the ruleset's own ``Rules.state_keys`` (``rule_keys``).
    @reads(
        "side", "cg_date", "step", "rule", "next", "chit", "chits", "scenario", "setup_first",
        "body", "by", "cvp", "map_group", "locations", "lvp", "blocks", "into_setup_areas",
        "control",
    )  # fmt: skip
    def _on_rule_event(self, e: Applied) -> None:
        self.ruleset.rules.apply(self.rules, e.kind, e.seq, e.values)

    @reads("cg_date")
    def _on_new_date(self, e: Applied) -> None:
        self.ruleset.rules.on_new_date(self.rules, e.values["cg_date"])
        self.ruleset.rules.on_date_began(self.rules, e.values["cg_date"], e.seq)
