"""The web table's protocol through Starlette's test client: whole games, every kind of bad
message, hidden cards on the wire, game lifetimes, and what HTTP may reach."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from agents.games.boon.evaluator import boon_evaluator
from agents.web.app import create_app
from agents.web.protocol import MAX_MESSAGE_BYTES, parse_message
from agents.web.security import split_host
from agents.web.store import Games
from boon_env.games.boon.rules import Round, mask_of, names_of
from tests.helpers.web import CARD_NAME, WS, Client

REPLAY = Path(__file__).parents[1] / "data" / "replay_4p.jsonl"


@pytest.fixture
def app():
    return create_app(4, ["heuristic"], seed=1)


@pytest.fixture
def client(app) -> Iterator[Client]:
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        yield Client(websocket)


def sessions(app):
    return app.state.server.games._entries


def play_until_round_ends(client: Client, replies: list[dict]) -> list[dict]:
    while replies[-1]["type"] == "state" and not replies[-1]["summary"]:
        replies = client.request({"type": "act", "game": client.game, "action": _choice(replies)})
    return replies


def _choice(replies: list[dict]) -> str:
    legal = replies[-1]["legal"]
    return "pick" if "pick" in legal else legal[-1]  # pick when asked: the bury path is played


# --------------------------------------------------------------------------------- playing
def test_hello_describes_the_table(client):
    assert client.hello["type"] == "hello" and client.hello["mode"] == "play"
    assert client.hello["players"] == 4
    assert client.hello["seats"] == ["you", "heuristic", "heuristic", "heuristic"]
    assert client.hello["coach"] is True and client.hello["coach_policy"] is True


def test_a_whole_game_through_the_protocol(client, app):
    replies = client.request({"type": "new"})
    assert replies[0]["type"] == "joined" and replies[0]["game"] == client.game
    assert replies[0]["game_name"] == "boon" and replies[0]["players"] == 4
    rounds = 0
    while True:
        replies = play_until_round_ends(client, replies)
        last = replies[-1]
        assert last["type"] == "state", last
        rounds += 1
        assert last["round"] == rounds and sum(last["summary"]["payout"]) == 0
        if last["game_over"]:
            break
        assert rounds < 60
        replies = client.request({"type": "next", "game": client.game})
    assert min(last["table"]["victory_cards"]) == 0
    assert last["winners"]
    assert all(m.get("game") in (None, client.game) for m in client.received)
    session = sessions(app)[client.game].session
    assert session.game.rounds_played == rounds
    error = client.request({"type": "next", "game": client.game})[-1]
    assert error["type"] == "error" and "game is over" in error["error"]


def test_no_message_shows_another_seats_hidden_cards(client, app):
    """Every message of several rounds (the person picking in some, passing in others),
    checked against the exact state it was built from: no card still held by another seat,
    no buried card before the summary unless the person buried it, no Boon card unless the
    person picked."""
    pickers = set()
    replies = client.request({"type": "new"})
    for number in range(12):
        states = [m for m in replies if m["type"] == "state"]
        while not states[-1]["summary"]:
            legal = states[-1]["legal"]
            action = legal[-1] if number % 2 and "pass" in legal else legal[0]  # pick or pass
            replies = client.request({"type": "act", "game": client.game, "action": action})
            states += [m for m in replies if m["type"] == "state"]
        live = sessions(app)[client.game].session.round
        assert len(states) == len(live.history) + 1  # one message per move, plus the deal
        for moves, message in enumerate(states):
            _assert_shows_only_what_seat_0_may_see(replay(live, moves), message)
        pickers.add(live.picker if live.picker in (None, 0) else "another seat")
        if {0, "another seat"} <= pickers or states[-1]["game_over"]:
            break
        replies = client.request({"type": "next", "game": client.game})
    assert {0, "another seat"} <= pickers


def replay(live: Round, moves: int) -> Round:
    """The round ``live`` as it stood after its first ``moves`` moves."""
    state = Round(live.config, live.deal, live.dealer)
    for action in live.history[:moves]:
        state.apply(action)
    return state


def _assert_shows_only_what_seat_0_may_see(state: Round, message: dict) -> None:
    hidden = 0
    for seat in range(1, state.config.num_players):
        hidden |= state.hands[seat]
    if state.picker != 0:  # the Boon and the buried cards, unless played since
        secret = (state.boon | state.discards) & ~_played(state)
        if state.is_over:
            secret &= ~state.discards  # the round's summary shows what was buried
        hidden |= secret
    shown = set(CARD_NAME.findall(message["_raw"]))
    assert not shown & set(names_of(hidden)), (state.history, shown & set(names_of(hidden)))
    assert set(message["table"]["hands"][0]) == set(names_of(state.hands[0]))
    assert message["table"]["hands"][1:] == [None] * (state.config.num_players - 1)


def _played(state: Round) -> int:
    played = 0
    for cards in state.played:
        played |= cards
    return played


def test_join_resumes_a_game_from_another_connection(app):
    with TestClient(app) as http:
        with http.websocket_connect(WS) as first:
            one = Client(first)
            opening = one.request({"type": "new"})[-1]
        with http.websocket_connect(WS) as second:
            two = Client(second)
            replies = two.request({"type": "join", "game": one.game})
            assert replies[0]["type"] == "joined" and replies[0]["game"] == one.game
            assert replies[1]["table"] == opening["table"]
            assert replies[1]["legal"] == opening["legal"]


def test_games_are_isolated(app):
    with TestClient(app) as http, http.websocket_connect(WS) as a, http.websocket_connect(WS) as b:
        one, two = Client(a), Client(b)
        one.request({"type": "new"})
        two.request({"type": "new"})
        assert one.game != two.game
        first, second = (sessions(app)[c.game].session for c in (one, two))
        history = list(second.round.history)
        play_until_round_ends(one, [one.received[-1]])
        assert second.round.history == history
        assert first.round.is_over and not second.round.is_over


def test_a_new_game_replaces_the_connections_previous_one(app):
    with TestClient(app) as http:
        with http.websocket_connect(WS) as websocket:
            client = Client(websocket)
            client.request({"type": "new"})
            old = client.game
            client.request({"type": "new"})
            assert client.game != old and set(sessions(app)) == {client.game}
        with http.websocket_connect(WS) as websocket:  # a reload joins, then starts anew
            reloaded = Client(websocket)
            reloaded.request({"type": "join", "game": client.game})
            reloaded.request({"type": "new"})
            assert set(sessions(app)) == {reloaded.game} != {client.game}


# ------------------------------------------------------------------------------ bad messages
def _game_snapshot(app, game: str) -> tuple:
    session = sessions(app)[game].session
    return (list(session.round.history), list(session.game.victory_cards), session.to_act)


# Under 1 KiB each, and deep enough to exhaust json.loads's recursion in the server.
DEEP_MESSAGES = [
    "[" * 500 + "]" * 500,
    "[" * 1000,
    '{"a":' * 150 + "1" + "}" * 150,
    '{"type": "new", "x": [[' + "[" * 900 + "]",
]


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "'type' must be one of"),
        ('"act"', "'type' must be one of"),
        ('{"type": "explode"}', "'type' must be one of"),
        ('{"type": "act", "game": "GAME"}', "needs action"),
        ('{"type": "act", "game": "GAME", "action": 31}', "'action' has the wrong type"),
        ('{"type": "act", "game": 7, "action": "pick"}', "'game' has the wrong type"),
        ('{"type": "act", "game": "GAME", "action": "pick", "x": 1}', "unexpected field"),
        ('{"type": "coach", "game": "GAME", "search": 1}', "'search' has the wrong type"),
        ('{"type": "act", "game": "nope", "action": "pass"}', "unknown game"),
        ('{"type": "act", "game": "GAME", "action": "gold 15"}', "rank of a gold card"),
        ('{"type": "act", "game": "GAME", "action": "banana"}', "not a card name"),
        ('{"type": "act", "game": "GAME", "action": "ILLEGAL"}', "not legal now"),
        ('{"type": "next", "game": "GAME"}', "round is not over"),
        ('{"type": "frame", "round": 0, "step": 0}', "has no replay"),
        ("x" * (MAX_MESSAGE_BYTES + 1), "message too large"),
        (json.dumps({"type": "new", "pad": "é" * MAX_MESSAGE_BYTES}), "message too large"),
        *((text, "nested deeper than") for text in DEEP_MESSAGES),
    ],
)
def test_bad_messages_get_an_error_and_change_nothing(client, app, message, error):
    state = client.request({"type": "new"})[-1]
    legal = state["legal"]
    illegal = next(name for name in names_of(0xFFFFFFFF) if name not in legal and name != "green 1")
    before = _game_snapshot(app, client.game)
    text = message.replace("GAME", client.game).replace("ILLEGAL", illegal)
    replies = client.request(text)
    assert len(replies) == 1 and replies[0]["type"] == "error", replies
    assert error in replies[0]["error"]
    assert _game_snapshot(app, client.game) == before
    # The connection is still usable and the game goes on.
    assert client.request({"type": "join", "game": client.game})[-1]["legal"] == legal


def test_deeply_nested_messages_are_refused_without_a_traceback(client, caplog):
    caplog.set_level(logging.DEBUG)
    for text in DEEP_MESSAGES:
        reply = client.request(text)[-1]
        assert reply["type"] == "error" and "nested deeper than" in reply["error"], reply
    assert not [record for record in caplog.records if record.exc_info], caplog.text
    assert "Traceback" not in caplog.text and "RecursionError" not in caplog.text


def test_brackets_inside_strings_are_not_nesting():
    assert parse_message('{"type": "join", "game": "[[[[\\"{{{{"}')["game"] == '[[[["{{{{'


def test_a_move_out_of_turn_is_refused(client, app):
    replies = play_until_round_ends(client, client.request({"type": "new"}))
    before = _game_snapshot(app, client.game)
    error = client.request({"type": "act", "game": client.game, "action": "pass"})[-1]
    assert error["type"] == "error" and "not your turn" in error["error"]
    coach = client.request({"type": "coach", "game": client.game})[-1]
    assert coach["type"] == "error" and "not your turn" in coach["error"]
    assert _game_snapshot(app, client.game) == before
    assert replies[-1]["summary"] is not None


def test_binary_messages_are_refused(client):
    client.ws.send_bytes(b'{"type": "new"}')
    reply = client.ws.receive_json()
    assert reply["type"] == "error" and "JSON text" in reply["error"]


def test_parse_message_accepts_exactly_the_protocols_messages():
    assert parse_message('{"type": "new"}') == {"type": "new"}
    assert parse_message('{"type": "coach", "game": "g"}') == {"type": "coach", "game": "g"}
    request = '{"type": "coach", "game": "g", "search": true}'
    assert parse_message(request)["search"] is True
    with pytest.raises(ValueError, match="wrong type"):
        parse_message('{"type": "frame", "round": true, "step": 0}')


# ------------------------------------------------------------------------------ lifetimes
def test_idle_games_expire():
    clock = [0.0]
    games = Games(max_games=3, idle_timeout=10, clock=lambda: clock[0])
    first = games.add(object())
    clock[0] = 6
    second = games.add(object())
    clock[0] = 12
    assert games.get(second)  # used at 12: it lives until 22
    assert games.expire() == 1 and len(games) == 1
    with pytest.raises(ValueError, match="unknown game"):
        games.get(first)
    clock[0] = 30
    with pytest.raises(ValueError, match="unknown game"):
        games.get(second)
    assert len(games) == 0


def test_the_number_of_games_is_bounded():
    clock = [0.0]
    games = Games(max_games=2, idle_timeout=10, clock=lambda: clock[0])
    for _ in range(2):
        games.hold(games.add(object()), True)  # each played in an open tab
    with pytest.raises(ValueError, match="server is full"):
        games.add(object())
    clock[0] = 11  # both expired: room again
    games.add(object())
    assert len(games) == 1


def test_a_closed_tab_leaves_nothing_once_its_game_expires():
    app = create_app(seed=2, idle_timeout=0.3, coach=False)
    with TestClient(app) as http:
        with http.websocket_connect(WS) as websocket:
            tab = Client(websocket)
            tab.request({"type": "new"})
        assert len(app.state.server.games) == 1
        deadline = time.monotonic() + 10
        while len(app.state.server.games) and time.monotonic() < deadline:
            time.sleep(0.05)  # the app's sweeper drops idle games by itself
        assert len(app.state.server.games) == 0
        with http.websocket_connect(WS) as websocket:
            reply = Client(websocket).request({"type": "join", "game": tab.game})[-1]
            assert reply["type"] == "error" and "unknown game" in reply["error"]


def test_a_full_server_refuses_new_games():
    app = create_app(seed=3, max_games=1, coach=False)
    with TestClient(app) as http, http.websocket_connect(WS) as a, http.websocket_connect(WS) as b:
        assert Client(a).request({"type": "new"})[-1]["type"] == "state"
        reply = Client(b).request({"type": "new"})[-1]
        assert reply["type"] == "error" and "server is full" in reply["error"]


def test_the_limits_default_to_a_minute_to_start_and_five_minutes_idle():
    server = create_app(coach=False).state.server
    assert server.start_timeout == 60 and server.games.idle_timeout == 300
    assert server.games.max_per_client == 8


def test_the_sweeper_wakes_when_the_next_game_expires():
    clock = [0.0]
    games = Games(max_games=3, idle_timeout=300, clock=lambda: clock[0])
    assert games.next_expiry() == 300  # none open: a game started now lives 300 s
    first = games.add(object())
    clock[0] = 100
    games.add(object())
    assert games.next_expiry() == 200
    games.get(first)  # used at 100: both now expire at 400
    assert games.next_expiry() == 300
    clock[0] = 400
    assert games.next_expiry() == 0 and games.expire() == 2


def test_a_connection_that_starts_no_game_is_closed():
    app = create_app(seed=5, start_timeout=0.5, coach=False)
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        started = time.monotonic()
        # Bad messages do not keep it open: the time to start a game counts from connecting.
        assert client.request("{}")[-1]["type"] == "error"
        reply = websocket.receive_json()
        assert reply["type"] == "error" and "no game started within 0.5 s" in reply["error"]
        with pytest.raises(WebSocketDisconnect):
            websocket.receive_json()
        assert time.monotonic() - started < 10


def test_a_connection_that_started_a_game_or_a_replay_stays_open():
    app = create_app(seed=5, start_timeout=0.3, coach=False)
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        client.request({"type": "new"})
        time.sleep(0.6)
        assert client.request({"type": "join", "game": client.game})[-1]["type"] == "state"
    app = create_app(replay=REPLAY, start_timeout=0.3, coach=False)
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        client.request({"type": "frame", "round": 0, "step": 0})
        time.sleep(0.6)
        assert client.request({"type": "frame", "round": 0, "step": 1})[-1]["type"] == "frame"


def test_an_idle_game_is_freed_and_its_connection_closed():
    app = create_app(seed=6, idle_timeout=0.5, coach=False)
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        Client(websocket).request({"type": "new"})
        assert len(app.state.server.games) == 1
        reply = websocket.receive_json()
        assert reply["type"] == "error" and "no message for 0.5 s" in reply["error"]
        with pytest.raises(WebSocketDisconnect):
            websocket.receive_json()
        deadline = time.monotonic() + 10
        while len(app.state.server.games) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(app.state.server.games) == 0


def test_one_client_may_open_only_so_many_games():
    app = create_app(seed=7, max_games_per_client=2, coach=False)
    with (
        TestClient(app) as http,
        http.websocket_connect(WS) as a,
        http.websocket_connect(WS) as b,
        http.websocket_connect(WS) as c,
    ):
        one, two, three = Client(a), Client(b), Client(c)
        assert one.request({"type": "new"})[-1]["type"] == "state"
        assert two.request({"type": "new"})[-1]["type"] == "state"
        reply = three.request({"type": "new"})[-1]
        assert reply["type"] == "error", reply
        assert "too many games open from your address (the limit is 2)" in reply["error"]
        assert len(app.state.server.games) == 2
        assert one.request({"type": "new"})[-1]["type"] == "state"  # replaces its own game


def test_the_per_client_limit_counts_each_address_apart():
    games = Games(max_games=4, idle_timeout=10, max_per_client=1)
    games.hold(games.add(object(), "10.0.0.1"), True)
    games.add(object(), "10.0.0.2")
    with pytest.raises(ValueError, match="too many games open from your address"):
        games.add(object(), "10.0.0.1")
    with pytest.raises(ValueError, match="max_per_client"):
        Games(max_games=4, idle_timeout=10, max_per_client=0)


# ------------------------------------------------------------------------------ the coach
def test_the_coach_shows_the_shipped_models_probabilities():
    app = create_app(seed=4)
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        assert client.hello["coach"] is True and client.hello["coach_policy"] is True
        legal = client.request({"type": "new"})[-1]["legal"]
        advice = client.request({"type": "coach", "game": client.game})[-1]
        assert advice["type"] == "coach", advice
        assert set(advice["policy"]) == set(legal) and advice["search"] is None
        assert sum(advice["policy"].values()) == pytest.approx(1.0)
        advice = client.request({"type": "coach", "game": client.game, "search": True})[-1]
        assert set(advice["search"]) == set(legal)


def test_a_server_without_the_coach_refuses_to_advise():
    app = create_app(seed=4, coach=False)
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        assert client.hello["coach"] is False and client.hello["coach_policy"] is False
        client.request({"type": "new"})
        reply = client.request({"type": "coach", "game": client.game, "search": True})[-1]
        assert reply["type"] == "error" and "coach is off" in reply["error"]
        reply = client.request({"type": "losses", "game": client.game})[-1]
        assert reply["type"] == "error" and "coach is off" in reply["error"]


def test_a_broken_coach_model_is_a_startup_error(tmp_path):
    broken = tmp_path / "model.npz"
    broken.write_text("not a model")
    with pytest.raises(ValueError, match="model"):
        create_app(seed=4, coach_model=broken)


@pytest.fixture
def no_shipped_models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No model ships (an empty models folder), and no evaluator built before or after it."""
    monkeypatch.setattr("agents.players.trained.MODELS_DIR", tmp_path)
    boon_evaluator.cache_clear()
    yield
    boon_evaluator.cache_clear()


