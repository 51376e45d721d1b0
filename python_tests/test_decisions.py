"""One or more tests for each numbered rule decision D1-D13 of shared/DESIGN.md (copied in
the README). Test names carry the decision they pin down."""

from __future__ import annotations

import pytest

from LudoGame import (
    ForeignPlayerError,
    InvalidPlayersError,
    InvalidPositionError,
    InvalidRollError,
    InvalidStepsError,
    InvalidTokenError,
    InvalidTurnError,
    LudoError,
    LudoGame,
    NoGameError,
    Player,
)

NOT_FOUND = "Player not found!"
STARTS = {"A": 1, "B": 15, "C": 29, "D": 43}


def play(players: list[str], turns: list[tuple[str, int]]) -> tuple[LudoGame, list[str]]:
    game = LudoGame()
    return game, game.play_game(players, turns)


def player(game: LudoGame, position: str) -> Player:
    p = game.get_player_by_position(position)
    assert isinstance(p, Player)
    return p


def snapshot(game: LudoGame) -> tuple[str, list[str], list[tuple[int, int]]]:
    return repr(game), game.get_spaces(), [p.steps for p in game.players]


# --- D1: space names -------------------------------------------------------------------


@pytest.mark.parametrize("position", "ABCD")
def test_d1_every_space_name(position: str) -> None:
    """D1: -1 'H', 0 'R', 57 'E', 51-56 '<pos>1'-'<pos>6', 1-50 the track number."""
    p = Player(position)
    assert p.get_space_name(-1) == "H"
    assert p.get_space_name(0) == "R"
    assert p.get_space_name(57) == "E"
    for k in range(1, 7):
        assert p.get_space_name(50 + k) == f"{position}{k}"
    for s in range(1, 51):
        expected = (STARTS[position] - 1 + s - 1) % 56 + 1
        assert p.get_space_name(s) == str(expected)
    for s in range(-1, 58):
        assert type(p.get_space_name(s)) is str


def test_d1_never_zero_b_step_42_is_56() -> None:
    """D1: the track wraps 56 -> 1, never to '0'."""
    b = Player("B")
    assert b.get_space_name(42) == "56"
    assert b.get_space_name(43) == "1"
    assert b.get_space_name(50) == "8"
    assert b.get_space_name(55) == "B5"
    assert [Player(x).start_space for x in "ABCD"] == [1, 15, 29, 43]
    assert [Player(x).end_space for x in "ABCD"] == [50, 8, 22, 36]


# --- D2: get_player_by_position --------------------------------------------------------


def test_d2_same_live_object_every_time() -> None:
    """D2: the same Player object each call, and it shows later moves."""
    game, _ = play(["A", "B"], [("A", 6)])
    a = game.get_player_by_position("A")
    assert a is game.get_player_by_position("A")
    assert isinstance(a, Player)
    assert a.get_token_p_step_count() == 0
    game.move_token(a, "p", 5)
    assert a.get_token_p_step_count() == 5
    game.play_turn("A", 3)
    assert a.get_token_p_step_count() == 8
    assert game.players == [a, game.get_player_by_position("B")]


@pytest.mark.parametrize("bad", ["Z", "a", "C", "", "AB", 5, None, 1.5, ["A"], b"A", "E"])
def test_d2_not_found(bad: object) -> None:
    """D2: anything but a playing position's letter gives "Player not found!"."""
    game, _ = play(["A", "B"], [])
    assert game.get_player_by_position(bad) == NOT_FOUND


def test_d2_not_found_before_any_game() -> None:
    """D2: a LudoGame that has played no game has no players."""
    assert LudoGame().get_player_by_position("A") == NOT_FOUND


# --- D3: play_game's answer ------------------------------------------------------------


def test_d3_order_of_players_list() -> None:
    """D3: spaces come in the order of the players list given, p then q."""
    _, spaces = play(["C", "A"], [("A", 6), ("A", 2), ("C", 6), ("C", 1)])
    assert spaces == ["29", "H", "2", "H"]


