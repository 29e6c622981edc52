"""Every game at the web table through Starlette's test client: the page's setup, B.O.N and
BOYN played whole and checked for hidden cards on the wire, the coach's values and its review
of a move, saved rounds that replay, replays of every game (and a clear error for a file that is
none), the rules panel, and the server's id that tells a page it restarted."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from starlette.testclient import TestClient

from agents.eval.arena import run_arena
from agents.registry import game_spec
from agents.web.app import create_app
from agents.web.replay import load_replay
from boon_env.games.bon.rules import Deal as BonDeal
from boon_env.games.bon.rules import GameConfig as BonConfig
from boon_env.games.bon.rules import Round as BonRound
from boon_env.games.bon.rules import names_of as bon_names
from boon_env.games.boyn.rules import Deal as BoynDeal
from boon_env.games.boyn.rules import GameConfig as BoynConfig
from boon_env.games.boyn.rules import Round as BoynRound
from boon_env.games.boyn.rules import card_name as boyn_card_name
from boon_env.games.boyn.rules import names_of as boyn_names
from tests.helpers.web import WS, Client

REPLAY = Path(__file__).parents[1] / "data" / "replay_4p.jsonl"
BON_CARD = re.compile(r"\b(?:red|yellow|blue) \d+\b")
BOYN_CARD = re.compile(r"\b(?:ace|king|queen|jack|\d+) of (?:clubs|diamonds|hearts|spades)\b")


@pytest.fixture
def app(tmp_path):
    return create_app(seed=3, replay_dir=tmp_path / "replays")


def new(client: Client, **setup) -> list[dict]:
    return client.request({"type": "new", **setup})


def play_round(client: Client, replies: list[dict]) -> list[dict]:
    """Play the first legal move at every turn to the round's end; every state message."""
    states = [m for m in replies if m["type"] == "state"]
    while not states[-1]["summary"]:
        action = states[-1]["legal"][0]
        replies = client.request({"type": "act", "game": client.game, "action": action})
        states += [m for m in replies if m["type"] == "state"]
    return states


def session_of(app, client: Client):
    return app.state.server.games._entries[client.game].session


# ------------------------------------------------------------------------------ the setup
def test_hello_offers_every_game_with_its_faces_and_the_servers_id(app):
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        hello = Client(websocket).hello
    assert list(hello["games"]) == ["boon", "bon", "boyn"] and hello["game"] == "boon"
    assert hello["games"]["boyn"]["players"] == [2, 3, 4, 5, 6]
    assert hello["games"]["bon"]["faces"]["cards"]["blue 11"] == ["blue", "11", ""]
    assert hello["games"]["boyn"]["faces"]["suits"]["hearts"]["symbol"] == "♥"
    assert hello["games"]["boon"]["opponents"] == ["heuristic", "random"]
    assert len(hello["server"]) >= 8 and hello["idle_timeout"] == 300


@pytest.mark.parametrize(
    ("setup", "seats"),
    [
        ({"game_name": "bon", "players": 5, "opponents": "random"}, ["you", *["random"] * 4]),
        ({"game_name": "boyn", "players": 2}, ["you", "heuristic"]),
        ({"game_name": "boon"}, ["you", *["heuristic"] * 3]),
    ],
)
def test_the_page_chooses_game_players_and_opponents(app, setup, seats):
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        replies = new(client, coach=True, **setup)
        joined, state = replies[0], replies[-1]
        assert joined["game_name"] == setup["game_name"] and joined["seats"] == seats
        assert joined["coach"] is True and state["table"]["players"] == len(seats)
        assert state["names"][0] == "You" and state["prompt"]["text"]


def test_a_seed_from_the_page_deals_the_same_game_again(app):
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        first = new(client, game_name="bon", seed=42)[-1]
        again = new(client, game_name="bon", seed=42)[-1]
        other = new(client, game_name="bon", seed=43)[-1]
    assert first["table"]["hands"] == again["table"]["hands"] != other["table"]["hands"]


@pytest.mark.parametrize(
    ("setup", "error"),
    [
        ({"game_name": "chess"}, "unknown game 'chess'"),
        ({"game_name": "bon", "players": 6}, "a B.O.N table has 3-5 players"),
        ({"game_name": "boyn", "opponents": "ppo:path=/etc/passwd"}, "opponents must be one of"),
        ({"seed": -1}, "seed must be 0-"),
        ({"seed": 2**40}, "seed must be 0-"),
        ({"players": "4"}, "'players' has the wrong type"),
        ({"coach": "yes"}, "'coach' has the wrong type"),
    ],
)
def test_a_bad_setup_is_refused_and_starts_nothing(app, setup, error):
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        reply = Client(websocket).request({"type": "new", **setup})
    assert len(reply) == 1 and reply[0]["type"] == "error" and error in reply[0]["error"]
    assert len(app.state.server.games) == 0


