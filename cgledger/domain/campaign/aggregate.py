"""The campaign aggregate: one append-only event stream per campaign.

As in the ``eventsourcing`` examples, a command checks the rules, rolls and
builds the complete record; an ``@event`` method only applies it, so replay
never re-rolls. Clock, entropy and seed sealer come in through :class:`Ctx`.
The commands and apply functions live in the components (DESIGN §6), each
owning one slice (``core.OWNERS``); this module holds the ``@event`` stubs,
the dispatch by event type to apply functions (``dispatch.DISPATCH``), and
``append``. Records are hash-chained (``cgledger.domain.chain``); a secret act
is one sealed record (``sealing``) its owner and the referee see until revealed.
"""

from __future__ import annotations

from typing import Any, Unpack
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from cgledger.domain import sealed as sealbook
from cgledger.domain import undo as undobook
from cgledger.domain.campaign import creation
from cgledger.domain.campaign.amendments import Amendments
from cgledger.domain.campaign.calendar import Calendar
from cgledger.domain.campaign.core import ACTOR, READS, Applied, new_record, options_of
from cgledger.domain.campaign.dispatch import DISPATCH, ROLLED, RULE_EVENT
from cgledger.domain.campaign.disputes import Disputes
from cgledger.domain.campaign.initiative import Initiative
from cgledger.domain.campaign.massacre import Massacre
from cgledger.domain.campaign.rules import RuleState
from cgledger.domain.campaign.scenario_end import ScenarioEnd
from cgledger.domain.campaign.sealing import Sealing
from cgledger.domain.campaign.snapshot import StateSnapshot
from cgledger.domain.chain import GENESIS
from cgledger.domain.context import Ctx
from cgledger.domain.history import MemoryHistory

#: The shape of the aggregate's state: a snapshot of an older shape is not
#: used, the campaign is rebuilt from its events instead (docs/architecture.md).
SCHEMA = 17  # 17: CG-Scenario End and New CG Date proposals (DESIGN §13)


