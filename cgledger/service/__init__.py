"""The application (DESIGN §6): load a campaign, run one command, save it;
keys, queues and idempotency; the bootstrap that registers the rulesets.

- ``ledger``: ``Ledger``, the load/run/save loop (``execute``, ``create_campaign``);
- ``store``, ``keys``, ``queues``: the event store and keyed entries, the
  server's keys and Idempotency-Keys, the per-campaign queues and retries;
- ``bootstrap``: the rulesets and the Ledger a server starts with;
- ``session``: the authenticated caller and how a command was asked;
- one module per resource of the API (``campaigns``, ``dice``, ``events``,
  ``reph``, ``undo``, ``disputes``, ``definitions``, ``territory``,
  ``readmodels``, ``rulesets``, ``actions``): the one function each route calls.
"""

from __future__ import annotations

from cgledger.service.keys import KeyMismatch, fingerprint
from cgledger.service.ledger import Created, Done, Ledger
from cgledger.service.store import CampaignStore, StoreHistory

__all__ = [
    "CampaignStore",
    "Created",
    "Done",
    "KeyMismatch",
    "Ledger",
    "StoreHistory",
    "fingerprint",
]
