"""The conformance kit: it ships, exports, its files follow their schemas, and `rattus conformance check`
passes the referee and fails an engine that differs, naming the first difference."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from rattus_rules import new_game
from rattus_rules.algorithms.agents import RandomPlayer
from rattus_rules.cli import main
from rattus_rules.tools.kit.conformance import loads_golden
from rattus_rules.tools.kit.kit import EngineTimeout, check, kit_dir
from rattus_rules.tools.kit.schemas import validator

REFEREE = f"{sys.executable} -m rattus_rules serve"


def test_the_kit_exports_with_its_readme_and_schemas(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "export", str(tmp_path / "kit")]) == 0
    kit = tmp_path / "kit"
    assert "rattus conformance check" in (kit / "README.md").read_text(encoding="utf-8")
    assert (kit / "perft.json").is_file() and (kit / "games" / "expected.json").is_file()
    assert list((kit / "golden").glob("*.json")) and (kit / "clients" / "referee_client.js").is_file()
    assert {p.name for p in (kit / "schema").glob("*.json")} >= {"protocol.schema.json", "state.schema.json",
                                                                  "observation.schema.json", "golden.schema.json",
                                                                  "perft.schema.json", "record.schema.json"}
    assert "wrote" in capsys.readouterr().out
    assert main(["conformance", "check", "--engine", REFEREE, str(tmp_path)]) == 2


def test_kit_files_follow_their_schemas() -> None:
    kit = kit_dir()
    validator("perft").validate(json.loads((kit / "perft.json").read_text(encoding="utf-8")))
    for path in (kit / "golden").glob("*.json"):
        validator("golden").validate(json.loads(path.read_text(encoding="utf-8")))
        loads_golden(path.read_text(encoding="utf-8"))
    for path in (kit / "games").glob("*.json"):
        if path.name != "expected.json":
            validator("record").validate(json.loads(path.read_text(encoding="utf-8")))
    broken = json.loads((kit / "perft.json").read_text(encoding="utf-8"))
    broken["vectors"][0]["chance"] = "whatever"
    assert not validator("perft").is_valid(broken)


def test_states_and_observations_follow_their_schemas() -> None:
    state = new_game(3, seed=9)
    player = RandomPlayer(9)
    states, seen = validator("state"), validator("observation")
    step = 0
    while not state.is_terminal():
        if step % 25 == 0:
            states.validate(json.loads(json.dumps(state.to_json())))
            for p in range(3):
                seen.validate(json.loads(json.dumps(state.observation(p))))
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_index(player.choose(state))
        step += 1
    states.validate(json.loads(json.dumps(state.to_json())))
    assert not states.is_valid({**state.to_json(), "rng": -1})


def test_the_referee_passes_its_own_kit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "check", "--engine", REFEREE, "--perft-depth", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"\d+ passed, 0 failed, 3 skipped", out[-1]), out[-1]
    names = [line.split()[1].rstrip(":") for line in out[:-1]]
    assert any(n.startswith("perft/") for n in names) and any(n.startswith("golden/") for n in names)
    # the players-eye record checks validators, not engines: it is named as skipped, not as passed
    skipped = [line for line in out[:-1] if not line.startswith("PASS ")]
    assert skipped == [f"SKIP games/legal-{n}p-players-eye: a players-eye record hides draws; it checks "
                       "validators, not engines" for n in (2, 3, 4)], skipped
    assert "games/illegal-wrong-reveal" in names


def test_a_vector_for_validators_starts_no_engine(tmp_path: Path) -> None:
    # a players-eye record is SKIP for any engine: none is started for it (a command that cannot start
    # would be an engine error, and every engine started costs a process)
    missing = tmp_path / "no-such-engine"
    results = list(check(str(missing), only="players-eye"))
    assert [r.format() for r in results] == [
        f"SKIP games/legal-{n}p-players-eye: a players-eye record hides draws; it checks validators, not engines"
        for n in (2, 3, 4)]


def test_the_full_perft_depth_of_one_vector() -> None:
    (result,) = check(REFEREE, only="perft/2p-seed1-first", perft_depth=3)
    assert result.passed, result.detail




#: An engine that is the referee but for ``CHANGE``: statements that alter each ``answer`` before it is sent.
CHANGED_REFEREE = """
import json, sys
from rattus_rules.tools.kit.referee import referee_session
session = referee_session()
for line in sys.stdin:
    answer = session.answer(json.loads(line))
