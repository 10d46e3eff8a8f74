"""The documentation generated from the spec: the Sphinx build, what the pages show, the pictures,
the English renderer, the lexer and `rattus render`."""

from __future__ import annotations

import doctest
import html
import json
import re
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import interpreter.english
from interpreter import Game
from interpreter import ast as A
from interpreter.english import English, render_plain, walk_steps
from rattus_rules import load_rules, new_game
from rattus_rules.cli import build_parser, main
from rattus_rules.games.rattus.docgen import CHAPTERS, PAGES, Rulebook, expected_anchors
from rattus_rules.games.rattus.render import board_edges, board_svg, state_svg
from rattus_rules.games.rattus.render_command import random_state
from rattus_rules.games.rattus.wording import VOCABULARY
from rattus_rules.tools.docs.lexer import RulesLexer, grammar_keywords
from rattus_rules.tools.docs.refgen import grammar_rules, modules
from rattus_rules.tools.docs.rst import label

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SVG = "{http://www.w3.org/2000/svg}"


def page(site: Path, name: str) -> str:
    return (site / f"{name}.html").read_text(encoding="utf-8")


def ids(text: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', text))


# ------------------------------------------------------------- the build


def test_every_rule_switch_invariant_and_check_has_its_place(site: Path, rules: Game) -> None:
    found = set()
    for name in ("rulebook", "interpretations", "invariants"):
        found |= ids(page(site, name))
    s = rules.symbols
    wanted = ([f"rule:{n}" for n in s.rules] + [f"procedure:{n}" for n in s.procedures]
              + [f"function:{n}" for n in s.functions] + [f"switch:{n}" for n in s.switches]
              + [f"invariant:{n}" for n in s.invariants] + [f"check:{n}" for n in s.checks])
    missing = [a for a in [*wanted, *expected_anchors(rules)] if label(a) not in found]
    assert not missing
    assert len(s.rules) > 10 and len(s.switches) > 10 and len(s.invariants) > 5


def test_every_option_and_chance_event_of_the_spec_is_in_the_rulebook(site: Path, rules: Game) -> None:
    found = ids(page(site, "rulebook"))
    english = English(rules.checked)
    count = 0
    for proc in rules.symbols.procedures.values():
        for anchor, node, _ in english.options_of(proc):
            count += 1
            assert label(anchor) in found, anchor
            assert isinstance(node, (A.Option, A.Chance))
    assert count >= 20


def test_rulebook_keeps_the_rulebooks_order(site: Path) -> None:
    text = page(site, "rulebook")
    positions = []
    # headings without their markup; Ⓐ/Ⓑ/Ⓒ are drawn as a letter in a circle (docs/_ext/circled.py)
    headings = [(m.start(), re.sub(r"<[^>]+>", "", m.group(1))) for m in re.finditer(r"<h2>(.*?)</h2>", text)]
    for chapter in CHAPTERS:
        want = html.escape(unicodedata.normalize("NFKC", chapter.title), quote=False)
        found = [at for at, heading in headings if heading.startswith(want)]
        assert found, chapter.title
        positions.append(found[0])
    assert positions == sorted(positions)

    def chapter_at(anchor: str) -> str:
        where = text.index(f'id="{label(anchor)}"')
        return [c.key for c, p in zip(CHAPTERS, positions) if p < where][-1]

    assert chapter_at("rule:start_tokens") == "setup"
    assert chapter_at("option:player_turn:take:1") == "a"
    assert chapter_at("option:player_turn:place:1") == "b"
    assert chapter_at("rule:three_per_region") == "c"
    assert chapter_at("option:player_turn:king:1") == "cards"
    assert chapter_at("option:player_turn:plague:2") == "cards"  # the Knight's two steps
    assert chapter_at("rule:tie_break") == "end"


def test_every_rulebook_item_finds_its_chapter(rules: Game) -> None:
    items = Rulebook(rules).items()
    assert {i.chapter.key for i in items} == {c.key for c in CHAPTERS}
    assert not [i.anchor for i in items if i.chapter.key == "other"]


def test_rulebook_shows_english_beside_the_german_citations(site: Path, rules: Game) -> None:
    text = html.unescape(re.sub(r"<[^>]+>", "", page(site, "rulebook")))
    for rule in rules.symbols.rules.values():
        for c in rule.citations:
            assert c.quote in text
    assert "the number of rat tokens in q is less than 3" in " ".join(text.split())
    assert 'class="rules-de docutils container"' in page(site, "rulebook")


def test_switch_table_shows_defaults_alternatives_and_citations(site: Path, rules: Game) -> None:
    text = html.unescape(re.sub(r"<[^>]+>", "", page(site, "interpretations")))
    for switch in rules.switches.values():
        assert switch.ident in text
        for option in switch.options:
            assert option.value in text and option.description in text
            for c in option.citations:
                assert c.quote in text


def test_component_tables_mark_each_fact(rules: Game) -> None:
    text = PAGES["components"](rules)
    for name, table in rules.tables.items():
        verified = sum(rules.verified(name, k) for k in table.keys)
        assert f"{verified} of {len(table.keys)} rows verified" in text
    total = sum(len(t.keys) for t in rules.tables.values())
    assert text.count("**verified**") + text.count("*reconstructed*") == total
    assert text.count("**verified**") == sum(rules.verified(n, k) for n, t in rules.tables.items() for k in t.keys)


def test_pictures_language_cli_and_api_pages(site: Path) -> None:
    pictures = page(site, "pictures")
    assert pictures.count("<svg") >= 2 and 'class="region"' in pictures
    language = page(site, "language")
    for rule in grammar_rules().values():
        if rule.doc:
            assert f"rules-grammar-{rule.name.replace('_', '-')}" in language
    assert 'class="highlight-rules' in language
    cli = page(site, "cli")
    for action in build_parser()._subparsers._group_actions:  # type: ignore[union-attr]
        for name in action.choices:  # type: ignore[union-attr]
            assert f'id="rules-cli-{name}"' in cli
    api = page(site, "api")
    for name in modules("rattus_rules") + modules("interpreter"):
        assert f'id="module-{name}"' in api


def test_language_reference_shows_each_construct_in_use_and_in_english(rules: Game) -> None:
    from rattus_rules.games.rattus.refpages import language_rst
    from rattus_rules.tools.docs.refgen import GRAMMAR_NODES, spec_example

    documented = {name for name, r in grammar_rules().items() if r.doc}
    assert set(GRAMMAR_NODES) <= set(grammar_rules())
    text = language_rst(rules)
    shown = 0
    for name in GRAMMAR_NODES:
        found = spec_example(rules, name)
        if found is None:
            continue
        lines = found[1]
        shown += 1
        assert lines[0].split()[0] in grammar_keywords() or name in ("assign_stmt", "call_stmt")
        if name in documented:
            assert "\n".join("   " + line if line else "" for line in lines) in text, name
    assert shown >= 30
    assert text.count("which the rulebook reads as:") >= 25


def test_generated_parts_are_deterministic(rules: Game) -> None:
    for name, make in PAGES.items():
        assert make(rules) == make(rules), name


# ------------------------------------------------------------- pictures


def test_board_picture_shows_every_region_and_edge_of_the_data(rules: Game) -> None:
    root = ET.fromstring(board_svg(rules))
    regions = {g.get("data-region"): g.get("data-players") for g in root.iter(f"{SVG}g")
               if g.get("class") == "region"}
    table = rules.tables["regions"]
    assert set(regions) == set(table.keys)
    for key in table.keys:
        assert regions[key] == str(table.row(key)["first_used_with_players"])
    edges = {}
    for line in root.iter(f"{SVG}line"):
        cls = (line.get("class") or "").split()
        if "edge" in cls:
            edges[frozenset((line.get("data-a"), line.get("data-b")))] = "verified" in cls
    adjacency = rules.tables["adjacency"]
    wanted = {frozenset((r["region_a"], r["region_b"])): rules.verified("adjacency", r[adjacency.key])
              for r in adjacency.rows}
    assert edges == wanted
    assert any(wanted.values()) and not all(wanted.values())


def test_board_picture_follows_corrected_data(tmp_path: Path) -> None:
    shipped = ROOT / "spec" / "rattus" / "data" / "board.csv"
    lines = shipped.read_text(encoding="utf-8").splitlines()
    lines = [lines[0], *[line.replace("reconstruction (geography)", "checked on the board") for line in lines[1:]]]
    (tmp_path / "board.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    game = load_rules(tmp_path)
    verified = [e for e in board_edges(game) if e.verified]
    root = ET.fromstring(board_svg(game))
    drawn = [line for line in root.iter(f"{SVG}line") if "verified" in (line.get("class") or "").split()]
    assert len(drawn) == len(verified) > len([e for e in board_edges(load_rules()) if e.verified])


def test_state_picture_shows_cubes_tokens_plague_castle_and_cards() -> None:
    state = random_state(4, seed=2, moves=90)
    root = ET.fromstring(state_svg(state))
    groups = list(root.iter(f"{SVG}g"))
    regions = {g.get("data-region"): g for g in groups if g.get("class") == "region"}
    in_play = state.world.nodes["board"]
    assert set(regions) == set(load_rules().tables["regions"].keys)
    for r in in_play:
        g = regions[r]
        assert g.get("data-in-play") == "yes"
        assert g.get("data-cubes") == " ".join(str(state.vals["cubes"][(p, r)]) for p in state.seats)
        assert g.get("data-tokens") == str(len(state.zones["rats"][r]))
        assert (g.get("data-plague") == "yes") == (r == state.vals["plague"][None])
    players = {g.get("data-player"): g for g in groups if g.get("class") == "player"}
    holders = state.vals["holder"]
    for p in state.seats:
        g = players[str(p)]
        assert g.get("data-supply") == str(state.vals["supply"][p])
        assert g.get("data-cards") == " ".join(c for c, h in holders.items() if h == p)
    castle = next(g for g in groups if g.get("class") == "castle")
    assert castle.get("data-cubes") == " ".join(str(state.vals["castle"][p]) for p in state.seats)
    tokens = next(g for g in groups if g.get("class") == "tokens")
    assert tokens.get("data-stock") == str(len(state.zones["stock"][None]))
    assert tokens.get("data-revealed") == str(len(state.zones["out"][None]))
    assert any(h is not None for h in holders.values())


def test_render_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "board", "-o", str(tmp_path / "board.svg")]) == 0
    ET.parse(tmp_path / "board.svg")
    assert main(["render", "state", "--players", "3", "--seed", "4", "--moves", "25"]) == 0
    drawn = capsys.readouterr().out
    assert drawn == state_svg(random_state(3, 4, 25))
    stored = tmp_path / "state.json"
    state = random_state(2, 1, 10)
    stored.write_text(json.dumps(state.to_json()), encoding="utf-8")
    assert main(["render", "state", "--from", str(stored), "-o", str(tmp_path / "s.svg")]) == 0
    assert (tmp_path / "s.svg").read_text(encoding="utf-8") == state_svg(state)
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    assert main(["render", "state", "--from", str(tmp_path / "bad.json")]) == 2
    assert main(["render", "state", "--players", "5"]) == 2
    assert main(["render", "state", "--moves", "-1"]) == 2
    assert "rattus:" in capsys.readouterr().err


