"""`rattus serve`: the referee protocol — every command, its schema, errors, and malformed input."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.session import MAX_LINE, Session, serve
from rattus_rules import new_game
from rattus_rules.cli import main
from rattus_rules.tools.kit.referee import referee_session
from rattus_rules.tools.kit.schemas import validator
from rattus_rules.tools.records.validate import record_game, validate

Reply = dict[str, Any]


def _validator(name: str) -> jsonschema.Draft202012Validator:
    return validator("protocol", name)


class Client:
    """A session driven as a client would: every request and answer checked against the schemas."""

    def __init__(self) -> None:
        self.session = referee_session()

    def __call__(self, cmd: str, *, schema_valid: bool = True, **fields: Any) -> Reply:
        request = {"cmd": cmd, "id": 7, **fields}
        if schema_valid:
            _validator(f"request-{cmd}").validate(request)
        line = json.dumps(request)
        reply: Reply = json.loads(self.session.answer_line(line))
        assert reply["id"] == 7
        _validator(f"reply-{cmd}" if reply["ok"] else "error").validate(reply)
        return reply


@pytest.fixture
def client() -> Client:
    return Client()


def test_hello_names_the_protocol_and_its_version(client: Client) -> None:
    reply = client("hello", version=1)
    assert reply["protocol"] == "rattus-referee" and reply["version"] == 1
    assert {"new", "legal", "apply", "chance", "state", "save", "load", "validate", "explain"} <= set(reply["commands"])
    assert reply["switches"]["reveal-order"]["default"] in reply["switches"]["reveal-order"]["options"]
    assert client("hello", version=99)["error"]["code"] == "version"


def test_a_game_played_through_the_protocol_matches_the_api(client: Client) -> None:
    reply = client("new", players=3, seed=5, chance="seed")
    gid = reply["game"]
    state = new_game(3, seed=5)
    rng = random.Random(1)
    while reply["to_move"] is not None:
        legal = client("legal", game=gid)
        assert legal["to_move"] == state.current_player
        assert len(legal["actions"]) == len(set(legal["actions"]))
        index = rng.randrange(state.num_legal_actions())
        text = state.legal_action_texts()[index]
        assert text in legal["actions"]  # player actions never name a token
        reply = client("apply", game=gid, action=text)
        state.apply_index(index)
        state.advance_chance()
        assert [o["action"].split()[0] for o in reply.get("outcomes", [])] == \
            [h.split()[0] for h in state.history[len(state.history) - len(reply.get("outcomes", [])):]]
    assert reply["scores"] == state.scores() and reply["winners"] == state.winner()
    assert client("state", game=gid)["state"] == state.to_json()


def test_an_illegal_action_is_an_error_with_the_rule_and_leaves_the_state(client: Client) -> None:
    gid = client("new", players=4, seed=2, chance="seed")["game"]
    before = client("save", game=gid)["state"]
    error = client("apply", game=gid, action="start Atlantis")["error"]
    assert error["code"] == "illegal-action" and error["rule"] == "initial_placement"
    assert "Atlantis" in error["reason"] and error["legal"] == client("legal", game=gid)["actions"]
    assert any("Region" in c["quote"] for c in error["citations"])
    assert client("save", game=gid)["state"] == before
    assert client("apply", game=gid, index=10_000)["error"]["code"] == "illegal-action"


def test_legal_details_carry_fields_and_citations(client: Client) -> None:
    gid = client("new", players=2, seed=1, chance="seed")["game"]
    actions = client("legal", game=gid, detail=True)["actions"]
    first = actions[0]
    assert first["verb"] == "start" and first["args"][0]["value"] == first["text"].split()[1]
    assert first["citations"] and all(c["source"] == "rulebook" for c in first["citations"])


def test_chance_outcomes_forced_and_drawn(client: Client) -> None:
    gid = client("new", players=2, seed=1)["game"]
    chance = client("chance", game=gid)
    outcomes = chance["outcomes"]
    assert chance["to_move"] == "chance" and abs(sum(o["probability"] for o in outcomes) - 1) < 1e-9
    forced = client("chance", game=gid, force=outcomes[-1]["action"])
    assert forced["action"] == outcomes[-1]["action"]
    assert client("chance", game=gid, force="start-token 9:M")["error"]["code"] == "illegal-action"
    drawn = client("chance", game=gid, draw=True)
    assert drawn["action"].startswith("start-token ")
    other = client("new", players=2, seed=1, chance="seed")["game"]
    assert client("chance", game=other)["error"]["code"] == "not-chance"


def test_observation_hides_faces_and_save_load_round_trips(client: Client) -> None:
    gid = client("new", players=2, seed=3, chance="seed")["game"]
    seen = client("state", game=gid, player=1)["observation"]
    assert seen["player"] == 1 and seen["legal_actions"] == []
    assert all(face is None for _, faces in seen["zones"]["stock"] for face in faces)
    assert client("state", game=gid, player=0)["observation"]["legal_actions"] == client("legal", game=gid)["actions"]
    saved = client("save", game=gid)["state"]
    loaded = client("load", state=saved, game="copy", chance="seed")
    assert loaded["game"] == "copy" and client("save", game="copy")["state"] == saved
    assert client("load", state={"format": 1}, schema_valid=False)["error"]["code"] == "bad-request"
    assert client("games")["games"] == [gid, "copy"]
    client("drop", game="copy")
    assert client("legal", game="copy")["error"]["code"] == "unknown-game"


def test_explain_says_which_rule_offers_or_refuses(client: Client) -> None:
    gid = client("new", players=2, seed=3, chance="seed")["game"]
    yes = client("explain", game=gid, action="start Gallia")
    assert yes["legal"] and yes["rule"] == "initial_placement" and yes["citations"]
    no = client("explain", game=gid, action="take king")
    assert not no["legal"] and "initial_placement" in no["reason"] and no["citations"]


def test_validate_a_prefix_gives_the_next_player_and_their_legal_actions(client: Client) -> None:
    record = record_game(3, seed=4)
    record["entries"] = record["entries"][:30]
    while "reveal" in record["entries"][-1]:
        record["entries"].pop()
    verdict = client("validate", record=record)["verdict"]
    direct = validate(record)
    assert verdict["status"] == "legal" and not verdict["finished"]
    assert direct.state is not None and verdict["to_move"] in (direct.state.current_player, "chance")
    assert verdict["legal"] and set(verdict["legal"]) == set(direct.legal)
    if verdict["to_move"] != "chance":
        assert set(verdict["legal"]) == set(direct.state.legal_action_texts())
    assert client("validate", record="{")["error"]["code"] == "bad-request"
    assert client("validate", record={"format": "x"})["verdict"]["status"] == "not-a-record"


def test_bad_requests_get_error_answers(client: Client) -> None:
    assert client("new", players=9, schema_valid=False)["error"]["code"] == "bad-request"
    assert client("new", players=2, seed=-1, schema_valid=False)["error"]["code"] == "bad-request"
    assert client("new", players=2, switches={"no-such": "x"})["error"]["code"] == "bad-request"
    assert client("new", players=2, chance="sometimes", schema_valid=False)["error"]["code"] == "bad-request"
    assert client("new", players=2, data="/no/such/folder")["error"]["code"] == "spec-error"
    assert client("legal", game="nope")["error"]["code"] == "unknown-game"
    session = referee_session()
    assert json.loads(session.answer_line('{"cmd": "fly", "id": "x"}'))["error"]["code"] == "unknown-command"
    assert json.loads(session.answer_line("[1, 2]"))["error"]["code"] == "malformed"


def _serve(data: bytes, max_line: int = MAX_LINE, session: Session | None = None) -> list[Reply]:
    out = io.BytesIO()
    serve(session or referee_session(), io.BytesIO(data), out, max_line)
    return [json.loads(line) for line in out.getvalue().decode("utf-8").splitlines()]


def test_a_line_over_the_limit_is_refused_and_the_session_goes_on() -> None:
    replies = _serve(b'{"cmd": "hello"}\n' + b"x" * 5000 + b'\n\n{"cmd": "games"}\n{"cmd": "quit"}\n{"cmd": "hello"}\n',
                     max_line=1000)
    assert [r["ok"] for r in replies] == [True, False, True, True]
    assert replies[1]["error"]["code"] == "too-long"


# indices at and beyond both ends of a decision's options (Rattus offers at most a few hundred): a session that
# let -1 through applied the last option (a rules-error from the runtime's own bound), -1000 was an IndexError
_INDICES = st.one_of(st.integers(-3, 3), st.integers(max_value=-1), st.integers(min_value=2**62),
                     st.sampled_from([-1, -1000, -(2**63), 2**63, 10**30]))

_MALFORMED = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.lists(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20), max_size=4).map(
        lambda v: json.dumps(v).encode()),
    st.dictionaries(st.text(max_size=8), st.none() | st.integers() | st.lists(st.text(max_size=4), max_size=3),
                    max_size=4).map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"cmd": st.sampled_from(["new", "legal", "apply", "chance", "state", "load", "validate",
                                                   "explain", "drop", "hello"])},
                          optional={"game": st.one_of(st.just("g1"), st.integers(), st.text(max_size=5)),
                                    "players": st.one_of(st.integers(-3, 6), st.text(max_size=3), st.none()),
                                    "seed": st.one_of(st.integers(), st.floats(), st.booleans()),
                                    "action": st.one_of(st.text(max_size=30), st.integers()),
                                    "index": st.one_of(_INDICES, st.integers(), st.text(max_size=3)),
                                    "force": st.text(max_size=30), "player": st.integers(-2, 5),
                                    "state": st.dictionaries(st.text(max_size=8), st.integers(), max_size=3),
                                    "record": st.one_of(st.text(max_size=30), st.dictionaries(st.text(max_size=8),
                                                                                              st.integers())),
                                    "switches": st.one_of(st.text(max_size=3), st.dictionaries(
                                        st.text(max_size=8), st.text(max_size=8), max_size=2))}).map(
        lambda d: json.dumps(d).encode()),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_MALFORMED, min_size=1, max_size=6))
def test_fuzz_malformed_lines_never_kill_the_server(lines: list[bytes]) -> None:
    start = b'{"cmd": "new", "players": 2, "seed": 1}\n'
    body = b"\n".join(line.replace(b"\n", b" ").replace(b"\r", b" ") for line in lines)
    session = referee_session()
    replies = _serve(start + body + b'\n{"cmd": "hello", "id": "last"}\n', session=session)
    if session.closed:  # a line asked to quit: that was the last answer
        assert replies[-1]["ok"] and set(replies[-1]) == {"id", "ok"}
    else:
        assert replies[-1]["id"] == "last" and replies[-1]["ok"]
    error = _validator("error")
    for reply in replies:
        assert isinstance(reply["ok"], bool)
        if not reply["ok"]:
            error.validate(reply)
            assert reply["error"]["code"] not in ("internal", "rules-error"), reply


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.tuples(st.sampled_from(["apply", "explain"]),
                                                 st.one_of(_INDICES, st.sampled_from(["n", "n+1", "last"]))),
                                       min_size=1, max_size=12))
def test_fuzz_an_index_out_of_range_is_an_illegal_action_at_any_step(seed: int,
                                                                     asks: list[tuple[str, int | str]]) -> None:
    # negative, equal to the number of options, past it, huge: `illegal-action` (explain: not legal), and the
    # game does not move; an index in range applies that option, as the API would
    client = Client()
    game = client("new", players=2 + seed % 3, seed=seed, chance="seed")["game"]
    for cmd, asked in asks:
        legal = client("legal", game=game)["actions"]
        n = len(legal)
        index = {"n": n, "n+1": n + 1, "last": n - 1}.get(asked, asked) if isinstance(asked, str) else asked
        before = client("save", game=game)["state"]
        reply = client(cmd, game=game, index=index, schema_valid=index >= 0)  # the schema says no index is < 0
        if not 0 <= index < n:
            if cmd == "apply":
                assert not reply["ok"] and reply["error"]["code"] in ("illegal-action", "bad-request"), reply
                assert f"no index {index}" in reply["error"]["message"]
            else:
                assert reply["ok"] and reply["legal"] is False, reply
            assert client("save", game=game)["state"] == before
        elif cmd == "apply":
            assert reply["ok"] and reply["action"] == legal[index], reply
        else:
            assert reply["ok"] and reply["legal"] is True and reply["action"] == legal[index], reply
            assert client("save", game=game)["state"] == before
        if client("state", game=game)["to_move"] is None:
            break


def test_rattus_serve_over_a_pipe() -> None:
    requests = [{"cmd": "hello", "id": 1}, {"cmd": "new", "players": 2, "seed": 1, "chance": "seed", "id": 2},
                {"cmd": "legal", "game": "g1", "id": 3}]
    text = "".join(json.dumps(r) + "\n" for r in requests) + "not json\n"
    done = subprocess.run([sys.executable, "-m", "rattus_rules", "serve"], input=text.encode(), capture_output=True,
                          timeout=120, check=True)
    replies = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [r["id"] for r in replies] == [1, 2, 3, None]
    assert replies[2]["actions"][0].startswith("start ") and replies[3]["error"]["code"] == "malformed"
    assert done.stderr == b""


def test_validate_json_on_a_legal_prefix_lists_the_legal_actions(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    record = record_game(2, seed=6)
    record["entries"] = [e for e in record["entries"][:20] if "reveal" not in e]
    path = tmp_path / "prefix.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["validate", "--json", str(path)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["status"] == "legal" and not verdict["finished"]
    assert verdict["legal"] == list(validate(record).legal) and verdict["legal"]


def test_an_unknown_field_is_a_bad_request_and_changes_nothing(client: Client) -> None:
    refused = client("new", players=2, seeds=5, schema_valid=False)      # a misspelt `seed`
    assert refused["error"]["code"] == "bad-request" and "`seeds`" in refused["error"]["message"]
    assert "`seed`" in refused["error"]["message"]                       # the fields it has are named
    assert client("games")["games"] == []                                # no game was started
    game = client("new", players=2, seed=1, chance="seed")["game"]
    before = client("save", game=game)["state"]
    for cmd, fields in [("apply", {"game": game, "action": "start Gallia", "player": 0}),
                        ("legal", {"game": game, "details": True}), ("hello", {"versoin": 1}),
                        ("quit", {"now": True}), ("validate", {"record": {}, "interpretations": {}})]:
        assert client(cmd, schema_valid=False, **fields)["error"]["code"] == "bad-request", cmd
        assert not _validator(f"request-{cmd}").is_valid({"cmd": cmd, **fields}), cmd
    assert client("save", game=game)["state"] == before
    assert not client.session.closed


def test_the_session_accepts_exactly_the_fields_of_the_request_schemas() -> None:
    session = referee_session()
    schema = validator("protocol").schema["$defs"]
    for cmd, fields in session.fields.items():
        definition = schema[f"request-{cmd}"]
        assert definition["additionalProperties"] is False, cmd
        assert set(definition["properties"]) == fields | {"cmd", "id"}, cmd
    assert {k.removeprefix("request-") for k in schema if k.startswith("request-")} == set(session.fields)


def test_explain_takes_an_action_by_its_index(client: Client) -> None:
    game = client("new", players=2, seed=1, chance="seed")["game"]
    first = client("legal", game=game)["actions"][0]
    assert client("explain", game=game, index=0)["action"] == first


def test_a_state_kept_by_save_loads_by_its_handle_without_being_checked_again(client: Client) -> None:
    game = client("new", players=3, seed=4, chance="seed")["game"]
    client("apply", game=game, action=client("legal", game=game)["actions"][2])
    whole = client("save", game=game)["state"]
    handle = client("save", game=game, keep=True)["handle"]
    second = client("save", game=game, keep=True)
    assert isinstance(handle, str) and len(handle) >= 20 and "state" not in second and second["handle"] != handle
    client("drop", handle=second["handle"])
    first = client("load", handle=handle)["game"]
    assert client("save", game=first)["state"] == whole
    client("apply", game=first, action=client("legal", game=first)["actions"][0])  # the copy kept stays as saved
    again = client("load", handle=handle, game="again", chance="seed")["game"]
    assert again == "again" and client("save", game=again)["state"] == whole
    for gid in (game, first, again):
        client("drop", game=gid)
    assert client.session.uses  # a state kept holds its compiled rules: they count among the session's data sets
    assert client("drop", handle=handle) == {"id": 7, "ok": True}
    assert not client.session.uses
    assert client("load", handle=handle)["error"]["code"] == "unknown-handle"
    assert client("drop", handle=handle)["error"]["code"] == "unknown-handle"


def test_a_handle_is_good_only_in_its_session_and_only_alone(client: Client) -> None:
    game = client("new", players=2, seed=1)["game"]
    handle = client("save", game=game, keep=True)["handle"]
    other = Client()
    assert other("load", handle=handle)["error"]["code"] == "unknown-handle"   # another session's handle
    for forged in ("g1", "", "x" * 24, 5, None):
        assert client("load", handle=forged, schema_valid=isinstance(forged, str))["error"]["code"] in (
            "unknown-handle", "bad-request")
    whole = client("save", game=game)["state"]
    for extra in ({"state": whole}, {"data": "spec/rattus/data"}):   # a handle names the whole state
        answer = client("load", handle=handle, schema_valid=False, **extra)
        assert answer["error"]["code"] == "bad-request" and "`handle`" in answer["error"]["message"]
        assert not _validator("request-load").is_valid({"cmd": "load", "handle": handle, **extra})
    assert client("drop", game=game, handle=handle, schema_valid=False)["error"]["code"] == "bad-request"
    assert client("save", game=game, keep="yes", schema_valid=False)["error"]["code"] == "bad-request"


def test_a_session_keeps_a_bounded_number_of_states(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter import session

    monkeypatch.setattr(session, "MAX_KEPT", 3)
    game = client("new", players=2, seed=1)["game"]
    handles = [client("save", game=game, keep=True)["handle"] for _ in range(3)]
    assert len(set(handles)) == 3
    assert client("save", game=game, keep=True)["error"]["code"] == "too-many-kept"
    client("drop", handle=handles[0])
    assert "handle" in client("save", game=game, keep=True)


@pytest.mark.parametrize("gid", ["a\ud800", "\udfff", "ok\udc00ok"])
def test_a_game_id_holding_a_lone_surrogate_is_a_bad_request(gid: str) -> None:
    # JSON's \ud800 escape writes a lone surrogate, which UTF-8 cannot: such an id was kept, then echoed in
    # every answer naming the game (as an escape no other client could send back as UTF-8)
    line = json.dumps({"cmd": "new", "players": 2, "game": gid}).encode()
    replies = _serve(line + b"\n" + b'{"cmd": "games"}\n')
    error = replies[0]["error"]
    assert error["code"] == "bad-request" and "lone surrogate" in error["message"], error
    assert replies[1]["games"] == []
    session = referee_session()
    state = session.answer({"cmd": "save", "game": session.answer({"cmd": "new", "players": 2})["game"]})["state"]
    assert session.answer({"cmd": "load", "state": state, "game": gid})["error"]["code"] == "bad-request"
    assert session.answer({"cmd": "games"})["games"] == ["g1"]


def test_games_of_the_same_rules_share_the_texts_of_their_options_up_to_a_bound(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    # a game loaded by handle (a perft walk loads thousands) writes its options' texts once for all
    from interpreter import session

    first = client("new", players=3, seed=4, chance="seed")["game"]
    handle = client("save", game=first, keep=True)["handle"]
    texts = client("legal", game=first)["actions"]
    named = client.session.named[client.session.games[first].state.game]
    made = {key: dict(found) for key, found in named.items() if found}
    assert made and sum(map(len, made.values())) >= len(texts)  # this decision's options name pieces
    second = client("load", handle=handle)["game"]
    assert client("legal", game=second)["actions"] == texts
    assert {key: dict(found) for key, found in named.items() if found} == made  # none written again
    monkeypatch.setattr(session, "MAX_NAMED_TEXTS", 2)
    bounded = Client()
    game = bounded("new", players=3, seed=4, chance="seed")["game"]
    assert bounded("legal", game=game)["actions"] == texts  # beyond the bound: made afresh, the same
    kept = bounded.session.named[bounded.session.games[game].state.game]
    assert len(kept) <= 2 and all(len(found) <= 2 for found in kept.values() if found)