CHANGE
    print(json.dumps(answer), flush=True)
    if session.closed:
        break
"""


def changed_referee(tmp_path: Path, change: str) -> str:
    """The command of an engine that is the referee but for ``change`` (see :data:`CHANGED_REFEREE`)."""
    script = tmp_path / "engine.py"
    script.write_text(CHANGED_REFEREE.replace("CHANGE", textwrap.indent(textwrap.dedent(change).strip(), "    ")),
                      encoding="utf-8")
    return f"{sys.executable} {script}"


def test_an_engine_that_differs_fails_with_the_first_difference(tmp_path: Path) -> None:
    engine = changed_referee(tmp_path, """
        if answer.get("ok") and len(answer.get("actions", [])) > 12:
            answer["actions"] = answer["actions"][:-1]   # this engine forgets one legal action
    """)
    (perft,) = check(engine, only="perft/2p-seed1-first", perft_depth=1)
    assert not perft.passed and "depth 1: the engine counts 15, the kit 16" in perft.detail
    (golden,) = check(engine, only="golden/2p-seed1")
    assert not golden.passed and "step " in golden.detail and "legal actions differ: missing [" in golden.detail
    (dead,) = check(f"{sys.executable} -c pass", only="golden/2p-seed1")
    assert not dead.passed and "engine" in dead.detail




def test_one_engine_checks_the_vectors_while_they_pass_and_a_failure_is_checked_again_alone(
        tmp_path: Path) -> None:
    # an engine is one process for the whole kit (a referee's start costs more than most vectors), each vector's
    # games dropped after it; a vector that fails there is checked again in a fresh process, whose verdict counts
    starts = tmp_path / "starts"
    count = f"""
        request = json.loads(line)
        if request.get("cmd") == "hello":
            with open({str(starts)!r}, "a") as f:
                f.write("x")
    """
    results = list(check(changed_referee(tmp_path, count), only="golden/"))
    assert len(results) == 5 and all(r.passed for r in results) and starts.read_text() == "x"
    starts.unlink()
    second_fails = count + """
        if request.get("cmd") == "new":
            news = globals()["news"] = globals().get("news", 0) + 1
            if news == 2:
                answer = {"ok": False, "error": {"code": "broken", "message": "a process's second game fails"}}
    """
    results = list(check(changed_referee(tmp_path, second_fails), only="golden/"))
    assert all(r.passed for r in results), [r.format() for r in results]
    assert starts.read_text() == "x" * 5  # the second vector of each process failed: checked again alone
    starts.unlink()
    always = changed_referee(tmp_path, count + """
        if request.get("cmd") == "legal" and answer.get("ok"):
            answer["actions"] = answer["actions"][1:]
    """)
    results = list(check(always, only="golden/"))
    assert not any(r.passed for r in results) and starts.read_text() == "x" * 5  # a fresh process for each
    without_drop = changed_referee(tmp_path, """
        if "commands" in answer:
            answer["commands"] = [c for c in answer["commands"] if c != "drop"]
    """)
    assert all(r.passed for r in check(without_drop, only="golden/"))


def test_fresh_engine_starts_a_process_for_every_vector(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # --fresh-engine: a process per vector, so that no pass can owe anything to what an earlier vector left
    starts = tmp_path / "starts"
    counted = changed_referee(tmp_path, f"""
        if json.loads(line).get("cmd") == "hello":
            with open({str(starts)!r}, "a") as f:
                f.write("x")
    """)
    assert all(r.passed for r in check(counted, only="golden/")) and starts.read_text() == "x"
    starts.unlink()
    results = list(check(counted, only="golden/", fresh_engine=True))
    assert len(results) == 5 and all(r.passed for r in results) and starts.read_text() == "x" * 5
    starts.unlink()
    code = main(["conformance", "check", "--fresh-engine", "--only", "golden/", "--engine", counted])
    out = capsys.readouterr().out
    assert code == 0 and out.endswith("5 passed, 0 failed\n") and starts.read_text() == "x" * 5, out


def test_an_engine_that_never_answers_a_drop_between_vectors_stops_the_check(tmp_path: Path) -> None:
    engine = changed_referee(tmp_path, """
        if json.loads(line).get("cmd") == "drop":
            import time
            time.sleep(60)
    """)
    results = check(engine, only="golden/2p-seed1", timeout=2)
    assert next(results).passed  # the vector passed; dropping its game is what got no answer
    with pytest.raises(EngineTimeout) as stopped:
        next(results)
    said = str(stopped.value)
    assert "golden/2p-seed1: the engine gave no answer within 2 s" in said and '"drop"' in said


def test_perft_of_an_engine_without_save_and_load_replays_each_position(tmp_path: Path) -> None:
    engine = changed_referee(tmp_path, """
        if "commands" in answer:
            answer["commands"] = [c for c in answer["commands"] if c not in ("save", "load")]
    """)
    for name in ("perft/3p-seed2-first", "perft/3p-seed2-seed"):
        (result,) = check(engine, only=name, perft_depth=2)
        assert result.passed, result.detail


SILENT = """
    import os, sys, time
    with open(sys.argv[1], "w") as f:
        f.write(str(os.getpid()))
    sys.stdin.readline()
    time.sleep(300)