# ------------------------------------------------------------ English


def test_english_renders_every_statement_without_spec_syntax(rules: Game) -> None:
    kinds = set()
    for f in rules.checked.files:
        for d in f.declarations:
            if isinstance(d, A.ProcedureDecl):
                stack = list(d.body.statements)
                while stack:
                    st = stack.pop()
                    kinds.add(type(st).__name__)
                    for b in interpreter.english.child_blocks(st):
                        stack.extend(b.statements)
    assert kinds >= {"Let", "Assign", "If", "While", "Loop", "For", "Break", "CallProc", "Choose", "Chance", "Move",
                     "Reveal", "Look", "Swap", "Begin", "Use", "Finish", "Rule"}
    english = English(rules.checked, VOCABULARY)
    text = "\n".join(render_plain(english.procedure(p)) for p in rules.symbols.procedures.values())
    text += "\n".join(english.function(f) for f in rules.symbols.functions.values())
    text += "\n".join(english.declaration(d) for d in [*rules.symbols.invariants.values(),
                                                        *rules.symbols.checks.values()])
    for token in ("==", "!=", "<=", ">=", "+=", "-=", "..", "[", "]", "{", "}", "//"):
        assert token not in text, token
    assert "Repeat" in text and "chooses one of" in text and "Chance" in text


