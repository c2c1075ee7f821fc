"""Build ``tests/data/legacy-kgp/``: a KGP campaign written by the code as it
was before rulesets became packages and the aggregate stopped keeping what
grows with the history (commit af8a77e). ``tests/test_upgrade_engine.py``
opens it with today's code.

Run it with the old code first on the import path:

    git worktree add /tmp/oldcg af8a77e
    .venv/bin/python tests/data/make_legacy_db.py /tmp/oldcg tests/data/legacy-kgp

It plays through the old REST API: public and Secret rolls of both sides
(three batches of dice commitments), reveals of some early Secret rolls and
not of others, a table roll, the 8.6121 New CG Date handshake, 8.616 CPP
Replenishment, a secret 8.619 purchase undone at once, a second purchase,
8.622 Recon, a roll sent with an Idempotency-Key, and a dispute. It records
in ``legacy.json`` what the old code answered, for the new code to match.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

OLD, OUT = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
sys.path.insert(0, str(OLD))

from fastapi.testclient import TestClient  # noqa: E402

from api.app import create_app  # noqa: E402
from cgledger.settings import Settings  # noqa: E402

assert Path(sys.modules["api.app"].__file__ or "").is_relative_to(OLD), "not the old code"


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    data = OUT / "data"
    settings = Settings(data_dir=data, database_url=None, snapshot_interval=40)
    with TestClient(create_app(settings)) as client:

        def call(method: str, path: str, role: str, body: Any = None, **headers: str) -> Any:
            h = {"Authorization": f"Bearer {tokens[role]}", **headers}
            r = client.request(method, f"/v1/campaigns/{cid}{path}", json=body, headers=h)
            assert r.status_code in (200, 201), (path, r.status_code, r.text)
            return r.json()

        created = client.post(
            "/v1/campaigns",
            json={
                "ruleset": "kgp",
                "campaign": "CG I",
                "title": "legacy",
                "initial_cpp": {"German": 2},
            },
        ).json()
        cid, tokens = created["id"], created["tokens"]
        secret_rolls: list[int] = []
        for n in range(150):
            side = "US" if n % 2 else "German"
            roll = call(
                "POST", "/rolls", side, {"dice": 2, "purpose": f"r{n}", "secret": n % 3 == 0}
            )
            if roll["secret"]:
                secret_rolls.append(roll["index"])
        revealed = secret_rolls[0]
        unrevealed = secret_rolls[1]  # an early Secret roll, in the first batch
        call("POST", f"/rolls/{revealed}/reveal", "German" if revealed % 2 == 0 else "US")
        call("POST", "/tables/kgp:8.606-infantry/rolls", "US", {"drm": [{"id": "isolated"}]})
        call("POST", "/cg-dates", "US", {})
        call("POST", "/cg-dates", "German", {})
        call("POST", "/cpp-replenishments", "US", {})
        call("POST", "/cpp-replenishments", "German", {})
        bought = call("POST", "/rg-purchases", "German", {"rg": "HW1", "cpp": 3})
        call("POST", "/undo-requests", "German", {"seqs": [bought["seq"]], "reason": "wrong RG"})
        call("POST", "/rg-purchases", "German", {"rg": "I1", "cpp": 4})
        call("POST", "/recon", "German", {"cpp": 1})
        idem_body = {"dice": 1, "purpose": "with a key", "secret": False}
        idem_first = call("POST", "/rolls", "US", idem_body, **{"Idempotency-Key": "legacy-key-1"})
        call("POST", "/disputes", "German", {"seq": idem_first["seq"], "claim": "cocked die"})
        final = call("GET", "", "US")
        answers: dict[str, Any] = {
            "campaign": cid,
            "tokens": tokens,
            "version": final["version"],
            "campaign_view": final,
            "rosters": {
                viewer: call("GET", "/roster?side=German", viewer) for viewer in ("US", "German")
            },
            "rolls": {
                str(i): {viewer: call("GET", f"/rolls/{i}", viewer) for viewer in ("US", "German")}
                for i in (2, revealed, unrevealed, 140)
            },
            "unrevealed": unrevealed,
            "unrevealed_owner": "German" if unrevealed % 2 == 0 else "US",
            "idempotent": {"key": "legacy-key-1", "body": idem_body, "first": idem_first},
            "export_lines": len(
                client.get(
                    f"/v1/campaigns/{cid}/export",
                    headers={"Authorization": f"Bearer {tokens['referee']}"},
                ).content.splitlines()
            ),
        }
    (OUT / "legacy.json").write_text(json.dumps(answers, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: campaign {cid}, {final['version']} events")


if __name__ == "__main__":
    main()