"""


def test_an_engine_that_never_answers_is_killed_and_the_check_stops_with_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script, pid_file = tmp_path / "silent.py", tmp_path / "pid"
    script.write_text(textwrap.dedent(SILENT), encoding="utf-8")
    engine = f"{sys.executable} {script} {pid_file}"
    assert main(["conformance", "check", "--engine", engine, "--timeout", "0.5"]) == 2
    out, err = capsys.readouterr()
    assert "PASS" not in out and "FAIL" not in out        # it stops at the first silence, not once per vector
    assert "no answer within 0.5 s to request 1" in err and '"cmd": "hello"' in err and "perft/" in err
    assert "Traceback" not in err
    pid = int(pid_file.read_text(encoding="utf-8"))
    with pytest.raises(ProcessLookupError):                # killed and reaped, not left behind
        os.kill(pid, 0)


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "1e400", "x"])
def test_a_bad_timeout_is_a_usage_error(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conformance", "check", "--engine", REFEREE, "--timeout", value])
    assert code == 2 and "--timeout" in capsys.readouterr().err


def test_an_engine_or_kit_folder_that_cannot_be_used_is_named_without_errno_text(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "no-such-engine")
    assert main(["conformance", "check", "--engine", missing]) == 2
    assert capsys.readouterr().err.strip() == f"rattus: cannot start the engine {missing!r}: No such file or directory"
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    assert main(["conformance", "export", str(blocker / "kit")]) == 2
    assert capsys.readouterr().err.strip() == f"rattus: cannot write the kit to {blocker / 'kit'}: Not a directory"


#: An engine that answers every request with the same JSON object (``sys.argv[1]``), whatever was asked.
SAME_ANSWER = """
    import json, sys
    for line in sys.stdin:
        answer = json.loads(sys.argv[1])
        answer["id"] = json.loads(line).get("id")
        print(json.dumps(answer), flush=True)
