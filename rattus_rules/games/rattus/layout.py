"""Where each region is drawn in the pictures: hand-chosen, approximate map positions.

Presentation only.  The board's facts (which regions exist, which are in play,
which are neighbours) come from the component data; this module only says where
on the picture a region's box goes, roughly where it lies on the map of Europe.
A region the table below does not know (a user's own board) is placed in a row
under the map.
"""

from __future__ import annotations

from collections.abc import Sequence

#: The picture's size, in SVG units, without rows of unknown regions.
MAP_WIDTH, MAP_HEIGHT = 820, 580

#: Centre of each region's box on the picture (x to the right, y down).
MAP_POSITIONS: dict[str, tuple[int, int]] = {
    "Scandia": (420, 70),
    "Anglia": (200, 140),
    "Russia": (680, 110),
    "Germania": (400, 215),
    "Polonia": (560, 200),
    "Tartaria": (720, 300),
    "Gallia": (230, 300),
    "Hungaria": (520, 330),
    "Hispania": (110, 440),
    "Italia": (380, 430),
    "Bulgaria": (590, 440),
    "Turcia": (720, 520),
}

_ROW_STEP = 150
_ROW_HEIGHT = 110


def positions(regions: Sequence[str]) -> tuple[dict[str, tuple[int, int]], int]:
    """The centre of every region, and the picture's height.

    >>> pos, height = positions(["Gallia", "Atlantis"])
    >>> pos["Gallia"], pos["Atlantis"], height
    ((230, 300), (85, 635), 690)
    """
    out: dict[str, tuple[int, int]] = {}
    unknown = [r for r in regions if r not in MAP_POSITIONS]
    for r in regions:
        if r in MAP_POSITIONS:
            out[r] = MAP_POSITIONS[r]
    per_row = max(1, (MAP_WIDTH - 40) // _ROW_STEP)
    for i, r in enumerate(unknown):
        row, col = divmod(i, per_row)
        out[r] = (85 + col * _ROW_STEP, MAP_HEIGHT + 55 + row * _ROW_HEIGHT)
    rows = (len(unknown) + per_row - 1) // per_row
    return out, MAP_HEIGHT + rows * _ROW_HEIGHT
