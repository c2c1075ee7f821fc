"""Replay properties of the campaign aggregate (DESIGN §5, §6).

Hypothesis draws random histories of commands (free rolls, public or Secret;
RePh advances, Initiative chits, CG-Scenario Ends and new CG Dates; 8.616 CPP
Replenishments; 8.618 Ammunition Shortage; 8.619 RG purchases and their 8.620
determinations; 8.622 Recon; reveals; undos and disputes), each by a random
role: the acting side, its opponent, the referee or an observer. Every
history plays at least one CG Date to its end (``histories``: the Initial
Scenario's end, then Initiative chits, the scenario and its end, or an Idle
date), so that the commands of later CG Dates are accepted, not only refused;
each property checks that most of its histories got past the first CG Date
(``Reach``). Then:

* a refused command (any ``DomainError``) appends nothing and changes nothing;
* after every accepted command the invariants hold: roll indices contiguous,
  commitments ahead of the rolls and matching their sealed seeds, every die
  recomputable (cgledger-dice/1), no CPP line below 0, an intact hash chain;
* replaying the stored events, with or without snapshots and as of any
  version, rebuilds exactly the state the live aggregate had;
* every viewer's export of the history passes ``cgledger verify``.

The domain properties run without a database (``eventsourcing.popo``); the
last property runs through :class:`cgledger.service.Ledger` on SQLite and
PostgreSQL. No timing assertions.
"""

from __future__ import annotations

import copy
import itertools
import random
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import hypothesis
import kgp_commands as kgpc
import pytest
from conftest import commitments_of, examples, rolls_of, secrets_of
from eventsourcing.application import project_aggregate
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from cgledger.domain import dice
from cgledger.domain import sealed as sealbook
from cgledger.domain import undo as undobook
from cgledger.domain.campaign import Campaign, Ctx, token_hash
from cgledger.domain.chain import GENESIS, event_hash, secret_digest
from cgledger.domain.errors import DomainError
from cgledger.domain.rulesets.cpp import roster as cppbook
from cgledger.domain.rulesets.kgp.rules import ShortageCreate
from cgledger.domain.tables import DrmRequest
from cgledger.domain.visibility import REFEREE
from cgledger.projections.eventlog import export_jsonl
from cgledger.sealing import AesGcmSealer
from cgledger.service import CampaignStore, Done, Ledger
from cgledger.settings import Settings
from cgledger.verify import verify_bytes

pytestmark = pytest.mark.store

NOW = "2026-01-01T00:00:00Z"
#: The campaign's state that state events build and an undo rebuilds.
GAME_STATE = (
    "calendar", "date_index", "rules", "steps", "ready", "initiatives", "chits_used",
    "scenario_end_proposal", "scenario_ends", "awaiting_new_date", "lasting",
    "sealed_steps",  # the acts sealed in each RePh step (DESIGN §4)
)  # fmt: skip
SEALER = AesGcmSealer(bytes(32))
SIDES = ("US", "German")
#: A role that is neither a side nor the referee: sees public parts, may not act.
OBSERVER = "observer"
ROLES = (*SIDES, REFEREE, OBSERVER)
CGS = ("CG I", "CG II", "CG III")

# --------------------------------------------------------------------- commands
# A command is a tuple: (kind, actor, *arguments). ``actor`` is a role name;
# for side commands it may be "self" (the side acts for itself) or
# "opponent" (the other side tries to).

actor = st.sampled_from(ROLES)
side_actor = st.sampled_from(("self", "self", "self", REFEREE, "opponent", OBSERVER))
side = st.sampled_from(SIDES)
chit = st.sampled_from(("attack", "idle"))
#: KGP's RePh steps a side may advance to (8.6), and the scenario after them.
REPH_TO = ("8.612", "8.616", "8.619", "8.622", "8.623", "scenario")

Command = tuple[Any, ...]

