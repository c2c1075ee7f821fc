"""Application service: persistence, tokens, idempotency, concurrency.

The HTTP layer (``api``) calls these methods; they load the campaign
aggregate, run one domain command and save all of its events in one
``save()``. A lost race is retried from a fresh load (the rules are checked
again), unless the client sent ``If-Match``, in which case it gets a 409.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import random
import secrets
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar

from eventsourcing.application import AggregateNotFoundError, Application, project_aggregate
from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import register_topic

from cgledger import metrics
from cgledger.domain.campaign import SCHEMA, Campaign, Ctx, token_hash
from cgledger.domain.dice import canon
from cgledger.domain.errors import IdempotencyMismatch, NotFound, VersionConflict
from cgledger.domain.history import IDEM, INDEXED, index_entries
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.visibility import REFEREE
from cgledger.sealing import AesGcmSealer, load_or_create_key
from cgledger.settings import Settings
from cgledger.signing import CheckpointSigner, load_or_create_signing_key

#: A command that keeps losing the race to other processes on one campaign
#: gives up after this long (within one process, commands never race: they queue).
BUSY_SECONDS = 30.0
MAX_SEQ = 2**63 - 1
_IDEM_NAMESPACE = uuid.UUID("6f1d2a52-4c1e-4f0b-9f7e-2b8d8e1c0a11")

Command = Callable[[Campaign, Ctx], int]


class IndexEntry(DomainEvent):
    """A keyed entry of a campaign (``cgledger.domain.history``), stored as the only
    event of its own stream (``uuid5(campaign, key)``): written once, in the
    same transaction as the campaign event it points at, and read by key."""

    TOPIC = "cgledger:IndexEntry"
    value: dict[str, Any]


# A plain event class is not registered by its TOPIC as the aggregate's events
# are: without this, a new process that reads an entry before it writes one
# could not resolve the stored topic.
register_topic(IndexEntry.TOPIC, IndexEntry)


def _entry_id(campaign_id: uuid.UUID, name: str) -> uuid.UUID:
    return uuid.uuid5(campaign_id, name)


#: The stream that records the fingerprints of the servers' keys (``_check_keys``).
SERVER_KEYS = uuid.UUID("0b7d1f0e-5c1a-4f57-8a8e-3f1c6a2b9d40")


class KeyMismatch(RuntimeError):
    """This server's keys are not the ones the database was written with."""