@pytest.mark.usefixtures("no_shipped_models")
def test_without_a_shipped_model_the_coach_gives_search_estimates_only() -> None:
    app = create_app(5, ["heuristic"], seed=4)
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        assert client.hello["coach"] is True and client.hello["coach_policy"] is False
        legal = client.request({"type": "new"})[-1]["legal"]
        advice = client.request({"type": "coach", "game": client.game, "search": True})[-1]
        assert advice["policy"] is None and set(advice["search"]) == set(legal)
        assert "heuristic" in advice["how"]


# ------------------------------------------------------------------------------ HTTP
def test_the_page_and_its_files_are_served_with_a_strict_policy(app):
    with TestClient(app, base_url="http://127.0.0.1:8000") as http:
        page = http.get("/")
        assert page.status_code == 200 and "app.js" in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
        for name in ("app.js", "style.css", "favicon.svg"):
            assert http.get(f"/static/{name}").status_code == 200
        assert "cdn" not in page.text.lower() and "http" not in page.text.lower()


@pytest.mark.parametrize(
    "path",
    [
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/..%2fapp.py",
        "/static/%2e%2e/%2e%2e/replay.py",
        "/static//etc/passwd",
        "/tests/data/replay_4p.jsonl",
        "/replay",
    ],
)
def test_no_request_reaches_files_outside_the_static_folder(path):
    app = create_app(replay=REPLAY, coach=False)
    with TestClient(app, base_url="http://127.0.0.1") as http:
        response = http.get(path)
        assert response.status_code == 404
        assert "import" not in response.text and "deal_index" not in response.text


