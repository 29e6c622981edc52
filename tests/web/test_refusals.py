"""A refused message changes nothing: the tab's game survives a bad ``new``, malformed ``type``
fields get the one-line refusal, another scheme's page is another origin, and a closed tab's
game does not count against its address's limit."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from agents.cli import main
from agents.web.app import create_app
from agents.web.protocol import parse_message
from agents.web.store import ClientError
from tests.helpers.web import WS, Client


@pytest.fixture
def http() -> Iterator[TestClient]:
    with TestClient(create_app(seed=11, coach=False, max_games_per_client=2)) as client:
        yield client


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "new", "players": 99},
        {"type": "new", "seed": -1},
        {"type": "new", "seed": 2**40},
        {"type": "new", "game_name": "chess"},
        {"type": "new", "opponents": "wizard"},
        {"type": "new", "players": "4"},
        {"type": "new", "extra": 1},
    ],
)
def test_a_refused_new_keeps_the_tabs_game(http, bad):
    with http.websocket_connect(WS) as websocket:
        tab = Client(websocket)
        tab.request({"type": "new"})
        game = tab.game
        assert tab.request(bad)[-1]["type"] == "error"
        reply = tab.request({"type": "join", "game": game})
        assert reply[0]["type"] == "joined" and reply[-1]["type"] == "state", reply


@pytest.mark.parametrize("kind", [["new"], {}, 1, None, True, 2.5])
def test_a_type_that_is_not_a_string_is_refused_in_one_line(kind):
    with pytest.raises(ClientError, match="'type' must be one of"):
        parse_message(json.dumps({"type": kind}))


def test_a_list_or_object_type_over_the_socket_is_a_refusal(http):
    with http.websocket_connect(WS) as websocket:
        tab = Client(websocket)
        for text in ('{"type": ["new"]}', '{"type": {}}'):
            reply = tab.request(text)[-1]
            assert reply["type"] == "error" and "'type' must be one of" in reply["error"]


@pytest.mark.parametrize("origin", ["https://127.0.0.1", "ws://127.0.0.1", "file://127.0.0.1"])
def test_a_page_of_another_scheme_is_another_origin(http, origin):
    with pytest.raises(WebSocketDisconnect), http.websocket_connect(WS, headers={"origin": origin}):
        pass


def test_the_same_scheme_and_host_is_this_origin(http):
    with http.websocket_connect(WS, headers={"origin": "http://127.0.0.1"}) as websocket:
        assert Client(websocket).hello["type"] == "hello"


def test_closing_tabs_frees_their_games_for_new_ones(http):
    """Nine tabs opened and closed one after another from one address, with a limit of 2."""
    games = http.app.state.server.games
    for _ in range(9):
        with http.websocket_connect(WS) as websocket:
            assert Client(websocket).request({"type": "new"})[-1]["type"] == "state"
    assert len(games) <= 2


def test_a_closed_tabs_game_can_still_be_resumed(http):
    with http.websocket_connect(WS) as websocket:
        tab = Client(websocket)
        tab.request({"type": "new"})
    with http.websocket_connect(WS) as websocket:  # a reload: the page joins its game again
        assert Client(websocket).request({"type": "join", "game": tab.game})[-1]["type"] == "state"


def test_open_tabs_still_count_against_the_limit(http):
    with http.websocket_connect(WS) as a, http.websocket_connect(WS) as b:
        assert Client(a).request({"type": "new"})[-1]["type"] == "state"
        assert Client(b).request({"type": "new"})[-1]["type"] == "state"
        with http.websocket_connect(WS) as c:
            reply = Client(c).request({"type": "new"})[-1]
            assert reply["type"] == "error" and "the limit is 2" in reply["error"]


# ------------------------------------------------------------------------------ the coach
def test_the_coach_can_be_turned_off_from_the_command_line(capsys, monkeypatch):
    made = {}

    def run(app, listener, *args):
        listener.close()
        made["app"] = app

    monkeypatch.setattr("agents.web.app.run", run)
    argv = ["serve", "--no-coach", "--coach-budget", "5", "--port", "0", "--replay-dir", ""]
    assert main(argv) == 0
    server = made["app"].state.server
    assert server.coach is False and server.coaching.budget == 5
    assert server.hello()["coach"] is False


def test_the_coach_answers_a_repeated_question_from_memory_and_keeps_to_its_budget():
    app = create_app(seed=12, coach_budget=0.001, max_games_per_client=4)
    with TestClient(app) as client, client.websocket_connect(WS) as websocket:
        tab = Client(websocket)
        tab.request({"type": "new"})
        first = tab.request({"type": "coach", "game": tab.game, "search": True})[-1]
        assert first["type"] == "coach", first
        again = tab.request({"type": "coach", "game": tab.game, "search": True})[-1]
        assert {**again, "_raw": ""} == {**first, "_raw": ""}  # cached: the budget is spent
        other = tab.request({"type": "coach", "game": tab.game})[-1]
        assert other["type"] == "error" and "used its 0.001 s" in other["error"], other
        assert tab.request({"type": "join", "game": tab.game})[-1]["type"] == "state"


def test_the_coach_refuses_a_second_question_from_an_address_while_it_thinks():
    app = create_app(seed=13, coach=True)
    server = app.state.server
    server.coaching._waiting["testclient"] = 1  # a question of this address is being worked on
    with TestClient(app) as client, client.websocket_connect(WS) as websocket:
        tab = Client(websocket)
        tab.request({"type": "new"})
        reply = tab.request({"type": "coach", "game": tab.game, "search": True})[-1]
        assert reply["type"] == "error" and "coach is busy" in reply["error"]
        assert tab.request({"type": "join", "game": tab.game})[-1]["type"] == "state"
