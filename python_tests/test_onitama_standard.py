"""Standard Onitama (no wall) through ``LudoGame.onitama``: ``Onitama.standard``, perft
against the community table, the action text without a wall step, notation/JSON/pickle
round trips, drawings without a wall, the built-in AIs and ``play_match``, and the errors
for mixing the two rule sets."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from LudoGame import LudoError
from LudoGame import onitama as o
from LudoGame._core import onitama_standard_cards

# The community perft table (TangilJ/Onitama): blue hand, red hand, side card, who moves
# first (blue is A, red is B), counts from depth 1 (the Rust tests check deeper).
TABLE = [
    (["ox", "boar", "horse", "elephant", "crab"], "A", [10, 130, 1989, 28509, 487780]),
    (["rabbit", "cobra", "rooster", "tiger", "frog"], "B", [9, 72, 880, 10374, 138879]),
    (["goose", "dragon", "mantis", "eel", "crane"], "A", [10, 120, 1272, 16445, 211643]),
    (["monkey", "tiger", "crab", "dragon", "mantis"], "B", [11, 143, 1807, 23949, 325011]),
]


@pytest.mark.parametrize(("cards", "first", "counts"), TABLE)
def test_perft_agrees_with_the_community_table(
    cards: list[str], first: str, counts: list[int]
) -> None:
    game = o.Onitama.standard(cards=cards, first=first)
    assert game.rules == "standard"
    assert game.turn == first
    assert [game.perft(d) for d in range(1, len(counts) + 1)] == counts


def test_standard_start_and_action_text() -> None:
    game = o.Onitama.standard(cards=["Ox", "Boar", "Horse", "Elephant", "Crab"])
    assert game.board == ["bbBbb", "     ", "     ", "     ", "aaAaa"]
    assert game.to_notation().endswith(" standard")
    actions = game.legal_moves
    assert len(actions) == 10
    for a in actions:
        assert a.standard and a.wall is None
        assert len(str(a).split()) == 3
        assert o.Action(str(a), standard=True) == a
    played = game.play("1 e3 d3")
    assert str(played) == "1 e3 d3"
    assert game.turn == "B"
    assert game.undo() == played


def test_a_winning_move_is_written_like_any_other() -> None:
    game = o.Onitama.from_notation(
        "bb.bb/..A../B..../...../aa.aa A n=50 A1:Ox A2:Boar B1:Horse B2:Elephant side:Crab standard"
    )
    a = game.play("2 b3 a3")
    assert a.is_win and str(a) == "2 b3 a3"
    assert game.is_over() and game.winner == "A"


def test_the_rule_sets_do_not_mix() -> None:
    std = o.Onitama.standard(seed=5)
    wall = o.Onitama.setup(21)
    with pytest.raises(LudoError, match="no wall"):
        std.play("1 e1 d1 s")
    with pytest.raises(LudoError, match="wall step"):
        wall.play("1 e2 d2")
    with pytest.raises(LudoError):
        std.play(wall.legal_moves[0])
    with pytest.raises(LudoError):
        wall.play(std.legal_moves[0])
    with pytest.raises(LudoError):
        o.Onitama.standard(cards=["ox", "ox", "horse", "elephant", "crab"])
    with pytest.raises(LudoError):
        o.Onitama.standard(cards=["ox", "boar", "horse", "elephant", "unicorn"])
    with pytest.raises(LudoError):
        o.Onitama.standard()
    with pytest.raises(LudoError):
        o.Onitama.standard(seed=1, first="A")
    # Nothing changed.
    assert std.history == [] and wall.history == []


def test_random_deals() -> None:
    blue = {"Tiger", "Rabbit", "Crab", "Goose", "Monkey", "Ox", "Crane", "Eel"}
    for seed in range(30):
        game = o.Onitama.standard(seed=seed)
        side = game.cards["side"]
        assert game.turn == ("A" if side.name in blue else "B")
        assert len({c.name for c in game.cards.values()}) == 5
    assert o.Onitama.standard(seed=3) == o.Onitama.standard(seed=3)


SENSEI = ["Fox", "Dog", "Giraffe", "Panda", "Bear", "Kirin", "Sea Snake", "Viper", "Phoenix"]
SENSEI += ["Mouse", "Rat", "Turtle", "Tanuki", "Iguana", "Sable", "Otter"]
SENSEI_BLUE = {"Dog", "Giraffe", "Bear", "Sea Snake", "Phoenix", "Mouse", "Tanuki", "Sable"}


def test_sensei_path_cards_by_name_and_set() -> None:
    assert [c.name for c in o.SENSEI_CARDS] == SENSEI
    assert o.CARD_SETS == ("base", "sensei", "all")
    assert len(onitama_standard_cards("all")) == 32
    # Kirin: two up and one sideways, both ways; two down (up is -1).
    assert sorted(o.Card("kirin").offsets) == [(-2, -1), (-2, 1), (2, 0)]
    assert o.Card("sea_snake") == o.Card("SEA SNAKE") == o.Card("Sea-Snake")
    assert str(o.Card("seasnake")) == "Sea Snake"
    game = o.Onitama.standard(cards=["Sea Snake", "Kirin", "ox", "Phoenix", "Turtle"], first="B")
    text = game.to_notation()
    assert "A1:Sea_Snake" in text and " standard" in text
    assert o.Onitama.from_notation(text) == game
    assert o.Onitama.from_json(game.to_json()) == game
    assert pickle.loads(pickle.dumps(game)) == game
    assert 'data-name="Sea Snake"' in game._repr_svg_()
    assert game.cards["A1"].name == "Sea Snake"


@pytest.mark.parametrize("card_set", ["base", "sensei", "all"])
def test_random_deals_from_a_card_set(card_set: str) -> None:
    names = {c.name for c in onitama_standard_cards(card_set)}
    blue = SENSEI_BLUE | {"Tiger", "Rabbit", "Crab", "Goose", "Monkey", "Ox", "Crane", "Eel"}
    for seed in range(40):
        game = o.Onitama.standard(seed=seed, card_set=card_set)
        cards = [c.name for c in game.cards.values()]
        assert set(cards) <= names and len(set(cards)) == 5
        assert game.turn == ("A" if game.cards["side"].name in blue else "B")
        assert o.Onitama.from_notation(game.to_notation()) == game
    assert o.Onitama.standard(seed=4, card_set="base") == o.Onitama.standard(seed=4)
    assert o.Onitama.standard(seed=4, card_set=card_set.upper()).to_notation() == (
        o.Onitama.standard(seed=4, card_set=card_set).to_notation()
    )


def test_bad_card_sets_and_cards_are_clear_errors() -> None:
    with pytest.raises(LudoError, match="base, sensei, all"):
        o.Onitama.standard(seed=1, card_set="promo")
    with pytest.raises(TypeError, match="card_set"):
        o.Onitama.standard(seed=1, card_set=3)  # type: ignore[arg-type]
    with pytest.raises(LudoError, match="card_set"):
        o.Onitama.standard(cards=["ox", "boar", "horse", "elephant", "crab"], card_set="all")
    with pytest.raises(LudoError, match="different"):
        o.Onitama.standard(cards=["Sea Snake", "sea_snake", "ox", "boar", "crab"])
    with pytest.raises(LudoError, match="Unicorn"):
        o.Onitama.standard(cards=["Sea Snake", "Unicorn", "ox", "boar", "crab"])
    with pytest.raises(LudoError):
        onitama_standard_cards("nope")


@settings(max_examples=150, deadline=None)
@given(
    name=st.one_of(
        st.text(max_size=30),
        st.sampled_from(SENSEI + ["Tiger", "all", "sensei", "base"]).map(
            lambda n: n.replace(" ", "_-")
        ),
    ),
    seed=st.integers(0, 2**64 - 1),
)
def test_hostile_card_names_and_sets(name: str, seed: int) -> None:
    """Any text as a card name or a card set: a card, a deal, or a clear LudoError."""
    try:
        card = o.Card(name)
    except LudoError:
        pass
    else:
        assert o.Card(str(card)) == card
    try:
        game = o.Onitama.standard(seed=seed, card_set=name)
    except LudoError as e:
        assert "card set" in str(e)
    else:
        assert game.rules == "standard"
        assert o.Onitama.from_notation(game.to_notation()) == game


def test_drawings_have_no_wall() -> None:
    game = o.Onitama.standard(seed=2)
    assert "W" not in game.draw()
    svg = game._repr_svg_()
    assert "<svg" in svg
    assert game.rgb_array().shape[2] == 3


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.lists(st.integers(0, 10**6), max_size=30))
def test_round_trips(seed: int, choices: list[int]) -> None:
    game = o.Onitama.standard(seed=seed)
    for c in choices:
        legal = game.legal_moves
        if not legal:
            break
        action = legal[c % len(legal)]
        assert o.Action(str(action), standard=True) == action
        assert pickle.loads(pickle.dumps(action)) == action
        game.play(str(action))
    assert o.Onitama.from_json(game.to_json()) == game
    again = o.Onitama.from_notation(game.to_notation())
    assert again.to_notation() == game.to_notation()
    assert pickle.loads(pickle.dumps(game)) == game
    assert [str(a) for a in o.Onitama.from_json(game.to_json()).history] == [
        str(a) for a in game.history
    ]


def test_builtin_ais_and_play_match() -> None:
    game = o.Onitama.standard(seed=11, max_plies=80)
    for level in (0, 1, 2):
        a = game.best_move(level=level, nodes=2000, time=None)
        assert a.standard and a in game.legal_moves
    record = o.play_match(
        o.builtin_ai(2, time=None, nodes=500),
        o.builtin_ai(1, seed=3),
        setup=game,
        max_plies=None,
    )
    assert record.reason is not None
    assert all(a.standard for a in record.actions)


def test_cli_match_and_play_standard() -> None:
    import io

    from LudoGame import onitama_cli as cli

    out = io.StringIO()
    args = cli.build_parser().parse_args(
        ["match", "2", "1", "--standard", "--deal", "4", "--time", "0.02"]
    )
    assert cli.cmd_match(args, out) == 0
    head, moves = out.getvalue().splitlines()[:2]
    assert head.startswith("standard deal 4: ")
    assert all(len(m.strip("[]").split()) == 3 for m in moves.split("] ["))

    # Two AIs play a whole standard game at the terminal (no wall prompt).
    args = cli.build_parser().parse_args(
        ["play", "--standard", "--deal", "1", "--ai-a", "1", "--ai-b", "0", "--max-plies", "6"]
    )
    out = io.StringIO()
    assert cli.cmd_play(args, io.StringIO(""), out) == 0
    assert cli.WALL_PROMPT not in out.getvalue()
    assert "W" not in out.getvalue().replace("Wall", "")


def test_cli_standard_deals_without_a_seed_are_fresh_and_printed() -> None:
    """No --deal: a fresh 64-bit seed, printed, which --deal deals again (as the web's
    games and Python's Game(seed=None) do: one meaning of no seed)."""
    import io
    import re

    from LudoGame import onitama_cli as cli

    def play(*more: str) -> tuple[int, str]:
        argv = ["play", "--standard", "--ai-a", "0", "--ai-b", "0", "--max-plies", "2", *more]
        out = io.StringIO()
        assert cli.cmd_play(cli.build_parser().parse_args(argv), io.StringIO(""), out) == 0
        first, rest = out.getvalue().split("\n", 1)
        m = re.fullmatch(r"Standard deal (\d+): --deal \1 deals it again\.", first)
        assert m, first
        return int(m.group(1)), rest.split("Player A", 1)[0]  # the deal's first board

    seeds = set()
    for _ in range(3):
        seed, board = play()
        assert 0 <= seed < 2**64
        seeds.add(seed)
    assert len(seeds) == 3
    assert play("--deal", str(seed)) == (seed, board)
    out = io.StringIO()
    args = cli.build_parser().parse_args(["match", "0", "0", "--standard", "--max-plies", "2"])
    assert cli.cmd_match(args, out) == 0
    head = out.getvalue().split(":", 1)[0]
    assert re.fullmatch(r"standard deal \d+", head) and head != "standard deal 0", head


def test_cli_tournament_standard(tmp_path: Path) -> None:
    import io
    import json

    from LudoGame import onitama_cli as cli

    save = tmp_path / "games.json"
    out = io.StringIO()
    argv = ["tournament", "0", "1", "--standard", "--deals", "3,8", "--card-set", "sensei"]
    argv += ["--max-plies", "30", "--save", str(save)]
    args = cli.build_parser().parse_args(argv)
    assert cli.cmd_tournament(args, out) == 0
    assert "rank" in out.getvalue()
    games = json.loads(save.read_text())["games"]
    assert len(games) == 4  # one pair, two deals, both sides
    sensei = {c.name for c in o.SENSEI_CARDS}
    for g in games:
        start = o.Onitama.from_notation(g["start"])
        assert start.rules == "standard"
        assert {c.name for c in start.cards.values()} <= sensei
    starts = {g["start"] for g in games}
    want = {o.Onitama.standard(seed=s, card_set="sensei").to_notation() for s in (3, 8)}
    assert {s.replace("n=30", "n=1000") for s in starts} == want


def test_cli_tournament_standard_course() -> None:
    import io

    from LudoGame import onitama_cli as cli

    out = io.StringIO()
    argv = ["tournament", "1", "2", "--standard", "--deals", "5", "--course"]
    argv += ["--qualify-games", "2", "--nodes", "200", "--max-plies", "24"]
    args = cli.build_parser().parse_args(argv)
    assert cli.cmd_tournament(args, out) == 0
    assert "qualif" in out.getvalue().lower()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "--standard", "--setups", "21"], "--deals"),
        (["tournament", "--deals", "1,2"], "add --standard"),
        (["tournament", "--standard", "--deals", "1,x"], "whole numbers"),
        (["tournament", "--standard", "--deals", ","], "at least one seed"),
        (["tournament", "--card-set", "sensei"], "add --standard"),
        (["match", "--card-set", "all"], "add --standard"),
    ],
)
def test_cli_standard_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from LudoGame import onitama_cli as cli

    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_card_set_choices(capsys: pytest.CaptureFixture[str]) -> None:
    from LudoGame import onitama_cli as cli

    with pytest.raises(SystemExit):
        cli.main(["match", "--standard", "--card-set", "promo"])
    assert "base" in capsys.readouterr().err