def test_a_bad_action_name_in_another_game_is_refused(app):
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        new(client, game_name="boyn")
        for action, error in [
            ("gold 14", "not a card"),
            ("x" * 41, "action must be"),
            ("pick", ""),
        ]:
            reply = client.request({"type": "act", "game": client.game, "action": action})[-1]
            assert reply["type"] == "error" and error in reply["error"], reply


# ------------------------------------------------------------------------------ hidden cards
def test_no_bon_message_shows_another_seats_cards(app):
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        for _ in range(2):
            states = play_round(client, new(client, game_name="bon", players=3))
            record = session_of(app, client).records[-1]
            config = BonConfig(num_players=3)
            deal = BonDeal.from_cards(config, *record["deal"].values())
            state = BonRound(config, deal, record["tower"], record["leader"])
            assert len(states) == len(record["actions"]) + 1
            for moves, message in enumerate(states):
                if moves:
                    state.apply(record["actions"][moves - 1])
                mine = bon_names(state.hands[0], state.passes[0])
                assert message["table"]["hands"] == [mine, None, None]
                public = set(mine) | set(bon_names(deal.leftovers))
                for cards in state.played:
                    public |= set(bon_names(cards))
                shown = set(BON_CARD.findall(message["_raw"]))
                assert shown <= public, shown - public


def test_no_boyn_message_shows_another_seats_cards(app):
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        for _ in range(2):
            states = play_round(client, new(client, game_name="boyn", players=3))
            record = session_of(app, client).records[-1]
            config = BoynConfig(num_players=3)
            deal = BoynDeal.from_cards(config, *record["deal"].values())
            state = BoynRound(
                config, deal, record["dealer"], np.random.default_rng(record["reset_seed"])
            )
            assert len(states) == len(record["actions"]) + 1
            for moves, message in enumerate(states):
                if moves:
                    state.apply(record["actions"][moves - 1])
                mine = boyn_names(state.hands[0])
                assert message["table"]["hands"] == [mine, None, None]
                assert message["table"]["hand_sizes"] == state.hand_sizes()
                # Public: my hand, the starter and every card played (what was drawn is not).
                public = set(mine) | {boyn_card_name(deal.stock[0])}
                public |= {m["event"]["card"] for m in states[: moves + 1] if m["event"]}
                shown = set(BOYN_CARD.findall(message["_raw"]))
                assert shown <= public, shown - public


# ------------------------------------------------------------------------------ the coach
@pytest.mark.parametrize("game", ["boon", "bon", "boyn"])
def test_the_coach_values_every_move_and_reviews_the_one_chosen(app, game):
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        legal = new(client, game_name=game, seed=5)[-1]["legal"]
        advice = client.request({"type": "coach", "game": client.game, "search": True})[-1]
        assert set(advice["search"]) == set(legal) and advice["best"] in legal
        assert advice["unit"] == game_spec(game).unit and advice["how"]
        assert advice["cost"][advice["best"]] == 0 and min(advice["cost"].values()) >= 0
        worst = max(advice["cost"], key=advice["cost"].get)
        first = client.request({"type": "act", "game": client.game, "action": worst})[0]
        review = first["review"]
        assert review["action"] == worst and review["best"] == advice["best"]
        assert review["cost"] == pytest.approx(advice["cost"][worst])
        assert review["value"] == pytest.approx(advice["search"][worst])


@pytest.mark.parametrize("game", ["boon", "bon", "boyn"])
def test_the_coach_tells_the_points_every_seat_lost_per_decision_in_a_round(app, game):
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        replies = new(client, game_name=game, players=3, seed=2)
        early = client.request({"type": "losses", "game": client.game})[-1]
        assert early["type"] == "error" and "no round has finished" in early["error"]
        play_round(client, replies)
        losses = client.request({"type": "losses", "game": client.game})[-1]
    assert losses["type"] == "losses" and losses["round"] == 1, losses
    assert losses["unit"] == game_spec(game).unit and losses["how"]
    seats = losses["seats"]
    assert [seat["seat"] for seat in seats] == [0, 1, 2] and seats[0]["name"] == "You"
    assert [seat["agent"] for seat in seats] == ["you", "heuristic", "heuristic"]
    for seat in seats:
        assert seat["decisions"] >= 0 and seat["mean_loss"] >= 0
        assert seat["total_loss"] == pytest.approx(seat["mean_loss"] * seat["decisions"])
        worst = seat["worst"]
        assert worst is None or (worst["loss"] > 0 and worst["chosen"] != worst["best"])
    assert sum(seat["decisions"] for seat in seats) > 0


