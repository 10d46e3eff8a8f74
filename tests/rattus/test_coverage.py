"""Every sentence of the rulebook accounted for: cited by the spec, or waived with a reason.

The shipped specs keep their sources' text (``text`` declarations) and pass
``rattus check --strict``; an example waiver names a scenario that cites the
sentences it waives; the kept text is the seed's (where the seeds are found);
and on a toy spec, each way a waiver or citation can be wrong is a spec error,
and a sentence accounted for neither way fails ``--strict``.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import get_args

import pytest

from interpreter import Game, SpecError, load_spec
from interpreter import ast as A
from interpreter.sourcetext import SourceText, normalise
from rattus_rules import load_rules
from rattus_rules.cli import main
from rattus_rules.tools import coverage as C
from rattus_rules.tools.scenario import ScenarioError, parse_text

from ..conftest import ROOT, SHARED
from ..language.test_exhaustive import _match_cases

NIM = ROOT / "tests" / "language" / "specs" / "nim"
GAMES = ["rattus", "ratten_scharf"]


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_specs_account_for_every_sentence(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", game, "check", "--strict"]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert "0 neither" in out and "not accounted for" not in out
    assert main(["--game", game, "check", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    figures = report["coverage"]
    assert report["complete"] is True
    assert figures["sentences"] == figures["cited"] + figures["waived"] > 50
    assert figures["unaccounted"] == figures["unmatched_citations"] == figures["cited_and_waived"] == 0
    assert figures["waived"] == len(figures["waived_sentences"])
    assert all(w["reasons"] for w in figures["waived_sentences"])


def test_the_rulebook_is_mostly_cited() -> None:
    """Rattus's rulebook (seed 000) is carried out by rules, not waived: only story, credits and examples are."""
    cov = C.coverage(load_rules())
    book = [a for a in cov.sentences if a.source == "rulebook"]
    assert len(book) > 150
    waived = [a for a in book if a.status == "waived"]
    assert {w.reason for a in waived for w in a.waived} <= {"flavour", "example", "summary"}
    assert sum(1 for a in waived if any(w.reason == "summary" for w in a.waived)) <= 2
    assert sum(1 for a in book if a.status == "cited") >= 100


@pytest.mark.parametrize("game", GAMES)
def test_example_waivers_name_a_test_that_cites_them(game: str) -> None:
    """An example waiver names a scenario file that cites each waived sentence, or a test function that exists."""
    rules = load_rules(game=game)
    examples = [w for w in rules.symbols.waivers if w.reason == "example"]
    for w in examples:
        assert w.where is not None
        path, _, function = w.where.partition("::")
        file = ROOT / path
        assert file.is_file(), f"{w.pos}: {w.where} does not exist"
        if function:
            assert re.search(rf"^def {re.escape(function)}\(", file.read_text(encoding="utf-8"), re.M), w.where
            continue
        scn = parse_text(file.read_text(encoding="utf-8"), path, rules, ("tokens", "cubes", "castle", "supply",
                                                                           "cards", "plague", "turn", "done", "used",
                                                                           "out", "stock", "final"))
        text = SourceText(rules.symbols.texts[w.source])
        cited = {i for c in scn.citations for i in (text.find(c) or ())}
        for c in w.sentences():
            assert set(text.find(c) or ()) <= cited, f"{w.where} does not cite {c.quote!r}"


@pytest.mark.parametrize("game, source", [("rattus", "rulebook"), ("rattus", "ksr"), ("ratten_scharf", "rules")])
def test_the_kept_text_is_the_seed(game: str, source: str) -> None:
    """Each kept sentence stands in the seed, in order, and what is left of the seed is headings and list marks."""
    rules = load_rules(game=game)
    prefix = rules.symbols.sources[source].file
    matches = sorted((SHARED / "seeds").glob(f"{prefix}_*.txt"))
    if not matches:
        pytest.skip(f"source text {prefix} not found beside the project")
    seed = normalise(re.sub(r"</?u>", "", matches[0].read_text(encoding="utf-8")))
    text = SourceText(rules.symbols.texts[source])
    position = 0
    rest = []
    for s in text.sentences:
        found = seed.find(normalise(s.text), position)
        assert found >= 0, f"{source} {s.section!r}: {s.text!r} is not in the seed after what comes before it"
        rest.append(seed[position:found])
        position = found + len(normalise(s.text))
    rest.append(seed[position:])
    left = " ".join(rest)
    for title, _ in text.sections:
        left = left.replace(title, " ")
    words = [w for w in left.split() if re.search(r"\w", w)]
    assert len(words) <= 40, f"words of the seed not kept: {words}"


def test_the_coverage_pass_names_every_declaration() -> None:
    names, ends = _match_cases(C._declaration_citers)
    assert ends
    assert not {c.__name__ for c in get_args(A.Declaration)} - names


# ------------------------------------------------------------------ a toy spec

