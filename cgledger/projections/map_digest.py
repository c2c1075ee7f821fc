"""The digest of the Setup Areas map one viewer is drawn (``GET /page``'s
``map.digest``, DESIGN §12 "Cost"), computed from what the drawing is made
of instead of from the drawing, so that the page's redraw draws the map
(``cgledger.projections.setup_map``) only when the digest it holds is not
this one.

The live map of a map group is a pure function of:

- the ruleset (its Setup Area rules and step, its highlight), the CG
  definition in force (the map group's hexes, coordinates, title and
  ``initial_control``) and the campaign's sides;
- the title drawn (:func:`map_title`; the campaign's id, which it holds
  where the campaign has no title, is left out: it never changes), the CG Date and whether the Setup
  Areas are frozen (8.605 MARKING THE MAP, 9.6055);
- the Control the Setup Areas are determined from (the Control recorded,
  or as it was when they were frozen): each Location's side, marker and
  Blazing, and each Block's side, as ``ControlState.of`` reads them;
- the Control in force (``map_marks.control_in_force``) and the
  Fortifications the viewer is given (``map_marks.fortifications_seen``,
  through the one visibility function), both passed in as drawn;
- the drawing itself: :data:`DRAWING` and the release.

Every one of them is public or is what the viewer may read, so two
histories that differ only in the opponent's secret give the opponent the
same digest (DESIGN §4); the viewer is one of the inputs too, as its
Fortifications are. A change to the drawing that draws other marks from the
same inputs bumps :data:`DRAWING`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cgledger.domain.dice import canon
from cgledger.domain.territory import MapGroupData
from cgledger.version import VERSION

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign

#: The drawing's own version: bump it when the same inputs draw another map.
DRAWING = "setup-map/1"


def map_title(campaign: Campaign, data: MapGroupData) -> str:
    """The title the map is drawn with: the campaign's and the map group's."""
    return f"{campaign.title or campaign.cid}: {data.title or data.id}"


def map_digest(
    campaign: Campaign,
    map_group: str,
    viewer: str,
    *,
    control: Mapping[str, str | None],
    fortifications: Mapping[str, Any] | None,
) -> str:
    """The digest of ``viewer``'s live map of ``map_group``: 32 hex digits of
    the SHA-256 of the drawing's inputs (this module's docstring), with
    ``control`` and ``fortifications`` as they are passed to the drawing."""
    data = campaign.map_group_data(map_group)
    frozen = campaign.setup_frozen
    book = (campaign.control if frozen is None else frozen["control"]).get(data.id, {})
    inputs = {
        "drawing": DRAWING,
        "release": VERSION,
        "ruleset": campaign.ruleset_id,
        "definition": campaign.definition_hash,
        "map_group": data.id,
        "sides": list(campaign.sides),
        # The title drawn, less the campaign's id where it stands for a
        # missing title: the id never changes within a campaign, and twin
        # campaigns must read the same digest (DESIGN §4's comparison).
        "title": [campaign.title, data.title or data.id],
        "cg_date": campaign.cg_date,
        "frozen": frozen is not None,
        "areas_from": {key: _entry(value) for key, value in book.items()},
        "control": dict(control),
        "fortifications": fortifications,
        "viewer": viewer,
    }
    return hashlib.sha256(canon(inputs)).hexdigest()[:32]


def _entry(entry: Mapping[str, Any]) -> list[Any]:
    """What ``ControlState.of`` reads of a recorded Location or Block (never
    its ``seq``: recording the same Control again draws the same map)."""
    return [entry.get("side"), entry.get("marker") or None, bool(entry.get("blazing"))]