def test_d3_empty_turns_all_home() -> None:
    """D3: an empty turns list leaves every token in its yard."""
    _, spaces = play(["D", "B", "A"], [])
    assert spaces == ["H"] * 6


# --- D4: leaving the yard --------------------------------------------------------------


def test_d4_only_a_six_leaves_the_yard_and_is_used_up() -> None:
    """D4: non-6 rolls never move a yard token; a 6 moves it to 'R' and nothing else."""
    _, spaces = play(["A", "B"], [("A", r) for r in range(1, 6)])
    assert spaces == ["H", "H", "H", "H"]
    game, spaces = play(["A", "B"], [("A", 6)])
    assert spaces == ["R", "H", "H", "H"]
    assert player(game, "A").get_token_p_step_count() == 0


# --- D5: from R, bounce, finish --------------------------------------------------------


def test_d5_ready_then_roll_gives_that_step() -> None:
    """D5: from R a roll r gives step r (A's step 4 is space 4)."""
    game, spaces = play(["A"], [("A", 6), ("A", 4)])
    assert spaces == ["4", "H"]
    assert player(game, "A").get_token_p_step_count() == 4


def test_d5_bounce_as_the_assignment_describes() -> None:
    """D5: from A5 a 4 bounces back to A5, a 5 to A4 (step 54, not 60); exact reaches E."""
    game, _ = play(["A"], [("A", 6)])
    a = player(game, "A")
    game.move_token(a, "p", 55)
    assert a.spaces[0] == "A5"
    game.move_token(a, "p", 4)
    assert (a.get_token_p_step_count(), a.spaces[0]) == (55, "A5")
    game.move_token(a, "p", 5)
    assert (a.get_token_p_step_count(), a.spaces[0]) == (54, "A4")
    game.move_token(a, "p", 3)
    assert (a.get_token_p_step_count(), a.spaces[0]) == (57, "E")


def test_d5_finished_token_never_moves() -> None:
    """D5: a token at 'E' stays there, whatever is rolled or asked."""
    game, _ = play(["A"], [("A", 6)])
    a = player(game, "A")
    game.move_token(a, "p", 57)
    for roll in range(1, 7):
        game.move_token(a, "p", roll)
        assert a.get_token_p_step_count() == 57
    game.play_turn("A", 3)  # q is in the yard: nothing can move
    assert a.steps == (57, -1)


# --- D6: the ready position is off the track -------------------------------------------


def test_d6_ready_tokens_are_not_stacked() -> None:
    """D6: two tokens on R are not stacked: a roll moves only one of them."""
    game, spaces = play(["A"], [("A", 6), ("A", 6), ("A", 3)])
    assert spaces == ["3", "R"]


def test_d6_ready_token_is_never_kicked() -> None:
    """D6: a token on R is not on space 1; an opponent landing on space 1 does not kick it."""
    game, _ = play(["A", "B"], [("A", 6), ("B", 6)])
    game.move_token(player(game, "B"), "p", 43)  # B's step 43 is space 1
    assert game.get_spaces() == ["R", "H", "1", "H"]


# --- D7: kicking -----------------------------------------------------------------------


def test_d7_stacked_pair_is_kicked_home_unstacked() -> None:
    """D7: a kicked stacked pair goes home as two tokens (instructor case 6)."""
    turns = [("A", 6), ("A", 2), ("A", 2), ("A", 6), ("A", 4), ("A", 5), ("A", 4), ("A", 4),
             ("B", 6), ("B", 3)]  # fmt: skip
    game, spaces = play(["A", "B"], turns)
    assert spaces == ["H", "H", "17", "H"]
    game.play_turn("A", 6)
    assert game.get_spaces() == ["R", "H", "17", "H"]


def test_d7_start_space_is_ordinary() -> None:
    """D7: B moving from R with a 1 onto space 15 kicks the A token standing there."""
    _, spaces = play(["A", "B"], [("A", 6), ("A", 5), ("A", 5), ("A", 5), ("B", 6), ("B", 1)])
    assert spaces == ["H", "H", "15", "H"]