def test_other_host_names_and_origins_are_refused(app):
    with TestClient(app, base_url="http://evil.example") as http:
        assert http.get("/").status_code == 400  # DNS rebinding: a foreign name for 127.0.0.1
    with TestClient(app) as http:
        with (
            pytest.raises(WebSocketDisconnect),
            http.websocket_connect(WS, headers={"origin": "http://evil.example"}) as websocket,
        ):
            websocket.receive_json()
        with http.websocket_connect(WS, headers={"origin": "http://127.0.0.1"}) as websocket:
            assert websocket.receive_json()["type"] == "hello"


@pytest.mark.parametrize(
    "base", ["http://[::1]:8000", "http://[::1]", "http://[0:0::1]:8000", "http://localhost:8000"]
)
def test_loopback_names_with_ports_and_ipv6_brackets_are_admitted(app, base):
    """``boon serve --host ::1``: browsers send ``Host: [::1]:8000``."""
    with TestClient(app, base_url=base) as http:
        assert http.get("/").status_code == 200
        ws = base.replace("http://", "ws://") + "/ws"
        with http.websocket_connect(ws, headers={"origin": base}) as websocket:
            assert websocket.receive_json()["type"] == "hello"


@pytest.mark.parametrize(
    "base", ["http://[::2]:8000", "http://evil.example:8000", "http://1.2.3.4"]
)
def test_other_hosts_are_refused_however_written(app, base):
    with TestClient(app, base_url=base) as http:
        assert http.get("/").status_code == 400
        ws = base.replace("http://", "ws://") + "/ws"
        with pytest.raises(WebSocketDenialResponse) as denied, http.websocket_connect(ws):
            pass
        assert denied.value.status_code == 400