def test_every_rule_appears_in_the_english_with_its_citations(rules: Game) -> None:
    english = English(rules.checked)
    steps = [s for p in rules.symbols.procedures.values() for s in walk_steps(english.procedure(p))]
    named = {s.name: s for s in steps if s.kind == "rule"}
    assert set(named) == set(rules.symbols.rules)
    for name, rule in rules.symbols.rules.items():
        assert named[name].citations == rule.citations


def test_english_renderer_knows_no_rattus() -> None:
    text = Path(interpreter.english.__file__).read_text(encoding="utf-8").lower()
    for word in ("rattus", "plague", "region", "cube", "castle", "knight", "rat token", "rulebook"):
        assert word not in text, word


def test_english_module_examples() -> None:
    result = doctest.testmod(interpreter.english)
    assert result.attempted > 0 and result.failed == 0


def test_vocabulary_names_what_the_spec_declares(rules: Game) -> None:
    s = rules.symbols
    names = VOCABULARY.names()
    assert set(names["states"]) <= set(s.states)
    assert set(names["zones"]) <= set(s.zones)
    assert set(names["functions"]) <= set(s.functions)
    assert set(names["procedures"]) <= set(s.procedures)
    assert set(names["limits"]) <= set(s.limits)
    assert set(names["nouns"]) <= {*s.tables, *s.enums, *s.pieces, *s.graphs}
    columns = {c.name for t in s.tables.values() for c in t.columns} | {t.provenance for t in s.tables.values()}
    assert set(names["columns"]) <= columns


