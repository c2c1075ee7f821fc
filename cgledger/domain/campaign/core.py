"""What every component of the campaign reads: the state's slices and who
owns each, the campaign's identity, the ruleset, the CG Date, the record of
an event by seq, keyed look-ups, the CG definition in force, and the role
checks. The aggregate (``aggregate.py``) provides ``append``.

DESIGN §6: each component owns one slice of the state (``OWNERS``) and only
its apply functions assign to it; it reads the others through their functions
or, for plain data, through the attributes declared here.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar, cast

from pydantic import ValidationError

from cgledger.domain import definitions as defbook
from cgledger.domain import history as historybook
from cgledger.domain import undo as undobook
from cgledger.domain.chain import META, event_hash, secret_digest
from cgledger.domain.context import Ctx
from cgledger.domain.errors import Forbidden, InvalidInput, NotFound
from cgledger.domain.history import History
from cgledger.domain.rulesets import REGISTRY, Ruleset
from cgledger.domain.territory import MapGroupData, cached_group
from cgledger.domain.visibility import REFEREE

if TYPE_CHECKING:
    from cgledger.domain.rulesets.base import Engine

MAX_PURPOSE = 200
MAX_INITIAL_CPP = 10_000
MAX_REASON = 500
MAX_CLAIM = 1000
SEED_BYTES = 32

#: Which component assigns each slice of the state (a test holds every
#: component to its own). ``aggregate``: the bookkeeping every event shares.
OWNERS: Mapping[str, tuple[str, ...]] = {
    "aggregate": ("schema", "head", "head_at", "last_event", "state_log"),
    "identity": (
        "ruleset_id", "campaign_name", "title", "sides", "extendable", "token_hashes", "genesis",
    ),
    "rolls": ("batches", "committed", "roll_count", "table_defs"),
    "sealing": ("sealed_steps",),
    "calendar": ("calendar", "date_index", "awaiting_new_date"),
    "agreement": (
        "undo_requests", "amendments", "control_proposals", "massacre_proposals", "ready",
        "scenario_end_proposal", "scenario_end_proposals", "cg_date_proposals",
    ),
    "sequence": ("steps", "rolled_tables"),
    "tables": ("lasting",),
    "initiative": ("initiatives", "chits_used"),
    "territory": ("control", "setup_frozen", "vacated"),
    "scenario_end": ("scenario_ends", "lvp_rows"),
    "undo": ("revertible", "reverted", "pending_reroll"),
    "disputes": ("disputes",),
    "amendments": ("definition", "definitions_in_force"),
    "rules": ("rules",),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Applied:
    """One event as a component's apply function sees it: its seq and values
    (public and secret parts; for a state event only the keys its handlers
    declared, live and on an undo's rebuild alike), and, when it is applied
    as recorded (not rebuilt), the actor and the record's internal part."""

    seq: int
    kind: str
    values: dict[str, Any]
    actor: str = ""
    internal: Mapping[str, Any] = field(default_factory=dict)


#: An apply function of a component: it only assigns to its own slice.
Handler = Callable[[Any, Applied], None]
_H = TypeVar("_H", bound=Handler)
#: The keys each state-event handler reads of the event's values, by the
#: handler's qualified name (``reads``).
READS: dict[str, frozenset[str]] = {}


#: A key a handler may read besides the payload's: the role that recorded the
#: event (the record's ``actor``), kept with the state event's values.
ACTOR = "_actor"


def reads(*keys: str) -> Callable[[_H], _H]:
    """Declare the keys an apply function of a state event reads. The
    aggregate keeps only the keys its handlers declared, and applies only
    those, live and when an undo rebuilds the state: a handler that reads
    another fails at once, not after an undo."""

    def mark(handler: _H) -> _H:
        READS[handler.__qualname__] = frozenset(keys)
        return handler

    return mark


class Core:
    """The state's slices (typed here, assigned by their owners) and the
    queries every component shares."""

    # identity (CampaignCreated)
    schema: int
    ruleset_id: str
    campaign_name: str
    title: str
    sides: list[str]
    extendable: bool
    token_hashes: dict[str, str]
    genesis: dict[str, Any]
    # the aggregate's bookkeeping
    head: str
    head_at: str
    last_event: int
    state_log: list[dict[str, Any]]
    # rolls
    batches: list[dict[str, Any]]
    committed: int
    roll_count: int
    table_defs: dict[str, int]
    # sealing
    sealed_steps: dict[str, dict[str, list[str]]]
    # calendar
    calendar: list[str]
    date_index: int
    ready: dict[str, str]
    awaiting_new_date: bool
    # sequence
    steps: dict[str, str | None]
    rolled_tables: dict[str, list[str]]
    # tables
    lasting: dict[str, dict[str, dict[str, Any]]]
    # initiative
    initiatives: dict[str, dict[str, Any]]
    chits_used: dict[str, dict[str, int]]
    # territory
    control: dict[str, dict[str, dict[str, Any]]]
    setup_frozen: dict[str, Any] | None
    vacated: dict[str, int]
    # scenario end
    scenario_end_proposal: dict[str, Any] | None
    scenario_ends: dict[str, dict[str, int]]
    lvp_rows: dict[str, dict[str, Any]]
    # undo, disputes, amendments
    revertible: undobook.Book
    reverted: dict[str, int]
    pending_reroll: dict[str, dict[str, Any]]
    undo_requests: dict[str, dict[str, Any]]
    disputes: dict[str, dict[str, Any]]
    definition: dict[str, Any] | None
    #: Each CG definition put in force, in seq order (``{"seq", "hash"}``):
    #: the readings in force at any event (``readings(at=...)``, DESIGN §14).
    definitions_in_force: list[dict[str, Any]]
    amendments: dict[str, dict[str, Any]]
    control_proposals: dict[str, dict[str, Any]]
    massacre_proposals: dict[str, dict[str, Any]]
    scenario_end_proposals: dict[str, dict[str, Any]]
    cg_date_proposals: dict[str, dict[str, Any]]
    # the ruleset's own state (``Rules.initial_state``)
    rules: dict[str, Any]

    # provided by the eventsourcing Aggregate and by ``aggregate.Campaign``
    id: Any
    version: int

    def append(
        self,
        ctx: Ctx,
        kind: str,
        payload: dict[str, Any],
        values: dict[str, Any],
        *,
        owner: str | None,
    ) -> int:
        raise NotImplementedError  # aggregate.Campaign.append

    def seal_passed(self, ctx: Ctx, side: str, to: str) -> None:
        raise NotImplementedError  # sealing.Sealing

    def _emit(
        self,
        ctx: Ctx,
        kind: str,
        payload: dict[str, Any],
        secret: dict[str, Any] | None,
        main: bool = False,
        internal: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        raise NotImplementedError  # aggregate.Campaign._emit

    # ------------------------------------------------------------------ identity

    @property
    def cid(self) -> str:
        return str(self.id)

    @property
    def ruleset(self) -> Ruleset:
        return REGISTRY[self.ruleset_id]

    @property
    def engine(self) -> Engine:
        """The campaign as a ruleset's rules see it (``rulesets.base.Engine``)."""
        return cast("Engine", self)

    @property
    def cg_date(self) -> str:
        return self.calendar[self.date_index]

    def role_for_token(self, token: str) -> str | None:
        digest = token_hash(token)
        found = None
        for role, stored in self.token_hashes.items():
            if hmac.compare_digest(digest, stored):
                found = role
        return found

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

    def rule_payload(self, side: str, step: str) -> dict[str, Any]:
        """Public fields of a rule command's event for ``side`` at RePh ``step``."""
        return {
            "side": side,
            "cg_date": self.cg_date,
            "rule": f"{self.ruleset_id}:{step}",
            "step": step,
        }

    # ------------------------------------------------------------------ the record

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

    # ------------------------------------------------------------------ the definition

    @property
    def definition_hash(self) -> str | None:
        return None if self.definition is None else str(self.definition["hash"])

    def definition_doc(self) -> dict[str, Any]:
        """The CG definition in force (read from the event that holds it)."""
        if self.definition is None:
            return {}
        return self._definition_of(self.definition)

    def _definition_of(self, held: Mapping[str, Any]) -> dict[str, Any]:
        """The CG definition ``{"hash", "seq"}`` names (read from the event at its seq)."""
        key = held["hash"]
        doc = _DEFINITIONS.get(key)
        if doc is None:
            doc = self.record(int(held["seq"]))["payload"]["definition"]
            with _DEFINITIONS_LOCK:
                _DEFINITIONS[key] = doc
                while len(_DEFINITIONS) > MAX_CACHED_DEFINITIONS:
                    _DEFINITIONS.popitem(last=False)  # the oldest
        return doc

    def options(self) -> frozenset[str]:
        """The optional rules the CG definition in force adopts (``optional_rules``,
        e.g. 8.6171's Random Weather "by mutual consent")."""
        if self.definition is None:
            return frozenset()
        return frozenset(self.definition.get("options") or ())

    def readings(self, at: int | None = None) -> Mapping[str, str]:
        """Every reading's choice under the CG definition in force (DESIGN §14:
        its ``readings``, defaults filled in), for code that follows a reading;
        counted DRMs and table rules read ``Facts.readings``. ``at``: under the
        definition in force at event ``at`` instead (the rolls an RG needs
        follow the readings of its purchase: a reading changed by amendment
        changes results only from the amendment on)."""
        held = self.definition
        if at is not None:
            # A campaign snapshotted before ``definitions_in_force`` is rebuilt (SCHEMA).
            earlier = [d for d in self.definitions_in_force if int(d["seq"]) <= at]
            held = earlier[-1] if earlier else None
        digest = "" if held is None else str(held["hash"])
        key = (self.ruleset_id, digest)
        found = _READINGS.get(key)
        if found is None:
            chosen = self._definition_of(held).get("readings") if held is not None else None
            found = MappingProxyType(self.ruleset.readings_in_force(chosen))
            with _DEFINITIONS_LOCK:
                _READINGS[key] = found
                while len(_READINGS) > MAX_CACHED_DEFINITIONS:
                    _READINGS.popitem(last=False)
        return found

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


def token_hash(token: str) -> str:
    return hashlib.sha256(b"cgledger/v1/token\n" + token.encode()).hexdigest()


def options_of(definition: Mapping[str, Any] | None) -> list[str]:
    """The optional rules a CG definition adopts (``optional_rules``)."""
    return sorted((definition or {}).get("optional_rules") or ())


#: CG definitions in force, by hash (DESIGN §7): a definition with a map group
#: at the size of a real one is read and decoded once, not on every request.
#: The hash names the content, so campaigns that share one share the entry.
_DEFINITIONS: OrderedDict[str, dict[str, Any]] = OrderedDict()
MAX_CACHED_DEFINITIONS = 64
_DEFINITIONS_LOCK = threading.Lock()
#: The readings in force (``Campaign.readings``), by ruleset and definition hash.
_READINGS: OrderedDict[tuple[str, str], Mapping[str, str]] = OrderedDict()
_SAMPLES: dict[int, tuple[Ruleset, dict[str, Any], str]] = {}


def sample_definition(ruleset: Ruleset) -> tuple[dict[str, Any], str]:
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
        where, msg = definition_problem(exc.errors(include_url=False)[0], field)
        raise InvalidInput(f"{where}: {msg}", field=where) from None
    normalized: dict[str, Any] = model.model_dump(mode="json")
    return normalized


def definition_problem(err: Mapping[str, Any], field: str = "definition") -> tuple[str, str]:
    """A definition's validation error as (the field it names, the message)."""
    where = ".".join(str(part) for part in (field, *err["loc"]))
    msg = str(err["msg"]).removeprefix("Value error, ")
    path, sep, rest = msg.partition(": ")
    if err["type"] == "value_error" and sep and " " not in path:
        # A check across fields names its own path ("rg_chart.German: ...").
        where, msg = f"{where}.{path}", rest
    return where, msg


def text(value: str, field: str, limit: int) -> str:
    """A free text field of a command (a reason, a note, a claim): 1 to ``limit``."""
    if not value.strip() or len(value) > limit:
        raise InvalidInput(f"{field} must be 1 to {limit} characters", field=field)
    return value


def new_record(
    ctx: Ctx,
    seq: int,
    kind: str,
    payload: dict[str, Any],
    secret: dict[str, Any] | None,
    prev_hash: str,
) -> dict[str, Any]:
    """A hash-chained record of one event."""
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