"""


@pytest.mark.parametrize("answer", [
    {"ok": True},                                                                     # no game id
    {"ok": True, "commands": 5, "game": "g1", "to_move": 0},                          # commands not a list
    {"ok": True, "commands": [], "game": "g1", "to_move": 0, "actions": 7},           # actions not a list
    {"ok": True, "commands": [], "game": "g1", "to_move": "chance", "actions": ["a"], "revealed": 3},
    {"ok": True, "commands": ["save", "load", "drop"], "game": "g1", "to_move": 0, "actions": ["a"]},  # no state
])
def test_an_engine_whose_answers_are_out_of_protocol_fails_the_vector_not_the_check(
        tmp_path: Path, answer: dict[str, object], capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "same.py"
    script.write_text(textwrap.dedent(SAME_ANSWER), encoding="utf-8")
    engine = f"{sys.executable} {script} '{json.dumps(answer)}'"
    for only in ("perft/2p-seed1-seed", "perft/3p-seed2-first", "golden/2p-seed1"):
        assert main(["conformance", "check", "--engine", engine, "--only", only, "--perft-depth", "2"]) == 1
        out, err = capsys.readouterr()
        assert out.startswith(f"FAIL {only}: ") and out.endswith("0 passed, 1 failed\n") and not err


def test_an_engine_that_stays_at_chance_forever_fails_the_vector(tmp_path: Path) -> None:
    # the referee until a player's action listed by `legal` is applied; then every answer is "chance again",
    # at once (issue 24, item 5: the check spun at 100 % CPU until killed)
    engine = changed_referee(tmp_path, """
        request = json.loads(line)
        offered = globals().setdefault("offered", set())
        if request.get("cmd") == "legal" and answer.get("to_move") not in (None, "chance"):
            offered.update(answer.get("actions", []))
        if request.get("cmd") == "apply" and request.get("action") in offered or globals().get("forever"):
            globals()["forever"] = True
            answer = {"ok": True, "id": answer.get("id"), "game": request.get("game"), "to_move": "chance",
                      "actions": ["x"], "action": "x", "revealed": []}
    """)
    for name in ("perft/2p-seed1-first", "perft/2p-seed1-seed"):
        run = subprocess.run([sys.executable, "-m", "rattus_rules", "conformance", "check", "--engine", engine,
                              "--only", name, "--perft-depth", "2"], capture_output=True, text=True, timeout=120)
        assert run.returncode == 1 and not run.stderr, run.stderr
        assert run.stdout.startswith(f"FAIL {name}: ") and "more than 58 chance events in a row" in run.stdout
        assert "the kit's longest run is 21" in run.stdout, run.stdout


def test_an_engine_that_reaches_more_positions_than_the_kit_counts_fails_the_vector(tmp_path: Path) -> None:
    # honest at depth 1; then 1,000 more actions, each ending the game, so that the count stays right
    engine = changed_referee(tmp_path, """
        request = json.loads(line)
        if request.get("cmd") == "legal":
            globals()["legals"] = globals().get("legals", 0) + 1
            if globals()["legals"] > 1 and answer.get("ok"):
                answer["actions"] = answer["actions"] + [f"x{i}" for i in range(1000)]
        if request.get("cmd") == "apply" and str(request.get("action")).startswith("x"):
            answer = {"ok": True, "id": request.get("id"), "game": request["game"], "to_move": None,
                      "revealed": []}
        if "commands" in answer:
            answer["commands"] = [c for c in answer["commands"] if c not in ("save", "load")]
    """)
    (result,) = check(engine, only="perft/2p-seed1-first", perft_depth=2)
    assert not result.passed
    assert result.detail == "depth 2: the engine reaches more than 16 positions after 1 action(s); the kit counts 16"


def test_a_vector_is_bounded_in_requests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rattus_rules.tools.kit.kit.request_budget", lambda *args: 30)
    (result,) = check(REFEREE, only="golden/2p-seed1")
    assert not result.passed and result.detail.startswith("the vector needs more than 30 requests"), result.detail


@pytest.mark.parametrize(("change", "said"), [
    ('answer["id"] = 999999', "the engine answered request 1 ('hello') with the id 999999, not 1"),
    ('answer.pop("id", None)', "the engine answered request 1 ('hello') without its id"),
    ('answer["id"] = str(answer.get("id"))', "the engine answered request 1 ('hello') with the id \"1\", not 1"),
    ('answer["id"] = True', "with the id true, not 1"),
    # one answer sent twice: the second copy arrives where the next answer is due
    ('print(json.dumps(answer), flush=True) if json.loads(line).get("cmd") == "new" else None',
     "the engine sent a second answer to request 2 where the answer to request 3 ('legal') was due"),
])
def test_answer_ids_are_checked(tmp_path: Path, change: str, said: str) -> None:
    # issue 24, item 6: an engine answering every request with id 999999 passed; a doubled answer was
    # blamed as "step 2 legal actions differ"
    (result,) = check(changed_referee(tmp_path, change), only="golden/2p-seed1")
    assert not result.passed and result.detail.startswith("engine: ") and said in result.detail, result.detail


SPEWS = """
    import sys
    sys.stdin.readline()
    while True:
        sys.stdout.buffer.write(b"x" * 65536)