#: advance: the referee plays CG Dates to their end and begins the next
#: (``expand``), one per pair of Initiative chits.
ADVANCE: st.SearchStrategy[Command] = st.tuples(
    st.just("advance"), st.just(REFEREE), st.lists(st.tuples(chit, chit), min_size=1, max_size=3)
)
COMMANDS: st.SearchStrategy[Command] = st.one_of(
    st.tuples(st.just("roll"), actor, st.integers(1, 2), st.booleans()),
    st.tuples(st.just("begin"), actor),
    st.tuples(st.just("replenish"), side_actor, side),
    st.tuples(
        st.just("rg"),
        side_actor,
        side,
        st.one_of(st.none(), st.integers(1, 10)),
        st.booleans(),
        st.sampled_from(("I1", "V3", "HW1", "F1", "O1", "bad id")),
    ),
    # determine: the next roll an RG bought on this CG Date needs (8.620).
    st.tuples(st.just("determine"), side_actor, side),
    st.tuples(st.just("recon"), side_actor, side, st.integers(1, 2), st.booleans(), st.booleans()),
    # The RePh sequence (DESIGN §8): a side's advance, its Initiative chit
    # (8.6232), the scenario's end (each side's CVP), 8.618's DR.
    st.tuples(st.just("reph"), side_actor, side, st.sampled_from(REPH_TO)),
    st.tuples(st.just("chit"), side_actor, side, chit),
    st.tuples(st.just("end"), actor, st.sampled_from(((0, 0), (3, 1)))),
    st.tuples(st.just("shortage"), side_actor, side),
    # reveal: pick one of the secrets (True) or any seq (False), by ``pick``.
    st.tuples(st.just("reveal"), actor, st.booleans(), st.integers(0, 1000)),
    ADVANCE,
    # table: a roll on a rule table (some refused: unknown table, bad DRM, a
    # table with its own endpoint), secret by the rule's default or not.
    st.tuples(
        st.just("table"),
        actor,
        st.sampled_from(("kgp:8.606-infantry", "8.610", "kgp:8.6113", "kgp:8.616", "kgp:nope")),
        st.sampled_from((None, True, False)),
        st.sampled_from(((), ("isolated",), ("german", "heroic"), ("nope",), ("other",))),
    ),
    # undo (DESIGN §5): revert a picked event (with the later state events it
    # needs, or not), or everything after a picked seq; approve or reject a
    # pending request; dispute an event and resolve a dispute.
    st.tuples(
        st.just("undo"), actor, st.integers(0, 1000), st.sampled_from(("one", "suffix", "to"))
    ),
    st.tuples(st.just("approve"), actor, st.integers(0, 1000)),
    st.tuples(st.just("approve"), st.just(REFEREE), st.integers(0, 1000)),
    st.tuples(st.just("reject"), actor, st.integers(0, 1000)),
    st.tuples(st.just("dispute"), actor, st.integers(0, 1000)),
    st.tuples(
        st.just("resolve"), actor, st.integers(0, 1000), st.sampled_from(("uphold", "revert"))
    ),
)


@st.composite
def histories(draw: st.DrawFn, min_size: int, max_size: int) -> list[Command]:
    """Random commands with one "advance" among them, at a random place: every
    history plays at least one CG Date to its end and begins the next one."""
    commands = draw(st.lists(COMMANDS, min_size=min_size, max_size=max_size))
    at = draw(st.integers(0, len(commands)))
    advance = draw(ADVANCE)
    return [*commands[:at], advance, *commands[at:]]


class Reach:
    """How far each generated history got in the calendar: the furthest CG
    Date (its index) that it was on after an accepted command. ``check``: most
    histories got past the first CG Date (issue 24: a history that never
    leaves it has every later date's command refused)."""

    def __init__(self) -> None:
        self.furthest: list[int] = []

    def record(self, furthest: int) -> None:
        self.furthest.append(furthest)
        hypothesis.event(f"furthest CG Date: index {furthest}")

    def check(self, share: float = 0.8) -> None:
        later = sum(1 for index in self.furthest if index > 0)
        assert self.furthest, "no history ran"
        assert later >= share * len(self.furthest), (
            f"only {later} of {len(self.furthest)} histories got past the first CG Date"
        )


def role_of(cmd: Command) -> str:
    """The role that runs ``cmd``."""
    who = cmd[1]
    if who == "self":
        return str(cmd[2])
    if who == "opponent":
        return SIDES[1 - SIDES.index(cmd[2])]
    return str(who)


