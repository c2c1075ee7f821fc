"""The CPP roster that HASL rulesets keep the same way, whatever their rule
numbers: CPP Replenishment (8.616, 9.616), RG purchases (8.619, 9.617) with
their determination rolls and Fortifications (:mod:`.purchasing`), and the CG
Roster's CPP columns (:mod:`.roster_view`). The engine calls them through
``cgledger.domain.rulesets.base.Rules``; nothing here is known to it by name,
and no ruleset is named here.

The ruleset's state is ``{"cpp": {side: [line, ...]}}``: one CPP line per side
per CG Date (:mod:`.roster`). A :class:`CppScheme` names a ruleset's rule
numbers and its differences (a Secret DR added to the Base # or subtracted
from it, unspent CPP halved, a Recon step); the ruleset's own commands (e.g.
a Recon dr) are added by its subclass of :class:`CppRules`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from cgledger.domain import purchases as purchasebook
from cgledger.domain import tables as tablebook
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput, RuleViolation
from cgledger.domain.purchases import PurchaseRules
from cgledger.domain.rulesets.base import Action, Engine, Rules
from cgledger.domain.rulesets.cpp import roster as cppbook
from cgledger.domain.rulesets.cpp.bodies import (
    DeterminationCreate,
    FortificationPurchaseCreate,
    FortificationSetupCreate,
    HiddenFortificationCreate,
    ReplenishmentCreate,
    RGPurchaseCreate,
)
from cgledger.domain.rulesets.cpp.purchasing import Purchasing
from cgledger.domain.rulesets.cpp.roster import lines_of
from cgledger.domain.rulesets.cpp.roster_view import RosterView
from cgledger.domain.visibility import REFEREE

#: A ruleset's CPP Base # chart: ``base(campaign, cg_date, side)``, ``None`` for a "-" cell.
Base = Callable[[str, str, str], "int | None"]
#: A chart whose cells are readings (DESIGN §14; KGP 8.6161):
#: ``base(campaign, cg_date, side, readings)`` under the readings in force.
ReadBase = Callable[[str, str, str, Mapping[str, str]], "int | None"]


@dataclass(frozen=True)
class CppScheme:
    """The rule numbers of a CPP roster, and how a ruleset's rules differ.

    ``replenish``: the CPP Replenishment step, read off the
    ``replenish_table``; ``initial_na``: the rule that makes it NA before the
    Initial Scenario; ``purchase``: the RG purchase step; ``purchases``: the
    ruleset's purchase rules; ``recon``: the Recon step, if the ruleset has
    one (its roster then shows the Recon columns; the ruleset adds the
    command). ``halve_left``: unspent CPP are divided by two, FRU, into Left.
    ``extras``: public fields of a roster line for a CG Date under the
    readings in force (DESIGN §14; e.g. a Campaign Exhaustion DRM).
    """

    replenish: str
    replenish_table: str
    replenish_summary: str
    initial_na: str
    purchase: str
    purchases: PurchaseRules
    recon: str | None = None
    halve_left: bool = False
    extras: Callable[[str, Mapping[str, str]], dict[str, Any]] | None = None


class CppRules(Purchasing, RosterView, Rules):
    """A CPP roster: ``base`` is the ruleset's CPP Base # chart (``read_base``
    where its cells follow readings); its purchases (``Purchasing``) follow
    the scheme's ``purchases`` rules."""

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
            "subject", "owner", "rolls", "more",
        }
    )  # fmt: skip
    legacy_topics = (
        "cgledger:CPPReplenished",
        "cgledger:RGPurchased",
        "cgledger:ReconPurchased",
    )
    has_roster = True
    has_rg_record = True

    def __init__(
        self,
        ruleset_id: str,
        base: Base,
        scheme: CppScheme,
        *,
        read_base: ReadBase | None = None,
    ) -> None:
        self.ruleset_id = ruleset_id
        self.base = base
        self.read_base = read_base
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
        self.actions = MappingProxyType({a.path: a for a in actions})
        self.columns = tuple(
            c for c in cppbook.COLUMNS if scheme.recon is not None or not c.startswith("recon")
        )

    def base_of(
        self, campaign: str, cg_date: str, side: str, readings: Mapping[str, str]
    ) -> int | None:
        """The side's CPP Base # off the chart (8.6161, 9.6161) under the
        ``readings`` in force (DESIGN §14), where the chart has readings."""
        if self.read_base is not None:
            return self.read_base(campaign, cg_date, side, readings)
        return self.base(campaign, cg_date, side)

    def left(self, line: cppbook.Line) -> int:
        """The Left column: what is not spent, halved FRU where the scheme says
        so (``halve_left``: "CPP not spent are divided by two (FRU)")."""
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
        if values["side"] not in state["cpp"]:
            return  # a campaign created before the roster was kept (``initial_state``)
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
        """The CPP Base # off the ruleset's chart minus (or plus) a Secret DR:
        the sign is the replenishment table's ``amount``."""
        side = engine.require_side(ctx, body.side)
        line = lines_of(engine, side)[-1]
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
        engine.check_step_order(side, step, ruling=ctx.actor == REFEREE, ctx=ctx)
        base = self.base_of(engine.campaign_name, line["cg_date"], side, engine.readings())
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
        line = lines_of(engine, side)[-1]
        rows = engine.rules.get("record", {}).get(side, [])
        rgs = self.priced(engine, side, items, rows, batch=body.rgs is not None)
        # Refusals first: the side passes the steps between (their empty
        # sealed records) only once nothing below can refuse.
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
        engine.check_step_order(side, purchase, ruling=ctx.actor == REFEREE, ctx=ctx)
        return engine.append(ctx, "RGPurchased", payload, values, owner=side if secret else None)

    # -------------------------------------------------------------- offline check

    def verify_result(self, created: dict[str, Any], values: dict[str, Any]) -> str | None:
        """What a determination roll wrote (8.620), and what CPP Replenishment
        took from its table roll (or recorded without one, for a "-" cell);
        any other roll is ``verify_other``'s."""
        rule = values.get("rule")
        if "for_purchase" in values and "need" in values:
            return purchasebook.check_determined(self.purchases, values)
        if rule == f"{self.ruleset_id}:{self.scheme.replenish_table}" and "base" not in values:
            # A plain table roll of the replenishment table, made before its
            # ruleset kept a roster: the table re-read is its check.
            return None
        if "outcome" not in values and "base" in values and rule in self._replenish_rules():
            return self._verify_no_dr(created, values)
        if rule == f"{self.ruleset_id}:{self.scheme.replenish_table}":
            return self._verify_replenished(created, values)
        return self.verify_other(created, values)

    def _replenish_rules(self) -> tuple[str, str]:
        """The rule a replenishment names: its step's, or its table's when rolled."""
        at = f"{self.ruleset_id}:"
        return (at + self.scheme.replenish, at + self.scheme.replenish_table)

    def _chart_base(
        self, created: dict[str, Any], values: dict[str, Any]
    ) -> tuple[int | None, str]:
        """The Base # the chart gives the event's side and CG Date under the
        readings in force at that event (``created["readings"]``: those the
        verifier read from the CG definition and its amendments before it;
        the defaults where it gives none), and how a refusal names them."""
        readings = created.get("readings") or {}
        base = self.base_of(created["campaign_name"], values["cg_date"], values["side"], readings)
        return base, self._under(readings)

    def _verify_replenished(self, created: dict[str, Any], values: dict[str, Any]) -> str | None:
        """8.616/9.616 read off its table: the Base # is the chart's, and the
        DR and CPP Replenished are the table's."""
        replenish = self.scheme.replenish
        base, under = self._chart_base(created, values)
        if base is None or values["base"] != base or values["inputs"] != {"base": base}:
            return (
                f"{replenish}: the CPP Base # of {values['side']} on {values['cg_date']} is "
                f"{base}{under}, but {values['base']} is recorded"
            )
        amount = values["outcome"]["amount"]
        if values.get("dr") != values["final"] or values.get("repl") != amount:
            return (
                f"{replenish}: Base # {base} and DR {values['final']} give {amount} "
                f"CPP, but DR {values.get('dr')} and {values.get('repl')} CPP are recorded"
            )
        return None

    def _verify_no_dr(self, created: dict[str, Any], values: dict[str, Any]) -> str | None:
        """A replenishment recorded without a DR: only a "-" cell, 0 CPP."""
        base, under = self._chart_base(created, values)
        if base is None and values["base"] is None and values.get("repl") == 0:
            return None
        return (
            f"{self.scheme.replenish}: the CPP Base # of {values['side']} on "
            f"{values['cg_date']} is {base}{under}, but {values['base']} and "
            f"{values.get('repl')} CPP are recorded without a DR"
        )

    def _under(self, readings: Mapping[str, str]) -> str:
        """How a refusal names the readings the chart was read under (those
        the definition chose; none: the defaults)."""
        if self.read_base is None or not readings:
            return ""
        chosen = ", ".join(f"{k}={v}" for k, v in sorted(readings.items()))
        return f" under the readings {chosen}"

    def verify_other(self, created: dict[str, Any], values: dict[str, Any]) -> str | None:
        """The offline check of a roll the ruleset's own commands made (a
        Recon dr): neither a determination roll nor a replenishment."""
        del created, values
        return None

    def roll_rules(self) -> frozenset[str]:
        return frozenset({f"{self.ruleset_id}:{self.scheme.replenish_table}"})


def _replenishment_pending(engine: Engine, side: str) -> bool:
    # Even a "-" Base # is recorded (as 0 CPP, without a DR), so every
    # non-initial CG Date line has its Repl entry before RG purchases.
    if side not in engine.rules.get("cpp", {}):
        return False  # created before the ruleset kept a roster: nothing to wait for
    line = lines_of(engine, side)[-1]
    return not line["initial"] and line["repl_seq"] is None
