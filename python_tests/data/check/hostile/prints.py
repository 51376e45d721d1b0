import os
import sys

print('{"load": "ok"}')


class LudoGame:
    def play_game(self, players, turns):
        print("[]")
        os.write(1, b"garbage\n")
        sys.stdout.write("more\n")
        return ["H"] * (2 * len(players))
