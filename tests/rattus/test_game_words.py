"""Nothing outside Rattus's own package names a Rattus concept: the front door, the registry, the tools,
the algorithms and the pages' scripts (``rattus_rules/web/``) work for any game, and learn what only Rattus
knows through the registry's hooks (:class:`rattus_rules.games.GameHooks`), which ``rattus_rules/games/rattus/``
registers.

The words are Rattus's card classes and region names, read from its spec, and the things of its board:
rats, regions, the plague, cubes, the castle.  The game's name is not one of them (the command is
``rattus``, and Rattus is the default game), nor are words any game of hidden pieces has (a piece, a
token, a face, a card, a board).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

import rattus_rules

PACKAGE = Path(rattus_rules.__file__).resolve().parent
RATTUS = PACKAGE / "games" / "rattus"
SPEC = PACKAGE.parent / "spec" / "rattus"
THINGS = ("rats?", "regions?", "plague", "cubes?", "castles?")


def rattus_words() -> re.Pattern[str]:
    """Rattus's concepts as one pattern: its things, its card classes (``enum class``) and its regions."""
    game = (SPEC / "game.rules").read_text(encoding="utf-8")
    found = re.search(r"^enum class = (.+)$", game, re.MULTILINE)
    assert found, "game.rules declares the card classes"
    classes = [c.strip() for c in found.group(1).split(",")]
    with (SPEC / "data" / "regions.csv").open(encoding="utf-8") as rows:
        regions = [row["region"] for row in csv.DictReader(rows)]
    words = [*THINGS, *(f"{c}s?" for c in classes), "witches", *(re.escape(r) for r in regions)]
    return re.compile(r"\b(" + "|".join(words) + r")\b", re.IGNORECASE)


OUTSIDE = sorted(p for p in PACKAGE.rglob("*.py") if RATTUS not in p.parents)
#: The pages' scripts, styles and markup (``rattus_rules/web/``): they serve every game.
WEB = sorted(p for pattern in ("*.js", "*.css", "*.html") for p in (PACKAGE / "web").glob(pattern))


@pytest.mark.parametrize("path", OUTSIDE + WEB, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_no_module_outside_rattuss_package_names_a_rattus_concept(path: Path) -> None:
    found = sorted({m.group().lower() for m in rattus_words().finditer(path.read_text(encoding="utf-8"))})
    assert not found, f"{path.relative_to(PACKAGE)} names {', '.join(found)}: it belongs in rattus_rules/games/rattus/"


def test_the_words_are_found_where_they_belong() -> None:
    words = rattus_words()
    names = (RATTUS / "names.py").read_text(encoding="utf-8")
    assert {"monk", "witch", "plague", "castle"} <= {m.group().lower() for m in words.finditer(names)}
    assert words.search("start Anglia") and words.search("the Witches look") and not words.search("a token's face")
    assert len(OUTSIDE) > 40 and PACKAGE / "games" / "__init__.py" in OUTSIDE
    assert {"common.js", "play.js", "viewer.js", "play.html", "rattus.css"} <= {p.name for p in WEB}
