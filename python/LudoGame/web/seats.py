"""Who sits at a game's seats and who may act for them: the kinds of seat, the keys of the
remote seats and of whoever started the game (kept as digests: `keys.key_digest`), and the
checks that refuse a request without the right key (403)."""

from __future__ import annotations

import secrets
from typing import ClassVar, Literal

from LudoGame.web.errors import ApiError
from LudoGame.web.keys import key_digest, new_id, same_key

#: The kinds of seat a person plays: on the screen that started the game, or on a device of
#: their own (invited by a link, acting with the seat's key).
HUMAN: Literal["human"] = "human"
REMOTE: Literal["remote"] = "remote"
PEOPLE = (HUMAN, REMOTE)
#: Who made a history entry that the turn timer's bot played for an absent remote seat.
TIMER = "timer"


class Seats:
    """The seat keys of a `Session` (a mixin: the session says its seats' kinds)."""

    kind: ClassVar[str]
    id: str
    #: the digest (`key_digest`) of each remote seat's key: a key itself is never kept,
    #: only shown once, in the answer to the new game
    keys: dict[str, str]
    #: the keys this session made, until the answer to the new game shows them (then
    #: forgotten): each remote seat's (`issue_keys`), and the host's
    issued: dict[str, str]
    issued_host: str
    #: the digest of the key of whoever started the game (`issued_host`): it acts for the
    #: game's "human" seats once the game has a remote seat, and may delete it
    host_key: str

    def seat_kinds(self) -> dict[str, str]:
        """Each seat's kind: "human", "remote" or the machine's."""
        raise NotImplementedError

    def is_over(self) -> bool:
        """Is the game over?"""
        raise NotImplementedError

    @property
    def online(self) -> bool:
        """Does a seat play on another device? Then every action needs a key."""
        return bool(self.keys)

    def issue_keys(self, seats: list[str]) -> None:
        """Make a new key for each of `seats` (remote seats): the game keeps their digests,
        and `issued` the keys themselves until the answer to the new game shows them."""
        self.issued = {p: new_id() for p in seats}
        self.keys = {p: key_digest(k) for p, k in self.issued.items()}

    @property
    def hides_seed(self) -> bool:
        """Is the game's seed kept from its players (an online game not yet over)?"""
        return self.online and not self.is_over()

    def key_for(self, seat: str | None) -> str | None:
        """The digest of the key that acts for `seat` (None: no key needed). A remote seat
        needs its own key; once a game is online, its other seats (people here, bots) and
        the game itself (seat None) need the host's key."""
        if seat is not None and seat in self.keys:
            return self.keys[seat]
        return self.host_key if self.online else None

    def check_key(self, seat: str | None, given: str | None) -> None:
        """Refuse (403 `NotYourSeat`) a request for `seat` without its key."""
        needed = self.key_for(seat)
        if needed is None or same_key(given, needed):
            return
        whose = f"seat {seat}" if seat is not None else "this game"
        if seat in self.keys:
            why = "it is played on another device"
        else:
            why = "it belongs to whoever started the game"
        raise ApiError(
            403,
            "NotYourSeat",
            f"you cannot act for {whose}: {why}, and acting for it needs its key in the "
            "X-Seat-Key header" + ("" if given is None else " (the key given is not it)"),
        )

    def seats_of(self, key: str | None) -> list[str]:
        """The seats `key` plays: a remote seat's own, or the host's people on its screen
        (none for a missing or unknown key)."""
        if key is None or not self.online:
            return []
        digest = key_digest(key)
        for seat, needed in self.keys.items():
            if secrets.compare_digest(digest, needed):
                return [seat]
        if secrets.compare_digest(digest, self.host_key):
            return [p for p, k in self.seat_kinds().items() if k == HUMAN]
        return []

    def links(self, base: str) -> dict[str, str]:
        """The invite address of each remote seat whose key this session made (`issued`:
        only the answer to a new game has them), the key in the fragment, which browsers
        do not send to servers."""
        return {
            seat: f"{base}{self.kind}?game={self.id}&seat={seat}#key={key}"
            for seat, key in self.issued.items()
        }

    def check_player(self, key: str | None, doing: str) -> None:
        """Refuse (403) `doing` (e.g. "ask for a rematch") asked in an online game without
        the key of one of its seats or of the host."""
        if not self.online:
            return
        if any(same_key(key, needed) for needed in (self.host_key, *self.keys.values())):
            return
        raise ApiError(
            403,
            "NotYourSeat",
            f"only a player of this game (or whoever started it) may {doing}: "
            "send your seat's key in the X-Seat-Key header"
            + ("" if key is None else " (the key given is not one)"),
        )

    def may_rematch(self, key: str | None) -> None:
        """Refuse (403) a rematch asked without the key of a seat or of the host."""
        self.check_player(key, "ask for a rematch")
