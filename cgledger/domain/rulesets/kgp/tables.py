"""Every KGP die table, as data: 8.604-8.615 (escape, post-scenario,
equipment) in ``_kgp_a`` and 8.616-8.625 plus the CG and KGP SSR in
``_kgp_b``. Each module's docstring lists the readings of garbled OCR it made."""

from __future__ import annotations

from cgledger.domain.rulesets.kgp import tables_a as _kgp_a
from cgledger.domain.rulesets.kgp import tables_b as _kgp_b
from cgledger.domain.tables import registry

TABLES = registry(*_kgp_a.TABLES.values(), *_kgp_b.TABLES.values())