OX_DEAL = ["ox", "boar", "horse", "elephant", "crab"]


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ((1, "e2", "d2", "u"), "Standard Onitama has no wall: the wall part must be 's'"),
        ((1, "XX", "XX", "s"), "only when no piece can move"),
    ],
)
def test_a_standard_games_refusals_speak_of_its_own_rules(
    answer: tuple[int, str, str, str], words: str
) -> None:
    """A wall step, or playing a card without moving while a piece can move, is refused in
    standard Onitama's own words (the wall variant keeps the coursework's)."""
    game = o.Onitama.standard(cards=OX_DEAL, first="A")
    before = game.to_notation()
    with pytest.raises(o.IllegalActionError, match=words):
        game.judge(*answer)
    if answer[1] == "XX":  # as text too ('1 e2 d2' is a fine standard action)
        with pytest.raises(o.IllegalActionError, match=words):
            game.play(" ".join(map(str, answer[:3])))
    assert game.to_notation() == before
    wall = o.Onitama.setup(21)
    with pytest.raises(o.IllegalActionError, match="the start position is invalid"):
        wall.judge(1, "XX", "XX", "s")


def test_first_is_named_as_the_argument() -> None:
    with pytest.raises(LudoError, match="first 'C' is not 'A' or 'B'"):
        o.Onitama.standard(cards=OX_DEAL, first="C")