def run(campaign: Campaign, ctx: Ctx, cmd: Command) -> int:
    """Run one (non-macro) command; return the seq it appended."""
    kind = cmd[0]
    if kind == "roll":
        return campaign.roll(ctx, count=cmd[2], purpose="free", secret=cmd[3], client_nonce=None)
    if kind == "begin":
        return campaign.begin_cg_date(ctx, None)
    if kind == "replenish":
        return kgpc.replenish_cpp(campaign, ctx, cmd[2], None)
    if kind == "rg":
        return kgpc.purchase_rg(campaign, ctx, cmd[2], [(cmd[5], cmd[3])], secret=cmd[4])
    if kind == "determine":
        return kgpc.determine_rg(campaign, ctx, cmd[2])
    if kind == "recon":
        return kgpc.purchase_recon(
            campaign, ctx, cmd[2], cmd[3], lax=cmd[5], secret=cmd[4], client_nonce=None
        )
    if kind == "reveal":
        secrets = sorted(int(s) for s in secrets_of(campaign))
        if cmd[2] and secrets:
            return campaign.reveal(ctx, secrets[cmd[3] % len(secrets)])
        return campaign.reveal(ctx, cmd[3] % (campaign.version + 3))
    if kind == "table":
        named = [
            DrmRequest("other", value=2, note="9-2 leader") if d == "other" else DrmRequest(d)
            for d in cmd[4]
        ]
        return campaign.roll_table(
            ctx, cmd[2], drm=named, inputs={}, secret=cmd[3], client_nonce=None
        )
    if kind in ("undo", "approve", "reject", "dispute", "resolve"):
        return run_undo(campaign, ctx, cmd)
    return run_reph(campaign, ctx, cmd)


def run_reph(campaign: Campaign, ctx: Ctx, cmd: Command) -> int:
    kind = cmd[0]
    if kind == "reph":
        return campaign.advance(ctx, cmd[2], cmd[3])
    if kind == "chit":
        return campaign.choose_initiative(ctx, cmd[2], cmd[3])
    if kind == "end":
        return campaign.end_scenario(ctx, {"cvp": dict(zip(SIDES, cmd[2], strict=True))})
    if kind == "shortage":
        body = ShortageCreate(side=cmd[2], client_nonce=None)
        return campaign.perform(ctx, "ammunition-shortage", body)
    raise AssertionError(f"unknown command {kind}")


def run_undo(campaign: Campaign, ctx: Ctx, cmd: Command) -> int:
    kind, pick = cmd[0], cmd[2]
    if kind == "undo":
        if cmd[3] == "to":
            return campaign.request_undo(
                ctx, seqs=None, to_seq=pick % campaign.version, reason="back to there"
            )
        book = campaign.undo_book()
        in_force = sorted(int(s) for s in book if s not in campaign.reverted)
        seqs = [in_force[pick % len(in_force)]] if in_force else [pick % campaign.version + 1]
        if cmd[3] == "suffix" and book.get(str(seqs[0]), {}).get("state"):
            seqs += undobook.later_state(campaign.revertible, campaign.reverted, seqs[0])
        return campaign.request_undo(ctx, seqs=seqs, to_seq=None, reason="mistake")
    if kind in ("approve", "reject"):
        pending = sorted(
            int(r) for r, v in campaign.undo_requests.items() if v["status"] == "pending"
        )
        rid = pending[pick % len(pending)] if pending else pick % campaign.version + 1
        if kind == "approve":
            return campaign.approve_undo(ctx, rid)
        return campaign.reject_undo(ctx, rid, "no")
    if kind == "dispute":
        return campaign.file_dispute(ctx, pick % campaign.version + 1, "that roll was wrong")
    disputes = sorted(int(d) for d in campaign.disputes)
    did = disputes[pick % len(disputes)] if disputes else pick % campaign.version + 1
    return campaign.resolve_dispute(ctx, did, cmd[3], "decided")


def expand(live: Campaign | Callable[[], Campaign], cmd: Command) -> Iterator[Command]:
    """The steps of ``cmd``: itself, or for "advance" the commands it stands
    for, each chosen when the one before it has run (``live``: the campaign,
    or how to load it as it is now). For each pair of chits: the date played
    to its end (``finish_date``), then the referee begins the next one."""
    if cmd[0] != "advance":
        yield cmd
        return
    load = live if callable(live) else lambda: live
    for chits in cmd[2]:
        if not load().awaiting_new_date:
            yield from finish_date(load, chits)
        yield ("begin", REFEREE)