def test_d7_only_the_landing_space_kicks() -> None:
    """D7: passing over an opponent does not kick it."""
    turns = [("A", 6), ("A", 5), ("A", 5), ("A", 5), ("A", 1), ("B", 6), ("B", 3)]
    _, spaces = play(["A", "B"], turns)  # B passes A's token on 16 and lands on 17
    assert spaces == ["16", "H", "17", "H"]


def test_d7_home_squares_and_end_are_safe() -> None:
    """D7: tokens in home squares or at E are never kicked; reaching E kicks nobody."""
    game, _ = play(["A", "B"], [("A", 6), ("A", 6), ("B", 6)])
    a, b = player(game, "A"), player(game, "B")
    game.move_token(a, "p", 53)  # A3
    game.move_token(a, "q", 57)  # E
    game.move_token(b, "p", 37)  # B step 37 is space 51 = A's step 51, a track space for B
    assert a.steps == (53, 57)
    assert b.get_token_p_step_count() == 37


def test_d7_kick_is_reported_to_the_kicked_player() -> None:
    """D7: the kicked player's live view shows the token back at -1."""
    game, _ = play(["A", "B"], [("A", 6), ("A", 3), ("B", 6)])
    a = player(game, "A")
    game.move_token(player(game, "B"), "p", 45)  # B's step 45 is space 3
    assert a.get_token_p_step_count() == -1


# --- D8: stacking ----------------------------------------------------------------------


def test_d8_stacked_tokens_move_together() -> None:
    """D8: once on the same space the two tokens move as one (instructor case 3)."""
    turns = [("A", 6), ("A", 3), ("A", 6), ("A", 3), ("A", 6), ("A", 5), ("A", 4), ("A", 6),
             ("A", 4)]  # fmt: skip
    game, spaces = play(["A", "B"], turns)
    assert spaces == ["28", "28", "H", "H"]
    assert player(game, "A").steps == (28, 28)


def test_d8_stack_in_home_squares_bounces_and_finishes_together() -> None:
    """D8: a stack in the home squares bounces as one and reaches E as one."""
    game, _ = play(["A"], [("A", 6), ("A", 6)])
    a = player(game, "A")
    game.move_token(a, "p", 54)
    game.move_token(a, "q", 54)
    assert a.spaces == ("A4", "A4")
    game.move_token(a, "q", 6)  # 60 -> bounces to 54
    assert a.steps == (54, 54)
    game.play_turn("A", 3)
    assert a.steps == (57, 57)
    assert a.get_completed()


def test_d8_move_token_moves_the_whole_stack() -> None:
    """D8/D12: move_token on one token of a stack moves both."""
    game, _ = play(["A"], [("A", 6), ("A", 6), ("A", 2), ("A", 2)])
    a = player(game, "A")
    assert a.steps == (2, 2)
    game.move_token(a, "q", 5)
    assert a.steps == (7, 7)


# --- D9: the priority rule -------------------------------------------------------------


def test_d9_rule1_six_releases_yard_token_p_first() -> None:
    """D9 rule 1: a 6 brings a token out of the yard, p when both are there."""
    _, spaces = play(["A"], [("A", 6)])
    assert spaces == ["R", "H"]
    _, spaces = play(["A"], [("A", 6), ("A", 4), ("A", 6)])
    assert spaces == ["4", "R"]


def test_d9_rule1_beats_rule2() -> None:
    """D9: with p on A1 and q in the yard, a 6 releases q (instructor case 7)."""
    turns = [("A", 6)] + [("A", r) for r in [4, 5, 4, 4, 4, 5, 4, 5, 5, 3, 5, 3]] + [("A", 6)]
    _, spaces = play(["A", "B"], turns)
    assert spaces == ["A1", "R", "H", "H"]