class StoreHistory:
    """``cgledger.domain.history.History`` over the event store: records by seq, keys
    by their entry streams, and the records a command appended but has not
    saved yet (``remember``), which ``Ledger`` then saves with their entries."""

    def __init__(self, store: Application[uuid.UUID], campaign_id: uuid.UUID) -> None:
        self.store = store
        self.campaign_id = campaign_id
        self.pending: dict[int, dict[str, Any]] = {}
        self.pending_index: dict[str, dict[str, Any]] = {}
        #: Records read so far (a record never changes once stored).
        self.read: dict[int, dict[str, Any]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> StoreHistory:
        return self  # it reads the store; a copy of the campaign reads the same one

    def record(self, seq: int) -> dict[str, Any]:
        found = self.pending.get(seq) or self.read.get(seq)
        if found is not None:
            return found
        events = self.store.events.get(self.campaign_id, gt=seq - 1, lte=seq, limit=1)
        for event in events:
            record: dict[str, Any] = event.record  # type: ignore[attr-defined]
            self.read[seq] = record
            return record
        raise NotFound(f"no event {seq} in this campaign", field="seq")

    def records(self, after: int, upto: int) -> list[dict[str, Any]]:
        events = self.store.events.get(self.campaign_id, gt=after, lte=upto)
        found = {e.record["seq"]: e.record for e in events}  # type: ignore[attr-defined]
        found.update({s: r for s, r in self.pending.items() if after < s <= upto})
        return [found[s] for s in sorted(found)]

    def lookup(self, name: str, upto: int) -> dict[str, Any] | None:
        value = self.pending_index.get(name)
        if value is None:
            for event in self.store.events.get(_entry_id(self.campaign_id, name), limit=1):
                value = event.value  # type: ignore[attr-defined]
        return value if value is not None and value["seq"] <= upto else None

    def remember(self, record: dict[str, Any]) -> None:
        self.pending[record["seq"]] = record
        for name, value in index_entries(record):
            self.pending_index.setdefault(name, value)

    def entries(self, after: int) -> list[IndexEntry]:
        """The entry events of the records appended after seq ``after``."""
        out = []
        for seq in sorted(s for s in self.pending if s > after):
            for name, value in index_entries(self.pending[seq]):
                out.append(_entry(self.campaign_id, name, value))
        return out


def _entry(campaign_id: uuid.UUID, name: str, value: dict[str, Any]) -> IndexEntry:
    return IndexEntry(  # type: ignore[call-arg]
        originator_id=_entry_id(campaign_id, name),
        originator_version=1,
        timestamp=IndexEntry.create_timestamp(),
        value=value,
    )


@dataclass
class _Turn:
    """A campaign's queue in one process: its lock, how many commands hold or
    wait for it, and the latest version a command of this process saved."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    users: int = 0
    saved: int = 0


class _Queues:
    """Commands on one campaign run one at a time in this process, so they
    never race each other and never see a 409 they did not ask for with
    ``If-Match`` (DESIGN §6); commands on different campaigns run in parallel.
    A campaign's queue exists only while a command holds or waits for it."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._turns: dict[object, _Turn] = {}

    @contextmanager
    def turn(self, key: object) -> Iterator[_Turn]:
        with self._guard:
            turn = self._turns.setdefault(key, _Turn())
            turn.users += 1
        try:
            with turn.lock:
                yield turn
        finally:
            with self._guard:
                turn.users -= 1
                if turn.users == 0:
                    del self._turns[key]


def _history(campaign: Campaign) -> StoreHistory:
    history = campaign.history
    assert isinstance(history, StoreHistory), "the Ledger attaches a StoreHistory on load"
    return history


class CampaignStore(Application[uuid.UUID]):
    """The ``eventsourcing`` application holding one stream per campaign."""

    name = "cgledger"
    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {Campaign: 100}


@dataclass(frozen=True)
class Created:
    campaign: Campaign
    #: ``None`` on an idempotent retry: tokens are shown once and never re-issued.
    tokens: dict[str, str] | None
    replayed: bool


@dataclass(frozen=True)
class Done:
    campaign: Campaign
    seq: int
    replayed: bool
    #: The latest signed checkpoint of the campaign (cgledger.signing).
    checkpoint: dict[str, Any]


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def fingerprint(operation: str, body: Any) -> str:
    return hashlib.sha256(canon({"op": operation, "body": body})).hexdigest()


def idempotency_hash(secret: bytes, role: str, key: str) -> str:
    """Keys are scoped to the role that sent them: another role's key is unknown,
    so a side cannot probe which keys (and so which requests) the other side used.
    The hash is keyed with a server secret: it is recorded in every event's
    ``meta``, and a client that puts words in its keys ("buy-I2") must not have
    them guessed back from a public hash."""
    msg = f"cgledger/v1/idempotency\n{role}\n{key}".encode()
    return hmac.new(secret, msg, hashlib.sha256).hexdigest()


class Ledger:
    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], str] = utc_now,
        entropy: Callable[[int], bytes] = secrets.token_bytes,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.entropy = entropy
        self.store = CampaignStore(env=settings.eventsourcing_env())
        self.store.snapshotting_intervals = {  # type: ignore[misc]
            Campaign: settings.snapshot_interval
        }
        key = load_or_create_key(settings.data_dir, settings.seed_key)
        self.sealer = AesGcmSealer(key)
        self.signer = CheckpointSigner(
            load_or_create_signing_key(settings.data_dir, settings.signing_key)
        )
        self._check_keys(settings, key)
        #: Called with the campaign id after every append (the live feed's wake-up).
        self.listeners: list[Callable[[str], None]] = []
        # Campaign ids for Idempotency-Keys are derived with a server secret, so
        # the id cannot be computed from the key alone.
        self._id_key = hashlib.sha256(b"cgledger/v1/idempotency-id\n" + key).digest()
        self._idem_key = hashlib.sha256(b"cgledger/v1/idempotency-key\n" + key).digest()
        #: Commands on one campaign take turns in this process (DESIGN §6).
        self._queues = _Queues()
        #: Campaigns known to have every keyed entry (``_backfill``).
        self._indexed: set[uuid.UUID] = set()

    def close(self) -> None:
        self.store.close()

    def _check_keys(self, settings: Settings, seal_key: bytes) -> None:
        """DESIGN §11: every server on one database uses the same sealing and
        signing keys. The first server records their fingerprints (never the
        keys: an HMAC under the sealing key, the signing key's public half);
        a server whose keys differ refuses to start, instead of failing later
        on the first unrevealed seed it cannot unseal."""
        mine = {
            "seal": hmac.new(seal_key, b"cgledger/v1/key-check", hashlib.sha256).hexdigest(),
            "sign": self.signer.public_key_hex,
        }
        for _ in range(2):
            for event in self.store.events.get(SERVER_KEYS, limit=1):
                recorded: dict[str, Any] = event.value  # type: ignore[attr-defined]
                wrong = [k for k in ("seal", "sign") if recorded.get(k) != mine[k]]
                if wrong:
                    names = {
                        "seal": "sealing key (CGLEDGER_SEED_KEY or seed.key)",
                        "sign": "signing key (CGLEDGER_SIGNING_KEY or checkpoint.key)",
                    }
                    self.store.close()
                    raise KeyMismatch(
                        "this database was written by a server with another "
                        + " and another ".join(names[k] for k in wrong)
                        + f" than this one (data dir {settings.data_dir.resolve()}). Every "
                        "server on one database must use the same keys: copy seed.key and "
                        "checkpoint.key from the first server's data dir, or set "
                        "CGLEDGER_SEED_KEY and CGLEDGER_SIGNING_KEY to its values."
                    )
                return
            entry = IndexEntry(  # type: ignore[call-arg]
                originator_id=SERVER_KEYS,
                originator_version=1,
                timestamp=IndexEntry.create_timestamp(),
                value=mine,
            )
            with contextlib.suppress(IntegrityError):  # another server recorded first
                self.store.save(entry)

    # ----------------------------------------------------------------- reads

    def load(self, campaign_id: str, version: int | None = None) -> Campaign:
        try:
            cid = uuid.UUID(campaign_id)
        except ValueError:
            raise NotFound(f"unknown campaign {campaign_id!r}", field="id") from None
        try:
            campaign: Campaign = self.store.repository.get(cid, version=version)
            if getattr(campaign, "schema", 1) < SCHEMA:
                campaign = self._replay(cid, version)
        except AggregateNotFoundError:
            raise NotFound(f"unknown campaign {campaign_id!r}", field="id") from None
        except AttributeError:
            # events applied on top of a snapshot of an older schema
            campaign = self._replay(cid, version)
        history = StoreHistory(self.store, cid)
        campaign.attach(history)
        if cid not in self._indexed:
            self._backfill(cid, history)
        return campaign

    def _backfill(self, cid: uuid.UUID, history: StoreHistory) -> None:
        """A campaign recorded before its keyed entries existed (``cgledger.domain.history``)
        gets them all, then the mark that says so; checked once per process."""
        if history.lookup(INDEXED, MAX_SEQ) is None:
            entries = []
            for event in self.store.events.get(cid):
                for name, value in index_entries(event.record):  # type: ignore[attr-defined]
                    if name != INDEXED:
                        entries.append(_entry(cid, name, value))
            entries.append(_entry(cid, INDEXED, {"seq": 1}))
            for start in range(0, len(entries), 1000):
                with contextlib.suppress(IntegrityError):  # another process wrote them
                    self.store.save(*entries[start : start + 1000])
        self._indexed.add(cid)

    def _replay(self, cid: uuid.UUID, version: int | None) -> Campaign:
        """Rebuild from the events alone, ignoring snapshots of an older schema
        (they lack the undo bookkeeping, which only the events can give back),
        and snapshot the result so the next load is fast again."""
        found = project_aggregate(None, self.store.events.get(cid, lte=version))
        if not isinstance(found, Campaign):
            raise NotFound(f"unknown campaign {cid}", field="id")
        if version is None:
            self._snapshot(found)
        return found

    def _snapshot(self, campaign: Campaign) -> None:
        """Snapshot the aggregate as it is (it must match what is stored)."""
        snapshots = self.store.snapshots
        snapshot_class = getattr(Campaign, "Snapshot", type(self.store).snapshot_class)
        if snapshots is None or snapshot_class is None:
            return
        with contextlib.suppress(IntegrityError):  # one was taken at this version already
            snapshots.put([snapshot_class.take(campaign)])

    def authenticate(self, campaign: Campaign, token: str | None) -> str | None:
        if not token:
            return None
        return campaign.role_for_token(token)

    def records(
        self, campaign: Campaign, *, after: int = 0, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Stored records of ``campaign`` with seq > ``after`` (server side: unredacted)."""
        events = self.store.events.get(campaign.id, gt=after, lte=campaign.version, limit=limit)
        return [e.record for e in events]  # type: ignore[attr-defined]

    def record(self, campaign: Campaign, seq: int) -> dict[str, Any]:
        """One stored record, through the campaign's history: a record the
        request itself just appended is answered without a read."""
        return campaign.record(seq)

    def definition(self, campaign: Campaign) -> dict[str, Any] | None:
        """The CG definition in force (DESIGN §7), read from the event that holds it."""
        return campaign.definition_doc() if campaign.definition is not None else None

    def unsealed_seed(self, campaign: Campaign) -> Callable[[int], str]:
        return lambda index: campaign.seed(index, self.sealer).hex()

    def checkpoint(self, campaign: Campaign, seq: int | None = None) -> dict[str, Any]:
        """The signed checkpoint of ``campaign`` at ``seq`` (default: its head).

        Its ``time`` is when that event was recorded, and Ed25519 signatures are
        deterministic, so the checkpoint of a seq is always the same object: an
        idempotent retry returns exactly the first response.
        """
        if seq is None or seq == campaign.version:
            seq, head, at = campaign.version, campaign.head, campaign.head_at
        else:
            record = self.record(campaign, seq)
            head, at = record["hash"], record["recorded_at"]
        return self.signer.sign(campaign.cid, seq, head, at)

    def _notify(self, campaign_id: str) -> None:
        for listener in list(self.listeners):
            listener(campaign_id)

    # ----------------------------------------------------------------- writes

    def ctx(
        self,
        actor: str,
        idempotency: dict[str, str] | None = None,
        request_id: str | None = None,
        history: StoreHistory | None = None,
    ) -> Ctx:
        return Ctx(
            actor=actor,
            now=self.clock(),
            entropy=self.entropy,
            sealer=self.sealer,
            idempotency=idempotency,
            request_id=request_id if request_id is not None else uuid.uuid4().hex,
            history=history,
        )

    def create_campaign(
        self,
        *,
        ruleset: str,
        campaign: str,
        title: str,
        start_date: str | None,
        initial_cpp: dict[str, int] | None,
        idempotency_key: str | None,
        definition: dict[str, Any] | None = None,
        request_fingerprint: str,
        request_id: str | None = None,
    ) -> Created:
        """Create a campaign; return a fresh token for each side and the referee.

        Only token hashes are stored, so tokens are shown exactly once. A retry
        with the same Idempotency-Key finds the same campaign (its id is derived
        from the key with a server secret) and appends nothing, but it does not
        re-issue the tokens: whoever repeats a key must not gain the tokens.
        """
        rs = REGISTRY.get(ruleset)
        sides = rs.sides if rs is not None else ()
        idem = None
        if idempotency_key is None:
            campaign_id = uuid.uuid4()
        else:
            digest = hmac.new(self._id_key, idempotency_key.encode(), hashlib.sha256).hexdigest()
            campaign_id = uuid.uuid5(_IDEM_NAMESPACE, digest)
            idem = {
                "key": idempotency_hash(self._idem_key, "creator", idempotency_key),
                "fingerprint": request_fingerprint,
            }
            existing = self._existing(campaign_id)
            if existing is not None:
                return self._replay_creation(existing, idem)
        tokens = {role: "cgl_" + secrets.token_urlsafe(32) for role in (*sides, REFEREE)}
        history = StoreHistory(self.store, campaign_id)
        agg = Campaign.create(
            self.ctx("creator", idem, request_id, history),
            campaign_id=campaign_id,
            ruleset_id=ruleset,
            campaign_name=campaign,
            title=title,
            start_date=start_date,
            initial_cpp=initial_cpp,
            definition=definition,
            token_hashes={role: token_hash(t) for role, t in tokens.items()},
        )
        try:
            self.store.save(agg, *history.entries(0))
            metrics.appended(history.pending.values())
            # The creation event holds the CG definition (a real map group is
            # thousands of hexes): a snapshot now spares every load before the
            # first periodic snapshot from decoding it again (the aggregate
            # keeps only its hash; ``Campaign.definition_doc`` reads it once).
            self._snapshot(agg)
        except IntegrityError:
            if idem is None:
                raise
            existing = self._existing(campaign_id)
            assert existing is not None
            return self._replay_creation(existing, idem)
        return Created(agg, tokens, replayed=False)

    def _existing(self, campaign_id: uuid.UUID) -> Campaign | None:
        try:
            return self.load(str(campaign_id))
        except NotFound:
            return None

    def _replay_creation(self, campaign: Campaign, idem: dict[str, str]) -> Created:
        stored = campaign.lookup(IDEM, idem["key"])
        if stored is None or stored["fingerprint"] != idem["fingerprint"]:
            raise IdempotencyMismatch(
                "this Idempotency-Key was used for a different request", field="Idempotency-Key"
            )
        as_created = self.load(str(campaign.id), version=int(stored["seq"]))
        return Created(as_created, None, replayed=True)

    def execute(
        self,
        campaign_id: str,
        role: str,
        command: Command,
        *,
        operation: str,
        body: Any,
        idempotency_key: str | None = None,
        if_match: int | None = None,
        request_id: str | None = None,
        loaded: Campaign | None = None,
    ) -> Done:
        """Run one command against the latest version of the campaign and save it.

        ``loaded`` is the campaign as the request already loaded it (to
        authenticate): the first attempt runs on it, so a request loads the
        campaign once; a lost race reloads."""
        request_fp = fingerprint(operation, body)
        idem = None
        if idempotency_key is not None:
            idem = {
                "key": idempotency_hash(self._idem_key, role, idempotency_key),
                "fingerprint": request_fp,
            }
        key: object = campaign_id
        with contextlib.suppress(ValueError):
            key = loaded.id if loaded is not None else uuid.UUID(campaign_id)
        with self._queues.turn(key) as turn:
            return self._execute(
                campaign_id, role, command, idem, request_fp, if_match, request_id, loaded, turn
            )

    def _execute(
        self,
        campaign_id: str,
        role: str,
        command: Command,
        idem: dict[str, str] | None,
        request_fp: str,
        if_match: int | None,
        request_id: str | None,
        loaded: Campaign | None,
        turn: _Turn,
    ) -> Done:
        """One command in its campaign's turn (``_Queues``). Another process
        (a second worker) can still win a race; then the command is re-run on
        the new state with a jittered backoff, until ``BUSY_SECONDS`` pass."""
        deadline = time.monotonic() + BUSY_SECONDS
        attempt = 0
        while True:
            # The campaign as the request loaded it is current unless a command
            # of this process saved a later version while this one queued.
            fresh = loaded is not None and attempt == 0 and loaded.version >= turn.saved
            campaign = loaded if fresh and loaded is not None else self.load(campaign_id)
            attempt += 1
            if idem is not None:
                stored = campaign.lookup(IDEM, idem["key"])
                if stored is not None:
                    if stored["fingerprint"] != request_fp:
                        raise IdempotencyMismatch(
                            "this Idempotency-Key was used for a different request",
                            field="Idempotency-Key",
                        )
                    # The command's main record is its last event: answer as of then.
                    seq = int(stored["seq"])
                    as_then = self.load(campaign_id, version=seq)
                    return Done(as_then, seq, replayed=True, checkpoint=self.checkpoint(as_then))
            if if_match is not None and campaign.version != if_match:
                raise VersionConflict(
                    f"If-Match is {if_match} but the campaign is at version {campaign.version}",
                    field="If-Match",
                )
            before = campaign.version
            seq = command(campaign, self.ctx(role, idem, request_id))
            try:
                self.store.save(campaign, *_history(campaign).entries(before))
            except IntegrityError:
                if if_match is not None:
                    raise VersionConflict(
                        f"another write to this campaign won the race after version {if_match}",
                        field="If-Match",
                    ) from None
                # Lost a race to another process: back off (jittered, growing)
                # and re-run the command on the new state, so its rules are
                # checked again.
                if time.monotonic() > deadline:
                    raise VersionConflict(
                        f"the campaign was too busy: other servers kept writing to it "
                        f"for {BUSY_SECONDS:.0f} s; retry"
                    ) from None
                backoff = 0.002 * 2 ** min(attempt, 5)
                time.sleep(random.uniform(0, min(0.05, backoff)))  # noqa: S311
                continue
            turn.saved = campaign.version
            appended = _history(campaign).pending
            metrics.appended(appended[s] for s in appended if s > before)
            if any(appended[s]["type"] == "UndoApplied" for s in appended if s > before):
                # An undo rebuilds the state from every state event in force;
                # a snapshot at once spares every later load from redoing it.
                self._snapshot(campaign)
            self._notify(campaign.cid)
            return Done(campaign, seq, replayed=False, checkpoint=self.checkpoint(campaign))
