"""Fair dice online: a game's seed, committed to at its start and shown at its end.

While a game with a player on another device is played, the server keeps its seed (and the
die's state) to itself; the game's state carries only the *commitment*, the SHA-256 digest
of the seed's decimal text (`commitment`). Once the game is over the server shows the seed,
and its saved game (``GET .../save`` then) holds the seed's text beside the commitment.
`verify_save` checks such a save (``ludo verify SAVED.json``): that the seed is the one
committed to, and that every roll of the die (Ludo), or the deal (Onitama), is the one that
seed gives."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from LudoGame._core import Game, LudoError
from LudoGame.onitama import Onitama

#: The field of a finished online Ludo game's save holding the commitment to its seed.
LUDO_COMMITMENT = "dice_commitment"
#: The field of a finished online Onitama game's save holding the commitment to its seed.
ONITAMA_COMMITMENT = "seed_commitment"
#: The fields of a finished online Onitama game's save naming how its cards were dealt:
#: ``"random"`` (``Onitama.dealt``) or ``"standard"`` (``Onitama.standard`` from a card set).
DEAL, CARD_SET = "deal", "card_set"

_SEED_TEXT = re.compile(r"[0-9]{1,20}")


def commitment(seed: int) -> str:
    """The commitment to `seed`: the SHA-256 hex digest of its decimal text (``seed_text``)."""
    found = _COMMITMENTS.get(seed)
    if found is None:
        found = hashlib.sha256(str(seed).encode("ascii")).hexdigest()
        if len(_COMMITMENTS) >= 4096:  # (each game's state shows its seed's, every time)
            _COMMITMENTS.clear()
        _COMMITMENTS[seed] = found
    return found


#: The commitments worked out lately, by seed.
_COMMITMENTS: dict[int, str] = {}


class BadSaveError(ValueError):
    """A file that is not the save of a finished online game (not JSON, not a game's save,
    or without the seed and its commitment)."""


@dataclass(frozen=True)
class Verdict:
    """What `verify_save` found: `verified`, and the verdict in one line."""

    verified: bool
    message: str


def verify_save(text: str) -> Verdict:
    """Check the save of a finished online game (Ludo or Onitama, as the server gives it once
    the game is over): the SHA-256 of its ``seed_text`` is its commitment, and the seed
    gives every roll of the die (Ludo: the engine replays the game, checking each die roll;
    rolls given by value are allowed only before the first die roll, the saved game the
    online one continued) or the start's cards (Onitama). Raises `BadSaveError` for a file that is
    not such a save."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise BadSaveError(f"the file is not JSON ({e})") from None
    if not isinstance(data, dict):
        raise BadSaveError("the file is not a saved game (a JSON object)")
    kind = data.get("format")
    if kind == "ludogame-game/1":
        return _verify_ludo(text, data)
    if kind == "ludogame-onitama/1":
        return _verify_onitama(data)
    raise BadSaveError("the file is not a saved Ludo or Onitama game (its format is not known)")


def _seed(data: dict[str, Any], field: str) -> tuple[int, str] | Verdict:
    """The seed a save reveals and its commitment, or the verdict that they do not match."""
    seed_text, committed = data.get("seed_text"), data.get(field)
    if not isinstance(seed_text, str) or not isinstance(committed, str):
        raise BadSaveError(
            f"the save has no seed_text and {field}: it is not the save of a finished online "
            "game (download it once the game is over)"
        )
    if not _SEED_TEXT.fullmatch(seed_text) or int(seed_text) >= 2**64:
        return Verdict(False, f"not verified: seed_text {seed_text[:30]!r} is not a seed")
    if commitment(int(seed_text)) != committed.lower() or seed_text != str(int(seed_text)):
        return Verdict(
            False,
            f"not verified: the SHA-256 of seed_text {seed_text} is not the commitment "
            f"{committed[:64]}",
        )
    return int(seed_text), committed.lower()


def _verify_ludo(text: str, data: dict[str, Any]) -> Verdict:
    found = _seed(data, LUDO_COMMITMENT)
    if isinstance(found, Verdict):
        return found
    seed, committed = found
    if data.get("seed") != seed:
        return Verdict(False, f"not verified: the save's seed is not its seed_text {seed}")
    try:
        game = Game.from_json(text)  # replays every roll: a die roll must be the die's
    except LudoError as e:
        return Verdict(False, f"not verified: the game does not replay from seed {seed}: {e}")
    rolls = [e for e in game.history if e["kind"] == "roll"]
    given = 0
    while given < len(rolls) and not rolls[given]["die"]:
        given += 1
    if any(not e["die"] for e in rolls[given:]):
        return Verdict(False, "not verified: a roll given by value comes after a die roll")
    loaded = f" (the {given} rolls before them were given: the saved game it continued)"
    return Verdict(
        True,
        f"verified: seed {seed} is the one committed to ({committed[:16]}...) and gives all "
        f"{len(rolls) - given} die rolls" + (loaded if given else ""),
    )


def _verify_onitama(data: dict[str, Any]) -> Verdict:
    found = _seed(data, ONITAMA_COMMITMENT)
    if isinstance(found, Verdict):
        return found
    seed, committed = found
    deal, card_set = data.get(DEAL), data.get(CARD_SET)
    start_text = data.get("start")
    if deal not in ("random", "standard") or not isinstance(start_text, str):
        raise BadSaveError("the save names no deal (random or standard) or has no start")
    try:
        start = Onitama.from_notation(start_text)
        Onitama.from_json(json.dumps(data))  # the actions replay from the start
        if deal == "standard":
            dealt = Onitama.standard(seed=seed, card_set=card_set, max_plies=start.plies_left)
        else:
            dealt = Onitama.dealt(seed, start.plies_left)
    except LudoError as e:
        return Verdict(False, f"not verified: the game does not replay: {e}")
    if dealt.to_notation() != start.to_notation():
        return Verdict(False, f"not verified: seed {seed} does not deal the start's cards")
    return Verdict(
        True,
        f"verified: seed {seed} is the one committed to ({committed[:16]}...) and deals the "
        "start's cards",
    )