def test_a_match_on_a_standard_game_keeps_the_games_ply_limit() -> None:
    """`play_match`'s default limit is the setup's own: 20 plies for a coursework setup,
    the game's plies left (1000 for a new standard deal) for a given game."""
    start = o.Onitama.standard(seed=3)
    record = o.play_match(o.builtin_ai(1, seed=1), o.builtin_ai(1, seed=2), start)
    assert record.reason != "ply_limit" or record.plies == 1000
    assert record.plies > 20 or record.reason != "ply_limit"
    coursework = o.play_match(o.builtin_ai(0, seed=1), o.builtin_ai(0, seed=2), 21)
    assert coursework.plies <= 20


def test_a_standard_picture_wears_the_stamp_colours_and_names_the_cards() -> None:
    """Blue is A (the hand named first in the community's tables), red B; each card's name
    is written under it in its stamp's colour."""
    game = o.Onitama.standard(cards=OX_DEAL, first="A")
    svg = game._repr_svg_()
    blue, red = "#2c3e73", "#c0392b"
    assert svg.count(f'fill="{blue}" stroke="#222"') == 5  # A's five pieces
    assert svg.count(f'fill="{red}" stroke="#222"') == 5
    assert 'class="card-name"' in svg and ">Ox<" in svg and ">Crab<" in svg
    wall = o.Onitama.setup(21)._repr_svg_()
    assert 'class="card-name"' not in wall  # the coursework's pictures are unchanged
