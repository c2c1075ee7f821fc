"""Who applies each event (DESIGN §6): the one table from event type to the
components' apply functions, in order, each assigning only its own slice.
The aggregate (``cgledger.domain.campaign.aggregate``) reads it when it applies
an event and when an undo replays the state events."""

from __future__ import annotations

from collections.abc import Mapping

from cgledger.domain.campaign.agreement import Agreement
from cgledger.domain.campaign.amendments import Amendments
from cgledger.domain.campaign.calendar import Calendar
from cgledger.domain.campaign.core import Handler
from cgledger.domain.campaign.disputes import Disputes
from cgledger.domain.campaign.initiative import Initiative
from cgledger.domain.campaign.rolls import Rolls
from cgledger.domain.campaign.rules import RuleState
from cgledger.domain.campaign.scenario_end import ScenarioEnd
from cgledger.domain.campaign.sealing import Sealing
from cgledger.domain.campaign.sequence import Sequence
from cgledger.domain.campaign.tables import Tables
from cgledger.domain.campaign.territory import Territory
from cgledger.domain.campaign.undo import Undo

#: Who applies each event: the components' apply functions, in order, each
#: assigning only its own slice. The state events (``undo.STATE_EVENTS`` and a
#: ruleset's ``Rules.state_events``) are replayed from here after an undo,
#: followed by ``Territory._freeze_setup_areas``.
DISPATCH: Mapping[str, tuple[Handler, ...]] = {
    "CommitmentsPublished": (Rolls._on_commitments_published,),
    "TableDefined": (Rolls._on_table_defined,),
    "DiceRolled": (),
    "SecretRevealed": (),
    "RecordSealed": (),  # applied as the act it holds (``sealed.kind_of``)
    # the RePh sequence (state events)
    "TableRolled": (Sequence._on_table_rolled, Tables._on_table_rolled),  # in a RePh step
    "CGDateReady": (Agreement._on_ready, Sequence._on_step),
    "CGDateBegan": (
        Agreement._on_date_began,
        Sealing._on_reph_reset,
        Calendar._on_date_began,
        Sequence._on_date_began,
        RuleState._on_new_date,
    ),
    "CGDateRejected": (Agreement._on_cg_date_rejected,),
    "InitiativeChosen": (Initiative._on_chosen, Sequence._on_step),
    "InitiativeDetermined": (
        Initiative._on_determined,
        Sequence._on_initiative_determined,
        Calendar._on_initiative_determined,
        ScenarioEnd._on_idle_date,
    ),
    "RePhAdvanced": (Sequence._on_step,),
    "ControlProposed": (Agreement._on_control_proposed,),
    "ControlRecorded": (Territory._on_control, Agreement._on_control_approved),
    "ControlRejected": (Agreement._on_control_rejected,),
    "MassacreProposed": (Agreement._on_massacre_proposed,),
    "MassacreRecorded": (Agreement._on_massacre_recorded, RuleState._on_rule_event),
    "MassacreRejected": (Agreement._on_massacre_rejected,),
    "ScenarioEndProposed": (Agreement._on_scenario_end_proposed,),
    "ScenarioEndRejected": (Agreement._on_scenario_end_rejected,),
    "ScenarioEnded": (
        Territory._on_scenario_ended,
        Sealing._on_reph_reset,
        Agreement._on_scenario_ended,
        ScenarioEnd._on_scenario_ended,
        Calendar._on_scenario_ended,
        Sequence._on_scenario_ended,
        RuleState._on_rule_event,
    ),
    # undo, disputes, amendments
    "UndoRequested": (Agreement._on_undo_requested,),
    "UndoApplied": (Undo._on_undo_applied, Agreement._on_undo_approved),
    "UndoRejected": (Agreement._on_undo_rejected,),
    "DisputeFiled": (Disputes._on_dispute_filed,),
    "DisputeResolved": (Disputes._on_dispute_resolved,),
    "DefinitionAmendmentRequested": (Agreement._on_amendment_requested,),
    "DefinitionAmended": (Amendments._on_amended, Agreement._on_amendment_approved),
    "DefinitionAmendmentRejected": (Agreement._on_amendment_rejected,),
}
#: A ruleset's own state event (``Rules.state_events``): its rules apply it,
#: and where it names a side and a step (``rule_payload``) the side is there.
RULE_EVENT: tuple[Handler, ...] = (RuleState._on_rule_event, Sequence._on_rule_step)
#: Any event that holds a roll: its index is used; a re-roll after an undo is made.
ROLLED: tuple[Handler, ...] = (Rolls._on_roll, Undo._on_roll)