def finish_date(load: Callable[[], Campaign], chits: tuple[str, str]) -> Iterator[Command]:
    """Bring the CG Date to where a new one begins (8.6121): each side's 8.616
    CPP Replenishment (not before the Initial Scenario), 8.618's DR (from 20
    AM) and the 8.620 rolls its RGs still need; after the Initial Scenario,
    both sides to 8.623 and their Initiative ``chits`` (the other kind where
    the CG's limit is reached); unless that gave an Idle date, the scenario
    played to its end."""
    initial = load().is_initial_date()
    if not initial:
        for s in SIDES:
            yield ("replenish", REFEREE, s)
    yield ("shortage", "self", "German")  # from 20 AM: before CG II's Initial Scenario too
    for s in SIDES:
        for _ in range(6):  # strength, quality, weapons, leaders ... (8.6201-8.6206)
            version = load().version
            yield ("determine", REFEREE, s)
            if load().version == version:
                break
    if not initial:
        for s in SIDES:
            yield ("reph", REFEREE, s, "8.623")
        for s, picked in zip(SIDES, chits, strict=True):
            yield ("chit", "self", s, picked)
            entry = load().initiatives.get(load().cg_date) or {}
            if s not in entry.get("chosen", {}):
                yield ("chit", "self", s, "idle" if picked == "attack" else "attack")
        if load().awaiting_new_date:
            return  # an Idle date
    for s in SIDES:
        yield ("reph", REFEREE, s, "scenario")
    yield ("end", REFEREE, (1, 0))


# --------------------------------------------------------------------- helpers


def state(campaign: Campaign) -> dict[str, Any]:
    """The aggregate's state, without the library's list of pending events."""
    return {k: v for k, v in vars(campaign).items() if k not in ("_pending_events", "_history")}


def make_ctx(rng: random.Random) -> Callable[[str], Ctx]:
    def ctx(role: str) -> Ctx:
        return Ctx(actor=role, now=NOW, entropy=rng.randbytes, sealer=SEALER)

    return ctx


def records_of(store: CampaignStore, campaign: Campaign) -> list[dict[str, Any]]:
    return [e.record for e in store.events.get(campaign.id)]