def test_d9_rule2_exact_finish() -> None:
    """D9 rule 2: a home-square token that finishes exactly moves (instructor case 8)."""
    game, _ = play(["A"], [("A", 6), ("A", 6)])
    a = player(game, "A")
    game.move_token(a, "p", 53)
    game.move_token(a, "q", 10)
    game.play_turn("A", 4)  # p reaches E even though q is further from the finish
    assert a.steps == (57, 10)
    game.play_turn("A", 4)
    assert a.steps == (57, 14)


def test_d9_rule3_kick_first() -> None:
    """D9 rule 3: the token that would kick moves (grader test, rule 3)."""
    turns = [("A", 6), ("A", 5), ("A", 6), ("A", 4), ("B", 6), ("B", 6), ("B", 2), ("B", 2),
             ("A", 6), ("A", 6)]  # fmt: skip
    game, spaces = play(["A", "B"], turns)
    assert spaces == ["5", "16", "H", "H"]
    assert player(game, "B").get_token_p_step_count() == -1


def test_d9_rule3_p_when_both_would_kick() -> None:
    """D9 rule 3: when both tokens would kick, p moves."""
    game, _ = play(["A", "B"], [("A", 6), ("A", 6), ("B", 6), ("B", 6)])
    a, b = player(game, "A"), player(game, "B")
    game.move_token(a, "p", 10)
    game.move_token(a, "q", 20)
    game.move_token(b, "p", 1)  # space 15 = A's p + 5
    game.move_token(b, "q", 11)  # space 25 = A's q + 5
    game.play_turn("A", 5)
    assert a.steps == (15, 20)
    assert b.steps == (-1, 11)


def test_d9_rule4_lower_step_and_tie_goes_to_p() -> None:
    """D9 rule 4: the token with the lower step count moves; p on a tie (case 4)."""
    _, spaces = play(["A"], [("A", 6), ("A", 6), ("A", 2)])
    assert spaces == ["2", "R"]
    _, spaces = play(["A"], [("A", 6), ("A", 6), ("A", 2), ("A", 1)])
    assert spaces == ["2", "1"]
    turns = [("A", 6), ("A", 4), ("A", 4), ("A", 4), ("A", 5), ("A", 6), ("A", 4), ("A", 6),
             ("A", 4), ("A", 6), ("A", 6), ("A", 6), ("A", 4), ("A", 6), ("A", 6), ("C", 6),
             ("C", 4)]  # fmt: skip
    _, spaces = play(["A", "C"], turns)
    assert spaces == ["33", "H", "32", "H"]


def test_d9_only_one_token_can_move() -> None:
    """D9: with one token in the yard and no 6, the other token moves whatever its count."""
    _, spaces = play(["A"], [("A", 6), ("A", 3), ("A", 5)])
    assert spaces == ["8", "H"]


# --- D10: turns and completion ---------------------------------------------------------


def test_d10_completed_player_turns_ignored_others_go_on() -> None:
    """D10: after both tokens reach E the player is completed and its turns are ignored."""
    game, _ = play(["A", "B"], [("A", 6), ("A", 6)])
    a, b = player(game, "A"), player(game, "B")
    game.move_token(a, "p", 57)
    assert not a.get_completed()
    game.move_token(a, "q", 57)
    assert a.get_completed() and a.completed
    assert game.play_turn("A", 6) is None
    assert a.steps == (57, 57)
    game.play_turn("B", 6)
    assert b.steps == (0, -1)


def test_d10_bonus_rolls_not_enforced() -> None:
    """D10: turns apply strictly in list order; consecutive rolls of one player are fine."""
    _, spaces = play(["A", "B"], [("A", 6), ("A", 1), ("A", 1), ("A", 1), ("B", 5), ("A", 2)])
    assert spaces == ["5", "H", "H", "H"]


def test_d10_instructor_case_5_both_finished() -> None:
    """D10: instructor case 5 ends with A completed and its last roll ignored."""
    rolls = [6, 4, 4, 4, 5, 6, 4, 6, 4, 6, 6, 4, 6, 4, 6, 6, 4, 6, 6, 4, 6, 6, 4, 6, 3, 6]
    turns = [("A", r) for r in rolls] + [("B", 6), ("A", 6)]
    game, spaces = play(["A", "B"], turns)
    assert spaces == ["E", "E", "R", "H"]
    assert player(game, "A").get_completed() is True
    assert player(game, "B").get_completed() is False


