# ludo check test file: priority rule 2 (an exact finish) is checked before rule 1 (a 6 brings a
# yard token out) (D9)
"""A short implementation of the CS162 Ludo rules (decisions D1-D13 as the engine reads them),
written for the tests of `ludo check`: it must agree with the engine on every game.
The files beside it are copies with one rule read another way (each says which)."""

START = {"A": 1, "B": 15, "C": 29, "D": 43}
NOT_FOUND = "Player not found!"


class Player:
    def __init__(self, position):
        self.position = position
        self.steps = [-1, -1]

    def get_completed(self):
        return self.steps == [57, 57]

    def get_token_p_step_count(self):
        return self.steps[0]

    def get_token_q_step_count(self):
        return self.steps[1]

    def get_space_name(self, steps):
        if steps == -1:
            return "H"
        if steps == 0:
            return "R"
        if steps == 57:
            return "E"
        if steps > 50:
            return f"{self.position}{steps - 50}"
        return str(self.space(steps))

    def space(self, steps):
        return (START[self.position] - 1 + steps - 1) % 56 + 1

    def stacked(self):
        return self.steps[0] == self.steps[1] and 1 <= self.steps[0] <= 56


def advance(old, roll):
    if old == 57:
        return 57
    if old == -1:
        return 0 if roll == 6 else -1
    new = old + roll
    return 114 - new if new > 57 else new


class LudoGame:
    def __init__(self):
        self.players = {}

    def get_player_by_position(self, position):
        return self.players.get(position, NOT_FOUND) if isinstance(position, str) else NOT_FOUND

    def victims(self, player, new):
        if not 1 <= new <= 50:
            return []
        here = player.space(new)
        return [
            (other, j)
            for other in self.players.values()
            if other is not player
            for j in (0, 1)
            if 1 <= other.steps[j] <= 50 and other.space(other.steps[j]) == here
        ]

    def move_token(self, player, token_name, steps):
        i = "pq".index(token_name)
        new = advance(player.steps[i], steps)
        moving = [0, 1] if player.stacked() else [i]
        for j in moving:
            player.steps[j] = new
        for other, j in self.victims(player, new):
            other.steps[j] = -1

    def choose(self, player, roll):
        s = player.steps
        movable = [i for i in (0, 1) if s[i] != 57 and (s[i] >= 0 or roll == 6)]
        if len(movable) <= 1 or player.stacked():
            return movable[0] if movable else None
        for i in (0, 1):
            if s[i] > 50 and s[i] + roll == 57:
                return i
        if roll == 6 and -1 in s:
            return s.index(-1)
        for i in (0, 1):
            if self.victims(player, advance(s[i], roll)):
                return i
        return 0 if s[0] <= s[1] else 1

    def play_game(self, players, turns):
        self.players = {p: Player(p) for p in players}
        for position, roll in turns:
            player = self.players[position]
            if player.get_completed():
                continue
            i = self.choose(player, roll)
            if i is not None:
                self.move_token(player, "pq"[i], roll)
        return [self.players[p].get_space_name(s) for p in players for s in self.players[p].steps]