def check_invariants(
    campaign: Campaign, records: list[dict[str, Any]], sealer: AesGcmSealer = SEALER
) -> None:
    # The hash chain (domain.chain): seqs 1..n, each linked to the previous.
    assert len(records) == campaign.version
    head = GENESIS
    for n, r in enumerate(records, start=1):
        assert r["seq"] == n
        assert r["prev_hash"] == head
        assert r["hash"] == event_hash(r)
        assert r["secret_digest"] == secret_digest(r["secret"])
        head = r["hash"]
    assert campaign.head == head

    # Commitments: published in contiguous batches, always ahead of the rolls.
    published: list[str] = []
    for r in records:
        if r["type"] == "CommitmentsPublished":
            assert r["payload"]["first_index"] == len(published)
            published += r["payload"]["commitments"]
    assert commitments_of(campaign) == published
    assert campaign.committed - campaign.roll_count >= dice.LOW_WATER

    # Rolls: indices 0, 1, 2, ... in seq order, each under its commitment and
    # recomputable from its (sealed or published) seed: a sealed record's dice
    # (cgledger-dice/2) are the first of its index's stream, whatever they were for.
    rolled = [r for r in records if "roll" in r["payload"]]
    assert rolls_of(campaign) == [r["seq"] for r in rolled]
    assert all(a < b for a, b in zip(rolls_of(campaign), rolls_of(campaign)[1:], strict=False))
    for index, r in enumerate(rolled):
        roll = r["payload"]["roll"]
        assert roll["index"] == index
        assert campaign.roll_seq(index) == r["seq"]
        assert roll["commitment"] == campaign.commitment(index)
        seed = campaign.seed(index, sealer)  # raises if it does not match its commitment
        if sealbook.is_sealed(r):
            secret = r["secret"]
            assert (roll["protocol"], roll["secret"]) == (dice.SEALED, True)
            assert not {"dice", "count", "purpose", "seed", "client_nonce"} & set(roll), roll
            assert all(len(one["dice"]) == one["count"] for one in secret["rolls"])
            drawn = sealbook.dice_of(secret)
            assert drawn == dice.sealed_dice(
                seed,
                campaign=campaign.cid,
                index=index,
                client_nonce=secret["client_nonce"],
                side=roll["side"],
                n=len(drawn),
            )
            continue
        recorded = r["secret"]["dice"] if roll["secret"] else roll["dice"]
        assert len(recorded) == roll["count"]
        assert recorded == dice.roll(
            seed,
            campaign=campaign.cid,
            index=index,
            client_nonce=roll["client_nonce"],
            dice=roll["count"],
            purpose=roll["purpose"],
            side=roll["side"],
        )
        if not roll["secret"]:
            assert roll["seed"] == seed.hex()
            assert r["secret"] is None

    # Secrets and reveals.
    for r in records:
        if r["secret"] is not None:
            info = secrets_of(campaign)[str(r["seq"])]
            assert info["owner"] == r["payload"]["owner"]
        if r["type"] == "SecretRevealed":
            of = r["payload"]["of_seq"]
            assert of < r["seq"]
            assert secrets_of(campaign)[str(of)]["revealed_seq"] == r["seq"]
            shown = r["payload"]
            if shown.get("protocol") == dice.SEALED:
                # A sealed record's reveal publishes its secret part as
                # recorded, and its roll index's seed only if it has one (§2a).
                sealed = records[of - 1]
                assert shown["sealed"] == sealed["secret"]
                has_roll = "roll" in sealed["payload"]
                assert (shown["seed"] is not None) == has_roll, shown
                if has_roll:
                    assert shown["client_nonce"] == sealed["secret"]["client_nonce"]
            if shown.get("seed") is not None:
                index = shown["index"]
                assert bytes.fromhex(shown["seed"]) == campaign.seed(index, sealer)
    assert len(set(secrets_of(campaign))) == sum(r["secret"] is not None for r in records)

    # Undo (DESIGN §5): every reverted event is revertible and points at an
    # UndoApplied after it; the state kept incrementally is exactly the state
    # rebuilt from the state events still in force.
    types = {r["seq"]: sealbook.kind_of(r) for r in records}  # a sealed record's own act
    for seq, undo in campaign.reverted.items():
        assert types[undo] == "UndoApplied"
        assert int(seq) < undo
        # ... and that undo is itself in force: an undone undo puts back (or
        # hands on) everything it had reverted.
        assert str(undo) not in campaign.reverted, (seq, undo)
        assert types[int(seq)] in undobook.REVERTIBLE | campaign.ruleset.rules.state_events
    # (The copy shares the records the campaign remembers: the rebuild reads them.)
    shared = {id(v): v for k, v in vars(campaign).items() if k in ("_history", "_pending_events")}
    rebuilt = copy.deepcopy(campaign, shared)
    rebuilt._rebuild_state()
    for name in GAME_STATE:
        assert getattr(rebuilt, name) == getattr(campaign, name), name

    # CPP: no line below 0, one line per CG Date, the last one is today's.
    for s in SIDES:
        lines = campaign.rules["cpp"][s]
        assert [ln["cg_date"] for ln in lines] == campaign.calendar[: campaign.date_index + 1]
        for ln in lines:
            assert ln["start"] >= 0
            assert cppbook.left(ln) >= 0, ln
            assert cppbook.next_start(ln) >= 0, ln
            assert all(p["cpp"] >= 1 for p in ln["purchases"])
        for prev, nxt in itertools.pairwise(lines):
            assert nxt["start"] == cppbook.next_start(prev)


def check_exports(campaign: Campaign, records: list[dict[str, Any]]) -> None:
    header = {
        "campaign": campaign.cid,
        "ruleset": campaign.ruleset_id,
        "campaign_name": campaign.campaign_name,
        "exported_at": NOW,
    }
    revealed = sum(
        1 for r in records if r["type"] == "SecretRevealed" and r["payload"].get("seed") is not None
    )
    public = sum(
        1 for r in records if "roll" in r["payload"] and not r["payload"]["roll"]["secret"]
    )
    for viewer in ROLES:
        data = export_jsonl(header, records, viewer, campaign.is_revealed)
        report = verify_bytes(data)
        assert report.events == campaign.version
        assert report.head == campaign.head
        assert report.rolls == campaign.roll_count
        assert report.rolls_recomputed == public + revealed
        assert report.rolls_hidden == campaign.roll_count - public - revealed