"""


def test_an_engine_that_writes_without_end_of_line_is_stopped_at_the_longest_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rattus_rules.tools.kit.kit.MAX_ANSWER_BYTES", 1_000_000)
    script = tmp_path / "spews.py"
    script.write_text(textwrap.dedent(SPEWS), encoding="utf-8")
    (result,) = check(f"{sys.executable} {script}", only="golden/2p-seed1", timeout=60)
    assert not result.passed and "answer to request 1 is longer than 1000000 bytes" in result.detail




def test_an_engine_whose_error_is_a_text_still_refuses_the_illegal_entry(tmp_path: Path) -> None:
    engine = changed_referee(tmp_path, """
        if not answer.get("ok"):
            answer["error"] = "no such action"   # a text, not the protocol's error object
    """)
    (result,) = check(engine, only="games/illegal-second-card")
    assert result.passed, result.detail


def _set(rel: str, key_path: tuple[object, ...], value: object) -> Callable[[Path], None]:
    """A tampering: set one value deep in a kit file's JSON."""
    def tamper(kit: Path) -> None:
        data = json.loads((kit / rel).read_text(encoding="utf-8"))
        target = data
        for key in key_path[:-1]:
            target = target[key]
        target[key_path[-1]] = value
        (kit / rel).write_text(json.dumps(data), encoding="utf-8")
    return tamper


def _text(rel: str, text: str) -> Callable[[Path], None]:
    """A tampering: replace a kit file's text."""
    return lambda kit: (kit / rel).write_text(text, encoding="utf-8")


def _outside(rel: str) -> Callable[[Path], None]:
    """A tampering: a kit file that is a link to a JSON file outside the kit folder."""
    def tamper(kit: Path) -> None:
        (kit.parent / "elsewhere.json").write_text((kit / rel).read_text(encoding="utf-8"), encoding="utf-8")
        (kit / rel).unlink()
        (kit / rel).symlink_to(kit.parent / "elsewhere.json")
    return tamper