def test_a_move_without_the_coachs_advice_has_no_review(app):
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        legal = new(client, game_name="bon")[-1]["legal"]
        first = client.request({"type": "act", "game": client.game, "action": legal[0]})[0]
        assert "review" not in first


# ------------------------------------------------------------------------------ summaries
def test_the_round_summary_explains_the_outcome_in_words_and_numbers(app):
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        for game, words in [("bon", "the goal is exactly"), ("boyn", "went out")]:
            summary = play_round(client, new(client, game_name=game))[-1]["summary"]
            assert any(words in line for line in summary["lines"]), summary["lines"]
            assert len(summary["rows"]) == len(summary["lines"]) - 1 or game == "boyn"
            assert all(len(row) == len(summary["columns"]) for row in summary["rows"])


# ------------------------------------------------------------------------------ saved rounds
@pytest.mark.parametrize("game", ["boon", "bon", "boyn"])
def test_finished_rounds_are_saved_as_a_replay_that_serve_opens(app, tmp_path, game):
    with TestClient(app) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        replies = new(client, game_name=game)
        for _ in range(2):
            states = play_round(client, replies)
            if states[-1]["game_over"]:
                break
            replies = client.request({"type": "next", "game": client.game})
        finished = len(session_of(app, client).records)
    (saved,) = (tmp_path / "replays").glob(f"*-{game}-*.jsonl")
    rounds = load_replay(saved)
    assert len(rounds) == finished and rounds[0].web.name == game
    assert rounds[0].seats[0] == "you"
    end = rounds[-1].frame(len(rounds[-1].actions))
    assert end["summary"]["lines"]
    viewer = create_app(replay=saved, coach=False)
    with TestClient(viewer) as http, http.websocket_connect(WS) as websocket:
        client = Client(websocket)
        assert client.hello["mode"] == "replay" and client.hello["game"] == game
        frame = client.request({"type": "frame", "round": 0, "step": 1})[-1]
        assert frame["type"] == "frame" and frame["game_name"] == game


# ------------------------------------------------------------------------------ replays
@pytest.mark.parametrize("game", ["bon", "boyn"])
def test_arena_files_of_every_game_replay_with_every_hand_shown(tmp_path, game):
    path = tmp_path / f"{game}.jsonl"
    run_arena(["heuristic", "random", "heuristic", "random"], deals=2, seed=4, save=path, game=game)
    rounds = load_replay(path)
    assert len(rounds) == 8 and all(r.web.name == game for r in rounds)
    start = rounds[0].frame(0)
    assert all(hand for hand in start["table"]["hands"]) and start["event"] is None
    end = rounds[0].frame(len(rounds[0].actions))
    assert end["summary"]["lines"] and end["names"] == ["Seat 0", "Seat 1", "Seat 2", "Seat 3"]


def test_a_file_of_no_known_game_is_refused_clearly(tmp_path):
    bon = tmp_path / "bon.jsonl"
    run_arena(["heuristic"] * 3, deals=1, seed=1, save=bon, game="bon")
    record = json.loads(bon.read_text().splitlines()[0])
    record["deal"] = {"cards": [1, 2]}
    strange = tmp_path / "strange.jsonl"
    strange.write_text(json.dumps(record) + "\n")
    with pytest.raises(ValueError, match="line 1: not a round of any game the browser shows") as e:
        load_replay(strange)
    assert "bon: hands, leftovers" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(ValueError, match="line 1: 'deal' must hold the lists 'hands' and 'boon'"):
        load_replay(bon, game="boon")  # a B.O.N file read as Boon, as asked


# ------------------------------------------------------------------------------ the rules
@pytest.mark.parametrize(
    ("game", "words"), [("boon", "Victory Cards"), ("bon", "colour tower"), ("boyn", "2-run")]
)
def test_the_rules_panel_serves_each_games_rules(app, game, words):
    with TestClient(app, base_url="http://127.0.0.1") as http:
        rules = http.get(f"/rules/{game}").json()
        assert rules["game"] == game and words in rules["markdown"]
        assert "## The environment" not in rules["markdown"]
        assert http.get("/rules/chess").status_code == 404
        assert http.get("/rules/..%2fapp.py").status_code == 404
