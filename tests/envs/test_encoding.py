"""The observation vector: its layout, the decoder, bounds and the relative-seat convention."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boon_env import boon_v0
from boon_env.games.boon.encoding import (
    OBS_SIZE,
    OFFSETS,
    PIECES,
    ROLE_DEFENDER,
    ROLE_LEASTER,
    ROLE_PICKER,
    ROLE_UNDECIDED,
    action_mask,
    decode,
    encode,
    layout_table,
)
from boon_env.games.boon.rules import (
    MAX_PLAYERS,
    NUM_ACTIONS,
    NUM_CARDS,
    SUIT_OF,
    Deal,
    GameConfig,
    Phase,
    Round,
    cards_of,
)
from tests.helpers.boon import LEASTER_BOON, LEASTER_HANDS, cards, make_round, play

FOUR = GameConfig(num_players=4)


def one_hot(size: int, index: int | None) -> list[float]:
    row = [0.0] * size
    if index is not None:
        row[index] = 1.0
    return row


def card_row(mask: int) -> list[float]:
    return [float(mask >> c & 1) for c in range(NUM_CARDS)]


# ----------------------------------------------------------------------------- layout


def test_pieces_are_contiguous_and_make_up_the_vector() -> None:
    offset = 0
    for piece in PIECES:
        assert OFFSETS[piece.name] == offset, piece.name
        assert piece.size == int(np.prod(piece.shape))
        offset += piece.size
    assert offset == OBS_SIZE
    assert len(OFFSETS) == len(PIECES)


def test_layout_table_rows_match_the_pieces() -> None:
    lines = layout_table().splitlines()
    assert lines[0].startswith("| index | piece | shape |")
    rows = lines[2:]
    assert len(rows) == len(PIECES)
    covered = []
    for row, piece in zip(rows, PIECES, strict=True):
        match = re.match(r"\| (\d+)-(\d+) \| `(\w+)` \| (\([\d, ]+\)) \| (.+) \|$", row)
        assert match, row
        start, end, name, shape, meaning = match.groups()
        assert name == piece.name
        assert (int(start), int(end)) == (OFFSETS[name], OFFSETS[name] + piece.size - 1)
        assert shape == str(piece.shape)
        assert meaning == piece.description
        covered.extend(range(int(start), int(end) + 1))
    assert covered == list(range(OBS_SIZE))


def test_decode_rejects_the_wrong_shape() -> None:
    with pytest.raises(ValueError, match="shape"):
        decode(np.zeros(OBS_SIZE + 1, np.float32))
    pieces = decode(np.arange(OBS_SIZE, dtype=np.float32))
    assert set(pieces) == {p.name for p in PIECES}
    for piece in PIECES:
        assert pieces[piece.name].shape == piece.shape
        assert pieces[piece.name].flat[0] == OFFSETS[piece.name]


def test_action_mask_of_a_bitmask() -> None:
    mask = action_mask((1 << 0) | (1 << 31) | (1 << 33))
    assert mask.dtype == np.int8
    assert mask.shape == (NUM_ACTIONS,)
    assert np.flatnonzero(mask).tolist() == [0, 31, 33]


# ----------------------------------------------------------------------------- content


def expected_pieces(state: Round, seat: int, victory_cards: list[int]) -> dict[str, list]:
    """What RULES.md lets ``seat`` know, in the documented layout, built independently."""
    n = state.config.num_players
    relative = [(seat + r) % n for r in range(n)]
    pad_rows = MAX_PLAYERS - n
    trick_rows = [[0.0] * NUM_CARDS for _ in range(MAX_PLAYERS)]
    for i, card in enumerate(state.trick):
        trick_rows[(state.leader + i - seat) % n][card] = 1.0
    if state.leaster:
        role = ROLE_LEASTER
    elif state.picker is None:
        role = ROLE_UNDECIDED
    else:
        role = ROLE_PICKER if state.picker == seat else ROLE_DEFENDER
    is_picker = state.picker == seat
    return {
        "hand": card_row(state.hands[seat]),
        "boon": card_row(state.boon if is_picker else 0),
        "discards": card_row(state.discards if is_picker else 0),
        "trick": trick_rows,
        "played": [card_row(state.played[s]) for s in relative] + [[0.0] * 32] * pad_rows,
        "phase": one_hot(4, int(state.phase)),
        "role": one_hot(4, role),
        "num_players": one_hot(3, n - 3),
        "dealer": one_hot(5, (state.dealer - seat) % n),
        "picker": one_hot(5, None if state.picker is None else (state.picker - seat) % n),
        "leader": one_hot(5, (state.leader - seat) % n if state.phase is Phase.PLAY else None),
        "passed": [float(state.passed >> s & 1) for s in relative] + [0.0] * pad_rows,
        "voids": [[float(state.voids[s] >> suit & 1) for suit in range(4)] for s in relative]
        + [[0.0] * 4] * pad_rows,
        "points": [state.points[s] / 120 for s in relative] + [0.0] * pad_rows,
        "tricks_won": [state.tricks_won[s] / state.config.num_tricks for s in relative]
        + [0.0] * pad_rows,
        "victory_cards": [victory_cards[s] / sum(victory_cards) for s in relative]
        + [0.0] * pad_rows,
    }


def assert_encodes(state: Round, victory_cards: list[int]) -> None:
    for seat in range(state.config.num_players):
        obs = encode(state, seat, victory_cards)
        assert obs.shape == (OBS_SIZE,)
        assert obs.dtype == np.float32
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        pieces = decode(obs)
        for name, expected in expected_pieces(state, seat, victory_cards).items():
            np.testing.assert_allclose(
                pieces[name], np.array(expected, np.float32), err_msg=f"{name} of seat {seat}"
            )


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_piece_decodes_to_what_the_seat_knows(data: st.DataObject) -> None:
    config = GameConfig(num_players=data.draw(st.sampled_from([3, 4, 5])))
    deal = Deal.random(config, np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))))
    state = Round(config, deal, data.draw(st.integers(0, config.num_players - 1)))
    victory_cards = data.draw(
        st.lists(
            st.integers(0, 9), min_size=config.num_players, max_size=config.num_players
        ).filter(any)
    )
    while True:
        assert_encodes(state, victory_cards)
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[data.draw(st.integers(0, len(legal) - 1))])


def test_hand_and_trick_rows_by_relative_seat() -> None:
    state = make_round(FOUR, LEASTER_HANDS, LEASTER_BOON, dealer=3)
    play(state, "pass, pass, pass, pass, green 1, green 2, red 6")
    for seat in range(4):
        pieces = decode(encode(state, seat, [5, 5, 5, 5]))
        assert cards_of(int(sum(1 << c for c in np.flatnonzero(pieces["hand"])))) == cards_of(
            state.hands[seat]
        )
        # Seat 0 led green 1, seat 1 played green 2, seat 2 red 6: row r = seat (me + r).
        for played_by, card in ((0, "green 1"), (1, "green 2"), (2, "red 6")):
            row = pieces["trick"][(played_by - seat) % 4]
            assert np.flatnonzero(row).tolist() == cards(card)
        assert not pieces["trick"][(3 - seat) % 4].any()
        assert not pieces["trick"][4].any()  # no fifth seat at a four-player table
        assert pieces["leader"].tolist() == one_hot(5, (0 - seat) % 4)
        assert pieces["dealer"].tolist() == one_hot(5, (3 - seat) % 4)
        assert pieces["passed"].tolist() == [1, 1, 1, 1, 0]
        assert pieces["role"][ROLE_LEASTER] == 1


@pytest.mark.parametrize("picker", [0, 1, 2, 3])
def test_picker_seat_is_relative_to_the_observer(picker: int) -> None:
    state = make_round(FOUR, LEASTER_HANDS, LEASTER_BOON, dealer=3)
    for _ in range(picker):
        play(state, "pass")
    play(state, "pick")
    for me in range(4):
        pieces = decode(encode(state, me, [5, 5, 5, 5]))
        assert np.flatnonzero(pieces["picker"]).tolist() == [(picker - me) % 4]
        assert pieces["role"].tolist() == one_hot(4, ROLE_PICKER if me == picker else ROLE_DEFENDER)
        assert np.flatnonzero(pieces["passed"]).tolist() == sorted(
            (s - me) % 4 for s in range(picker)
        )


def test_voids_are_set_when_a_player_fails_to_follow() -> None:
    state = make_round(FOUR, LEASTER_HANDS, LEASTER_BOON, dealer=3)
    play(state, "pass, pass, pass, pass, green 1, green 2")
    assert not decode(encode(state, 0, [5] * 4))["voids"].any()
    play(state, "red 6")  # seat 2 holds no green
    green = SUIT_OF[cards("green 1")[0]]
    for me in range(4):
        voids = decode(encode(state, me, [5] * 4))["voids"]
        assert np.argwhere(voids).tolist() == [[(2 - me) % 4, green]]
    play(state, "gold 10")  # seat 3 neither
    voids = decode(encode(state, 1, [5] * 4))["voids"]
    assert np.argwhere(voids).tolist() == [[1, green], [2, green]]


def test_env_observations_lie_within_the_space() -> None:
    env = boon_v0.env(num_players=5, episode="game", starting_victory_cards=1)
    env.reset(seed=4)
    space = env.observation_space("player_0")
    for agent in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        assert space.contains(obs), agent
        env.step(None if termination or truncation else int(np.flatnonzero(obs["action_mask"])[0]))
