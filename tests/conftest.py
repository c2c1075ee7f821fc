"""Shared fixtures, and the layers of the suite (docs/testing.md).

Backends. A test that takes ``settings``, ``ledger`` or ``client`` runs on
SQLite; marked ``@pytest.mark.store`` (a test, a class, or a module's
``pytestmark``) it runs once on SQLite and once on PostgreSQL, because its
outcome depends on the store: storage, concurrency, idempotency, snapshots,
upgrades, backups, what the HTTP audit, visibility and export paths read back.
``pytest --all-backends`` runs every such test on both, marked or not.

PostgreSQL: the server at ``CGLEDGER_TEST_POSTGRES_URL`` (default
``postgresql://postgres@127.0.0.1:5432/postgres``). Each pytest process (each
xdist worker) creates its own throw-away database and drops it at the end. Where the server is not
reachable the PostgreSQL tests skip and say why; under ``CI=true`` they fail
instead, because CI must run them (as does every other skip, see
``pytest_runtest_makereport``).

One app per module. A module marked ``@pytest.mark.shared_app`` gets one
``settings`` (one data directory and database), one app and one ``client`` for
all its tests on a backend, instead of one per test: for modules whose tests
each make their own campaigns and read nothing global. On PostgreSQL every
test has always shared one database.

Hypothesis: the profile ``dev`` by default, ``ci`` under ``CI=true``, or the
one named by ``CGLEDGER_HYPOTHESIS_PROFILE`` (``thorough`` for a long run).
"""

from __future__ import annotations

import gc
import os
import re
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import hypothesis
import psycopg
import pytest
from fastapi.testclient import TestClient

from cgledger.api.app import create_app
from cgledger.domain.rulesets import REGISTRY
from cgledger.service import Ledger
from cgledger.settings import Settings