@pytest.mark.parametrize(
    ("header", "parts"),
    [
        ("[::1]:8000", ("::1", 8000)),
        ("[::1]", ("::1", None)),
        ("[0:0:0:0:0:0:0:1]:80", ("::1", 80)),
        ("127.0.0.1:8000", ("127.0.0.1", 8000)),
        ("LocalHost", ("localhost", None)),
    ],
)
def test_split_host_reads_names_ipv4_and_bracketed_ipv6(header, parts):
    assert split_host(header) == parts


@pytest.mark.parametrize("header", ["", "::1", "[::1", "[::1]x", "[1.2.3.4]", "a:99999", "a b"])
def test_split_host_refuses_what_is_not_a_host(header):
    with pytest.raises(ValueError, match="not a host and port"):
        split_host(header)


def test_bad_settings_are_one_line_errors():
    with pytest.raises(ValueError, match="unknown agent kind"):
        create_app(4, ["wizard"])
    with pytest.raises(ValueError, match="1 spec or 3"):
        create_app(4, ["heuristic", "random"])
    with pytest.raises(ValueError, match="a Boon table has 3-5 players, got 6"):
        create_app(6)
    with pytest.raises(ValueError, match="cannot read replay file"):
        create_app(replay="/no/such/file.jsonl")


# ------------------------------------------------------------------------------ replays
def test_replay_frames_show_every_hand_forward_and_back():
    app = create_app(replay=REPLAY, coach=False)
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        assert client.hello == {**client.hello, "mode": "replay", "rounds": 3}
        start = client.request({"type": "frame", "round": 0, "step": 0})[-1]
        assert start["steps"] == 35 and start["seats"] == [
            "ppo",
            "heuristic",
            "heuristic",
            "search",
        ]
        hands = start["table"]["hands"]
        assert all(len(hand) == 7 for hand in hands) and len(start["table"]["boon"]) == 4
        assert start["event"] is None
        later = client.request({"type": "frame", "round": 0, "step": 20})[-1]
        back = client.request({"type": "frame", "round": 0, "step": 19})[-1]
        again = client.request({"type": "frame", "round": 0, "step": 20})[-1]
        assert again["table"] == later["table"] and back["table"] != later["table"]
        end = client.request({"type": "frame", "round": 0, "step": 35})[-1]
        assert end["summary"]["payout"] == [-1, -1, -1, 3]
        assert end["summary"]["discards"] == names_of(mask_of([5, 6, 9, 16]))
        leaster = client.request({"type": "frame", "round": 2, "step": 32})[-1]
        assert leaster["summary"]["leaster"] and leaster["summary"]["picker"] is None
        for bad, error in [
            ({"type": "frame", "round": 3, "step": 0}, "round must be 0-2"),
            ({"type": "frame", "round": 0, "step": 36}, "step must be 0-35"),
            ({"type": "frame", "round": 0, "step": -1}, "step must be 0-35"),
            ({"type": "new"}, "shows a replay"),
            ({"type": "act", "game": "x", "action": "pick"}, "shows a replay"),
        ]:
            reply = client.request(bad)[-1]
            assert reply["type"] == "error" and error in reply["error"], reply


def test_a_failing_agent_is_an_internal_error_not_the_clients(client, app, caplog):
    replies = client.request({"type": "new"})
    session = sessions(app)[client.game].session

    def broken(observation, action_mask):
        raise ValueError("an agent bug")

    for agent in session.agents.values():
        agent.act = broken
    action = next(a for a in replies[-1]["legal"] if a != "pick")  # so that an agent moves next
    reply = client.request({"type": "act", "game": client.game, "action": action})
    assert reply[-1] == {
        **reply[-1],
        "type": "error",
        "error": "internal error (the server's log has it)",
    }
    assert "an agent bug" in caplog.text
    assert client.request({"type": "new"})[-1]["legal"]  # the connection and server go on
