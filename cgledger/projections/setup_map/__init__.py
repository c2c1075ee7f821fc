"""The Setup Areas of a map group drawn as an SVG map (DESIGN §9,
``GET /setup-areas.svg``), as the players mark their reduced-size map
("MARKING THE MAP" after 8.6057; 9.6055).

:func:`render_svg` is a pure function of the ``GET /setup-areas`` answer and
the hexes' axial coordinates:

- each hex is a flat-topped hexagon (the map's hex columns are vertical) with
  its id; each side's Setup-Area hexes are filled in that side's colour, No
  Man's Land (8.6051) is hatched yellow like the players' highlighter,
  Uncontrolled Territory (8.6053) is left plain and a hex that is not
  Enterable is shaded dark;
- each Setup Area's boundary is drawn in its side's colour and its id
  ("<side> <id>") is written once, at the hex nearest its centre; an Isolated
  area's label is in italics (8.6052);
- each Strategic Location is outlined thickly in the colour of the side that
  Controls it (black if none), with its marker letter in a small square
  (E, F, G, V: MARKING THE MAP);
- each Isolated hex gets a dashed outline and a cross (8.6052);
- an upper-level Location (8.6057) Controlled by another side than the
  ground's, or Isolated, gets a small badge in its side's colour with its level;
- each hex whose ground Location a side Controls (in force: the service
  passes the Control recorded, DESIGN §13) gets a tag with the side's short
  name, and a hatch in its colour where it is not the side whose Setup Area
  holds the hex (``marks``); the tooltip says who Controls it and why;
- each Fortification the viewer is given (the service passes those of the
  viewer's RG Purchase Record reads, DESIGN §4) gets a triangle: hollow and
  dashed if set up in secret, solid if placed on-map (8.6073).

The title is on top; the map has its own region (``g.map-area`` with its
``data-box``, which the page zooms into); the legend is below it in another
(``g.legend``), in sections: fills, Control, marks, Fortifications.

Every hex is a ``<g>`` with ``data-hex``, ``data-status``, ``data-area``, the
classes ``hex status-<status>`` and a ``<title>`` tooltip. All text is XML
escaped. The output is deterministic and linear in the number of hexes.

The drawing's parts: ``style`` (sizes, colours, XML text), ``frame`` (the
hexes' geometry), ``hexes``, ``marks`` (Control and Fortifications),
``areas`` (boundaries and labels), ``legend``, and ``render`` (the layout).
"""

from cgledger.projections.setup_map.render import render_svg
from cgledger.projections.setup_map.style import HEX_SIZE, side_colours

__all__ = ["HEX_SIZE", "render_svg", "side_colours"]