GOLDEN, RECORD, EXPECTED = "golden/2p-seed1.json", "games/legal-2p-omniscient.json", "games/expected.json"
TAMPERED: dict[str, tuple[Callable[[Path], None], str]] = {
    "perft not JSON": (_text("perft.json", "{x"), "perft.json: "),
    "perft a list": (_text("perft.json", "[1, 2]"), "perft.json: "),
    "perft vectors not a list": (_set("perft.json", ("vectors",), 5), "perft.json: vectors: "),
    "perft vector a text": (_set("perft.json", ("vectors", 0), "a"), "perft.json: vectors/0: "),
    "perft players a text": (_set("perft.json", ("vectors", 0, "players"), "x"), "perft.json: vectors/0/players: "),
    "perft players too many": (_set("perft.json", ("vectors", 0, "players"), 99), "perft.json: vectors/0/players: "),
    "perft seed too large": (_set("perft.json", ("vectors", 0, "seed"), 10**30), "perft.json: vectors/0/seed: "),
    "perft unknown chance": (_set("perft.json", ("vectors", 0, "chance"), "zzz"), "perft.json: vectors/0/chance: "),
    "perft setup entry a number": (_set("perft.json", ("vectors", 0, "setup", 0), 5), "perft.json: vectors/0/setup/0"),
    "perft depths with a gap": (_set("perft.json", ("vectors", 0, "perft"), {"1": 3, "3": 5}), "perft.json: vectors/0"),
    "perft no depths": (_set("perft.json", ("vectors", 0, "perft"), {}), "perft.json: vectors/0"),
    "golden a list": (_text(GOLDEN, "[]"), f"{GOLDEN}: "),
    "golden record a list": (_set(GOLDEN, ("record",), [1]), f"{GOLDEN}: record: "),
    "golden seats a number": (_set(GOLDEN, ("record", "seats"), 5), f"{GOLDEN}: record/seats: "),
    "golden entry a text": (_set(GOLDEN, ("steps", 1, "entry"), "abc"), f"{GOLDEN}: steps/1/entry: "),
    "golden legal a text": (_set(GOLDEN, ("steps", 0, "legal"), "abc"), f"{GOLDEN}: steps/0/legal: "),
    "golden outside the kit": (_outside(GOLDEN), f"{GOLDEN}: not a file inside the kit folder"),
    "expected a list": (_text(EXPECTED, "[1]"), f"{EXPECTED}: "),
    "expected names a path outside": (_text(EXPECTED, '{"../../../etc/passwd": {"status": "legal"}}'),
                                      f"{EXPECTED}: "),
    "expected names an absolute path": (_text(EXPECTED, '{"/etc/hostname": {"status": "legal"}}'), f"{EXPECTED}: "),
    "expected item a text": (_set(EXPECTED, ("legal-2p-omniscient.json",), "x"),
                             f"{EXPECTED}: legal-2p-omniscient.json: "),
    "expected index a text": (_set(EXPECTED, ("illegal-second-card.json", "index"), "3"),
                              f"{EXPECTED}: illegal-second-card.json/index: "),
    "expected legal without scores": (_set(EXPECTED, ("legal-2p-omniscient.json",), {"status": "legal"}),
                                      f"{EXPECTED}: legal-2p-omniscient.json: "),
    "record a list": (_text(RECORD, "[]"), f"{RECORD}: "),
    "record entries a text": (_set(RECORD, ("entries",), "abc"), f"{RECORD}: entries: "),
    "record truncated": (lambda kit: (kit / RECORD).write_bytes((kit / RECORD).read_bytes()[:300]), f"{RECORD}: "),
    "record outside the kit": (_outside(RECORD), f"{RECORD}: not a file inside the kit folder"),
    # content the game cannot have: a kit error (exit 2), not the engine's failure (issue 24, item 7)
    "perft unknown switch": (_set("perft.json", ("vectors", 0, "interpretations"), {"no-such-switch": "x"}),
                             "perft.json: vectors/0: interpretations: unknown interpretation 'no-such-switch'"),
    "perft unknown option": (_set("perft.json", ("vectors", 0, "interpretations"), {"reveal-order": "sideways"}),
                             "perft.json: vectors/0: interpretations: interpretation reveal-order has no option"),
    "perft setup by P3 of 2 players": (_set("perft.json", ("vectors", 0, "setup", 0, "by"), "P3"),
                                       "perft.json: vectors/0: entry 0: by \"P3\": a 2-player game has the seats"),
    "golden unknown switch": (_set(GOLDEN, ("record", "interpretations"), {"no-such-switch": "x"}),
                              f"{GOLDEN}: interpretations: unknown interpretation"),
    "golden entry by P2 of 2 players": (_set(GOLDEN, ("steps", 0, "entry", "by"), "P2"),
                                        f"{GOLDEN}: entry 0: by \"P2\""),
    "record unknown option": (_set(RECORD, ("interpretations",), {"reveal-order": "sideways"}),
                              f"{RECORD}: interpretations: interpretation reveal-order has no option"),
    "legal record entry by P3 of 2": (_set(RECORD, ("entries", 3, "by"), "P3"), f"{RECORD}: entry 3: by \"P3\""),
}


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped kit, exported once."""
    kit = tmp_path_factory.mktemp("exported") / "kit"
    assert main(["conformance", "export", str(kit)]) == 0
    return kit


@pytest.mark.parametrize("case", TAMPERED)
def test_a_tampered_kit_is_refused_before_the_engine_starts_naming_the_file(
        case: str, exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tamper, said = TAMPERED[case]
    kit = tmp_path / "kit"
    shutil.copytree(exported, kit, symlinks=True)
    tamper(kit)
    capsys.readouterr()
    never = f"{sys.executable} -c pass"   # an engine that would fail every vector (exit 1), were one checked
    assert main(["conformance", "check", "--engine", never, str(kit)]) == 2
    out, err = capsys.readouterr()
    assert not out and err.startswith(f"rattus: cannot read the kit: {said}") and err.count("\n") == 1, err


@pytest.mark.parametrize("command", [["conformance", "export"], ["--game", "ratten_scharf", "conformance", "make"]])
def test_a_kit_is_not_written_into_a_folder_that_holds_files(
        command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a stale vector would be checked with the new kit, and a link in the folder written through
    target, victim = tmp_path / "kit", tmp_path / "victim.txt"
    (target / "golden").mkdir(parents=True)
    (target / "golden" / "stale.json").write_text("{}", encoding="utf-8")
    victim.write_text("keep", encoding="utf-8")
    (target / "perft.json").symlink_to(victim)
    assert main([*command, str(target)]) == 2
    assert capsys.readouterr().err == f"rattus: {target} is not empty: name a new or empty folder\n"
    assert victim.read_text(encoding="utf-8") == "keep" and not (target / "README.md").exists()


def test_perft_of_an_engine_without_keep_loads_whole_states(tmp_path: Path) -> None:
    """An engine whose `save` refuses `keep` (it does not know the field) is counted with whole states."""
    engine = changed_referee(tmp_path, """
        if "handle" in answer:
            answer = {"id": answer["id"], "ok": False, "error": {"code": "bad-request", "message": "no keep"}}
    """)
    (result,) = check(engine, only="perft/3p-seed2-first", perft_depth=2)
    assert result.passed, result.detail