def test_the_generic_english_needs_no_vocabulary() -> None:
    from interpreter import load_spec

    game = load_spec(DOCS / "examples" / "pebbles")
    english = English(game.checked)
    text = render_plain(english.procedure(game.symbols.procedures["play"]))
    assert "The start player" not in text and "Let p be the start player." in text
    assert "any n from 1 to 3 such that n is at most the pile" in text
    assert "If the interpretation last-pebble is “wins”, the game ends; the winner is p." in text


# ------------------------------------------------------------- lexer


def test_lexer_highlights_every_keyword_and_every_spec_file() -> None:
    from pygments.token import Error, Keyword, Name, Operator

    from rattus_rules.tools.docs.lexer import AGGREGATE_WORDS, DECLARATION_WORDS

    lexer = RulesLexer()
    for word in grammar_keywords():
        if word in DECLARATION_WORDS:
            sample = f"{word} x"
        elif word in AGGREGATE_WORDS:
            sample = f"x = {word}(q in players: y)"
        else:
            sample = f"x {word} y"
        kinds = [k for k, v in lexer.get_tokens(sample) if v == word]
        assert kinds and (kinds[0] in Keyword or kinds[0] in Operator.Word or kinds[0] in Name.Builtin), word
    for path in sorted((ROOT / "spec" / "rattus").glob("*.rules")) + [DOCS / "examples" / "pebbles" / "pebbles.rules"]:
        text = path.read_text(encoding="utf-8")
        tokens = list(lexer.get_tokens(text))
        assert not [v for k, v in tokens if k in Error], path
        assert "".join(v for _, v in tokens) == text if text.endswith("\n") else True


def test_lexer_is_registered_with_pygments() -> None:
    from pygments.lexers import get_lexer_by_name

    assert isinstance(get_lexer_by_name("rules"), RulesLexer)


def test_rulebook_anchors_cover_every_declaration_kind(rules: Game) -> None:
    known = Rulebook(rules).known
    assert {a.partition(":")[0] for a in known} == {"procedure", "function", "rule", "switch", "invariant", "check",
                                                    "option"}
    assert new_game(2, seed=1).decision_rule() in {a.split(":")[1] for a in known if a.startswith("rule:")}
