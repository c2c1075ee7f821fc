"""KGP's own commands and roster: 8.616 CPP Replenishment, 8.619 Purchasing
Reinforcement Groups, 8.622 Purchasing Reconnaissance, and the CG Roster's CPP
columns (8.6162, 8.619, 8.622). The engine calls them through
``cgledger.domain.rulesets.base.Rules``; nothing here is known to it by name.

The ruleset's state is ``{"cpp": {side: [line, ...]}}``: one CPP line per side
per CG Date (``cgledger.domain.rulesets.kgp.cpp``).

``CppRules`` keeps such a roster for any HASL ruleset whose RePh works the same
way; a :class:`CppScheme` names its rule numbers and its differences (ABtF
9.616-9.617 imports it: a Secret DR added to the Base #, unspent CPP halved).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pydantic import Field, StrictInt

from cgledger.domain import purchases as purchasebook
from cgledger.domain import tables as tablebook
from cgledger.domain.context import Ctx
from cgledger.domain.errors import (
    Forbidden,
    InvalidInput,
    NotImplementedForRuleset,
    RuleViolation,
)
from cgledger.domain.purchases import PurchaseRules
from cgledger.domain.requests import Body, Nonce
from cgledger.domain.rulesets.base import IDLE, Action, Engine, Rules
from cgledger.domain.rulesets.kgp import cpp as cppbook
from cgledger.domain.rulesets.kgp.buying import (
    DeterminationCreate,
    FortificationPurchaseCreate,
    FortificationSetupCreate,
    HiddenFortificationCreate,
    Purchasing,
    RGItem,
    RGPurchaseCreate,
    record_view,
)
from cgledger.domain.rulesets.kgp.purchasing import RULES as KGP_PURCHASES
from cgledger.domain.rulesets.kgp.record import HISTORICAL_WEATHER, RANDOM_WEATHER
from cgledger.domain.rulesets.kgp.setup_areas import setup_areas as kgp_setup_areas
from cgledger.domain.territory import ControlState, MapGroupData
from cgledger.domain.visibility import REFEREE

#: The request bodies of the purchase commands live in ``buying``; named here too.
__all__ = ["CppRules", "CppScheme", "KgpRules", "RGItem", "RGPurchaseCreate"]

REPLENISH = "8.616"
PURCHASE = "8.619"
RECON = "8.622"
#: 8.6131 VACATED SETUP AREA (its EXC: all U.S. units gone from a Map Group).
VACATED = "8.6131"
US = "US"
GERMAN = "German"
#: 8.622's drm ids on its table: "+5 Spent 2 CPP", "-1 ... Majority Squad Type ... is Lax".
RECON_2_CPP = "spent-2-cpp"
RECON_LAX = "lax"

Base = Callable[[str, str, str], "int | None"]


@dataclass(frozen=True)
class CppScheme:
    """The rule numbers of a CPP roster, and how its rules differ from KGP's.

    ``replenish``: the CPP Replenishment step (8.616, 9.616), read off the
    ``replenish_table``; ``initial_na``: the rule that makes it NA before the
    Initial Scenario (8.6162; ABtF lists 9.616 without '†'); ``purchase``: the
    RG purchase step (8.619, 9.617); ``recon``: the Recon step, if the
    ruleset has one (8.622). ``halve_left``: unspent CPP
    are divided by two, FRU, into Left (9.617). ``extras``: public fields of
    a roster line for a CG Date (e.g. ABtF's Campaign Exhaustion DRM).
    """

    replenish: str
    replenish_table: str
    replenish_summary: str
    initial_na: str
    purchase: str
    recon: str | None = None
    halve_left: bool = False
    extras: Callable[[str], dict[str, Any]] | None = None
    purchases: PurchaseRules = KGP_PURCHASES


KGP_SCHEME = CppScheme(
    replenish=REPLENISH,
    replenish_table=REPLENISH,
    replenish_summary="8.616: the CPP Base # (8.6161) minus a Secret DR of the side.",
    initial_na="8.6162",
    purchase=PURCHASE,
    recon=RECON,
)


# ---------------------------------------------------------------- request bodies


class ReplenishmentCreate(Body):
    side: str | None = Field(
        default=None, max_length=40, description="Defaults to the caller's side."
    )
    client_nonce: str | None = Nonce


class ShortageCreate(Body):
    side: str | None = Field(
        default=None, max_length=40, description="Defaults to the caller's side (the German)."
    )
    scenarios_after_20_am: StrictInt | None = Field(
        default=None,
        ge=0,
        le=100,
        description="8.618: '+1 DRM ... per CG scenario completed after 20 AM'. Counted by the "
        "ledger from the CG-Scenario Ends it recorded (those of the CG Dates from 20 AM on); "
        "leave it out, or state the same number (another one is 422).",
    )
    client_nonce: str | None = Nonce


class ReconCreate(Body):
    side: str | None = Field(default=None, max_length=40)
    cpp: StrictInt = Field(ge=1, le=2, description="8.622: 1 CPP, or 2 for the +5 drm")
    lax: bool = Field(default=False, description="8.622: -1 if the Majority Squad Type is Lax")
    secret: bool = True
    client_nonce: str | None = Nonce


# ---------------------------------------------------------------- the rules


class CppRules(Purchasing, Rules):
    """The CPP roster of KGP (and, by import, of any HASL ruleset that keeps
    one the same way): ``base`` is its CPP Base # chart; its purchases
    (``Purchasing``) follow the scheme's ``purchases`` rules."""

    state_events = frozenset(
        {
            "CPPReplenished",
            "RGPurchased",
            "ReconPurchased",
            "RGDetermined",
            "FortificationsPurchased",
            "FortificationsPlaced",
            "FortificationsRevealed",
        }
    )
    state_keys = frozenset(
        {
            "side", "step", "rgs", "base", "repl", "cpp", "final", "secret", "for_purchase",
            "item", "need", "value", "band", "result", "items", "cost_halves", "revealed",
            "subject", "owner",
        }
    )  # fmt: skip
    legacy_topics = (
        "cgledger:CPPReplenished",
        "cgledger:RGPurchased",
        "cgledger:ReconPurchased",
    )
    has_roster = True
    has_rg_record = True

    def __init__(self, ruleset_id: str, base: Base, scheme: CppScheme = KGP_SCHEME) -> None:
        self.ruleset_id = ruleset_id
        self.base = base
        self.scheme = scheme
        self.purchases = scheme.purchases
        buy = scheme.purchases
        # ``operation``: the Idempotency-Key fingerprint's names from before
        # rulesets were packages, so a retry across the upgrade still replays.
        actions = [
            Action(
                "cpp-replenishments",
                scheme.replenish,
                scheme.replenish_summary,
                ReplenishmentCreate,
                self._replenish,
                operation="cpp-replenishment",
            ),
            Action(
                "rg-purchases",
                scheme.purchase,
                f"{scheme.purchase}: buy Reinforcement Groups from the side's RG chart, at "
                f"its price ({buy.price}) within its limits ({buy.date_max}, {buy.cg_max}); "
                "secret unless ``secret`` is false. A batch is all or nothing.",
                RGPurchaseCreate,
                self._purchase,
                operation="rg-purchase",
            ),
            Action(
                "rg-determinations",
                buy.determine,
                f"{buy.determine}: the next roll an RG on the RG Purchase Record needs "
                f"({buy.record}), or the one on ``table``; its DRMs from the RG's record. "
                "``for_purchase`` names the purchase.",
                DeterminationCreate,
                self.determine,
            ),
        ]
        if buy.fortify is not None:
            actions.append(
                Action(
                    "fortification-purchases",
                    buy.fortify,
                    f"{buy.fortify}: spend FPP on the Fortification Purchase Table; unspent "
                    "FPP are forfeit when the step completes.",
                    FortificationPurchaseCreate,
                    self.fortify,
                )
            )
        if buy.place is not None:
            actions.append(
                Action(
                    "fortification-setups",
                    buy.place,
                    f"{buy.place}: record the setup Locations of new Fortifications, secretly.",
                    FortificationSetupCreate,
                    self.set_up,
                )
            )
        if buy.hidden is not None:
            actions.append(
                Action(
                    "hidden-fortifications",
                    buy.hidden,
                    f"{buy.hidden}: place on-map each still-hidden Fortification within a Setup "
                    "Area of its purchaser's opponent.",
                    HiddenFortificationCreate,
                    self.reveal_hidden,
                )
            )
        if scheme.recon is not None:
            actions.append(
                Action(
                    "recon",
                    scheme.recon,
                    f"{scheme.recon}: spend 1 CPP (or 2 for +5 drm) and make the Recon dr.",
                    ReconCreate,
                    self._recon,
                    operation="recon",
                )
            )
        self.actions = MappingProxyType({a.path: a for a in actions})
        self.columns = tuple(
            c for c in cppbook.COLUMNS if scheme.recon is not None or not c.startswith("recon")
        )

    def left(self, line: cppbook.Line) -> int:
        """The Left column: what is not spent (8.619), halved FRU where the rules
        say so (9.617: "CPP not spent are divided by two (FRU)")."""
        unspent = cppbook.left(line)
        return -(-unspent // 2) if self.scheme.halve_left else unspent

    def next_start(self, line: cppbook.Line) -> int:
        """The next CG Date's Start: Left less the CPP spent on Recon (8.622)."""
        return self.left(line) - line["recon_cpp"]

    # -------------------------------------------------------------- state

    def genesis(self, sides: tuple[str, ...], initial: dict[str, int]) -> dict[str, Any]:
        return {"cpp": True, "initial_cpp": {side: initial.get(side, 0) for side in sides}}

    def initial_state(self, genesis: dict[str, Any], sides: list[str]) -> dict[str, Any]:
        # Logs from before rulesets were packages record ``cpp: false`` for a
        # ruleset that kept no roster; the roster is then empty.
        if not genesis.get("cpp"):
            return {"cpp": {}}
        start = genesis["start_date"]
        state = {
            "cpp": {
                side: [cppbook.new_line(start, start=genesis["initial_cpp"][side], initial=True)]
                for side in sides
            },
            **self.initial_purchase_state(genesis, sides),
        }
        # FPP given with the Initial-Scenario OB (9.619) count on the first line.
        for side, rows in state["record"].items():
            granted = sum(2 * (row["fpp"] or 0) for row in rows)
            if granted and side in state["cpp"]:
                line: dict[str, Any] = state["cpp"][side][0]
                line["fpp_halves"] = granted
        return state

    def on_new_date(self, state: dict[str, Any], cg_date: str) -> None:
        for lines in state["cpp"].values():
            start = self.next_start(lines[-1])
            lines.append(cppbook.new_line(cg_date, start=start, initial=False))

    def apply(self, state: dict[str, Any], kind: str, seq: int, values: dict[str, Any]) -> None:
        if kind not in CppRules.state_events:
            return  # an engine event the roster does not read (CG-Scenario End)
        if kind != "RGPurchased" and self.apply_purchase(state, kind, seq, values):
            return
        line = state["cpp"][values["side"]][-1]
        if kind == "CPPReplenished":
            line["base"] = values["base"]
            line["repl"] = values["repl"]
            line["repl_seq"] = seq
        elif kind == "RGPurchased":
            line["purchase_seqs"].append(seq)
            for item in values["rgs"]:
                line["purchases"].append(cppbook.Purchase(seq=seq, rg=item["rg"], cpp=item["cpp"]))
            self.apply_purchase(state, kind, seq, values)
        elif kind == "ReconPurchased":
            line["recon_cpp"] = values["cpp"]
            line["recon"] = values["final"]
            line["recon_seq"] = seq

    def before_new_date(self, engine: Engine, sides: list[str]) -> None:
        rule = self.scheme.replenish
        for side in sides:
            if _replenishment_pending(engine, side):
                raise RuleViolation(
                    f"{rule}: {side} has not made the CPP Replenishment DR for {engine.cg_date}",
                    rule=rule,
                )

    def step_done(self, engine: Engine, side: str, step: str) -> bool:
        if step == self.scheme.replenish:
            return not _replenishment_pending(engine, side)
        if step == self.purchases.determine:
            return not self.determinations_pending(engine, side)
        return True

    # -------------------------------------------------------------- commands

    def _replenish(self, engine: Engine, ctx: Ctx, body: ReplenishmentCreate) -> int:
        """8.616: CPP Base # (8.6161) minus a Secret DR (9.616: plus; the sign is
        the replenishment table's ``amount``)."""
        side = engine.require_side(ctx, body.side)
        line = _lines(engine, side)[-1]
        step = self.scheme.replenish
        if line["initial"]:
            na = self.scheme.initial_na
            raise RuleViolation(
                f"{na}: CPP Replenishment is NA prior to the CG's Initial Scenario "
                f"({line['cg_date']})",
                rule=na,
            )
        if line["repl_seq"] is not None:
            raise RuleViolation(
                f"{step}: {side} already replenished CPP on {line['cg_date']}", rule=step
            )
        engine.check_step_order(side, step, ruling=ctx.actor == REFEREE)
        base = self.base(engine.campaign_name, line["cg_date"], side)
        payload = {**engine.rule_payload(side, step), "base": base}
        if base is None:
            # A "-" on the CPP Base # chart: nothing arrives, no DR is made.
            return engine.append(ctx, "CPPReplenished", payload, {"repl": 0}, owner=None)
        # 8.616 is read off its table, like every other rule roll.
        table = engine.table(self.scheme.replenish_table)
        inputs = {"base": base}
        pub, sec, result = engine.roll_on(
            ctx, table, [], inputs, secret=True, client_nonce=body.client_nonce
        )
        assert sec is not None
        values = {
            **sec,
            "dr": result["final"],
            "repl": result["outcome"]["amount"],
            "inputs": inputs,
            **result,
        }
        # The event names the table it was read with (9.616 reads 9.6162's).
        payload = {**payload, "rule": table.id, "table": tablebook.table_ref(table), "roll": pub}
        return engine.append(ctx, "CPPReplenished", payload, values, owner=side)

    def _purchase(self, engine: Engine, ctx: Ctx, body: RGPurchaseCreate) -> int:
        """8.619: buy one or more RG from the side's RG chart, each at the
        chart's CPP cost after the modifiers chosen (8.6194), within the CG
        Date maximum (8.6195, per Map Group) and the CG maximum (8.6196). One
        event records the whole batch, so a side that buys in secret can hide
        how many RG it bought; an empty secret batch records "nothing bought"
        indistinguishably. A batch is all or nothing."""
        side = engine.require_side(ctx, body.side)
        items = body.items()
        secret = body.secret
        purchase = self.scheme.purchase
        if not items and not secret:
            raise InvalidInput("name at least one RG (or make the purchase secret)", field="rgs")
        line = _lines(engine, side)[-1]
        rows = engine.rules.get("record", {}).get(side, [])
        rgs = self.priced(engine, side, items, rows, batch=body.rgs is not None)
        engine.check_step_order(side, purchase, ruling=ctx.actor == REFEREE)
        self.check_limits(engine, side, rgs, rows)
        available = cppbook.left(line)  # halving (9.617) comes after the purchases
        total_cost = sum(item["cpp"] for item in rgs)
        if total_cost > available:
            what = f"{rgs[0]['rg']} costs" if len(rgs) == 1 else f"{len(rgs)} RG cost"
            raise RuleViolation(
                f"{purchase}: {what} {total_cost} CPP but {side} has {available} CPP left "
                f"on {line['cg_date']}",
                rule=purchase,
            )
        values = {"rgs": rgs, "secret": secret}
        payload = engine.rule_payload(side, purchase)
        return engine.append(ctx, "RGPurchased", payload, values, owner=side if secret else None)

    def _recon(self, engine: Engine, ctx: Ctx, body: ReconCreate) -> int:
        """8.622: spend 1 CPP (or 2, for +5 drm) and make the Recon dr."""
        side = engine.require_side(ctx, body.side)
        cost = body.cpp
        if cost not in (1, 2):
            raise InvalidInput(f"{RECON}: Recon costs 1 CPP, or 2 for a +5 drm", field="cpp")
        line = _lines(engine, side)[-1]
        if line["initial"]:
            raise RuleViolation(
                f"{RECON}: Recon cannot be purchased when preparing to play an Initial Scenario",
                rule=RECON,
            )
        if line["recon_seq"] is not None:
            raise RuleViolation(
                f"{RECON}: {side} has already made its Recon dr on {line['cg_date']}", rule=RECON
            )
        engine.check_step_order(side, RECON, ruling=ctx.actor == REFEREE)
        available = cppbook.left(line)
        if cost > available:
            raise RuleViolation(
                f"{RECON}: Recon costs {cost} CPP but {side} has {available} CPP left "
                f"on {line['cg_date']}",
                rule=RECON,
            )
        # 8.622 is read off its table: "+5 Spent 2 CPP", "-1 ... Lax".
        table = engine.table(RECON)
        requests = [tablebook.DrmRequest(RECON_2_CPP)] if cost == 2 else []
        if body.lax:
            requests.append(tablebook.DrmRequest(RECON_LAX))
        pub, sec, result = engine.roll_on(
            ctx, table, requests, {}, secret=body.secret, client_nonce=body.client_nonce
        )
        values = {"cpp": cost, "inputs": {}, **result}
        ref = tablebook.table_ref(table)
        payload = {**engine.rule_payload(side, RECON), "table": ref, "roll": pub}
        return engine.append(
            ctx,
            "ReconPurchased",
            payload,
            {**(sec or {}), **values},
            owner=side if body.secret else None,
        )

    # -------------------------------------------------------------- roster

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
            # Created before its ruleset kept a roster (see ``_lines``): no CPP lines.
            return {
                "columns": ["cg_date", *self.columns],
                "lines": [],
                "note": "this campaign was created before this ledger kept its CG Roster",
            }
        lines = []
        start_known = True  # the Initial Scenario's CPP are public
        last = _lines(engine, side)[-1]
        scenarios = {d.cg_date: d.scenario for d in engine.facts(side).dates}
        carried: tuple[bool, int] | None = None  # Recon carried over Idle dates (8.622)
        for line in _lines(engine, side):
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
                out.update(self.scheme.extras(line["cg_date"]))
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
        record = record_view(buy, side, engine.rules, self.chart(engine, side), visible)
        placed = []
        for entry in engine.rules.get("placed", {}).get(side, []):
            if visible(entry["seq"]):
                placed.append({k: entry[k] for k in ("seq", "cg_date", "map_group", "items")})
            else:
                placed.append({"seq": entry["seq"], "cg_date": entry["cg_date"], "redacted": True})
        # What 8.6073 placed on-map is public (a minefield without its strength).
        shown = list(engine.rules.get("forts_shown", {}).get(side, []))
        return {
            "rule": buy.record,
            "rows": record,
            "fortifications": {"rule": buy.fortify, "placed": placed, "placed_on_map": shown},
        }

    # -------------------------------------------------------------- offline check

    def verify_result(self, created: dict[str, Any], values: dict[str, Any]) -> str | None:
        """What 8.616 and 8.622 took from their table rolls: the Base # off the
        chart and the CPP Replenished; the CPP spent against the +5 drm."""
        rule = values.get("rule")
        replenish, recon = self.scheme.replenish, self.scheme.recon
        if "for_purchase" in values and "need" in values:
            return purchasebook.check_determined(self.purchases, values)
        if rule == f"{self.ruleset_id}:{self.scheme.replenish_table}" and "base" not in values:
            # A plain table roll of the replenishment table, made before its
            # ruleset kept a roster (ABtF's 9.6162): the table re-read is its check.
            return None
        if rule == f"{self.ruleset_id}:{self.scheme.replenish_table}":
            base = self.base(created["campaign_name"], values["cg_date"], values["side"])
            if base is None or values["base"] != base or values["inputs"] != {"base": base}:
                return (
                    f"{replenish}: the CPP Base # of {values['side']} on "
                    f"{values['cg_date']} is {base}, but {values['base']} is recorded"
                )
            amount = values["outcome"]["amount"]
            if values.get("dr") != values["final"] or values.get("repl") != amount:
                return (
                    f"{replenish}: Base # {base} and DR {values['final']} give {amount} "
                    f"CPP, but DR {values.get('dr')} and {values.get('repl')} CPP are recorded"
                )
        elif recon is not None and rule == f"{self.ruleset_id}:{recon}":
            plus_five = any(d["id"] == RECON_2_CPP for d in values["drm"])
            if plus_five != (values["cpp"] == 2):
                return (
                    f"{recon}: {values['cpp']} CPP spent, but the +5 drm is "
                    f"{'applied' if plus_five else 'missing'}"
                )
        return None

    def roll_rules(self) -> frozenset[str]:
        rules = [self.scheme.replenish_table, self.scheme.recon]
        return frozenset(f"{self.ruleset_id}:{rule}" for rule in rules if rule is not None)


def _lines(engine: Engine, side: str) -> list[cppbook.Line]:
    lines: list[cppbook.Line] | None = engine.rules.get("cpp", {}).get(side)
    if lines is None:
        # A campaign created before its ruleset kept a CPP roster (ABtF before
        # 9.616-9.617 were built) recorded no initial CPP: there is nothing to add to.
        raise NotImplementedForRuleset(
            f"{engine.ruleset_id} campaign {engine.cid} was created before this ledger "
            "kept its CG Roster; create a new campaign to keep CPP in the ledger"
        )
    return lines


def _replenishment_pending(engine: Engine, side: str) -> bool:
    # Even a "-" Base # is recorded (as 0 CPP, without a DR), so every
    # non-initial CG Date line has its Repl entry before RG purchases.
    if side not in engine.rules.get("cpp", {}):
        return False  # created before the ruleset kept a roster: nothing to wait for
    line = _lines(engine, side)[-1]
    return not line["initial"] and line["repl_seq"] is None


SHORTAGE = "8.618"
#: The scenario type of a CG Date both sides stood Idle on (8.6232).
#: 8.618's table: its band 1 is "≥ 12 ... the German OB suffers from Ammunition Shortage".
SHORTAGE_BAND = 1
SHORTAGE_DRM = "scenarios-after-20-am"


class KgpRules(CppRules):
    """KGP's rules: its CPP roster (``CppRules``), 8.618 German Ammunition
    Shortage, which lasts for the rest of the CG once a Final DR ≥ 12 starts
    it, and 8.6234's scenario victory."""

    state_events = CppRules.state_events | {"AmmunitionShortageRolled"}
    state_keys = CppRules.state_keys | {"shortage"}

    def __init__(self, ruleset_id: str, base: Base) -> None:
        super().__init__(ruleset_id, base)
        shortage = Action(
            "ammunition-shortage",
            SHORTAGE,
            "8.618: the German Ammunition Shortage DR, from 20 AM on; a Final DR ≥ 12 puts the "
            "German OB under Ammunition Shortage (A19.131) for the rest of the CG.",
            ShortageCreate,
            self._shortage,
            operation="ammunition-shortage",
        )
        self.actions = MappingProxyType({**self.actions, shortage.path: shortage})

    def initial_state(self, genesis: dict[str, Any], sides: list[str]) -> dict[str, Any]:
        state = super().initial_state(genesis, sides)
        #: 8.618: the CG Dates its DR was made on, and the shortage once it began.
        state["shortage"] = {"rolled": {}, "since": None}
        return state

    def apply(self, state: dict[str, Any], kind: str, seq: int, values: dict[str, Any]) -> None:
        if kind != "AmmunitionShortageRolled":
            super().apply(state, kind, seq, values)
            return
        record = state["shortage"]
        record["rolled"][values["cg_date"]] = seq
        if values["shortage"]:
            record["since"] = {"cg_date": values["cg_date"], "seq": seq}

    def step_done(self, engine: Engine, side: str, step: str) -> bool:
        """8.618's DR is made "on each CG Date ... (if necessary)": done once made
        on this date, or once the shortage began."""
        if step == SHORTAGE:
            record = engine.rules.get("shortage", {})
            return record.get("since") is not None or engine.cg_date in record.get("rolled", {})
        return super().step_done(engine, side, step)

    def conditions(self, engine: Engine) -> dict[str, Any]:
        out: dict[str, Any] = {}
        chart = HISTORICAL_WEATHER.get(engine.cg_date)
        if chart is not None and RANDOM_WEATHER not in engine.options():
            weather, moon, clouds = chart
            out["weather"] = {
                "campaign": {
                    "value": weather,
                    "moon_phase": None if moon == "-" else moon,
                    "cloud_cover": None if clouds == "-" else clouds,
                    "cg_date": engine.cg_date,
                    "rule": "8.617",
                    "source": "KGP Historical Weather Chart",
                }
            }
        since = engine.rules.get("shortage", {}).get("since")
        if since is None:
            return out
        return {
            **out,
            "ammunition_shortage": {
                "side": "German",
                "rule": SHORTAGE,
                "since": since["cg_date"],
                "seq": since["seq"],
                "text": "The German OB suffers from Ammunition Shortage (A19.131) for the "
                "duration of the CG",
            },
        }

    def _shortage(self, engine: Engine, ctx: Ctx, body: ShortageCreate) -> int:
        """8.618: "Beginning on Dec 20 AM, and on each CG Date thereafter (if
        necessary), the German makes a DR. On a Final DR of ≥ 12 the German OB
        suffers from Ammunition Shortage (A19.131) for the duration of the CG."
        """
        side = engine.require_side(ctx, body.side)
        table = engine.table(SHORTAGE)
        engine.check_binding(ctx, table)
        if side not in table.sides:
            raise Forbidden(
                f"{SHORTAGE}: the {table.title} is made by the German side, not the {side} side",
                rule=SHORTAGE,
            )
        record = engine.rules["shortage"]
        since = record["since"]
        if since is not None:
            raise RuleViolation(
                f"{SHORTAGE}: the German OB suffers Ammunition Shortage since {since['cg_date']} "
                f"(event {since['seq']}) for the duration of the CG; no further DR is made",
                rule=SHORTAGE,
            )
        done = record["rolled"].get(engine.cg_date)
        if done is not None:
            raise RuleViolation(
                f"{SHORTAGE}: the DR for {engine.cg_date} was made already (event {done})",
                rule=SHORTAGE,
            )
        engine.check_step_order(side, SHORTAGE, ruling=ctx.actor == REFEREE)
        stated = body.scenarios_after_20_am
        drm = [] if stated is None else [tablebook.DrmRequest(SHORTAGE_DRM, count=stated)]
        # Counted by the ledger from the scenario ends it recorded; a stated
        # count that disagrees is refused (422, naming 8.618).
        drm = engine.with_counted_drms(ctx, table, drm)
        pub, _, result = engine.roll_on(
            ctx, table, drm, {}, secret=False, client_nonce=body.client_nonce
        )
        shortage = result["outcome"]["band"] == SHORTAGE_BAND
        payload = {
            **engine.rule_payload(side, SHORTAGE),
            "rule": table.id,
            "table": tablebook.table_ref(table),
            "roll": pub,
        }
        values = {"inputs": {}, **result, "shortage": shortage}
        return engine.append(ctx, "AmmunitionShortageRolled", payload, values, owner=None)

    def verify_result(self, created: dict[str, Any], values: dict[str, Any]) -> str | None:
        if values.get("rule") == f"{self.ruleset_id}:{SHORTAGE}" and "shortage" in values:
            expected = values["outcome"]["band"] == SHORTAGE_BAND
            if values["shortage"] is not expected:
                return (
                    f"{SHORTAGE}: a Final DR of {values['final']} "
                    f"{'starts' if expected else 'does not start'} the Ammunition Shortage, but "
                    f"shortage {values['shortage']} is recorded"
                )
            return None
        return super().verify_result(created, values)

    def roll_rules(self) -> frozenset[str]:
        return super().roll_rules() | {f"{self.ruleset_id}:{SHORTAGE}"}

    setup_area_step = "8.605"

    def setup_areas(
        self, data: MapGroupData, control: ControlState, sides: Sequence[str], cg_date: str = ""
    ) -> dict[str, Any]:
        return kgp_setup_areas(data, control, sides, cg_date)

    def control_rule(
        self, rule: str, data: MapGroupData, control: ControlState, by: str
    ) -> tuple[list[dict[str, Any]], bool]:
        """8.6131 EXC: "The German must be informed if all Retained, on-map U.S.
        units on a Map Group are Eliminated or successfully Escape/Shift to (a)
        Holding Box(es). In such a case the Germans immediately gain Control of
        all Strategic Locations on that Map Group, and may automatically
        include them within their Setup Area for the next CG scenario." The
        U.S. side informs (or the referee records it); every Strategic
        Location of the map group (each of its levels) becomes German, and the
        Setup Areas already determined take them in."""
        if rule != VACATED:
            return super().control_rule(rule, data, control, by)
        if by not in (US, REFEREE):
            raise RuleViolation(
                f"{VACATED}: the U.S. side informs the German that its units left map group "
                f"{data.id} (or the referee records it), not {by}",
                rule=VACATED,
            )
        locations = []
        for i, hx in enumerate(data.grid.ids):
            marked = any((hx, lv) in control.markers for lv in data.levels[i])
            if data.strategic[i] or marked:
                locations += [{"hex": hx, "level": lv, "side": GERMAN} for lv in data.levels[i]]
        return locations, True

    def chit_refused(
        self, side: str, chit: str, vacated: Mapping[str, int], map_groups: Sequence[str]
    ) -> str | None:
        """8.6232 footnote: "The Attack Chit cannot be selected by the German
        player if the U.S. player currently has no on-map Retained units
        (8.6131)": every map group of the CG was recorded by 8.6131 as left by
        all U.S. units since the last scenario."""
        if side != GERMAN or chit != "attack" or not map_groups:
            return None
        if all(group in vacated for group in map_groups):
            return (
                "8.6232: the German cannot select the Attack Chit while the U.S. has no on-map "
                f"Retained units (8.6131 recorded for {', '.join(map_groups)})"
            )
        return None

    def scenario_winner(
        self,
        scenario: str,
        start_lvp: dict[str, int],
        current_lvp: dict[str, int],
        territory: Sequence[tuple[MapGroupData, ControlState]] = (),
        definition: Mapping[str, Any] | None = None,
    ) -> tuple[str | None, str]:
        """8.6234 KGP CG-SCENARIO VICTORY CONDITIONS, on LVP.

        a) Dual Attack: "The Americans win if at CG-Scenario End their
        Current-LVP Total is > what it was at scenario start" (else the German).
        b) Assault: "The Assaulting side wins if at CG-Scenario End its
        Current-LVP Total is >= 20% (FRU, with a minimum increase of 1 LVP) more
        than it was at scenario start, and/" - the OCR cuts the rest of b), so
        a side that does not win by LVP is not declared the loser here: the
        winner is then ``None``, with the reason.
        """
        del territory, definition
        if scenario == "dual-attack":
            won = current_lvp["US"] > start_lvp["US"]
            return ("US" if won else "German"), "8.6234a"
        assaulter = {"us-assault": "US", "german-assault": "German"}.get(scenario)
        if assaulter is None:
            return None, f"8.6234: no victory conditions for a {scenario!r} scenario"
        start = start_lvp[assaulter]
        needed = start + max(1, -(-start // 5))  # 20%, FRU, at least 1 LVP
        if current_lvp[assaulter] >= needed:
            return assaulter, "8.6234b"
        return None, (
            f"8.6234b: {assaulter} did not win by LVP (needed {needed}); the rest of "
            "8.6234b is lost in the seed's OCR"
        )
