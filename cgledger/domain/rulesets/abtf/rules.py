"""ABtF's own rules on top of its CPP roster (9.616-9.617, ``cgledger.domain.rulesets.cpp``):
Setup Areas by Block Control (9.605-9.6055) and its victory conditions
(9.6211-9.6212). The rules themselves are in :mod:`.setup_areas`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cgledger.domain.rulesets.abtf import setup_areas as blocks
from cgledger.domain.rulesets.cpp import CppRules
from cgledger.domain.territory import UNCONTROLLED, ControlState, MapGroupData

__all__ = ["AbtfRules"]


class AbtfRules(CppRules):
    setup_area_step = blocks.RULE
    #: 9.6055: "mark all Uncontrolled Territory hexes using another color
    #: (suggestion: a yellow 'highlighter')".
    map_highlight = UNCONTROLLED
    no_scenario_winner = (
        "9.6211: in ABtF the individual CG Scenarios have no specific Victory Conditions"
    )

    def setup_areas(
        self, data: MapGroupData, control: ControlState, sides: Sequence[str], cg_date: str = ""
    ) -> dict[str, Any]:
        del cg_date  # ABtF's Entry Areas name no date
        return blocks.setup_areas(data, control, sides)

    def control_effects(
        self, data: MapGroupData, before: ControlState, after: ControlState
    ) -> dict[str, str]:
        return blocks.switched_blocks(data, before, after)

    def scenario_winner(
        self,
        scenario: str,
        start_lvp: dict[str, int],
        current_lvp: dict[str, int],
        territory: Sequence[tuple[MapGroupData, ControlState]] = (),
        definition: Mapping[str, Any] | None = None,
    ) -> tuple[str | None, str]:
        """9.6211: "the individual CG Scenarios have no specific Victory
        Conditions. A player does not 'win' or 'lose' a CG Scenario"; but
        9.6212: "The Germans win any CG at the end of any CG Scenario Game Turn
        by Controlling all Strategic Locations within Block H"."""
        del scenario, start_lvp, current_lvp
        found = (definition or {}).get("sudden_death_blocks")
        sudden = dict(found) if found else {blocks.SUDDEN_DEATH_SIDE: blocks.SUDDEN_DEATH_BLOCK}
        for side, block in sorted(sudden.items()):
            for data, control in territory:
                if blocks.sudden_death(data, control, side, block):
                    return side, (
                        f"9.6212: {side} Controls every Strategic Location within Block "
                        f"{block} of map group {data.id}: {side} wins the CG"
                    )
        return None, "9.6211: ABtF CG Scenarios have no Victory Conditions"
