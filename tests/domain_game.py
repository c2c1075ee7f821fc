"""A campaign played in-process, the way the API plays it but without HTTP:
``Campaign`` commands with a deterministic ``Ctx`` (for pure domain tests
that need a CG played over several CG Dates, cf. ``conftest.Game``)."""

from __future__ import annotations

import random
import re
from typing import Any
from uuid import UUID

from dice_steer import find_nonce, summing

from cgledger.domain import tables as tablebook
from cgledger.domain.campaign import Campaign, Ctx
from cgledger.domain.errors import RuleViolation
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.base import SCENARIO
from cgledger.domain.visibility import REFEREE
from cgledger.sealing import AesGcmSealer

SEALER = AesGcmSealer(bytes(32))
#: The path a refusal names for the action a step requires.
NEEDED = re.compile(r"\(POST /v1/campaigns/[^/]+/([^)]+)\)")


class DomainGame:
    def __init__(
        self,
        ruleset: str,
        campaign: str,
        *,
        start_date: str | None = None,
        definition: dict[str, Any] | None = None,
        initial_cpp: dict[str, int] | None = None,
        seed: int = 26,
    ) -> None:
        self.rng = random.Random(seed)
        self.ruleset = REGISTRY[ruleset]
        self.c = Campaign.create(
            self.ctx("creator"),
            campaign_id=UUID(int=self.rng.getrandbits(128)),
            ruleset_id=ruleset,
            campaign_name=campaign,
            title="t",
            start_date=start_date,
            initial_cpp=initial_cpp or {},
            token_hashes={},
            definition=definition,
        )

    def ctx(self, actor: str) -> Ctx:
        return Ctx(
            actor=actor,
            now="2026-11-27T00:00:00Z",
            entropy=self.rng.randbytes,
            sealer=SEALER,
        )

    @property
    def cg_date(self) -> str:
        return self.c.cg_date

    def perform(self, actor: str, action: str, body: dict[str, Any] | None = None) -> int:
        model = self.ruleset.rules.actions[action].body
        return self.c.perform(self.ctx(actor), action, model.model_validate(body or {}))

    def roll(
        self,
        actor: str,
        table: str,
        inputs: dict[str, Any] | None = None,
        drm: list[tablebook.DrmRequest] | None = None,
        *,
        original: int | None = None,
    ) -> dict[str, Any]:
        """A public table roll; its recorded values. ``original``: the dice are
        steered to that Original roll (``dice_steer``)."""
        nonce = None
        if original is not None:
            found = self.c.table(table)
            nonce = find_nonce(
                self.c,
                SEALER,
                purpose=f"{found.id} {found.title}",
                count=found.dice,
                side=actor,
                want=summing(original),
            )
        seq = self.c.roll_table(
            self.ctx(actor),
            table,
            drm=drm or [],
            inputs=inputs or {},
            secret=None,
            client_nonce=nonce,
        )
        return self.c.record(seq)["payload"]

    def advance(self, side: str, to: str) -> None:
        """``side`` completes its steps up to ``to``, making each action or roll
        a step requires on the way (as ``conftest.Game.advance``)."""
        for _ in range(60):
            if self.c.current_step(side) == to:
                return
            try:
                self.c.advance(self.ctx(side), side, to)
                return
            except RuleViolation as exc:
                needed = NEEDED.search(exc.detail)
                if needed is None or needed.group(1) == "cg-dates":
                    raise
                path = needed.group(1)
                if path.startswith("tables/"):
                    self.roll(side, path.split("/")[1])
                else:
                    self.perform(side, path)
        raise AssertionError(f"{side} could not reach {to}")

    def choose(self, chit: str) -> str | None:
        """Every side reaches the Initiative step and selects ``chit``; the
        scenario type it generates."""
        ini = self.ruleset.initiative
        assert ini is not None
        assert ini.step is not None
        for side in self.c.sides:
            self.advance(side, ini.step)
        for side in self.c.sides:
            self.c.choose_initiative(self.ctx(side), side, chit)
        return self.c.scenario_of(self.cg_date)

    def ready(self) -> None:
        """Every side completes its steps: the CG scenario is in play."""
        for side in self.c.sides:
            self.advance(side, SCENARIO)

    def end_scenario(self) -> None:
        self.ready()
        self.c.end_scenario(self.ctx(REFEREE), {"cvp": dict.fromkeys(self.c.sides, 0)})

    def next_date(self, *, play: bool = True) -> None:
        """Finish the CG Date (a scenario played to its end, or with ``play``
        false Idle chits) and begin the next one."""
        if not self.c.awaiting_new_date:
            if not self.c.is_initial_date() and self.c.scenario_of(self.cg_date) is None:
                self.choose("attack" if play else "idle")
            if not self.c.awaiting_new_date:
                self.end_scenario()
        self.c.begin_cg_date(self.ctx(REFEREE), None)

    def kept(self, key: str) -> dict[str, Any]:
        found: dict[str, Any] = self.c.kept_lasting().get(key, {})
        return found