def new_store(interval: int = 3) -> CampaignStore:
    store = CampaignStore(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    store.snapshotting_intervals = {Campaign: interval}
    return store


def create(ctx: Callable[[str], Ctx], rng: random.Random, cg: str, cpp: dict[str, int]) -> Campaign:
    return Campaign.create(
        ctx("creator"),
        campaign_id=uuid.UUID(int=rng.getrandbits(128)),
        ruleset_id="kgp",
        campaign_name=cg,
        title="replay",
        start_date=None,
        initial_cpp=cpp,
        token_hashes={role: token_hash(f"token-{role}") for role in (*SIDES, REFEREE)},
    )


# --------------------------------------------------------------------- domain only

initial_cpp = st.fixed_dictionaries({s: st.integers(0, 12) for s in SIDES})


def test_random_histories_keep_invariants_and_replay_exactly() -> None:
    reach = Reach()
    random_history_keeps_invariants_and_replays_exactly(reach)
    reach.check()


@hypothesis.settings(
    max_examples=examples(20),  # 200 under the thorough profile
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    cg=st.sampled_from(CGS),
    cpp=initial_cpp,
    commands=histories(min_size=15, max_size=45),
)
def random_history_keeps_invariants_and_replays_exactly(
    reach: Reach, seed: int, cg: str, cpp: dict[str, int], commands: list[Command]
) -> None:
    rng = random.Random(seed)
    ctx = make_ctx(rng)
    store = new_store(interval=3)
    try:
        campaign = create(ctx, rng, cg, cpp)
        store.save(campaign)
        check_invariants(campaign, records_of(store, campaign))
        history = {campaign.version: copy.deepcopy(state(campaign))}
        accepted = refused = furthest = 0
        kinds: set[str] = set()
        for cmd in commands:
            for step in expand(campaign, cmd):
                before = copy.deepcopy(state(campaign))
                version = campaign.version
                try:
                    seq = run(campaign, ctx(role_of(step)), step)
                except DomainError:
                    refused += 1
                    assert campaign.version == version
                    assert state(campaign) == before, step
                    assert campaign.collect_events() == []
                    continue
                accepted += 1
                kinds.add(step[0] if step[0] != "reveal" else f"reveal {campaign.version}")
                assert version < seq <= campaign.version
                store.save(campaign)
                assert campaign.collect_events() == []
                history[campaign.version] = copy.deepcopy(state(campaign))
                check_invariants(campaign, records_of(store, campaign))
                furthest = max(furthest, campaign.date_index)
        reach.record(furthest)

        records = records_of(store, campaign)
        live = state(campaign)

        # Replay without snapshots, from the stored events alone.
        replayed = project_aggregate(None, store.events.get(campaign.id))
        assert isinstance(replayed, Campaign)
        assert state(replayed) == live

        # Replay through the repository, from the latest snapshot.
        assert store.snapshots is not None
        snaps = list(store.snapshots.get(campaign.id))
        assert [s.originator_version for s in snaps] == list(range(3, campaign.version + 1, 3))
        assert state(store.repository.get(campaign.id)) == live

        # Time travel: every version seen, with and without snapshots.
        for version, expected in history.items():
            assert state(store.repository.get(campaign.id, version=version)) == expected
            old = project_aggregate(None, store.events.get(campaign.id, lte=version))
            assert old is not None
            assert state(old) == expected

        check_exports(campaign, records)
        assert accepted + refused >= len(commands)
        for kind in sorted(kinds):
            hypothesis.event(f"accepted: {kind.split()[0]}")
        hypothesis.event(f"accepted commands: {min(accepted // 10 * 10, 40)}+")
        hypothesis.event(f"CG Date reached: {campaign.calendar.index(campaign.cg_date)}")
        if any(r["type"] == "CPPReplenished" and r["payload"]["base"] is None for r in records):
            hypothesis.event("a '-' Base # (no DR)")
    finally:
        store.close()


def test_replay_does_not_depend_on_the_snapshot_interval() -> None:
    """The same history (same entropy) saved under any snapshot interval loads
    to the same state as one saved without snapshots at all."""
    reach = Reach()
    replay_does_not_depend_on_the_snapshot_interval(reach)
    reach.check()


@hypothesis.settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    commands=histories(min_size=5, max_size=30),
    interval=st.integers(1, 7),
)
def replay_does_not_depend_on_the_snapshot_interval(
    reach: Reach, seed: int, commands: list[Command], interval: int
) -> None:
    states = []
    for every in (interval, 10**6):
        rng = random.Random(seed)
        ctx = make_ctx(rng)
        store = new_store(interval=every)
        try:
            campaign = create(ctx, rng, "CG III", {"US": 3, "German": 5})
            furthest = 0
            for cmd in commands:
                for step in expand(campaign, cmd):
                    try:
                        run(campaign, ctx(role_of(step)), step)
                    except DomainError:
                        continue
                    store.save(campaign)
                    furthest = max(furthest, campaign.date_index)
            store.save(campaign)
            if every == interval:
                reach.record(furthest)
            loaded = store.repository.get(campaign.id)
            assert state(loaded) == state(campaign)
            # Timestamps and the sealed blobs differ between runs; the rules' state must not.
            kept = {
                k: v
                for k, v in state(loaded).items()
                if k not in {"_created_on", "_modified_on", "batches"}
            }
            kept["batches"] = [{**b, "blob": None} for b in loaded.batches]
            states.append(kept)
        finally:
            store.close()
    assert states[0] == states[1]


