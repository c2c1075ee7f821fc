"""The campaign aggregate: one append-only event stream per campaign.

Pattern (as in the ``eventsourcing`` examples): each public command method
checks the rules, rolls the dice and builds the complete event record; it then
calls a private ``@event`` method whose body only applies that record to the
state. Replay therefore never re-rolls and never re-checks. The clock, the
entropy source and the seed sealer are handed in through :class:`Ctx`, so
nothing in this module reads a clock or an RNG of its own.

Every record is hash-chained (``cgledger.domain.chain``) and may carry a secret part
that only its owner and the referee see until it is revealed
(``cgledger.domain.visibility``).
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, cast
from uuid import UUID

from eventsourcing.domain import Aggregate, event
from eventsourcing.domain import Snapshot as LibrarySnapshot
from eventsourcing.utils import register_topic
from pydantic import ValidationError

from cgledger.domain import definitions as defbook
from cgledger.domain import dice
from cgledger.domain import history as historybook
from cgledger.domain import purchases as purchasebook
from cgledger.domain import tables as tablebook
from cgledger.domain import undo as undobook
from cgledger.domain.chain import GENESIS, META, event_hash, secret_digest
from cgledger.domain.context import Ctx, Sealer
from cgledger.domain.errors import Forbidden, InvalidInput, NotFound, RuleViolation
from cgledger.domain.history import History, MemoryHistory
from cgledger.domain.rulesets import REGISTRY, Ruleset
from cgledger.domain.rulesets.base import ALL, CHITS, IDLE, SCENARIO, DateFacts, Facts, RePhStep
from cgledger.domain.territory import BLOCK_KEY, ControlState, MapGroupData, cached_group
from cgledger.domain.visibility import REFEREE

MAX_PURPOSE = 200
MAX_INITIAL_CPP = 10_000
SEED_BYTES = 32
#: The shape of the aggregate's state. A snapshot of an older shape is not
#: used: the Ledger rebuilds the campaign from its events instead (2: undo;
#: 3: the ruleset's own state under ``rules``; 4: what grows with the history
#: is read by key, ``cgledger.domain.history``; 5: a ruleset gained a CPP
#: roster (9.616-9.617), so its snapshots of schema 4 hold a ``rules`` state of
#: the wrong shape; 6: the Initiative and the RePh sequence; 7: table rolls
#: bound to their step, the results that last, each CG-Scenario End's CVP;
#: 8: Control, DESIGN §9).
SCHEMA = 10
#: What the engine's state handlers read of a state event; a rebuild needs no
#: more (the ruleset's ``Rules.state_keys`` add its own).
_STATE_KEYS = frozenset(
    {
        "side", "cg_date", "step", "next", "chit", "chits", "scenario", "setup_first",
        "body", "by", "cvp", "map_group", "locations", "lvp", "blocks", "into_setup_areas",
        "control",
    }
)  # fmt: skip
#: The engine's own state events; a ruleset adds its ``Rules.state_events``.
ENGINE_STATE_EVENTS = undobook.STATE_EVENTS
MAX_REASON = 500
MAX_CLAIM = 1000

__all__ = ["SCHEMA", "Campaign", "Ctx", "Sealer", "token_hash"]


def _initial_ob(doc: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    chart = doc.get("rg_chart") or {}
    out: dict[str, list[dict[str, Any]]] = {}
    for side, given in (doc.get("initial_ob") or {}).items():
        out[side] = []
        for ob in given:
            entry = purchasebook.find_entry(chart.get(side) or (), ob["rg"]) or {}
            out[side].append({**ob, "fpp": entry.get("fpp")})
    return out


def _book_control(control: dict[str, dict[str, Any]], seq: int, values: dict[str, Any]) -> None:
    """Enter one Control change (``{"map_group", "locations", "blocks"?}``) in
    a book of Control by map group: each Location's side, its marker (a
    Location made Strategic, MARKING THE MAP) and Blazing where sent, and the
    Blocks it switched."""
    book = control.setdefault(values["map_group"], {})
    for loc in values["locations"]:
        key = f"{loc['hex']}/{loc['level']}"
        entry = {**book.get(key, {}), "side": loc["side"], "seq": seq}
        for name in ("marker", "blazing"):
            if name in loc:
                if loc[name]:
                    entry[name] = loc[name]
                else:
                    entry.pop(name, None)
        book[key] = entry
    for block in values.get("blocks") or ():
        book[f"{BLOCK_KEY}{block['block']}"] = {
            "side": block["side"],
            "seq": seq,
            "rule": block["rule"],
        }


def token_hash(token: str) -> str:
    return hashlib.sha256(b"cgledger/v1/token\n" + token.encode()).hexdigest()


class Campaign(Aggregate):
    TOPIC = "cgledger:Campaign"

    class Event(Aggregate.Event):
        TOPIC = "cgledger:Campaign.Event"

    class Created(Event, Aggregate.Created):
        TOPIC = "cgledger:Campaign.Created"

    class Snapshot(LibrarySnapshot):
        """A snapshot of the state only: the attached history stays out."""

        TOPIC = "cgledger:Campaign.Snapshot"

        @classmethod
        def take(cls, aggregate: Any) -> Any:
            history = aggregate.__dict__.pop("_history", None)
            try:
                return super().take(aggregate)
            finally:
                if history is not None:
                    aggregate.__dict__["_history"] = history

    # ------------------------------------------------------------------ events
    # Each @event body only applies a record that a command built.

    @event("CampaignCreated", topic="cgledger:CampaignCreated")
    def __init__(self, id: UUID, record: dict[str, Any]) -> None:
        del id  # taken by the library as the originator id
        self.schema = SCHEMA
        self.ruleset_id = ""
        self.campaign_name = ""
        self.title = ""
        self.sides: list[str] = []
        self.calendar: list[str] = []
        self.date_index = 0
        self.extendable = False
        self.head = GENESIS
        #: When the head event was recorded (a checkpoint's ``time``).
        self.head_at = ""
        self.token_hashes: dict[str, str] = {}
        #: The last two batches of dice commitments (``first``, ``count`` and the
        #: ``seq`` of the event that holds them): the next roll's seed is in one
        #: of them. Older batches are found by key (``cgledger.domain.history``).
        self.batches: list[dict[str, Any]] = []
        #: How many roll indices have a published commitment, and how many are used.
        self.committed = 0
        self.roll_count = 0
        #: The ruleset's own state (``Rules.initial_state``), e.g. the CPP lines of a Roster.
        self.rules: dict[str, Any] = {}
        self.steps: dict[str, str | None] = {}
        #: Sides ready to begin the next CG Date, and the date each proposed.
        self.ready: dict[str, str] = {}
        #: Content hash -> seq of the TableDefined event (see recorded_tables).
        self.table_defs: dict[str, int] = {}
        # Undo by replay (domain.undo).
        #: The revertible events (domain.undo.Book) and which are reverted, by which undo.
        self.revertible: undobook.Book = {}
        self.reverted: dict[str, int] = {}
        #: Every state event's values, in order: the state is rebuilt from those in force.
        self.state_log: list[dict[str, Any]] = []
        self.genesis: dict[str, Any] = {}
        #: The seq of the latest event that is someone's action (not bookkeeping).
        self.last_event = 0
        #: Per role: set by an undo that reverted rolls of that role; that role's
        #: next roll records that it followed the undo (``after_undo``).
        self.pending_reroll: dict[str, dict[str, Any]] = {}
        self.undo_requests: dict[str, dict[str, Any]] = {}
        self.disputes: dict[str, dict[str, Any]] = {}
        #: The CG definition in force (DESIGN §7): its hash and the seq of the
        #: event that holds it (creation or an approved amendment); ``None``
        #: for a campaign created before definitions existed.
        self.definition: dict[str, Any] | None = None
        #: Definition amendments by the seq that requested them.
        self.amendments: dict[str, dict[str, Any]] = {}
        #: Initiative Determination (8.623, 9.6213) by CG Date: the seq of each
        #: side's chit, the chits (secret to their owners until both are chosen),
        #: and the scenario they generated. See ``initiative_view``.
        self.initiatives: dict[str, dict[str, Any]] = {}
        #: Each side's chits of the CG by kind (8.6231 Attack, 9.62131 Attack and Idle).
        self.chits_used: dict[str, dict[str, int]] = {}
        #: CG-Scenario End (DESIGN §8): a side's proposal waiting for the other's
        #: (``{"side", "body", "seq"}``), the scenarios ended (``scenario_ends``), and
        #: whether the sequence waits for the next New CG Date since the last.
        self.scenario_end_proposal: dict[str, Any] | None = None
        #: Each CG-Scenario End's CVP earned, by CG Date (``facts``).
        self.scenario_ends: dict[str, dict[str, int]] = {}
        #: Each CG-Scenario End's LVP (8.6032-8.6033, 8.6234), by CG Date.
        self.lvp_rows: dict[str, dict[str, Any]] = {}
        self.awaiting_new_date = False
        #: The tables each side rolled in its RePh steps on this CG Date
        #: (``TableRule.required``), and the results that last (``Ruleset.lasting``):
        #: by key, by side (or ``ALL``), ``{"value", "known", "cg_date", "seq",
        #: "rule", "before"}``.
        self.rolled_tables: dict[str, list[str]] = {}
        self.lasting: dict[str, dict[str, dict[str, Any]]] = {}
        #: Control recorded (DESIGN §9), by map group, by Location ("hex/level"):
        #: ``{"side", "seq"}``; a Location not here has its definition's
        #: ``initial_control`` (level 0) or none.
        self.control: dict[str, dict[str, dict[str, Any]]] = {}
        #: The Setup Areas as determined (DESIGN §9): from the moment the first
        #: side completes the Setup Area step (8.605, 9.605) after a CG-Scenario
        #: End until the next scenario is in play, ``{"seq", "side", "control"}``
        #: with the Control they were determined from; ``None``: not frozen.
        self.setup_frozen: dict[str, Any] | None = None
        #: The map groups a rule recorded as left by a side's units (8.6131)
        #: since the last scenario was in play, by the seq that recorded it.
        self.vacated: dict[str, int] = {}
        self._apply(record)

    @event("CommitmentsPublished", topic="cgledger:CommitmentsPublished")
    def _commitments_published(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("DiceRolled", topic="cgledger:DiceRolled")
    def _dice_rolled(self, record: dict[str, Any]) -> None:
        self._apply(record)

    @event("SecretRevealed", topic="cgledger:SecretRevealed")
    def _secret_revealed(self, record: dict[str, Any]) -> None:
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
        """Any event of a ruleset's own commands; ``record["type"]`` names it."""
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
        """Apply one record: the bookkeeping every event shares, then its own."""
        p = record["payload"]
        seq = record["seq"]
        self.head = record["hash"]
        self.head_at = record["recorded_at"]
        kind = record["type"]
        if "roll" in p:
            self.roll_count += 1
            self.pending_reroll.pop(p["roll"]["side"], None)
        if kind not in undobook.BOOKKEEPING:
            self.last_event = seq
        values = {**p, **(record["secret"] or {})}
        is_state = kind in self._state_events()
        if is_state:
            # Rolls are revertible too, but their entries are read from the
            # log when an undo is planned (``_plan_book``): they grow with it.
            self.revertible[str(seq)] = undobook.entry(record, state=True)
        if not is_state and _moves_state(kind, p):
            kept = self._roll_entry(values)
            if kept is not None:
                # Kept, so an undo of an earlier state event sees it built on it.
                self.revertible[str(seq)] = undobook.entry(record, state=True)
                self.state_log.append({"seq": seq, "type": kind, "values": kept})
                self._on_state(kind, seq, kept)
            return
        if is_state:
            keys = _STATE_KEYS | self.ruleset.rules.state_keys
            kept = {k: v for k, v in values.items() if k in keys}
            self.state_log.append({"seq": seq, "type": kind, "values": kept})
            self._on_state(kind, seq, values)
            return
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(record, values)

    def _state_events(self) -> frozenset[str]:
        if not self.ruleset_id:
            return ENGINE_STATE_EVENTS  # the creation event itself
        return ENGINE_STATE_EVENTS | self.ruleset.rules.state_events

    def _on_state(self, kind: str, seq: int, values: dict[str, Any]) -> None:
        """Apply a state event: the engine's own, or the ruleset's (DESIGN §5:
        replayed again, from ``state_log``, after an undo)."""
        self._on_state_kind(kind, seq, values)
        self._freeze_setup_areas(seq)

    def _freeze_setup_areas(self, seq: int) -> None:
        """MARKING THE MAP (8.605), 9.6055: "once all Setup Areas have been
        correctly marked they remain thus until the start of the next CG
        scenario". They are determined from the Control at the moment the first
        side completes the Setup Area step after a CG-Scenario End, and thaw
        when the next scenario is in play."""
        step = self.ruleset.rules.setup_area_step
        if step is None:
            return
        at = {side: self.steps.get(side) for side in self.sides}
        if all(s == SCENARIO for s in at.values()):
            self.setup_frozen = None
            self.vacated = {}
            return
        if self.setup_frozen is not None or not self.scenario_ends:
            return
        order = self.ruleset.step_order
        for side in self.sides:
            now = at[side]
            if now is not None and (now == SCENARIO or order(now) > order(step)):
                self.setup_frozen = {
                    "seq": seq,
                    "side": side,
                    "control": copy.deepcopy(self.control),
                }
                return

    def _on_state_kind(self, kind: str, seq: int, values: dict[str, Any]) -> None:
        if kind == "CGDateReady":
            self.ready[values["side"]] = values["next"]
            # Ready for New CG Date: the side has completed the steps before it.
            self.steps[values["side"]] = values["step"]
        elif kind == "CGDateBegan":
            self.ready = {}
            self.awaiting_new_date = False
            self.rolled_tables = {}
            if values["cg_date"] not in self.calendar:
                self.calendar.append(values["cg_date"])
            self.date_index = self.calendar.index(values["cg_date"])
            self.ruleset.rules.on_new_date(self.rules, values["cg_date"])
            self.steps = dict.fromkeys(self.sides, values["step"])
        elif kind in ("InitiativeChosen", "InitiativeDetermined"):
            self._on_initiative(kind, seq, values)
        elif kind == "RePhAdvanced":
            self.steps[values["side"]] = values["step"]
        elif kind == "TableRolled":
            self._on_table_rolled(seq, values)
        elif kind == "ControlRecorded":
            self._on_control(seq, values)
        elif kind == "ScenarioEndProposed":
            self.scenario_end_proposal = {"side": values["by"], "body": values["body"], "seq": seq}
        elif kind == "ScenarioEnded":
            for change in values.get("control") or ():
                self._on_control(seq, change)
            self.scenario_end_proposal = None
            self.scenario_ends[values["cg_date"]] = dict(values.get("cvp") or {})
            if values.get("lvp") is not None:
                self.lvp_rows[values["cg_date"]] = dict(values["lvp"])
            self.awaiting_new_date = True
            first = self.ruleset.reph_steps[0].id
            self.steps = dict.fromkeys(self.sides, first)
            self.ruleset.rules.apply(self.rules, kind, seq, values)
        else:
            self.ruleset.rules.apply(self.rules, kind, seq, values)
            if "side" in values and "step" in values:
                self.steps[values["side"]] = values["step"]

    def _on_control(self, seq: int, values: dict[str, Any]) -> None:
        """Control recorded (DESIGN §9): each Location's side, marker (a
        Location made Strategic, MARKING THE MAP) and Blazing, and the Blocks
        it switched. A rule that also enters the Setup Areas already determined
        (8.6131) changes the frozen Control too."""
        gid = values["map_group"]
        if "into_setup_areas" in values:
            # A rule gave the whole map group at once: its side left it (8.6131).
            self.vacated[gid] = seq
        _book_control(self.control, seq, values)
        if values.get("into_setup_areas") and self.setup_frozen is not None:
            _book_control(self.setup_frozen["control"], seq, values)

    def _roll_entry(self, values: dict[str, Any]) -> dict[str, Any] | None:
        """What a side's table roll in its RePh step keeps for an undo's rebuild,
        if it changes anything: it moves the side to a step, or its table has a
        result that lasts or a rule on when it is rolled (``TableRule``). A
        further roll in the step the side is at (Escape, unit by unit) keeps
        nothing, so the aggregate grows with the steps taken, not the rolls."""
        rs, table_id = self.ruleset, values["rule"]
        lasting, ruled = rs.lasting_of(table_id), rs.table_rules_of(table_id)
        if not lasting and not ruled and self.steps.get(values["side"]) == values["step"]:
            return None
        starts = {x.start for x in lasting if x.start is not None}
        return {
            **{k: values[k] for k in ("side", "cg_date", "step", "rule")},
            "outcome": {"band": values["outcome"]["band"]},
            "inputs": {k: v for k, v in values["inputs"].items() if k in starts},
        }

    def _on_table_rolled(self, seq: int, values: dict[str, Any]) -> None:
        """A side's table roll in its RePh step (DESIGN §8): the side has reached
        that step, has made that roll on this CG Date, and the results of it
        that last (``Ruleset.lasting``) become campaign state."""
        side, table_id = values["side"], values["rule"]
        self.steps[side] = values["step"]
        made = self.rolled_tables.setdefault(side, [])
        if table_id not in made:
            made.append(table_id)
        for lasting in self.ruleset.lasting_of(table_id):
            holder = side if lasting.per_side else ALL
            entry = self.lasting.setdefault(lasting.key, {})
            prev = entry.get(holder)
            known = lasting.start is not None or lasting.initial is not None
            if lasting.start is not None:
                base = values["inputs"].get(lasting.start)
            elif prev is not None:
                base, known = prev["value"], bool(prev["known"])
            else:
                base = lasting.initial
            change = lasting.changes[values["outcome"]["band"]]
            if isinstance(change, str):
                value: Any = change
                known = True
            elif change is None:
                value = base if known or base is not None else 0  # no change yet
            else:
                value = int(base or 0) + change
            entry[holder] = {
                "value": value,
                "known": known,
                "cg_date": values["cg_date"],
                "seq": seq,
                "rule": lasting.rule,
                "before": None if prev is None else {**prev, "before": None},
            }

    def _on_initiative(self, kind: str, seq: int, values: dict[str, Any]) -> None:
        entry = self.initiatives.setdefault(
            values["cg_date"],
            {"chosen": {}, "chits": {}, "determined": None, "scenario": None, "setup_first": None},
        )
        entry["chosen"][values["side"]] = seq
        self.steps[values["side"]] = values["step"]
        if kind == "InitiativeChosen":
            entry["chits"][values["side"]] = values["chit"]
            return
        entry["chits"] = dict(values["chits"])
        entry["determined"] = seq
        entry["scenario"] = values["scenario"]
        entry["setup_first"] = values["setup_first"]
        for side, chit in values["chits"].items():
            used = self.chits_used.setdefault(side, {})
            used[chit] = used.get(chit, 0) + 1
        if values["scenario"] == IDLE:
            # 8.6232 note 2 (9.62132): no scenario; the '*' steps repeat from
            # New CG Date (8.6121), which both sides now take again.
            self.awaiting_new_date = True
            self.steps = dict.fromkeys(self.sides, self.ruleset.new_date_step)

    def _on_CampaignCreated(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        self.ruleset_id = p["ruleset"]
        self.campaign_name = p["campaign_name"]
        self.title = p["title"]
        self.sides = list(p["sides"])
        self.calendar = list(p["calendar"])
        self.date_index = self.calendar.index(p["start_date"])
        self.extendable = p["extendable"]
        self.token_hashes = dict(record["internal"]["token_hashes"])
        if p.get("definition_hash") is not None:
            self.definition = {
                "hash": p["definition_hash"],
                "seq": record["seq"],
                "options": _options(p["definition"]),
            }
        self.genesis = {k: p.get(k) for k in ("calendar", "start_date", "cpp", "initial_cpp")}
        # RG given in the Initial-Scenario OB: rows of the RG Purchase Record,
        # with the FPP a chart line grants (DESIGN §10; 9.619 "given as a
        # reinforcement in the initial CG Scenario").
        self.genesis["initial_ob"] = _initial_ob(p.get("definition") or {})
        self._reset_state()

    def _reset_state(self) -> None:
        """The state as the campaign was created, before any state event."""
        g = self.genesis
        self.calendar = list(g["calendar"])
        self.date_index = self.calendar.index(g["start_date"])
        self.steps = dict.fromkeys(self.sides)
        self.ready = {}
        self.initiatives = {}
        self.chits_used = {}
        self.scenario_end_proposal = None
        self.scenario_ends = {}
        self.lvp_rows = {}
        self.awaiting_new_date = False
        self.rolled_tables = {}
        self.lasting = {}
        self.control = {}
        self.setup_frozen = None
        self.vacated = {}
        self.rules = self.ruleset.rules.initial_state(g, self.sides)

    def _rebuild_state(self) -> None:
        """Replay the state events still in force (DESIGN §5); never re-rolls."""
        self._reset_state()
        for entry in self.state_log:
            if str(entry["seq"]) not in self.reverted:
                self._on_state(entry["type"], entry["seq"], entry["values"])

    def _on_CommitmentsPublished(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        self.committed = p["first_index"] + len(p["commitments"])
        batch = {"first": p["first_index"], "count": len(p["commitments"]), "seq": record["seq"]}
        self.batches = [*self.batches[-1:], batch]

    def _on_TableDefined(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        self.recorded_tables()[p["hash"]] = record["seq"]

    def _on_UndoRequested(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        self.undo_requests[str(record["seq"])] = {
            "by": p["by"],
            "seqs": p["seqs"],
            "to_seq": p["to_seq"],
            "reason": p["reason"],
            "planned": {"reverts": p["reverts"], "restores": p["restores"]},
            "status": "pending",
            "undo": None,
            "answer": None,
        }

    def _on_UndoApplied(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        seq = record["seq"]
        for s in p["reverts"]:
            self.reverted[str(s)] = seq
        for s in p["restores"]:
            self.reverted.pop(str(s), None)
        self.revertible[str(seq)] = {
            "type": undobook.UNDO,
            "actor": record["actor"],
            "index": None,
            "state": p["state"],
            "reverts": p["reverts"],
            "restores": p["restores"],
            "at_once_by": p["by"] if p["at_once"] else None,
        }
        if p["request"] is not None:
            request = self.undo_requests[str(p["request"])]
            request["status"] = "applied"
            request["undo"] = seq
            request["answer"] = {"seq": seq, "by": p["approved_by"], "note": None}
        if p["state"]:
            self._rebuild_state()
        for role, marker in list(self.pending_reroll.items()):
            if marker["undo"] in p["reverts"]:
                # The undo that reverted the rolls is itself undone: no re-roll follows it.
                del self.pending_reroll[role]
        by_role: dict[str, list[int]] = p.get("rerolls") or {}
        if "rerolls" not in p:
            # An undo recorded before ``rerolls`` was: the roles of its rolls
            # are read off the entries an older aggregate kept, where it has them.
            newly = set(p["rolls"])  # indices of the rolls this undo reverted
            for s in p["reverts"]:
                info = self.revertible.get(str(s))
                if info is not None and info["index"] in newly:
                    by_role.setdefault(info["actor"], []).append(info["index"])
        for role, indices in by_role.items():
            self.pending_reroll[role] = {"undo": seq, "rolls": sorted(indices)}

    def _on_UndoRejected(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        request = self.undo_requests[str(p["request"])]
        request["status"] = "withdrawn" if p["withdrawn"] else "rejected"
        request["answer"] = {"seq": record["seq"], "by": p["by"], "note": p["note"]}

    def _on_DisputeFiled(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        self.disputes[str(record["seq"])] = {
            "of_seq": p["of_seq"],
            "by": p["by"],
            "claim": p["claim"],
            "status": "open",
            "resolution": None,
        }

    def _on_DisputeResolved(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        dispute = self.disputes[str(p["dispute"])]
        dispute["status"] = "upheld" if p["decision"] == "uphold" else "reverted"
        dispute["resolution"] = {
            "seq": record["seq"],
            "by": p["by"],
            "decision": p["decision"],
            "note": p["note"],
            "undo": p["undo"],
        }

    def _on_DefinitionAmendmentRequested(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        self.amendments[str(record["seq"])] = {
            "by": p["by"],
            "base_hash": p["base_hash"],
            "status": "pending",
            "answer": None,
        }

    def _on_DefinitionAmended(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        self.definition = {
            "hash": p["hash"],
            "seq": record["seq"],
            "options": _options(p["definition"]),
        }
        amendment = self.amendments[str(p["amendment"])]
        amendment["status"] = "applied"
        amendment["answer"] = {"seq": record["seq"], "by": p["approved_by"], "note": None}

    def _on_DefinitionAmendmentRejected(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        amendment = self.amendments[str(p["amendment"])]
        amendment["status"] = "withdrawn" if p["withdrawn"] else "rejected"
        amendment["answer"] = {"seq": record["seq"], "by": p["by"], "note": p["note"]}

    # ------------------------------------------------------------------ queries

    @property
    def cid(self) -> str:
        return str(self.id)

    @property
    def ruleset(self) -> Ruleset:
        return REGISTRY[self.ruleset_id]

    @property
    def cg_date(self) -> str:
        return self.calendar[self.date_index]

    def recorded_tables(self) -> dict[str, int]:
        """Content hash of each table definition in the log -> its TableDefined seq.

        Created on first use, so snapshots taken before tables existed still load.
        """
        found: dict[str, int] = self.__dict__.setdefault("table_defs", {})
        return found

    def role_for_token(self, token: str) -> str | None:
        digest = token_hash(token)
        found = None
        for role, stored in self.token_hashes.items():
            if hmac.compare_digest(digest, stored):
                found = role
        return found

    def reverted_by(self, seq: int) -> int | None:
        """The seq of the undo that reverted event ``seq``, if it is reverted."""
        return self.reverted.get(str(seq))

    @property
    def history(self) -> History:
        """Where the records and keys this aggregate does not keep are read."""
        found: History | None = self.__dict__.get("_history")
        if found is None:
            raise RuntimeError("the campaign's history is not attached (Campaign.attach)")
        return found

    def attach(self, history: History) -> None:
        """Attach the history the campaign's records are read from. Kept out
        of snapshots (``Campaign.Snapshot``)."""
        self.__dict__["_history"] = history

    def lookup(self, kind: str, name: object) -> dict[str, Any] | None:
        """A keyed entry (``cgledger.domain.history``) as of this version."""
        return self.history.lookup(historybook.key(kind, name), self.version)

    def record(self, seq: int) -> dict[str, Any]:
        """The stored record of event ``seq`` (server side: unredacted)."""
        if not 1 <= seq <= self.version:
            raise NotFound(f"no event {seq} in this campaign", field="seq")
        return self.history.record(seq)

    def _type_of(self, seq: int) -> str:
        return str(self.record(seq)["type"])

    def revealed_by(self, seq: int) -> int | None:
        """The seq of the ``SecretRevealed`` event of event ``seq``, if any."""
        found = self.lookup(historybook.REVEAL, seq)
        return None if found is None else int(found["seq"])

    def is_revealed(self, seq: int) -> bool:
        return self.revealed_by(seq) is not None

    def secret_owner(self, seq: int) -> str | None:
        record = self.record(seq)
        return None if record["secret"] is None else str(record["payload"]["owner"])

    def commitment(self, index: int) -> str:
        """The published commitment of roll index ``index``."""
        batch = self._batch(index)
        return str(batch["commitments"][index - batch["first"]])

    def seed(self, index: int, sealer: Sealer) -> bytes:
        """The seed behind commitment ``index``, unsealed (server side only)."""
        batch = self._batch(index)
        raw = sealer.unseal(batch["blob"], self._aad(batch["first"]))
        offset = (index - batch["first"]) * SEED_BYTES
        seed = raw[offset : offset + SEED_BYTES]
        if dice.commitment(self.cid, index, seed) != batch["commitments"][index - batch["first"]]:
            raise RuntimeError(f"sealed seed {index} does not match its commitment")
        return seed

    def _batch(self, index: int) -> dict[str, Any]:
        """The batch of commitments that holds roll index ``index``, read from
        its ``CommitmentsPublished`` record: one of the last two, whose seqs
        the aggregate keeps, or an older one found by key."""
        seq = None
        for batch in self.batches:
            if batch["first"] <= index < batch["first"] + batch["count"]:
                seq = batch["seq"]
        if seq is None and 0 <= index < self.committed:
            # Batches are published BATCH_SIZE at a time from index 0 (dice.BATCH_SIZE).
            found = self.lookup(historybook.BATCH, index - index % dice.BATCH_SIZE)
            seq = None if found is None else found["seq"]
        if seq is None:
            raise NotFound(f"no commitment has been published for roll index {index}")
        record = self.history.record(int(seq))
        p = record["payload"]
        return {
            "first": p["first_index"],
            "commitments": p["commitments"],
            "blob": record["internal"]["sealed"],
        }

    # ------------------------------------------------------------------ commands

    @classmethod
    def create(
        cls,
        ctx: Ctx,
        *,
        campaign_id: UUID,
        ruleset_id: str,
        campaign_name: str,
        title: str,
        start_date: str | None,
        initial_cpp: dict[str, int] | None,
        token_hashes: dict[str, str],
        definition: dict[str, Any] | None = None,
    ) -> Campaign:
        """Create a campaign and publish its first batch of dice commitments."""
        ruleset = REGISTRY.get(ruleset_id)
        if ruleset is None:
            raise InvalidInput(
                f"unknown ruleset {ruleset_id!r}; known: {', '.join(REGISTRY)}", field="ruleset"
            )
        cgdef = ruleset.campaigns.get(campaign_name)
        if cgdef is None:
            raise InvalidInput(
                f"unknown campaign {campaign_name!r} for {ruleset_id}; known: "
                f"{', '.join(ruleset.campaigns)}",
                field="campaign",
            )
        if start_date is None:
            if cgdef.initial_date is None:
                raise InvalidInput(
                    f"{cgdef.rule} is not in the seed text: pass start_date, one of "
                    f"{', '.join(cgdef.calendar)}",
                    field="start_date",
                )
            start = cgdef.initial_date
        else:
            start = _known_date(ruleset, list(cgdef.calendar), start_date, "start_date")
            if cgdef.initial_date is not None and start != cgdef.initial_date:
                raise InvalidInput(
                    f"{cgdef.rule}: {campaign_name} starts on {cgdef.initial_date}",
                    field="start_date",
                )
        calendar = list(cgdef.calendar[cgdef.calendar.index(start) :])
        cpp_amounts = dict.fromkeys(ruleset.sides, 0)
        for side, amount in (initial_cpp or {}).items():
            if side not in ruleset.sides:
                raise InvalidInput(
                    f"unknown side {side!r}; sides are {', '.join(ruleset.sides)}",
                    field="initial_cpp",
                )
            if not 0 <= amount <= MAX_INITIAL_CPP:
                raise InvalidInput(
                    f"initial CPP must be 0 to {MAX_INITIAL_CPP}", field="initial_cpp"
                )
            cpp_amounts[side] = amount
        # DESIGN §7: the CG definition (the ruleset's sample when none is given),
        # validated, and recorded with its hash.
        if definition is None:
            doc, doc_hash = _sample_definition(ruleset)
        else:
            doc = validated_definition(ruleset, definition)
            doc_hash = defbook.definition_hash(doc)
        payload = {
            "campaign": str(campaign_id),
            "ruleset": ruleset.id,
            "campaign_name": cgdef.name,
            "title": title,
            "sides": list(ruleset.sides),
            "calendar": calendar,
            "start_date": start,
            "extendable": cgdef.extendable,
            "cpp": ruleset.rules.has_roster,
            "initial_cpp": cpp_amounts,
            "protocol": dice.PROTOCOL,
            "definition": doc,
            "definition_hash": doc_hash,
        }
        record = _record(ctx, 1, "CampaignCreated", payload, None, GENESIS)
        record["internal"] = {"token_hashes": token_hashes}
        campaign = cls(id=campaign_id, record=record)
        campaign.attach(ctx.history if ctx.history is not None else MemoryHistory())
        campaign.history.remember(record)
        # The first batch is the creation's last event, so it carries the
        # Idempotency-Key (if any): a retry is answered as of that version.
        campaign._publish_batch(ctx, main=True)
        return campaign

    def roll(
        self,
        ctx: Ctx,
        *,
        count: int,
        purpose: str,
        secret: bool,
        client_nonce: str | None,
    ) -> int:
        """A free roll (DESIGN §2). Returns the seq of the ``DiceRolled`` event."""
        self._require_role(ctx)
        if count not in (1, 2):
            raise InvalidInput("dice must be 1 (dr) or 2 (DR)", field="dice")
        if not purpose.strip() or len(purpose) > MAX_PURPOSE:
            raise InvalidInput(f"purpose must be 1 to {MAX_PURPOSE} characters", field="purpose")
        if purpose.strip().lower().startswith(f"{self.ruleset_id}:"):
            raise InvalidInput(
                f"purposes starting with '{self.ruleset_id}:' are reserved for the rule "
                "endpoints, which apply the rule to the roll",
                field="purpose",
            )
        pub, sec = self._draw(ctx, count, purpose, secret=secret, client_nonce=client_nonce)
        owner = ctx.actor if secret else None
        payload = {"side": ctx.actor, "cg_date": self.cg_date, "roll": pub}
        return self.append(ctx, "DiceRolled", payload, sec or {}, owner=owner)

    def roll_table(
        self,
        ctx: Ctx,
        table_id: str,
        *,
        drm: list[tablebook.DrmRequest],
        inputs: dict[str, Any],
        secret: bool | None,
        client_nonce: str | None,
    ) -> int:
        """Roll on a rule table: the Original roll, each DRM, the Final result and
        the outcome, read by the one resolver (``cgledger.domain.tables``). A table the
        rules call Secret is secret unless ``secret`` is false."""
        self._require_role(ctx)
        table = self.table(table_id)
        if table.endpoint:
            raise RuleViolation(
                f"{table.rule}: {table.id} changes the campaign's state; roll it with "
                f"POST /v1/campaigns/{self.cid}{table.endpoint}",
                rule=table.rule,
            )
        self.check_binding(ctx, table)
        drm = self.with_counted_drms(ctx, table, drm)
        inputs = self._with_lasting_inputs(ctx, table, inputs)
        # Refuse bad DRMs and inputs before a die is drawn: nothing is appended.
        prepared = tablebook.prepare(table, drm, inputs)
        hidden = table.secret if secret is None else secret
        lasting = self.ruleset.lasting_of(table.id)
        if hidden and lasting and ctx.actor != REFEREE:
            raise InvalidInput(
                f"{lasting[0].rule}: the {table.title}'s result lasts ({lasting[0].key}) and "
                "is shown to both sides; it cannot be a secret roll",
                field="secret",
                rule=lasting[0].rule,
            )
        self._define_table(ctx, table)
        purpose = f"{table.id} {table.title}"[:MAX_PURPOSE]
        pub, sec = self._draw(ctx, table.dice, purpose, secret=hidden, client_nonce=client_nonce)
        rolled = sec["dice"] if sec is not None else pub["dice"]
        result = tablebook.read(table, rolled, prepared)
        payload = {
            "side": ctx.actor,
            "cg_date": self.cg_date,
            "rule": table.id,
            "table": tablebook.table_ref(table),
            "roll": pub,
        }
        if table.step not in (None, SCENARIO) and ctx.actor != REFEREE:
            payload["step"] = table.step  # the side has reached it (DESIGN §8)
        values_out = {**(sec or {}), "inputs": dict(inputs), **result}
        return self.append(
            ctx, "TableRolled", payload, values_out, owner=ctx.actor if hidden else None
        )

    def _with_lasting_inputs(
        self, ctx: Ctx, table: tablebook.Table, inputs: dict[str, Any]
    ) -> dict[str, Any]:
        """The input that states a lasting value before the roll (8.6122's current
        SAN, ``Lasting.start``) defaults to the value the ledger holds. A stated
        value stands: a SAN also changes outside the RePh tables (an OB's "SAN
        +2"), which the ledger does not record; the roll shows what was stated."""
        out = dict(inputs)
        wanted = [x for x in self.ruleset.lasting_of(table.id) if x.start and x.start not in out]
        facts = self.facts(ctx.actor) if wanted else None
        for lasting in wanted:
            assert facts is not None
            assert lasting.start is not None
            found = facts.last(lasting.key)
            if found is not None and found["known"] and found["value"] is not None:
                out[lasting.start] = found["value"]
        return out

    def check_binding(self, ctx: Ctx, table: tablebook.Table) -> None:
        """DESIGN §8: a table is rolled by the sides its rule names, on the CG
        Dates it allows (403, 409; the detail starts with the rule number). The
        referee may roll any table at any time: a ruling, recorded as the
        referee's (the roll's ``side`` is ``referee``)."""
        if ctx.actor == REFEREE:
            return
        if table.sides and ctx.actor not in table.sides:
            raise Forbidden(
                f"{table.rule}: the {table.title} is rolled by the "
                f"{' or '.join(table.sides)} side, not by the {ctx.actor} side",
                rule=table.rule,
            )
        if table.step is not None:
            self.check_in_step(ctx.actor, table.step, f"the {table.title}", table.rule)
        if not self.ruleset.rolled_on(table, self.cg_date):
            when = (
                f"only on {' and '.join(table.on_dates)}"
                if table.on_dates
                else f"from {table.from_date} on"
            )
            raise RuleViolation(
                f"{table.rule}: the {table.title} is rolled {when}; the CG Date is {self.cg_date}",
                rule=table.rule,
            )
        for table_rule in self.ruleset.table_rules_of(table.id):
            why = None if table_rule.refuse is None else table_rule.refuse(self.facts(ctx.actor))
            if why is not None:
                raise RuleViolation(why, rule=table_rule.rule)
            if table_rule.once and table.id in self.rolled_tables.get(ctx.actor, ()):
                raise RuleViolation(
                    f"{table_rule.rule}: {ctx.actor} has made the {table.title} "
                    f"{table.roll_name} for {self.cg_date} already",
                    rule=table_rule.rule,
                )

    def check_in_step(self, side: str, step: str, what: str, rule: str) -> None:
        """DESIGN §8: ``what`` (a table roll, a purchase) is made in RePh
        ``step`` (409 otherwise, the detail starting with ``rule``): the step
        applies to ``side`` now, ``side`` has not passed it, and no step before
        it still waits for a required action or for both sides. ``SCENARIO``:
        made while the CG scenario is in play."""
        rs = self.ruleset
        if step == SCENARIO:
            away = {s: at for s in self.sides if (at := self.current_step(s)) != SCENARIO}
            if away:
                where = ", ".join(f"{s} at {at}" for s, at in away.items())
                raise RuleViolation(
                    f"{rule}: {what} is rolled during the CG scenario, which is not in "
                    f"play ({where})",
                    rule=rule,
                )
            return
        found = rs.step(step)
        if not self.step_applies(found, side):
            raise RuleViolation(
                f"{rule}: {what} belongs to RePh step {step} ({found.title}), which does not "
                f"apply to {side} on {self.cg_date}{self._why_not(found, side)}",
                rule=rule,
            )
        if step == rs.new_date_step and self.awaiting_new_date:
            raise RuleViolation(
                f"{rule}: {what} belongs to RePh step {step} ({found.title}); the new CG "
                f"Date has not begun (POST /v1/campaigns/{self.cid}/cg-dates)",
                rule=rule,
            )
        try:
            self.check_step_order(side, step)
        except RuleViolation as e:
            detail = f"{rule}: {what} belongs to RePh step {step}; {e}"
            raise RuleViolation(detail, rule=rule) from e

    def _why_not(self, step: RePhStep, side: str) -> str:
        """Why ``step`` does not apply to ``side`` now (for an error's detail)."""
        if step.sides and side not in step.sides:
            return f" (it is the {' and '.join(step.sides)} side's)"
        if self.is_initial_date() and "†" not in step.markers:
            return " (only the '†' steps come before the Initial Scenario)"
        if step.from_date is not None and not self.ruleset.step_applies(
            step, side, self.cg_date, initial=False, scenario=None
        ):
            return f" (it applies from {step.from_date} on)"
        if "‡" in step.markers:
            return " (an Idle date generates no scenario)"
        return ""

    def with_counted_drms(
        self, ctx: Ctx, table: tablebook.Table, drm: list[tablebook.DrmRequest]
    ) -> list[tablebook.DrmRequest]:
        """DESIGN §8: a DRM the ledger can count (``Ruleset.counted_drms``) is
        counted by the server from the record: added where the roller left it
        out, and a roll that names it with another number is refused (422,
        naming the rule) before a die is drawn."""
        out = list(drm)
        counted_drms = self.ruleset.counted(table.id)
        facts = self.facts(ctx.actor) if counted_drms else None
        for counted in counted_drms:
            definition = table.drm(counted.drm)
            assert definition is not None  # checked when the ruleset was built
            per, fixed = definition.kind == "per", definition.kind == "fixed"
            if counted.by_side and ctx.actor == REFEREE:
                continue  # the ruling names it; the referee has no chits of its own
            assert facts is not None
            expected = counted.count(facts)
            if expected is None:
                continue  # the record cannot tell: the roller's own DRM stands
            named = [d for d in out if d.id == counted.drm]
            applies = not counted.sides or ctx.actor in counted.sides
            if named and ctx.actor != REFEREE and not applies:
                raise InvalidInput(
                    f"{counted.rule}: {counted.drm} is the {' or '.join(counted.sides)} "
                    f"side's DRM, not the {ctx.actor} side's",
                    field="drm",
                    rule=counted.rule,
                )
            for d in named:
                if fixed and not expected:
                    raise InvalidInput(
                        f"{counted.rule}: {counted.drm} is counted by the ledger: it does not "
                        f"apply on {self.cg_date}",
                        field="drm",
                        rule=counted.rule,
                    )
                given = d.count if per else d.value
                if not fixed and given != expected:
                    what = "count" if per else "value"
                    raise InvalidInput(
                        f"{counted.rule}: {counted.drm} is counted by the ledger: its {what} "
                        f"on {self.cg_date} is {expected}, not {given}",
                        field="drm",
                        rule=counted.rule,
                    )
            auto = applies and (ctx.actor != REFEREE or not counted.sides)
            if named or not auto:
                continue
            if fixed:
                if expected:
                    out.append(tablebook.DrmRequest(counted.drm))
            elif per:
                out.append(tablebook.DrmRequest(counted.drm, count=expected))
            else:
                out.append(tablebook.DrmRequest(counted.drm, value=expected))
        return out

    def table(self, table_id: str) -> tablebook.Table:
        table = self.ruleset.table(table_id)
        if table is None:
            raise NotFound(
                f"{self.ruleset_id} has no table {table_id!r}; "
                f"GET /v1/rulesets/{self.ruleset_id}/tables lists them"
            )
        return table

    def define_tables(self, ctx: Ctx, tables: Sequence[tablebook.Table]) -> None:
        """Record the definitions of ``tables`` not yet used, all at once: a
        roll for a secret purchase does not show by a first definition which
        table it was read on."""
        for table in tables:
            self._define_table(ctx, table)

    def _define_table(self, ctx: Ctx, table: tablebook.Table) -> None:
        """Put the table's definition in the log the first time it is used, so
        every roll on it audits against the exact definition it was read with."""
        digest = tablebook.content_hash(table)
        if digest not in self.recorded_tables():
            payload = {
                "table": table.id,
                "hash": digest,
                "definition": tablebook.definition(table),
            }
            self._emit(ctx, "TableDefined", payload, None)

    def reveal(self, ctx: Ctx, seq: int) -> int:
        """Reveal the secret part of event ``seq`` (and the seed, for a roll)."""
        self._require_role(ctx)
        if not 1 <= seq <= self.version:
            raise NotFound(f"no event {seq} in this campaign")
        record = self.record(seq)
        if record["secret"] is None:
            raise RuleViolation(f"event {seq} has no secret part; it is public already")
        owner = record["payload"]["owner"]
        if ctx.actor not in (owner, REFEREE):
            raise Forbidden("only the owning side or the referee may reveal a secret")
        revealed = self.revealed_by(seq)
        if revealed is not None:
            raise RuleViolation(f"event {seq} was revealed by event {revealed}")
        payload: dict[str, Any] = {"of_seq": seq, "of_owner": owner}
        if "roll" in record["payload"]:
            index = record["payload"]["roll"]["index"]
            payload["index"] = index
            payload["commitment"] = self.commitment(index)
            payload["seed"] = self.seed(index, ctx.sealer).hex()
        return self.append(ctx, "SecretRevealed", payload, {}, owner=None)

    def reveal_roll(self, ctx: Ctx, index: int) -> int:
        seq = self.roll_seq(index)
        if self.record(seq)["secret"] is None:
            raise RuleViolation(f"roll {index} is public; its seed is already published")
        return self.reveal(ctx, seq)

    def roll_seq(self, index: int) -> int:
        found = self.lookup(historybook.ROLL, index) if 0 <= index < self.roll_count else None
        if found is None:
            raise NotFound(f"roll {index} has not been made")
        return int(found["seq"])

    def begin_cg_date(self, ctx: Ctx, cg_date: str | None) -> int:
        """RePh step 8.6121 (9.6121): begin the next CG Date.

        8.6: the RePh steps are "performed simultaneously by each side", so one
        side cannot end the other's RePh: a side's call records that it is
        ready (``CGDateReady``); the date begins when every side is ready, or at
        once when the referee calls.
        """
        self._require_role(ctx)
        rs = self.ruleset
        step = rs.new_date_step
        if not self.awaiting_new_date:
            where = ", ".join(f"{s} at {self.current_step(s)}" for s in self.sides)
            raise RuleViolation(
                f"{step}: a new CG Date begins after CG-Scenario End (POST /v1/campaigns/"
                f"{self.cid}/scenario-end) or an Idle date; on {self.cg_date} neither has "
                f"happened yet ({where})",
                rule=step,
            )
        if ctx.actor != REFEREE:
            self.check_step_order(ctx.actor, step)
        proposed = next(iter(self.ready.values()), None)
        nxt = self._next_date(rs, step, cg_date if cg_date is not None else proposed)
        if proposed is not None and nxt != proposed:
            raise InvalidInput(
                f"{step}: the next CG Date is already proposed as {proposed}", field="cg_date"
            )
        waiting = [s for s in self.sides if s not in self.ready]
        if ctx.actor == REFEREE:
            waiting = []  # the referee begins the date for everyone
        else:
            if ctx.actor in self.ready:
                raise RuleViolation(
                    f"{step}: {ctx.actor} is ready for {nxt}; waiting for "
                    f"{', '.join(waiting)} (or the referee)",
                    rule=step,
                )
            waiting.remove(ctx.actor)
        rs.rules.before_new_date(self, [ctx.actor] if waiting else self.sides)
        if waiting:
            payload = {"side": ctx.actor, "cg_date": self.cg_date, "next": nxt, "step": step}
            return self.append(ctx, "CGDateReady", payload, {}, owner=None)
        payload = {"cg_date": nxt, "step": step, "rule": f"{rs.id}:{step}"}
        return self.append(ctx, "CGDateBegan", payload, {}, owner=None)

    # ------------------------------------------------------------------ initiative

    def choose_initiative(
        self,
        ctx: Ctx,
        side: str | None,
        chit: str,
        *,
        limits: Mapping[str, Mapping[str, int]],
    ) -> int:
        """Initiative Determination (8.623, 9.6213; DESIGN §8): each side's chit
        is secret until both are chosen (8.6232 "secretly places it ... then
        revealed simultaneously"). The first chit is an event whose secret part
        only its owner sees; the hash chain commits to it, so it cannot change.
        The second chit reveals the first (``SecretRevealed``) and records both
        with the scenario the matrix generates, and for a Dual Attack the setup
        dr (8.6233a, 9.62133a), in one ``InitiativeDetermined`` event.
        ``limits``: by chit, the CG definition's limits per side: ``attack``
        its ``attack_chits`` (8.6231), ``idle`` its ``idle_chits`` (9.62131)."""
        rs = self.ruleset
        ini = rs.initiative
        if ini is None:
            raise RuleViolation(
                f"{rs.sequence_rule}: {rs.title} has no Initiative Determination step",
                rule=rs.sequence_rule,
            )
        side = self.require_side(ctx, side)
        if chit not in CHITS:
            raise InvalidInput(f"a chit is {' or '.join(CHITS)}, not {chit!r}", field="chit")
        date = self.cg_date
        if self.is_initial_date():
            raise RuleViolation(
                f"{ini.rule}: no Initiative is determined for the Initial Scenario ({date}); "
                f"only the {rs.sequence_rule} '†' steps come before it",
                rule=ini.rule,
            )
        entry = self.initiatives.get(date)
        chosen: dict[str, int] = {} if entry is None else entry["chosen"]
        if side in chosen:
            raise RuleViolation(
                f"{ini.rule}: {side} has chosen its Initiative chit for {date} already",
                rule=ini.rule,
            )
        step = ini.step or ini.rule
        if ini.step is not None:
            self.check_step_order(side, ini.step)
        groups = [g["id"] for g in self.definition_doc().get("map_groups") or ()]
        refused = rs.rules.chit_refused(side, chit, self.vacated, groups)
        if refused is not None:
            raise RuleViolation(refused, rule=refused.split(":")[0])
        limit = limits.get(chit, {}).get(side)
        used = self.chits_used.get(side, {}).get(chit, 0)
        if limit is not None and used >= limit:
            raise RuleViolation(
                f"{ini.limit_rule}: {side} has selected {used} {chit.capitalize()} Chit(s) in "
                f"this CG, the most its CG definition allows ({limit})",
                rule=ini.limit_rule,
            )
        matrix_rule = f"{rs.id}:{ini.rule}"
        payload = {**self.rule_payload(side, step), "rule": matrix_rule, "matrix": matrix_rule}
        waiting = [s for s in self.sides if s != side and s not in chosen]
        if waiting:
            return self.append(ctx, "InitiativeChosen", payload, {"chit": chit}, owner=side)
        assert entry is not None
        (other,) = (s for s in self.sides if s != side)
        first = chosen[other]
        # Revealed by the rule, not by its owner: both chits are now known
        # (unless its owner showed it already, or an undone determination did).
        if self.revealed_by(first) is None:
            self._emit(ctx, "SecretRevealed", {"of_seq": first, "of_owner": other}, None)
        chits = {other: entry["chits"][other], side: chit}
        pair = (chits[self.sides[0]], chits[self.sides[1]])
        scenario = ini.scenario(pair)
        values: dict[str, Any] = {"chits": chits, "scenario": scenario, "setup_first": None}
        if scenario == ini.dual_attack and ini.dual_attack_table is not None:
            assert ini.dual_attack_roller is not None
            table = self.table(ini.dual_attack_table)
            # The dr is the roller's the rule names (8.6233a, 9.62133a),
            # whichever side chose second; the bookkeeping events stay the caller's.
            self._define_table(ctx, table)
            if self.committed - (self.roll_count + 1) < dice.LOW_WATER:
                self._publish_batch(ctx)
            roller = replace(ctx, actor=ini.dual_attack_roller)
            pub, _, result = self.roll_on(roller, table, [], {}, secret=False, client_nonce=None)
            # The event names the table it read, as every roll does (``cgledger verify``).
            ref = tablebook.table_ref(table)
            payload = {**payload, "rule": table.id, "table": ref, "roll": pub}
            values = {
                **values,
                "inputs": {},
                **result,
                "setup_first": ini.setup_first[result["outcome"]["band"]],
            }
        return self.append(ctx, "InitiativeDetermined", payload, values, owner=None)

    def initiative_view(self, cg_date: str, viewer: str) -> dict[str, Any]:
        """The Initiative of ``cg_date`` as ``viewer`` may see it: who has chosen,
        and each chit once both are chosen (before that, only to its owner and
        the referee)."""
        entry = self.initiatives.get(cg_date)
        chosen = {} if entry is None else entry["chosen"]
        determined = entry is not None and entry["determined"] is not None
        chits: dict[str, str | None] = {}
        for side in self.sides:
            chit = None if entry is None else entry["chits"].get(side)
            seq = chosen.get(side)
            revealed = seq is not None and self.is_revealed(seq)
            seen = determined or revealed or viewer in (side, REFEREE)
            chits[side] = chit if seen else None
        return {
            "cg_date": cg_date,
            "chosen": {side: side in chosen for side in self.sides},
            "seqs": {side: chosen.get(side) for side in self.sides},
            "chits": chits,
            "determined": None if entry is None else entry["determined"],
            "scenario": None if entry is None else entry["scenario"],
            "setup_first": None if entry is None else entry["setup_first"],
        }

    def _next_date(self, rs: Ruleset, step: str, cg_date: str | None) -> str:
        current = self.cg_date
        if self.date_index + 1 < len(self.calendar):
            nxt = self.calendar[self.date_index + 1]
            if cg_date is not None and _known_date(rs, self.calendar, cg_date, "cg_date") != nxt:
                raise InvalidInput(f"{step}: the CG Date after {current} is {nxt}", field="cg_date")
            return nxt
        if not self.extendable:
            raise RuleViolation(
                f"{step}: {current} is the last CG Date of {self.campaign_name}", rule=step
            )
        if cg_date is None:
            raise InvalidInput(
                f"{step}: the CG Dates after {self.calendar[-1]} are the players' to name "
                "(the seed's calendar ends before them); name the next one",
                field="cg_date",
            )
        nxt = _parse_date(rs, cg_date, "cg_date")
        if nxt in self.calendar:
            raise InvalidInput(f"{nxt} has already been played", field="cg_date")
        if _day(nxt) < _day(current):
            raise InvalidInput(f"{nxt} would come before {current}", field="cg_date")
        return nxt

    # ------------------------------------------------------------------ CG definition

    def request_amendment(
        self, ctx: Ctx, *, patch: dict[str, Any], reason: str, current: dict[str, Any] | None
    ) -> int:
        """DESIGN §7: propose a JSON Merge Patch (RFC 7396) to the CG definition
        in force (``current``, read by the caller from the event that holds it).
        It takes effect when the opponent or the referee approves it; the
        referee's own amendment takes effect at once, as its undo requests do.
        Returns the seq of the last event appended."""
        self._require_role(ctx)
        reason = _text(reason, "reason", MAX_REASON)
        base = current if current is not None else {}
        amended = validated_definition(self.ruleset, defbook.merge_patch(base, patch), "patch")
        new_hash = defbook.definition_hash(amended)
        if current is not None and new_hash == self.definition_hash:
            raise RuleViolation("this amendment would change nothing in the definition")
        payload = {
            "by": ctx.actor,
            "patch": patch,
            "reason": reason,
            "base_hash": self.definition_hash,
            "result_hash": new_hash,
        }
        at_once = ctx.actor == REFEREE
        record = self._emit(ctx, "DefinitionAmendmentRequested", payload, None, main=not at_once)
        if not at_once:
            return int(record["seq"])
        return self._amend(ctx, int(record["seq"]), amended, new_hash)

    def approve_amendment(
        self, ctx: Ctx, amendment_seq: int, *, patch: dict[str, Any], current: dict[str, Any] | None
    ) -> int:
        """The opponent of the side that asked, or the referee, applies it.
        ``patch`` is the amendment's, read from its event."""
        amendment = self._pending_amendment(ctx, amendment_seq)
        if ctx.actor == amendment["by"]:
            raise Forbidden(
                "a side cannot approve its own amendment; the opponent or the referee does"
            )
        if amendment["base_hash"] != self.definition_hash:
            raise RuleViolation(
                f"the definition changed since amendment {amendment_seq} was asked for; "
                "reject it and ask again"
            )
        amended = validated_definition(
            self.ruleset, defbook.merge_patch(current if current is not None else {}, patch)
        )
        return self._amend(ctx, amendment_seq, amended, defbook.definition_hash(amended))

    def reject_amendment(self, ctx: Ctx, amendment_seq: int, note: str | None) -> int:
        """The opponent or the referee rejects it; the side that asked may withdraw it."""
        amendment = self._pending_amendment(ctx, amendment_seq)
        payload = {
            "amendment": amendment_seq,
            "by": ctx.actor,
            "note": None if note is None else _text(note, "note", MAX_REASON),
            "withdrawn": ctx.actor == amendment["by"],
        }
        return self.append(ctx, "DefinitionAmendmentRejected", payload, {}, owner=None)

    @property
    def definition_hash(self) -> str | None:
        return None if self.definition is None else str(self.definition["hash"])

    def _pending_amendment(self, ctx: Ctx, amendment_seq: int) -> dict[str, Any]:
        self._require_role(ctx)
        amendment = self.amendments.get(str(amendment_seq))
        if amendment is None:
            raise NotFound(f"no definition amendment {amendment_seq} in this campaign")
        if amendment["status"] != "pending":
            raise RuleViolation(
                f"definition amendment {amendment_seq} is already {amendment['status']}"
            )
        return amendment

    def _amend(self, ctx: Ctx, amendment_seq: int, doc: dict[str, Any], digest: str) -> int:
        payload = {
            "amendment": amendment_seq,
            "approved_by": ctx.actor,
            "previous_hash": self.definition_hash,
            "definition": doc,
            "hash": digest,
        }
        return self.append(ctx, "DefinitionAmended", payload, {}, owner=None)

    # ------------------------------------------------------------------ undo, disputes

    def request_undo(
        self, ctx: Ctx, *, seqs: list[int] | None, to_seq: int | None, reason: str
    ) -> int:
        """DESIGN §5: ask to revert events. A side's own latest action with
        nothing depending on it (and any request of the referee) is applied at
        once; anything else waits for the opponent or the referee. Returns the
        seq of the last event appended (``UndoApplied`` or ``UndoRequested``)."""
        self._require_role(ctx)
        reason = _text(reason, "reason", MAX_REASON)
        book = self._plan_book(seqs or [], to_seq)
        named = undobook.targets(
            book, self.reverted, self._type_of, self.version, seqs=seqs, to_seq=to_seq
        )
        # Check the undo now, so a request that could never apply is refused.
        effect = self._undo_effect(book, named, to_seq=to_seq, ceiling=self.version + 1)
        at_once = ctx.actor == REFEREE or undobook.alone(book, self.last_event, ctx.actor, named)
        payload = {
            "by": ctx.actor,
            "seqs": named,
            "to_seq": to_seq,
            "reason": reason,
            "at_once": at_once,
            # What it would do, shown to whoever answers it (and checked again then).
            "reverts": effect.reverts,
            "restores": effect.restores,
        }
        record = self._emit(ctx, "UndoRequested", payload, None, main=not at_once)
        if not at_once:
            return int(record["seq"])
        return self._apply_undo(
            ctx, effect, request=int(record["seq"]), by=ctx.actor, at_once=True, reason=reason
        )

    def approve_undo(self, ctx: Ctx, request_seq: int) -> int:
        """The opponent of the requesting side, or the referee, applies a pending undo."""
        request = self._pending_request(ctx, request_seq)
        if ctx.actor == request["by"]:
            raise Forbidden(
                "a side cannot approve its own undo request; the opponent or the referee does"
            )
        book = self._plan_book(request["seqs"], request["to_seq"])
        effect = self._undo_effect(
            book, request["seqs"], to_seq=request["to_seq"], ceiling=request_seq, recheck=True
        )
        planned = request["planned"]
        if effect.reverts != planned["reverts"] or effect.restores != planned["restores"]:
            # Never apply more (or other) than the approver was shown.
            raise RuleViolation(
                f"the log changed since undo request {request_seq}: it would now revert "
                f"{effect.reverts} and restore {effect.restores}, not revert "
                f"{planned['reverts']} and restore {planned['restores']} as asked; "
                "reject it and ask again"
            )
        return self._apply_undo(
            ctx,
            effect,
            request=request_seq,
            by=request["by"],
            at_once=False,
            reason=request["reason"],
        )

    def reject_undo(self, ctx: Ctx, request_seq: int, note: str | None) -> int:
        """The opponent or the referee rejects a pending undo; its requester may withdraw it."""
        request = self._pending_request(ctx, request_seq)
        payload = {
            "request": request_seq,
            "by": ctx.actor,
            "note": None if note is None else _text(note, "note", MAX_REASON),
            "withdrawn": ctx.actor == request["by"],
        }
        return self.append(ctx, "UndoRejected", payload, {}, owner=None)

    def file_dispute(self, ctx: Ctx, seq: int, claim: str) -> int:
        """DESIGN §5: a side (or the referee) flags an event."""
        self._require_role(ctx)
        claim = _text(claim, "claim", MAX_CLAIM)
        if not 1 <= seq <= self.version:
            raise NotFound(f"no event {seq} in this campaign", field="seq")
        for did, dispute in self.disputes.items():
            if (
                dispute["of_seq"] == seq
                and dispute["by"] == ctx.actor
                and dispute["status"] == "open"
            ):
                raise RuleViolation(f"{ctx.actor} already disputes event {seq} (dispute {did})")
        payload = {
            "of_seq": seq,
            "of_type": self._type_of(seq),
            "by": ctx.actor,
            "claim": claim,
        }
        return self.append(ctx, "DisputeFiled", payload, {}, owner=None)

    def resolve_dispute(self, ctx: Ctx, dispute_seq: int, decision: str, note: str) -> int:
        """The opponent of the filing side, or the referee, upholds the event or
        reverts it. A revert goes through the undo mechanism: it also reverts
        every later state event built on the disputed one."""
        self._require_role(ctx)
        dispute = self.disputes.get(str(dispute_seq))
        if dispute is None:
            raise NotFound(f"no dispute {dispute_seq} in this campaign", field="dispute")
        if ctx.actor != REFEREE and ctx.actor == dispute["by"]:
            raise Forbidden(
                "a dispute is resolved by the opponent of the side that filed it, or the referee"
            )
        if dispute["by"] == REFEREE and ctx.actor != REFEREE:
            raise Forbidden("a dispute the referee filed is resolved by the referee")
        if dispute["status"] != "open":
            raise RuleViolation(f"dispute {dispute_seq} is already {dispute['status']}")
        if decision not in ("uphold", "revert"):
            raise InvalidInput("decision must be 'uphold' or 'revert'", field="decision")
        note = _text(note, "note", MAX_REASON)
        undo_seq = None
        if decision == "revert":
            effect = self.dispute_revert(dispute_seq)
            undo_seq = self._apply_undo(
                ctx,
                effect,
                request=None,
                by=dispute["by"],
                at_once=False,
                reason=f"dispute {dispute_seq}: {note}",
                dispute=dispute_seq,
                main=False,
            )
        payload = {
            "dispute": dispute_seq,
            "of_seq": dispute["of_seq"],
            "decision": decision,
            "note": note,
            "by": ctx.actor,
            "undo": undo_seq,
        }
        return self.append(ctx, "DisputeResolved", payload, {}, owner=None)

    def dispute_revert(self, dispute_seq: int) -> undobook.Effect:
        """What resolving the dispute with ``revert`` would do. A dispute reverts
        the one event it is about: if later state events were built on it, the
        revert is refused (they belong to an undo request, which the other side
        approves), so nobody loses a later roll or purchase to a dispute."""
        of = self.disputes[str(dispute_seq)]["of_seq"]
        book = self._plan_book([of], None)
        named = undobook.targets(
            book, self.reverted, self._type_of, self.version, seqs=[of], to_seq=None
        )
        if not book[str(of)]["state"]:
            return self._undo_effect(book, named, to_seq=None, ceiling=None)
        later = undobook.later_state(self.revertible, self.reverted, of)
        built = [s for s in later if self.revertible[str(s)]["type"] != undobook.UNDO]
        effect = None
        if not built:
            # Only undos that changed state came after it: they are rewound
            # with it, as long as that puts nothing back in force.
            effect = self._undo_effect(book, sorted({*named, *later}), to_seq=None, ceiling=None)
        if effect is None or effect.restores:
            listed = ", ".join(str(s) for s in built or later)
            raise RuleViolation(
                f"events {listed} were built on event {of}: a dispute reverts one event, so "
                f"ask for an undo with to_seq {of - 1} instead, which the other side approves"
            )
        return effect

    def _pending_request(self, ctx: Ctx, request_seq: int) -> dict[str, Any]:
        self._require_role(ctx)
        request = self.undo_requests.get(str(request_seq))
        if request is None:
            raise NotFound(f"no undo request {request_seq} in this campaign", field="request")
        if request["status"] != "pending":
            raise RuleViolation(f"undo request {request_seq} is already {request['status']}")
        return request

    def _plan_book(self, named: list[int], to_seq: int | None) -> undobook.Book:
        """The revertible events an undo plan can touch (``cgledger.domain.undo.Book``):
        the state events and undos the aggregate keeps, plus the rolls read
        from the log: those named, those after ``to_seq``, and those an undo
        or a revert ever flipped. Its cost grows with what the undo rewinds,
        not with the campaign's history."""
        book = dict(self.revertible)
        wanted = set(named) | {int(s) for s in self.reverted}
        for info in self.revertible.values():
            if info["type"] == undobook.UNDO:
                wanted.update(info["reverts"])
                wanted.update(info["restores"])
        records = []
        if to_seq is not None and 0 <= to_seq < self.version:
            records = self.history.records(to_seq, self.version)
        records += [
            self.record(s) for s in sorted(wanted) if str(s) not in book and 1 <= s <= self.version
        ]
        for record in records:
            if record["type"] in undobook.ROLL_ONLY:
                # A roll that changed state is in ``revertible`` already.
                book[str(record["seq"])] = undobook.entry(record, state=False)
        return book

    def undo_book(self) -> undobook.Book:
        """Every revertible event of the campaign (read from the whole log)."""
        return self._plan_book([], 0)

    def _undo_effect(
        self,
        book: undobook.Book,
        named: list[int],
        *,
        to_seq: int | None,
        ceiling: int | None,
        recheck: bool = False,
    ) -> undobook.Effect:
        if recheck:
            # Approved later: every event named must still be in force.
            for seq in named:
                if str(seq) in self.reverted:
                    raise RuleViolation(
                        f"event {seq} was reverted by undo {self.reverted[str(seq)]} since "
                        "the request; reject this request"
                    )
        effect = undobook.plan(book, self.reverted, named, to_seq=to_seq, ceiling=ceiling)
        if not effect.reverts and not effect.restores:
            raise RuleViolation("this undo would change nothing")
        return effect

    def _apply_undo(
        self,
        ctx: Ctx,
        effect: undobook.Effect,
        *,
        request: int | None,
        by: str,
        at_once: bool,
        reason: str,
        dispute: int | None = None,
        main: bool = True,
    ) -> int:
        payload = {
            "request": request,
            "dispute": dispute,
            "by": by,
            "approved_by": ctx.actor,
            "at_once": at_once,
            "reason": reason,
            "reverts": effect.reverts,
            "restores": effect.restores,
            "rolls": effect.rolls,
            "rerolls": effect.rerolls,
            "state": effect.state,
        }
        record = self._emit(ctx, "UndoApplied", payload, None, main=main)
        return int(record["seq"])

    # ------------------------------------------------------------------ helpers

    def _require_role(self, ctx: Ctx) -> None:
        if ctx.actor != REFEREE and ctx.actor not in self.sides:
            raise Forbidden(f"role {ctx.actor!r} may not act in this campaign")

    def require_side(self, ctx: Ctx, side: str | None) -> str:
        """The side a command acts for: ``side``, or the caller's own. A side's
        token acts only for its side; the referee names the side."""
        self._require_role(ctx)
        if side is None:
            if ctx.actor == REFEREE:
                raise InvalidInput("the referee must name the side", field="side")
            return ctx.actor
        if side not in self.sides:
            raise InvalidInput(
                f"unknown side {side!r}; sides are {', '.join(self.sides)}", field="side"
            )
        if ctx.actor not in (side, REFEREE):
            raise Forbidden(f"a {ctx.actor} token cannot act for the {side} side")
        return side

    def check_step_order(self, side: str, step: str, *, ruling: bool = False) -> None:
        """The RePh steps are carried out in their numbered order (8.6, 9.6),
        and a step whose required action is not done cannot be passed (DESIGN §8);
        a step that does not apply to ``side`` now is not taken at all, except
        by the referee's ``ruling`` (it acts for the side at any time)."""
        rs = self.ruleset
        found = rs.step(step)
        if not ruling and not self.step_applies(found, side):
            raise RuleViolation(
                f"{step}: {found.title} does not apply to {side} on {self.cg_date}"
                f"{self._why_not(found, side)}",
                rule=step,
            )
        if not ruling:
            self._check_lockstep(side, step, acting=True)
        done = self.current_step(side)
        if rs.step_order(done) > rs.step_order(step):
            rule = rs.sequence_rule
            where = (
                "has completed its steps (ready for the CG scenario)"
                if done == SCENARIO
                else f"has done {done} ({rs.step(done).title})"
            )
            raise RuleViolation(
                f"{rule}: steps are carried out in the numbered order; {side} {where} on "
                f"{self.cg_date}, so {step} ({rs.step(step).title}) is past",
                rule=rule,
            )
        self._check_passable(side, self.current_step(side), step)

    def _check_lockstep(self, side: str, target: str, *, acting: bool) -> None:
        """SG 1.2 (``Ruleset.lockstep``): "Both players (if applicable), American
        first, complete each step before moving on to the next step". The steps
        are completed in turn: the American's N, the German's N, the American's
        N+1, ... So a side that acts in step ``target`` needs each side before it
        in the order to have completed ``target``, and each side after it every
        step before ``target``; a side that only moves on to ``target`` (its
        current step, not done yet) needs one step less of each. A joint step is
        taken together (the sides only move on to it in turn), and being ready
        for the scenario (``SCENARIO``, after the joint 4.0) waits for no one."""
        rs = self.ruleset
        if side not in rs.lockstep or target == SCENARIO:
            return
        acting = acting and not rs.step(target).joint  # a joint step is taken together
        mine = rs.lockstep.index(side)
        here = rs.step_order(target)
        applies = {st.id: (self.step_applies(st, side), st) for st in rs.reph_steps}
        mine_before = [i for i, (yes, _) in applies.items() if yes and rs.step_order(i) < here]
        for other in rs.lockstep:
            if other == side:
                continue
            if rs.lockstep.index(other) < mine:
                # It completes first each step we both take, up to ``target``.
                steps = [
                    st for _, (yes, st) in list(applies.items())[: here + int(acting)]
                    if yes and self.step_applies(st, other)
                ]  # fmt: skip
            else:
                # We complete a step once it has completed every step before it.
                last = target if acting else (mine_before[-1] if mine_before else None)
                if last is None:
                    continue
                steps = [
                    st for st in rs.reph_steps[: rs.step_order(last)]
                    if self.step_applies(st, other)
                ]  # fmt: skip
            done_to = rs.step_order(self.current_step(other))
            pending = [st for st in steps if done_to <= rs.step_order(st.id)]
            if pending:
                st = pending[0]
                order = ", ".join(rs.lockstep)
                raise RuleViolation(
                    f"{rs.sequence_rule}: each step is completed by {order} in turn before the "
                    f"next; {other} has not completed {st.id} ({st.title}), so {side} cannot "
                    f"{'act in' if acting else 'move on to'} {target} yet",
                    rule=rs.sequence_rule,
                )

    # ------------------------------------------------------------------ RePh sequence

    def is_initial_date(self) -> bool:
        """Whether the campaign is before its Initial Scenario: on its first CG
        Date, with no CG-Scenario End yet (8.6: only '†' steps come then)."""
        return bool(self.cg_date == self.genesis["start_date"] and not self.scenario_ends)

    def scenario_of(self, cg_date: str) -> str | None:
        """The scenario type the Initiative generated for ``cg_date``, if any yet."""
        entry = self.initiatives.get(cg_date)
        return None if entry is None else entry["scenario"]

    def step_applies(self, step: RePhStep, side: str) -> bool:
        return self.ruleset.step_applies(
            step,
            side,
            self.cg_date,
            initial=self.is_initial_date(),
            scenario=self.scenario_of(self.cg_date),
        )

    def current_step(self, side: str) -> str:
        """``side``'s current RePh step (DESIGN §8): the step it last acted in or
        advanced to, or at creation the first step that applies to it (a '†'
        step, 8.6); ``scenario`` once it completed them all."""
        step = self.steps.get(side)
        if step is not None:
            return step
        for candidate in self.ruleset.reph_steps:
            if self.step_applies(candidate, side):
                return candidate.id
        return SCENARIO

    def step_passed(self, side: str, step: str) -> bool:
        """``side`` has completed RePh ``step`` on the current CG Date."""
        at = self.steps.get(side)
        if at is None:
            return False
        rs = self.ruleset
        return at == SCENARIO or rs.step_order(at) > rs.step_order(step)

    def _check_passable(self, side: str, start: str, to: str) -> None:
        """Refuse to pass, on the way from ``start`` to ``to``, a step that
        applies to ``side`` and whose required action is not done, or a joint
        step that waits for the other side (the Initiative, DESIGN §8)."""
        rs = self.ruleset
        first, last = rs.step_order(start), rs.step_order(to)
        ini = rs.initiative
        for step in rs.reph_steps[first:last]:
            if not self.step_applies(step, side):
                continue
            if step.action is not None and not rs.rules.step_done(self, side, step.id):
                path = rs.rules.actions[step.action].path
                raise RuleViolation(
                    f"{step.id}: {step.title} requires its action of {side} on {self.cg_date} "
                    f"before the step is passed (POST /v1/campaigns/{self.cid}/{path})",
                    rule=step.id,
                )
            self._check_required_rolls(side, step)
            if step.id == rs.new_date_step and self.awaiting_new_date:
                raise RuleViolation(
                    f"{step.id}: {step.title} is taken by both sides together: each says it "
                    f"is ready (POST /v1/campaigns/{self.cid}/cg-dates)",
                    rule=step.id,
                )
            if ini is not None and step.id == ini.step and not self.is_initial_date():
                # No Initiative before the Initial Scenario (8.6233, 9.6213).
                entry = self.initiatives.get(self.cg_date)
                if entry is None or entry["determined"] is None:
                    raise RuleViolation(
                        f"{step.id}: {step.title} is taken by both sides together; it waits "
                        f"for both Initiative chits on {self.cg_date}",
                        rule=step.id,
                    )

    def _check_required_rolls(self, side: str, step: RePhStep) -> None:
        """A roll the rules require of ``side`` in ``step`` (``TableRule.required``,
        e.g. 9.6201's British DR) must be made before the step is passed."""
        rs = self.ruleset
        facts: Facts | None = None
        for table_rule in rs.table_rules:
            table = rs.tables[table_rule.table]
            if table_rule.required is None or table.step != step.id:
                continue
            if table.sides and side not in table.sides:
                continue
            if table.id in self.rolled_tables.get(side, ()):
                continue
            facts = facts or self.facts(side)
            if not rs.rolled_on(table, self.cg_date) or (
                table_rule.refuse is not None and table_rule.refuse(facts) is not None
            ):
                continue
            if table_rule.required(facts):
                raise RuleViolation(
                    f"{table_rule.rule}: {side} makes the {table.title} {table.roll_name} on "
                    f"{self.cg_date} before step {step.id} is passed (POST /v1/campaigns/"
                    f"{self.cid}/tables/{table.id}/rolls)",
                    rule=table_rule.rule,
                )

    def facts(self, side: str) -> Facts:
        """What the record shows for a counted DRM or a table rule (``Facts``):
        every CG Date from the first one played to the current one."""
        start = self.genesis["start_date"]
        played = self.calendar[self.calendar.index(start) : self.date_index + 1]
        dates = []
        for cg_date in played:
            entry = self.initiatives.get(cg_date)
            determined = entry is not None and entry["determined"] is not None
            scenario = entry["scenario"] if entry is not None else None
            if cg_date == start:
                scenario = "initial"
            dates.append(
                DateFacts(
                    cg_date=cg_date,
                    scenario=scenario,
                    chits=dict(entry["chits"]) if determined and entry is not None else {},
                    cvp=self.scenario_ends.get(cg_date),
                )
            )
        return Facts(
            cg_date=self.cg_date,
            side=side,
            rules=self.rules,
            lasting=self.lasting,
            options=self.options(),
            dates=tuple(dates),
        )

    def options(self) -> frozenset[str]:
        """The optional rules the CG definition in force adopts (``optional_rules``,
        e.g. 8.6171's Random Weather "by mutual consent")."""
        if self.definition is None:
            return frozenset()
        return frozenset(self.definition.get("options") or ())

    # ------------------------------------------------------------------ Control (§9)

    def definition_doc(self) -> dict[str, Any]:
        """The CG definition in force (read from the event that holds it)."""
        if self.definition is None:
            return {}
        key = self.definition["hash"]
        doc = _DEFINITIONS.get(key)
        if doc is None:
            doc = self.record(int(self.definition["seq"]))["payload"]["definition"]
            with _DEFINITIONS_LOCK:
                _DEFINITIONS[key] = doc
                while len(_DEFINITIONS) > MAX_CACHED_DEFINITIONS:
                    _DEFINITIONS.popitem(last=False)  # the oldest
        return doc

    def map_group_data(self, map_group: str, *, field: str = "map_group") -> MapGroupData:
        """The CG definition's map group, indexed once per definition (422
        naming ``field`` when the definition has no such map group)."""
        doc = self.definition_doc()
        groups = [g["id"] for g in doc.get("map_groups") or ()]
        if map_group not in groups:
            known = ", ".join(groups) or "none"
            raise InvalidInput(
                f"no map group {map_group!r} in the CG definition (its map groups: {known})",
                field=field,
            )
        assert self.definition is not None
        return cached_group(self.definition["hash"], doc, map_group)

    def control_state(self, data: MapGroupData, *, frozen: bool = False) -> ControlState:
        """The Control of a map group now (or as the Setup Areas were
        determined, with ``frozen``): ``initial_control`` and what was recorded."""
        book = self.control
        if frozen and self.setup_frozen is not None:
            book = self.setup_frozen["control"]
        return ControlState.of(data, book.get(data.id, {}))

    def record_control(
        self,
        ctx: Ctx,
        map_group: str,
        locations: list[dict[str, Any]],
        *,
        blocks: list[dict[str, Any]] | None = None,
        rule: str | None = None,
    ) -> int:
        """DESIGN §9: record Control of Locations of a map group, as one public
        event (``side`` null: uncontrolled), with the Locations made Strategic
        or no longer (``marker``: E, F, G, V; ``"none"``), Blazing ones, and
        the Blocks a side gains by 9.6051 (``blocks``). Each Location is a hex
        of the map group at one of its levels; a side records it, or the
        referee, and the opponent may dispute it like any event. ``rule``
        names a rule that gives Control at once (8.6131): the ruleset lists
        its Locations."""
        self._require_role(ctx)
        change = self.control_change(ctx.actor, map_group, locations, blocks=blocks, rule=rule)
        payload = {"by": ctx.actor, "cg_date": self.cg_date, **change}
        return self.append(ctx, "ControlRecorded", payload, {}, owner=None)

    def control_change(
        self,
        actor: str,
        map_group: str,
        locations: list[dict[str, Any]],
        *,
        blocks: list[dict[str, Any]] | None = None,
        rule: str | None = None,
        where: str = "",
        book: dict[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """A Control change checked against the CG definition (422 naming the
        field under ``where``), with what it switches by the ruleset's rules
        (Blocks, 9.605) over ``book`` (default: the Control recorded)."""
        data = self.map_group_data(map_group, field=f"{where}map_group")
        rules = self.ruleset.rules
        before = ControlState.of(data, (self.control if book is None else book).get(data.id, {}))
        into_setup_areas = False
        if rule is not None:
            if locations:
                raise InvalidInput(
                    f"{rule} names its Locations itself; send no locations with it",
                    field=f"{where}locations",
                )
            locations, into_setup_areas = rules.control_rule(rule, data, before, actor)
        elif not locations and not blocks:
            raise InvalidInput(
                "name at least one Location or Block (or a rule)", field=f"{where}locations"
            )
        seen: set[tuple[str, int]] = set()
        for i, loc in enumerate(locations):
            self._check_location(data, loc, f"{where}locations[{i}]", seen)
        stated = self._check_blocks(data, blocks or [], where)
        after = before.copy()
        for loc in locations:
            after.sides[(loc["hex"], loc["level"])] = loc["side"]
        switched = rules.control_effects(data, before, after)
        change: dict[str, Any] = {
            "map_group": map_group,
            "locations": [
                {k: loc[k] for k in ("hex", "level", "side", "marker", "blazing") if k in loc}
                for loc in locations
            ],
        }
        blocks_changed = [*stated]
        for block, side in sorted(switched.items()):
            if block not in {b["block"] for b in stated}:
                step = rules.setup_area_step or ""
                blocks_changed.append({"block": block, "side": side, "rule": step})
        if blocks_changed:
            change["blocks"] = blocks_changed
        if rule is not None:
            change["rule"] = rule
            change["into_setup_areas"] = into_setup_areas
        return change

    def _check_location(
        self, data: MapGroupData, loc: dict[str, Any], where: str, seen: set[tuple[str, int]]
    ) -> None:
        i = data.grid.index.get(loc["hex"])
        if i is None:
            raise InvalidInput(
                f"{loc['hex']!r} is not a hex of map group {data.id!r}", field=f"{where}.hex"
            )
        if loc["level"] not in data.levels[i]:
            raise InvalidInput(
                f"{loc['hex']} has no level {loc['level']} (its levels: {list(data.levels[i])})",
                field=f"{where}.level",
            )
        if loc["side"] is not None and loc["side"] not in self.sides:
            raise InvalidInput(
                f"{loc['side']!r} is not a side of this campaign ({', '.join(self.sides)}) "
                "nor null (uncontrolled)",
                field=f"{where}.side",
            )
        if (loc["hex"], loc["level"]) in seen:
            raise InvalidInput(
                f"{loc['hex']} level {loc['level']} is listed twice", field=f"{where}.hex"
            )
        seen.add((loc["hex"], loc["level"]))

    def _check_blocks(
        self, data: MapGroupData, blocks: list[dict[str, Any]], where: str = ""
    ) -> list[dict[str, Any]]:
        """Blocks whose Control the players record (9.6051 BLOCK CONTROL
        FORFEITURE switches a Block by its occupants, which the ledger does not
        see)."""
        known = sorted({b for b in data.block if b is not None})
        out: list[dict[str, Any]] = []
        for i, item in enumerate(blocks):
            where_i = f"{where}blocks[{i}]"
            if not known:
                raise InvalidInput(f"map group {data.id!r} has no Blocks", field=f"{where_i}.block")
            if item["block"] not in known:
                raise InvalidInput(
                    f"no Block {item['block']!r} in map group {data.id!r} (its Blocks: "
                    f"{', '.join(known)})",
                    field=f"{where_i}.block",
                )
            if item["side"] is not None and item["side"] not in self.sides:
                raise InvalidInput(
                    f"{item['side']!r} is not a side of this campaign ({', '.join(self.sides)})",
                    field=f"{where_i}.side",
                )
            if item["block"] in {b["block"] for b in out}:
                raise InvalidInput(
                    f"Block {item['block']} is listed twice", field=f"{where_i}.block"
                )
            out.append({"block": item["block"], "side": item["side"], "rule": item["rule"]})
        return out

    def setup_areas_view(self, map_group: str | None) -> dict[str, Any]:
        """``GET /setup-areas`` (DESIGN §9): each hex's status and each side's
        Setup Areas on a map group, by the ruleset's rules, from the current
        Control until a side completes the Setup Area step, then as determined
        (``frozen``) until the next scenario is in play."""
        rules = self.ruleset.rules
        if rules.setup_area_step is None:
            raise NotFound(f"{self.ruleset.id} has no Setup Areas")
        groups = [g["id"] for g in self.definition_doc().get("map_groups") or ()]
        if map_group is None:
            if len(groups) != 1:
                raise InvalidInput(
                    f"name the map group (one of: {', '.join(groups) or 'none'})",
                    field="map_group",
                )
            map_group = groups[0]
        data = self.map_group_data(map_group)
        frozen = self.setup_frozen
        control = self.control_state(data, frozen=True)
        answer = rules.setup_areas(data, control, self.sides, self.cg_date)
        return {
            "map_group": data.id,
            "title": data.title,
            "cg_date": self.cg_date,
            "step": rules.setup_area_step,
            "frozen": frozen is not None,
            "frozen_at": None if frozen is None else frozen["seq"],
            **answer,
            "version": self.version,
        }

    def current_lvp(self, book: dict[str, dict[str, Any]] | None = None) -> dict[str, int] | None:
        """8.6032: each side's Current-LVP Total, the LVP of the Locations it
        Controls now, over every map group; ``None`` where the CG definition
        has no map group. A hex's LVP goes with Control of its ground Location
        (level 0, or its lowest level: the reading taken, DESIGN §9 stores LVP
        per hex)."""
        groups = self.definition_doc().get("map_groups") or ()
        has_lvp = any(h.get("lvp") for g in groups for h in g["hexes"])
        if not groups or (not has_lvp and self.ruleset.rules.setup_area_step is None):
            return None  # no LVP to count, nor Control that decides a winner (SG: VP)
        return self._lvp_totals(self.control if book is None else book)

    def _lvp_totals(self, book: dict[str, dict[str, Any]]) -> dict[str, int]:
        """Each side's LVP from Control: the definition's ``initial_control``
        and the Control in ``book`` (recorded since; ``{}``: none), read over
        each map group's index (``MapGroupData``: LVP and ground level by hex)."""
        totals = dict.fromkeys(self.sides, 0)
        for group in self.definition_doc().get("map_groups") or ():
            data = self.map_group_data(group["id"])
            since = book.get(data.id, {})
            for i, hx in enumerate(data.grid.ids):
                if not data.lvp[i]:
                    continue
                entry = since.get(f"{hx}/{data.ground(i)}")
                side = entry["side"] if entry is not None else data.initial_control.get(hx)
                if side in totals:
                    totals[side] += data.lvp[i]
        return totals

    def _scenario_lvp(
        self,
        scenario: str | None,
        stated: str | None = None,
        by: str = "",
        book: dict[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any] | None:
        """What CG-Scenario End records of LVP: the Current-LVP Totals at the
        scenario's start (the last scenario end's, or from ``initial_control``)
        and now, the new CG-LVP Totals (8.6033: "adding its Current-LVP Total to
        its preceding CG Date's CG-LVP Total") and the winner the ruleset's
        victory rules give (8.6234, 9.6212), with the rule that decided. Where
        the rules cannot decide, the winner the sides sent (``stated``) is
        recorded as theirs; where they decide, a different one is refused."""
        book = self.control if book is None else book
        current = self.current_lvp(book)
        if current is None:
            return None
        last = list(self.lvp_rows.values())[-1] if self.lvp_rows else None
        if last is not None:
            start, before = dict(last["current_lvp"]), dict(last["cg_lvp"])
        else:
            start, before = self._lvp_totals({}), dict.fromkeys(self.sides, 0)
        territory = []
        for group in self.definition_doc().get("map_groups") or ():
            data = self.map_group_data(group["id"])
            territory.append((data, ControlState.of(data, book.get(data.id, {}))))
        rules = self.ruleset.rules
        winner, rule = rules.scenario_winner(
            scenario or "", start, current, territory, self.definition_doc()
        )
        if stated is not None and winner is not None and stated != winner:
            raise RuleViolation(
                f"{rule.split(':')[0]}: the rules name {winner} the winner, not {stated}",
                rule=rule.split(":")[0],
            )
        if stated is not None and winner is None:
            who = "the referee" if by == REFEREE else "both sides"
            winner, rule = stated, f"{rule}; the winner stated by {who}"
        return {
            "start_lvp": start,
            "current_lvp": current,
            "cg_lvp": {side: before.get(side, 0) + current[side] for side in self.sides},
            "winner": winner,
            "rule": rule,
        }

    def lvp_view(self) -> dict[str, Any]:
        """``GET /lvp`` (DESIGN §9): the LVP of each map group, and one row per
        CG-Scenario End or Idle date (an Idle date plays no scenario, so it has
        no 8.603 step: its row repeats the Current- and CG-LVP Totals)."""
        groups = self.definition_doc().get("map_groups") or ()
        totals = {g["id"]: sum(h.get("lvp") or 0 for h in g["hexes"]) for g in groups}
        rows: list[dict[str, Any]] = []
        for d in self.facts(self.sides[0]).dates:
            found = self.lvp_rows.get(d.cg_date)
            if found is not None:
                rows.append({"cg_date": d.cg_date, "scenario": d.scenario, "cvp": d.cvp, **found})
            elif d.scenario == IDLE and rows:
                last = rows[-1]
                rows.append(
                    {
                        "cg_date": d.cg_date, "scenario": IDLE, "cvp": None,
                        "start_lvp": last["current_lvp"], "current_lvp": last["current_lvp"],
                        "cg_lvp": last["cg_lvp"], "winner": None,
                        "rule": f"{self.ruleset.initiative.rule if self.ruleset.initiative else ''}"
                        ": an Idle date generates no scenario",
                    }
                )  # fmt: skip
        return {"map_group_totals": totals, "rows": rows, "version": self.version}

    def control_view(self, map_group: str | None) -> dict[str, Any]:
        """``GET /control``: each map group's Locations that are controlled, or
        whose Control was recorded, with the side (null: uncontrolled) and the
        seq that recorded it (null: the definition's ``initial_control``)."""
        groups = list(self.definition_doc().get("map_groups") or ())
        if map_group is not None:
            groups = [g for g in groups if g["id"] == map_group]
            if not groups:
                raise NotFound(f"no map group {map_group!r} in the CG definition")
        out = []
        for group in groups:
            found: dict[str, dict[str, Any]] = {
                f"{hx}/0": {"side": side, "seq": None}
                for hx, side in (group.get("initial_control") or {}).items()
            }
            blocks = []
            for key, entry in self.control.get(group["id"], {}).items():
                if key.startswith(BLOCK_KEY):
                    blocks.append({"block": key[len(BLOCK_KEY) :], **entry})
                else:
                    found[key] = entry
            order = {h["hex"]: i for i, h in enumerate(group["hexes"])}
            items = []
            for key, entry in found.items():
                hx, _, level = key.rpartition("/")
                items.append({"hex": hx, "level": int(level), **entry})
            items.sort(key=lambda x: (order.get(x["hex"], len(order)), x["level"]))
            blocks.sort(key=lambda b: str(b["block"]))
            out.append({"map_group": group["id"], "locations": items, "blocks": blocks})
        return {"cg_date": self.cg_date, "map_groups": out, "version": self.version}

    def conditions(self) -> dict[str, Any]:
        """Results that last (DESIGN §8), shown with the campaign, its rosters
        and its ``?at=`` reads: the lasting table results (``Ruleset.lasting``:
        SAN, weather, ELR, ...) and the ruleset's own (8.618's shortage)."""
        out: dict[str, Any] = {}
        for lasting in self.ruleset.lasting:
            found = self.lasting.get(lasting.key)
            if not found or lasting.key in out:
                continue
            shown = {}
            for holder, entry in found.items():
                item = {k: v for k, v in entry.items() if k not in ("before", "known")}
                if not entry["known"]:
                    item["change"] = item.pop("value")  # the start is not on record
                shown["campaign" if holder == ALL else holder] = item
            out[lasting.key] = shown
        return {**out, **self.ruleset.rules.conditions(self)}

    def advance(self, ctx: Ctx, side: str | None, to: str) -> int:
        """``POST /reph/advance`` (DESIGN §8): complete ``side``'s steps from its
        current one up to ``to``, which becomes current (``scenario``: all of
        them). Going back is an undo, never an advance."""
        rs = self.ruleset
        side = self.require_side(ctx, side)
        if to != SCENARIO and to not in {st.id for st in rs.reph_steps}:
            raise InvalidInput(
                f"{to!r} is not a {rs.id} RePh step (GET /v1/rulesets lists them) nor '{SCENARIO}'",
                field="to",
            )
        current = self.current_step(side)
        if rs.step_order(to) <= rs.step_order(current):
            raise RuleViolation(
                f"{rs.sequence_rule}: {side} is at {current} ({rs.step(current).title}) on "
                f"{self.cg_date}; a step is not taken again, and going back is an undo",
                rule=rs.sequence_rule,
            )
        target = rs.step(to)
        if to != SCENARIO and not self.step_applies(target, side):
            raise RuleViolation(
                f"{to}: {target.title} does not apply to {side} on {self.cg_date}",
                rule=to,
            )
        self._check_lockstep(side, to, acting=False)
        self._check_passable(side, current, to)
        payload = {
            "side": side,
            "cg_date": self.cg_date,
            "rule": f"{rs.id}:{rs.sequence_rule}",
            "from": current,
            "step": to,
        }
        return self.append(ctx, "RePhAdvanced", payload, {}, owner=None)

    def end_scenario(self, ctx: Ctx, body: dict[str, Any]) -> int:
        """CG-Scenario End (DESIGN §8; 8.603, 9.603, 2.9): while the
        scenario is in play (every side has completed its steps), both sides send
        the same body or the referee calls it. It records each side's CVP earned
        (and the ruleset's ``scenario_end_fields``, e.g. 2.91's VP), moves every
        side to the first step of the next RePh, and the sequence then waits for
        the New CG Date."""
        self._require_role(ctx)
        rs = self.ruleset
        for side in self.sides:
            at = self.current_step(side)
            if at != SCENARIO:
                raise RuleViolation(
                    f"{at}: {side} has not completed its RePh steps (it is at {at}, "
                    f"{rs.step(at).title}); the CG scenario is not in play",
                    rule=at,
                )
        cvp = body.get("cvp") or {}
        if set(cvp) != set(self.sides):
            raise InvalidInput(
                f"cvp names each side's CVP earned: {', '.join(self.sides)}", field="cvp"
            )
        extra = {
            k for k, v in body.items() if k not in ("cvp", "winner", "control") and v is not None
        }
        needed = rs.rules.scenario_end_fields
        if extra - needed:
            field = sorted(extra - needed)[0]
            raise InvalidInput(f"{rs.id} records no {field!r} at scenario end", field=field)
        if needed - extra:
            field = sorted(needed - extra)[0]
            raise InvalidInput(f"{rs.id} records {field!r} at scenario end", field=field)
        sent = {"cvp": dict(cvp), **{k: body[k] for k in sorted(extra)}}
        stated = body.get("winner")
        if stated is not None:
            if stated not in self.sides:
                raise InvalidInput(
                    f"{stated!r} is not a side of this campaign ({', '.join(self.sides)})",
                    field="winner",
                )
            if rs.rules.no_scenario_winner is not None:
                raise RuleViolation(
                    rs.rules.no_scenario_winner, rule=rs.rules.no_scenario_winner.split(":")[0]
                )
            sent["winner"] = stated
        book, changes = self._last_control(ctx.actor, body.get("control") or [])
        if changes:
            sent["control"] = body["control"]
        rule = f"{rs.id}:{rs.reph_steps[0].id}"
        # What the scenario end records, computed now so that a body the rules
        # refuse (a stated winner they contradict) is refused to the first
        # side too, not only when the second side agrees.
        scenario = self.scenario_of(self.cg_date) or ("initial" if self.is_initial_date() else None)
        lvp = self._scenario_lvp(scenario, stated, ctx.actor, book)
        recorded = dict(sent)
        if changes:
            recorded["control"] = changes
        if lvp is not None:
            recorded["lvp"] = lvp
        extras = rs.rules.scenario_end(self, recorded)
        proposal = self.scenario_end_proposal
        if ctx.actor != REFEREE:
            if proposal is None:
                proposed = {"by": ctx.actor, "cg_date": self.cg_date, "rule": rule, "body": sent}
                return self.append(ctx, "ScenarioEndProposed", proposed, {}, owner=None)
            if proposal["side"] == ctx.actor:
                raise RuleViolation(
                    f"{rs.reph_steps[0].id}: {ctx.actor} sent the scenario end already; "
                    "waiting for the other side (or the referee)",
                    rule=rs.reph_steps[0].id,
                )
            if proposal["body"] != sent:
                raise RuleViolation(
                    f"{rs.reph_steps[0].id}: {proposal['side']} sent {proposal['body']}, "
                    f"{ctx.actor} sends {sent}: both must send the same scenario end",
                    rule=rs.reph_steps[0].id,
                )
        payload = {
            "by": ctx.actor,
            "cg_date": self.cg_date,
            "rule": rule,
            "scenario": scenario,
            **recorded,
            **extras,
        }
        return self.append(ctx, "ScenarioEnded", payload, {}, owner=None)

    def _last_control(
        self, actor: str, items: list[dict[str, Any]]
    ) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
        """DESIGN §8: the last Control changes sent with a scenario end, each
        checked as ``POST /control`` checks it (422 naming ``control[i]...``),
        and the Control they give, in which the LVP is counted."""
        if not items:
            return self.control, []
        book = copy.deepcopy(self.control)
        changes = []
        for i, item in enumerate(items):
            change = self.control_change(
                actor,
                item["map_group"],
                item["locations"],
                blocks=item.get("blocks"),
                where=f"control[{i}].",
                book=book,
            )
            _book_control(book, 0, change)
            changes.append(change)
        return book, changes

    def reph_view(self) -> dict[str, Any]:
        """``GET /reph``: the sequence with each side's status of each step
        (``done``, ``current``, ``pending`` or ``n/a``), and the scenario."""
        rs = self.ruleset
        entry = self.initiatives.get(self.cg_date)
        scenario = None
        if entry is not None and entry["scenario"] is not None:
            scenario = {"type": entry["scenario"], "setup_first": entry["setup_first"]}
        current = {side: self.current_step(side) for side in self.sides}
        steps = []
        for step in rs.reph_steps:
            status: dict[str, str] = {}
            for side in self.sides:
                here, at = rs.step_order(step.id), rs.step_order(current[side])
                if not self.step_applies(step, side):
                    status[side] = "n/a"
                elif here < at:
                    status[side] = "done"
                elif here == at:
                    status[side] = "current"
                else:
                    status[side] = "pending"
            steps.append(
                {
                    "rule": step.id,
                    "title": step.title,
                    "markers": list(step.markers),
                    "joint": step.joint,
                    "action": step.action,
                    "status": status,
                }
            )
        return {
            "cg_date": self.cg_date,
            "initial": self.is_initial_date(),
            "new_date_due": self.awaiting_new_date,
            "scenario": scenario,
            "current": current,
            "steps": steps,
            "version": self.version,
        }

    def roll_on(
        self,
        ctx: Ctx,
        table: tablebook.Table,
        drm: list[tablebook.DrmRequest],
        inputs: dict[str, Any],
        *,
        secret: bool,
        client_nonce: str | None,
        purpose: str | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any]]:
        """Roll on ``table`` for a rule command: record its definition (first
        use), draw the dice and read the table. Returns the roll's public part,
        its secret part (``None`` for a public roll) and the table's result.
        ``purpose``: the roll's public purpose, if it must not name the table
        (a roll for a secret purchase)."""
        self._define_table(ctx, table)
        if purpose is None:
            purpose = f"{table.id} {table.title}"
        purpose = purpose[:MAX_PURPOSE]
        pub, sec = self._draw(ctx, table.dice, purpose, secret=secret, client_nonce=client_nonce)
        rolled = sec["dice"] if sec is not None else pub["dice"]
        return pub, sec, tablebook.resolve(table, rolled, drm, inputs)

    def perform(self, ctx: Ctx, action: str, body: Any) -> int:
        """Run one of the ruleset's own commands (``Rules.actions``) with its
        validated request body. Returns the seq of its main event."""
        self._require_role(ctx)
        found = self.ruleset.rules.actions.get(action)
        if found is None:
            raise NotFound(f"{self.ruleset_id} has no action {action!r}")
        if not isinstance(body, found.body):
            raise InvalidInput(f"{action} takes a {found.body.__name__} body", field="body")
        return found.run(self, ctx, body)

    def _draw(
        self, ctx: Ctx, count: int, purpose: str, *, secret: bool, client_nonce: str | None
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """Use the next committed seed. Returns the public and secret parts of the roll.

        If fewer than LOW_WATER committed indices would be left unused after this
        roll, the next batch is published first, so commitments always stay far
        ahead of the rolls and the command's main record is its last event (an
        idempotent retry then rebuilds its response at exactly that version).
        """
        index = self.roll_count
        if self.committed - (index + 1) < dice.LOW_WATER:
            self._publish_batch(ctx)
        seed = self.seed(index, ctx.sealer)
        nonce_source = "client"
        if client_nonce is None:
            client_nonce = ctx.entropy(16).hex()
            nonce_source = "server"
        result = dice.roll(
            seed,
            campaign=self.cid,
            index=index,
            client_nonce=client_nonce,
            dice=count,
            purpose=purpose,
            side=ctx.actor,
        )
        pub: dict[str, Any] = {
            "index": index,
            "commitment": self.commitment(index),
            "side": ctx.actor,
            "purpose": purpose,
            "count": count,
            "client_nonce": client_nonce,
            "nonce_source": nonce_source,
            "secret": secret,
            # The audit shows that this roll followed an undo of earlier rolls
            # (their indices stay used: DESIGN §2, §5).
            "after_undo": self.pending_reroll.get(ctx.actor),
        }
        if secret:
            return pub, {"dice": result}
        return {**pub, "dice": result, "seed": seed.hex()}, None

    def rule_payload(self, side: str, step: str) -> dict[str, Any]:
        """Public fields of a rule command's event for ``side`` at RePh ``step``."""
        return {
            "side": side,
            "cg_date": self.cg_date,
            "rule": f"{self.ruleset_id}:{step}",
            "step": step,
        }

    def append(
        self,
        ctx: Ctx,
        kind: str,
        payload: dict[str, Any],
        values: dict[str, Any],
        *,
        owner: str | None,
    ) -> int:
        """Append a command's main event: ``values`` are ``owner``'s secret, or
        public when there is no owner. Returns its seq."""
        if owner is None:
            record = self._emit(ctx, kind, {**payload, **values}, None, main=True)
        else:
            record = self._emit(ctx, kind, {**payload, "owner": owner}, values, main=True)
        return int(record["seq"])

    def _publish_batch(self, ctx: Ctx, *, main: bool = False) -> None:
        first = self.committed
        seeds = [ctx.entropy(SEED_BYTES) for _ in range(dice.BATCH_SIZE)]
        payload = {
            "first_index": first,
            "commitments": [dice.commitment(self.cid, first + k, s) for k, s in enumerate(seeds)],
        }
        internal = {"sealed": ctx.sealer.seal(b"".join(seeds), self._aad(first))}
        self._emit(ctx, "CommitmentsPublished", payload, None, main=main, internal=internal)

    def _aad(self, first: int) -> bytes:
        return f"cgledger/v1/seeds\n{self.cid}\n{first}".encode()

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
        record = _record(ctx, self.version + 1, kind, payload, secret, self.head)
        extra = dict(internal or {})
        if main and ctx.idempotency is not None:
            extra["idempotency"] = {**ctx.idempotency, "role": ctx.actor}
        if extra:
            record["internal"] = extra
        _TRIGGERS.get(kind, Campaign._rule_recorded)(self, record)
        self.history.remember(record)
        return record


def _options(definition: Mapping[str, Any] | None) -> list[str]:
    """The optional rules a CG definition adopts (``optional_rules``)."""
    return sorted((definition or {}).get("optional_rules") or ())


def _moves_state(kind: str, payload: Mapping[str, Any]) -> bool:
    """Whether a roll event may also change campaign state: a side's table roll
    in its RePh step moves the side to that step (DESIGN §8); where it changes
    something (``Campaign._roll_entry``) an undo replays it with the state
    events (its entry is kept in ``state_log`` and ``revertible``)."""
    return kind == "TableRolled" and "step" in payload


def _record(
    ctx: Ctx,
    seq: int,
    kind: str,
    payload: dict[str, Any],
    secret: dict[str, Any] | None,
    prev_hash: str,
) -> dict[str, Any]:
    record: dict[str, Any] = {
        "seq": seq,
        "type": kind,
        "recorded_at": ctx.now,
        "actor": ctx.actor,
        "payload": payload,
        "secret_digest": secret_digest(secret),
        "secret": secret,
        "prev_hash": prev_hash,
        # Audit fields (issue 4): the request that appended the event, and the
        # role-scoped hash of its Idempotency-Key (never the key itself).
        META: {
            "request_id": ctx.request_id,
            "idempotency_key": None if ctx.idempotency is None else ctx.idempotency["key"],
        },
    }
    record["hash"] = event_hash(record)
    return record


_SAMPLES: dict[int, tuple[Ruleset, dict[str, Any], str]] = {}
#: CG definitions in force, by hash (DESIGN §7): a definition with a map group
#: at the size of a real one is read and decoded once, not on every request.
#: The hash names the content, so campaigns that share one share the entry.
_DEFINITIONS: OrderedDict[str, dict[str, Any]] = OrderedDict()
MAX_CACHED_DEFINITIONS = 64
_DEFINITIONS_LOCK = threading.Lock()


def _sample_definition(ruleset: Ruleset) -> tuple[dict[str, Any], str]:
    """A ruleset's sample definition as validated, and its hash: computed once
    per ruleset (it is constant, and a map group at the size of a real one
    takes milliseconds to validate, dump and hash). Shared: never mutate it."""
    found = _SAMPLES.get(id(ruleset))
    if found is None or found[0] is not ruleset:
        doc = validated_definition(ruleset, dict(ruleset.sample_definition))
        found = _SAMPLES[id(ruleset)] = (ruleset, doc, defbook.definition_hash(doc))
    return found[1], found[2]


def validated_definition(ruleset: Ruleset, doc: Any, field: str = "definition") -> dict[str, Any]:
    """A CG definition checked against the ruleset's model (DESIGN §7), as the
    model normalises it; a bad one is refused naming the field."""
    try:
        model = ruleset.definition.model_validate(doc)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in (field, *err["loc"]))
        msg = str(err["msg"]).removeprefix("Value error, ")
        path, sep, rest = msg.partition(": ")
        if err["type"] == "value_error" and sep and " " not in path:
            # A check across fields names its own path ("rg_chart.German: ...").
            where, msg = f"{where}.{path}", rest
        raise InvalidInput(f"{where}: {msg}", field=where) from None
    normalized: dict[str, Any] = model.model_dump(mode="json")
    return normalized


def _text(value: str, field: str, limit: int) -> str:
    if not value.strip() or len(value) > limit:
        raise InvalidInput(f"{field} must be 1 to {limit} characters", field=field)
    return value


def _parse_date(rs: Ruleset, text: str, field: str) -> str:
    date = rs.normalize_date(text)
    if date is None:
        raise InvalidInput(f"{text!r} is not a {rs.id} CG Date", field=field)
    return date


def _day(cg_date: str) -> int:
    return int(cg_date.split(" ", 1)[0])


def _known_date(rs: Ruleset, calendar: list[str], text: str, field: str) -> str:
    date = _parse_date(rs, text, field)
    if date not in calendar:
        raise InvalidInput(
            f"unknown CG Date {text!r}; this CG's dates are {', '.join(calendar)}", field=field
        )
    return date


_TRIGGERS: dict[str, Callable[[Campaign, dict[str, Any]], None]] = {
    "CommitmentsPublished": Campaign._commitments_published,
    "DiceRolled": Campaign._dice_rolled,
    "TableDefined": Campaign._table_defined,
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

# Events of a ruleset's own commands were once stored under their own topics
# (e.g. "cgledger:RGPurchased"); they load as RuleRecorded events, which
# dispatch on the record's type like every event.
for _rs in REGISTRY.values():
    for _topic in _rs.rules.legacy_topics:
        register_topic(_topic, cast(Any, Campaign).RuleRecorded)