PG_URL = os.environ.get(
    "CGLEDGER_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
CI = bool(os.environ.get("CI"))

# ---------------------------------------------------------------- Hypothesis

#: The profiles (``hypothesis.settings``): ``dev`` by default; ``ci`` under
#: ``CI=true`` (the same budget, derandomized, so that a CI run is repeatable
#: and keeps no example database); ``thorough`` ten times the budget, for a
#: long run (``CGLEDGER_HYPOTHESIS_PROFILE=thorough``). No deadline anywhere:
#: the machine is shared and an example's time says nothing about its truth.
HYPOTHESIS_BUDGET = 100
hypothesis.settings.register_profile(
    "dev",
    max_examples=HYPOTHESIS_BUDGET,
    deadline=None,
    suppress_health_check=[hypothesis.HealthCheck.too_slow],
    print_blob=True,
)
hypothesis.settings.register_profile(
    "ci", hypothesis.settings.get_profile("dev"), derandomize=True, database=None
)
hypothesis.settings.register_profile(
    "thorough", hypothesis.settings.get_profile("dev"), max_examples=10 * HYPOTHESIS_BUDGET
)
hypothesis.settings.load_profile(
    os.environ.get("CGLEDGER_HYPOTHESIS_PROFILE") or ("ci" if CI else "dev")
)


def examples(per_budget: int) -> int:
    """``max_examples`` for a property whose examples cost more (or less) than
    the usual: ``per_budget`` examples for every ``HYPOTHESIS_BUDGET`` of the
    loaded profile (at least one), so that a profile scales every property."""
    scaled = per_budget * hypothesis.settings.default.max_examples // HYPOTHESIS_BUDGET
    return max(1, scaled)


# ---------------------------------------------------------------- options, markers, skips


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--all-backends",
        action="store_true",
        help="run every test that takes settings, ledger or client on SQLite and on "
        "PostgreSQL, not only those marked store",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``backend``: SQLite, and PostgreSQL too for a test marked ``store``."""
    if "backend" not in metafunc.fixturenames:
        return
    both = metafunc.definition.get_closest_marker("store") is not None
    both = both or bool(metafunc.config.getoption("all_backends"))
    params: list[Any] = ["sqlite"]
    if both:
        params.append(pytest.param("postgres", marks=pytest.mark.postgres))
    metafunc.parametrize("backend", params, indirect=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test has a node id of its own. Under pytest 9, schemathesis 4
    gives every operation of ``schema.parametrize()`` the test function's id
    (pytest builds an item's id from its original name and its callspec, which
    schemathesis does not set), and pytest-xdist, which hands tests to its
    workers by node id, ran one operation of 57. Such an item gets the id
    pytest 8 gave it, from its name, which names the operation. Two tests
    left with one id stop the run instead of being run as one."""
    counts = Counter(item.nodeid for item in items)
    for item in items:
        if counts[item.nodeid] > 1 and item.parent is not None:
            item._id = item.parent.id.child(item.name)
    shared = sorted(n for n, c in Counter(item.nodeid for item in items).items() if c > 1)
    if shared:
        raise pytest.UsageError(f"tests share a node id: {shared[:5]}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Under ``CI=true`` a skip is a failure: CI runs every test or says why not."""
    report = yield
    if CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"CI=true: a test may not skip ({reason})"
    return report


# ---------------------------------------------------------------- the store


def _with_db(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@pytest.fixture(scope="module", autouse=True)
def _settled_heap() -> None:
    """Each module starts with what the modules before it left alive out of
    the cycle collector's sight (``gc.freeze``), after one collection of what
    they left to collect. A worker's heap grows with the suite (module apps,
    Hypothesis, imports); every full collection scanned all of it, so a
    module that allocates much (a property, a benchmark's quick run) ran up
    to six times slower late in a worker than alone."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    try:
        admin = psycopg.connect(PG_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        reason = f"PostgreSQL is not reachable at {PG_URL} ({str(exc).strip()})"
        if CI:
            pytest.fail(f"CI must run the PostgreSQL tests: {reason}")
        pytest.skip(f"{reason}; set CGLEDGER_TEST_POSTGRES_URL to run these tests")
    name = f"cgledger_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield _with_db(PG_URL, name)
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pg-data")


#: Tests create many campaigns from one address; the limit has its own tests.
UNLIMITED: dict[str, Any] = {"create_per_minute": 1_000_000}


@pytest.fixture(scope="module")
def backend(request: pytest.FixtureRequest) -> str:
    """``sqlite`` or ``postgres``: parametrized by ``pytest_generate_tests``."""
    name: str = request.param
    return name


def backend_settings(request: pytest.FixtureRequest, backend: str, data_dir: Path) -> Settings:
    """Settings on ``backend``: SQLite in ``data_dir``, or the session's
    PostgreSQL database with its one key set (DESIGN §11: every server on one
    database uses the same keys), whose key files live in one data dir."""
    if backend == "sqlite":
        return Settings(data_dir=data_dir, database_url=None, **UNLIMITED)
    url = request.getfixturevalue("pg_database")
    keys = request.getfixturevalue("pg_data_dir")
    return Settings(data_dir=keys, database_url=url, **UNLIMITED)


def _shared(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("shared_app") is not None


@pytest.fixture(scope="module")
def module_settings(
    request: pytest.FixtureRequest, backend: str, tmp_path_factory: pytest.TempPathFactory
) -> Settings:
    """One ``settings`` for a whole module (per backend)."""
    return backend_settings(request, backend, tmp_path_factory.mktemp("module") / "data")


@pytest.fixture(scope="module")
def module_client(module_settings: Settings) -> Iterator[TestClient]:
    """One app and client for a whole module (per backend), on ``module_settings``."""
    with TestClient(create_app(module_settings)) as c:
        yield c


@pytest.fixture
def settings(request: pytest.FixtureRequest, backend: str) -> Settings:
    """A fresh data directory (SQLite) per test, or the module's (``shared_app``)."""
    if _shared(request):
        shared: Settings = request.getfixturevalue("module_settings")
        return shared
    tmp_path: Path = request.getfixturevalue("tmp_path")
    return backend_settings(request, backend, tmp_path / "data")


@pytest.fixture
def ledger(settings: Settings) -> Iterator[Ledger]:
    led = Ledger(settings)
    try:
        yield led
    finally:
        led.close()


@pytest.fixture
def client(request: pytest.FixtureRequest, settings: Settings) -> Iterator[TestClient]:
    """The app on ``settings``: its own per test, or the module's (``shared_app``)."""
    if _shared(request):
        yield request.getfixturevalue("module_client")
        return
    with TestClient(create_app(settings)) as c:
        yield c


PROBLEM = "application/problem+json"


def assert_problem(r: Any, status: int) -> dict[str, Any]:
    """DESIGN §3: errors are application/problem+json with type, title, status, detail."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"].split(";")[0].strip() == PROBLEM, r.headers
    body: dict[str, Any] = r.json()
    for key in ("type", "title", "status", "detail"):
        assert key in body, body
    assert body["status"] == status
    for key in ("type", "title", "detail"):
        assert isinstance(body[key], str)
        assert body[key], key
    return body


def created(r: Any) -> dict[str, Any]:
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def ok(r: Any) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


#: The U.S. takes every German Strategic Location of the sample's map group
#: Sx (C1, and C3 on every level): the German Setup Areas there become the U.S.'s.
US_TAKES_SX = {
    "map_group": "Sx",
    "locations": [{"hex": "C1", "side": "US"}, {"hex": "C3", "side": "US"},
                  {"hex": "C3", "level": 1, "side": "US"},
                  {"hex": "C3", "level": 2, "side": "US"}],
}  # fmt: skip


class Game:
    """A campaign created over REST, with a header set per role."""

    def __init__(self, client: TestClient, body: dict[str, Any]) -> None:
        r = client.post("/v1/campaigns", json=body)
        assert r.status_code == 201, r.text
        self.client = client
        self.created = r.json()
        self.id: str = self.created["id"]
        self.tokens: dict[str, str] = self.created["tokens"]
        self.url = f"/v1/campaigns/{self.id}"

    def h(self, role: str, **extra: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[role]}", **extra}

    def version(self) -> int:
        r = self.client.get(self.url, headers=self.h("referee"))
        assert r.status_code == 200, r.text
        return int(r.json()["version"])

    def post(self, role: str, path: str, body: Any = None, **headers: str) -> Any:
        return self.client.post(self.url + path, json=body, headers=self.h(role, **headers))

    def get(self, role: str, path: str = "") -> Any:
        return self.client.get(self.url + path, headers=self.h(role))

    def cg_date(self) -> str:
        date: str = self.get("referee").json()["cg_date"]
        return date

    def replenish(self) -> None:
        """Every side's CPP Replenishment (8.616, 9.616) of the current CG Date,
        where its ruleset has one, unless made already or NA (Initial Scenario)."""
        ruleset = REGISTRY[self.created["ruleset"]]
        if "cpp-replenishments" not in ruleset.rules.actions:
            return
        for side in ruleset.sides:
            r = self.post(side, "/cpp-replenishments", {})
            fine = r.status_code == 201 or "already replenished" in r.text or "NA prior" in r.text
            assert fine, r.text

    def advance(self, side: str, to: str) -> None:
        """``side`` completes its RePh steps up to ``to`` (DESIGN §8), making on
        the way each action or roll a step requires (the 409 names its path);
        an Initiative step that waits for chits gets an Idle chit from each side
        (an Attack chit where Idle ones ran out)."""
        for _ in range(60):
            r = self.post(side, "/reph/advance", {"to": to})
            if r.status_code == 201:
                return
            detail = r.json()["detail"]
            assert r.status_code == 409, r.text
            if "a step is not taken again" in detail:
                return  # there already
            needed = re.search(r"\(POST /v1/campaigns/[^/]+/([^)]+)\)", detail)
            if needed is not None and needed.group(1) != "cg-dates":
                created(self.post(side, "/" + needed.group(1), {}))
            elif "Initiative chits" in detail:
                self.choose_chits()
                if ok(self.get("referee", "/reph"))["new_date_due"]:
                    return  # an Idle date: back to New CG Date
            else:
                raise AssertionError(detail)
        raise AssertionError(f"{side} could not reach {to}")

    def choose_chits(self, chit: str = "idle") -> None:
        """Every side that has not chosen one chooses ``chit`` (the other kind
        where its CG definition's limit is reached)."""
        date = self.cg_date().replace(" ", "%20")
        (view,) = ok(self.get("referee", f"/initiative?cg_date={date}"))["items"]
        for side, chosen in view["chosen"].items():
            if chosen:
                continue
            r = self.post(side, "/initiative", {"chit": chit})
            if r.status_code == 409 and "Chit(s) in this CG" in r.text:
                other = "attack" if chit == "idle" else "idle"
                r = self.post(side, "/initiative", {"chit": other})
            created(r)

    def end_scenario(self, cvp: dict[str, int] | None = None, **extra: Any) -> None:
        """Every side completes its steps and the referee calls CG-Scenario End."""
        ruleset = REGISTRY[self.created["ruleset"]]
        for side in ruleset.sides:
            self.advance(side, "scenario")
        body: dict[str, Any] = {"cvp": cvp or dict.fromkeys(ruleset.sides, 0), **extra}
        if "vp" in ruleset.rules.scenario_end_fields and "vp" not in body:
            body.update(vp={"American": 0}, vp_required=0)
        created(self.post("referee", "/scenario-end", body))

    def end_scenario_agreed(self, control: list[dict[str, Any]]) -> None:
        """Every side completes its steps; then each sends the same CG-Scenario
        End with ``control`` as its last Control changes (DESIGN §8, §13)."""
        ruleset = REGISTRY[self.created["ruleset"]]
        for side in ruleset.sides:
            self.advance(side, "scenario")
        body = {"cvp": dict.fromkeys(ruleset.sides, 0), "control": control}
        for side in ruleset.sides:
            created(self.post(side, "/scenario-end", body))

    def finish_date(self, *, play: bool = False) -> None:
        """Bring the CG Date to where a new one begins (8.6121): an Idle date
        (both sides' Idle chits), or with ``play`` (and on the Initial
        Scenario's date) a CG scenario played to its end."""
        ruleset = REGISTRY[self.created["ruleset"]]
        reph = ok(self.get("referee", "/reph"))
        if reph["new_date_due"]:
            return
        ini = ruleset.initiative
        if not reph["initial"] and ini is not None and ini.step is not None:
            if reph["scenario"] is None:
                for side in ruleset.sides:
                    self.advance(side, ini.step)
                self.choose_chits("attack" if play else "idle")
            if ok(self.get("referee", "/reph"))["new_date_due"]:
                return
        self.end_scenario()

    def next_date(self, *, replenish: bool = True, play: bool = False) -> dict[str, Any]:
        """The referee begins the next CG Date, the sides replenishing first and
        the current date finished (``finish_date``)."""
        if replenish:
            self.replenish()
        self.finish_date(play=play)
        return created(self.post("referee", "/cg-dates", {}))

    def to_date(
        self, target: str, *, replenish: bool = True, on_it: bool = False, play: bool = False
    ) -> None:
        """Begin CG Dates until ``target``; with ``on_it``, replenish on it too."""
        while self.cg_date() != target:
            self.next_date(replenish=replenish, play=play)
        if on_it:
            self.replenish()


def opponent(game: Game, side: str) -> str:
    """The other side of ``game``'s ruleset."""
    (other,) = (s for s in REGISTRY[game.created["ruleset"]].sides if s != side)
    return other


def agree_control(game: Game, role: str, body: dict[str, Any]) -> dict[str, Any]:
    """Control that takes effect (DESIGN §13): the referee's at once, a side's
    proposed (``pending``, nothing changed) and approved by its opponent. The
    ``POST /control`` answer, with ``seq`` the event that recorded the Control
    and ``proposal`` the seq of the proposal (``None``: the referee's)."""
    out = created(game.post(role, "/control", body))
    if role == "referee":
        assert out["status"] == "applied", out
        return {**out, "proposal": None}
    assert out["status"] == "pending", out
    approved = ok(game.post(opponent(game, role), f"/proposals/{out['seq']}/approve"))
    assert (approved["status"], approved["kind"]) == ("applied", "control"), approved
    return {**out, "seq": approved["answer"]["seq"], "proposal": out["seq"]}


@pytest.fixture
def kgp_reph(kgp: Game) -> Game:
    """The ``kgp`` campaign after its Initial Scenario (19 AM) ended: both sides
    are at 8.601, so the tables of 8.601-8.611 (8.606 Escape, 8.610, 8.611)
    may be rolled; those of 8.612 on wait for the next CG Date (``next_date``)."""
    kgp.end_scenario()
    return kgp


def kgp_game(client: TestClient) -> Game:
    """A KGP CG I campaign whose German holds 2 CPP from the Initial Scenario."""
    return Game(
        client,
        {"ruleset": "kgp", "campaign": "CG I", "title": "test", "initial_cpp": {"German": 2}},
    )


@pytest.fixture
def kgp(client: TestClient) -> Game:
    """A KGP CG I campaign whose German holds 2 CPP from the Initial Scenario."""
    return kgp_game(client)


def rolls_of(campaign: Any) -> list[int]:
    """The seq of every roll, by index (the aggregate keeps only their count)."""
    return [campaign.roll_seq(i) for i in range(campaign.roll_count)]


def secrets_of(campaign: Any) -> dict[str, dict[str, Any]]:
    """Every event with a secret part: its owner and the seq that revealed it."""
    out = {}
    for seq in range(1, campaign.version + 1):
        record = campaign.record(seq)
        if record["secret"] is not None:
            out[str(seq)] = {
                "owner": record["payload"]["owner"],
                "revealed_seq": campaign.revealed_by(seq),
            }
    return out


def commitments_of(campaign: Any) -> list[str]:
    return [campaign.commitment(i) for i in range(campaign.committed)]


def etag_version(r: Any) -> int:
    """The campaign version an ETag names (``"<version>-<view>"``, DESIGN §11)."""
    tag: str = r.headers["ETag"]
    version, dash, view = tag.strip('"').partition("-")
    assert tag == f'"{version}{dash}{view}"', tag
    assert view, f"{tag} names no view"
    return int(version)