# --------------------------------------------------------------------- through the Ledger


def execute_step(ledger: Ledger, cid: str, step: Command, key: str) -> Done:
    return ledger.execute(
        cid,
        role_of(step),
        lambda c, ctx: run(c, ctx, step),
        operation=step[0],
        body=list(step),
        idempotency_key=key,
    )


def test_ledger_histories_reload_identically(ledger: Ledger, settings: Settings) -> None:
    """Commands through Ledger.execute (some retried with their Idempotency-Key);
    the campaign then loads the same from snapshots, from the events alone, and
    from a fresh Ledger on the same database; and as of every version."""
    reach = Reach()
    ledger_history_reloads_identically(ledger, settings, reach)
    reach.check()


@hypothesis.settings(
    max_examples=examples(8),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    commands=histories(min_size=6, max_size=14).flatmap(
        lambda cmds: st.tuples(*(st.tuples(st.just(c), st.booleans()) for c in cmds))
    ),
    cg=st.sampled_from(CGS),
)
def ledger_history_reloads_identically(
    ledger: Ledger,
    settings: Settings,
    reach: Reach,
    commands: tuple[tuple[Command, bool], ...],
    cg: str,
) -> None:
    ledger.store.snapshotting_intervals = {Campaign: 3}
    created = ledger.create_campaign(
        ruleset="kgp",
        campaign=cg,
        title="replay",
        start_date=None,
        initial_cpp={"German": 2},
        idempotency_key=None,
        request_fingerprint="replay",
    )
    cid = created.campaign.cid
    key_prefix = uuid.uuid4().hex
    n = furthest = 0
    for cmd, retry in commands:
        for step in expand(lambda: ledger.load(cid), cmd):
            n += 1
            key = f"{key_prefix}-{n}"
            before = ledger.load(cid).version
            try:
                done = execute_step(ledger, cid, step, key)
            except DomainError:
                assert ledger.load(cid).version == before
                continue
            assert not done.replayed
            assert before < done.seq <= done.campaign.version
            reloaded = ledger.load(cid)
            assert reloaded.version == done.campaign.version
            assert state(reloaded) == state(done.campaign)
            furthest = max(furthest, reloaded.date_index)
            if retry:
                again = execute_step(ledger, cid, step, key)
                assert again.replayed
                assert again.seq == done.seq
                assert ledger.load(cid).version == done.campaign.version

    reach.record(furthest)
    live = ledger.load(cid)
    records = ledger.records(live)
    check_invariants(live, records, ledger.sealer)
    expected = state(live)

    rebuilt = project_aggregate(None, ledger.store.events.get(live.id))
    assert isinstance(rebuilt, Campaign)
    assert state(rebuilt) == expected

    fresh = Ledger(settings)
    try:
        assert state(fresh.load(cid)) == expected
        for version in range(1, live.version + 1):
            from_snapshot = fresh.load(cid, version=version)
            from_events = project_aggregate(None, fresh.store.events.get(live.id, lte=version))
            assert from_events is not None
            assert state(from_snapshot) == state(from_events)
            assert from_snapshot.version == version
    finally:
        fresh.close()
    check_exports(live, records)
