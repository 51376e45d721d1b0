class LudoGame:
    def play_game(self, players, turns):
        raise KeyError("oops")