class Campaign(
    Aggregate, Initiative, Calendar, ScenarioEnd, Disputes, Amendments, RuleState, Massacre
):
    TOPIC = "cgledger:Campaign"

    class Event(Aggregate.Event):
        TOPIC = "cgledger:Campaign.Event"

    class Created(Event, Aggregate.Created):
        TOPIC = "cgledger:Campaign.Created"

    Snapshot = StateSnapshot

    # ------------------------------------------------------------------ events
    # Each @event body only applies a record that a command built.

    @event("CampaignCreated", topic="cgledger:CampaignCreated")
    def __init__(self, id: UUID, record: dict[str, Any]) -> None:
        del id  # taken by the library as the originator id
        self.schema = SCHEMA
        p = record["payload"]
        self.ruleset_id = p["ruleset"]
        self.campaign_name = p["campaign_name"]
        self.title = p["title"]
        self.sides = list(p["sides"])
        self.extendable = p["extendable"]
        self.token_hashes = dict(record["internal"]["token_hashes"])
        self.genesis = {k: p.get(k) for k in creation.CREATED_FIELDS}
        self.genesis["initial_ob"] = creation.initial_ob(p.get("definition") or {})
        self.head, self.head_at, self.last_event = GENESIS, "", 0
        self.state_log: list[dict[str, Any]] = []
        # rolls
        self.batches: list[dict[str, Any]] = []
        self.committed = self.roll_count = 0
        self.table_defs: dict[str, int] = {}
        # undo, disputes and the proposals of the agreement protocol
        self.revertible: undobook.Book = {}
        self.reverted: dict[str, int] = {}
        self.pending_reroll: dict[str, dict[str, Any]] = {}
        self.undo_requests: dict[str, dict[str, Any]] = {}
        self.disputes: dict[str, dict[str, Any]] = {}
        self.amendments: dict[str, dict[str, Any]] = {}
        #: The CG definition in force (DESIGN §7); ``None`` for a campaign
        #: created before definitions existed.
        self.definition: dict[str, Any] | None = None
        if p.get("definition_hash") is not None:
            self.definition = {
                "hash": p["definition_hash"],
                "seq": record["seq"],
                "options": options_of(p["definition"]),
            }
        #: Each definition put in force, ``{"hash", "seq"}`` (``Core.readings(at=...)``).
        held = {"hash": p.get("definition_hash"), "seq": record["seq"]}
        self.definitions_in_force: list[dict[str, Any]] = [] if self.definition is None else [held]
        self._reset_state()
        self._apply(record)

    def _reset_state(self) -> None:
        """The slices an undo rebuilds, as the campaign was created."""
        g = self.genesis
        self.calendar = list(g["calendar"])
        self.date_index = self.calendar.index(g["start_date"])
        self.awaiting_new_date = False
        self.steps = dict.fromkeys(self.sides)
        self.rolled_tables = {}
        self.ready = {}
        self.scenario_end_proposal = None
        self.control_proposals, self.massacre_proposals = {}, {}
        self.scenario_end_proposals, self.cg_date_proposals = {}, {}
        self.initiatives = {}
        self.chits_used = {}
        self.scenario_ends = {}
        self.lvp_rows = {}
        self.lasting = {}
        self.sealed_steps = {}
        self.control = {}
        self.setup_frozen = None
        self.vacated = {}
        self.rules = self.ruleset.rules.initial_state(g, self.sides)

    @event("CommitmentsPublished", topic="cgledger:CommitmentsPublished")
    def _commitments_published(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("DiceRolled", topic="cgledger:DiceRolled")
    def _dice_rolled(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("SecretRevealed", topic="cgledger:SecretRevealed")
    def _secret_revealed(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("RecordSealed", topic="cgledger:RecordSealed")
    def _record_sealed(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("TableDefined", topic="cgledger:TableDefined")
    def _table_defined(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("TableRolled", topic="cgledger:TableRolled")
    def _table_rolled(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("CGDateReady", topic="cgledger:CGDateReady")
    def _cg_date_ready(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("CGDateBegan", topic="cgledger:CGDateBegan")
    def _cg_date_began(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("InitiativeChosen", topic="cgledger:InitiativeChosen")
    def _initiative_chosen(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("InitiativeDetermined", topic="cgledger:InitiativeDetermined")
    def _initiative_determined(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("RuleRecorded", topic="cgledger:RuleRecorded")
    def _rule_recorded(self, record: dict[str, Any]) -> None:
        """Any other event (RePhAdvanced, Control and its proposals, a ruleset's own, ...)."""
        self._apply(record)

    @event("UndoRequested", topic="cgledger:UndoRequested")
    def _undo_requested(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("UndoApplied", topic="cgledger:UndoApplied")
    def _undo_applied(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("UndoRejected", topic="cgledger:UndoRejected")
    def _undo_rejected(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("DisputeFiled", topic="cgledger:DisputeFiled")
    def _dispute_filed(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("DisputeResolved", topic="cgledger:DisputeResolved")
    def _dispute_resolved(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("DefinitionAmendmentRequested", topic="cgledger:DefinitionAmendmentRequested")
    def _amendment_requested(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("DefinitionAmended", topic="cgledger:DefinitionAmended")
    def _definition_amended(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("DefinitionAmendmentRejected", topic="cgledger:DefinitionAmendmentRejected")
    def _amendment_rejected(self, record: dict[str, Any]) -> None:
        self._apply(record)

    # ------------------------------------------------------------------ apply

    def _apply(self, record: dict[str, Any]) -> None:
        """Apply one record: the bookkeeping every event shares, then its
        handlers (``DISPATCH``). A sealed record is applied as the act it holds
        (``sealed.kind_of``). A state event (and a table roll that moved a side
        to its step) is also kept, with the keys its handlers read, in
        ``state_log``, from which an undo rebuilds the state."""
        p, seq, kind = record["payload"], record["seq"], sealbook.kind_of(record)
        self.head, self.head_at = record["hash"], record["recorded_at"]
        values = sealbook.values_of(record)
        if "roll" in p:
            rolled = Applied(seq, kind, values)
            for handler in ROLLED:
                handler(self, rolled)
        if kind not in undobook.BOOKKEEPING:
            self.last_event = seq
        if kind == "TableRolled":
            # A side's table roll in its RePh step moves it there (DESIGN §8);
            # kept where it changes something (``Tables.kept_roll``).
            kept = self.kept_roll(values) if "step" in values else None
            if kept is not None:
                self._apply_state(record, kind, kept)
            return
        if kind in self.state_events():
            self._apply_state(record, kind, values)
            return
        applied = Applied(seq, kind, values, record["actor"], record.get("internal") or {})
        for handler in DISPATCH.get(kind, ()):
            handler(self, applied)
        if kind == undobook.UNDO and p["state"]:
            self._rebuild_state()

    def _apply_state(self, record: dict[str, Any], kind: str, values: dict[str, Any]) -> None:
        self._on_revertible(record)
        seq, sealed = record["seq"], sealbook.is_sealed(record)
        keys = self._keys(kind) | (READS[Sealing._on_sealed.__qualname__] if sealed else set())
        kept = {k: v for k, v in values.items() if k in keys}
        if ACTOR in keys:
            kept[ACTOR] = record["actor"]
        self.state_log.append({"seq": seq, "type": kind, "values": kept, "sealed": sealed})
        self._on_state(Applied(seq, kind, kept), sealed=sealed)

    def _on_state(self, e: Applied, *, sealed: bool = False) -> None:
        """Apply a state event, live or replayed from ``state_log`` (DESIGN §5)."""
        if sealed:
            self._on_sealed(e)
        for handler in DISPATCH.get(e.kind, RULE_EVENT):
            handler(self, e)
        self._freeze_setup_areas(e)

    def _rebuild_state(self) -> None:
        """Replay the state events still in force (DESIGN §5); never re-rolls."""
        self._reset_state()
        for entry in self.state_log:
            if str(entry["seq"]) not in self.reverted:
                e = Applied(entry["seq"], entry["type"], entry["values"])
                self._on_state(e, sealed=bool(entry.get("sealed")))

    def _keys(self, kind: str) -> frozenset[str]:
        """What the handlers of a state event read (``core.reads``)."""
        handlers = DISPATCH.get(kind, RULE_EVENT)
        keys = frozenset().union(*(READS[h.__qualname__] for h in handlers))
        return keys | self.rule_keys() if RuleState._on_rule_event in handlers else keys

    # ------------------------------------------------------------------ commands

    @classmethod
    def create(cls, ctx: Ctx, *, campaign_id: UUID, **given: Unpack[creation.Creation]) -> Campaign:
        """Create a campaign (checked by ``creation``) and publish its first dice batch."""
        record = creation.creation_record(ctx, campaign_id=campaign_id, **given)
        campaign = cls(id=campaign_id, record=record)
        campaign.attach(ctx.history if ctx.history is not None else MemoryHistory())
        campaign.history.remember(record)
        # The first batch is the creation's last event, so it carries the
        # Idempotency-Key (if any): a retry is answered as of that version.
        campaign._publish_batch(ctx, main=True)
        return campaign

    def append(
        self,
        ctx: Ctx,
        kind: str,
        payload: dict[str, Any],
        values: dict[str, Any],
        *,
        owner: str | None,
    ) -> int:
        """Append a command's main event: public when there is no owner, else
        ``owner``'s secret act, sealed (``Sealing.seal_record``). Returns its seq."""
        if owner is None:
            self.close_public()
            record = self._emit(ctx, kind, {**payload, **values}, None, main=True)
        else:
            record = self.seal_record(ctx, kind, payload, values, owner)
        return int(record["seq"])

    def _emit(
        self,
        ctx: Ctx,
        kind: str,
        payload: dict[str, Any],
        secret: dict[str, Any] | None,
        main: bool = False,
        internal: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        if secret is not None:
            secret = {**secret, "salt": ctx.entropy(16).hex()}
        record = new_record(ctx, self.version + 1, kind, payload, secret, self.head)
        extra = dict(internal or {})
        if main and ctx.idempotency is not None:
            extra["idempotency"] = {**ctx.idempotency, "role": ctx.actor}
        if extra:
            record["internal"] = extra
        _TRIGGERS.get(kind, Campaign._rule_recorded)(self, record)
        self.history.remember(record)
        return record


_TRIGGERS = {
    "CommitmentsPublished": Campaign._commitments_published,
    "DiceRolled": Campaign._dice_rolled,
    "TableDefined": Campaign._table_defined,
    "RecordSealed": Campaign._record_sealed,
    "TableRolled": Campaign._table_rolled,
    "SecretRevealed": Campaign._secret_revealed,
    "CGDateReady": Campaign._cg_date_ready,
    "CGDateBegan": Campaign._cg_date_began,
    "InitiativeChosen": Campaign._initiative_chosen,
    "InitiativeDetermined": Campaign._initiative_determined,
    "UndoRequested": Campaign._undo_requested,
    "UndoApplied": Campaign._undo_applied,
    "UndoRejected": Campaign._undo_rejected,
    "DisputeFiled": Campaign._dispute_filed,
    "DisputeResolved": Campaign._dispute_resolved,
    "DefinitionAmendmentRequested": Campaign._amendment_requested,
    "DefinitionAmended": Campaign._definition_amended,
    "DefinitionAmendmentRejected": Campaign._amendment_rejected,
}
