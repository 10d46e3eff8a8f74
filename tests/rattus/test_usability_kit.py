"""Issue 28, the kit as an engine author reads it: the decision model shipped as text, the engine
subset's drop/quit/save/load, forced and drawn outcomes under the seed rule, the token meant by a
shared face, the Witch's swap, `unsupported` counted as SKIP, and `rule` in the README's examples."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest

from rattus_rules import load_rules, new_game
from rattus_rules.cli import main
from rattus_rules.games.rattus.kit import mixed_vector
from rattus_rules.games.rattus.modelgen import PAGES
from rattus_rules.games.rattus.modeltext import rst_to_markdown
from rattus_rules.tools.kit.kit import check

from ..conftest import ROOT

KIT = ROOT / "conformance"
_RST_LITERAL = re.compile(r"(?<!`)``(?!`)")  # an inline literal of reStructuredText, not a Markdown fence
MODEL = (KIT / "decision-model.md").read_text(encoding="utf-8")


def test_the_kit_exports_the_decision_model_as_markdown(tmp_path: Path) -> None:
    assert main(["conformance", "export", str(tmp_path / "kit")]) == 0
    shipped = (tmp_path / "kit" / "decision-model.md").read_text(encoding="utf-8")
    assert shipped == MODEL
    assert "rattus-generated" not in shipped and not _RST_LITERAL.search(shipped) and ":ref:" not in shipped
    assert ":doc:" not in shipped and not re.search(r"^\s*\.\. ", shipped, re.MULTILINE)  # no directive left
    table_rows = [line for line in shipped.splitlines() if line.startswith("| `")]
    for verb in ("take", "place", "place-extra", "spread", "witch-swap", "start-token", "remove", "draw",
                 "plague-start", "final-reveal"):
        assert any(row.startswith(f"| `{verb}`") for row in table_rows), verb
    assert "0x9E3779B97F4A7C15" in shipped and "```text" in shipped
    assert "The shipped tables hash to `" in shipped
    readme = (KIT / "README.md").read_text(encoding="utf-8")
    assert "**`decision-model.md`**" in readme


def test_the_markdown_of_the_model_refuses_what_it_cannot_say() -> None:
    assert rst_to_markdown("A\n=\n\nx ``y`` :ref:`z\\_w <anchor>`\n") == "# A\n\nx `y` z_w\n"
    with pytest.raises(ValueError, match="no Markdown for"):
        rst_to_markdown(".. image:: board.png\n")
    for name, part in PAGES.items():
        assert not _RST_LITERAL.search(rst_to_markdown(part(load_rules()))), name


def test_the_engine_subset_names_drop_quit_save_load_and_opaque_states() -> None:
    for text in ((KIT / "README.md").read_text(encoding="utf-8"),
                 (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")):
        flat = " ".join(text.split())
        assert "`drop`" in flat and ("`quit`" in flat or '{"cmd": "quit"}' in flat)
        assert "opaque" in flat and "`unsupported`" in flat
        assert re.search(r"`commands` of (the|your) (engine's )?`hello` answer", flat), "save/load detection"


def test_every_status_example_of_the_kit_readme_has_its_rule() -> None:
    readme = (KIT / "README.md").read_text(encoding="utf-8")
    answers = [line for line in readme.splitlines() if '"to_move"' in line and line.startswith("| `{")]
    assert len(answers) >= 3
    for line in answers:
        for example in re.findall(r"`(\{\"ok\": true[^`]*\})`", line):
            if '"to_move"' in example:
                assert '"rule"' in example, example


# ----------------------------------------------------------------- forced and drawn
def test_the_mixed_vector_forces_a_shared_face_and_draws_around_it() -> None:
    vector = mixed_vector()
    shipped = [v for v in json.loads((KIT / "perft.json").read_text(encoding="utf-8"))["vectors"] if "forced" in v]
    assert shipped == [vector]
    forced = [vector["setup"][i]["action"] for i in vector["forced"]]
    assert any(action.startswith("remove 6:M+monk+king") for action in forced)  # a face of tokens 40 and 42
    drawn = [e for i, e in enumerate(vector["setup"]) if e.get("by") == "chance" and i not in vector["forced"]]
    assert len(drawn) > 5


_FAKE = '''
import json, sys
sys.path.insert(0, {root!r})
from rattus_rules.tools.kit.referee import referee_session
session = referee_session()
kind = {kind!r}
for line in sys.stdin:
    request = json.loads(line)
    game = session.games.get(request.get("game")) if isinstance(request.get("game"), str) else None
    if kind == "unsupported" and request.get("cmd") == "new" and request.get("switches"):
        error = {{"code": "unsupported", "message": "no such reading"}}
        answer = {{"id": request.get("id"), "ok": False, "error": error}}
    else:
        if request.get("cmd") == "apply" and game is not None and game.state.is_chance_node():
            if kind == "stepper":
                game.state.random_chance_index()  # steps the generator for a forced outcome
            if kind == "other-token":
                game.refresh()
                same = [i for i, t in enumerate(game.texts) if t == request["action"]]
                if len(same) > 1:
                    request = {{"cmd": "apply", "id": request.get("id"), "game": request["game"], "index": same[-1]}}
        answer = session.answer(request)
    print(json.dumps(answer), flush=True)
    if request.get("cmd") == "quit":
        break
'''


def _engine(tmp_path: Path, kind: str) -> str:
    script = tmp_path / f"{kind}.py"
    script.write_text(_FAKE.format(root=str(ROOT), kind=kind), encoding="utf-8")
    return f"{sys.executable} {script}"


@pytest.mark.parametrize("kind", ["stepper", "other-token"])
def test_an_engine_reading_the_forced_outcomes_otherwise_fails_the_mixed_vector(tmp_path: Path, kind: str) -> None:
    honest = list(check(_engine(tmp_path, "honest"), only="-forced", perft_depth=1))
    assert [r.format() for r in honest] == ["PASS perft/2p-seed3-seed-forced"]
    results = list(check(_engine(tmp_path, kind), only="-forced", perft_depth=1))
    assert len(results) == 1 and not results[0].passed
    assert "the seed rule draws" in results[0].detail


def test_an_unsupported_answer_is_a_skip_not_a_fail(tmp_path: Path) -> None:
    results = list(check(_engine(tmp_path, "unsupported"), only="golden/", perft_depth=1))
    switched = [r for r in results if "placed-per-round" in r.name or "chosen-by-last" in r.name]
    plain = [r for r in results if r not in switched]
    assert switched and all(r.skipped and r.passed and "does not support `new`" in r.detail for r in switched)
    assert plain and all(r.passed and not r.skipped for r in plain)
    assert all(r.format().startswith("SKIP") for r in switched)


def test_a_forced_outcome_does_not_step_the_generator() -> None:
    forced = load_rules().new_state(2, seed=9)
    forced.apply(forced.legal_action_texts()[-1])  # forced by its text: no step
    assert forced.rng == 9
    twin = load_rules().new_state(2, seed=9)
    twin.random_chance_index()
    forced.random_chance_index()
    assert forced.rng == twin.rng  # the first draw after a forced outcome is the generator's first output


# ----------------------------------------------------------------- the Witch's swap
def test_the_witch_swap_exchanges_places_and_keeps_every_other_order() -> None:
    model = " ".join((ROOT / "docs" / "decision-model.rst").read_text(encoding="utf-8").split())
    assert "the two tokens **exchange places**" in model
    for seed in range(200):
        state = new_game(4, seed=seed)
        chooser = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_random_chance()
                continue
            texts = state.legal_action_texts()
            witch = [i for i, t in enumerate(texts) if t.startswith(("witch ", "witch-look", "witch-swap"))]
            index = witch[0] if witch and chooser.random() < 0.9 else chooser.randrange(len(texts))
            if texts[index] == "witch-swap":
                before = {k: list(v) for k, v in state.zones["rats"].items()}
                state.apply_index(index)
                after = state.zones["rats"]
                changed = {k for k in before if before[k] != after[k]}
                moved = [(k, i) for k in changed for i, (a, b) in enumerate(zip(before[k], after[k])) if a != b]
                assert len(moved) in (0, 2) and all(len(before[k]) == len(after[k]) for k in before)
                if len(moved) == 2:
                    (ka, ia), (kb, ib) = moved
                    assert before[ka][ia] == after[kb][ib] and before[kb][ib] == after[ka][ia]
                    return
                continue
            state.apply_index(index)
    pytest.fail("no witch-swap of two tokens in 200 games")