# --- D11: each play_game is a fresh game -----------------------------------------------


def test_d11_fresh_game_and_old_players_keep_old_game() -> None:
    """D11: play_game starts anew; Player objects of the earlier game still describe it."""
    game, _ = play(["A", "B"], [("A", 6), ("A", 4)])
    old_a = player(game, "A")
    spaces = game.play_game(["A", "C"], [("C", 6)])
    assert spaces == ["H", "H", "R", "H"]
    new_a = player(game, "A")
    assert new_a is not old_a
    assert old_a.get_token_p_step_count() == 4
    assert new_a.get_token_p_step_count() == -1
    assert game.get_player_by_position("B") == NOT_FOUND


# --- D12: move_token -------------------------------------------------------------------


def test_d12_move_token_from_yard_needs_six() -> None:
    """D12: from the yard only a 6 moves the token (to R); it returns None."""
    game, _ = play(["A", "B"], [])
    a = player(game, "A")
    assert game.move_token(a, "q", 5) is None
    assert a.steps == (-1, -1)
    assert game.move_token(a, "q", 6) is None
    assert a.steps == (-1, 0)


def test_d12_move_token_kicks_and_completes() -> None:
    """D12: kicks and completion are applied by move_token."""
    game, _ = play(["A", "B"], [("A", 6), ("A", 6), ("B", 6)])
    a, b = player(game, "A"), player(game, "B")
    game.move_token(b, "p", 3)  # B on space 17
    game.move_token(a, "p", 17)  # A's step 17 is space 17
    assert b.steps == (-1, -1)
    game.move_token(a, "p", 40)
    game.move_token(a, "q", 57)
    assert a.get_completed()


def test_d12_position_string_accepted_as_player() -> None:
    """D12: move_token also takes the player's position letter."""
    game, _ = play(["A", "B"], [("A", 6)])
    game.move_token("A", "p", 2)
    assert game.get_spaces() == ["2", "H", "H", "H"]


# --- D13: bad input --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "turns", "error", "mentions"),
    [
        ([], [], InvalidPlayersError, "empty"),
        (["A", "A"], [], InvalidPlayersError, "'A'"),
        (["A", "E"], [], InvalidPositionError, "'E'"),
        (["A", "b"], [], InvalidPositionError, "'b'"),
        (["A", "B"], [("C", 6)], InvalidPositionError, "'C'"),
        (["A", "B"], [("A", 6), ("A", 0)], InvalidRollError, "0"),
        (["A", "B"], [("A", 7)], InvalidRollError, "7"),
        (["A", "B"], [("A", 10**30)], InvalidRollError, "1000000000000000000000000000000"),
        (["A", "B"], [("A",)], InvalidTurnError, "('A',)"),
        (["A", "B"], [("A", 6, 1)], InvalidTurnError, "('A', 6, 1)"),
        (["A", "B"], ["A6"], InvalidTurnError, "'A6'"),
        (["A", "B"], [None], InvalidTurnError, "None"),
    ],
)
def test_d13_play_game_bad_input(
    players: list[str], turns: list[object], error: type[LudoError], mentions: str
) -> None:
    """D13: a clear LudoError naming the value; the previous game is left as it was."""
    game, _ = play(["A", "B"], [("A", 6), ("A", 3)])
    before = snapshot(game)
    a = player(game, "A")
    with pytest.raises(error) as info:
        game.play_game(players, turns)  # type: ignore[arg-type]
    assert mentions in str(info.value)
    assert isinstance(info.value, ValueError)
    assert snapshot(game) == before
    assert game.get_player_by_position("A") is a


