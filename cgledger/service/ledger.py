"""The application service: persistence, tokens, idempotency, concurrency.

The service functions (``cgledger.service.*``) call these methods; they load
the campaign aggregate, run one domain command and save all of its events in
one ``save()``. A lost race is retried from a fresh load (the rules are
checked again), unless the client sent ``If-Match``, in which case it gets a
409 (``cgledger.service.queues``).
"""

from __future__ import annotations

import contextlib
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from eventsourcing.application import AggregateNotFoundError, project_aggregate
from eventsourcing.persistence import IntegrityError

from cgledger import metrics
from cgledger.domain.campaign import SCHEMA, Campaign, Ctx, token_hash
from cgledger.domain.errors import IdempotencyMismatch, NotFound, VersionConflict
from cgledger.domain.history import IDEM, INDEXED, index_entries
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.visibility import REFEREE
from cgledger.sealing import AesGcmSealer, load_or_create_key
from cgledger.service.keys import IdempotencyKeys, KeyMismatch, check_keys, fingerprint
from cgledger.service.queues import Queues, Races, Retry, Turn
from cgledger.service.store import (
    MAX_SEQ,
    CampaignStore,
    StoreHistory,
    history_of,
    keyed_entry,
)
from cgledger.settings import Settings
from cgledger.signing import CheckpointSigner, load_or_create_signing_key

Command = Callable[[Campaign, Ctx], int]


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
        try:
            check_keys(self.store, settings.data_dir, key, self.signer.public_key_hex)
        except KeyMismatch:
            self.store.close()
            raise
        #: Called with the campaign id after every append (the live feed's wake-up).
        self.listeners: list[Callable[[str], None]] = []
        # Campaign ids for Idempotency-Keys are derived with a server secret, so
        # the id cannot be computed from the key alone.
        self.idempotency = IdempotencyKeys(key)
        #: Commands on one campaign take turns in this process (DESIGN §6).
        self._queues = Queues()
        #: How a command that lost a race to another process backs off.
        self.retry = Retry()
        #: What the races with other processes came to (``Races``).
        self.races = Races()
        #: A seam between running a command and saving it, called with the
        #: campaign as the command left it: what another process writes here
        #: makes this save lose the race (the lost-race tests use it).
        self.before_save: Callable[[Campaign], None] | None = None
        #: Campaigns known to have every keyed entry (``_backfill``).
        self._indexed: set[uuid.UUID] = set()

    def close(self) -> None:
        self.store.close()

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
                        entries.append(keyed_entry(cid, name, value))
            entries.append(keyed_entry(cid, INDEXED, {"seq": 1}))
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
            campaign_id = self.idempotency.campaign_id(idempotency_key)
            idem = self.idempotency.entry("creator", idempotency_key, request_fingerprint)
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
            idem = self.idempotency.entry(role, idempotency_key, request_fp)
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
        turn: Turn,
    ) -> Done:
        """One command in its campaign's turn (``Queues``). Another process
        (a second worker) can still win a race; then the command is re-run on
        the new state with a jittered backoff (``self.retry``), until
        ``BUSY_SECONDS`` pass; ``self.races`` counts each lost race."""
        deadline = self.retry.deadline()
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
            if self.before_save is not None:
                self.before_save(campaign)
            try:
                self.store.save(campaign, *history_of(campaign).entries(before))
            except IntegrityError:
                if if_match is not None:
                    self.races.count("conflicts")
                    raise VersionConflict(
                        f"another write to this campaign won the race after version {if_match}",
                        field="If-Match",
                    ) from None
                # Lost a race to another process: back off (jittered, growing)
                # and re-run the command on the new state, so its rules are
                # checked again.
                if self.retry.expired(deadline):
                    self.races.count("busy")
                    raise VersionConflict(
                        f"the campaign was too busy: other servers kept writing to it "
                        f"for {self.retry.busy_seconds:.0f} s; retry"
                    ) from None
                self.races.count("retried")
                self.retry.back_off(attempt)
                continue
            turn.saved = campaign.version
            appended = history_of(campaign).pending
            metrics.appended(appended[s] for s in appended if s > before)
            if any(appended[s]["type"] == "UndoApplied" for s in appended if s > before):
                # An undo rebuilds the state from every state event in force;
                # a snapshot at once spares every later load from redoing it.
                self._snapshot(campaign)
            self._notify(campaign.cid)
            return Done(campaign, seq, replayed=False, checkpoint=self.checkpoint(campaign))