TEXT = '''
text book {
  section "Rules"
    "Two or three players take turns."
    "Take one, two or three counters."
    "Whoever takes the last counter wins."
    "The heap holds counters."
  section "Story"
    "Long ago, counters were rare."
}
'''


def toy(tmp_path: Path, extra: str) -> Path:
    """Nim with its book's text kept, and more declarations."""
    folder = tmp_path / "nim"
    shutil.copytree(NIM, folder)
    (folder / "text.rules").write_text(TEXT + extra, encoding="utf-8")
    return folder


def problems(folder: Path) -> list[str]:
    with pytest.raises(SpecError) as err:
        load_spec(folder)
    return [d.message for d in err.value.diagnostics]


def test_a_sentence_accounted_for_neither_way_fails_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = toy(tmp_path, "")
    assert main(["check", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "1 neither" in out and "not accounted for: book 'Story': \"Long ago, counters were rare.\"" in out
    assert main(["check", "--strict", str(folder)]) == 1
    capsys.readouterr()
    (folder / "waive.rules").write_text('waive book "Story" "Long ago, counters were rare." because flavour\n')
    assert main(["check", "--strict", str(folder)]) == 0
    assert "4 cited, 1 waived (1 flavour), 0 neither" in capsys.readouterr().out


def test_a_waiver_of_a_cited_sentence_fails_strict(tmp_path: Path) -> None:
    folder = toy(tmp_path, 'waive book "Story" "Long ago" because flavour\n'
                           'waive book "Rules" "The heap holds counters." because component "counters"\n')
    cov = C.coverage(load_spec(folder))
    assert [a.sentence.text for a in cov.cited_and_waived] == ["The heap holds counters."]
    assert not cov.complete
    assert main(["check", "--strict", str(folder)]) == 1


@pytest.mark.parametrize("extra, message", [
    ('waive book "Rules" "Nobody wins." because flavour\n', "waiver: the sentence is not in section 'Rules'"),
    ('waive book "Rulez" "Take one" because flavour\n', "book has no section 'Rulez' (did you mean 'Rules'?)"),
    ('waive book "Story" "Long ago" because boring\n', "unknown reason 'boring'"),
    ('waive book "Story" "Long ago" because flavour "x"\n', "a waiver because flavour names nothing else"),
    ('waive book "Story" "Long ago" because example\n', "a waiver because example names the scenario test"),
    ('waive book "Story" "Long ago" because component "heap"\n', "'heap' is no data table or check"),
    ('waive book "Story" "Long ago" because summary "Epilogue"\n', "'Epilogue' is no section of a source text"),
    ('waive other "Story" "Long ago" because flavour\n', "waiver names an unknown source 'other'"),
    ('text other { }\n', "text of an unknown source 'other'"),
    ('text book { }\n', "text of source 'book' is declared twice"),
])
def test_each_wrong_waiver_or_text_is_a_spec_error(tmp_path: Path, extra: str, message: str) -> None:
    found = problems(toy(tmp_path, extra))
    assert any(message in p for p in found), found


def test_a_cite_of_a_sentence_not_in_the_kept_text_is_a_spec_error(tmp_path: Path) -> None:
    folder = toy(tmp_path, "")
    rules = folder / "nim.rules"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        '"Take one, two or three counters."', '"Take one, two or four counters."'), encoding="utf-8")
    found = problems(folder)
    assert any("citation: the sentence is not in section 'Rules' of book: 'Take one, two or four counters.'; "
               "the nearest sentence there is 'Take one, two or three counters.'" in p for p in found), found


def test_without_a_kept_text_citations_are_not_matched(capsys: pytest.CaptureFixture[str]) -> None:
    game = load_spec(NIM)
    cov = C.coverage(game)
    assert cov.sentences == () and cov.complete and C.report(cov) == []
    assert main(["check", "--strict", str(NIM)]) == 0


def test_a_scenario_cites_its_passage(tmp_path: Path) -> None:
    game: Game = load_spec(toy(tmp_path, ""))
    scn = parse_text('players 2\ncite book "Rules" "Take one, two or three counters."\nP0 take 1\n', "t.scn", game, ())
    assert [c.quote for c in scn.citations] == ["Take one, two or three counters."]
    more = [(C.Citer("scenario", "t.scn", "", c.pos), c) for c in scn.citations]
    cov = C.coverage(game, more)
    taken = next(a for a in cov.sentences if a.sentence.text.startswith("Take"))
    assert [c.kind for c in taken.cited_by] == ["option", "scenario"]
    for bad, message in [('cite book "Rules" "Take four."', "the sentence is not in section 'Rules'"),
                         ('cite bok "Rules" "Take one"', "names no source 'bok'"),
                         ('cite book "Rules"', 'write `cite SOURCE "section" "sentence"`')]:
        with pytest.raises(ScenarioError, match=re.escape(message)):
            parse_text(f"players 2\n{bad}\n", "t.scn", game, ())
