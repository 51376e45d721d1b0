import sys


class LudoGame:
    def play_game(self, players, turns):
        sys.exit(3)