@pytest.mark.parametrize(
    ("players", "turns", "mentions"),
    [
        (["A", "B"], [("A", "6")], "'6'"),
        (["A", "B"], [("A", 6.0)], "6.0"),
        (["A", "B"], [("A", True)], "True"),
        (["A", "B"], [(1, 6)], "int"),
        ([1, 2], [], "int"),
        (None, [], "None"),
        (["A", "B"], 5, "int"),
        (["A", "B"], "A6", "str"),
    ],
)
def test_d13_play_game_wrong_types(players: object, turns: object, mentions: str) -> None:
    """D13: a wrong type is a TypeError naming the offending value."""
    game, _ = play(["A"], [("A", 6)])
    before = snapshot(game)
    with pytest.raises(TypeError) as info:
        game.play_game(players, turns)  # type: ignore[arg-type]
    assert mentions in str(info.value)
    assert snapshot(game) == before


def test_d13_too_many_players() -> None:
    """D13: at most four positions."""
    with pytest.raises(InvalidPlayersError):
        LudoGame().play_game(["A", "B", "C", "D", "A"], [])


def test_d13_move_token_bad_input() -> None:
    """D13: move_token refuses bad token names, step counts and foreign players."""
    game, _ = play(["A", "B"], [("A", 6), ("A", 3)])
    a = player(game, "A")
    before = snapshot(game)
    with pytest.raises(InvalidTokenError, match="'r'"):
        game.move_token(a, "r", 3)
    with pytest.raises(InvalidTokenError, match="'P'"):
        game.move_token(a, "P", 3)
    for steps in (0, -1, 58):
        with pytest.raises(InvalidStepsError, match=str(steps)):
            game.move_token(a, "p", steps)
    for steps_of_wrong_type in (True, 2.0, "3", None):
        with pytest.raises(TypeError):
            game.move_token(a, "p", steps_of_wrong_type)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        game.move_token(a, 1, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        game.move_token(None, "p", 3)  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError):
        game.move_token("C", "p", 3)
    other, _ = play(["A", "B"], [])
    with pytest.raises(ForeignPlayerError, match="'A'"):
        game.move_token(player(other, "A"), "p", 3)
    with pytest.raises(ForeignPlayerError):
        game.move_token(Player("A"), "p", 3)
    assert snapshot(game) == before


def test_d13_move_token_before_any_game() -> None:
    """D13: move_token needs a game."""
    with pytest.raises(NoGameError):
        LudoGame().move_token(Player("A"), "p", 6)


def test_d13_old_player_after_new_game_is_foreign() -> None:
    """D11/D13: a Player of an earlier play_game belongs to another game."""
    game, _ = play(["A", "B"], [])
    a = player(game, "A")
    game.play_game(["A", "B"], [])
    with pytest.raises(ForeignPlayerError):
        game.move_token(a, "p", 6)


@pytest.mark.parametrize("steps", [-2, 58, 100, -(10**20), 10**20])
def test_d13_get_space_name_out_of_range(steps: int) -> None:
    """D13: get_space_name outside -1..57 raises ValueError naming the value."""
    with pytest.raises(ValueError, match=str(steps)):
        Player("A").get_space_name(steps)


@pytest.mark.parametrize("steps", [None, "5", 5.0, True])
def test_d13_get_space_name_wrong_type(steps: object) -> None:
    """D13: get_space_name of a non-int is a TypeError."""
    with pytest.raises(TypeError):
        Player("A").get_space_name(steps)  # type: ignore[arg-type]


# --- the readings of the open decisions (LudoGame(option=value), CS162_READINGS) ------------


def _known_case_answers(game: LudoGame, case: dict[str, object]) -> bool:
    """Whether `game` gives every expected answer of a known case."""
    turns = [tuple(t) for t in case["turns"]]  # type: ignore[attr-defined]
    expected: dict[str, object] = case["expected"]  # type: ignore[assignment]
    if game.play_game(case["players"], turns) != expected["spaces"]:  # type: ignore[arg-type]
        return False
    for key, value in expected.items():
        if key == "spaces":
            continue
        position, what = key.split(".")
        p = player(game, position)
        if what.startswith("name"):
            got: object = p.get_space_name(int(what[4:]))
        else:
            got = {"completed": p.completed, "p": p.steps[0], "q": p.steps[1]}[what]
        if got != value:
            return False
    return True


