"""The CG Roster's CPP columns and the RG Purchase Record of a CPP roster, as
one viewer may see them (8.6162, 8.619, 8.622; 8.6198, 8.621, 8.6242)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cgledger.domain import purchases as purchasebook
from cgledger.domain.rulesets.base import IDLE, Engine
from cgledger.domain.rulesets.cpp import roster as cppbook
from cgledger.domain.rulesets.cpp.record_view import record_view
from cgledger.domain.rulesets.cpp.roster import lines_of

if TYPE_CHECKING:
    from cgledger.domain.rulesets.cpp.rules import CppScheme


class RosterView:
    """The read side of ``CppRules``: its roster and its RG Purchase Record."""

    scheme: CppScheme
    purchases: purchasebook.PurchaseRules
    columns: tuple[str, ...]
    #: The Left column of a line (``CppRules.left``) and the side's RG chart
    #: (``Purchasing.chart``).
    left: Callable[[cppbook.Line], int]
    chart: Callable[[Engine, str], list[Mapping[str, Any]]]

    def roster(
        self, engine: Engine, side: str, visible: Callable[[int | None], bool]
    ) -> dict[str, Any]:
        """The CG Roster's CPP columns (8.6162, 8.619, 8.622) as one viewer may see it.

        8.619 lets a side keep its CPP expended, CPP remaining and RG purchased
        secret, and 8.616 keeps the final replenishment secret. So every number
        on a line is shown only if every event it is computed from is visible to
        the viewer: an opponent sees a ``null`` and the field's name in
        ``hidden`` until the owner reveals those events. A ``null`` that is not
        in ``hidden`` means "not yet".
        """
        if side not in engine.rules.get("cpp", {}):
            # Created before its ruleset kept a roster (see ``lines_of``): no CPP lines.
            return {
                "columns": ["cg_date", *self.columns],
                "lines": [],
                "note": "this campaign was created before this ledger kept its CG Roster",
            }
        lines = []
        start_known = True  # the Initial Scenario's CPP are public
        last = lines_of(engine, side)[-1]
        scenarios = {d.cg_date: d.scenario for d in engine.facts(side).dates}
        carried: tuple[bool, int] | None = None  # Recon carried over Idle dates (8.622)
        for line in lines_of(engine, side):
            repl_known = visible(line["repl_seq"])
            spent_known = all(visible(seq) for seq in line["purchase_seqs"])
            recon_known = visible(line["recon_seq"])
            total_known = start_known and repl_known
            # Each column, with whether every event it is computed from is visible.
            every: dict[str, tuple[bool, Any]] = {
                "start": (start_known, line["start"]),
                "repl": (repl_known, line["repl"]),
                "total": (total_known, cppbook.total(line)),
                "rg_purchased": (spent_known, None),  # filled per purchase below
                "spent": (spent_known, cppbook.spent(line)),
                "left": (total_known and spent_known, self.left(line)),
                "recon": (recon_known, line["recon"]),
                "recon_cpp": (recon_known, line["recon_cpp"]),
            }
            columns = {name: every[name] for name in self.columns}
            out: dict[str, Any] = {
                "cg_date": line["cg_date"],
                "initial": line["initial"],
                "cpp_base": line["base"],
            }
            if self.scheme.extras is not None:
                out.update(self.scheme.extras(line["cg_date"], engine.readings()))
            for name, (known, value) in columns.items():
                out[name] = value if known else None
            # Each RG is shown once its own event is visible, even if others are not.
            out["rg_purchased"] = [
                {"rg": p["rg"], "cpp": p["cpp"], "seq": p["seq"]}
                for p in line["purchases"]
                if visible(p["seq"])
            ]
            hidden = [name for name, (known, _) in columns.items() if not known]
            if self.scheme.recon is not None:
                carried = self._recon_available(line, recon_known, carried, out, hidden)
                if scenarios.get(line["cg_date"]) != IDLE:
                    carried = None  # "but not beyond the next CG scenario"
            out.update(self._fpp_columns(engine, side, line, visible, hidden, line is last))
            out["hidden"] = hidden
            lines.append(out)
            start_known = total_known and spent_known and recon_known
        return {"columns": ["cg_date", *self.columns], "lines": lines}

    @staticmethod
    def _recon_available(
        line: cppbook.Line,
        known: bool,
        carried: tuple[bool, int] | None,
        out: dict[str, Any],
        hidden: list[str],
    ) -> tuple[bool, int]:
        """8.622: "The number recorded for each Idle CG Date is cumulative with
        the number recorded for each succeeding CG Date, but not beyond the
        next CG scenario": ``recon_available``, the Locations that may be
        reconnoitered for this line's scenario (``null`` before the Initial
        Scenario, where Recon is NA)."""
        before_known, before = carried if carried is not None else (True, 0)
        total = before + (line["recon"] or 0)
        both = known and before_known
        out["recon_available"] = None if line["initial"] or not both else total
        if not both and not line["initial"]:
            hidden.append("recon_available")
        return both, total

    def _fpp_columns(
        self,
        engine: Engine,
        side: str,
        line: cppbook.Line,
        visible: Callable[[int | None], bool],
        hidden: list[str],
        current: bool,
    ) -> dict[str, Any]:
        """The line's FPP (8.619, 8.621): ``fpp`` granted by the RG bought,
        ``fpp_spent`` on Fortifications, the ``fortifications`` bought
        (``{type: count}``), and ``fpp_forfeit``, the FPP unspent once the
        Fortification step is completed ("All FPP unspent upon the completion
        of this step are forfeit"; ``null`` before)."""
        raw: dict[str, Any] = dict(line)
        granted, spent = raw.get("fpp_halves", 0), raw.get("fort_halves", 0)
        granted_known = all(visible(seq) for seq in line["purchase_seqs"])
        spent_known = all(visible(seq) for seq in raw.get("fort_seqs", []))
        step = self.purchases.fortify
        done = not current or (step is not None and engine.step_passed(side, step))
        out: dict[str, Any] = {
            "fpp": purchasebook.fpp(granted) if granted_known else None,
            "fpp_spent": purchasebook.fpp(spent) if spent_known else None,
            "fortifications": dict(raw.get("forts", {})) if spent_known else None,
            "fpp_forfeit": (
                purchasebook.fpp(granted - spent)
                if granted_known and spent_known and done
                else None
            ),
        }
        if not granted_known:
            hidden.append("fpp")
        if not spent_known:
            hidden += ["fpp_spent", "fortifications"]
        if done and not (granted_known and spent_known):
            hidden.append("fpp_forfeit")
        return out

    def rg_record(
        self, engine: Engine, side: str, visible: Callable[[int | None], bool]
    ) -> dict[str, Any]:
        """The RG Purchase Record (8.6198, 9.6178) and the Fortifications
        bought and set up (8.621, 8.6242), as one viewer may see them."""
        buy = self.purchases
        chart = self.chart(engine, side)
        record = record_view(buy, side, engine.rules, chart, visible, engine.readings)
        placed = []
        for entry in engine.rules.get("placed", {}).get(side, []):
            if visible(entry["seq"]):
                placed.append({k: entry[k] for k in ("seq", "cg_date", "map_group", "items")})
            elif not placed or placed[-1]["seq"] != entry["seq"]:
                # One row per record, however many map groups it sets up in.
                placed.append({"seq": entry["seq"], "cg_date": entry["cg_date"], "redacted": True})
        # What 8.6073 placed on-map is public (a minefield without its strength).
        shown = list(engine.rules.get("forts_shown", {}).get(side, []))
        return {
            "rule": buy.record,
            "rows": record,
            "fortifications": {"rule": buy.fortify, "placed": placed, "placed_on_map": shown},
        }