def test_readings_ruled_out_exactly_by_the_published_cases_they_fail() -> None:
    """Each reading the engine plays names the published cases that rule it out, and those
    are exactly the known cases it fails: the others are allowed readings (D6-D12)."""
    from conftest import load_known_cases
    from LudoGame._core import CS162_DECISIONS, CS162_READINGS

    cases = load_known_cases()
    open_ = {d for d, _, is_open in CS162_DECISIONS if is_open}
    seen: set[str] = set()
    for decision, option, value, _text, ruled_out_by in CS162_READINGS:
        assert decision in open_
        failed = [c["id"] for c in cases if not _known_case_answers(LudoGame(**{option: value}), c)]
        assert ", ".join(failed) == ruled_out_by, (option, value)
        if option not in seen:  # the first value of each option is the engine's own
            seen.add(option)
            assert LudoGame(**{option: value}).readings == LudoGame().readings
    allowed = {(o, v) for _, o, v, _, r in CS162_READINGS if not r}
    assert ("move_stack", "token") in allowed and ("stacking", "none") not in allowed


def test_the_engines_reading_by_name_answers_as_ludogame() -> None:
    engine = LudoGame().readings
    turns = [("A", 6), ("A", 6), ("A", 2), ("A", 2), ("B", 6), ("B", 4), ("A", 5)]
    named = LudoGame(**engine).play_game(["A", "B"], turns)
    assert named == LudoGame().play_game(["A", "B"], turns) == ["7", "7", "18", "H"]


def test_readings_are_checked() -> None:
    from LudoGame import InvalidRulesError

    with pytest.raises(InvalidRulesError, match="'all', 'one', 'passed', 'start_safe'"):
        LudoGame(kick="two")
    with pytest.raises(InvalidRulesError, match="unknown CS162 reading 'colour'"):
        LudoGame(colour="red")
    with pytest.raises(TypeError, match="the reading kick must be a str"):
        LudoGame(kick=1)  # type: ignore[arg-type]


def test_d12_reading_move_token_moves_the_named_token_alone() -> None:
    game = LudoGame(move_stack="token")
    game.play_game(["A"], [("A", 6), ("A", 6), ("A", 2), ("A", 2)])
    game.move_token(player(game, "A"), "q", 5)
    assert player(game, "A").steps == (2, 7)


def test_d11_reading_continued_keeps_the_positions_that_played() -> None:
    game = LudoGame(games="continued")
    game.play_game(["A", "B"], [("A", 6), ("A", 3)])
    assert game.play_game(["A", "C"], [("C", 6)]) == ["3", "H", "R", "H"]


def test_every_turn_is_tagged_with_the_decisions_it_touched(
    worked_example_turns: list[tuple[str, int]],
) -> None:
    game = LudoGame()
    tags = game.trace_game(["A", "B"], worked_example_turns)
    assert len(tags) == len(worked_example_turns) and all(tags)
    assert tags[0] == ["D4", "D9.1"]  # both in the yard: a 6 brings p out (rule 1)
    assert game.get_spaces() == ["28", "28", "21", "H"]  # it plays the game as play_game
    assert LudoGame().trace_game(["A"], [("A", 6), ("A", 6), ("A", 3)])[2] == ["D5", "D6", "D9.4"]


def test_the_readings_table_of_rules_md_is_the_engines() -> None:
    from pathlib import Path

    from LudoGame._core import CS162_READINGS

    text = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text()
    rows = [line for line in text.splitlines() if line.startswith("| D") and "` |" in line]
    assert len(rows) == len(CS162_READINGS)
    for row, (decision, option, value, what, ruled_out_by) in zip(
        rows, CS162_READINGS, strict=True
    ):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[:3] == [decision, f"`{option}`", cells[2]] and cells[2].startswith(
            f"`{value}`"
        )
        assert cells[3:] == [what, ruled_out_by]
